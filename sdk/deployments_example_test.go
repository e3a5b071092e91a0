package sdk_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// newDeployExample runs the fake and a client on one manual clock: the
// client's waits move the fake's time, so a deployment that builds for
// 20 s takes no wall time. Against the real API, drop the fake, the clock
// and WithBaseURL, and pass your admin API key and project id.
func newDeployExample() (*mintlifytest.Fake, *sdk.Client) {
	clk := mintlifytest.NewManualClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	fake := mintlifytest.New(mintlifytest.Config{Clock: clk,
		DefaultDeployment: mintlifytest.DeploymentScript{Queued: 3 * time.Second, Building: 20 * time.Second, Outcome: mintlifytest.OutcomeCompleted}})
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL("http://127.0.0.1"),
		sdk.WithHTTPClient(fake.Client()), sdk.WithClock(clk))
	if err != nil {
		log.Fatal(err)
	}
	return fake, client
}

func ExampleDeploymentsService_Trigger() {
	_, client := newDeployExample()
	ctx := context.Background()

	started, err := client.Deployments.Trigger(ctx, mintlifytest.DemoProjectID)
	if err != nil {
		// A trigger is never sent twice by the SDK: when in doubt, look.
		if sdk.MayHaveTakenEffect(err) {
			log.Fatalf("the deployment may have been queued; check the dashboard: %v", err)
		}
		log.Fatal(err)
	}
	d, err := client.Deployments.Wait(ctx, started.StatusID)
	if err != nil {
		log.Fatal(err) // d holds the last status seen, if any
	}
	// A failure is an answer, not an error: check the status.
	if d.Status == sdk.DeploymentFailure {
		log.Fatalf("deployment %s failed: %s\n%v", d.ID, d.Summary, d.LastLogs(10))
	}
	fmt.Println(d.Status, "-", d.Summary)
	fmt.Println("commit on", d.Commit.Ref, "changed", len(d.Commit.FilesChanged.Modified), "files")
	// Output:
	// success - Deployed 42 pages
	// commit on main changed 2 files
}

func ExampleDeploymentsService_Preview() {
	_, client := newDeployExample()
	ctx := context.Background()

	first, err := client.Deployments.Preview(ctx, mintlifytest.DemoProjectID, "feature/new-quickstart")
	if err != nil {
		log.Fatal(err) // a plan without previews: sdk.IsForbidden(err)
	}
	fmt.Println("preview:", first.PreviewURL)

	// The same branch again redeploys its preview: same URL, new status id.
	again, err := client.Deployments.Preview(ctx, mintlifytest.DemoProjectID, "feature/new-quickstart")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("same URL:", again.PreviewURL == first.PreviewURL, "- new status id:", again.StatusID != first.StatusID)

	// A branch name Git would refuse is refused before any request.
	_, err = client.Deployments.Preview(ctx, mintlifytest.DemoProjectID, "main ")
	fmt.Println(err)
	// Output:
	// preview: https://demo-project-feature-new-quickstart.mintlify.app
	// same URL: true - new status id: true
	// branch "main " contains white space (often a trailing newline): a branch name cannot
}

func ExampleDeploymentsService_Status() {
	fake, client := newDeployExample()
	// A deployment started elsewhere: the dashboard, a Git push.
	statusID := fake.TriggerDeployment(mintlifytest.DemoProjectID)

	d, err := client.Deployments.Status(context.Background(), statusID)
	if err != nil {
		log.Fatal(err) // an unknown id: sdk.IsNotFound(err)
	}
	fmt.Println(d.Status, "since", d.CreatedAt.Format(time.Kitchen), "from the", d.Source)
	fmt.Println("ended:", d.EndedAt != nil)
	// Output:
	// queued since 12:00PM from the dashboard
	// ended: false
}

func ExampleDeploymentsService_Wait() {
	_, client := newDeployExample()
	ctx := context.Background()
	started, err := client.Deployments.Trigger(ctx, mintlifytest.DemoProjectID)
	if err != nil {
		log.Fatal(err)
	}

	last := sdk.DeploymentStatus("")
	d, err := client.Deployments.Wait(ctx, started.StatusID,
		sdk.WithWaitTimeout(20*time.Minute),
		sdk.WithStatusCallback(func(d *sdk.Deployment) {
			if d.Status != last {
				fmt.Println("now", d.Status)
				last = d.Status
			}
		}))
	if err != nil {
		log.Fatal(err) // on a timeout, d is the last status seen
	}
	fmt.Println("ended at", d.EndedAt.Format(time.TimeOnly))
	// Output:
	// now queued
	// now in_progress
	// now success
	// ended at 12:00:23
}

func ExampleAutomationsService_Trigger() {
	_, client := newDeployExample()
	ctx := context.Background()

	run, err := client.Automations.Trigger(ctx, mintlifytest.DemoProjectID, mintlifytest.DemoAutomationID)
	if err != nil {
		log.Fatal(err)
	}
	// No endpoint reads a run: follow it in the dashboard by its instance id.
	fmt.Println("queued run of", run.SchemaID, "- instance id given:", run.InstanceID != "")

	_, err = client.Automations.Trigger(ctx, mintlifytest.DemoProjectID, mintlifytest.DemoPausedAutomationID)
	fmt.Println("a paused automation:", sdk.IsBadRequest(err))
	// Output:
	// queued run of demo-automation - instance id given: true
	// a paused automation: true
}
