package mintlifytest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/*.golden from what the fake serves now")

// goldenDataset is small enough to read in the golden file, and big enough
// to use every branch of the generators: more paths than sections, more
// search terms than topics, every feedback source and conversation kind.
var goldenDataset = Dataset{Paths: 9, Days: 6, Seed: 42, SearchTerms: 20, Feedback: 30, Conversations: 14}

// TestDataset_answersAreStable pins what the fake serves for one Dataset,
// page by page: users' tests assert on these numbers, so a change in them
// must be deliberate (go test -run Golden -update, reviewed, noted in
// the CHANGELOG). The semantic tests beside it say why the numbers are
// right; this one says they did not move.
func TestDataset_answersAreStable(t *testing.T) {
	h := newHarness(t, Config{Analytics: goldenDataset, AnalyticsBudget: -1})
	var out bytes.Buffer
	record := func(endpoint string) map[string]any {
		t.Helper()
		status, body := h.raw("/v1/analytics/demo-project/" + endpoint)
		fmt.Fprintf(&out, "> GET %s\n< %d %s\n", endpoint, status, body)
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s: %v", endpoint, err)
		}
		return m
	}
	// follow records every page of a cursor-paged export.
	follow := func(endpoint string) {
		t.Helper()
		next := endpoint
		for range 50 {
			page := record(next)
			c, _ := page["nextCursor"].(string)
			if c == "" {
				return
			}
			next = endpoint + "&cursor=" + url.QueryEscape(c)
		}
		t.Fatalf("%s: more than 50 pages", endpoint)
	}

	for _, e := range []string{"visitors", "views"} {
		record(e)
		// Pages that end before, at and past the last row.
		record(e + "?limit=4")
		record(e + "?limit=4&offset=4")
		record(e + "?limit=4&offset=8")
		record(e + "?limit=3&offset=6")
		record(e + "?offset=9")
		// A range inside the data, one across its start, one before it.
		record(e + "?dateFrom=2026-10-29&dateTo=2026-10-31")
		record(e + "?dateFrom=2026-10-20&dateTo=2026-10-27")
		record(e + "?dateFrom=2026-09-01&dateTo=2026-09-05")
	}
	follow("searches?limit=6")
	follow("searches?limit=5&dateFrom=2026-10-30")
	follow("feedback?limit=8")
	follow("feedback?limit=100&source=code_snippet")
	follow("feedback?limit=100&status=resolved,dismissed&dateTo=2026-10-29")
	record("feedback/by-page")
	record("feedback/by-page?source=contextual")
	record("feedback/by-page?status=pending&dateFrom=2026-10-28")
	follow("assistant?limit=5")
	first := record("assistant?limit=1&dateFrom=2026-10-30")
	if rows, _ := first["conversations"].([]any); len(rows) > 0 {
		record("assistant/threads/" + rows[0].(map[string]any)["id"].(string))
	}
	record("assistant/threads/01KAAAAAAAAAAAAAAAAAAAAAAA")
	record("assistant/caller-stats")
	record("assistant/caller-stats?dateFrom=2026-10-29&dateTo=2026-10-31")

	path := filepath.Join("testdata", "dataset.golden")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update to write it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(out.String(), "\n")); diff != "" {
		t.Errorf("the fake's answers moved (-golden +now):\n%s", diff)
	}
}

// raw sends a GET with the demo key and returns the status and body as sent.
func (h *harness) raw(path string) (int, []byte) {
	h.t.Helper()
	status, _, body := h.send(http.MethodGet, path, "", DemoAPIKey)
	return status, bytes.TrimSpace(body)
}
