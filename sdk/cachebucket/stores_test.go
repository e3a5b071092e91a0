package cachebucket_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/s3blob"

	"github.com/mintlify/terraform-provider-mintlify/internal/teststores"
	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/cachebucket"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The shared bucket against real protocol servers on loopback (make
// test-stores; see package teststores): S3, Azure Blob and GCS, each
// through gocloud's driver and the store's own client library, with
// credentials from the store's standard chain. Each store's subtests:
// what the cache needs of an object store, ten processes racing for one
// read, and what a user sees when the bucket is missing, the credential
// may only read, there is none, or the store has no conditional write;
// then, through a proxy, stores that are slow or slow to show a lease.
func TestStores(t *testing.T) {
	for _, name := range teststores.Names {
		t.Run(name, func(t *testing.T) {
			st := teststores.Start(t, name)
			t.Logf("server: %s", st.Server)
			t.Logf("what it cannot do that the store does: %s", st.Limits)
			t.Run("objects", func(t *testing.T) { storeObjects(t, st) })
			t.Run("ten processes racing for one read make one read", func(t *testing.T) { tenProcesses(t, st) })
			t.Run("a missing bucket", func(t *testing.T) { missingBucket(t, st) })
			t.Run("a read-only credential", func(t *testing.T) { readOnlyCredential(t, st) })
			t.Run("no credentials", func(t *testing.T) { noCredentials(t, st) })
			t.Run("no conditional write", func(t *testing.T) { noConditionalWrite(t, st) })
			t.Run("ten processes, each lease's first read missing", func(t *testing.T) { tenProcessesLeasesShownLate(t, st) })
			t.Run("a lease of its own the store does not show", func(t *testing.T) { ownLeaseNotShown(t, st) })
			t.Run("a lease the store neither shows nor removes", func(t *testing.T) { leaseNeitherShownNorRemoved(t, st) })
			t.Run("every operation just under the timeout", func(t *testing.T) { slowStore(t, st) })
		})
	}
}

// openStore opens url with env set, as the provider does.
func openStore(t *testing.T, url string, env map[string]string) cachebucket.Store {
	t.Helper()
	teststores.Setenv(t, env)
	b, err := cachebucket.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// What the cache needs of a store (CheckObjects), of the store itself.
func storeObjects(t *testing.T, st *teststores.Store) {
	cachebucket.CheckObjects(t, openStore(t, st.NewBucket(t), st.Env()))
}

// runnerResult is what one runner process reports: each read it made
// (rows, whether the bucket served it, its error) and the cache's problem.
type runnerResult struct {
	Reads []struct {
		Rows   int    `json:"rows"`
		Hit    bool   `json:"hit"`
		Err    string `json:"err"`
		Millis int64  `json:"ms"` // how long the read took
	} `json:"reads"`
	Problem string `json:"problem"`
	Failed  string `json:"-"` // the process itself failed
}

const runnerEnv = "MINTLIFY_TEST_STORES_RUNNER"

// TestStoresRunner is a runner in a process of its own, so that its
// store's credential chain reads its own environment (gocloud's drivers
// read it once per process): it makes the reads MINTLIFY_TEST_STORES_READS
// names ("visitors", "views"), in order, from the fake through the
// bucket, and prints what it got. It does nothing in a test run of its
// own.
func TestStoresRunner(_ *testing.T) {
	if os.Getenv(runnerEnv) != "1" {
		return
	}
	var res runnerResult
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(os.Getenv("MINTLIFY_TEST_STORES_API")),
		sdk.WithAnalyticsCache(sdk.CacheOptions{URL: os.Getenv("MINTLIFY_TEST_STORES_BUCKET"), OpenBucket: cachebucket.Open, FreshFor: 10 * time.Minute}))
	if err != nil {
		fmt.Printf("\nrunner failed: %v\n", err)
		return
	}
	for _, name := range strings.Split(os.Getenv("MINTLIFY_TEST_STORES_READS"), ",") {
		endpoint := c.Analytics.Visitors
		if name == "views" {
			endpoint = c.Analytics.Views
		}
		began := time.Now()
		got, err := endpoint.All(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{})
		res.Reads = append(res.Reads, struct {
			Rows   int    `json:"rows"`
			Hit    bool   `json:"hit"`
			Err    string `json:"err"`
			Millis int64  `json:"ms"`
		}{Millis: time.Since(began).Milliseconds()})
		r := &res.Reads[len(res.Reads)-1]
		if err != nil {
			r.Err = err.Error()
		} else {
			r.Rows, r.Hit = len(got.Paths), got.Cache.Hit
		}
	}
	if p := c.CacheProblem(); p != nil {
		res.Problem = p.Error()
	}
	out, _ := json.Marshal(res)
	fmt.Printf("\nrunner: %s\n", out)
}

