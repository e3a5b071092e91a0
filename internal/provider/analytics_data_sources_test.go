package provider

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A paged analytics data source, as these tests drive it.
type pagedSource struct {
	name    string // the data source's type, without mintlify_
	route   string // its endpoint on the fake
	list    string // the state attribute of its rows
	wire    string // the API's list key
	largest int    // the largest page
	// data is a data set of about n rows for the endpoint.
	data func(n int) mintlifytest.Dataset
	// fields maps a state row's attributes to the API row's.
	fields map[string]string
	// top maps top-level state attributes to the API answer's.
	top map[string]string
	// apiDefault fills what the API may leave out (its documented default).
	apiDefault map[string]any
}

var pagedSources = []pagedSource{
	{name: "page_views", route: mintlifytest.RouteAnalyticsViews, list: "views", wire: "views", largest: 250,
		data:   func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{Paths: n, Seed: 3} },
		fields: map[string]string{"path": "path", "human": "human", "ai": "ai", "total": "total"},
		top:    map[string]string{"totals": "totals"}},
	{name: "search_queries", route: mintlifytest.RouteAnalyticsSearches, list: "searches", wire: "searches", largest: 100,
		data: func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{SearchTerms: n, Paths: 20, Seed: 3} },
		fields: map[string]string{"query": "searchQuery", "hits": "hits", "ctr": "ctr", "top_clicked_page": "topClickedPage",
			"last_searched_at": "lastSearchedAt"},
		top: map[string]string{"total_searches": "totalSearches"}},
	{name: "feedback", route: mintlifytest.RouteAnalyticsFeedback, list: "feedback", wire: "feedback", largest: 100,
		data: func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{Feedback: n, Paths: 20, Seed: 3} },
		fields: map[string]string{"id": "id", "path": "path", "comment": "comment", "created_at": "createdAt", "source": "source",
			"status": "status", "helpful": "helpful", "contact": "contact", "code": "code", "filename": "filename", "lang": "lang"}},
	{name: "assistant_conversations", route: mintlifytest.RouteAnalyticsConversations, list: "conversations", wire: "conversations", largest: 1000,
		data: func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{Conversations: n, Paths: 20, Seed: 3} },
		fields: map[string]string{"id": "id", "timestamp": "timestamp", "query": "query", "response": "response",
			"response_type": "responseType", "sources": "sources", "resolution_status": "resolutionStatus",
			"query_category": "queryCategory", "page_url": "pageUrl"},
		apiDefault: map[string]any{"responseType": "answer"}},
}

// matchesFake compares the data source's state, row by row, with what the
// fake holds for the same query, cut to maxResults rows.
func (ps pagedSource) matchesFake(fs *mintlifytest.Fake, q url.Values, maxResults int) statecheck.StateCheck {
	addr := "data.mintlify_" + ps.name + ".test"
	return valuesInState(addr, func(vals map[string]any) error {
		raw, err := fs.Data(mintlifytest.DemoProjectID, ps.route, q)
		if err != nil {
			return err
		}
		var want map[string]any
		if err := decodeNumbers(raw, &want); err != nil {
			return err
		}
		wantRows, _ := want[ps.wire].([]any)
		if maxResults > 0 && len(wantRows) > maxResults {
			wantRows = wantRows[:maxResults]
		}
		got, _ := vals[ps.list].([]any)
		if len(got) != len(wantRows) {
			return fmt.Errorf("%d rows in state, %d on the server", len(got), len(wantRows))
		}
		for i := range wantRows {
			if err := sameFields(got[i].(map[string]any), wantRows[i].(map[string]any), ps.fields, ps.apiDefault); err != nil {
				return fmt.Errorf("row %d: %w", i, err)
			}
		}
		return sameFields(vals, want, ps.top, nil)
	})
}

// decodeNumbers decodes JSON keeping numbers as json.Number, as state has them.
func decodeNumbers(raw []byte, v any) error {
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	return d.Decode(v)
}

// sameFields compares state attributes with API fields, by printed value:
// numbers come back as json.Number from state and float64 from the API.
func sameFields(state, api map[string]any, fields map[string]string, defaults map[string]any) error {
	for attr, field := range fields {
		w, present := api[field]
		if !present {
			w = defaults[field]
		}
		if g := state[attr]; fmt.Sprint(g) != fmt.Sprint(w) {
			return fmt.Errorf("%s: state %v, server %s=%v", attr, g, field, w)
		}
	}
	return nil
}

