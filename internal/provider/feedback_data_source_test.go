package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// feedback/by-page cannot page: the warning says so exactly when the API,
// not the user's max_results, cut the list.
func TestFeedbackByPageRead_warnsOnlyWhenTheAPICutTheList(t *testing.T) {
	for _, tt := range []struct {
		paths       int
		maxResults  int64
		wantWarning bool
	}{
		{30, 0, false},
		{150, 0, true},
		{150, 10, false},
	} {
		t.Run(fmt.Sprintf("%d paths, max_results %d", tt.paths, tt.maxResults), func(t *testing.T) {
			srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: tt.paths, Feedback: 3000, Seed: 2}})
			defer srv.Close()
			d := &feedbackByPageDataSource{analyticsBase{data: clientFor(t, srv.URL)}}
			var sresp datasource.SchemaResponse
			d.Schema(context.Background(), datasource.SchemaRequest{}, &sresp)
			vals := map[string]tftypes.Value{}
			if tt.maxResults != 0 {
				vals["max_results"] = tftypes.NewValue(tftypes.Number, tt.maxResults)
			}
			cfg := tfsdk.Config{Schema: sresp.Schema, Raw: objectOf(t, sresp.Schema, vals, false)}
			resp := &datasource.ReadResponse{State: tfsdk.State{Schema: sresp.Schema, Raw: objectOf(t, sresp.Schema, nil, false)}}
			d.Read(context.Background(), datasource.ReadRequest{Config: cfg}, resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			var hasMore bool
			resp.State.GetAttribute(context.Background(), tfjsonPathToPath("has_more"), &hasMore)
			if hasMore != (tt.paths > 100) {
				t.Errorf("has_more %v", hasMore)
			}
			warnings := diagText(resp.Diagnostics, diag.SeverityWarning)
			if got := strings.Contains(warnings, "More pages have feedback than the API lists"); got != tt.wantWarning {
				t.Errorf("warned %v, want %v: %q", got, tt.wantWarning, warnings)
			}
			if want := "The Mintlify API lists at most 100 pages per request and cannot page past them: pages holds the 100 with the most feedback."; tt.wantWarning && !strings.Contains(warnings, want) {
				t.Errorf("warning %q lacks %q", warnings, want)
			}
		})
	}
}

// The filters reach the API, and name the query; a read the API refuses
// fails, naming what it read.
func TestFeedbackByPageRead_filtersAndErrors(t *testing.T) {
	srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 30, Feedback: 400, Seed: 2}})
	defer srv.Close()
	d := &feedbackByPageDataSource{analyticsBase{data: clientFor(t, srv.URL)}}
	statuses := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("pending"), str("resolved")})
	resp := readWith(t, d, map[string]tftypes.Value{"source": str("contextual"), "statuses": statuses, "date_from": str("2026-10-01")})
	if len(resp.Diagnostics) != 0 {
		t.Fatal(resp.Diagnostics)
	}
	log := srv.RequestLog()
	if len(log) != 1 || log[0].Query != "dateFrom=2026-10-01&limit=100&source=contextual&status=pending%2Cresolved" {
		t.Errorf("requests %+v", log)
	}
	var id string
	resp.State.GetAttribute(context.Background(), tfjsonPathToPath("id"), &id)
	if id != "demo-project?date_from=2026-10-01&source=contextual&statuses=pending%2Cresolved" {
		t.Errorf("id %q", id)
	}

	resp = readWith(t, d, map[string]tftypes.Value{"project_id": str("no-such-project")})
	if got := diagText(resp.Diagnostics, diag.SeverityError); !strings.HasPrefix(got, "Could not read feedback by page: ") ||
		!strings.HasSuffix(got, "404 Not Found: Project not found [request id req_0000002]\n\n"+projectNotFound+"\n\n"+seeTroubleshooting+"\n") {
		t.Errorf("%q", got)
	}
}
