package provider

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const visitorsAddr = "data.mintlify_unique_visitors.test"

func visitorsConfig(serverURL, args string) string {
	return providerBlock(serverURL) + fmt.Sprintf(`
data "mintlify_unique_visitors" "test" {
%s
}
`, args)
}

// visitorsMatchServer compares the data source's state, row by row, with
// what the fake holds for the same range, limited to maxResults rows.
func visitorsMatchServer(fs *mintlifytest.Fake, from, to string, maxResults int) statecheck.StateCheck {
	return checkState(func(s *tfjson.State) error {
		var vals map[string]any
		for _, r := range s.Values.RootModule.Resources {
			if r.Address == visitorsAddr {
				vals = r.AttributeValues
			}
		}
		if vals == nil {
			return fmt.Errorf("%s not in state", visitorsAddr)
		}
		totals, rows, err := fs.VisitorsData(mintlifytest.DemoProjectID, from, to)
		if err != nil {
			return err
		}
		if maxResults > 0 && len(rows) > maxResults {
			rows = rows[:maxResults]
		}
		gotTotals := vals["totals"].(map[string]any)
		if triple(gotTotals["human"], gotTotals["ai"], gotTotals["total"]) != triple(totals.Human, totals.AI, totals.Total) {
			return fmt.Errorf("totals %v, server %+v", gotTotals, totals)
		}
		got := vals["visitors"].([]any)
		if len(got) != len(rows) {
			return fmt.Errorf("%d rows in state, %d on the server", len(got), len(rows))
		}
		for i, want := range rows {
			row := got[i].(map[string]any)
			if row["path"] != want.Path || triple(row["human"], row["ai"], row["total"]) != triple(want.Human, want.AI, want.Total) {
				return fmt.Errorf("row %d: state %v, server %+v", i, row, want)
			}
		}
		return nil
	})
}

// triple prints three counts alike whether they are json.Number or int64.
func triple(a, b, c any) string { return fmt.Sprintf("%v %v %v", a, b, c) }

// requestsPerRead checks that every read of the data source made exactly
// want requests. Terraform reads a data source several times per test step
// (plan, apply, refresh), so reads are counted by their first page.
func requestsPerRead(t *testing.T, fs *mintlifytest.Fake, want int) {
	t.Helper()
	reads, pages := 0, 0
	for _, r := range fs.RequestLog() {
		if r.Route != mintlifytest.RouteAnalyticsVisitors {
			continue
		}
		pages++
		q, _ := url.ParseQuery(r.Query)
		if q.Get("offset") == "0" {
			reads++
		}
	}
	if reads == 0 || pages != reads*want {
		t.Errorf("%d requests over %d reads; want %d a read", pages, reads, want)
	}
}

func TestAccUniqueVisitors_rowCountsAndRequests(t *testing.T) {
	clearEnv(t)
	for _, tt := range []struct {
		paths        int
		args         string
		maxResults   int
		wantRequests int
	}{
		{0, "", 0, 1},
		{250, "", 0, 1},
		{251, "", 0, 2},
		{4321, "", 0, 18},
		{251, "page_size = 100", 0, 3},
		{1000, "max_results = 100", 100, 1},
		{1000, "max_results = 300", 300, 2},
		{1000, "max_results = 5000", 0, 4},
	} {
		t.Run(fmt.Sprintf("%d paths %s", tt.paths, tt.args), func(t *testing.T) {
			fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: tt.paths, Seed: 11}})
			runSteps(t, clk, []resource.TestStep{{
				Config: visitorsConfig(url, tt.args),
				ConfigStateChecks: []statecheck.StateCheck{
					visitorsMatchServer(fs, "", "", tt.maxResults),
					statecheck.ExpectKnownValue(visitorsAddr, tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
				},
			}})
			requestsPerRead(t, fs, tt.wantRequests)
		})
	}
}

func TestAccUniqueVisitors_dateFilter(t *testing.T) {
	fs, serverURL, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 300}})
	runSteps(t, clk, []resource.TestStep{
		{
			Config: visitorsConfig(serverURL, `
  date_from = "2026-10-01"
  date_to   = "2026-10-08"
`),
			ConfigStateChecks: []statecheck.StateCheck{
				visitorsMatchServer(fs, "2026-10-01", "2026-10-08", 0),
				statecheck.ExpectKnownValue(visitorsAddr, tfjsonPath("id"), knownString("demo-project?date_from=2026-10-01&date_to=2026-10-08")),
			},
		},
		{
			Config: visitorsConfig(serverURL, `
  date_from = "2026-10-31T00:00:00Z"
`),
			ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "2026-10-31T00:00:00Z", "", 0)},
		},
	})
	for _, r := range fs.RequestLog() {
		if q, _ := url.ParseQuery(r.Query); q.Get("limit") != "250" {
			t.Fatalf("request %s does not page at 250", r.Query)
		}
	}
}

