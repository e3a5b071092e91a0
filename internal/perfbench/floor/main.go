//go:build perfbench

// Command floor is the benchmark's floor build of the provider: its
// unique-visitors and page-views data sources read the fake's rows from
// memory, with no HTTP and no JSON, so that `make bench` can tell the
// provider's own cost from what Terraform and the plugin framework cost.
// The data set is MINTLIFY_BENCH_FLOOR_PATHS paths of seed
// MINTLIFY_BENCH_FLOOR_SEED, exactly as the fake would serve it.
//
// It builds only with -tags perfbench (as `make bench` builds it): the
// provider package offers the seam (provider.PageSource) in that build
// alone, and the fake is linked here, never into the provider itself.
package main

import (
	"context"
	"log"
	"os"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func main() {
	err := providerserver.Serve(context.Background(), provider.NewWithPageSource("floor", provider.PageSource{
		Visitors: func(_ context.Context, projectID string, q sdk.VisitorsQuery, fn func(*sdk.PathCountsPage) error) (sdk.ResponseInfo, error) {
			return eachPage(projectID, q, (*mintlifytest.Fake).VisitorsData, fn)
		},
		Views: func(_ context.Context, projectID string, q sdk.VisitorsQuery, fn func(*sdk.PathCountsPage) error) (sdk.ResponseInfo, error) {
			return eachPage(projectID, q, (*mintlifytest.Fake).ViewsData, fn)
		},
	}), providerserver.ServeOpts{Address: "registry.terraform.io/mintlify/mintlify", ProtocolVersion: 6})
	if err != nil {
		log.Fatal(err)
	}
}

type exportFunc func(f *mintlifytest.Fake, projectID, dateFrom, dateTo string) (mintlifytest.Counts, []mintlifytest.PathRow, error)

// eachPage pages the fake's rows from memory, as the API would serve
// them, handing each page to fn as sdk.PagedEndpoint.Each does.
func eachPage(projectID string, q sdk.VisitorsQuery, export exportFunc, fn func(*sdk.PathCountsPage) error) (sdk.ResponseInfo, error) {
	paths, _ := strconv.Atoi(os.Getenv("MINTLIFY_BENCH_FLOOR_PATHS"))
	seed, _ := strconv.ParseUint(os.Getenv("MINTLIFY_BENCH_FLOOR_SEED"), 10, 64)
	fake := mintlifytest.New(mintlifytest.Config{NoDemo: true})
	fake.AddProject(projectID, "floor", mintlifytest.Dataset{Paths: paths, Seed: seed})
	totals, rows, err := export(fake, projectID, q.DateFrom, q.DateTo)
	if err != nil {
		return sdk.ResponseInfo{}, err
	}
	size := q.Limit
	if size == 0 {
		size = sdk.MaxPageSize
	}
	t := sdk.Counts{Human: totals.Human, AI: totals.AI, Total: totals.Total}
	info := sdk.ResponseInfo{}
	for start := 0; ; start += size {
		end := min(start+size, len(rows))
		out := make([]sdk.PathCounts, 0, end-start)
		for _, r := range rows[start:end] {
			out = append(out, sdk.PathCounts{Path: r.Path, Human: r.Human, AI: r.AI, Total: r.Total})
		}
		info.Pages++
		if err := fn(&sdk.PathCountsPage{Totals: t, Paths: out, HasMore: end < len(rows)}); err != nil || end >= len(rows) {
			return info, err
		}
	}
}
