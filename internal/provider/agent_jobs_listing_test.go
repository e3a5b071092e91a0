package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

func TestJobFilter_match(t *testing.T) {
	at := func(s string) *time.Time {
		v, _ := time.Parse(time.RFC3339, s)
		return &v
	}
	job := func(reason sdk.HaltReason, created string) *sdk.AgentSession {
		s := &sdk.AgentSession{ID: "j", HaltReason: reason, Halted: reason != sdk.HaltReasonProcessing}
		if created != "" {
			s.CreatedAt = *at(created)
		}
		return s
	}
	window := jobFilter{after: at("2026-11-02T00:00:00Z"), before: at("2026-11-03T00:00:00Z")}
	for _, tt := range []struct {
		f    jobFilter
		s    *sdk.AgentSession
		want bool
	}{
		{jobFilter{}, job(sdk.HaltReasonError, ""), true},
		{jobFilter{statuses: []sdk.JobStatus{"failed"}}, job(sdk.HaltReasonGitHubMisconfigured, ""), true},
		{jobFilter{statuses: []sdk.JobStatus{"failed", "active"}}, job(sdk.HaltReasonCompleted, ""), false},
		{jobFilter{statuses: []sdk.JobStatus{"archived"}}, job("paused", ""), false},
		{window, job(sdk.HaltReasonCompleted, "2026-11-02T00:00:00Z"), true},  // after is inclusive
		{window, job(sdk.HaltReasonCompleted, "2026-11-01T23:59:59Z"), false}, // just before
		{window, job(sdk.HaltReasonCompleted, "2026-11-03T00:00:00Z"), false}, // before is exclusive
		{window, job(sdk.HaltReasonCompleted, "2026-11-02T23:59:59Z"), true},
		{window, job(sdk.HaltReasonCompleted, ""), false}, // no creation time passes no time filter
		{jobFilter{before: window.before}, job(sdk.HaltReasonCompleted, ""), false},
		{jobFilter{after: window.after}, job(sdk.HaltReasonCompleted, "2030-01-01T00:00:00Z"), true},
	} {
		if got := tt.f.match(tt.s); got != tt.want {
			t.Errorf("%+v matches %+v: %v, want %v", tt.f, tt.s, got, tt.want)
		}
	}
}

// Many odd rows are said once, the first ten named.
func TestListingProblems_saidOnceAndShort(t *testing.T) {
	var p listingNotes
	var diags diag.Diagnostics
	p.warn(&diags)
	if len(diags) != 0 {
		t.Fatalf("a warning for no problem: %v", diags)
	}
	for i := range 12 {
		p.add(&sdk.AgentSession{ID: fmt.Sprintf("j%d", i), Problems: []string{"createdAt: missing"}})
	}
	p.add(&sdk.AgentSession{ID: "fine"})
	p.warn(&diags)
	text := diagText(diags, diag.SeverityWarning)
	if len(diags) != 1 || !strings.Contains(text, "job j9: createdAt: missing; and 2 more.") || strings.Contains(text, "j10") {
		t.Errorf("%d diagnostics: %s", len(diags), text)
	}
	if len(p.problems) != 12 {
		t.Errorf("%d problems kept", len(p.problems))
	}
}

// A listed job as the data source holds it: what the listing left out
// ("") is null, the status is v2's word for the listing's (null for a
// reason the provider does not know), the creation time RFC 3339.
func TestListedJob_valuesAndNulls(t *testing.T) {
	branch, link, empty := "docs/fix", "https://github.com/acme/docs/pull/7", ""
	created := time.Date(2026, 10, 1, 9, 30, 0, 0, time.FixedZone("CEST", 2*3600))
	for name, tc := range map[string]struct {
		s    sdk.AgentSession
		want string
	}{
		"every field": {
			s: sdk.AgentSession{ID: "job_1", Subdomain: "acme", Branch: &branch, Halted: true, HaltReason: sdk.HaltReasonCompleted,
				PRLink: &link, MessageToUser: "done", Title: "Fix", UserID: "u1", CreatedAt: created,
				Todos: []sdk.SessionTodo{{ID: "t1", Content: "Fix the links", Status: "completed", Priority: "high"}, {}}, Problems: []string{"x"}},
			want: `{"branch":"docs/fix","created_at":"2026-10-01T07:30:00Z","halt_reason":"completed","halted":true,"id":"job_1",` +
				`"message_to_user":"done","pr_link":"https://github.com/acme/docs/pull/7","status":"completed",` +
				`"subdomain":"acme","title":"Fix","todos":[{"content":"Fix the links","id":"t1","priority":"high","status":"completed"},` +
				`{"content":<null>,"id":<null>,"priority":<null>,"status":<null>}],"user_id":"u1"}`,
		},
		"only an id": {
			s: sdk.AgentSession{ID: "job_2", Halted: true},
			want: `{"branch":<null>,"created_at":<null>,"halt_reason":<null>,"halted":true,"id":"job_2","message_to_user":<null>,` +
				`"pr_link":<null>,"status":<null>,"subdomain":<null>,"title":<null>,"todos":[],"user_id":<null>}`,
		},
		"an unknown reason and an empty branch": {
			s: sdk.AgentSession{ID: "job_3", HaltReason: "paused", Branch: &empty, Title: "x"},
			want: `{"branch":"","created_at":<null>,"halt_reason":"paused","halted":false,"id":"job_3","message_to_user":<null>,` +
				`"pr_link":<null>,"status":<null>,"subdomain":<null>,"title":"x","todos":[],"user_id":<null>}`,
		},
		"running, no reason given": {
			s: sdk.AgentSession{ID: "job_4"},
			want: `{"branch":<null>,"created_at":<null>,"halt_reason":<null>,"halted":false,"id":"job_4","message_to_user":<null>,` +
				`"pr_link":<null>,"status":"active","subdomain":<null>,"title":<null>,"todos":[],"user_id":<null>}`,
		},
	} {
		if got := listedJob(elemType(typeOf((&agentJobsModel{}).schema().Attributes, "jobs")), &tc.s); got.String() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, tc.want)
		}
	}
}