func TestAccUniqueVisitors_projectIDOfEveryAllowedCharacter(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	fs.AddProject(oddProject, mintlifytest.DemoOrg, mintlifytest.Dataset{Paths: 7})
	runSteps(t, clk, []resource.TestStep{{
		Config: visitorsConfig(url, `  project_id = "`+oddProject+`"`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(visitorsAddr, tfjsonPath("visitors"), knownvalue.ListSizeExact(7)),
		},
	}})
}

func TestAccUniqueVisitors_invalidInputFailsAtPlanWithNoRequest(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 3}})
	for _, tt := range []struct{ args, want string }{
		{"page_size = 0", "page_size is 0; it must be a whole number from 1 to 250."},
		{"page_size = 251", "page_size is 251; it must be a whole number from 1 to 250."},
		{"page_size = 2.5", "page_size is 2.5; it must be a whole number from 1 to 250."},
		{"max_results = -1", "max_results is -1; it must be a whole number, at least 0."}, // 0 reads the totals only
		{"max_results = 10.5", "max_results is 10.5; it must be a whole number, at least 0."},
		{`date_from = "2026-13-45"`, `date_from "2026-13-45" must be a date: YYYY-MM-DD or an ISO 8601 date-time`},
		{`date_to = "yesterday"`, `date_to "yesterday" must be a date: YYYY-MM-DD or an ISO 8601`},
		{`date_to = "2026-10-01 00:00:00"`, `date_to "2026-10-01 00:00:00" must be a date`},
		{"date_from = \"2026-10-02\"\n  date_to = \"2026-10-01\"", `date_from "2026-10-02" must be before date_to "2026-10-01": date_to is exclusive`},
		{"date_from = \"2026-10-01\"\n  date_to = \"2026-10-01\"", `date_from "2026-10-01" must be before date_to "2026-10-01"`},
		{`project_id = " "`, `project_id " " must not be empty`},
		{`project_id = "."`, `project_id "." is not allowed`},
		{`project_id = "acme docs/β"`, `project_id "acme docs/β" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character).`},
	} {
		runSteps(t, clk, []resource.TestStep{{Config: visitorsConfig(url, "  "+tt.args), PlanOnly: true, ExpectError: wrapped(tt.want)}})
	}
	wantNoRequests(t, fs, "for invalid configuration")
}

func TestAccUniqueVisitors_rateLimitFailsAtOnceWithWhenToRetry(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{AnalyticsBudget: 2, Analytics: mintlifytest.Dataset{Paths: 1000}})
	runSteps(t, clk, []resource.TestStep{{
		Config:      visitorsConfig(url, ""),
		ExpectError: wrapped(`Could not read unique visitors`, `429 Too Many Requests`, `rate limited; try again after`, `100 per organization per hour`),
	}})
	wantRequests(t, fs, mintlifytest.RouteAnalyticsVisitors, 3, "2 pages and one refusal")
}

func TestAccUniqueVisitors_survivesFaultsWithoutRereading(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 600}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultServerError, Requests: []int{1}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultDropConnection, Requests: []int{3}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Second, Requests: []int{5}})
	runSteps(t, clk, []resource.TestStep{{
		Config:            visitorsConfig(url, ""),
		ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)},
	}})
	// Every read is 3 pages; the 3 faulted requests are the only extra ones.
	pages, okPages := 0, 0
	for _, r := range fs.RequestLog() {
		if r.Route == mintlifytest.RouteAnalyticsVisitors {
			pages++
		}
	}
	okPages = pages - 3
	if okPages%3 != 0 || okPages == 0 {
		t.Errorf("%d requests: %d beyond the 3 faulted, not a whole number of 3-page reads", pages, okPages)
	}
}

// readWith reads data source d, configured from vals, and returns the
// response.
func readWith(t *testing.T, d datasource.DataSource, vals map[string]tftypes.Value) *datasource.ReadResponse {
	t.Helper()
	var sresp datasource.SchemaResponse
	d.Schema(context.Background(), datasource.SchemaRequest{}, &sresp)
	cfg := tfsdk.Config{Schema: sresp.Schema, Raw: objectOf(t, sresp.Schema, vals, false)}
	resp := &datasource.ReadResponse{State: tfsdk.State{Schema: sresp.Schema, Raw: objectOf(t, sresp.Schema, nil, false)}}
	d.Read(context.Background(), datasource.ReadRequest{Config: cfg}, resp)
	return resp
}

