//go:build perfbench

package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The benchmark's floor build: both path-count data sources of a provider
// made by NewWithPageSource read their pages from the source, and send no
// request.
func TestNewWithPageSource_dataSourcesReadFromTheSource(t *testing.T) {
	fs, url, _ := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 3}})
	var asked []string
	var fail error
	var cache sdk.CacheStatus
	p := NewWithPageSource("test", PageSource{Visitors: twoPageSource("visitors", &asked, &fail, &cache),
		Views: twoPageSource("views", &asked, &fail, &cache)})()
	t.Cleanup(func() { floorPages.Store(nil) })
	data := dataOfProvider(t, p, url)
	vals := map[string]tftypes.Value{"date_from": str("2026-10-01"), "max_results": tftypes.NewValue(tftypes.Number, 2)}
	for list, d := range map[string]datasource.DataSource{
		"visitors": &uniqueVisitorsDataSource{analyticsBase{data: data}},
		"views":    &pageViewsDataSource{analyticsBase{data: data}},
	} {
		asked = nil
		resp := readWith(t, d, vals)
		var rows []struct {
			Path  string `tfsdk:"path"`
			Human int64  `tfsdk:"human"`
			AI    int64  `tfsdk:"ai"`
			Total int64  `tfsdk:"total"`
		}
		resp.Diagnostics.Append(resp.State.GetAttribute(context.Background(), path.Root(list), &rows)...)
		if len(resp.Diagnostics) != 0 || len(asked) != 1 || asked[0] != list+" p 2026-10-01.. max 2" || len(rows) != 2 || rows[1].Path != "/b" {
			t.Errorf("%s: asked %q, rows %+v, diagnostics %v", list, asked, rows, resp.Diagnostics)
		}
	}
	wantNoRequests(t, fs, "(the source was not used)")
}
