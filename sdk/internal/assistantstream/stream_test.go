package assistantstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

const secret = "mint_dsc_0123456789"

// counted is a body that counts its closes.
type counted struct {
	io.Reader
	closes *int
}

func (c counted) Close() error { *c.closes++; return nil }

// newStream reads body with a secret, caps of 1 KiB lines and 100 parts.
func newStream(v1 bool, body io.Reader) (*Stream, *int) {
	closes := 0
	return New(Config{V1: v1, Body: counted{body, &closes}, MaxLine: 1 << 10, MaxParts: 100,
		Secrets: redact.NewSecrets(secret)}), &closes
}

// readAll reads every part and the final error.
func readAll(t *testing.T, s *Stream) ([]Part, error) {
	t.Helper()
	var parts []Part
	for range 1000 {
		p, err := s.Next()
		if err != nil {
			return parts, err
		}
		parts = append(parts, p)
	}
	t.Fatal("no end after 1000 parts")
	return nil, nil
}

// sse frames JSON parts as server-sent events.
func sse(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		fmt.Fprintf(&b, "data: %s\n\n", p)
	}
	return b.String()
}

func failure(t *testing.T, err error) *Failure {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("%v (%T), want a *Failure", err, err)
	}
	return f
}

func TestStream_v2PartsInOrder(t *testing.T) {
	body := sse(`{"type":"start","messageId":"m1","messageMetadata":{"a":1}}`,
		`{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"Hel"}`,
		`{"type":"text-delta","id":"t","delta":"lo"}`, `{"type":"text-end","id":"t"}`,
		`{"type":"reasoning-delta","id":"r","delta":"hx"}`,
		`{"type":"source-url","sourceId":"s1","url":"https://a","title":"A"}`,
		`{"type":"source-document","sourceId":"s2","title":"B","mediaType":"text/plain","filename":"b.txt"}`,
		`{"type":"file","url":"https://f","mediaType":"image/png"}`,
		`{"type":"tool-input-start","toolCallId":"c","toolName":"search"}`,
		`{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{\"q\""}`,
		`{"type":"tool-input-available","toolCallId":"c","toolName":"search","input":{"q":"x"}}`,
		`{"type":"tool-output-available","toolCallId":"c","output":[1]}`,
		`{"type":"tool-output-error","toolCallId":"c","errorText":"boom"}`,
		`{"type":"tool-custom","toolCallId":"c"}`,
		`{"type":"data-weather","id":"d","data":{"t":20}}`,
		`{"type":"message-metadata","messageMetadata":{"b":2}}`,
		`{"type":"start-step"}`, `{"type":"finish-step"}`,
		`{"type":"error","errorText":"bad"}`, `{"type":"abort","reason":"why"}`,
		`{"type":"something-new","x":1}`,
		`{"type":"finish","finishReason":"stop","messageMetadata":{"threadId":"th"}}`, `[DONE]`)
	s, closes := newStream(false, strings.NewReader(body))
	parts, err := readAll(t, s)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("%v, want io.EOF", err)
	}
	want := []Part{
		{Type: Start, MessageID: "m1", Data: []byte(`{"a":1}`)},
		{Type: TextStart, ID: "t"}, {Type: TextDelta, ID: "t", Text: "Hel"}, {Type: TextDelta, ID: "t", Text: "lo"}, {Type: TextEnd, ID: "t"},
		{Type: ReasoningDelta, ID: "r", Text: "hx"},
		{Type: SourceURL, Source: &Source{ID: "s1", URL: "https://a", Title: "A"}},
		{Type: SourceDocument, Source: &Source{ID: "s2", Title: "B", MediaType: "text/plain", Filename: "b.txt"}},
		{Type: File, Source: &Source{URL: "https://f", MediaType: "image/png"}},
		{Type: ToolInputStart, Tool: &Tool{CallID: "c", Name: "search"}},
		{Type: ToolInputDelta, Tool: &Tool{CallID: "c"}, Text: `{"q"`},
		{Type: ToolInput, Tool: &Tool{CallID: "c", Name: "search", Input: []byte(`{"q":"x"}`)}},
		{Type: ToolOutput, Tool: &Tool{CallID: "c", Output: []byte(`[1]`)}},
		{Type: ToolOutputError, Tool: &Tool{CallID: "c"}, ErrorText: "boom"},
		{Type: "tool-custom", Tool: &Tool{CallID: "c"}, Raw: []byte(`{"type":"tool-custom","toolCallId":"c"}`)},
		{Type: "data-weather", ID: "d", Data: []byte(`{"t":20}`)},
		{Type: MessageMetadata, Data: []byte(`{"b":2}`)},
		{Type: StartStep}, {Type: FinishStep},
		{Type: Error, ErrorText: "bad"}, {Type: Abort, ErrorText: "why"},
		{Type: "something-new", Raw: []byte(`{"type":"something-new","x":1}`)},
		{Type: Finish, FinishReason: "stop", ThreadID: "th", Data: []byte(`{"threadId":"th"}`)},
	}
	if diff := cmp.Diff(want, parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if !s.Finished() || s.ThreadID() != "th" || s.MessageID() != "m1" || s.Parts() != len(want) || *closes != 1 {
		t.Errorf("finished %v, thread %q, message %q, %d parts, %d closes", s.Finished(), s.ThreadID(), s.MessageID(), s.Parts(), *closes)
	}
	if _, err := s.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("again: %v, want io.EOF", err)
	}
}