// runners runs n runner processes at once, each with env, reading reads
// (comma-separated) from srv through the bucket url.
func runners(t *testing.T, n int, env map[string]string, srv *mintlifytest.Server, url, reads string) []runnerResult {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env = maps.Clone(env)
	env[runnerEnv], env["MINTLIFY_TEST_STORES_API"], env["MINTLIFY_TEST_STORES_BUCKET"], env["MINTLIFY_TEST_STORES_READS"] = "1", srv.URL, url, reads
	results := make([]runnerResult, n)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			cmd := exec.Command(self, "-test.run=^TestStoresRunner$", "-test.count=1")
			cmd.Env = teststores.Environ(env)
			out, err := cmd.CombinedOutput()
			_, line, found := strings.Cut(string(out), "\nrunner: ")
			line, _, _ = strings.Cut(line, "\n")
			if err != nil || !found || json.Unmarshal([]byte(line), &results[i]) != nil {
				results[i].Failed = fmt.Sprintf("runner %d: %v\n%s", i, err, out)
			}
		})
	}
	wg.Wait()
	for _, r := range results {
		if r.Failed != "" {
			t.Fatal(r.Failed)
		}
	}
	return results
}

// Ten runner processes (each its own program, as ten CI runners are)
// miss the same read at once: one takes the lease and reads, the others
// wait for its entry. The fake answers slowly (300 ms a page) so that
// all ten overlap the read.
func tenProcesses(t *testing.T, st *teststores.Store) { racing(t, st, st.Env()) }

// racing runs ten runner processes with env at once, for one read of
// 1,200 paths through a new bucket of st: one reads, nine are served.
func racing(t *testing.T, st *teststores.Store, env map[string]string) {
	url := st.NewBucket(t)
	srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1200}})
	t.Cleanup(srv.Close)
	srv.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultLatency, Latency: 300 * time.Millisecond})
	hits := 0
	for i, r := range runners(t, 10, env, srv, url, "visitors") {
		if len(r.Reads) != 1 || r.Reads[0].Err != "" || r.Reads[0].Rows != 1200 || r.Problem != "" {
			t.Errorf("runner %d: %+v", i, r)
			continue
		}
		if r.Reads[0].Hit {
			hits++
		}
	}
	if n := srv.Requests(mintlifytest.RouteAnalyticsVisitors); n != 5 {
		t.Errorf("%d requests for ten runners, want one read's 5", n)
	}
	if hits != 9 {
		t.Errorf("%d runners served from the bucket, want 9", hits)
	}
	teststores.Setenv(t, st.Env())
	b, err := blob.OpenBucket(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for it := b.List(nil); ; {
		obj, err := it.Next(context.Background())
		if err != nil {
			break
		}
		if strings.HasPrefix(obj.Key, "lease-") {
			t.Errorf("a lease was left: %s", obj.Key)
		}
	}
}

// runner is one runner process with env reading reads, each wanted
// whole (10 rows), from the bucket or not as hits says; it returns the
// cache's problem ("" for none).
func runner(t *testing.T, env map[string]string, srv *mintlifytest.Server, url, reads string, hits ...bool) string {
	t.Helper()
	r := runners(t, 1, env, srv, url, reads)[0]
	// The credentials never reach the message (an Azure SAS token is in
	// the URL of every request the store's errors quote).
	for k, v := range env {
		secret := strings.Contains(k, "KEY") || strings.Contains(k, "SECRET") || strings.Contains(k, "SAS")
		if _, sig, ok := strings.Cut(v, "sig="); ok {
			v = sig
		}
		if secret && v != "" && strings.Contains(r.Problem, v) {
			t.Errorf("the cache problem holds %s:\n%s", k, r.Problem)
		}
	}
	if len(r.Reads) != len(hits) {
		t.Fatalf("%d reads, want %d: %+v", len(r.Reads), len(hits), r)
	}
	for i, got := range r.Reads {
		if got.Err != "" || got.Rows != 10 || got.Hit != hits[i] {
			t.Errorf("read %d: %+v, want 10 rows, hit %v", i, got, hits[i])
		}
	}
	return r.Problem
}

