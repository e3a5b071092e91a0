package main

import (
	"strings"
	"testing"
	"time"
)

func TestRun_refusesAddressesOffLoopback(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:0":    "listens on loopback only",
		"10.1.2.3:80":  "listens on loopback only",
		"example.com:": "listens on loopback only",
		"nonsense":     "missing port",
	} {
		err := run(addr, 1, time.Second, "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", addr, err, want)
		}
	}
}
