package sdk

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Server text the SDK puts in an error is escaped: an export's error, a
// stream's error part, a v1 part's code, an error body's message (before:
// a failed export's error reached the terminal raw, screen clears and
// all).
func TestErrors_serverTextIsEscaped(t *testing.T) {
	ctx := context.Background()
	fake, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Kind: fakehostile.ControlText})}})
	e, err := c.StaticExports.Start(ctx, StaticExportRequest{Domain: "docs.example.com", Version: "[fake:failed]"})
	if err != nil {
		t.Fatal(err)
	}
	_, failed := c.StaticExports.CreateBundleWhenReady(ctx, e.ID)
	if !errors.Is(failed, ErrStaticExportFailed) || !strings.Contains(failed.Error(), `\x1b[2J\x1b[H\x1b[32mApply complete!`) {
		t.Errorf("%v", failed)
	}
	_, missing := c.AgentJobs.Get(ctx, mintlifytest.DemoProjectID, "nope")
	fake.ClearFaults()
	if !IsNotFound(missing) || !strings.Contains(missing.Error(), `\x1b]0;pwned\x07\r\u202eevil`) {
		t.Errorf("%v", missing)
	}
	s, _ := streamOf(t, AssistantV2, strings.NewReader("data: {\"type\":\"error\",\"errorText\":\"overloaded\\u001b[2J\\r\"}\n\n"))
	_, reported := s.Collect()
	wantStreamError(t, reported, StreamCut, `the stream reported: overloaded\x1b[2J\r`)
	s, _ = streamOf(t, AssistantV1, strings.NewReader("\x1b[2J:{oops\n"))
	_, code := readAll(s)
	wantStreamError(t, code, StreamMalformed, `the value of a "\x1b[2J" part is not JSON`)
	for _, e := range []error{failed, missing, reported, code} {
		if strings.ContainsAny(e.Error(), "\x1b\r\u202e") {
			t.Errorf("raw: %q", e.Error())
		}
	}
}