func TestStream_v1LinesReadAsV2Parts(t *testing.T) {
	body := strings.Join([]string{`f:{"messageId":"m1"}`, `0:"Hel"`, ``, `0:"lo"`, `g:"hx"`,
		`2:[{"threadId":"th1"}]`, `8:[{"x":1}]`, `b:{"toolCallId":"c","toolName":"search"}`,
		`c:{"toolCallId":"c","argsTextDelta":"{}"}`, `9:{"toolCallId":"c","toolName":"search","args":{"q":1}}`,
		`a:{"toolCallId":"c","result":"r"}`, `h:{"id":"s","url":"https://a","title":"A"}`, `3:"oops"`,
		`z:{"new":true}`, `e:{"finishReason":"tool-calls"}`, `f:{"messageId":"m2"}`, `d:{"finishReason":"stop"}`}, "\r\n") + "\n"
	s, _ := newStream(true, iotest.OneByteReader(strings.NewReader(body)))
	parts, err := readAll(t, s)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("%v, want io.EOF", err)
	}
	want := []Part{
		{Type: StartStep, MessageID: "m1"},
		{Type: TextDelta, Text: "Hel"}, {Type: TextDelta, Text: "lo"}, {Type: ReasoningDelta, Text: "hx"},
		{Type: Data, Data: []byte(`[{"threadId":"th1"}]`)}, {Type: MessageAnnotations, Data: []byte(`[{"x":1}]`)},
		{Type: ToolInputStart, Tool: &Tool{CallID: "c", Name: "search"}},
		{Type: ToolInputDelta, Tool: &Tool{CallID: "c"}, Text: "{}"},
		{Type: ToolInput, Tool: &Tool{CallID: "c", Name: "search", Input: []byte(`{"q":1}`)}},
		{Type: ToolOutput, Tool: &Tool{CallID: "c", Output: []byte(`"r"`)}},
		{Type: SourceURL, Source: &Source{ID: "s", URL: "https://a", Title: "A"}},
		{Type: Error, ErrorText: "oops"},
		{Type: "v1:z", Raw: []byte(`{"new":true}`)},
		{Type: FinishStep, FinishReason: "tool-calls", Data: []byte(`{"finishReason":"tool-calls"}`)},
		{Type: StartStep, MessageID: "m2"},
		{Type: Finish, FinishReason: "stop", ThreadID: "th1", Data: []byte(`{"finishReason":"stop"}`)},
	}
	if diff := cmp.Diff(want, parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if s.ThreadID() != "th1" || s.MessageID() != "m1" {
		t.Errorf("thread %q, message %q; want th1, the first message id", s.ThreadID(), s.MessageID())
	}
}

