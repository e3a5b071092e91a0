// Framing: a streamed answer read line by line within a cap, and the
// lines gathered into server-sent events (the AI SDK v5 UI message
// stream) or handed out one by one (the AI SDK v4 data stream), every
// event counted against a cap. The body comes here bounded in time and
// size already.

package assistantstream

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// The errors an Events returns besides those of the body it reads.
var (
	// ErrLineTooLong is a line longer than the line cap.
	ErrLineTooLong = errors.New("line too long")
	// ErrPartialLine comes with the last line of a body that ended
	// before its newline (LineReader only: an Events hands such a line
	// out as whole, and says so with AtEOF).
	ErrPartialLine = errors.New("partial last line")
	// ErrEventTooLong is an event whose data, its data lines joined, is
	// longer than the line cap.
	ErrEventTooLong = errors.New("event too long")
	// ErrTooManyEvents is a stream that carried more events (v1: lines)
	// than the cap.
	ErrTooManyEvents = errors.New("too many events")
)

// bufferSize is the read buffer: a line longer than it is joined from
// several reads.
const bufferSize = 64 << 10

// startSize is how much of the stream's first bytes a LineReader keeps.
const startSize = 256

// LineReader reads a stream line by line, whatever the reads' sizes: a
// line split across reads is joined, and no line grows past its cap.
type LineReader struct {
	r   *bufio.Reader
	buf []byte
	max int
	// start keeps the stream's first bytes, to show a body that is not a
	// stream at all.
	start []byte
}

// NewLineReader reads r in lines of at most maxLine bytes, their line
// endings not counted.
func NewLineReader(r io.Reader, maxLine int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, bufferSize), max: maxLine}
}

// Next returns the next line without its line ending (\n or \r\n); the
// slice is valid until the next call. At the body's end it returns
// io.EOF, or the last line with ErrPartialLine when that line had no
// newline. A line past the cap is ErrLineTooLong.
func (l *LineReader) Next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if len(l.start) < startSize {
			l.start = append(l.start, frag[:min(len(frag), startSize-len(l.start))]...)
		}
		if len(l.buf)+len(frag) > l.max+2 {
			return nil, ErrLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			l.buf = append(l.buf, frag...)
			continue
		}
		line := frag
		if len(l.buf) > 0 {
			l.buf = append(l.buf, frag...)
			line = l.buf
		}
		if err != nil {
			if len(line) > 0 && errors.Is(err, io.EOF) {
				return bytes.TrimSuffix(line, []byte("\r")), ErrPartialLine
			}
			return nil, err
		}
		line = line[:len(line)-1]
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}

// Events frames a stream into events: server-sent events (NextEvent) or
// lines (NextLine), each counted against the cap of events.
type Events struct {
	lines     *LineReader
	data      []byte // the current event's data
	events    int    // events (lines) read, every kind
	maxEvents int
	// atEOF is set when the body ended in the middle of the last line or
	// event handed out: if that cannot be read, the stream was cut rather
	// than malformed.
	atEOF bool
}

// NewEvents reads r, which the caller has bounded already, in lines of at
// most maxLine bytes (an event's data is capped alike), and at most
// maxEvents events.
func NewEvents(r io.Reader, maxLine, maxEvents int) *Events {
	return &Events{lines: NewLineReader(r, maxLine), maxEvents: maxEvents}
}

// count counts an event read, whatever it holds: events that carry
// nothing (empty deltas, step markers, keep-alives) cost time all the
// same.
func (r *Events) count() error {
	if r.events++; r.events > r.maxEvents {
		return ErrTooManyEvents
	}
	return nil
}

// NextLine returns the stream's next line, counted as an event, blank
// lines too (the caller skips them). The last line of a body that ended
// before its newline is handed out, and AtEOF reports it. At the body's
// end it returns io.EOF.
func (r *Events) NextLine() ([]byte, error) {
	line, err := r.lines.Next()
	if errors.Is(err, ErrPartialLine) {
		r.atEOF, err = true, nil
	}
	if err != nil {
		return nil, err
	}
	if err := r.count(); err != nil {
		return nil, err
	}
	return line, nil
}

// NextEvent reads one server-sent event and returns its data: the data
// lines joined by newlines, without the one space after "data:". Comments
// (keep-alives) and other fields are skipped, but counted: a comment, a
// field other than data, or a blank line alone, counts as an event. io.EOF means the body ended
// with no event pending; an event the body ended in is handed out, and
// AtEOF reports it.
func (r *Events) NextEvent() ([]byte, error) {
	data, err := r.event()
	if err == nil {
		err = r.count()
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

func (r *Events) event() ([]byte, error) {
	r.data = r.data[:0]
	have := false
	lines := 0 // the event's lines so far, before its data: comments, fields
	for {
		line, err := r.lines.Next()
		partial := errors.Is(err, ErrPartialLine)
		if err != nil && !partial {
			if errors.Is(err, io.EOF) && have {
				// The last event lacks its blank line: if its data is
				// whole, it counts; if not, it fails as a cut.
				r.atEOF = true
				return r.data, nil
			}
			return nil, err
		}
		if partial {
			r.atEOF = true
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		switch {
		case len(line) == 0 && have:
			return r.data, nil
		case len(line) == 0 && lines > 0: // the end of an event of comments and fields: counted as they came
			lines = 0
		case string(name) != "data":
			// A blank line alone, a comment (a keep-alive), a field the
			// reader does not use (event, id, retry, any other): an event
			// all the same, or a flood of them would cost nothing.
			if err := r.count(); err != nil {
				return nil, err
			}
			lines++
		default: // a data line
			value, _ = bytes.CutPrefix(value, []byte(" "))
			// The event's data is capped like a line: data lines
			// without the blank line that ends an event must not
			// grow it without end.
			if len(r.data)+1+len(value) > r.lines.max {
				return nil, ErrEventTooLong
			}
			if have {
				r.data = append(r.data, '\n')
			}
			r.data = append(r.data, value...)
			have = true
		}
		if partial {
			if have {
				return r.data, nil
			}
			return nil, io.EOF
		}
	}
}
