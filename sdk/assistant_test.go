package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
)

const testAssistantKey = "mint_dsc_0123456789abcdef"

// recordedV2 is a v2 answer as the AI SDK v5 UI message stream writes it,
// with every kind of part the SDK reads, a keep-alive, CRLF endings, an
// event split over two data lines, and a part type it does not know.
const recordedV2 = "data: {\"type\":\"start\",\"messageId\":\"msg-a1\"}\n\n" +
	"data: {\"type\":\"start-step\"}\n\n" +
	": keep-alive\n\n" +
	"data: {\"type\":\"tool-input-start\",\"toolCallId\":\"call-1\",\"toolName\":\"search\"}\n\n" +
	"data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"call-1\",\"inputTextDelta\":\"{\\\"query\\\":\"}\n\n" +
	"data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"call-1\",\"inputTextDelta\":\"\\\"install\\\"}\"}\n\n" +
	"data: {\"type\":\"tool-input-available\",\"toolCallId\":\"call-1\",\"toolName\":\"search\",\"input\":{\"query\":\"install\"}}\n\n" +
	"data: {\"type\":\"tool-output-available\",\"toolCallId\":\"call-1\",\"output\":[{\"path\":\"/quickstart\"}]}\n\n" +
	"data: {\"type\":\"reasoning-start\",\"id\":\"r1\"}\r\n\r\n" +
	"data: {\"type\":\"reasoning-delta\",\"id\":\"r1\",\"delta\":\"The quickstart covers it.\"}\r\n\r\n" +
	"data: {\"type\":\"reasoning-end\",\"id\":\"r1\"}\n\n" +
	"data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n" +
	"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Run \"}\n\n" +
	"data: {\"type\":\"text-delta\",\n" +
	"data: \"id\":\"t1\",\"delta\":\"`npm i mint`.\\n\"}\n\n" +
	"data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n" +
	"data: {\"type\":\"source-url\",\"sourceId\":\"s1\",\"url\":\"https://acme.mintlify.site/quickstart\",\"title\":\"Quickstart\"}\n\n" +
	"data: {\"type\":\"source-document\",\"sourceId\":\"s2\",\"mediaType\":\"text/markdown\",\"title\":\"Install\",\"filename\":\"install.mdx\"}\n\n" +
	"data: {\"type\":\"data-suggestions\",\"id\":\"d1\",\"data\":[\"How do I deploy?\"]}\n\n" +
	"data: {\"type\":\"tool-approval-request\",\"approvalId\":\"a1\",\"toolCallId\":\"call-1\"}\n\n" +
	"data: {\"type\":\"sparkles\",\"level\":3}\n\n" +
	"data: {\"type\":\"finish-step\"}\n\n" +
	"data: {\"type\":\"finish\",\"finishReason\":\"stop\",\"threadId\":\"thread-42\"}\n\n" +
	"data: [DONE]\n\n"

func recordedV2Parts() []AssistantPart {
	return []AssistantPart{
		{Type: PartStart, MessageID: "msg-a1"},
		{Type: PartStartStep},
		{Type: PartToolInputStart, Tool: &AssistantTool{CallID: "call-1", Name: "search"}},
		{Type: PartToolInputDelta, Text: `{"query":`, Tool: &AssistantTool{CallID: "call-1"}},
		{Type: PartToolInputDelta, Text: `"install"}`, Tool: &AssistantTool{CallID: "call-1"}},
		{Type: PartToolInput, Tool: &AssistantTool{CallID: "call-1", Name: "search", Input: json.RawMessage(`{"query":"install"}`)}},
		{Type: PartToolOutput, Tool: &AssistantTool{CallID: "call-1", Output: json.RawMessage(`[{"path":"/quickstart"}]`)}},
		{Type: PartReasoningStart, ID: "r1"},
		{Type: PartReasoningDelta, ID: "r1", Text: "The quickstart covers it."},
		{Type: PartReasoningEnd, ID: "r1"},
		{Type: PartTextStart, ID: "t1"},
		{Type: PartTextDelta, ID: "t1", Text: "Run "},
		{Type: PartTextDelta, ID: "t1", Text: "`npm i mint`.\n"},
		{Type: PartTextEnd, ID: "t1"},
		{Type: PartSourceURL, Source: &AssistantSource{ID: "s1", URL: "https://acme.mintlify.site/quickstart", Title: "Quickstart"}},
		{Type: PartSourceDocument, Source: &AssistantSource{ID: "s2", MediaType: "text/markdown", Title: "Install", Filename: "install.mdx"}},
		{Type: "data-suggestions", ID: "d1", Data: json.RawMessage(`["How do I deploy?"]`)},
		{Type: "tool-approval-request", Tool: &AssistantTool{CallID: "call-1"}, Raw: json.RawMessage(`{"type":"tool-approval-request","approvalId":"a1","toolCallId":"call-1"}`)},
		{Type: "sparkles", Raw: json.RawMessage(`{"type":"sparkles","level":3}`)},
		{Type: PartFinishStep},
		{Type: PartFinish, FinishReason: "stop", ThreadID: "thread-42"},
	}
}