// A field of the wrong kind is a problem of its part; the rest is read.
func TestStream_problemsNameTheField(t *testing.T) {
	for name, c := range map[string]struct {
		v1   bool
		body string
		want Part
	}{
		"v2 type":        {false, sse(`{"type":""}`), Part{Raw: []byte(`{"type":""}`), Problems: []string{"type: missing or empty"}}},
		"v2 delta":       {false, sse(`{"type":"text-delta","id":7}`), Part{Type: TextDelta, Problems: []string{"id: want a string or null, got a number", "delta: missing"}}},
		"v2 error":       {false, sse(`{"type":"error"}`), Part{Type: Error, Problems: []string{"errorText: missing"}}},
		"v2 source":      {false, sse(`{"type":"source-url","url":true}`), Part{Type: SourceURL, Source: &Source{}, Problems: []string{"url: want a string, got true or false"}}},
		"v2 tool delta":  {false, sse(`{"type":"tool-input-delta","toolCallId":"c"}`), Part{Type: ToolInputDelta, Tool: &Tool{CallID: "c"}, Problems: []string{"inputTextDelta: missing"}}},
		"v1 not object":  {true, "9:[1]\n", Part{Type: ToolInput, Tool: &Tool{}, Problems: []string{"value: want an object, got a list", "toolCallId: missing"}}},
		"v1 not string":  {true, "0:5\n", Part{Type: TextDelta, Problems: []string{"value: want a string, got a number"}}},
		"v1 tool delta":  {true, `c:{"toolCallId":"c"}` + "\n", Part{Type: ToolInputDelta, Tool: &Tool{CallID: "c"}, Problems: []string{"argsTextDelta: missing"}}},
		"v1 wrong field": {true, `a:{"toolCallId":["c"]}` + "\n", Part{Type: ToolOutput, Tool: &Tool{}, Problems: []string{"toolCallId: want a string, got a list"}}},
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := newStream(c.v1, strings.NewReader(c.body))
			p, err := s.Next()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, p); diff != "" {
				t.Errorf("part (-want +got):\n%s", diff)
			}
		})
	}
}

// Every way a stream fails is one Failure, with its problem, cap and
// cause; it is final, and the body is closed.
func TestStream_failures(t *testing.T) {
	long := strings.Repeat("x", 2<<10)
	for name, c := range map[string]struct {
		v1        bool
		body      string
		problem   Problem
		detail    string
		limit     Limit
		max       int64
		parts     int
		bodyStart string
		server    string
	}{
		"no finish":       {false, sse(`{"type":"text-delta","id":"t","delta":"a"}`), Cut, "ended before its finish part", NoLimit, 0, 1, "", ""},
		"done early":      {false, sse(`{"type":"start"}`, `[DONE]`), Cut, "(with [DONE]) before its finish part", NoLimit, 0, 1, "", ""},
		"not a stream":    {false, "<html>Bad gateway</html>", Cut, "ended before its finish part", NoLimit, 0, 0, "<html>Bad gateway</html>", ""},
		"empty":           {false, "", Cut, "ended before its finish part", NoLimit, 0, 0, "", ""},
		"not json":        {false, sse(`{"type":`+`"start"}`, `nope`), Malformed, "a part is not the stream's JSON", NoLimit, 0, 1, "nope", ""},
		"cut in a part":   {false, `data: {"type":"sta`, Cut, "in the middle of a part", NoLimit, 0, 0, "", ""},
		"v1 no code":      {true, `"x"` + "\n", Malformed, "has no code", NoLimit, 0, 0, `"x"`, ""},
		"v1 not json":     {true, "0:nope\n", Malformed, `the value of a "0" part is not JSON`, NoLimit, 0, 0, "0:nope", ""},
		"v1 long code":    {true, strings.Repeat("q", 20) + ":nope\n", Malformed, `"qqqqqqqqqq…" part`, NoLimit, 0, 0, strings.Repeat("q", 20) + ":nope", ""},
		"line too long":   {true, long + "\n", Malformed, "a line is longer than 1024 bytes", LineLimit, 1024, 0, "", ""},
		"event too long":  {false, strings.Repeat("data: "+long[:600]+"\n", 2), Malformed, "an event's data is longer than 1024 bytes", LineLimit, 1024, 0, "", ""},
		"too many parts":  {true, strings.Repeat("\n", 101), TooLarge, "more than 100 parts (WithMaxStreamParts)", PartsLimit, 100, 0, "", ""},
		"error then cut":  {false, sse(`{"type":"error","errorText":"overloaded"}`), Cut, "ended before its finish part", NoLimit, 0, 1, "", "overloaded"},
		"read error":      {false, "", Cut, "reading the stream failed", NoLimit, 0, 0, "", ""},
		"secret in error": {true, "0:" + secret + "\n", Malformed, "not JSON", NoLimit, 0, 0, "0:" + secret, ""},
	} {
		t.Run(name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(c.body)
			if name == "read error" {
				body = iotest.ErrReader(errors.New("connection reset"))
			}
			s, closes := newStream(c.v1, body)
			parts, err := readAll(t, s)
			f := failure(t, err)
			if f.Problem != c.problem || !strings.Contains(f.Detail, c.detail) || f.Limit != c.limit || f.Max != c.max ||
				f.Parts != c.parts || len(parts) != c.parts || string(f.BodyStart) != c.bodyStart || f.ServerError != c.server {
				t.Errorf("%+v (body start %q), %d parts; want %s %q, limit %d of %d, %d parts, body start %q, server error %q",
					f, f.BodyStart, len(parts), c.problem, c.detail, c.limit, c.max, c.parts, c.bodyStart, c.server)
			}
			if c.bodyStart == "" && f.BodyStart != nil {
				t.Errorf("body start %q, want none", f.BodyStart)
			}
			if f.Error() != string(f.Problem)+": "+f.Detail || strings.Contains(f.Detail, secret) {
				t.Errorf("error %q", f.Error())
			}
			if *closes != 1 {
				t.Errorf("closed %d times, want once", *closes)
			}
			if _, again := s.Next(); again != err { //nolint:errorlint // the very same error, not one it wraps
				t.Errorf("again: %v, want the same error", again)
			}
		})
	}
}

