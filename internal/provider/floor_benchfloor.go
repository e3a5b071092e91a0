//go:build benchfloor

package provider

// The floor build of the provider: mintlify_unique_visitors serves the fake
// server's rows from memory, with no HTTP. `make bench` compares an apply
// through it with an apply through the real provider, to tell the
// provider's own cost from Terraform's and the framework's.

import (
	"context"
	"iter"
	"os"
	"strconv"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func init() {
	visitorPages = floorPages
}

// floorPages pages the fake's data set for MINTLIFY_BENCH_FLOOR_PATHS and
// MINTLIFY_BENCH_FLOOR_SEED, exactly as the fake would serve it.
func floorPages(_ context.Context, _ *sdk.Client, projectID string, q sdk.VisitorsQuery) iter.Seq2[*sdk.VisitorsPage, error] {
	return func(yield func(*sdk.VisitorsPage, error) bool) {
		paths, _ := strconv.Atoi(os.Getenv("MINTLIFY_BENCH_FLOOR_PATHS"))
		seed, _ := strconv.ParseUint(os.Getenv("MINTLIFY_BENCH_FLOOR_SEED"), 10, 64)
		fs := mintlifytest.New(mintlifytest.Config{NoDemo: true})
		fs.AddProject(projectID, "floor", mintlifytest.Dataset{Paths: paths, Seed: seed})
		totals, rows, err := fs.VisitorsData(projectID, q.DateFrom, q.DateTo)
		if err != nil {
			yield(nil, err)
			return
		}
		size := q.Limit
		if size == 0 {
			size = sdk.MaxPageSize
		}
		for start := 0; ; start += size {
			end := min(start+size, len(rows))
			page := &sdk.VisitorsPage{
				Totals:   sdk.VisitorCounts{Human: totals.Human, AI: totals.AI, Total: totals.Total},
				Visitors: make([]sdk.PathVisitors, 0, end-start),
				HasMore:  end < len(rows),
			}
			for _, r := range rows[start:end] {
				page.Visitors = append(page.Visitors, sdk.PathVisitors{Path: r.Path, Human: r.Human, AI: r.AI, Total: r.Total})
			}
			if !yield(page, nil) || !page.HasMore {
				return
			}
		}
	}
}
