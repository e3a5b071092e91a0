//go:build perfbench

package provider

import (
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// The benchmark's floor build (internal/perfbench/floor, built with
// -tags perfbench): the unique-visitor and page-view data sources read
// their pages from a PageSource in memory, to measure what Terraform and
// the framework cost without any HTTP. The provider's own build has none
// of this (path_counts_pages.go).

// PageSource stands in for the API as the source of unique-visitor and
// page-view pages. Each field reads as sdk.PagedEndpoint.Each does.
type PageSource struct {
	Visitors pageReader[sdk.VisitorsQuery, sdk.PathCountsPage]
	Views    pageReader[sdk.VisitorsQuery, sdk.PathCountsPage]
}

// floorPages is the source NewWithPageSource was given: the floor binary
// serves one provider. nil: the API.
var floorPages atomic.Pointer[PageSource]

// NewWithPageSource is New with the path-count data sources reading
// pages from src.
func NewWithPageSource(version string, src PageSource) func() provider.Provider {
	floorPages.Store(&src)
	return New(version)
}

func visitorsPages(data *providerData) pageReader[sdk.VisitorsQuery, sdk.PathCountsPage] {
	if src := floorPages.Load(); src != nil {
		return src.Visitors
	}
	return data.client.Analytics.Visitors.Each
}

func viewsPages(data *providerData) pageReader[sdk.VisitorsQuery, sdk.PathCountsPage] {
	if src := floorPages.Load(); src != nil {
		return src.Views
	}
	return data.client.Analytics.Views.Each
}
