package peak

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestKiB_readsAFieldOfAStatusFile(t *testing.T) {
	status := filepath.Join(t.TempDir(), "status")
	if err := os.WriteFile(status, []byte("Name:\tprobe\nVmPeak:\t  99999 kB\nVmHWM:\t    8944 kB\nVmRSS:\t    8964 kB\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := KiB(status, "VmHWM"); got != 8944 {
		t.Errorf("VmHWM %d, want 8944", got)
	}
	if got := KiB(status, "VmRSS"); got != 8964 {
		t.Errorf("VmRSS %d, want 8964", got)
	}
	if got := KiB(status, "VmSwap"); got != 0 {
		t.Errorf("a missing field read as %d", got)
	}
	if got := KiB(filepath.Join(t.TempDir(), "gone"), "VmHWM"); got != 0 {
		t.Errorf("a gone process read as %d", got)
	}
}

// On Linux the reset brings the mark down to the resident set (64 MiB
// given back are forgotten); elsewhere nothing is measured.
func TestReset_theMarkStartsAgainFromTheResidentSet(t *testing.T) {
	if runtime.GOOS != "linux" {
		if Reset() {
			t.Error("measured without /proc")
		}
		return
	}
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = 1
	}
	before := KiB(Self, "VmHWM")
	big = nil
	debug.FreeOSMemory() // the 64 MiB go back to the system: the resident set falls
	if KiB(Self, "VmRSS") >= before {
		t.Skip("the memory freed was not given back to the system: a reset would not show")
	}
	if !Reset() {
		t.Skip("/proc/self/clear_refs is not writable here")
	}
	rss := KiB(Self, "VmRSS") // read first: the mark read after can only be as high
	if after := KiB(Self, "VmHWM"); after <= 0 || after >= before || after < rss {
		t.Errorf("VmHWM %d KiB after the reset (before %d, VmRSS now %d)", after, before, rss)
	}
	_ = big
}
