package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// seedJobs puts n jobs into the fake's demo project, one a minute apart
// before epoch, and returns their ids newest first (the listing's order).
func seedJobs(t *testing.T, fs *mintlifytest.Fake, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range n {
		id, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Prompt: fmt.Sprintf("job %d", i), CreatedAt: epoch.Add(-time.Duration(i) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

func sessionIDs(s []AgentSession) []string {
	ids := make([]string, len(s))
	for i := range s {
		ids[i] = s[i].ID
	}
	return ids
}

// listingQueries are the query strings of the listings the fake received.
func listingQueries(fs *mintlifytest.Fake) []string {
	var out []string
	for _, r := range fs.RequestLog() {
		if r.Route == mintlifytest.RouteAgentJobsSessions {
			out = append(out, r.Query)
		}
	}
	return out
}

// The listing has no total and no hasMore: a full page means there may be
// more. A read of N jobs costs floor(N/100)+1 requests: ceil(N/100), and
// one more, answered with no rows, when N is a multiple of 100.
func TestSessions_everyJobAtTheLargestPage(t *testing.T) {
	for _, tt := range []struct {
		jobs, requests int
	}{{0, 1}, {1, 1}, {99, 1}, {100, 2}, {101, 2}, {250, 3}, {300, 4}} {
		t.Run(fmt.Sprint(tt.jobs), func(t *testing.T) {
			fs, c, _ := newFake(t, mintlifytest.Config{})
			want := seedJobs(t, fs, tt.jobs)
			all, err := c.AgentJobs.Sessions.All(context.Background(), mintlifytest.DemoProjectID, SessionsQuery{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, sessionIDs(all.Sessions), cmp.Comparer(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			var queries []string
			for i := range tt.requests {
				queries = append(queries, fmt.Sprintf("skip=%d&take=100", 100*i))
			}
			if diff := cmp.Diff(queries, listingQueries(fs)); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if fs.TotalRequests() != tt.requests || all.Pages != tt.requests || all.Attempts != tt.requests {
				t.Errorf("%d requests, %d pages, %d attempts; want %d", fs.TotalRequests(), all.Pages, all.Attempts, tt.requests)
			}
			if tt.jobs > 0 && all.Sessions[0].Title != "job 0" {
				t.Errorf("first row %+v", all.Sessions[0])
			}
		})
	}
}

func TestSessions_rowsInTheV1Shape(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, `{"allSessions":[
	  {"sessionId":"s-1","subdomain":"acme","branch":"mintlify/fix","haulted":true,"haultReason":"completed",
	   "pullRequestLink":"https://github.com/acme/docs/pull/9","messageToUser":"Done.","userId":"u1","title":"Fix links",
	   "createdAt":"2026-11-20T10:00:00.5Z","extra":1,
	   "todos":[{"id":"t1","content":"Find links","status":"completed","priority":"high"}]},
	  {"sessionId":"s-2","haulted":false,"branch":null,"createdAt":"2026-11-20T09:00:00"}]}`))
	page, err := newTestClient(t, ts.URL, nil).AgentJobs.Sessions.Page(context.Background(), "p", SessionsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	branch, link := "mintlify/fix", "https://github.com/acme/docs/pull/9"
	want := []AgentSession{
		{ID: "s-1", Subdomain: "acme", Branch: &branch, Halted: true, HaltReason: HaltReasonCompleted, PRLink: &link,
			MessageToUser: "Done.", Title: "Fix links", UserID: "u1", Todos: []SessionTodo{{ID: "t1", Content: "Find links", Status: "completed", Priority: "high"}},
			CreatedAt: time.Date(2026, 11, 20, 10, 0, 0, 5e8, time.UTC)},
		{ID: "s-2", CreatedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)},
	}
	if diff := cmp.Diff(want, page.Sessions); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
	if page.Pages != 1 || page.Attempts != 1 {
		t.Errorf("info %+v", page.ResponseInfo)
	}
	if want[0].Status() != JobStatusCompleted || want[1].Status() != JobStatusActive {
		t.Errorf("statuses %q %q", want[0].Status(), want[1].Status())
	}
}

// A row's odd fields are its Problems: the row is still the job its id
// names. Only a page without its list, or a row without an id, is not to
// be trusted.
func TestSessions_decodeProblems(t *testing.T) {
	for name, tt := range map[string]struct {
		row  string
		want []string
	}{
		"a link that is not a web address": {`"pullRequestLink":"javascript:alert(1)","createdAt":"2026-11-20T10:00:00Z"`,
			[]string{`pullRequestLink: "javascript:alert(1)" is not an absolute http(s) URL: ignored`}},
		"no creation time":  {`"title":"x"`, []string{"createdAt: missing"}},
		"a bad time":        {`"createdAt":"yesterday"`, []string{`createdAt: "yesterday" is not an ISO 8601 timestamp`}},
		"mistyped fields":   {`"haulted":"yes","title":3,"todos":[{"id":1}],"createdAt":"2026-11-20T10:00:00Z"`, []string{"haulted: want true or false or null, got a string", "title: want a string or null, got a number", "todos[0].id: want a string or null, got a number"}},
		"todos not a list":  {`"todos":{},"createdAt":"2026-11-20T10:00:00Z"`, []string{"todos: want a list, got an object"}},
		"nothing else odd":  {`"createdAt":"2026-11-20T10:00:00Z"`, nil},
		"unknown halt kind": {`"haulted":true,"haultReason":"paused","createdAt":"2026-11-20T10:00:00Z"`, nil},
	} {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, jsonResponse(200, `{"allSessions":[{"sessionId":"s-1",`+tt.row+`}]}`))
			page, err := newTestClient(t, ts.URL, nil).AgentJobs.Sessions.Page(context.Background(), "p", SessionsQuery{})
			if err != nil {
				t.Fatal(err)
			}
			got := page.Sessions[0]
			if got.ID != "s-1" {
				t.Errorf("id %q", got.ID)
			}
			if diff := cmp.Diff(tt.want, got.Problems, cmp.Comparer(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
	for body, want := range map[string]string{
		`{"sessions":[]}`:      "allSessions: missing",
		`{"allSessions":null}`: "allSessions: missing",
		`{"allSessions":{}}`:   "allSessions: want a list, got an object",
		`null`:                 "answer: want an object, got null",
	} {
		rec, ts := newRecorder(t, jsonResponse(200, body))
		_, err := newTestClient(t, ts.URL, nil).AgentJobs.Sessions.All(context.Background(), "p", SessionsQuery{})
		if !IsMalformedResponse(err) || !strings.Contains(err.Error(), "getting agent jobs: malformed response to GET /v1/agent/p/jobs: "+want) || rec.count() != 1 {
			t.Errorf("%s: err = %v after %d requests", body, err, rec.count())
		}
	}
}

func TestSessionStatus_fromTheHaltReason(t *testing.T) {
	for _, tt := range []struct {
		halted bool
		reason HaltReason
		want   JobStatus
	}{
		{false, HaltReasonProcessing, JobStatusActive},
		{false, "", JobStatusActive},
		{true, "", ""},
		{true, HaltReasonCompleted, JobStatusCompleted},
		{true, HaltReasonError, JobStatusFailed},
		{true, HaltReasonGitHubMisconfigured, JobStatusFailed},
		{true, HaltReasonInterrupted, JobStatusArchived},
		{true, "paused", ""},
		{false, "paused", ""},
	} {
		if got := (AgentSession{Halted: tt.halted, HaltReason: tt.reason}).Status(); got != tt.want {
			t.Errorf("halted %v, %q: %q, want %q", tt.halted, tt.reason, got, tt.want)
		}
	}
}

// The listing is newest first: a job started while it is read pushes every
// job down one place, so the next page starts with one already read. It is
// dropped, not returned twice, and the read goes on.
func TestSessions_aJobStartedDuringTheReadLosesAndRepeatsNothing(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{})
	want := seedJobs(t, fs, 250)
	var got []string
	pages := 0
	for page, err := range c.AgentJobs.Sessions.Pages(context.Background(), mintlifytest.DemoProjectID, SessionsQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, sessionIDs(page.Sessions)...)
		clk.Advance(time.Second)
		fs.CreateJob(mintlifytest.DemoProjectID, fmt.Sprintf("started after page %d", pages))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"skip=0&take=100", "skip=100&take=100", "skip=200&take=100"}, listingQueries(fs)); diff != "" || pages != 3 {
		t.Errorf("%d pages; requests (-want +got):\n%s", pages, diff)
	}
}

// A server that serves the same rows again is stopped, as every paged
// endpoint is.
func TestSessions_pagingGuards(t *testing.T) {
	full := func(from int) http.HandlerFunc {
		rows := make([]string, 100)
		for i := range rows {
			rows[i] = fmt.Sprintf(`{"sessionId":"s%d","createdAt":"2026-11-20T10:00:00Z"}`, from+i)
		}
		return jsonResponse(200, `{"allSessions":[`+strings.Join(rows, ",")+`]}`)
	}
	rec, ts := newRecorder(t, full(0), full(0))
	_, err := newTestClient(t, ts.URL, nil).AgentJobs.Sessions.All(context.Background(), "p", SessionsQuery{})
	var pe *PagingError
	if !errors.As(err, &pe) || pe.Problem != PagingRepeatedRow || pe.Requests != 2 || rec.count() != 2 ||
		err.Error() != "getting agent jobs: the page at offset 100 holds only session ids from earlier pages: the server is not advancing; stopping rather than loop; stopped after 2 requests" {
		t.Errorf("err = %v after %d requests", err, rec.count())
	}
	// A server that never stops serving full pages of new rows meets the cap.
	n := 0
	rec, ts = newRecorder(t, func(w http.ResponseWriter, r *http.Request) { n++; full(100*n)(w, r) })
	_, err = newTestClient(t, ts.URL, nil, WithMaxPagesPerRead(3)).AgentJobs.Sessions.All(context.Background(), "p", SessionsQuery{})
	if !errors.As(err, &pe) || pe.Problem != PagingRequestCap || rec.count() != 3 {
		t.Errorf("err = %v after %d requests", err, rec.count())
	}
	// A server that ignores take is cut to it, and the next page starts
	// where the kept rows end.
	rec, ts = newRecorder(t, full(0), jsonResponse(200, `{"allSessions":[]}`))
	got, err := newTestClient(t, ts.URL, nil).AgentJobs.Sessions.All(context.Background(), "p", SessionsQuery{Limit: 40})
	if err != nil || len(got.Sessions) != 40 || rec.count() != 2 || rec.requests[1].URL.RawQuery != "skip=40&take=40" {
		t.Errorf("%d rows, %v, %d requests", len(got.Sessions), err, rec.count())
	}
}

func TestSessions_pageSizeOffsetAndMaxResults(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	want := seedJobs(t, fs, 150)
	ctx := context.Background()
	all, err := c.AgentJobs.Sessions.All(ctx, mintlifytest.DemoProjectID, SessionsQuery{MaxResults: 120})
	if err != nil || !cmp.Equal(want[:120], sessionIDs(all.Sessions)) {
		t.Fatalf("%v %v", sessionIDs(all.Sessions), err)
	}
	// The last page is shrunk to what is left: no job fetched in vain, and
	// a read that stops at MaxResults sends no extra request.
	all, err = c.AgentJobs.Sessions.All(ctx, mintlifytest.DemoProjectID, SessionsQuery{MaxResults: 100, Offset: 10, Limit: 30})
	if err != nil || !cmp.Equal(want[10:110], sessionIDs(all.Sessions)) {
		t.Fatalf("%v %v", sessionIDs(all.Sessions), err)
	}
	page, err := c.AgentJobs.Sessions.Page(ctx, mintlifytest.DemoProjectID, SessionsQuery{Limit: 5, Offset: 148})
	if err != nil || !cmp.Equal(want[148:], sessionIDs(page.Sessions)) {
		t.Fatalf("%v %v", page, err)
	}
	var rows []string
	for s, err := range c.AgentJobs.Sessions.Rows(ctx, mintlifytest.DemoProjectID, SessionsQuery{Offset: 140}) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, s.ID)
	}
	if !cmp.Equal(want[140:], rows) {
		t.Errorf("rows %v", rows)
	}
	wantQueries := []string{"skip=0&take=100", "skip=100&take=20",
		"skip=10&take=30", "skip=40&take=30", "skip=70&take=30", "skip=100&take=10",
		"skip=148&take=5", "skip=140&take=100"}
	if diff := cmp.Diff(wantQueries, listingQueries(fs)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestSessions_validateBeforeSending(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"allSessions":[]}`))
	c := newTestClient(t, ts.URL, nil)
	for name, tt := range map[string]struct {
		project string
		q       SessionsQuery
		want    string
	}{
		"a page past 100":   {"p", SessionsQuery{Limit: 101}, `limit "101" must be between 1 and 100`},
		"a negative page":   {"p", SessionsQuery{Limit: -1}, `limit "-1" must be between 1 and 100`},
		"a negative offset": {"p", SessionsQuery{Offset: -1}, `offset "-1" must be 0 or more`},
		"a negative cap":    {"p", SessionsQuery{MaxResults: -1}, `maxResults "-1" must be 0 (no limit) or more`},
		"a bad project":     {"a/b", SessionsQuery{}, `projectId "a/b" may hold only`},
	} {
		_, err := c.AgentJobs.Sessions.All(context.Background(), tt.project, tt.q)
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if rec.count() != 0 {
		t.Errorf("%d requests for bad input", rec.count())
	}
	var zero AgentJobsService
	if _, err := zero.Sessions.All(context.Background(), "p", SessionsQuery{}); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("zero service: %v", err)
	}
	if _, err := (&Client{}).AgentJobs.Sessions.Page(context.Background(), "p", SessionsQuery{}); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("zero client: %v", err)
	}
}

// A job's status changes by the minute: the listing is never served from
// the analytics cache, whatever the client's settings.
func TestSessions_neverCached(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithAnalyticsCache(CacheOptions{Dir: t.TempDir(), FreshFor: time.Hour}))
	seedJobs(t, fs, 3)
	for range 3 {
		all, err := c.AgentJobs.Sessions.All(context.Background(), mintlifytest.DemoProjectID, SessionsQuery{})
		if err != nil || len(all.Sessions) != 3 || all.Cache.Hit {
			t.Fatalf("%+v %v", all, err)
		}
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsSessions); n != 3 {
		t.Errorf("%d listings sent, want 3", n)
	}
}

// A row whose id cannot be used (none, or one the v2 API could not be
// asked about) is skipped and named, and the rest of the listing is read:
// one bad row never costs the others (before: "a/b" was kept, a row
// without an id failed the whole read).
func TestSessions_rowsWithUnusableIDsAreSkippedAndNamed(t *testing.T) {
	good := func(id string) string { return fmt.Sprintf(`{"sessionId":%q,"createdAt":"2026-11-20T10:00:00Z"}`, id) }
	bad := []string{`{"title":"no id"}`, `{"sessionId":""}`, `{"sessionId":7}`, good("a/b"), good("st 1"), good(".."), good(strings.Repeat("x", 300)),
		good("line\nbreak"), good("evil\u202eid")}
	wantProblems := []string{
		`allSessions[1] is skipped: sessionId: missing`,
		`allSessions[2] is skipped: sessionId: missing or empty`,
		`allSessions[3] is skipped: sessionId: want a string, got a number`,
		`allSessions[4] is skipped: sessionId: "a/b" cannot be read back as a job's id: it may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)`,
		`allSessions[5] is skipped: sessionId: "st 1" cannot be read back`,
		`allSessions[6] is skipped: sessionId: ".." cannot be read back as a job's id: it is not allowed`,
		`allSessions[7] is skipped: sessionId: "` + strings.Repeat("x", 100) + `…" cannot be read back as a job's id: it is longer than 256 characters`,
		`allSessions[8] is skipped: sessionId: "line\nbreak" cannot be read back`,
		`allSessions[9] is skipped: sessionId: "evil\u202eid" cannot be read back`,
	}
	// A first page of 100 rows, nine of them unusable, then a page of one.
	first := []string{good("j-0")}
	first = append(first, bad...)
	for i := len(first); i < 100; i++ {
		first = append(first, good(fmt.Sprintf("j-%d", i)))
	}
	rec, ts := newRecorder(t, jsonResponse(200, `{"allSessions":[`+strings.Join(first, ",")+`]}`), jsonResponse(200, `{"allSessions":[`+good("j-last")+`]}`))
	c := newTestClient(t, ts.URL, nil)
	all, err := c.AgentJobs.Sessions.All(context.Background(), "p", SessionsQuery{})
	if err != nil || len(all.Sessions) != 92 || all.Sessions[91].ID != "j-last" || len(all.Skipped) != len(bad) || rec.count() != 2 {
		t.Fatalf("%d sessions, %d skipped, %d requests: %v", len(all.Sessions), len(all.Skipped), rec.count(), err)
	}
	// The second page starts after every row served, skipped ones too.
	if q := rec.requests[1].URL.Query(); q.Get("skip") != "100" {
		t.Errorf("second page at %s", rec.requests[1].URL.RawQuery)
	}
	for i, sk := range all.Skipped {
		if !strings.HasPrefix(sk.Problem, wantProblems[i]) {
			t.Errorf("skipped %d: %q, want %q", i, sk.Problem, wantProblems[i])
		}
		if strings.ContainsAny(sk.Problem, "\n\u202e") {
			t.Errorf("skipped %d shows its id raw: %q", i, sk.Problem)
		}
	}
	if all.Skipped[3].ID != "a/b" || all.Skipped[0].ID != "" {
		t.Errorf("ids %q %q", all.Skipped[3].ID, all.Skipped[0].ID)
	}
	for _, s := range all.Sessions {
		if ValidateJobID(s.ID) != nil {
			t.Errorf("kept %q", s.ID)
		}
	}
	// A page of nothing but unusable rows is no repeat: the read goes on.
	rows := make([]string, 100)
	for i := range rows {
		rows[i] = good(fmt.Sprintf("bad/%d", i))
	}
	rec, ts = newRecorder(t, jsonResponse(200, `{"allSessions":[`+strings.Join(rows, ",")+`]}`), jsonResponse(200, `{"allSessions":[]}`))
	all, err = newTestClient(t, ts.URL, nil).AgentJobs.Sessions.All(context.Background(), "p", SessionsQuery{})
	if err != nil || len(all.Sessions) != 0 || len(all.Skipped) != 100 || rec.count() != 2 {
		t.Errorf("%d sessions, %d skipped, %d requests: %v", len(all.Sessions), len(all.Skipped), rec.count(), err)
	}
}

// Against the fake's listing, an unreadable id is skipped and the other
// jobs are listed, through Pages as through All.
func TestSessions_fakeListingWithAnUnreadableID(t *testing.T) {
	fake, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsSessions, Kind: fakehostile.UnreadableID, Text: "a/b\x1b[2J"})}})
	for _, prompt := range []string{"one", "two", "three"} {
		fake.CreateJob(mintlifytest.DemoProjectID, prompt)
	}
	for page, err := range c.AgentJobs.Sessions.Pages(context.Background(), mintlifytest.DemoProjectID, SessionsQuery{}) {
		if err != nil || len(page.Sessions) != 2 || len(page.Skipped) != 1 || page.Skipped[0].ID != "a/b\x1b[2J" || strings.Contains(page.Skipped[0].Problem, "\x1b") {
			t.Errorf("%+v: %v", page, err)
		}
	}
}
