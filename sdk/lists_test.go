package sdk

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// manyOf is a JSON list of n copies of item.
func manyOf(item string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

// A search keeps at most the results asked for: the server's excess is a
// problem, not data (before: 20,000 kept for a page size of 5).
func TestSearch_keepsAtMostThePageSize(t *testing.T) {
	result := `{"path":"/p","content":"c","metadata":{"score":0.5}}`
	for _, tt := range []struct {
		pageSize, sent, kept int
	}{{5, 20_000, 5}, {0, 11, DefaultSearchPageSize}, {50, 50, 50}, {3, 2, 2}} {
		_, c, _ := newDiscoveryFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteDiscoverySearch, Kind: mintlifytest.FaultMalformed, Body: manyOf(result, tt.sent)}}})
		res, err := c.Search(context.Background(), mintlifytest.DemoDomain, SearchRequest{Query: "x", PageSize: tt.pageSize})
		if err != nil || len(res.Results) != tt.kept {
			t.Fatalf("page %d, sent %d: %d kept, %v", tt.pageSize, tt.sent, len(res.Results), err)
		}
		want := fmt.Sprintf("results: %d results where at most %d were asked for: the first %d kept", tt.sent, tt.kept, tt.kept)
		if excess := tt.sent > tt.kept; excess != (len(res.Problems) == 1 && res.Problems[0] == want) || !excess && len(res.Problems) > 0 {
			t.Errorf("page %d, sent %d: problems %q", tt.pageSize, tt.sent, res.Problems)
		}
	}
}

// The Index keeps at most NumResults results, and a contents answer at
// most as many results and statuses as items were asked for.
func TestIndex_keepsAtMostWhatWasAskedFor(t *testing.T) {
	result := `{"id":"r","url":"https://x.example.com","title":"t","score":1,"source":"web"}`
	_, c, _ := newIndexFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{
		{Route: mintlifytest.RouteIndexSearch, Kind: mintlifytest.FaultMalformed, Body: `{"requestId":"q","results":` + manyOf(result, 500) + `}`},
		{Route: mintlifytest.RouteIndexContents, Kind: mintlifytest.FaultMalformed,
			Body: `{"requestId":"q","results":` + manyOf(result, 40) + `,"statuses":` + manyOf(`{"id":"r","status":"success"}`, 40) + `}`},
	}})
	ctx := context.Background()
	res, err := c.Search(ctx, IndexSearchRequest{Query: "x", NumResults: 3})
	if err != nil || len(res.Results) != 3 || len(res.Problems) != 1 || res.Problems[0] != "results: 500 results where at most 3 were asked for: the first 3 kept" {
		t.Errorf("%d results %q: %v", len(res.Results), res.Problems, err)
	}
	res, err = c.Search(ctx, IndexSearchRequest{Query: "x"})
	if err != nil || len(res.Results) != DefaultIndexResults {
		t.Errorf("default: %d results: %v", len(res.Results), err)
	}
	got, err := c.Contents(ctx, IndexContentsRequest{IDs: []string{"a"}, URLs: []string{"https://x.example.com"}})
	if err != nil || len(got.Results) != 2 || len(got.Statuses) != 2 || len(got.Problems) != 2 {
		t.Errorf("%d results, %d statuses, %q: %v", len(got.Results), len(got.Statuses), got.Problems, err)
	}
}

// An answer of countless tiny rows is not decoded: a list longer than any
// page is refused at once, and a row's problems are bounded (before: a
// 15 MiB page of {} rows made 21 million problems, an error of 687 MB
// and 5.9 GB of memory, in 400 s).
func TestDecode_countlessTinyRowsAreRefusedAtOnce(t *testing.T) {
	for name, body := range map[string]string{
		"analytics page": `{"visitors":` + manyOf("{}", bounded.MaxItems+1) + `,"totals":{"human":1,"ai":0,"total":1},"hasMore":false}`,
		"nested list":    `{"visitors":[{"path":"/","human":1,"ai":0,"total":1,"x":` + manyOf("0", bounded.MaxItems+1) + `}],"totals":{"human":1,"ai":0,"total":1},"hasMore":false}`,
		// Each member kept by a member-by-member decoder (before the cap:
		// 287 MB allocated and 12 s for a 15 MiB answer).
		"object members": `{"visitors":[],"totals":{"human":1,"ai":0,"total":1},` + strings.Repeat(`"k":0,`, bounded.MaxItems) + `"hasMore":false}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, srv := newRecorder(t, jsonResponse(200, body))
			c := newTestClient(t, srv.URL, newClock())
			start := time.Now()
			_, err := c.Analytics.Visitors.Page(context.Background(), "p", VisitorsQuery{})
			if !IsMalformedResponse(err) || !strings.Contains(err.Error(), "a list or an object holds more than 100000 items") || len(err.Error()) > 1000 || time.Since(start) > 5*time.Second {
				t.Fatalf("%d bytes of error in %s: %.300s", len(err.Error()), time.Since(start), err)
			}
		})
	}
	// At the ceiling, a list is read (and its problems are bounded).
	_, srv := newRecorder(t, jsonResponse(200, `{"visitors":`+manyOf("{}", bounded.MaxItems)+`,"totals":{"human":1,"ai":0,"total":1},"hasMore":false}`))
	c := newTestClient(t, srv.URL, newClock())
	_, err := c.Analytics.Visitors.Page(context.Background(), "p", VisitorsQuery{Limit: 250})
	if !IsMalformedResponse(err) || strings.Contains(err.Error(), "more than 100000") || len(err.Error()) > 10_000 || !strings.HasSuffix(err.Error(), bounded.MoreProblems) {
		t.Errorf("%d bytes: %.300s ... %s", len(err.Error()), err, err.Error()[max(0, len(err.Error())-100):])
	}
}

// An error body's details are read only when the list is sane.
func TestAPIError_countlessDetailsAreNotDecoded(t *testing.T) {
	_, srv := newRecorder(t, jsonResponse(http.StatusBadRequest, `{"error":"bad","details":`+manyOf(`{"message":"x"}`, bounded.MaxItems+1)+`}`))
	c := newTestClient(t, srv.URL, newClock())
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if !IsBadRequest(err) || len(err.Error()) > 1000 {
		t.Errorf("%.300s", err)
	}
}
