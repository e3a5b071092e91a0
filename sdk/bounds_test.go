package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// wantLimit checks that err wraps a *LimitError of the bound.
func wantLimit(t *testing.T, err error, limit BodyLimit) *LimitError {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit {
		t.Fatalf("err = %v, want a %q *LimitError", err, limit)
	}
	return le
}

// askEveryWay asks the fake's assistant a question in both protocols, by
// Ask and part by part (Next), each within a deadline that only a reader
// without bounds reaches.
func askEveryWay(t *testing.T, faults []mintlifytest.Fault, check func(t *testing.T, how string, err error, parts int), opts ...Option) {
	t.Helper()
	_, c, _ := newDiscoveryFake(t, mintlifytest.Config{Faults: faults}, opts...)
	for _, proto := range []AssistantProtocol{AssistantV2, AssistantV1} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		req := AssistantRequest{Question: "How do I install the CLI?", Protocol: proto}
		_, err := c.Assistant.Ask(ctx, mintlifytest.DemoDomain, req)
		var se *StreamError
		n := 0
		if errors.As(err, &se) {
			n = se.Parts
		}
		check(t, string(proto)+" Ask", err, n)
		st, err := c.Assistant.Stream(ctx, mintlifytest.DemoDomain, req)
		if err != nil {
			t.Fatal(err)
		}
		n = 0
		for _, err = range st.Parts() {
			if err != nil {
				break
			}
			n++
		}
		check(t, string(proto)+" Parts", err, n)
		cancel()
	}
}

// An event of endless data lines (no blank line) is capped like a line:
// it fails at the cap, never growing past it (before: 1.37 GB in 11 s).
func TestAssistant_endlessEventIsCappedLikeALine(t *testing.T) {
	faults := []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: fakehostile.EndlessEvent}),
		fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStreamV1, Kind: fakehostile.EndlessEvent})}
	askEveryWay(t, faults, func(t *testing.T, how string, err error, parts int) {
		t.Helper()
		var se *StreamError
		if !errors.As(err, &se) || se.Problem != StreamMalformed || parts != 0 {
			t.Fatalf("%s: %v (%d parts), want a malformed stream", how, err, parts)
		}
		if le := wantLimit(t, err, LimitLine); le.Max != 64<<10 || !errors.Is(err, ErrResponseTooLarge) || !MayHaveTakenEffect(err) {
			t.Errorf("%s: %+v", how, le)
		}
	}, WithMaxResponseBytes(64<<10))
}

// A flood of parts that carry nothing ends at the cap of parts, whatever
// the kind: empty deltas, step markers, keep-alives (before: 4.6 million
// parts in 25 s, read until the server hung up).
func TestAssistant_aFloodOfEmptyPartsEndsAtTheCap(t *testing.T) {
	for name, body := range map[string][2]string{
		"empty deltas": {"", ""},
		"step parts":   {`{"type":"start-step"}`, `f:{"messageId":"m"}`},
		"finish steps": {`{"type":"finish-step"}`, `e:{"finishReason":"stop"}`},
		"unknown":      {`{"type":"sparkle"}`, `z:{}`},
	} {
		t.Run(name, func(t *testing.T) {
			faults := []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: fakehostile.EmptyDeltas, Body: body[0]}),
				fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStreamV1, Kind: fakehostile.EmptyDeltas, Body: body[1]})}
			askEveryWay(t, faults, func(t *testing.T, how string, err error, parts int) {
				t.Helper()
				var se *StreamError
				if !errors.As(err, &se) || se.Problem != StreamTooLarge || parts > 1000 {
					t.Fatalf("%s: %v (%d parts), want too large at 1000 parts", how, err, parts)
				}
				if le := wantLimit(t, err, LimitParts); le.Max != 1000 || le.Option != "WithMaxStreamParts" || !strings.Contains(err.Error(), "more than 1000 parts (WithMaxStreamParts)") {
					t.Errorf("%s: %v", how, err)
				}
			}, WithMaxStreamParts(1000))
		})
	}
}

