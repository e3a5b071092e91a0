package sdk_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// newExportClient runs the fake and a client on one manual clock: an
// export's minutes pass as the client waits, in no wall time. Against the
// real API, drop the server and the options, and pass your admin API key.
func newExportClient() (*mintlifytest.Server, *sdk.Client, *mintlifytest.ManualClock) {
	clock := mintlifytest.NewManualClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	srv := mintlifytest.NewServer(mintlifytest.Config{Clock: clock, StaticExports: mintlifytest.StaticExportConfig{
		Default: mintlifytest.ExportScript{QueuedFor: 30 * time.Second, RunFor: 3 * time.Minute, Pages: 120}}})
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL), sdk.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	return srv, client, clock
}

// Start an export, follow its progress, and download its archive to a
// file: written to a temporary file beside it and renamed once whole, so
// a failed download never leaves a partial archive where a reader expects
// a whole one.
func ExampleStaticExportsService_DownloadBundle() {
	srv, client, _ := newExportClient()
	defer srv.Close()
	ctx := context.Background()

	export, err := client.StaticExports.Start(ctx, sdk.StaticExportRequest{Domain: "docs.example.com", Version: "v2.4.0"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("started:", export.Status)
	last := export.Status
	export, err = client.StaticExports.Wait(ctx, export.ID, sdk.WithStatusCallback(func(e *sdk.StaticExport) {
		if e.Status != last { // every poll reports e.Progress and e.PageCount too
			fmt.Println("now:", e.Status)
			last = e.Status
		}
	}))
	if err != nil {
		log.Fatal(err)
	}
	if export.Status == sdk.StaticExportStatusFailed {
		log.Fatalf("static export %s failed: %s", export.ID, *export.Error)
	}
	bundle, err := client.StaticExports.CreateBundle(ctx, export.ID)
	if err != nil {
		log.Fatal(err)
	}
	// The link is a secret until it expires: fmt shows it without its query.
	fmt.Printf("%d pages; the link: %v\n", export.PageCount, bundle.RedactedURL() != bundle.URL)

	dir, err := os.MkdirTemp("", "export")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	dest := filepath.Join(dir, "docs-v2.4.0.tar.gz")
	tmp, err := os.CreateTemp(dir, ".docs-*.partial")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(tmp.Name())
	sum := sha256.New()
	n, err := client.StaticExports.DownloadBundle(ctx, bundle.URL, io.MultiWriter(tmp, sum), sdk.WithExpectedSize(bundle.SizeBytes))
	if err == nil {
		err = tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dest)
	}
	if err != nil {
		log.Fatal(err) // dest was never touched
	}
	fmt.Println("saved the whole archive:", n == bundle.SizeBytes)
	// Output:
	// started: queued
	// now: running
	// now: completed
	// 120 pages; the link: true
	// saved the whole archive: true
}

// A bundle asked for too early is refused with 409; CreateBundleWhenReady
// waits for the export instead, with Wait's options.
func ExampleStaticExportsService_CreateBundleWhenReady() {
	srv, client, clock := newExportClient()
	defer srv.Close()
	ctx := context.Background()
	export, err := client.StaticExports.Start(ctx, sdk.StaticExportRequest{Domain: "acme.mintlify.app",
		Paths: []string{"index", "guides/getting-started"}})
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.StaticExports.CreateBundle(ctx, export.ID)
	fmt.Println("too early:", sdk.IsConflict(err))

	bundle, err := client.StaticExports.CreateBundleWhenReady(ctx, export.ID, sdk.WithWaitTimeout(30*time.Minute))
	switch {
	case errors.Is(err, sdk.ErrStaticExportFailed):
		log.Fatal(err) // says why
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println("bundle of", bundle.JobID, "; the link works for", bundle.ExpiresAt.Sub(clock.Now()).Round(time.Minute))
	// Output:
	// too early: true
	// bundle of se_61c52b8bea03d8af ; the link works for 15m0s
}

// Bad input is refused before any request, naming the field and what to
// write instead.
func ExampleValidateStaticExportDomain() {
	fmt.Println(sdk.ValidateStaticExportDomain("https://docs.example.com/docs"))
	fmt.Println(sdk.ValidateStaticExportPath("/guides/getting-started"))
	// Output:
	// domain "https://docs.example.com/docs" must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"
	// path "/guides/getting-started" must not start or end with a slash: write "guides/getting-started", as the docs' navigation does
}

// Get reads an export once: its status, progress and page count.
func ExampleStaticExportsService_Get() {
	srv, client, _ := newExportClient()
	defer srv.Close()
	ctx := context.Background()
	export, _ := client.StaticExports.Start(ctx, sdk.StaticExportRequest{Domain: "docs.example.com"})
	export, err := client.StaticExports.Get(ctx, export.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, %v%%, %d pages\n", export.Status, export.Progress, export.PageCount)
	_, err = client.StaticExports.Get(ctx, "se_0000000000000000")
	fmt.Println("unknown:", sdk.IsNotFound(err))
	// Output:
	// queued, 0%, 0 pages
	// unknown: true
}