// wantProblem fails t unless problem holds each of want, and logs it:
// the provider shows it as the warning "Mintlify analytics cache not used
// as configured".
func wantProblem(t *testing.T, problem string, want ...string) {
	t.Helper()
	if problem == "" {
		t.Errorf("no cache problem, want one saying %q", want)
		return
	}
	for _, w := range want {
		if !strings.Contains(problem, w) {
			t.Errorf("the cache problem does not say %q:\n%s", w, problem)
		}
	}
	if strings.Contains(problem, "\n") {
		t.Errorf("the cache problem spans lines:\n%s", problem)
	}
	t.Logf("what the user sees: %s", problem)
}

// newFake is the fake API with 10 paths (one page a read).
func newFake(t *testing.T) *mintlifytest.Server {
	srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}})
	t.Cleanup(srv.Close)
	return srv
}

// A bucket that does not exist: reads still work and spend the budget,
// and the user is told, once, that the bucket cannot be written.
func missingBucket(t *testing.T, st *teststores.Store) {
	srv := newFake(t)
	problem := runner(t, st.Env(), srv, st.MissingBucket(), "visitors,visitors", false, false)
	wantProblem(t, problem, "no-such-bucket", "is read but not written by this program", "the bucket cannot be written: it does not exist, or these credentials may not write to it")
}

// A credential that may read but not write (a pull-request runner's): what
// a trusted runner stored serves it, a miss is read from the API and not
// stored, and the user is told once.
func readOnlyCredential(t *testing.T, st *teststores.Store) {
	srv := newFake(t)
	url := st.NewBucket(t)
	if p := runner(t, st.Env(), srv, url, "visitors", false); p != "" {
		t.Fatal(p)
	}
	problem := runner(t, st.ReadOnly(t), srv, url, "visitors,views,visitors,views", true, false, true, false)
	wantProblem(t, problem, "is read but not written by this program: answers already stored there are used, none is added",
		"the bucket cannot be written")
	if n := srv.Requests(mintlifytest.RouteAnalyticsVisitors); n != 1 {
		t.Errorf("%d requests, want the writer's 1", n)
	}
}

// No credential anywhere the store's chain looks: reads still work, and
// the user is told what the store's library found missing.
func noCredentials(t *testing.T, st *teststores.Store) {
	srv := newFake(t)
	problem := runner(t, st.NoCredentials(), srv, st.NewBucket(t), "visitors,visitors", false, false)
	switch st.Name {
	case "gcs":
		// gocloud's GCS driver, finding no credentials when the bucket is
		// opened, prints a warning on stdout and goes on with an empty
		// service account, whose every request fails to sign (before any
		// is sent: the real GCS would say no more).
		wantProblem(t, problem, "private key should be a PEM")
	default:
		wantProblem(t, problem, "credential")
	}
}

// A store without conditional writes: no lease is taken, answers are
// still shared, and the user is told that runners starting together each
// read. GCS and Azure have always had them.
func noConditionalWrite(t *testing.T, st *teststores.Store) {
	url := st.NewBucket(t)
	env, ok := st.NoConditionalWrites(t)
	if !ok {
		t.Skipf("%s always has conditional writes: nothing to test", st.Name)
	}
	srv := newFake(t)
	problem := runner(t, env, srv, url, "visitors", false)
	wantProblem(t, problem, "takes no leases, so runners that miss the same read at the same time each read it (answers are still shared)",
		"the store does not implement conditional writes", "NotImplemented")
	if p := runner(t, env, srv, url, "visitors", true); p != "" {
		t.Errorf("a hit made a problem: %s", p)
	}
}

