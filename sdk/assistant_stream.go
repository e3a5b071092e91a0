package sdk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/eventstream"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"
)

// The stream of an answer: AssistantStream reads the events that package
// eventstream frames, decodes them (assistant_protocols.go) and hands
// out parts, and turns every way the body can fail into a StreamError.

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

	k       *core
	c       call
	ctx     context.Context
	body    io.ReadCloser
	bounded *boundedBody        // the body within its time bounds
	events  *eventstream.Reader // the body's events (v1: lines), counted against WithMaxStreamParts
	stop    func() bool

	queue     []AssistantPart
	held      []heldText
	finished  bool // the finish part came
	ended     bool // nothing more to read
	err       error
	parts     int
	threadID  string
	messageID string
	serverErr string
	closeOnce sync.Once
	closed    atomic.Bool // Close was called: a read error after it is no cut
}

func newAssistantStream(ctx context.Context, k *core, c call, proto AssistantProtocol, body io.ReadCloser, info ResponseInfo) *AssistantStream {
	s := &AssistantStream{Protocol: proto, ResponseInfo: info, k: k, c: c, ctx: ctx, body: body}
	s.bounded = newBoundedBody(body, bodyBounds{idle: k.requestTimeout, total: k.maxStreamDuration, totalOption: "WithMaxStreamDuration"})
	limit := min(int64(maxStreamLine), k.maxResponseBytes)
	s.events = eventstream.NewReader(s.bounded, int(limit), k.maxStreamParts)
	// Ending ctx closes the body at once, even under a transport that
	// does not watch the request's context.
	s.stop = context.AfterFunc(ctx, func() { _ = body.Close() })
	return s
}

// ThreadID is the conversation's id, once the finish part has been read
// ("" before, or when the API sent none).
func (s *AssistantStream) ThreadID() string { return s.threadID }

// Finished reports whether the finish part has been read: the answer is
// whole.
func (s *AssistantStream) Finished() bool { return s.finished }

// Close ends the stream, releasing its connection. It is safe to call
// more than once, and from another goroutine.
func (s *AssistantStream) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.stop()
		s.bounded.stop()
		_ = s.body.Close()
	})
	return nil
}

// Next returns the answer's next part. After the finish part and the end
// of the stream it returns io.EOF. A stream that ends before its finish
// part, stalls, or carries a part that is not JSON returns a
// *StreamError; so does ctx ending (wrapping ctx.Err()). Any error is
// final: Next returns it again.
func (s *AssistantStream) Next() (AssistantPart, error) {
	for {
		if len(s.queue) > 0 {
			p := s.queue[0]
			s.queue = s.queue[1:]
			s.parts++
			return p, nil
		}
		if s.err != nil {
			return AssistantPart{}, s.err
		}
		if s.ended {
			return AssistantPart{}, io.EOF
		}
		if err := s.ctx.Err(); err != nil {
			s.fail(StreamStopped, "the caller stopped reading", err)
			continue
		}
		s.read()
	}
}

// Parts iterates over the answer's parts, then closes the stream. An
// error ends the iteration: it is yielded with a zero part.
func (s *AssistantStream) Parts() iter.Seq2[AssistantPart, error] {
	return func(yield func(AssistantPart, error) bool) {
		defer s.Close()
		for {
			p, err := s.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(AssistantPart{}, err)
				return
			}
			if !yield(p, nil) {
				return
			}
		}
	}
}