func (ps pagedSource) config(serverURL, args string) string {
	return providerBlock(serverURL) + fmt.Sprintf("\ndata \"mintlify_%s\" \"test\" {\n%s\n}\n", ps.name, args)
}

// readsAndRequests counts the reads of route (first pages: no offset and
// no cursor, or offset 0) and all its requests.
func readsAndRequests(fs *mintlifytest.Fake, route string) (reads, requests int) {
	for _, r := range fs.RequestLog() {
		if r.Route != route {
			continue
		}
		requests++
		if q, _ := url.ParseQuery(r.Query); q.Get("cursor") == "" && (q.Get("offset") == "" || q.Get("offset") == "0") {
			reads++
		}
	}
	return reads, requests
}

func TestAccAnalyticsDataSources_rowsAndRequests(t *testing.T) {
	clearEnv(t)
	for _, ps := range pagedSources {
		for _, tt := range []struct {
			rows       int
			args       string
			maxResults int
		}{
			{0, "", 0},
			{ps.largest, "", 0},     // exactly one full page
			{ps.largest + 1, "", 0}, // and one row more
			{ps.largest + 1, "max_results = 3", 3},
			{ps.largest + 1, "page_size = 40\n  max_results = 90", 90},
		} {
			t.Run(fmt.Sprintf("%s/%d rows %s", ps.name, tt.rows, strings.ReplaceAll(tt.args, "\n", " ")), func(t *testing.T) {
				fs, serverURL, clk := startFake(t, mintlifytest.Config{Analytics: ps.data(tt.rows)})
				raw, _ := fs.Data(mintlifytest.DemoProjectID, ps.route, nil)
				var all map[string]any
				_ = json.Unmarshal(raw, &all)
				n := len(all[ps.wire].([]any))
				if n != tt.rows {
					t.Fatalf("the data set holds %d rows, want %d: the test no longer tests the boundary", n, tt.rows)
				}
				runSteps(t, clk, []resource.TestStep{{
					Config: ps.config(serverURL, "  "+tt.args),
					ConfigStateChecks: []statecheck.StateCheck{
						ps.matchesFake(fs, nil, tt.maxResults),
						statecheck.ExpectKnownValue("data.mintlify_"+ps.name+".test", tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
					},
				}})
				rows, size := n, ps.largest
				if tt.maxResults > 0 {
					rows = min(rows, tt.maxResults)
				}
				if strings.Contains(tt.args, "page_size = 40") {
					size = 40
				}
				want := max(1, (rows+size-1)/size)
				if reads, requests := readsAndRequests(fs, ps.route); reads == 0 || requests != reads*want {
					t.Errorf("%d requests over %d reads; want %d a read", requests, reads, want)
				}
				for _, r := range fs.RequestLog() {
					q, _ := url.ParseQuery(r.Query)
					if limit := q.Get("limit"); !strings.Contains(tt.args, "page_size") && tt.maxResults == 0 && limit != fmt.Sprint(ps.largest) {
						t.Errorf("request %s: the page size is not the largest", r.Query)
					}
				}
			})
		}
	}
}

func TestAccAnalyticsDataSources_filtersAndDates(t *testing.T) {
	fs, serverURL, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 40, Feedback: 600, SearchTerms: 50, Conversations: 300, Seed: 8}})
	feedback := pagedSources[2]
	runSteps(t, clk, []resource.TestStep{
		{
			Config: feedback.config(serverURL, `
  source    = "contextual"
  statuses  = ["pending", "resolved"]
  date_from = "2026-10-01"
  date_to   = "2026-10-15T00:00:00+02:00"
`),
			ConfigStateChecks: []statecheck.StateCheck{
				feedback.matchesFake(fs, url.Values{"source": {"contextual"}, "status": {"pending,resolved"}, "dateFrom": {"2026-10-01"}, "dateTo": {"2026-10-15T00:00:00+02:00"}}, 0),
				statecheck.ExpectKnownValue("data.mintlify_feedback.test", tfjsonPath("id"),
					knownString("demo-project?date_from=2026-10-01&date_to=2026-10-15T00%3A00%3A00%2B02%3A00&source=contextual&statuses=pending%2Cresolved")),
			},
		},
		{
			Config: pagedSources[0].config(serverURL, `
  date_from = "2026-10-01T00:00:00"
  date_to   = "2026-10-08"
`),
			ConfigStateChecks: []statecheck.StateCheck{pagedSources[0].matchesFake(fs, url.Values{"dateFrom": {"2026-10-01T00:00:00"}, "dateTo": {"2026-10-08"}}, 0)},
		},
	})
	for _, r := range fs.RequestLog() {
		if r.Route == mintlifytest.RouteAnalyticsFeedback && !strings.Contains(r.Query, "source=contextual&status=pending%2Cresolved") {
			t.Errorf("feedback query %s lacks the filters", r.Query)
		}
	}
}