// What follows the finish part (a dropped connection) does not spoil a
// whole answer.
func TestStream_afterTheFinishAReadErrorEndsCleanly(t *testing.T) {
	body := io.MultiReader(strings.NewReader(sse(`{"type":"finish"}`)), iotest.ErrReader(errors.New("reset")))
	s, _ := newStream(false, body)
	parts, err := readAll(t, s)
	if !errors.Is(err, io.EOF) || len(parts) != 1 {
		t.Errorf("%d parts, %v; want the finish, io.EOF", len(parts), err)
	}
}

// The caller's context, a Close, and the body's time bounds (package
// bounded's errors) each name their failure, in that order.
func TestStream_stopsAndBounds(t *testing.T) {
	stall := &bounded.Error{Bound: bounded.Idle, After: time.Minute}
	t.Run("context before a read", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s := New(Config{Body: strings.NewReader(sse(`{"type":"start"}`)), MaxLine: 1024, MaxParts: 10, Context: ctx})
		_, err := s.Next()
		if f := failure(t, err); f.Problem != Stopped || !errors.Is(err, context.Canceled) || f.Detail != "the caller stopped reading" {
			t.Errorf("%v", err)
		}
	})
	t.Run("context during a read", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		body := readerFunc(func([]byte) (int, error) { cancel(); return 0, errors.New("body closed") })
		s := New(Config{Body: body, MaxLine: 1024, MaxParts: 10, Context: ctx})
		_, err := s.Next()
		if f := failure(t, err); f.Problem != Stopped || !errors.Is(err, context.Canceled) {
			t.Errorf("%v", err)
		}
	})
	t.Run("closed", func(t *testing.T) {
		closes := 0
		s := New(Config{Body: counted{iotest.ErrReader(stall), &closes}, MaxLine: 1024, MaxParts: 10})
		s.Close()
		s.Close()
		_, err := s.Next()
		if closes != 1 {
			t.Errorf("closed %d times, want once", closes)
		}
		if f := failure(t, err); f.Problem != Stopped || f.Detail != "the stream was closed" || f.Err != nil {
			t.Errorf("%v", err)
		}
	})
	t.Run("bound", func(t *testing.T) {
		s := New(Config{Body: iotest.ErrReader(stall), MaxLine: 1024, MaxParts: 10})
		_, err := s.Next()
		if got := failure(t, err); got.Problem != Stalled || got.Detail != "no data came for 1m0s (the request timeout); the answer is incomplete" || got.Err != stall { //nolint:errorlint // the body's very error
			t.Errorf("%v", err)
		}
		if _, again := s.Next(); again != err { //nolint:errorlint // the stream's final error
			t.Errorf("a second Next: %v", again)
		}
	})
	t.Run("total", func(t *testing.T) {
		long := fmt.Errorf("read: %w", &bounded.Error{Bound: bounded.Duration, After: time.Hour})
		s := New(Config{Body: iotest.ErrReader(long), MaxLine: 1024, MaxParts: 10})
		_, err := s.Next()
		if f := failure(t, err); f.Problem != TooLong || f.Detail != "the answer was still coming after 1h0m0s (WithMaxStreamDuration); it is incomplete" {
			t.Errorf("%v", err)
		}
	})
	t.Run("a bound of bytes is no time bound", func(t *testing.T) {
		s := New(Config{Body: iotest.ErrReader(&bounded.Error{Bound: bounded.Bytes, Max: 5}), MaxLine: 1024, MaxParts: 10})
		if _, err := s.Next(); failure(t, err).Problem != Cut {
			t.Errorf("%v", err)
		}
	})
	t.Run("not a bound", func(t *testing.T) {
		s := New(Config{Body: iotest.ErrReader(errors.New("reset")), MaxLine: 1024, MaxParts: 10})
		if _, err := s.Next(); failure(t, err).Problem != Cut {
			t.Errorf("%v", err)
		}
	})
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

