package optcheck

import (
	"testing"
	"time"
)

type settings struct {
	n int
	d time.Duration
}

func TestNotNegative(t *testing.T) {
	for _, tc := range []struct {
		v       time.Duration
		wantErr string
	}{{0, ""}, {time.Second, ""}, {-time.Nanosecond, "sdk: WithX: -1ns is negative"}} {
		s := settings{d: time.Hour}
		err := NotNegative("WithX", tc.v, func(s *settings) { s.d = tc.v })(&s)
		switch {
		case tc.wantErr == "" && (err != nil || s.d != tc.v):
			t.Errorf("%s: %v, set %s", tc.v, err, s.d)
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr || s.d != time.Hour):
			t.Errorf("%s: %v, set %s", tc.v, err, s.d)
		}
	}
	s := settings{n: 9}
	if err := NotNegative("WithN", -1, func(s *settings) { s.n = -1 })(&s); err == nil || err.Error() != "sdk: WithN: -1 is negative" || s.n != 9 {
		t.Errorf("%v, set %d", err, s.n)
	}
}

func TestAtLeast(t *testing.T) {
	for _, tc := range []struct {
		v       int
		wantErr string
	}{{1024, ""}, {5000, ""}, {1023, "sdk: WithY: 1023 is below 1 KiB"}, {-1, "sdk: WithY: -1 is below 1 KiB"}} {
		s := settings{n: 7}
		err := AtLeast("WithY", tc.v, 1024, "1 KiB", func(s *settings) { s.n = tc.v })(&s)
		switch {
		case tc.wantErr == "" && (err != nil || s.n != tc.v):
			t.Errorf("%d: %v, set %d", tc.v, err, s.n)
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr || s.n != 7):
			t.Errorf("%d: %v, set %d", tc.v, err, s.n)
		}
	}
}