// trackedBody is a response body that records being closed.
type trackedBody struct {
	io.Reader
	closed  atomic.Bool
	onClose func()
}

func (b *trackedBody) Read(p []byte) (int, error) {
	if b.closed.Load() {
		return 0, errors.New("read on closed body")
	}
	return b.Reader.Read(p)
}

func (b *trackedBody) Close() error {
	if !b.closed.Swap(true) && b.onClose != nil {
		b.onClose()
	}
	return nil
}

// streamOf reads body as an answer of proto, as Stream would hand it out.
func streamOf(t *testing.T, proto AssistantProtocol, body io.Reader, opts ...Option) (*AssistantStream, *trackedBody) {
	t.Helper()
	k, err := newCore(assistantKey, testAssistantKey, DefaultDiscoveryBaseURL, opts)
	if err != nil {
		t.Fatal(err)
	}
	tb := &trackedBody{Reader: body}
	c := call{method: http.MethodPost, path: "/" + string(proto) + "/assistant/acme/message"}
	return newAssistantStream(context.Background(), k, c, proto, tb, ResponseInfo{Attempts: 1}), tb
}

func readAll(s *AssistantStream) ([]AssistantPart, error) {
	var parts []AssistantPart
	for {
		p, err := s.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return parts, err
		}
		parts = append(parts, p)
	}
}

func TestAssistantStream_v2RecordedStreamReadExactly(t *testing.T) {
	for name, body := range map[string]func() io.Reader{
		"whole":           func() io.Reader { return strings.NewReader(recordedV2) },
		"one byte a read": func() io.Reader { return iotest.OneByteReader(strings.NewReader(recordedV2)) },
		"half reads":      func() io.Reader { return iotest.HalfReader(strings.NewReader(recordedV2)) },
	} {
		t.Run(name, func(t *testing.T) {
			s, tb := streamOf(t, AssistantV2, body())
			parts, err := readAll(s)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(recordedV2Parts(), parts); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
			if !s.Finished() || s.ThreadID() != "thread-42" || !tb.closed.Load() {
				t.Errorf("finished %v, thread %q, closed %v", s.Finished(), s.ThreadID(), tb.closed.Load())
			}
			if _, err := s.Next(); !errors.Is(err, io.EOF) {
				t.Errorf("after the end: %v", err)
			}
		})
	}
}

func TestAssistantStream_collectGathersTheAnswer(t *testing.T) {
	s, _ := streamOf(t, AssistantV2, strings.NewReader(recordedV2))
	a, err := s.Collect()
	if err != nil {
		t.Fatal(err)
	}
	if a.Text != "Run `npm i mint`.\n" || a.Reasoning != "The quickstart covers it." || a.ThreadID != "thread-42" ||
		a.MessageID != "msg-a1" || a.FinishReason != "stop" || a.Attempts != 1 {
		t.Errorf("%+v", a)
	}
	if diff := cmp.Diff([]AssistantSource{{ID: "s1", URL: "https://acme.mintlify.site/quickstart", Title: "Quickstart"},
		{ID: "s2", MediaType: "text/markdown", Title: "Install", Filename: "install.mdx"}}, a.Sources); diff != "" {
		t.Errorf("sources:\n%s", diff)
	}
	var kept []PartType
	for _, p := range a.Parts {
		kept = append(kept, p.Type)
	}
	if diff := cmp.Diff([]PartType{PartToolInputStart, PartToolInput, PartToolOutput, "data-suggestions", "tool-approval-request", "sparkles"}, kept); diff != "" {
		t.Errorf("kept parts:\n%s", diff)
	}
}

