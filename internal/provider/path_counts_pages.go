//go:build !perfbench

package provider

import "github.com/mintlify/terraform-provider-mintlify/sdk"

// Where the path-count data sources read their pages: the API. The
// benchmark's floor build (-tags perfbench) reads them from memory
// instead (path_counts_pages_perfbench.go); this build has no such hook.

func visitorsPages(data *providerData) pageReader[sdk.VisitorsQuery, sdk.PathCountsPage] {
	return data.client.Analytics.Visitors.Each
}

func viewsPages(data *providerData) pageReader[sdk.VisitorsQuery, sdk.PathCountsPage] {
	return data.client.Analytics.Views.Each
}