// Collect reads the whole answer and closes the stream. What it gathers
// is capped by the client's WithMaxResponseBytes (16 MiB by default), and
// the parts it reads by WithMaxStreamParts (every part counts, empty
// ones too). When reading fails, or the stream carried error parts, it
// returns what it gathered with a *StreamError.
func (s *AssistantStream) Collect() (*AssistantAnswer, error) {
	defer s.Close()
	a := &AssistantAnswer{ResponseInfo: s.ResponseInfo}
	var text, reasoning pieces
	var size int64
	for {
		p, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			a.finish(s, &text, &reasoning)
			return a, err
		}
		size += int64(len(p.Text) + len(p.Data) + len(p.Raw) + len(p.ErrorText))
		if p.Tool != nil {
			size += int64(len(p.Tool.Input) + len(p.Tool.Output))
		}
		if size > s.k.maxResponseBytes {
			a.finish(s, &text, &reasoning)
			err := &StreamError{Method: s.c.method, Path: s.c.path, Problem: StreamTooLarge, Parts: s.parts,
				Detail: fmt.Sprintf("the answer grew past %d bytes (WithMaxResponseBytes); read it with Next or Parts instead", s.k.maxResponseBytes),
				Err:    &LimitError{Limit: LimitBytes, Max: s.k.maxResponseBytes, Option: "WithMaxResponseBytes"}}
			s.err = err
			return a, err
		}
		for _, pr := range p.Problems {
			(*wire.Problems)(&a.Problems).Add(string(p.Type), "%s", pr) // at most wire.MaxProblems
		}
		switch p.Type {
		case PartTextDelta:
			text.add(p.Text)
		case PartReasoningDelta:
			reasoning.add(p.Text)
		case PartSourceURL, PartSourceDocument:
			a.Sources = append(a.Sources, *p.Source)
		case PartError:
			a.Errors = append(a.Errors, p.ErrorText)
			a.Parts = append(a.Parts, p)
		case PartFinish:
			a.FinishReason = p.FinishReason
		case PartStart, PartTextStart, PartTextEnd, PartReasoningStart, PartReasoningEnd, PartStartStep, PartFinishStep, PartToolInputDelta:
		default:
			a.Parts = append(a.Parts, p)
		}
	}
	a.finish(s, &text, &reasoning)
	if len(a.Errors) > 0 {
		return a, &StreamError{Method: s.c.method, Path: s.c.path, Problem: StreamReportedError, Parts: s.parts,
			Detail: plural(len(a.Errors), "the stream carried an error part", "the stream carried %d error parts"), ServerError: a.Errors[len(a.Errors)-1]}
	}
	return a, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(many, n)
}

func (a *AssistantAnswer) finish(s *AssistantStream, text, reasoning *pieces) {
	a.Text, a.Reasoning = text.String(), reasoning.String()
	a.ThreadID, a.MessageID = s.threadID, s.messageID
}

// pieceSize is how much text pieces gathers before it sets a piece
// aside.
const pieceSize = 64 << 10

// pieces gathers streamed text for one join at the end: small deltas
// are copied into pieces of 64 KiB, so that a million 1-byte deltas cost
// about a megabyte, not a million strings; a builder growing by doubling
// would allocate about three times the text instead.
type pieces struct {
	done []string
	cur  []byte
}

func (p *pieces) add(s string) {
	if len(p.cur)+len(s) > pieceSize && len(p.cur) > 0 {
		p.done = append(p.done, string(p.cur))
		p.cur = p.cur[:0]
	}
	if len(s) >= pieceSize {
		p.done = append(p.done, s)
		return
	}
	p.cur = append(p.cur, s...)
}

// String joins the text.
func (p *pieces) String() string {
	if len(p.done) == 0 {
		return string(p.cur)
	}
	return strings.Join(append(p.done, string(p.cur)), "")
}

// fail ends the stream with a final error. Text held back for redaction
// is dropped: it may be most of a secret.
// bodyStart, when given, is what the stream began with, to show a body
// that was not a stream.
func (s *AssistantStream) fail(problem StreamProblem, detail string, err error, bodyStart ...[]byte) {
	if s.err != nil {
		return
	}
	se := &StreamError{Method: s.c.method, Path: s.c.path, Problem: problem, Detail: detail, Parts: s.parts, ServerError: s.serverErr, Err: err}
	if len(bodyStart) > 0 {
		se.BodyStart = s.k.snippet(bodyStart[0])
	}
	s.err = se
	s.held = nil
	_ = s.Close()
}