// End sets the final error after the parts already read.
func TestStream_end(t *testing.T) {
	s, _ := newStream(true, strings.NewReader(`0:"a"`+"\n"+`0:"b"`+"\n"+`d:{}`+"\n"))
	if p, err := s.Next(); err != nil || p.Text != "a" {
		t.Fatalf("%+v, %v", p, err)
	}
	stop := errors.New("too large")
	s.End(stop)
	if _, err := s.Next(); err != stop { //nolint:errorlint // the very error End was given
		t.Errorf("%v, want the ending error", err)
	}
}

// A Stream without Context, Secrets or Close reads all the same.
func TestStream_zeroConfig(t *testing.T) {
	s := New(Config{Body: strings.NewReader(sse(`{"type":"text-delta","id":"t","delta":"`+secret+`"}`, `{"type":"finish"}`)), MaxLine: 1024, MaxParts: 10})
	parts, err := readAll(t, s)
	if !errors.Is(err, io.EOF) || len(parts) != 2 || parts[0].Text != secret {
		t.Errorf("%+v, %v", parts, err)
	}
}

// Ending the context closes the body at once, even with no read under
// way; a stream closed first is not closed again by its context. A body
// that is no io.Closer is left alone.
func TestStream_contextEndClosesTheBody(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	closed := make(chan struct{})
	closes := 0 // written by the context's goroutine: read only after closed
	body := counted{strings.NewReader(sse(`{"type":"start"}`)), &closes}
	New(Config{Body: closerFunc{body, func() { close(closed) }}, MaxLine: 1024, MaxParts: 10, Context: ctx})
	cancel()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the body was not closed when the context ended")
	}
	// Closed before ctx ends: the context no longer closes it.
	ctx2, cancel2 := context.WithCancel(context.Background())
	closes2 := 0
	s := New(Config{Body: counted{strings.NewReader(""), &closes2}, MaxLine: 1024, MaxParts: 10, Context: ctx2})
	s.Close()
	cancel2()
	time.Sleep(10 * time.Millisecond)
	if closes2 != 1 {
		t.Errorf("closed %d times after Close and the context's end", closes2)
	}
	New(Config{Body: strings.NewReader(""), MaxLine: 1024, MaxParts: 10, Context: ctx2}).Close()
}

// closerFunc is a body that also calls done when closed.
type closerFunc struct {
	counted
	done func()
}

func (c closerFunc) Close() error { c.done(); return c.counted.Close() }

// Seq yields each value until io.EOF, an error once with a zero value,
// stops when the caller does, and calls done every time.
func TestSeq(t *testing.T) {
	run := func(vals []int, end error, stopAt int) (got []int, errs []error, dones int) {
		i := 0
		next := func() (int, error) {
			if i < len(vals) {
				i++
				return vals[i-1], nil
			}
			return 99, end
		}
		for v, err := range Seq(next, func() { dones++ }) {
			if err != nil {
				errs = append(errs, err)
				if v != 0 {
					t.Errorf("an error came with %d", v)
				}
				continue
			}
			got = append(got, v)
			if len(got) == stopAt {
				break
			}
		}
		return got, errs, dones
	}
	if got, errs, dones := run([]int{1, 2}, io.EOF, 0); !slices.Equal(got, []int{1, 2}) || errs != nil || dones != 1 {
		t.Errorf("to the end: %v %v %d", got, errs, dones)
	}
	bad := errors.New("bad")
	if got, errs, dones := run([]int{1}, bad, 0); !slices.Equal(got, []int{1}) || len(errs) != 1 || errs[0] != bad || dones != 1 { //nolint:errorlint // next's very error
		t.Errorf("an error: %v %v %d", got, errs, dones)
	}
	if got, errs, dones := run([]int{1, 2, 3}, io.EOF, 2); !slices.Equal(got, []int{1, 2}) || errs != nil || dones != 1 {
		t.Errorf("stopped: %v %v %d", got, errs, dones)
	}
	if got, errs, dones := run(nil, fmt.Errorf("read: %w", io.EOF), 0); got != nil || errs != nil || dones != 1 {
		t.Errorf("a wrapped EOF: %v %v %d", got, errs, dones)
	}
}