// Keep-alives and blank lines count too: a stream of nothing but them
// ends at the cap.
func TestAssistantStream_keepAlivesCountAsParts(t *testing.T) {
	s, _ := streamOf(t, AssistantV2, strings.NewReader(strings.Repeat(": ping\n\n", 50)+"data: {\"type\":\"finish\"}\n\n"), WithMaxStreamParts(40))
	_, err := readAll(s)
	wantStreamError(t, err, StreamTooLarge, "more than 40 parts")
	s, _ = streamOf(t, AssistantV1, strings.NewReader(strings.Repeat("\n", 50)+`d:{"finishReason":"stop"}`+"\n"), WithMaxStreamParts(40))
	_, err = readAll(s)
	wantStreamError(t, err, StreamTooLarge, "more than 40 parts")
	// At the cap, a whole answer is whole.
	s, _ = streamOf(t, AssistantV2, strings.NewReader(strings.Repeat(": ping\n\n", 39)+"data: {\"type\":\"finish\"}\n\n"), WithMaxStreamParts(40))
	if parts, err := readAll(s); err != nil || len(parts) != 1 {
		t.Errorf("%d parts: %v", len(parts), err)
	}
}

// A trickle never stalls (a byte comes before the request timeout each
// time); the bound on the whole answer ends it (before: read to its end,
// however long that took).
func TestAssistant_aTrickleEndsAtTheStreamsDuration(t *testing.T) {
	faults := []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: fakehostile.Trickle, Latency: 2 * time.Millisecond}),
		fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStreamV1, Kind: fakehostile.Trickle, Latency: 2 * time.Millisecond})}
	askEveryWay(t, faults, func(t *testing.T, how string, err error, _ int) {
		t.Helper()
		var se *StreamError
		if !errors.As(err, &se) || se.Problem != StreamTooLong || !strings.Contains(err.Error(), "still coming after 300ms (WithMaxStreamDuration)") {
			t.Fatalf("%s: %v, want too long", how, err)
		}
		_ = wantLimit(t, err, LimitDuration)
	}, WithMaxStreamDuration(300*time.Millisecond), WithRequestTimeout(time.Second))
}

// Without a duration, a slow answer is read whole.
func TestAssistant_noStreamDurationReadsASlowAnswerWhole(t *testing.T) {
	_, c, _ := newDiscoveryFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAssistantStream, Kind: mintlifytest.FaultSlowStream, Latency: 10 * time.Millisecond}}},
		WithMaxStreamDuration(0), WithRequestTimeout(time.Second))
	if a, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "install"}); err != nil || a.Text == "" {
		t.Errorf("%v", err)
	}
}

// Options refuse what cannot be a bound.
func TestStreamBoundOptions(t *testing.T) {
	for _, opt := range []Option{WithMaxStreamParts(0), WithMaxStreamDuration(-time.Second)} {
		if _, err := NewDiscoveryClient(testAssistantKey, opt); err == nil {
			t.Errorf("%v accepted", opt)
		}
	}
	k, err := newCore(assistantKey, testAssistantKey, DefaultDiscoveryBaseURL, nil)
	if err != nil || k.maxStreamParts != DefaultMaxStreamParts || k.maxStreamDuration != DefaultMaxStreamDuration {
		t.Errorf("defaults %d %s: %v", k.maxStreamParts, k.maxStreamDuration, err)
	}
}

// The bounded reader: bytes up to the cap are read, one past it fails.
func TestBoundedBody_bytes(t *testing.T) {
	for n, wantErr := range map[int]bool{99: false, 100: false, 101: true, 5000: true} {
		b := newBoundedBody(io.NopCloser(strings.NewReader(strings.Repeat("x", n))), bodyBounds{maxBytes: 100})
		data, err := io.ReadAll(b)
		if (err != nil) != wantErr || len(data) > 100 || (!wantErr && len(data) != n) {
			t.Errorf("%d bytes: read %d, %v", n, len(data), err)
		}
		if wantErr {
			if le := wantLimit(t, err, LimitBytes); le.Max != 100 || !errors.Is(err, ErrResponseTooLarge) {
				t.Errorf("%+v", le)
			}
		}
	}
}

