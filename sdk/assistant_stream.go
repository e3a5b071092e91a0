package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/assistantstream"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
)

// The stream of an answer: package assistantstream reads and decodes it
// (framed by package eventstream); AssistantStream wires it to the
// client's bounds and secrets, and turns its parts and failures into the
// public AssistantPart and StreamError, here and nowhere else.

// StreamProblem is why reading a streamed answer failed.
type StreamProblem string

// The ways a streamed answer can fail after its headers arrived.
const (
	// StreamCut: the stream ended before its finish part. The answer is
	// incomplete; the message was sent and cost credits.
	StreamCut StreamProblem = "cut"
	// StreamMalformed: a part is not the protocol's JSON, or a line (or an
	// event's data) is longer than the SDK reads.
	StreamMalformed StreamProblem = "malformed"
	// StreamStalled: no byte came for the client's request timeout.
	StreamStalled StreamProblem = "stalled"
	// StreamTooLong: the answer was still coming after the client's
	// WithMaxStreamDuration (a trickle that never stalls).
	StreamTooLong StreamProblem = "too long"
	// StreamStopped: the caller's context ended, or the stream was closed.
	StreamStopped StreamProblem = "stopped"
	// StreamReportedError: the stream carried error parts (Collect).
	StreamReportedError StreamProblem = "error part"
	// StreamTooLarge: the stream carried more parts than the client's cap
	// (WithMaxStreamParts), or Collect gathered more than its cap of bytes
	// (WithMaxResponseBytes).
	StreamTooLarge StreamProblem = "too large"
)

// StreamError is a streamed answer that could not be read whole. The
// message reached the server (MayHaveTakenEffect is true): asking again
// costs credits again.
type StreamError struct {
	Method string
	Path   string
	// Problem says what went wrong; Detail says it in words.
	Problem StreamProblem
	Detail  string
	// Parts is how many parts were read before it.
	Parts int
	// ServerError is the text of the stream's last error part, if any.
	ServerError string
	// BodyStart is the start of a body that was not a stream at all, with
	// secrets redacted.
	BodyStart string
	Err       error
}

