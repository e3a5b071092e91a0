package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewStaticExportAction is the mintlify_static_export action: it runs an
// export and, with output_path, downloads its archive.
func NewStaticExportAction() action.Action {
	return &staticExportAction{waitingActionBase{actionBase{typeName: "_static_export"}}}
}

type staticExportAction struct {
	waitingActionBase
}

// staticExportActionModel is what to export, where to save its archive,
// and whether to wait.
type staticExportActionModel struct {
	exportInput
	OutputPath types.String `tfsdk:"output_path"`
	actionWaitModel
}

func (a *staticExportAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	domain, version, paths := exportInputDescriptions("")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a static export of a deployment's documentation (an Enterprise feature) and, with " +
			"`output_path`, downloads its archive (`.tar.gz`) there. The action reports the export's id at once, its " +
			"progress while it waits, and the archive's size and SHA-256 at the end. A `failed` export fails the " +
			"action. The export is never started twice.\n\n" +
			"The archive is written to a temporary file in `output_path`'s directory and renamed into place once " +
			"whole and checked against the size announced, so a failed or interrupted download never leaves a " +
			"partial file at `output_path`; a file already there is replaced only by a whole archive. The link it " +
			"downloads from is never shown.\n\n" + actionNote("export"),
		Attributes: attributes(actionWaitAttributes("Whether the action waits until the export is `completed` or "+
			"`failed` (default `true`), reporting its progress. With `false` it ends as soon as the API has accepted "+
			"the export, reporting its id; `output_path` needs the wait.", "the export, the packaging of its archive and its "+
			"download to `output_path` (the timeout bounds them together)"), map[string]schema.Attribute{
			"domain": requiredActionString(domain, domainValidator),
			"version": schema.StringAttribute{
				MarkdownDescription: version,
				Optional:            true,
				Validators:          []validator.String{exportVersionValidator},
			},
			"paths": schema.SetAttribute{
				MarkdownDescription: paths,
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          pathsValidators,
			},
			"output_path": schema.StringAttribute{
				MarkdownDescription: "Where to save the export's archive, such as `build/docs.tar.gz`; relative to " +
					"the directory Terraform runs in. Its directory must exist when the action is planned (checked then, " +
					"with no request sent), and the path must be a regular file, which the archive replaces, or nothing: " +
					"a symbolic link, a named pipe (FIFO), a device or a directory is refused at plan, when the action " +
					"starts and again just before the archive is renamed into place. Leave it out to only run the export (fetch the archive later with the " +
					"`mintlify_static_export_bundle` ephemeral resource).",
				Optional:   true,
				Validators: []validator.String{outputPathValidator{}},
			},
		}),
	}
}

// ValidateConfig checks the timeout and output_path's form, with no
// request sent.
func (a *staticExportAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	a.waitingActionBase.ValidateConfig(ctx, req, resp)
	var m staticExportActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.OutputPath.IsNull() && !m.WaitForCompletion.IsNull() && !m.WaitForCompletion.IsUnknown() && !m.WaitForCompletion.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("wait_for_completion"), "Invalid wait_for_completion",
			"wait_for_completion = false cannot be used with output_path: the archive exists only once the export "+
				"has completed. Remove one of them.")
	}
}

// ModifyPlan checks, at plan, that output_path can be written where it
// says: its directory exists and it is not itself a directory. The
// actions' common ModifyPlan (a project) does not apply to exports.
func (a *staticExportAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var out types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("output_path"), &out)...)
	if out.IsNull() || out.IsUnknown() {
		return
	}
	if err := checkOutputPath(out.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Invalid output_path", err.Error())
	}
}

// outputPathValidator checks output_path's form: a file name, not a
// directory's.
type outputPathValidator struct{}

func (outputPathValidator) Description(context.Context) string {
	return "must name a file, such as build/docs.tar.gz, in a directory that exists"
}

func (v outputPathValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (outputPathValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	p := req.ConfigValue.ValueString()
	var problem string
	switch {
	case strings.TrimSpace(p) == "":
		problem = "is empty: name the archive's file, such as build/docs.tar.gz, or leave output_path out"
	case strings.ContainsRune(p, 0):
		problem = "holds a NUL character"
	case strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator)) || filepath.Base(p) == "." || filepath.Base(p) == "..":
		problem = "names a directory: name the archive's file in it, such as " + filepath.Join(p, "docs.tar.gz")
	}
	if problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), fmt.Sprintf("%s %q %s.", req.Path, p, problem))
	}
}

