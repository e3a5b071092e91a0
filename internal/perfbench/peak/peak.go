// Package peak reads the resident set of a process, for the benchmark's
// probes: what a case prints (Result), the high-water mark reset before
// it, and the figures of /proc/PID/status (Linux; elsewhere, none).
// It links nothing but the standard library, so that a probe linking it
// measures its own code alone.
package peak

import (
	"os"
	"strconv"
	"strings"
)

// Result is what a hostile server's case prints, as JSON.
type Result struct {
	Case string `json:"case"`
	// Measured is false where the figures cannot be read (not Linux):
	// the KiB figures are then 0.
	Measured bool `json:"measured"`
	// StartKiB is the resident set just before the case; PeakKiB the
	// process's high-water mark (VmHWM) at its end.
	StartKiB int64 `json:"startKiB"`
	PeakKiB  int64 `json:"peakKiB"`
	Nanos    int64 `json:"nanos"`
	// Parts read from a stream, bytes written by a download.
	Parts   int   `json:"parts"`
	Written int64 `json:"written"`
	// Err is the error the case ended with ("" for none).
	Err string `json:"err"`
}

// Self is this process's status file.
const Self = "/proc/self/status"

// Reset sets this process's high-water mark to its resident set now
// (Linux: 5 to /proc/self/clear_refs), so that VmHWM at the end of a case
// is the case's peak, not the start-up's. It reports whether the figures
// can be read at all.
func Reset() bool {
	if _, err := os.Stat(Self); err != nil {
		return false
	}
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// KiB reads a KiB figure (VmHWM, VmRSS) of a status file; 0 when the
// process is gone or the file has none.
func KiB(status, field string) int64 {
	data, err := os.ReadFile(status) //nolint:gosec // a /proc file
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			if f := strings.Fields(v); len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}
