package sdk_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// List the project's agent jobs, however they were started, and read the
// ones still running through v2. The listing is v1's (deprecated, and the
// only one the API has): a job's v2 id is assumed to be its sessionId.
func ExampleAgentJobsService_sessions() {
	srv, client := newExampleClient()
	defer srv.Close()
	ctx := context.Background()
	projectID := mintlifytest.DemoProjectID
	// Two jobs started from the dashboard the day before, and one now.
	day := time.Now().Add(-24 * time.Hour)
	_, _ = srv.SeedJob(projectID, mintlifytest.JobSeed{Prompt: "Fix broken links", Status: "failed", CreatedAt: day})
	_, _ = srv.SeedJob(projectID, mintlifytest.JobSeed{Prompt: "Document the CLI", Status: "completed", CreatedAt: day.Add(time.Hour)})
	srv.CreateJob(projectID, "Add a changelog entry")

	for s, err := range client.AgentJobs.Sessions.Rows(ctx, projectID, sdk.SessionsQuery{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-22s %-9s (v1: %s)\n", s.Title, s.Status(), s.HaltReason)
		if s.Status() == sdk.JobStatusActive {
			job, err := client.AgentJobs.Get(ctx, projectID, s.ID)
			if sdk.IsNotFound(err) {
				fmt.Println("  not readable through v2: its session id is not a job id")
				continue
			}
			fmt.Println("  v2 says:", job.Status, "on", job.Source.Repository)
		}
	}
	fmt.Println(srv.Requests(mintlifytest.RouteAgentJobsSessions), "listing request")
	// Output:
	// Add a changelog entry  active    (v1: processing)
	//   v2 says: active on https://github.com/acme/demo-project
	// Document the CLI       completed (v1: completed)
	// Fix broken links       failed    (v1: error)
	// 1 listing request
}