// checkOutputPath is the file system's part of output_path's rule: its
// directory exists, and the path itself is a regular file (replaced by
// the archive) or nothing. A FIFO would hang the write or feed a reader,
// a device (/dev/null, as root) would be replaced by a file, a symbolic
// link would be replaced instead of the file it names: each is refused.
func checkOutputPath(p string) error {
	dir := filepath.Dir(p)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("output_path %q: its directory %q does not exist; create it first (the action creates no directory)", p, dir)
	case err != nil:
		return fmt.Errorf("output_path %q: %w", p, err)
	case !st.IsDir():
		return fmt.Errorf("output_path %q: %q is not a directory", p, dir)
	}
	return checkOutputFile(p)
}

// checkOutputFile refuses a path that is there and is not a regular file
// (os.Lstat: a link is judged itself, never what it names).
func checkOutputFile(p string) error {
	st, err := os.Lstat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("output_path %q: %w", p, err)
	case st.Mode().IsRegular():
		return nil
	case st.IsDir():
		return fmt.Errorf("output_path %q is a directory: name the archive's file in it, such as %s", p, filepath.Join(p, "docs.tar.gz"))
	}
	return fmt.Errorf("output_path %q %s: the action writes the archive only to a regular file (which it replaces) or "+
		"to a new one. Name another file, or remove this one first", p, fileKind(st.Mode()))
}

// fileKind says what a file that is not a regular one is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "is a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		return "is a device"
	case m&fs.ModeSocket != 0:
		return "is a socket"
	}
	return "is not a regular file (" + m.Type().String() + ")"
}

func (a *staticExportAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m staticExportActionModel
	if !readModel(ctx, a.data, req.Config, &m, &resp.Diagnostics) {
		return
	}
	exportReq, ok := m.request(ctx, &resp.Diagnostics)
	if !ok {
		return
	}
	// The archive's file is made before the export starts: an export is
	// never spent on a path that cannot be written.
	var out *partialFile
	if !m.OutputPath.IsNull() {
		var err error
		if out, err = createPartial(m.OutputPath.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot write output_path",
				fmt.Sprintf("%s. No export was started.", err))
			return
		}
		defer out.discard()
	}

	w := exportWork(a.data, exportReq)
	w.doWait = out != nil || m.waits()
	w.timeout = actionTimeout(m.Timeout)
	w.words = exportActionWords
	shown, status := "", ""
	// The timeout bounds the whole action from the POST's answer on, as it
	// bounds a wait: the export, its bundle and the archive's download.
	var deadline time.Time
	w.record = func(e *sdk.StaticExport) {
		if shown == "" { // the export as the POST answered; the wait's polls are reported by onPoll
			deadline = a.data.now().Add(w.timeout)
			shown, status = describeExport(e), string(e.Status)
			progress(resp, "Static export %s of %s started; it is %s.", e.ID, exportReq.Domain, shown)
		}
	}
	// A message at each change of status, and as the progress passes each
	// tenth: a 30-minute export is polled about a hundred times.
	tenth := 0
	w.onPoll = func(e *sdk.StaticExport) {
		s, t := describeExport(e), int(e.Progress/10)
		switch {
		case s == shown:
			return
		case string(e.Status) != status:
			progress(resp, "Static export %s is now %s.", e.ID, s)
		case t > tenth:
			progress(resp, "Static export %s is %s.", e.ID, s)
		default:
			return
		}
		shown, status, tenth = s, string(e.Status), t
	}
	e := w.run(ctx, &resp.Diagnostics)
	if e == nil || !w.doWait || resp.Diagnostics.HasError() || out == nil {
		if e != nil && e.Status == sdk.StaticExportStatusCompleted && out == nil {
			progress(resp, "Static export %s is completed. Set output_path to download its archive, or use the mintlify_static_export_bundle ephemeral resource.", e.ID)
		}
		return
	}
	a.download(ctx, resp, e.ID, out, deadline, w.timeout)
}