// read reads the next part (or parts) into the queue, or ends the stream.
func (s *AssistantStream) read() {
	var payload []byte
	var err error
	if s.Protocol == AssistantV1 {
		payload, err = s.events.NextLine()
	} else {
		payload, err = s.events.NextEvent()
	}
	if err != nil {
		s.readFailed(err)
		return
	}
	if s.Protocol == AssistantV1 && len(bytes.TrimSpace(payload)) == 0 {
		return // a blank line: counted, nothing more
	}
	if s.Protocol != AssistantV1 && string(bytes.TrimSpace(payload)) == "[DONE]" {
		s.end()
		return
	}
	var parts []AssistantPart
	if s.Protocol == AssistantV1 {
		parts, err = s.partsV1(payload)
	} else {
		parts, err = s.partsV2(payload)
	}
	if err != nil {
		if s.events.AtEOF() {
			s.fail(StreamCut, "the stream ended in the middle of a part; the answer is incomplete", nil)
			return
		}
		s.fail(StreamMalformed, "a part is not the stream's JSON: "+s.k.redact(err.Error()), nil, payload)
		return
	}
	s.queue = append(s.queue, parts...)
}

// readFailed ends the stream on a read error or the body's end.
func (s *AssistantStream) readFailed(err error) {
	var limit *LimitError
	switch {
	case s.finished:
		// The answer is whole: whatever follows the finish part (the end
		// of the body, a dropped connection) ends it cleanly.
		s.end()
	case s.ctx.Err() != nil:
		s.fail(StreamStopped, "the caller stopped reading", s.ctx.Err())
	case s.closed.Load():
		s.fail(StreamStopped, "the stream was closed", nil)
	case errors.As(err, &limit) && limit.Limit == LimitIdle:
		s.fail(StreamStalled, fmt.Sprintf("no data came for %s (the request timeout); the answer is incomplete", s.k.requestTimeout), limit)
	case limit != nil && limit.Limit == LimitDuration:
		s.fail(StreamTooLong, fmt.Sprintf("the answer was still coming after %s (WithMaxStreamDuration); it is incomplete", limit.After), limit)
	case errors.Is(err, eventstream.ErrLineTooLong):
		s.fail(StreamMalformed, fmt.Sprintf("a line is longer than %d bytes", s.events.MaxLine()), &LimitError{Limit: LimitLine, Max: int64(s.events.MaxLine())})
	case errors.Is(err, eventstream.ErrEventTooLong):
		s.fail(StreamMalformed, fmt.Sprintf("an event's data is longer than %d bytes (its data lines came without the blank line that ends an event)", s.events.MaxLine()),
			&LimitError{Limit: LimitLine, Max: int64(s.events.MaxLine())})
	case errors.Is(err, eventstream.ErrTooManyEvents):
		s.fail(StreamTooLarge, fmt.Sprintf("the stream carried more than %d parts (WithMaxStreamParts); the answer is incomplete", s.k.maxStreamParts),
			&LimitError{Limit: LimitParts, Max: int64(s.k.maxStreamParts), Option: "WithMaxStreamParts"})
	case errors.Is(err, io.EOF):
		detail := "the stream ended before its finish part; the answer is incomplete"
		if s.parts == 0 && len(s.events.Start()) > 0 {
			s.fail(StreamCut, detail, nil, s.events.Start())
			return
		}
		s.fail(StreamCut, detail, nil)
	default:
		s.fail(StreamCut, "reading the stream failed before its finish part; the answer is incomplete", err)
	}
}

// end ends a stream whose finish part came (or a [DONE] marker): text held
// back for redaction is handed out first.
func (s *AssistantStream) end() {
	if !s.finished {
		s.fail(StreamCut, "the stream ended (with [DONE]) before its finish part; the answer is incomplete", nil)
		return
	}
	s.queue = append(s.queue, s.flush(func(heldText) bool { return true })...)
	s.ended = true
	_ = s.Close()
}
