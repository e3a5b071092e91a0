package main

import (
	"fmt"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// seedTopics are what the seeded jobs were asked to do.
var seedTopics = []string{
	"Document the new webhooks API", "Fix broken links in the quickstart", "Add a changelog entry for v2.4",
	"Rewrite the authentication guide", "Translate the FAQ to Spanish", "Update the SDK examples to v3",
	"Remove the deprecated v1 endpoints", "Add diagrams to the architecture page",
}

// seedStatuses cycle through every status, completed most often, as a
// real project's history would.
var seedStatuses = []string{"completed", "completed", "failed", "archived", "completed", "active"}

// seedJobs puts n jobs into the demo project, the newest an hour before
// now and each earlier one an hour before the next, in every status; the
// completed and archived ones with a pull request.
func seedJobs(fake *mintlifytest.Fake, n int, now time.Time) error {
	if n < 0 {
		return fmt.Errorf("-seed-jobs %d is negative", n)
	}
	for i := n - 1; i >= 0; i-- { // oldest first, as they were made
		status := seedStatuses[i%len(seedStatuses)]
		seed := mintlifytest.JobSeed{
			Status:    status,
			Prompt:    seedTopics[i%len(seedTopics)],
			CreatedAt: now.Add(-time.Duration(i+1) * time.Hour),
		}
		if status == "completed" || status == "archived" {
			seed.PRLink = fmt.Sprintf("https://github.com/acme/demo-project/pull/%d", 1000+n-i)
		}
		if _, err := fake.SeedJob(mintlifytest.DemoProjectID, seed); err != nil {
			return err
		}
	}
	return nil
}
