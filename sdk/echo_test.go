package sdk

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// logged gathers what a client's request hook sees, as text.
type logged struct {
	mu   sync.Mutex
	text strings.Builder
}

func (l *logged) hook() Option {
	return WithRequestHook(func(_ context.Context, ri RequestInfo) {
		l.mu.Lock()
		defer l.mu.Unlock()
		fmt.Fprintf(&l.text, "%+v\n", ri)
	})
}

func (l *logged) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.String()
}

// exportWithLog starts an export on the fake, with a client whose
// requests are logged.
func exportWithLog(t *testing.T) (*mintlifytest.Fake, *Client, *StaticExport, *logged) {
	t.Helper()
	log := &logged{}
	fake, c, _ := newFake(t, mintlifytest.Config{}, log.hook())
	e, err := c.StaticExports.Start(context.Background(), StaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return fake, c, e, log
}

// signatureOf is a link's X-Amz-Signature.
func signatureOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || len(u.Query().Get("X-Amz-Signature")) < 16 {
		t.Fatalf("link %v", err)
	}
	return u.Query().Get("X-Amz-Signature")
}

// A bundle answer that repeats its link's signature in expiresAt keeps the
// link (it is the answer) but shows the signature nowhere else: not in
// its problems, not in later errors (before: a warning printed it).
func TestBundle_aSignatureEchoedInExpiresAtIsScrubbed(t *testing.T) {
	fake, c, e, log := exportWithLog(t)
	ctx := context.Background()
	fake.InjectFault(fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteStaticExportsCreateBundle, Kind: fakehostile.EchoSecret}))
	b, err := c.StaticExports.CreateBundleWhenReady(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	sig := signatureOf(t, b.URL)
	if len(b.Problems) != 1 || !strings.HasPrefix(b.Problems[0], "expiresAt: ") || !strings.Contains(b.Problems[0], Redacted) {
		t.Errorf("problems %q", b.Problems)
	}
	// The link itself is whole: it downloads.
	var buf bytes.Buffer
	if n, err := c.StaticExports.DownloadBundle(ctx, b.URL, &buf, WithExpectedSize(b.SizeBytes)); err != nil || n != b.SizeBytes {
		t.Errorf("download: %d bytes, %v", n, err)
	}
	everything := fmt.Sprintf("%v %+v %#v %s", b.Problems, b, b, log.String())
	if strings.Contains(everything, sig) {
		t.Errorf("the signature shows: %s", everything)
	}
}

// An answer for another job, its id repeating the signature, is refused
// without showing it.
func TestBundle_aSignatureEchoedInJobIDIsScrubbed(t *testing.T) {
	fake, c, e, log := exportWithLog(t)
	ctx := context.Background()
	if _, err := c.StaticExports.CreateBundleWhenReady(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	fake.InjectFault(fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteStaticExportsCreateBundle, Kind: fakehostile.EchoSecret, Field: "jobId"}))
	_, err := c.StaticExports.CreateBundle(ctx, e.ID)
	links := fake.BundleLinks()
	sig := signatureOf(t, links[len(links)-1])
	if !IsMalformedResponse(err) || !strings.Contains(err.Error(), fmt.Sprintf(`the answer is for static export "%s %s"`, e.ID, Redacted)) {
		t.Fatalf("%v", err)
	}
	if strings.Contains(err.Error()+log.String(), sig) {
		t.Errorf("the signature shows: %v\n%s", err, log.String())
	}
}

// Once handed a link, the client removes its secrets wherever a server
// repeats them: a request id, an error, a later answer's text.
func TestLinkSecrets_areScrubbedWhereverTheyEcho(t *testing.T) {
	const sig = "5ec2e7deadbeef0123456789abcdef"
	link := "http://127.0.0.1:9/se_1/bundle.tar.gz?X-Amz-Credential=AKIAEXAMPLE%2F20261121&X-Amz-Signature=" + sig
	bundle := fmt.Sprintf(`{"jobId":"se_1","bundleUrl":%q,"sizeBytes":10,"expiresAt":"2026-11-21T12:15:00Z"}`, link)
	rec, srv := newRecorder(t,
		jsonResponse(200, bundle, "X-Request-Id", "req-"+sig),
		jsonResponse(200, `{"jobId":"se_1","status":"failed","progress":60,"pageCount":3,"createdAt":"2026-11-21T12:00:00Z","updatedAt":"2026-11-21T12:01:00Z","error":"could not sign `+sig+`"}`),
		jsonResponse(500, `{"error":"upstream said `+sig+`"}`))
	var log logged
	c := newTestClient(t, srv.URL, newClock(), log.hook(), WithMaxRetries(0))
	ctx := context.Background()
	b, err := c.StaticExports.CreateBundle(ctx, "se_1")
	if err != nil || b.URL != link {
		t.Fatalf("%v", err)
	}
	e, err := c.StaticExports.Get(ctx, "se_1")
	if err != nil || e.Error == nil || *e.Error != "could not sign "+Redacted {
		t.Errorf("%+v %v", e, err)
	}
	_, err = c.StaticExports.Get(ctx, "se_1")
	if !strings.Contains(fmt.Sprint(err), "upstream said "+Redacted) || rec.count() != 3 {
		t.Errorf("%v", err)
	}
	if strings.Contains(fmt.Sprint(err)+log.String()+b.RequestID, sig) {
		t.Errorf("the signature shows: %v\n%s", err, log.String())
	}
}

