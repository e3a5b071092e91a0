package mintlifytest

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestJobRecord_thePromptAndEachAcceptedMessage(t *testing.T) {
	h := newHarness(t, Config{})
	_, _, j := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"[fake:active=5s] Document the API"}`)
	id := j["id"].(string)
	h.clk.Advance(time.Minute)
	h.call("POST", "/v2/agent/demo-project/job/"+id+"/message", `{"prompt":"and the changelog"}`)
	h.call("POST", "/v2/agent/demo-project/job/"+id+"/message", `{}`) // refused: 400
	h.clk.Advance(time.Second)
	h.call("POST", "/v2/agent/demo-project/job/"+id+"/message", `{"prompt":"then the \"quickstart\""}`)
	got, ok := h.srv.JobRecord(DemoProjectID, id)
	want := JobRecord{ProjectID: DemoProjectID, ID: id, Prompt: "[fake:active=5s] Document the API", CreatedAt: t0, Messages: []JobMessage{
		{Prompt: "and the changelog", At: t0.Add(time.Minute)},
		{Prompt: `then the "quickstart"`, At: t0.Add(time.Minute + time.Second)},
	}}
	if diff := cmp.Diff(want, got); !ok || diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
	if _, ok := h.srv.JobRecord(DemoProjectID, "nope"); ok {
		t.Error("a record of no job")
	}
	if _, ok := h.srv.JobRecord("nope", id); ok {
		t.Error("a record in no project")
	}
	// A record is a copy.
	got.Messages[0].Prompt = "changed"
	if again, _ := h.srv.JobRecord(DemoProjectID, id); again.Messages[0].Prompt != "and the changelog" {
		t.Error("the record shares its messages with the fake")
	}
	// CreateJob records its prompt too.
	made := h.srv.CreateJob(DemoProjectID, "from the dashboard")
	if r, _ := h.srv.JobRecord(DemoProjectID, made); r.Prompt != "from the dashboard" || r.Messages != nil {
		t.Errorf("CreateJob's record %+v", r)
	}
}

func TestSeedJob_servesTheSeedAsIs(t *testing.T) {
	h := newHarness(t, Config{})
	created := time.Date(2026, 11, 20, 8, 30, 0, 123_456_789, time.FixedZone("CET", 3600))
	tests := []struct {
		seed JobSeed
		want map[string]any
	}{
		{JobSeed{ID: "job-active", Prompt: "p1", CreatedAt: created},
			map[string]any{"status": "active", "prLink": nil, "archivedAt": nil, "createdAt": "2026-11-20T07:30:00.123Z"}},
		{JobSeed{ID: "job-done", Status: jobCompleted, PRLink: "https://github.com/acme/docs/pull/7", CreatedAt: created},
			map[string]any{"status": "completed", "prLink": "https://github.com/acme/docs/pull/7", "archivedAt": nil}},
		{JobSeed{ID: "job-nochange", Status: jobCompleted},
			map[string]any{"status": "completed", "prLink": nil, "archivedAt": nil, "createdAt": "2026-11-21T12:00:00.000Z"}},
		{JobSeed{ID: "job-failed", Status: jobFailed},
			map[string]any{"status": "failed", "prLink": nil, "archivedAt": nil}},
		{JobSeed{ID: "job-archived", Status: jobArchived, PRLink: "https://x/pull/1", CreatedAt: created, ArchivedAt: created.Add(36 * time.Hour)},
			map[string]any{"status": "archived", "prLink": "https://x/pull/1", "archivedAt": "2026-11-21T19:30:00.123Z"}},
		{JobSeed{ID: "job-archived-at-creation", Status: jobArchived, CreatedAt: created},
			map[string]any{"status": "archived", "archivedAt": "2026-11-20T07:30:00.123Z"}},
	}
	for _, tt := range tests {
		id, err := h.srv.SeedJob(DemoProjectID, tt.seed)
		if err != nil || id != tt.seed.ID {
			t.Fatalf("%s: %q %v", tt.seed.ID, id, err)
		}
	}
	h.clk.Advance(48 * time.Hour) // a seeded job does not move with the clock
	for _, tt := range tests {
		status, _, got := h.call("GET", "/v2/agent/demo-project/job/"+tt.seed.ID, "")
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v (%d %v)", tt.seed.ID, k, got[k], v, status, got)
			}
		}
		if got["id"] != tt.seed.ID || got["model"] == "" || got["source"] == nil {
			t.Errorf("%s: %v", tt.seed.ID, got)
		}
	}
	if rec, _ := h.srv.JobRecord(DemoProjectID, "job-active"); rec.Prompt != "p1" || !rec.CreatedAt.Equal(created.Truncate(time.Millisecond)) {
		t.Errorf("record %+v", rec)
	}
	if got := h.srv.JobIDs(DemoProjectID); len(got) != len(tests) || got[0] != "job-active" {
		t.Errorf("JobIDs %v", got)
	}
	if h.srv.TotalRequests() != len(tests) {
		t.Errorf("seeding counted as requests: %d", h.srv.TotalRequests())
	}
}

func TestSeedJob_followUpsAndIds(t *testing.T) {
	h := newHarness(t, Config{DefaultJob: JobScript{ActiveFor: 10 * time.Second, Outcome: OutcomeCompleted}})
	// A generated id has the created jobs' shape; the PR the job opens is
	// the project's next number.
	id, err := h.srv.SeedJob(DemoProjectID, JobSeed{Status: jobFailed, Prompt: "old"})
	if err != nil || !strings.HasSuffix(id, "-000000000001") {
		t.Fatalf("%q %v", id, err)
	}
	status, _, got := h.call("POST", "/v2/agent/demo-project/job/"+id+"/message", `{"prompt":"try again"}`)
	if status != 200 || got["status"] != "active" || got["prLink"] != nil {
		t.Fatalf("follow-up to a seeded failed job: %d %v", status, got)
	}
	h.clk.Advance(10 * time.Second)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+id, ""); got["status"] != "completed" || got["prLink"] != "https://github.com/acme/demo-project/pull/101" {
		t.Errorf("after the default round: %v", got)
	}
	_, _, created := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"new"}`)
	if !strings.HasSuffix(created["id"].(string), "-000000000002") {
		t.Errorf("the next created job: %v", created["id"])
	}
	h.clk.Advance(10 * time.Second)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+created["id"].(string), ""); got["prLink"] != "https://github.com/acme/demo-project/pull/102" {
		t.Errorf("the next PR: %v", got["prLink"])
	}
	// A seeded PR survives a follow-up; markers in the message count.
	pr := "https://github.com/acme/docs/pull/9"
	done, _ := h.srv.SeedJob(DemoProjectID, JobSeed{ID: "done", Status: jobCompleted, PRLink: pr})
	_, _, got = h.call("POST", "/v2/agent/demo-project/job/"+done+"/message", `{"prompt":"[fake:failed] more"}`)
	if got["status"] != "active" || got["prLink"] != pr {
		t.Errorf("follow-up to a seeded job with a PR: %v", got)
	}
	h.clk.Advance(10 * time.Second)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+done, ""); got["status"] != "failed" {
		t.Errorf("the marker in the message: %v", got["status"])
	}
	// An archived seed refuses messages.
	if _, err := h.srv.SeedJob(DemoProjectID, JobSeed{ID: "gone", Status: jobArchived}); err != nil {
		t.Fatal(err)
	}
	if status, _, got := h.call("POST", "/v2/agent/demo-project/job/gone/message", `{"prompt":"x"}`); status != 400 || got["error"] != "Job is archived" {
		t.Errorf("message to a seeded archived job: %d %v", status, got)
	}
	if rec, _ := h.srv.JobRecord(DemoProjectID, "gone"); len(rec.Messages) != 0 {
		t.Errorf("a refused message was recorded: %+v", rec)
	}
}

func TestSeedJob_refusesWhatCannotBe(t *testing.T) {
	s := New(Config{})
	if _, err := s.SeedJob(DemoProjectID, JobSeed{ID: "a"}); err != nil {
		t.Fatal(err)
	}
	for want, seed := range map[string]JobSeed{
		`already has a job "a"`:                                          {ID: "a"},
		`status "running" is not active, completed`:                      {Status: "running"},
		`only an archived job has an archivedAt (this one is completed)`: {Status: jobCompleted, ArchivedAt: t0},
		`only an archived job has an archivedAt (this one is active)`:    {ArchivedAt: t0},
		`no project "nope"`:                                              {ID: "x"},
	} {
		project := DemoProjectID
		if strings.Contains(want, "nope") {
			project = "nope"
		}
		if _, err := s.SeedJob(project, seed); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", seed, err, want)
		}
	}
	if n := len(s.JobIDs(DemoProjectID)); n != 1 {
		t.Errorf("refused seeds left %d jobs", n)
	}
}
