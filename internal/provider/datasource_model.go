package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// describedModel is the model of a data source (P is *M) that says what the
// data source is: its type name after the provider's ("_agent_job"), its
// schema, how its read begins (the configuration read into the model and
// its defaults resolved; false: the read stops, deferred or failed), and
// the read itself (false: failed, the error in diags). A model may also
// have configValidators, checked at plan.
type describedModel[M any] interface {
	*M
	typeName() string
	schema() schema.Schema
	begin(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse) (context.Context, bool)
	read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool
}

// describedDataSource is the data source whose model M describes it: the
// framework's methods are the same for every one. The analytics data
// sources have their own (analyticsDataSource), whose read always begins
// the same way.
type describedDataSource[M any, P describedModel[M]] struct {
	data *providerData
}

var _ datasource.DataSourceWithConfigValidators = (*describedDataSource[agentJobsModel, *agentJobsModel])(nil)

func (d *describedDataSource[M, P]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *describedDataSource[M, P]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + P(nil).typeName()
}

func (d *describedDataSource[M, P]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = P(nil).schema()
}

// ConfigValidators are the model's, when it has any.
func (d *describedDataSource[M, P]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	if v, ok := any(P(nil)).(interface {
		configValidators() []datasource.ConfigValidator
	}); ok {
		return v.configValidators()
	}
	return nil
}

// Read sets the state only when the read succeeded.
func (d *describedDataSource[M, P]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m := P(new(M))
	ctx, ok := m.begin(ctx, d.data, req, resp)
	if ok && m.read(ctx, d.data, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	}
}

// readConfig begins the read of every data source: the configuration read
// into model, once the provider can serve it (ready says why not:
// requireConfigured for the admin API, requireDiscovery for search and
// page). Terraform reads data sources at plan even while the provider's
// settings are unknown; where it can defer them, the framework does (see
// Configure) and the read never begins. It is false when the read must
// stop.
func readConfig(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse, model any,
	ready func(*providerData, *diag.Diagnostics) bool) bool {
	if !ready(data, &resp.Diagnostics) {
		return false
	}
	resp.Diagnostics.Append(req.Config.Get(ctx, model)...)
	return !resp.Diagnostics.HasError()
}