// Ten processes racing, on a store slow to show a write: the first read
// of the lease misses. The waiter that finds it missing tries again
// rather than removing it, and still the ten make one read.
func tenProcessesLeasesShownLate(t *testing.T, st *teststores.Store) {
	env, _ := st.Misbehaving(t, teststores.Misbehavior{HideLeases: true, FirstOnly: true})
	racing(t, st, env)
}

// leaseBound is how long a read may take in these tests when it must not
// wait on a lease: far below LeaseMaxWait (2 minutes), with room for a
// busy machine.
const leaseBound = 15 * time.Second

// A runner alone whose store never shows it its own lease (every read of
// a lease misses) takes it at once and reads, without polling it for two
// minutes; the next runner is served what it stored.
func ownLeaseNotShown(t *testing.T, st *teststores.Store) {
	srv, url := newFake(t), st.NewBucket(t)
	env, sent := st.Misbehaving(t, teststores.Misbehavior{HideLeases: true})
	r := runners(t, 1, env, srv, url, "visitors")[0]
	if len(r.Reads) != 1 || r.Reads[0].Err != "" || r.Reads[0].Hit || r.Problem != "" || time.Duration(r.Reads[0].Millis)*time.Millisecond > leaseBound {
		t.Errorf("%+v", r)
	}
	t.Logf("the read took %d ms and %d bucket requests", r.Reads[0].Millis, sent.Load())
	if p := runner(t, env, srv, url, "visitors", true); p != "" {
		t.Errorf("the next runner: %s", p)
	}
	if n := srv.Requests(mintlifytest.RouteAnalyticsVisitors); n != 1 {
		t.Errorf("%d API reads, want 1", n)
	}
}

// A lease left at its name (its holder's read failed, and the store did
// not remove it) that the store never shows, nor removes, each bucket
// request taking 50 ms: the next runner tries twice, then reads without a
// lease, with no warning, and is not held up.
func leaseNeitherShownNorRemoved(t *testing.T, st *teststores.Store) {
	srv, url := newFake(t), st.NewBucket(t)
	srv.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultClientError, Status: 400, Requests: []int{1}})
	kept, _ := st.Misbehaving(t, teststores.Misbehavior{KeepLeases: true})
	if r := runners(t, 1, kept, srv, url, "visitors")[0]; len(r.Reads) != 1 || !strings.Contains(r.Reads[0].Err, "400") {
		t.Fatalf("the holder's read: %+v", r)
	}
	env, sent := st.Misbehaving(t, teststores.Misbehavior{HideLeases: true, KeepLeases: true, Delay: 50 * time.Millisecond})
	r := runners(t, 1, env, srv, url, "visitors")[0]
	if len(r.Reads) != 1 || r.Reads[0].Err != "" || r.Reads[0].Rows != 10 || r.Problem != "" || time.Duration(r.Reads[0].Millis)*time.Millisecond > leaseBound {
		t.Errorf("%+v", r)
	}
	t.Logf("the read took %d ms and %d bucket requests", r.Reads[0].Millis, sent.Load())
	if n := sent.Load(); n > 20 {
		t.Errorf("%d bucket requests for one read", n)
	}
}

// Every bucket request takes just under the cache's timeout (5 s): the
// read spends at most the timeout on the bucket, then reads the API, and
// the user is told; the next read does not touch the bucket.
func slowStore(t *testing.T, st *teststores.Store) {
	srv, url := newFake(t), st.NewBucket(t)
	env, sent := st.Misbehaving(t, teststores.Misbehavior{Delay: sdk.DefaultCacheTimeout - 100*time.Millisecond})
	r := runners(t, 1, env, srv, url, "visitors,views")[0]
	for i, read := range r.Reads {
		took := time.Duration(read.Millis) * time.Millisecond
		if bound := map[int]time.Duration{0: sdk.DefaultCacheTimeout + 2*time.Second, 1: 2 * time.Second}[i]; read.Err != "" || read.Hit || took > bound {
			t.Errorf("read %d: %+v, want within %v", i, read, bound)
		}
	}
	wantProblem(t, r.Problem, "took more than 5s over one read's operations, so the read went on without it, and it is not used again by this program")
	t.Logf("the reads took %d and %d ms, %d bucket requests", r.Reads[0].Millis, r.Reads[1].Millis, sent.Load())
}
