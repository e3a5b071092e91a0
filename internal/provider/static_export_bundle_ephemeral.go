package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

var (
	_ ephemeral.EphemeralResourceWithConfigure      = (*staticExportBundleEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithValidateConfig = (*staticExportBundleEphemeral)(nil)
)

// NewStaticExportBundleEphemeralResource is the
// mintlify_static_export_bundle ephemeral resource: a presigned link to an
// export's archive, never written to a plan or state.
func NewStaticExportBundleEphemeralResource() ephemeral.EphemeralResource {
	return &staticExportBundleEphemeral{}
}

type staticExportBundleEphemeral struct {
	data *providerData
}

type staticExportBundleModel struct {
	JobID     types.String `tfsdk:"job_id"`
	Timeout   types.String `tfsdk:"timeout"`
	URL       types.String `tfsdk:"url"`
	ExpiresAt types.String `tfsdk:"expires_at"`
	SizeBytes types.Int64  `tfsdk:"size_bytes"`
}

func (e *staticExportBundleEphemeral) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_bundle"
}

func (e *staticExportBundleEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The archive of a static export, as a presigned download link. Opening it packages the " +
			"export into one archive (`.tar.gz`) and returns a link that anyone holding it can download from, without " +
			"a key, until `expires_at`: a secret. Being ephemeral, the link is never written to a plan or to state; " +
			"reference it where Terraform allows ephemeral values (a provisioner's environment, a write-only argument, " +
			"another provider's configuration).\n\n" +
			"When the export is not completed yet (the API answers 409), opening waits for it, up to `timeout`. A " +
			"failed export has no bundle: opening it is an error. Each opening (Terraform opens ephemeral resources at " +
			"every plan and apply that needs them) makes a new link.\n\n" +
			"Ephemeral resources need Terraform 1.10 or later. To download the archive to a file in one step, use the " +
			"`mintlify_static_export` action with `output_path` (Terraform 1.14).",
		Attributes: map[string]schema.Attribute{
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The export's job id: `mintlify_static_export.<name>.id`, or an id from elsewhere.",
				Required:            true,
				Validators:          []validator.String{exportIDValidator},
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "How long to wait for the export to complete when it has not yet, as " + timeoutBoundsPhrase() + ".",
				Optional:            true,
			},
			"url": schema.StringAttribute{
				MarkdownDescription: "The presigned link to the archive. Anyone holding it can download the docs until " +
					"`expires_at`: never print it or pass it where it is stored.",
				Computed:  true,
				Sensitive: true,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the link stops working (RFC 3339).",
				Computed:            true,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "The archive's size in bytes, as the API announced it.",
				Computed:            true,
			},
		},
	}
}

func (e *staticExportBundleEphemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig refuses a timeout out of bounds, before any request.
func (e *staticExportBundleEphemeral) ValidateConfig(ctx context.Context, req ephemeral.ValidateConfigRequest, resp *ephemeral.ValidateConfigResponse) {
	validateTimeout(ctx, req.Config, &resp.Diagnostics)
}

func (e *staticExportBundleEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m staticExportBundleModel
	if !readModel(ctx, e.data, req.Config, &m, &resp.Diagnostics) {
		return
	}
	ctx = e.data.logContext(ctx)
	jobID := m.JobID.ValueString()
	last := ""
	opts := append([]sdk.WaitOption{
		sdk.WithWaitTimeout(actionTimeout(m.Timeout)),
		sdk.WithStatusCallback(func(x *sdk.StaticExport) {
			if s := describeExport(x); s != last {
				tflog.Info(ctx, "waiting for the static export to complete before creating its bundle", map[string]any{"id": jobID, "status": s})
				last = s
			}
		}),
	}, e.data.waitOptions...)
	b, err := e.data.client.StaticExports.CreateBundleWhenReady(ctx, jobID, opts...)
	if err != nil {
		resp.Diagnostics.AddError(bundleError(jobID, err))
		return
	}
	ctx = bundleLogContext(ctx, b)
	if len(b.Problems) > 0 {
		notes := newProblemNotes("the bundle of static export", jobID)
		notes.add(b.Problems)
		notes.warn(&resp.Diagnostics)
	}
	m.URL = types.StringValue(b.URL)
	m.ExpiresAt = timeValue(&b.ExpiresAt)
	m.SizeBytes = types.Int64Value(b.SizeBytes)
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
	tflog.Info(ctx, "static export bundle ready", map[string]any{"id": jobID, "size_bytes": b.SizeBytes,
		"expires_at": b.ExpiresAt.UTC().Format(time.RFC3339)})
}
