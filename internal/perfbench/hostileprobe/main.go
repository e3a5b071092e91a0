// Command hostileprobe is an SDK program that `make bench` runs against a
// hostile fake (section 13 of docs/performance.md): one case per process,
// so that the process's peak resident set size is that case's. It prints
// the case's figures as one JSON object.
//
// It links the SDK alone (not the fake, not the provider), as a Go
// service using the SDK would: its peak RSS is what such a program pays.
// The action's cases run in perfbench itself, which links the provider.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/perfbench/peak"
	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

func main() {
	name := flag.String("case", "", "ask-v2, ask-v1, collect-v2, collect-v1, download-unannounced, download-announced or download-trickle")
	base := flag.String("url", "", "the fake's address")
	key := flag.String("key", "", "the admin API key")
	assistantKey := flag.String("assistant-key", "", "the assistant API key")
	domain := flag.String("domain", "", "the docs site the assistant answers for")
	link := flag.String("link", "", "the bundle's download link")
	size := flag.Int64("size", 0, "the bundle's announced size (0: none announced)")
	requestTimeout := flag.Duration("request-timeout", sdk.DefaultRequestTimeout, "the client's request timeout")
	flag.Parse()
	r, err := run(*name, *base, *key, *assistantKey, *domain, *link, *size, *requestTimeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostileprobe:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		os.Exit(1)
	}
}

func run(name, base, key, assistantKey, domain, link string, size int64, requestTimeout time.Duration) (*peak.Result, error) {
	// A safety net: every case ends by the SDK's own bounds well before.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	r := &peak.Result{Case: name}
	var call func() error
	switch name {
	case "ask-v2", "ask-v1", "collect-v2", "collect-v1":
		dc, err := sdk.NewDiscoveryClient(assistantKey, sdk.WithBaseURL(base+"/discovery"))
		if err != nil {
			return nil, err
		}
		req := sdk.AssistantRequest{Question: "How do I install the CLI?", Protocol: sdk.AssistantV2}
		if strings.HasSuffix(name, "v1") {
			req.Protocol = sdk.AssistantV1
		}
		call = func() error {
			if strings.HasPrefix(name, "ask") {
				_, err := dc.Assistant.Ask(ctx, domain, req)
				return err
			}
			st, err := dc.Assistant.Stream(ctx, domain, req)
			if err != nil {
				return err
			}
			defer st.Close()
			_, err = st.Collect()
			return err
		}
	case "download-unannounced", "download-announced", "download-trickle":
		c, err := sdk.NewClient(key, sdk.WithBaseURL(base), sdk.WithRequestTimeout(requestTimeout))
		if err != nil {
			return nil, err
		}
		var opts []sdk.DownloadOption
		if size > 0 {
			opts = append(opts, sdk.WithExpectedSize(size))
		}
		call = func() error {
			n, err := c.StaticExports.DownloadBundle(ctx, link, counter{&r.Written}, opts...)
			r.Written = n
			return err
		}
	default:
		return nil, fmt.Errorf("unknown case %q", name)
	}
	r.Measured = peak.Reset()
	r.StartKiB = peak.KiB(peak.Self, "VmRSS")
	start := time.Now()
	err := call()
	r.Nanos = time.Since(start).Nanoseconds()
	if r.Measured {
		r.PeakKiB = peak.KiB(peak.Self, "VmHWM")
	}
	if err != nil {
		r.Err = err.Error()
	}
	var se *sdk.StreamError
	if errors.As(err, &se) {
		r.Parts = se.Parts
	}
	return r, nil
}

// counter is a writer that keeps nothing: the download's bytes are
// counted, not stored, so that the figure is the SDK's own memory.
type counter struct{ n *int64 }

func (c counter) Write(p []byte) (int, error) { *c.n += int64(len(p)); return len(p), nil }
