package provider

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// epoch is where every test clock starts.
var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// testClock is the clock a test shares between the fake API
// (mintlifytest.Config.Clock) and the provider's SDK client
// (sdk.WithClock): a Sleep advances it at once, so a 30-minute job, a
// timeout or a Retry-After takes no wall time. Tests move it themselves
// with Advance ("the job finishes meanwhile").
type testClock struct {
	*mintlifytest.ManualClock
	mu     sync.Mutex
	sleeps []time.Duration
	// beforeSleep, when set, is called with the sleeper's context before
	// each sleep: a test interrupts a wait there, at a known point.
	beforeSleep func(ctx context.Context)
	// tick, when set, moves the clock on at every reading: a cache copy
	// written at one read is older at the next, as on a real machine.
	tick time.Duration
}

func newTestClock() *testClock { return &testClock{ManualClock: mintlifytest.NewManualClock(epoch)} }

// newTickingClock is a test clock that moves on by tick at every reading.
func newTickingClock(tick time.Duration) *testClock {
	c := newTestClock()
	c.tick = tick
	return c
}

// Now reads the clock, then moves it on by tick.
func (c *testClock) Now() time.Time {
	now := c.ManualClock.Now()
	if c.tick > 0 {
		c.Advance(c.tick)
	}
	return now
}

// Sleep advances the clock by d at once, unless ctx has ended.
func (c *testClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	hook := c.beforeSleep
	c.mu.Unlock()
	if hook != nil {
		hook(ctx)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if d > 0 {
		c.Advance(d)
	}
	return nil
}

// slept returns every sleep asked of the clock so far, in order.
func (c *testClock) slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// onSleep sets beforeSleep.
func (c *testClock) onSleep(fn func(ctx context.Context)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.beforeSleep = fn
}

func tfjsonPath(name string) tfjsonpath.Path { return tfjsonpath.New(name) }

func knownString(s string) knownvalue.Check { return knownvalue.StringExact(s) }

// wrapped matches the phrases in order in Terraform's output, which wraps
// long diagnostics: any run of spaces in a phrase matches any white space.
func wrapped(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// objectOf builds a value of a resource's schema type from vals: every
// attribute not given is null (or unknown, when unknown is set).
func objectOf(t *testing.T, s interface {
	Type() attr.Type
}, vals map[string]tftypes.Value, unknown bool) tftypes.Value {
	t.Helper()
	typ, ok := s.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		t.Fatal("schema is not an object")
	}
	return objectValue(typ, vals, unknown)
}

// objectValue is a value of the object type typ from vals: every attribute
// not given is null (or unknown, when unknown is set).
func objectValue(typ tftypes.Object, vals map[string]tftypes.Value, unknown bool) tftypes.Value {
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		switch v, given := vals[name]; {
		case given:
			all[name] = v
		case unknown && name != "timeouts" && name != "triggers":
			all[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		default:
			all[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(typ, all)
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

// resourceSchema returns a resource's schema.
func resourceSchema(t *testing.T, r resource.Resource) rschema.Schema {
	t.Helper()
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp.Schema
}

// readResource refreshes a resource whose state holds vals, and returns
// the response.
func readResource(t *testing.T, r resource.Resource, vals map[string]tftypes.Value) *resource.ReadResponse {
	t.Helper()
	s := resourceSchema(t, r)
	state := tfsdk.State{Schema: s, Raw: objectOf(t, s, vals, false)}
	resp := &resource.ReadResponse{State: state}
	r.Read(context.Background(), resource.ReadRequest{State: state}, resp)
	return resp
}

// diagText joins diagnostics of a severity into one searchable text.
func diagText(diags diag.Diagnostics, severity diag.Severity) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity() == severity {
			b.WriteString(d.Summary() + ": " + d.Detail() + "\n")
		}
	}
	return b.String()
}

// clientFor is a providerData whose client talks to url, with fast polls.
func clientFor(t *testing.T, url string, opts ...sdk.Option) *providerData {
	t.Helper()
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, append([]sdk.Option{sdk.WithBaseURL(url), sdk.WithRetryBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return &providerData{client: c, projectID: mintlifytest.DemoProjectID, apiKey: mintlifytest.DemoAPIKey,
		waitOptions: []sdk.WaitOption{sdk.WithPollInterval(10*time.Millisecond, 20*time.Millisecond)}}
}

func tfjsonPathToPath(name string) path.Path { return path.Root(name) }

func tfsdkState(s rschema.Schema, raw tftypes.Value) tfsdk.State {
	return tfsdk.State{Schema: s, Raw: raw}
}

// deleteResource deletes a resource whose state is state, logging to
// ctx's loggers.
func deleteResource(ctx context.Context, r resource.Resource, state tfsdk.State) *resource.DeleteResponse {
	resp := &resource.DeleteResponse{State: state}
	r.Delete(ctx, resource.DeleteRequest{State: state}, resp)
	return resp
}

func nullString() types.String { return types.StringNull() }

// configureProvider configures the provider with vals (others null).
func configureProvider(t *testing.T, vals map[string]tftypes.Value) *provider.ConfigureResponse {
	t.Helper()
	p := &mintlifyProvider{version: "test"}
	var sr provider.SchemaResponse
	p.Schema(context.Background(), provider.SchemaRequest{}, &sr)
	raw := objectOf(t, sr.Schema, vals, false)
	resp := &provider.ConfigureResponse{}
	p.Configure(context.Background(), provider.ConfigureRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: raw}}, resp)
	return resp
}
