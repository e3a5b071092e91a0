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

// StreamProblem is why reading a streamed answer failed.
type StreamProblem = assistantstream.Problem

// The ways a streamed answer can fail after its headers arrived.
const (
	// StreamCut: the stream ended before its finish part. The answer is
	// incomplete; the message was sent and cost credits.
	StreamCut = assistantstream.Cut
	// StreamMalformed: a part is not the protocol's JSON, or a line (or an
	// event's data) is longer than the SDK reads.
	StreamMalformed = assistantstream.Malformed
	// StreamStalled: no byte came for the client's request timeout.
	StreamStalled = assistantstream.Stalled
	// StreamTooLong: the answer was still coming after the client's
	// WithMaxStreamDuration (a trickle that never stalls).
	StreamTooLong = assistantstream.TooLong
	// StreamStopped: the caller's context ended, or the stream was closed.
	StreamStopped = assistantstream.Stopped
	// StreamReportedError: the stream carried error parts (Collect).
	StreamReportedError = assistantstream.ReportedError
	// StreamTooLarge: the stream carried more parts than the client's cap
	// (WithMaxStreamParts), or Collect gathered more than its cap of bytes
	// (WithMaxResponseBytes).
	StreamTooLarge = assistantstream.TooLarge
)

// StreamError is a streamed answer that could not be read whole. The
// message reached the server (MayHaveTakenEffect is true): asking again
// costs credits again.
type StreamError struct {
	Method  string
	Path    string
	Problem StreamProblem
	Detail  string // the problem in words
	Parts   int    // read before it
	// ServerError is the text of the stream's last error part, if any.
	ServerError string
	// BodyStart is the start of a body that was not a stream, redacted.
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

// maxStreamLine caps a stream's line, and an event's data.
const maxStreamLine = 4 << 20

// AssistantStream is an answer as it arrives. It is not safe for
// concurrent use; Close may be called from any goroutine.
type AssistantStream struct {
	Protocol AssistantProtocol
	ResponseInfo

	k  *core
	c  call
	st *assistantstream.Stream // its parts, counted against WithMaxStreamParts
}

func newAssistantStream(ctx context.Context, k *core, c call, proto AssistantProtocol, body io.ReadCloser, info ResponseInfo) *AssistantStream {
	s := &AssistantStream{Protocol: proto, ResponseInfo: info, k: k, c: c}
	bounds := bounded.Bounds{Idle: k.requestTimeout, Total: k.maxStreamDuration}
	s.st = assistantstream.New(assistantstream.Config{
		V1:   proto == AssistantV1,
		Body: bounded.NewReader(body, bounds), MaxLine: int(min(int64(maxStreamLine), k.maxResponseBytes)), MaxParts: k.maxStreamParts,
		Context: ctx, Secrets: k.secrets,
	})
	return s
}

// streamError makes a stream's failure a StreamError (a broken cap its
// LimitError); other errors (io.EOF, none) are kept.
func (s *AssistantStream) streamError(err error) error {
	f, ok := err.(*assistantstream.Failure) //nolint:errorlint // the stream's failures are its own, unwrapped
	if !ok {
		return err
	}
	se := &StreamError{Method: s.c.method, Path: s.c.path, Problem: f.Problem, Detail: f.Detail,
		Parts: f.Parts, ServerError: f.ServerError, Err: f.Err}
	if f.BodyStart != nil {
		se.BodyStart = s.k.secrets.Snippet(f.BodyStart)
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

// ThreadID is the conversation's id, once the finish part was read.
func (s *AssistantStream) ThreadID() string { return s.st.ThreadID() }

// Finished reports whether the finish part was read: the answer is whole.
func (s *AssistantStream) Finished() bool { return s.st.Finished() }

// Close ends the stream, releasing its connection; safe to call again and
// from another goroutine.
func (s *AssistantStream) Close() error {
	s.st.Close()
	return nil
}

// Next returns the answer's next part; io.EOF after the finish part and
// the stream's end. A stream cut, stalled or malformed, or ctx ending, is
// a *StreamError. Any error is final. A part's text holds none of the
// client's keys, even one split across its block's deltas; one split
// across two blocks is whole in no part, and only Collect, which joins
// the blocks, redacts it.
func (s *AssistantStream) Next() (AssistantPart, error) {
	p, err := s.st.Next()
	return p, s.streamError(err)
}

// Parts iterates over the answer's parts, then closes the stream; an
// error is yielded with a zero part.
func (s *AssistantStream) Parts() iter.Seq2[AssistantPart, error] {
	return assistantstream.Seq(s.Next, func() { _ = s.Close() })
}

// Collect reads the whole answer (at most WithMaxResponseBytes) and
// closes the stream. When reading fails, or the stream carried error
// parts, it returns what it gathered with a *StreamError.
func (s *AssistantStream) Collect() (*AssistantAnswer, error) {
	defer s.Close()
	g, err := s.st.Collect(s.k.maxResponseBytes)
	return &AssistantAnswer{Text: g.Text.String(), Reasoning: g.Reasoning.String(), Sources: g.Sources, Parts: g.Parts, ThreadID: s.st.ThreadID(),
		MessageID: s.st.MessageID(), FinishReason: g.FinishReason, Errors: g.Errors, Problems: g.Problems, ResponseInfo: s.ResponseInfo}, s.streamError(err)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(many, n)
}