func TestAssistantStream_partsIteratorStopsAndCloses(t *testing.T) {
	s, tb := streamOf(t, AssistantV2, strings.NewReader(recordedV2))
	n := 0
	for p, err := range s.Parts() {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if p.Type == PartTextStart {
			break
		}
	}
	if n != 11 || !tb.closed.Load() {
		t.Errorf("%d parts, closed %v", n, tb.closed.Load())
	}
}

func wantStreamError(t *testing.T, err error, problem StreamProblem, contains string) {
	t.Helper()
	var se *StreamError
	if !errors.As(err, &se) || se.Problem != problem || !strings.Contains(err.Error(), contains) {
		t.Fatalf("err = %v, want a %q StreamError saying %q", err, problem, contains)
	}
	if se.Err == nil && strings.Contains(err.Error(), "<nil>") {
		t.Errorf("err = %v: an error of its own it does not have", err)
	}
	if !MayHaveTakenEffect(err) {
		t.Errorf("MayHaveTakenEffect(%v) = false: the message was sent", err)
	}
}

func TestAssistantStream_cutStreamsAreErrorsNeverShortAnswers(t *testing.T) {
	head := "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"t\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"Half an answer\"}\n\n"
	for name, tt := range map[string]struct {
		body    string
		problem StreamProblem
		say     string
	}{
		"ends between parts":  {head, StreamCut, "after 3 parts, the stream ended before its finish part"},
		"ends mid-line":       {head + `data: {"type":"text-delta","id":"t","del`, StreamCut, "in the middle of a part"},
		"ends before a blank": {head + `data: {"type":"text-end","id":"t"}`, StreamCut, "after 4 parts, the stream ended before its finish part"},
		"[DONE] too soon":     {head + "data: [DONE]\n\n", StreamCut, "with [DONE]"},
		"a part not JSON":     {head + "data: {\"type\":\"text-delta\",oops}\n\n", StreamMalformed, "not the stream's JSON"},
		"not a stream at all": {"<html><body>Bad gateway</body></html>", StreamCut, `body starts "Bad gateway"`},
	} {
		t.Run(name, func(t *testing.T) {
			s, tb := streamOf(t, AssistantV2, strings.NewReader(tt.body))
			a, err := s.Collect()
			wantStreamError(t, err, tt.problem, tt.say)
			if tt.problem == StreamCut && strings.HasPrefix(tt.body, "data") && a.Text != "Half an answer" {
				t.Errorf("partial text %q", a.Text)
			}
			if !tb.closed.Load() {
				t.Error("body not closed")
			}
			if _, again := s.Next(); !errors.Is(again, err) && again.Error() != err.Error() {
				t.Errorf("error not final: %v", again)
			}
		})
	}
}

// A read that fails says why, after what it says of the stream.
func TestAssistantStream_aFailedReadSaysWhy(t *testing.T) {
	reset := errors.New("connection reset by peer")
	body := io.MultiReader(strings.NewReader("data: {\"type\":\"start\"}\n\n"), iotest.ErrReader(reset))
	s, _ := streamOf(t, AssistantV2, body)
	_, err := s.Collect()
	wantStreamError(t, err, StreamCut, "after 1 part, reading the stream failed before its finish part; the answer is incomplete: connection reset by peer")
	if !errors.Is(err, reset) {
		t.Errorf("%v does not wrap the read's error", err)
	}
}

