// Package assistantstream reads a streamed answer of the assistant: it
// frames the body (events.go) into events (v2: JSON parts) or lines (v1:
// CODE:JSON), decodes them into parts named as v2 names them, scrubs the
// client's secrets from them (across deltas too), and turns every way the
// body can fail into one Failure with its Problem. Package sdk makes the
// Parts and Failures its AssistantPart and StreamError
// (assistant_stream.go).
package assistantstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync"
	"sync/atomic"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Problem is why reading a stream failed (package sdk's StreamProblem).
type Problem string

// The ways a stream can fail.
const (
	// Cut: the stream ended before its finish part.
	Cut Problem = "cut"
	// Malformed: a part is not the protocol's JSON, or a line (or an
	// event's data) is longer than the line cap.
	Malformed Problem = "malformed"
	// Stalled: no byte came for the body's idle bound.
	Stalled Problem = "stalled"
	// TooLong: the stream outlasted the body's total bound.
	TooLong Problem = "too long"
	// Stopped: the context ended, or the stream was closed.
	Stopped Problem = "stopped"
	// TooLarge: more parts than the parts cap, or Collect gathered more
	// than its cap of bytes.
	TooLarge Problem = "too large"
	// ReportedError: the stream carried error parts (Collect).
	ReportedError Problem = "error part"
)

// Limit is the cap a Failure broke, when it broke one of this package's.
type Limit int

// The caps of this package.
const (
	NoLimit Limit = iota
	// LineLimit: a line or an event's data longer than Config.MaxLine.
	LineLimit
	// PartsLimit: more events (v1: lines) than Config.MaxParts.
	PartsLimit
	// BytesLimit: Collect gathered more than its cap.
	BytesLimit
)

// Failure is the stream's final failure, before package sdk names it.
type Failure struct {
	Problem Problem
	Detail  string
	// Parts is how many parts were handed out before it.
	Parts int
	// ServerError is the text of the stream's last error part, if any.
	ServerError string
	// BodyStart is the start of a body that was not a stream at all
	// (nil for any other failure), not yet redacted.
	BodyStart []byte
	// Limit is the cap broken, and Max its value.
	Limit Limit
	Max   int64
	// Err is the cause: the context's error, or the body's broken bound
	// (a *bounded.Error).
	Err error
}

func (f *Failure) Error() string { return string(f.Problem) + ": " + f.Detail }

func (f *Failure) Unwrap() error { return f.Err }

// Config is what a Stream reads and how.
type Config struct {
	// V1 reads CODE:JSON lines (the AI SDK v4 data stream); otherwise
	// server-sent events of JSON parts.
	V1 bool
	// Body is the answer, already bounded by the caller in time (a
	// bounded.Reader whose errors are its own *bounded.Error). When it is
	// an io.Closer, the stream closes it: when it fails or ends, when
	// Context ends (at once, even under a read), on Close.
	Body io.Reader
	// MaxLine caps a line and an event's data; MaxParts the events (v1:
	// lines) read, every one counted.
	MaxLine  int
	MaxParts int
	// Context ending stops the stream (Stopped, wrapping its error).
	Context context.Context
	// Secrets are the client's secrets, scrubbed from every part (nil:
	// none).
	Secrets *redact.Secrets
}

// Stream reads the parts of one streamed answer. It is not safe for
// concurrent use; Close may be called from any goroutine.
type Stream struct {
	cfg    Config
	events *Events

	closeOnce sync.Once
	closed    atomic.Bool // Close was called: a read error after it is no cut
	stop      func() bool // stops closing the body when Context ends

	queue     []Part
	held      []heldText
	finished  bool // the finish part came
	ended     bool // nothing more to read
	err       error
	parts     int
	threadID  string
	messageID string
	serverErr string
}

// New reads the stream cfg describes.
func New(cfg Config) *Stream {
	s := &Stream{cfg: cfg, events: NewEvents(cfg.Body, cfg.MaxLine, cfg.MaxParts), stop: func() bool { return false }}
	if c, ok := cfg.Body.(io.Closer); ok && cfg.Context != nil {
		// Ending ctx closes the body at once, even under a transport
		// that does not watch the request's context.
		s.stop = context.AfterFunc(cfg.Context, func() { _ = c.Close() })
	}
	return s
}

// Close ends the stream, closing its body. It is safe to call more than
// once, and from another goroutine.
func (s *Stream) Close() {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.stop()
		if c, ok := s.cfg.Body.(io.Closer); ok {
			_ = c.Close()
		}
	})
}

// ThreadID is the conversation's id, once a part carried it.
func (s *Stream) ThreadID() string { return s.threadID }

// MessageID is the answer's message id, once a part carried it.
func (s *Stream) MessageID() string { return s.messageID }

// Finished reports whether the finish part has been read.
func (s *Stream) Finished() bool { return s.finished }

// Parts is how many parts Next has handed out.
func (s *Stream) Parts() int { return s.parts }

// Next returns the next part; io.EOF after the finish part and the end
// of the stream. Any other error is final (Next returns it again): a
// *Failure.
func (s *Stream) Next() (Part, error) {
	for {
		if len(s.queue) > 0 {
			p := s.queue[0]
			s.queue = s.queue[1:]
			s.parts++
			return p, nil
		}
		if s.err != nil {
			return Part{}, s.err
		}
		if s.ended {
			return Part{}, io.EOF
		}
		if err := s.context().Err(); err != nil {
			s.fail(&Failure{Problem: Stopped, Detail: "the caller stopped reading", Err: err})
			continue
		}
		s.read()
	}
}