func (e *StreamError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "streamed answer to %s %s: after %s, %s", e.Method, e.Path, plural(e.Parts, "1 part", "%d parts"), e.Detail)
	if e.ServerError != "" {
		fmt.Fprintf(&b, "; the stream reported: %s", DisplayLine(e.ServerError))
	}
	if e.BodyStart != "" {
		fmt.Fprintf(&b, " (body starts %q)", e.BodyStart)
	}
	var limit *LimitError
	if e.Err != nil && !errors.As(e.Err, &limit) { // a bound broken: Detail says which
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

func (e *StreamError) Unwrap() error { return e.Err }

// maxStreamLine caps one line of a stream, and one event's data (its
// lines joined): a part bigger than this (a tool's output, say) is
// refused rather than held whole in memory.
const maxStreamLine = 4 << 20

// AssistantStream is an answer as it arrives. It is not safe for
// concurrent use; Close may be called from any goroutine.
type AssistantStream struct {
	// Protocol is the stream's format.
	Protocol AssistantProtocol
	ResponseInfo

	k  *core
	c  call
	st *assistantstream.Stream // its parts, counted against WithMaxStreamParts
}

func newAssistantStream(ctx context.Context, k *core, c call, proto AssistantProtocol, body io.ReadCloser, info ResponseInfo) *AssistantStream {
	s := &AssistantStream{Protocol: proto, ResponseInfo: info, k: k, c: c}
	// The body within its time bounds: the stream names a broken one
	// itself, and streamError makes its *bounded.Error the LimitError.
	bounds := bounded.Bounds{Idle: k.requestTimeout, Total: k.maxStreamDuration}
	s.st = assistantstream.New(assistantstream.Config{
		V1:   proto == AssistantV1,
		Body: bounded.NewReader(body, bounds), MaxLine: int(min(int64(maxStreamLine), k.maxResponseBytes)), MaxParts: k.maxStreamParts,
		Context: ctx, Secrets: k.secretList, Redact: k.redact, Convert: s.streamError,
	})
	return s
}

// streamError is the one place a stream's failure becomes the public
// StreamError (and a broken cap its LimitError).
func (s *AssistantStream) streamError(f *assistantstream.Failure) error {
	se := &StreamError{Method: s.c.method, Path: s.c.path, Problem: StreamProblem(f.Problem), Detail: f.Detail,
		Parts: f.Parts, ServerError: f.ServerError, Err: f.Err}
	if f.BodyStart != nil {
		se.BodyStart = s.k.snippet(f.BodyStart)
	}
	switch f.Limit {
	case assistantstream.LineLimit:
		se.Err = &LimitError{Limit: LimitLine, Max: f.Max}
	case assistantstream.PartsLimit:
		se.Err = &LimitError{Limit: LimitParts, Max: f.Max, Option: "WithMaxStreamParts"}
	case assistantstream.BytesLimit:
		se.Err = &LimitError{Limit: LimitBytes, Max: f.Max, Option: "WithMaxResponseBytes"}
	}
	if b, ok := f.Err.(*bounded.Error); ok { //nolint:errorlint // the stream keeps the body's error unwrapped
		se.Err = limitError(b, "WithMaxStreamDuration")
	}
	return se
}

// assistantPart is the one place a stream's part becomes the public
// AssistantPart.
func assistantPart(p assistantstream.Part) AssistantPart {
	out := AssistantPart{Type: PartType(p.Type), ID: p.ID, Text: p.Text, MessageID: p.MessageID, Data: p.Data,
		FinishReason: p.FinishReason, ThreadID: p.ThreadID, ErrorText: p.ErrorText, Raw: p.Raw, Problems: p.Problems}
	if p.Source != nil {
		source := AssistantSource(*p.Source) // the same fields: a field added on one side only does not build
		out.Source = &source
	}
	if p.Tool != nil {
		tool := AssistantTool(*p.Tool)
		out.Tool = &tool
	}
	return out
}

// answer is the answer g gathered, as Collect hands it out.
func (s *AssistantStream) answer(g *assistantstream.Answer) *AssistantAnswer {
	a := &AssistantAnswer{Text: g.Text.String(), Reasoning: g.Reasoning.String(), ThreadID: s.st.ThreadID(), MessageID: s.st.MessageID(),
		FinishReason: g.FinishReason, Errors: g.Errors, Problems: g.Problems, ResponseInfo: s.ResponseInfo}
	for _, src := range g.Sources {
		a.Sources = append(a.Sources, AssistantSource(src))
	}
	for _, p := range g.Parts {
		a.Parts = append(a.Parts, assistantPart(p))
	}
	return a
}

// ThreadID is the conversation's id, once the finish part has been read
// ("" before, or when the API sent none).
func (s *AssistantStream) ThreadID() string { return s.st.ThreadID() }

// Finished reports whether the finish part has been read: the answer is
// whole.
func (s *AssistantStream) Finished() bool { return s.st.Finished() }

// Close ends the stream, releasing its connection. It is safe to call
// more than once, and from another goroutine.
func (s *AssistantStream) Close() error {
	s.st.Close()
	return nil
}

// Next returns the answer's next part. After the finish part and the end
// of the stream it returns io.EOF. A stream that ends before its finish
// part, stalls, or carries a part that is not JSON returns a
// *StreamError; so does ctx ending (wrapping ctx.Err()). Any error is
// final: Next returns it again.
//
// A part's text holds none of the client's keys, even one the server
// split across the deltas of its block. One split across two blocks is
// whole in no part, and only Collect, which joins the blocks, redacts it:
// a caller that joins the text of several blocks itself may join a key.
func (s *AssistantStream) Next() (AssistantPart, error) {
	p, err := s.st.Next()
	if err != nil {
		return AssistantPart{}, err
	}
	return assistantPart(p), nil
}

// Parts iterates over the answer's parts, then closes the stream. An
// error ends the iteration: it is yielded with a zero part.
func (s *AssistantStream) Parts() iter.Seq2[AssistantPart, error] {
	return assistantstream.Seq(s.Next, func() { _ = s.Close() })
}

// Collect reads the whole answer and closes the stream. What it gathers
// is capped by the client's WithMaxResponseBytes (16 MiB by default), and
// the parts it reads by WithMaxStreamParts (every part counts, empty
// ones too). When reading fails, or the stream carried error parts, it
// returns what it gathered with a *StreamError.
func (s *AssistantStream) Collect() (*AssistantAnswer, error) {
	defer s.Close()
	g, err := s.st.Collect(s.k.maxResponseBytes)
	return s.answer(g), err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(many, n)
}