// download packages the export's archive and saves it at output_path, by
// the deadline the action's timeout (of length timeout) set.
func (a *staticExportAction) download(ctx context.Context, resp *action.InvokeResponse, jobID string, out *partialFile, deadline time.Time, timeout time.Duration) {
	ctx = a.data.logContext(ctx)
	left := func() time.Duration { return max(deadline.Sub(a.data.now()), 0) }
	b, err := a.data.client.StaticExports.CreateBundleWhenReady(ctx, jobID, append([]sdk.WaitOption{sdk.WithWaitTimeout(max(left(), time.Nanosecond))}, a.data.waitOptions...)...)
	if err != nil {
		summary, detail := bundleError(jobID, err)
		resp.Diagnostics.AddError(summary, detail+"\n\nNothing was written to output_path.")
		return
	}
	ctx = bundleLogContext(ctx, b)
	for _, p := range b.Problems {
		tflog.Warn(ctx, "static export bundle: a field of the answer could not be read", map[string]any{"id": jobID, "problem": p})
	}
	progress(resp, "Downloading the archive of static export %s (%s) to %s.", jobID, byteSize(b.SizeBytes), out.dest)
	// A message at every tenth of the archive (every 64 MiB when its size
	// is not known), not at every buffer.
	step := int64(64 << 20)
	if b.SizeBytes > 0 {
		step = max(b.SizeBytes/10, 1)
	}
	next := step
	report := func(p sdk.DownloadProgress) {
		if p.Written < next || p.Written == p.Total {
			return
		}
		if p.Total > 0 {
			progress(resp, "Downloaded %s of %s (%d%%).", byteSize(p.Written), byteSize(p.Total), (p.Written*100+p.Total/2)/p.Total)
		} else {
			progress(resp, "Downloaded %s.", byteSize(p.Written))
		}
		next = (p.Written/step + 1) * step
	}
	// The download is bounded by what the timeout has left, on the wall
	// clock: however slowly the server sends, the action ends on time.
	dlCtx, cancel := context.WithTimeout(ctx, left())
	defer cancel()
	n, err := a.data.client.StaticExports.DownloadBundle(dlCtx, b.URL, out, sdk.WithExpectedSize(b.SizeBytes), sdk.WithDownloadProgress(report))
	if err != nil && ctx.Err() == nil && dlCtx.Err() != nil {
		resp.Diagnostics.AddError("Timed out downloading the archive of static export "+jobID,
			fmt.Sprintf("The action's timeout (%s) ran out after %s of %s of the archive. Nothing was written to %s: the "+
				"partial download was removed. The export is completed at Mintlify: raise timeout, or fetch its archive "+
				"with the mintlify_static_export_bundle ephemeral resource (job_id = %q).", shortDuration(timeout), byteSize(n),
				byteSize(b.SizeBytes), out.dest, jobID))
		return
	}
	if err == nil {
		err = out.commit()
	}
	if err != nil {
		resp.Diagnostics.AddError("Could not download the archive of static export "+jobID,
			fmt.Sprintf("%s\n\nNothing was written to %s: the partial download (%s) was removed. The export is completed "+
				"at Mintlify: invoke the action again to export again, or fetch its archive with the "+
				"mintlify_static_export_bundle ephemeral resource (job_id = %q).", err, out.dest, byteSize(n), jobID))
		return
	}
	progress(resp, "Saved the archive of static export %s to %s: %d bytes, SHA-256 %s.", jobID, out.dest, n, out.sum())
}

// byteSize writes a size for people: 18.4 MB, 1 GiB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/float64(div)), "0"), ".") + " " + string("KMGTPE"[exp]) + "iB"
}

// partialFile is a download's temporary file, beside its destination so
// that the rename into place is atomic. Until commit, the destination is
// untouched; discard removes the temporary file.
type partialFile struct {
	dest string
	f    *os.File
	h    hash.Hash
	done bool
}

// createPartial makes the temporary file of a download to dest. It is a
// new file of the download's own: os.CreateTemp opens it with O_CREATE
// and O_EXCL, which never follows a link nor opens what is already there.
func createPartial(dest string) (*partialFile, error) {
	if err := checkOutputPath(dest); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.partial")
	if err != nil {
		return nil, fmt.Errorf("output_path %q cannot be written: %w", dest, err)
	}
	return &partialFile{dest: dest, f: f, h: sha256.New()}, nil
}

func (p *partialFile) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	p.h.Write(b[:n])
	return n, err
}

func (p *partialFile) sum() string { return hex.EncodeToString(p.h.Sum(nil)) }

// commit makes the whole download the destination: synced, readable as
// a file made by cp would be, renamed into place.
func (p *partialFile) commit() error {
	if err := p.f.Sync(); err != nil {
		return fmt.Errorf("saving %s: %w", p.dest, err)
	}
	if err := p.f.Chmod(0o644); err != nil {
		return fmt.Errorf("saving %s: %w", p.dest, err)
	}
	if err := p.f.Close(); err != nil {
		return fmt.Errorf("saving %s: %w", p.dest, err)
	}
	// Checked again just before the rename: the path may have become a
	// FIFO, a device or a link since the plan, or since the download
	// started.
	if err := checkOutputFile(p.dest); err != nil {
		return err
	}
	if err := os.Rename(p.f.Name(), p.dest); err != nil {
		return fmt.Errorf("saving %s: %w", p.dest, err)
	}
	p.done = true
	return nil
}

// discard removes the temporary file unless it was committed.
func (p *partialFile) discard() {
	if p.done {
		return
	}
	_ = p.f.Close()
	_ = os.Remove(p.f.Name())
}

var _ io.Writer = (*partialFile)(nil)
