package sdk

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// How long a request is given: the request timeout, retried for a read and
// never for a POST, and the short grace a sent POST's answer is awaited.

func TestPOST_sentRequestIsAwaitedOnlyForAShortGrace(t *testing.T) {
	_, job, took, err := createWithStalledPOST(t, 200*time.Millisecond)
	if job != nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer came within 200ms more") {
		t.Fatalf("job %+v, err %v", job, err)
	}
	if took < 240*time.Millisecond || took > 5*time.Second {
		t.Errorf("returned after %s; want the deadline plus the grace", took)
	}
	var reqErr *RequestError
	if !MayHaveTakenEffect(err) || !errors.As(err, &reqErr) || !reqErr.Sent || reqErr.Attempts != 1 {
		t.Errorf("a POST that was sent and never answered may have created a job: %#v", reqErr)
	}
	if DefaultSentRequestGrace != 10*time.Second {
		t.Errorf("grace %s", DefaultSentRequestGrace)
	}
	c2, _ := NewClient("mint_x")
	if c2.core.sentGrace != DefaultSentRequestGrace || c2.core.requestTimeout != DefaultRequestTimeout || c2.core.maxPagesPerRead != DefaultMaxPagesPerRead {
		t.Errorf("defaults %+v", c2.core.settings)
	}
	if _, err := NewClient("mint_x", WithSentRequestGrace(-time.Nanosecond)); err == nil || err.Error() != "sdk: WithSentRequestGrace: -1ns is negative" {
		t.Errorf("negative grace: %v", err)
	}
	if c3, err := NewClient("mint_x", WithSentRequestGrace(0)); err != nil || c3.core.sentGrace != 0 {
		t.Errorf("zero grace: %v", err)
	}
}

func TestRequestTimeout_stalledReadIsRetriedAndEnds(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(100*time.Millisecond))
	job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if err != nil {
		t.Fatal(err)
	}
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultLatency, Latency: time.Hour, Requests: []int{1}})
	start := time.Now()
	if _, err := c.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, job.ID); err != nil {
		t.Fatalf("the retry after a stalled attempt failed: %v", err)
	}
	if time.Since(start) > 5*time.Second || fs.Requests(mintlifytest.RouteAgentJobsGet) != 2 {
		t.Errorf("%s, %d requests", time.Since(start), fs.Requests(mintlifytest.RouteAgentJobsGet))
	}
	// Every attempt stalls: the read ends after its retries, saying why.
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	c = newTestClient(t, c.BaseURL(), newClock(), WithRequestTimeout(100*time.Millisecond), WithMaxRetries(1))
	_, err = c.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, job.ID)
	var reqErr *RequestError
	if err == nil || !strings.Contains(err.Error(), "no response within 100ms (the request timeout)") || !strings.HasSuffix(err.Error(), "(after 2 attempts)") ||
		!errors.As(err, &reqErr) || reqErr.Attempts != 2 || !reqErr.Sent {
		t.Fatalf("err = %v", err)
	}
	if _, err := NewClient("mint_x", WithRequestTimeout(-time.Second)); err == nil {
		t.Error("negative timeout accepted")
	}
	// 0 is documented as no bound: a request is sent and answered.
	_, unbounded, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(0))
	if _, err := unbounded.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x"); err != nil {
		t.Errorf("WithRequestTimeout(0): %v", err)
	}
}

func TestRequestTimeout_stalledPOSTIsNotRetried(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(100*time.Millisecond))
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	_, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if err == nil || !MayHaveTakenEffect(err) || fs.Requests(mintlifytest.RouteAgentJobsCreate) != 1 {
		t.Fatalf("err = %v after %d POSTs", err, fs.Requests(mintlifytest.RouteAgentJobsCreate))
	}
}

func TestCreateAgentJob_answerIsAwaitedAfterContextEnds(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultLatency, Latency: 200 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	job, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x")
	if err != nil {
		t.Fatalf("the job was created but the call failed: %v", err)
	}
	if ids := fs.JobIDs(mintlifytest.DemoProjectID); len(ids) != 1 || ids[0] != job.ID {
		t.Errorf("returned %s, the server has %v", job.ID, ids)
	}
	// A GET is abandoned with its context: it creates nothing.
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultLatency, Latency: time.Second})
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	start := time.Now()
	if _, err := c.AgentJobs.Get(ctx2, mintlifytest.DemoProjectID, job.ID); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 500*time.Millisecond {
		t.Errorf("GET: %v after %s", err, time.Since(start))
	}
}