// A link that carries the client's own key is not handed out.
func TestBundle_aLinkHoldingTheKeyIsRefused(t *testing.T) {
	_, srv := newRecorder(t, jsonResponse(200, `{"jobId":"se_1","bundleUrl":"https://s.example.com/b?token=`+mintlifytest.DemoAPIKey+`","sizeBytes":10,"expiresAt":"2026-11-21T12:15:00Z"}`))
	c := newTestClient(t, srv.URL, newClock())
	_, err := c.StaticExports.CreateBundle(context.Background(), "se_1")
	if !IsMalformedResponse(err) || !strings.Contains(err.Error(), "bundleUrl: holds this client's key: not used") || strings.Contains(err.Error(), mintlifytest.DemoAPIKey) {
		t.Errorf("%v", err)
	}
}

// The client remembers the secrets of its last links, not of every link
// it was ever handed.
func TestLearn_remembersTheLastLinks(t *testing.T) {
	k, err := newCore(adminKey, mintlifytest.DemoAPIKey, DefaultBaseURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range redact.MaxLinks + 3 {
		k.learn([]string{fmt.Sprintf("secret-%02d-aaaaaaaa", i)})
		k.learn([]string{fmt.Sprintf("secret-%02d-aaaaaaaa", i)}) // again: once
	}
	got := k.secretList()
	if len(got) != 1+redact.MaxLinks || got[0] != mintlifytest.DemoAPIKey || got[1] != "secret-03-aaaaaaaa" || k.redact("secret-02-aaaaaaaa secret-10-aaaaaaaa") != "secret-02-aaaaaaaa "+Redacted {
		t.Errorf("%q", got)
	}
	k.learn(nil)
	if len(k.secretList()) != 1+redact.MaxLinks {
		t.Error("nothing learned changed the list")
	}
}

func TestDecodedAnswersNeverHoldTheKey(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	echo := strings.NewReplacer("acme/docs", "acme/"+key, `"model":"m"`, `"model":"`+key+`"`, `"ref":"main"`, `"ref":"\u006d`+key[1:]+`"`).Replace(jobJSON)
	_, ts := newRecorder(t, jsonResponse(200, echo))
	job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	if err != nil {
		t.Fatal(err)
	}
	if job.Source.Repository != "acme/[REDACTED]" || job.Model != "[REDACTED]" || *job.Source.Ref != "[REDACTED]" {
		t.Errorf("the key survived decoding: %+v (ref %q)", job, *job.Source.Ref)
	}
}

// A key the server wrote only with a JSON escape is not in the body's
// bytes as such: it must still not survive decoding.
func TestDecodedAnswersNeverHoldTheKey_evenOnlyEscaped(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	escaped := `\u00` + fmt.Sprintf("%x", key[0]) + key[1:]
	echo := strings.Replace(jobJSON, `"model":"m"`, `"model":"`+escaped+`"`, 1)
	if strings.Contains(echo, key) {
		t.Fatal("the body holds the key as such")
	}
	_, ts := newRecorder(t, jsonResponse(200, echo))
	job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	if err != nil || job.Model != Redacted {
		t.Errorf("model %q, %v", job.Model, err)
	}
}

// The mark package redact puts in place of a secret is the one the SDK
// documents.
func TestRedacted_isTheMarkRedactWrites(t *testing.T) {
	if Redacted != redact.Marker {
		t.Errorf("sdk.Redacted %q, redact.Marker %q", Redacted, redact.Marker)
	}
}