func TestAssistantStream_endsCleanlyAfterFinish(t *testing.T) {
	finish := "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\",\"threadId\":\"th\"}"
	for name, body := range map[string]io.Reader{
		"no blank line, no [DONE]":     strings.NewReader(finish),
		"connection drops after it":    io.MultiReader(strings.NewReader(finish+"\n\n"), iotest.ErrReader(errors.New("connection reset"))),
		"thread id in the metadata":    strings.NewReader("data: {\"type\":\"finish\",\"messageMetadata\":{\"threadId\":\"th\"}}\n\n"),
		"a data part after the finish": strings.NewReader(finish + "\n\ndata: {\"type\":\"data-x\",\"data\":1}\n\n"),
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := streamOf(t, AssistantV2, body)
			if _, err := readAll(s); err != nil || s.ThreadID() != "th" {
				t.Errorf("err %v, thread %q", err, s.ThreadID())
			}
		})
	}
}

// blockingBody sends its text, then blocks until closed.
type blockingBody struct {
	r      io.Reader
	closed chan struct{}
	once   atomic.Bool
}

func newBlockingBody(text string) *blockingBody {
	return &blockingBody{r: strings.NewReader(text), closed: make(chan struct{})}
}

func (b *blockingBody) Read(p []byte) (int, error) {
	if n, err := b.r.Read(p); n > 0 || !errors.Is(err, io.EOF) {
		return n, err
	}
	<-b.closed
	return 0, errors.New("read on closed body")
}

func (b *blockingBody) Close() error {
	if !b.once.Swap(true) {
		close(b.closed)
	}
	return nil
}

func TestAssistantStream_cancelClosesTheBodyAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	body := newBlockingBody("data: {\"type\":\"start\"}\n\n")
	k, _ := newCore(assistantKey, testAssistantKey, DefaultDiscoveryBaseURL, []Option{WithRequestTimeout(0)})
	s := newAssistantStream(ctx, k, call{method: "POST", path: "/v2/assistant/a/message"}, AssistantV2, body, ResponseInfo{})
	if p, err := s.Next(); err != nil || p.Type != PartStart {
		t.Fatalf("%v %v", p, err)
	}
	done := make(chan error)
	go func() { _, err := s.Next(); done <- err }()
	cancel()
	select {
	case err := <-done:
		wantStreamError(t, err, StreamStopped, "stopped reading")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v does not wrap context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next still blocked after cancel")
	}
	if !body.once.Load() {
		t.Error("body not closed")
	}
}

