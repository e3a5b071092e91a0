package main

import (
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func TestSeedJobs_everyStatusAnHourApart(t *testing.T) {
	fake := mintlifytest.New(mintlifytest.Config{})
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if err := seedJobs(fake, 7, now); err != nil {
		t.Fatal(err)
	}
	listed := fake.Sessions(mintlifytest.DemoProjectID)
	if len(listed) != 7 {
		t.Fatalf("%d jobs", len(listed))
	}
	wantReasons := []string{"completed", "completed", "error", "interrupted", "completed", "processing", "completed"}
	for i, s := range listed {
		if s["haultReason"] != wantReasons[i] || s["createdAt"] != now.Add(-time.Duration(i+1)*time.Hour).Format("2006-01-02T15:04:05.000Z") {
			t.Errorf("job %d: %v", i, s)
		}
		_, hasPR := s["pullRequestLink"]
		if hasPR != (wantReasons[i] == "completed" || wantReasons[i] == "interrupted") {
			t.Errorf("job %d: pull request %v", i, s["pullRequestLink"])
		}
	}
	if listed[0]["title"] != "Document the new webhooks API" {
		t.Errorf("newest: %v", listed[0]["title"])
	}
	if err := seedJobs(fake, -1, now); err == nil {
		t.Error("a negative count accepted")
	}
	if err := seedJobs(mintlifytest.New(mintlifytest.Config{}), 0, now); err != nil {
		t.Error(err)
	}
}