func TestAccFeedbackByPage_oneRequestAndHasMore(t *testing.T) {
	clearEnv(t)
	for _, tt := range []struct {
		paths, feedback int
		args            string
		wantRows        int
		wantMore        bool
	}{
		{0, 0, "", 0, false},
		{30, 400, "", 30, false},
		{150, 3000, "", 100, true},
		{150, 3000, "max_results = 10", 10, true},
	} {
		t.Run(fmt.Sprintf("%d paths %s", tt.paths, tt.args), func(t *testing.T) {
			fs, serverURL, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: tt.paths, Feedback: tt.feedback, Seed: 2}})
			addr := "data.mintlify_feedback_by_page.test"
			runSteps(t, clk, []resource.TestStep{{
				Config: providerBlock(serverURL) + "data \"mintlify_feedback_by_page\" \"test\" {\n  " + tt.args + "\n}\n",
				ConfigStateChecks: []statecheck.StateCheck{
					checkState(func(s *tfjson.State) error {
						vals, _ := resourceValues(s.Values.RootModule, addr)
						raw, _ := fs.Data(mintlifytest.DemoProjectID, mintlifytest.RouteAnalyticsFeedbackByPage, nil)
						var want struct {
							Feedback []map[string]any `json:"feedback"`
						}
						_ = decodeNumbers(raw, &want)
						got := vals["pages"].([]any)
						if len(got) != tt.wantRows || vals["has_more"] != tt.wantMore {
							return fmt.Errorf("%d pages, has_more %v", len(got), vals["has_more"])
						}
						for i, g := range got {
							if err := sameFields(g.(map[string]any), want.Feedback[i], map[string]string{"path": "path", "thumbs_up": "thumbsUp",
								"thumbs_down": "thumbsDown", "code": "code", "total": "total"}, nil); err != nil {
								return fmt.Errorf("page %d: %w", i, err)
							}
						}
						return nil
					}),
				},
			}})
			if reads, requests := readsAndRequests(fs, mintlifytest.RouteAnalyticsFeedbackByPage); requests != reads || reads == 0 {
				t.Errorf("%d requests over %d reads", requests, reads)
			}
		})
	}
}

func TestAccAssistantCallerStats_matchTheServer(t *testing.T) {
	fs, serverURL, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Conversations: 400, Seed: 2}})
	addr := "data.mintlify_assistant_caller_stats.test"
	runSteps(t, clk, []resource.TestStep{{
		Config: providerBlock(serverURL) + "data \"mintlify_assistant_caller_stats\" \"test\" {\n  date_from = \"2026-10-01\"\n}\n",
		ConfigStateChecks: []statecheck.StateCheck{checkState(func(s *tfjson.State) error {
			vals, _ := resourceValues(s.Values.RootModule, addr)
			raw, _ := fs.Data(mintlifytest.DemoProjectID, mintlifytest.RouteAnalyticsCallerStats, url.Values{"dateFrom": {"2026-10-01"}})
			var want map[string]any
			_ = decodeNumbers(raw, &want)
			if fmt.Sprint(want["total"]) == "0" {
				return fmt.Errorf("no conversations in October: nothing is compared")
			}
			return sameFields(vals, want, map[string]string{"web": "web", "api": "api", "other": "other", "total": "total"}, nil)
		})},
	}})
	if n := fs.Requests(mintlifytest.RouteAnalyticsCallerStats); n == 0 {
		t.Error("no request")
	}
}