func TestAssistantStream_closeFromAnotherGoroutineStopsIt(t *testing.T) {
	body := newBlockingBody("data: {\"type\":\"start\"}\n\n")
	k, _ := newCore(assistantKey, testAssistantKey, DefaultDiscoveryBaseURL, []Option{WithRequestTimeout(0)})
	s := newAssistantStream(context.Background(), k, call{method: "POST", path: "/v2/assistant/a/message"}, AssistantV2, body, ResponseInfo{})
	if _, err := s.Next(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { _, err := s.Next(); done <- err }()
	_ = s.Close()
	select {
	case err := <-done:
		wantStreamError(t, err, StreamStopped, "after 1 part, the stream was closed")
	case <-time.After(5 * time.Second):
		t.Fatal("Next still blocked after Close")
	}
}

// With no request timeout, a stream may pause as long as it likes.
func TestAssistantStream_noRequestTimeoutWaitsOutAPause(t *testing.T) {
	resume, closed := make(chan struct{}), make(chan struct{})
	body := &trackedBody{Reader: io.MultiReader(strings.NewReader("data: {\"type\":\"start\"}\n\n"),
		readerFunc(func([]byte) (int, error) {
			select {
			case <-resume:
				return 0, io.EOF // on to the rest
			case <-closed:
				return 0, errors.New("read on closed body")
			}
		}),
		strings.NewReader("data: {\"type\":\"finish\"}\n\n")), onClose: func() { close(closed) }}
	k, _ := newCore(assistantKey, testAssistantKey, DefaultDiscoveryBaseURL, []Option{WithRequestTimeout(0)})
	s := newAssistantStream(context.Background(), k, call{method: "POST", path: "/v2/assistant/a/message"}, AssistantV2, body, ResponseInfo{})
	if p, err := s.Next(); err != nil || p.Type != PartStart {
		t.Fatalf("%v %v", p, err)
	}
	go func() {
		time.Sleep(20 * time.Millisecond) // a pause, longer than no time at all
		close(resume)
	}()
	if p, err := s.Next(); err != nil || p.Type != PartFinish {
		t.Fatalf("after the pause: %v %v", p, err)
	}
}

// readerFunc is a Read method.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

func TestAssistantStream_stalledStreamFailsAfterTheRequestTimeout(t *testing.T) {
	body := newBlockingBody("data: {\"type\":\"start\"}\n\n: ping\n\n")
	k, _ := newCore(assistantKey, testAssistantKey, DefaultDiscoveryBaseURL, []Option{WithRequestTimeout(30 * time.Millisecond)})
	s := newAssistantStream(context.Background(), k, call{method: "POST", path: "/v2/assistant/a/message"}, AssistantV2, body, ResponseInfo{})
	_, err := readAll(s)
	wantStreamError(t, err, StreamStalled, "no data came for 30ms")
	_ = wantLimit(t, err, LimitIdle) // a stall is a bound of time
}

func TestAssistantStream_memoryIsBounded(t *testing.T) {
	t.Run("a line past the cap", func(t *testing.T) {
		long := `data: {"type":"text-delta","id":"t","delta":"` + strings.Repeat("x", 4096) + "\"}\n\n"
		s, _ := streamOf(t, AssistantV2, strings.NewReader(long), WithMaxResponseBytes(2048))
		_, err := readAll(s)
		wantStreamError(t, err, StreamMalformed, "a line is longer than 2048 bytes")
	})
	t.Run("Collect past the cap", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("data: {\"type\":\"text-start\",\"id\":\"t\"}\n\n")
		for range 10 {
			fmt.Fprintf(&b, "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":%q}\n\n", strings.Repeat("y", 300))
		}
		b.WriteString("data: {\"type\":\"finish\"}\n\n")
		s, _ := streamOf(t, AssistantV2, strings.NewReader(b.String()), WithMaxResponseBytes(2048))
		a, err := s.Collect()
		wantStreamError(t, err, StreamTooLarge, "grew past 2048 bytes")
		if !errors.Is(err, ErrResponseTooLarge) || len(a.Text) != 1800 {
			t.Errorf("%v, %d bytes kept", err, len(a.Text))
		}
		// The same answer read part by part is not capped.
		s, _ = streamOf(t, AssistantV2, strings.NewReader(b.String()), WithMaxResponseBytes(2048))
		if parts, err := readAll(s); err != nil || len(parts) != 12 {
			t.Errorf("%d parts, %v", len(parts), err)
		}
	})
	t.Run("a line at the cap", func(t *testing.T) {
		head := `data: {"type":"text-delta","id":"t","delta":"`
		line := head + strings.Repeat("x", 2048-len(head)-2) + `"}`
		s, _ := streamOf(t, AssistantV2, strings.NewReader(line+"\r\n\r\ndata: {\"type\":\"finish\"}\n\n"), WithMaxResponseBytes(2048))
		if parts, err := readAll(s); err != nil || len(parts) != 2 || len(parts[0].Text) != 2048-len(head)-2 {
			t.Errorf("%d parts, %v", len(parts), err)
		}
	})
	t.Run("a line longer than the read buffer", func(t *testing.T) {
		text := strings.Repeat("0123456789abcdef", 10<<10) // 160 KiB: the buffer holds 64
		s, _ := streamOf(t, AssistantV2, strings.NewReader("data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\""+text+"\"}\n\ndata: {\"type\":\"finish\"}\n\n"))
		if a, err := s.Collect(); err != nil || a.Text != text {
			t.Errorf("%d bytes of %d: %v", len(a.Text), len(text), err)
		}
	})
	t.Run("Collect up to the cap", func(t *testing.T) {
		var b strings.Builder
		for range 8 {
			fmt.Fprintf(&b, "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":%q}\n\n", strings.Repeat("y", 256))
		}
		b.WriteString("data: {\"type\":\"finish\"}\n\n")
		s, _ := streamOf(t, AssistantV2, strings.NewReader(b.String()), WithMaxResponseBytes(2048))
		if a, err := s.Collect(); err != nil || len(a.Text) != 2048 {
			t.Errorf("%d bytes: %v", len(a.Text), err)
		}
	})
	// Collect keeps every kind of part, so each counts toward the cap.
	for kind, part := range map[string]string{
		"data":        `{"type":"data-notes","id":"d","data":%q}`,
		"unknown":     `{"type":"sparkles","glitter":%q}`,
		"error":       `{"type":"error","errorText":%q}`,
		"tool input":  `{"type":"tool-input-available","toolCallId":"c","toolName":"search","input":{"q":%q}}`,
		"tool output": `{"type":"tool-output-available","toolCallId":"c","output":[%q]}`,
	} {
		t.Run("Collect past the cap in "+kind+" parts", func(t *testing.T) {
			var b strings.Builder
			for range 10 {
				fmt.Fprintf(&b, "data: "+part+"\n\n", strings.Repeat("z", 300))
			}
			b.WriteString("data: {\"type\":\"finish\"}\n\n")
			s, _ := streamOf(t, AssistantV2, strings.NewReader(b.String()), WithMaxResponseBytes(2048))
			_, err := s.Collect()
			wantStreamError(t, err, StreamTooLarge, "grew past 2048 bytes")
		})
	}
}