// The bounded reader's errors are *LimitError, each naming its bound, its
// figures and the option that sets it (the reader's timers are tested in
// package bounded).
func TestLimitError_fromTheBoundedReader(t *testing.T) {
	for _, tt := range []struct {
		in    *bounded.Error
		want  LimitError
		text  string
		large bool
	}{
		{&bounded.Error{Bound: bounded.Bytes, Max: 100}, LimitError{Limit: LimitBytes, Max: 100, Option: "WithMaxResponseBytes"},
			"response body too large: over 100 bytes (WithMaxResponseBytes)", true},
		{&bounded.Error{Bound: bounded.Idle, Max: 204, After: 200 * time.Millisecond}, LimitError{Limit: LimitIdle, Max: 204, After: 200 * time.Millisecond},
			"less than 204 bytes came in 200ms (the request timeout): slower than 1024 bytes a second", false},
		{&bounded.Error{Bound: bounded.Idle, After: time.Minute}, LimitError{Limit: LimitIdle, After: time.Minute},
			"no data came for 1m0s (the request timeout)", false},
		{&bounded.Error{Bound: bounded.Duration, After: time.Hour}, LimitError{Limit: LimitDuration, After: time.Hour, Option: "WithMaxStreamDuration"},
			"still unfinished after 1h0m0s (WithMaxStreamDuration)", false},
	} {
		err := limitError(tt.in, "WithMaxStreamDuration")
		le := wantLimit(t, err, tt.want.Limit)
		if *le != tt.want || err.Error() != tt.text || errors.Is(err, ErrResponseTooLarge) != tt.large {
			t.Errorf("%+v: %+v %q", tt.in, le, err)
		}
	}
	other := io.ErrUnexpectedEOF
	if limitError(other, "") != other { //nolint:errorlint // the very same error
		t.Error("another error changed")
	}
}

func ExampleWithMaxStreamParts() {
	_, err := NewDiscoveryClient("mint_dsc_0123456789abcdef", WithMaxStreamParts(10_000), WithMaxStreamDuration(2*time.Minute))
	fmt.Println(err)
	// Output: <nil>
}

// An answer read whole is bounded by the request timeout from sending to
// its last byte: a trickle ends a GET's attempts (each retried), and a
// POST's one attempt, which may have taken effect.
func TestRequest_aTrickledAnswerEndsAtTheRequestTimeout(t *testing.T) {
	fake, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Kind: fakehostile.Trickle, Latency: 20 * time.Millisecond})}},
		WithRequestTimeout(150*time.Millisecond), WithMaxRetries(1))
	ctx := context.Background()
	start := time.Now()
	_, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "Document it")
	var re *RequestError
	if !errors.As(err, &re) || !re.Sent || re.Attempts != 1 || !MayHaveTakenEffect(err) || !strings.Contains(err.Error(), "no response within 150ms (the request timeout)") {
		t.Fatalf("%v", err)
	}
	ids := fake.JobIDs(mintlifytest.DemoProjectID)
	_, err = c.AgentJobs.Get(ctx, mintlifytest.DemoProjectID, ids[0])
	if !errors.As(err, &re) || re.Attempts != 2 || time.Since(start) > 5*time.Second || len(ids) != 1 {
		t.Errorf("%v after %s, %d jobs", err, time.Since(start), len(ids))
	}
}

// Collect reports at most wire.MaxProblems problems, however many parts have
// odd fields.
func TestCollect_problemsAreBounded(t *testing.T) {
	body := strings.Repeat(`data: {"type":"source-url","sourceId":7}`+"\n\n", 5000) + "data: {\"type\":\"finish\"}\n\n"
	s, _ := streamOf(t, AssistantV2, strings.NewReader(body))
	a, err := s.Collect()
	if err != nil || len(a.Problems) != wire.MaxProblems+1 || a.Problems[wire.MaxProblems] != wire.MoreProblems || len(a.Sources) != 5000 {
		t.Errorf("%d problems, %d sources: %v", len(a.Problems), len(a.Sources), err)
	}
}

// An endless answer to a call read whole ends at WithMaxResponseBytes,
// once: a body too large would be too large again.
func TestRequest_anEndlessAnswerEndsAtTheByteCap(t *testing.T) {
	fake, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Kind: fakehostile.EndlessBody})}}, WithMaxResponseBytes(1<<20))
	_, err := c.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, "j")
	if le := wantLimit(t, err, LimitBytes); le.Max != 1<<20 || !errors.Is(err, ErrResponseTooLarge) || fake.Requests(mintlifytest.RouteAgentJobsGet) != 1 {
		t.Errorf("%v after %d requests", err, fake.Requests(mintlifytest.RouteAgentJobsGet))
	}
}