func TestAccAnalyticsDataSources_invalidInputFailsAtPlanWithNoRequest(t *testing.T) {
	fs, serverURL, clk := startAccFake(t, mintlifytest.Config{})
	for _, tt := range []struct{ source, args, want string }{
		{"page_views", "page_size = 251", "page_size is 251; it must be a whole number from 1 to 250."},
		{"search_queries", "page_size = 101", "page_size is 101; it must be a whole number from 1 to 100."},
		{"search_queries", "max_results = 1.5", "max_results is 1.5; it must be a whole number, at least 1."},
		{"feedback", `source = "email"`, `source "email" must be one of code_snippet, contextual, agent, thumbs_only`},
		{"feedback", `statuses = ["pending", "open"]`, `statuses[1] "open" must be one of pending, in_progress, resolved, dismissed`},
		{"feedback", `statuses = []`, `Attribute statuses list must contain at least 1 elements`},
		{"feedback", "page_size = 0", "page_size is 0"},
		{"feedback_by_page", "max_results = 101", "max_results is 101; it must be a whole number from 1 to 100."},
		{"feedback_by_page", `source = "x"`, `source "x" must be one of`},
		{"assistant_conversations", "page_size = 1001", "page_size is 1001; it must be a whole number from 1 to 1000."},
		{"assistant_conversations", `date_from = "2026-10-02"` + "\n  date_to = \"2026-10-01\"", `date_from "2026-10-02" must be before date_to "2026-10-01"`},
		{"assistant_caller_stats", `date_to = "soon"`, `date_to "soon" must be a date`},
		{"assistant_caller_stats", `project_id = ".."`, `project_id ".." is not allowed`},
		{"search_queries", `project_id = "p/q"`, `project_id "p/q" may hold only ASCII letters, digits and - _ . ~ :`},
		// A null status would read every status: refused.
		{"feedback", `statuses = [null]`, `Null List Value`},
		{"feedback", `statuses = ["pending", null]`, `This attribute contains a null value.`},
		{"feedback_by_page", `statuses = [null]`, `Null List Value`},
	} {
		runSteps(t, clk, []resource.TestStep{{Config: providerBlock(serverURL) + "data \"mintlify_" + tt.source + "\" \"test\" {\n  " + tt.args + "\n}\n",
			PlanOnly: true, ExpectError: wrapped(tt.want)}})
	}
	wantNoRequests(t, fs, "for invalid configuration")
}

func TestAccAnalyticsDataSources_rateLimitSaysWhenToRetry(t *testing.T) {
	_, serverURL, clk := startAccFake(t, mintlifytest.Config{AnalyticsBudget: 1, Analytics: mintlifytest.Dataset{SearchTerms: 150}})
	runSteps(t, clk, []resource.TestStep{{
		Config:      pagedSources[1].config(serverURL, ""),
		ExpectError: wrapped(`Could not read search queries`, `429 Too Many Requests`, `try again after`, `100 per organization per hour`),
	}})
}

// The analytics reads of one request (caller stats, feedback by page) end
// as the paged reads do (readEnded): a stale copy standing in for a
// refused read is used and said, and a failure names what was read.
func TestOneRequestReads_endAsPagedReadsDo(t *testing.T) {
	fs, serverURL, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 30, Feedback: 400, Conversations: 400, Seed: 2}})
	for _, tt := range []struct {
		what string
		d    func(analyticsBase) datasource.DataSource
	}{
		{"assistant caller stats", func(b analyticsBase) datasource.DataSource { return &assistantCallerStatsDataSource{b} }},
		{"feedback by page", func(b analyticsBase) datasource.DataSource { return &feedbackByPageDataSource{b} }},
	} {
		// A client of its own: the other's knows the budget is spent.
		data := clientFor(t, serverURL, sdk.WithClock(clk),
			sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: t.TempDir(), FreshFor: time.Minute, MaxStale: time.Hour}))
		data.clock = clk
		d := tt.d(analyticsBase{data: data})
		fs.ClearFaults()
		vals := map[string]tftypes.Value{"date_from": str("2026-10-01")}
		if resp := readWith(t, d, vals); len(resp.Diagnostics) != 0 {
			t.Fatalf("%s, fresh: %v", tt.what, resp.Diagnostics)
		}
		// The copy is no longer fresh, and the hour's budget is spent.
		clk.Advance(2 * time.Minute)
		fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
		resp := readWith(t, d, vals)
		if got := diagText(resp.Diagnostics, diag.SeverityWarning); resp.Diagnostics.HasError() ||
			!strings.HasPrefix(got, "Mintlify "+tt.what+" served from cache: ") || !strings.Contains(got, "fetched 2m0s ago") {
			t.Errorf("%s, refused with a copy: %v", tt.what, resp.Diagnostics)
		}
		// Another date range has no copy: the refusal is the read's error.
		vals["date_from"] = str("2026-09-01")
		resp = readWith(t, d, vals)
		if got := diagText(resp.Diagnostics, diag.SeverityError); !strings.HasPrefix(got, "Could not read "+tt.what+": ") ||
			!strings.Contains(got, "429 Too Many Requests") {
			t.Errorf("%s, refused without a copy: %q", tt.what, got)
		}
	}
}