func TestAssistantStream_errorPartsFailCollect(t *testing.T) {
	body := "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"Partly\"}\n\ndata: {\"type\":\"error\",\"errorText\":\"model overloaded\"}\n\n"
	s, _ := streamOf(t, AssistantV2, strings.NewReader(body))
	a, err := s.Collect()
	wantStreamError(t, err, StreamCut, "the stream reported: model overloaded")
	if a.Text != "Partly" || len(a.Errors) != 1 {
		t.Errorf("%+v", a)
	}
	s, _ = streamOf(t, AssistantV2, strings.NewReader(body+"data: {\"type\":\"finish\",\"finishReason\":\"error\"}\n\n"))
	_, err = s.Collect()
	wantStreamError(t, err, StreamReportedError, "carried an error part; the stream reported: model overloaded")
}

func TestAssistantStream_fieldsOfTheWrongKindAreProblemsNotFailures(t *testing.T) {
	body := "data: {\"type\":\"text-delta\",\"id\":7,\"delta\":\"ok\"}\n\ndata: {\"type\":\"finish\",\"threadId\":false}\n\n"
	s, _ := streamOf(t, AssistantV2, strings.NewReader(body))
	a, err := s.Collect()
	if err != nil || a.Text != "ok" {
		t.Fatalf("%v %+v", err, a)
	}
	want := []string{"text-delta: id: want a string or null, got a number", "finish: threadId: want a string or null, got true or false"}
	if diff := cmp.Diff(want, a.Problems); diff != "" {
		t.Error(diff)
	}
}

// recordedV1 is a v1 answer in the AI SDK v4 data stream protocol.
const recordedV1 = "f:{\"messageId\":\"msg-b2\"}\n" +
	"9:{\"toolCallId\":\"c1\",\"toolName\":\"search\",\"args\":{\"query\":\"install\"}}\n" +
	"a:{\"toolCallId\":\"c1\",\"result\":[\"/quickstart\"]}\n" +
	"g:\"Thinking.\"\n" +
	"0:\"Run \"\n" +
	"0:\"`npm i mint`.\"\r\n" +
	"h:{\"sourceType\":\"url\",\"id\":\"s1\",\"url\":\"https://acme.mintlify.site/quickstart\",\"title\":\"Quickstart\"}\n" +
	"2:[{\"suggestion\":\"Deploy\"}]\n" +
	"8:[{\"note\":1}]\n" +
	"x:{\"future\":true}\n" +
	"e:{\"finishReason\":\"stop\",\"isContinued\":false}\n" +
	"d:{\"finishReason\":\"stop\",\"usage\":{\"promptTokens\":9,\"completionTokens\":4},\"threadId\":\"thread-7\"}\n"