// dataOfProvider is the data a provider configured for the fake at url
// hands its data sources (project "p").
func dataOfProvider(t *testing.T, p provider.Provider, url string) *providerData {
	t.Helper()
	var sr provider.SchemaResponse
	p.Schema(context.Background(), provider.SchemaRequest{}, &sr)
	conf := &provider.ConfigureResponse{}
	p.Configure(context.Background(), provider.ConfigureRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: objectOf(t, sr.Schema,
		map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "base_url": str(url), "project_id": str("p")}, false)}}, conf)
	data, _ := conf.DataSourceData.(*providerData)
	if conf.Diagnostics.HasError() || data == nil {
		t.Fatal(conf.Diagnostics)
	}
	return data
}

// twoPageSource reads two pages of path counts, as sdk.PagedEndpoint.Each
// does, noting each query it is asked in *asked; it fails with *fail, and
// says its answer came from *cache.
func twoPageSource(name string, asked *[]string, fail *error, cache *sdk.CacheStatus) pageReader[sdk.VisitorsQuery, sdk.PathCountsPage] {
	return func(_ context.Context, projectID string, q sdk.VisitorsQuery, fn func(*sdk.PathCountsPage) error) (sdk.ResponseInfo, error) {
		*asked = append(*asked, fmt.Sprintf("%s %s %s..%s max %d", name, projectID, q.DateFrom, q.DateTo, q.MaxResults))
		if *fail != nil {
			return sdk.ResponseInfo{}, *fail
		}
		for i, page := range []sdk.PathCountsPage{
			{Totals: sdk.Counts{Human: 5, AI: 2, Total: 7}, Paths: []sdk.PathCounts{{Path: "/a", Human: 3, AI: 1, Total: 4}}},
			{Totals: sdk.Counts{Human: 99, AI: 99, Total: 99}, Paths: []sdk.PathCounts{{Path: "/b", Human: 2, AI: 1, Total: 3}}},
		} {
			if err := fn(&page); err != nil {
				return sdk.ResponseInfo{}, fmt.Errorf("page %d: %w", i, err)
			}
		}
		return sdk.ResponseInfo{Pages: 2, Cache: *cache}, nil
	}
}

// Both path-count data sources read whatever pages their reader hands
// them, page by page: the totals are the first page's, the rows every
// page's in order; and they say what its answer says (a failure, a stale
// copy). The API's Each and the benchmark floor's source are such readers.
func TestReadPathCounts_readsPagesFromItsReader(t *testing.T) {
	fs, url, _ := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 3}})
	data := dataOfProvider(t, New("test")(), url)
	var asked []string
	var fail error
	var cache sdk.CacheStatus
	for list, s := range map[string]schema.Schema{"visitors": (&uniqueVisitorsModel{}).schema(), "views": (&pageViewsModel{}).schema()} {
		what := map[string]string{"visitors": "unique visitors", "views": "page views"}[list]
		read := func() (pathCountsModel, types.List, diag.Diagnostics) {
			m := pathCountsModel{pagedQueryModel: pagedQueryModel{
				analyticsQueryModel{ProjectID: types.StringValue("p"), DateFrom: types.StringValue("2026-10-01"), DateTo: types.StringNull()},
				pagingModel{PageSize: types.NumberNull(), MaxResults: types.NumberValue(big.NewFloat(2))}}}
			var rows types.List
			var diags diag.Diagnostics
			readPathCounts(context.Background(), data, &diags, what, twoPageSource(list, &asked, &fail, &cache), &m, s, list, &rows)
			return m, rows, diags
		}

		asked, fail, cache = nil, nil, sdk.CacheStatus{}
		m, rows, diags := read()
		if len(diags) != 0 || len(asked) != 1 || asked[0] != list+" p 2026-10-01.. max 2" {
			t.Fatalf("%s: asked %q, diagnostics %v", list, asked, diags)
		}
		if m.Totals.String() != `{"ai":2,"human":5,"total":7}` ||
			rows.String() != `[{"ai":1,"human":3,"path":"/a","total":4},{"ai":1,"human":2,"path":"/b","total":3}]` {
			t.Errorf("%s: totals %s, rows %s", list, m.Totals, rows)
		}
		if m.ID.ValueString() != "p?date_from=2026-10-01&max_results=2" {
			t.Errorf("%s: id %s", list, m.ID)
		}

		fail = errors.New("the source broke")
		if _, _, diags = read(); diagText(diags, diag.SeverityError) != "Could not read "+what+": the source broke\n" {
			t.Errorf("%s: %q", list, diagText(diags, diag.SeverityError))
		}

		fail, cache = nil, sdk.CacheStatus{Hit: true, Stale: true, StoredAt: time.Now().Add(-time.Hour)}
		if _, _, diags = read(); !strings.HasPrefix(diagText(diags, diag.SeverityWarning), "Mintlify "+what+" served from cache: ") || diags.HasError() {
			t.Errorf("%s: %q", list, diagText(diags, diag.SeverityWarning))
		}
	}
	wantNoRequests(t, fs, "(the reader was not the API)")
}
