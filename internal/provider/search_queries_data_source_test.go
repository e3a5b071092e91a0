package provider

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// A server that never stops paging, with answers larger than asked: the
// read stops at the client's 64 MiB cap with an error naming it, and
// nothing of it is cached (the bound docs/performance.md measures).
func TestAccSearchQueries_endlessServerStopsAtTheByteCap(t *testing.T) {
	clearEnv(t)
	cacheDir := t.TempDir()
	t.Setenv(EnvCacheDir, cacheDir)
	t.Setenv(EnvCacheTTL, "10m")
	var requests atomic.Int64
	pad := strings.Repeat("x", 1000)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := requests.Add(1)
		var b strings.Builder
		b.WriteString(`{"searches":[`)
		for i := range 1000 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"searchQuery":"q-%d-%d-%s","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"2026-11-20T00:00:00Z"}`, n, i, pad)
		}
		fmt.Fprintf(&b, `],"totalSearches":1000000,"nextCursor":"c%d"}`, n)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, b.String())
	}))
	t.Cleanup(ts.Close)
	clk := newTestClock()
	runSteps(t, clk, []resource.TestStep{{
		Config:      providerBlock(ts.URL) + "data \"mintlify_search_queries\" \"all\" {}\n",
		ExpectError: wrapped(`took the read past the client's cap of 64 MiB per read: read fewer rows (a max_results) or raise the cap; stopped after`),
	}})
	// About 1.05 MiB an answer: the 64 MiB cap is passed on the 62nd (the
	// 1,000-request cap would take 1,000). One read, tried once.
	if n := requests.Load(); n < 61 || n > 63 {
		t.Errorf("%d requests, want the 64 MiB cap passed at about 62", n)
	}
	_ = filepath.WalkDir(cacheDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			t.Errorf("cache holds %s after a read that failed", path)
		}
		return nil
	})
}