func TestAssistantStream_v1RecordedStreamReadAsV2Parts(t *testing.T) {
	for name, body := range map[string]func() io.Reader{
		"whole":           func() io.Reader { return strings.NewReader(recordedV1) },
		"one byte a read": func() io.Reader { return iotest.OneByteReader(strings.NewReader(recordedV1)) },
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := streamOf(t, AssistantV1, body())
			parts, err := readAll(s)
			if err != nil {
				t.Fatal(err)
			}
			want := []AssistantPart{
				{Type: PartStartStep, MessageID: "msg-b2"},
				{Type: PartToolInput, Tool: &AssistantTool{CallID: "c1", Name: "search", Input: json.RawMessage(`{"query":"install"}`)}},
				{Type: PartToolOutput, Tool: &AssistantTool{CallID: "c1", Output: json.RawMessage(`["/quickstart"]`)}},
				{Type: PartReasoningDelta, Text: "Thinking."},
				{Type: PartTextDelta, Text: "Run "},
				{Type: PartTextDelta, Text: "`npm i mint`."},
				{Type: PartSourceURL, Source: &AssistantSource{ID: "s1", URL: "https://acme.mintlify.site/quickstart", Title: "Quickstart"}},
				{Type: PartData, Data: json.RawMessage(`[{"suggestion":"Deploy"}]`)},
				{Type: PartMessageAnnotations, Data: json.RawMessage(`[{"note":1}]`)},
				{Type: "v1:x", Raw: json.RawMessage(`{"future":true}`)},
				{Type: PartFinishStep, FinishReason: "stop", Data: json.RawMessage(`{"finishReason":"stop","isContinued":false}`)},
				{Type: PartFinish, FinishReason: "stop", ThreadID: "thread-7", Data: json.RawMessage(`{"finishReason":"stop","usage":{"promptTokens":9,"completionTokens":4},"threadId":"thread-7"}`)},
			}
			if diff := cmp.Diff(want, parts); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("cut", func(t *testing.T) {
		s, _ := streamOf(t, AssistantV1, strings.NewReader("0:\"Half\"\n0:\"an ans"))
		a, err := s.Collect()
		wantStreamError(t, err, StreamCut, "in the middle of a part")
		if a.Text != "Half" {
			t.Errorf("%q", a.Text)
		}
	})
	t.Run("thread id from a data part", func(t *testing.T) {
		s, _ := streamOf(t, AssistantV1, strings.NewReader("2:[{\"threadId\":\"th-9\"}]\n0:\"x\"\nd:{\"finishReason\":\"stop\"}\n"))
		if a, err := s.Collect(); err != nil || a.ThreadID != "th-9" {
			t.Errorf("%v %+v", err, a)
		}
	})
	t.Run("a line without a code", func(t *testing.T) {
		s, _ := streamOf(t, AssistantV1, strings.NewReader("hello\n"))
		_, err := s.Collect()
		wantStreamError(t, err, StreamMalformed, "no code")
	})
}

// Fields the SDK does not read (event, id, retry, any other name) count
// as parts too, like keep-alives: a stream of nothing but them, with or
// without blank lines, ends at the cap instead of reading until
// WithMaxStreamDuration.
func TestAssistantStream_unreadFieldsCountAsParts(t *testing.T) {
	for name, flood := range map[string]string{
		"events of fields": "event: ping\nid: 7\n\n",
		"endless fields":   "retry: 10\n",
		"fields of no use": "x-glitter\n",
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := streamOf(t, AssistantV2, strings.NewReader(strings.Repeat(flood, 50)+"data: {\"type\":\"finish\"}\n\n"), WithMaxStreamParts(40))
			_, err := readAll(s)
			wantStreamError(t, err, StreamTooLarge, "more than 40 parts")
		})
	}
	// A part with fields is two parts or more, and a whole answer at the
	// cap is whole.
	s, _ := streamOf(t, AssistantV2, strings.NewReader("event: message\nid: 1\ndata: {\"type\":\"finish\"}\n\n"), WithMaxStreamParts(3))
	if parts, err := readAll(s); err != nil || len(parts) != 1 {
		t.Errorf("%d parts: %v", len(parts), err)
	}
}