// Seq iterates over next's values until io.EOF, then calls done. An
// error ends the iteration: it is yielded with a zero value.
func Seq[T any](next func() (T, error), done func()) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		defer done()
		for {
			v, err := next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			if !yield(v, nil) {
				return
			}
		}
	}
}

// End makes err the stream's final error: Next returns it once the
// parts already read are handed out.
func (s *Stream) End(err error) { s.err = err }

func (s *Stream) context() context.Context {
	if s.cfg.Context == nil {
		return context.Background()
	}
	return s.cfg.Context
}

func (s *Stream) secrets() []string { return s.cfg.Secrets.List() }

// fail ends the stream with a final error. Text held back for redaction
// is dropped: it may be most of a secret.
func (s *Stream) fail(f *Failure) {
	if s.err != nil {
		return
	}
	f.Parts, f.ServerError = s.parts, s.serverErr
	s.err = f
	s.held = nil
	s.Close()
}

// read reads the next part (or parts) into the queue, or ends the stream.
func (s *Stream) read() {
	var payload []byte
	var err error
	if s.cfg.V1 {
		payload, err = s.events.NextLine()
	} else {
		payload, err = s.events.NextEvent()
	}
	if err != nil {
		s.readFailed(err)
		return
	}
	if s.cfg.V1 && len(bytes.TrimSpace(payload)) == 0 {
		return // a blank line: counted, nothing more
	}
	if !s.cfg.V1 && string(bytes.TrimSpace(payload)) == "[DONE]" {
		s.end()
		return
	}
	var parts []Part
	if s.cfg.V1 {
		parts, err = s.partsV1(payload)
	} else {
		parts, err = s.partsV2(payload)
	}
	if err != nil {
		if s.events.atEOF {
			s.fail(&Failure{Problem: Cut, Detail: "the stream ended in the middle of a part; the answer is incomplete"})
			return
		}
		s.fail(&Failure{Problem: Malformed, Detail: "a part is not the stream's JSON: " + s.redact(err.Error()), BodyStart: payload})
		return
	}
	s.queue = append(s.queue, parts...)
}

// readFailed ends the stream on a read error or the body's end.
func (s *Stream) readFailed(err error) {
	var bound *bounded.Error
	errors.As(err, &bound)
	maxLine := int64(s.events.lines.max)
	switch {
	case s.finished:
		// The answer is whole: whatever follows the finish part (the end
		// of the body, a dropped connection) ends it cleanly.
		s.end()
	case s.context().Err() != nil:
		s.fail(&Failure{Problem: Stopped, Detail: "the caller stopped reading", Err: s.context().Err()})
	case s.closed.Load():
		s.fail(&Failure{Problem: Stopped, Detail: "the stream was closed"})
	case bound != nil && bound.Bound == bounded.Idle:
		s.fail(&Failure{Problem: Stalled, Err: bound,
			Detail: fmt.Sprintf("no data came for %s (the request timeout); the answer is incomplete", bound.After)})
	case bound != nil && bound.Bound == bounded.Duration:
		s.fail(&Failure{Problem: TooLong, Err: bound,
			Detail: fmt.Sprintf("the answer was still coming after %s (WithMaxStreamDuration); it is incomplete", bound.After)})
	case errors.Is(err, ErrLineTooLong):
		s.fail(&Failure{Problem: Malformed, Detail: fmt.Sprintf("a line is longer than %d bytes", maxLine), Limit: LineLimit, Max: maxLine})
	case errors.Is(err, ErrEventTooLong):
		s.fail(&Failure{Problem: Malformed, Limit: LineLimit, Max: maxLine,
			Detail: fmt.Sprintf("an event's data is longer than %d bytes (its data lines came without the blank line that ends an event)", maxLine)})
	case errors.Is(err, ErrTooManyEvents):
		s.fail(&Failure{Problem: TooLarge, Limit: PartsLimit, Max: int64(s.cfg.MaxParts),
			Detail: fmt.Sprintf("the stream carried more than %d parts (WithMaxStreamParts); the answer is incomplete", s.cfg.MaxParts)})
	case errors.Is(err, io.EOF):
		f := &Failure{Problem: Cut, Detail: "the stream ended before its finish part; the answer is incomplete"}
		if s.parts == 0 && len(s.events.lines.start) > 0 {
			f.BodyStart = s.events.lines.start
		}
		s.fail(f)
	default:
		s.fail(&Failure{Problem: Cut, Detail: "reading the stream failed before its finish part; the answer is incomplete", Err: err})
	}
}

// end ends a stream whose finish part came (or a [DONE] marker): text held
// back for redaction is handed out first.
func (s *Stream) end() {
	if !s.finished {
		s.fail(&Failure{Problem: Cut, Detail: "the stream ended (with [DONE]) before its finish part; the answer is incomplete"})
		return
	}
	s.queue = append(s.queue, s.flush(func(heldText) bool { return true })...)
	s.ended = true
	s.Close()
}
