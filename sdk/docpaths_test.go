package sdk

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Every error and log names the path as the API documents it, with the
// prefix of the API's server (/discovery, /api/universal-search): the
// route a reader finds in the reference (before: POST /v1/search/demo-docs
// for /discovery/v1/search/{domain}).
func TestErrors_nameThePathAsTheAPIDocumentsIt(t *testing.T) {
	ctx := context.Background()
	type call struct {
		route, path string
		do          func() error
	}
	var (
		mu     sync.Mutex
		logged []string
	)
	hook := WithRequestHook(func(_ context.Context, ri RequestInfo) { mu.Lock(); logged = append(logged, ri.Path); mu.Unlock() })
	dsrv, dc, _ := newDiscoveryFake(t, mintlifytest.Config{}, hook, WithMaxRetries(0))
	isrv, ic, _ := newIndexFake(t, mintlifytest.Config{}, hook, WithMaxRetries(0))
	afake, ac, _ := newFake(t, mintlifytest.Config{}, hook, WithMaxRetries(0))
	calls := []call{
		{mintlifytest.RouteDiscoverySearch, "POST /discovery/v1/search/demo-docs", func() error {
			_, err := dc.Search(ctx, mintlifytest.DemoDomain, SearchRequest{Query: "x"})
			return err
		}},
		{mintlifytest.RouteDiscoveryPage, "POST /discovery/v1/page/demo-docs", func() error {
			_, err := dc.Page(ctx, mintlifytest.DemoDomain, "/quickstart", nil)
			return err
		}},
		{mintlifytest.RouteAssistantStream, "POST /discovery/v2/assistant/demo-docs/message", func() error {
			_, err := dc.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "x"})
			return err
		}},
		{mintlifytest.RouteAssistantStreamV1, "POST /discovery/v1/assistant/demo-docs/message", func() error {
			_, err := dc.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "x", Protocol: AssistantV1})
			return err
		}},
		{mintlifytest.RouteIndexSearch, "POST /api/universal-search/v1/search", func() error {
			_, err := ic.Search(ctx, IndexSearchRequest{Query: "x"})
			return err
		}},
		{mintlifytest.RouteIndexContext, "POST /api/universal-search/v1/context", func() error {
			_, err := ic.Context(ctx, IndexContextRequest{Query: "x"})
			return err
		}},
		{mintlifytest.RouteIndexContents, "POST /api/universal-search/v1/contents", func() error {
			_, err := ic.Contents(ctx, IndexContentsRequest{IDs: []string{"x"}})
			return err
		}},
		{mintlifytest.RouteAgentJobsGet, "GET /v2/agent/demo-project/job/j", func() error {
			_, err := ac.AgentJobs.Get(ctx, mintlifytest.DemoProjectID, "j")
			return err
		}},
	}
	faults := map[string]mintlifytest.Fault{
		"refused":   {Kind: mintlifytest.FaultClientError, Status: 400},
		"no answer": {Kind: mintlifytest.FaultDropConnection},
		"malformed": {Kind: mintlifytest.FaultMalformed, Body: `"not an answer"`},
	}
	for name, f := range faults {
		for _, c := range calls {
			fake := afake
			switch {
			case strings.Contains(c.path, "/discovery/"):
				fake = dsrv.Fake
			case strings.Contains(c.path, "/api/universal-search/"):
				fake = isrv.Fake
			}
			fake.ClearFaults()
			f.Route = c.route
			fake.InjectFault(f)
			mu.Lock()
			logged = nil
			mu.Unlock()
			err := c.do()
			method, path, _ := strings.Cut(c.path, " ")
			var apiErr *APIError
			var reqErr *RequestError
			var malformed *MalformedResponseError
			var streamErr *StreamError
			got := ""
			switch {
			case errors.As(err, &apiErr):
				got = apiErr.Method + " " + apiErr.Path
			case errors.As(err, &reqErr):
				got = reqErr.Method + " " + reqErr.Path
			case errors.As(err, &malformed):
				got = malformed.Method + " " + malformed.Path
			case errors.As(err, &streamErr):
				got = streamErr.Method + " " + streamErr.Path
			}
			if got != c.path || !strings.Contains(err.Error(), c.path+": ") && !strings.Contains(err.Error(), c.path+" ") {
				t.Errorf("%s, %s: %v (names %q), want %s %s", name, c.route, err, got, method, path)
			}
			mu.Lock()
			if len(logged) == 0 || logged[0] != path {
				t.Errorf("%s, %s: logged %q, want %s", name, c.route, logged, path)
			}
			mu.Unlock()
		}
	}
}
