// Package bounded reads every body from outside within bounds of bytes,
// of time without progress and of time in all, and caps what is decoded
// from JSON (items, problems). Package sdk makes its Error a LimitError.
package bounded

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Bound names the bound a body broke.
type Bound int

// The bounds a Reader enforces.
const (
	// Bytes: the body grew past Bounds.MaxBytes.
	Bytes Bound = iota + 1
	// Idle: nothing (or less than Bounds.MinRate bytes a second) arrived
	// for Bounds.Idle.
	Idle
	// Duration: the body was still unfinished after Bounds.Total.
	Duration
)

// Error is a broken bound: Max is the byte cap (Bytes) or the bytes an
// idle window needed (Idle with MinRate); After the time bound.
type Error struct {
	Bound Bound
	Max   int64
	After time.Duration
}

// Error says which bound broke.
func (e *Error) Error() string {
	switch e.Bound {
	case Bytes:
		return fmt.Sprintf("body over %d bytes", e.Max)
	case Idle:
		if e.Max > 0 {
			return fmt.Sprintf("less than %d bytes came in %s", e.Max, e.After)
		}
		return fmt.Sprintf("no data came for %s", e.After)
	}
	return fmt.Sprintf("still unfinished after %s", e.After)
}

// Bounds are the bounds of one body; a zero field is no bound.
type Bounds struct {
	MaxBytes int64
	// Idle is how long the body may go without a byte, or MinRate bytes
	// a second.
	Idle    time.Duration
	MinRate int64
	Total   time.Duration
	// Fail, when set, makes the error Read returns of a broken bound.
	Fail func(*Error) error
}

// Reader reads a body within its bounds: a time bound closes the body when
// it passes, failing the read under way. Close or Stop stops its timers.
type Reader struct {
	body io.ReadCloser
	b    Bounds
	n    int64

	need     int64        // bytes that count as progress in one idle window
	progress atomic.Int64 // bytes since the idle timer was last reset
	idleT    *time.Timer
	totalT   *time.Timer
	fired    atomic.Pointer[Error]
	stopOnce sync.Once
}

// NewReader reads body within b; its time bounds start now.
func NewReader(body io.ReadCloser, b Bounds) *Reader {
	r := &Reader{body: body, b: b, need: 1}
	if b.Idle > 0 {
		if b.MinRate > 0 {
			r.need = max(1, int64(b.Idle.Seconds()*float64(b.MinRate)))
		}
		r.idleT = time.AfterFunc(b.Idle, r.stalled)
	}
	if b.Total > 0 {
		r.totalT = time.AfterFunc(b.Total, func() { r.fire(&Error{Bound: Duration, After: b.Total}) })
	}
	return r
}

// stalled runs at the end of an idle window without enough bytes.
func (r *Reader) stalled() {
	e := &Error{Bound: Idle, After: r.b.Idle}
	if r.need > 1 {
		e.Max = r.need
	}
	r.fire(e)
}

// fire closes the body for a broken time bound (the first is kept).
func (r *Reader) fire(e *Error) {
	if r.fired.CompareAndSwap(nil, e) {
		_ = r.body.Close()
	}
}

// Read reads within the bounds, or fails with the broken one's *Error.
func (r *Reader) Read(p []byte) (int, error) {
	if e := r.fired.Load(); e != nil {
		return 0, r.fail(e)
	}
	if r.b.MaxBytes > 0 && int64(len(p)) > r.b.MaxBytes-r.n+1 {
		p = p[:r.b.MaxBytes-r.n+1] // one byte past the cap tells a body at it from one over it
	}
	n, err := r.body.Read(p)
	r.n += int64(n)
	if n > 0 && r.idleT != nil && r.fired.Load() == nil {
		if r.progress.Add(int64(n)) >= r.need {
			r.progress.Store(0)
			r.idleT.Reset(r.b.Idle)
		}
	}
	if r.b.MaxBytes > 0 && r.n > r.b.MaxBytes {
		return n - int(r.n-r.b.MaxBytes), r.fail(&Error{Bound: Bytes, Max: r.b.MaxBytes})
	}
	if err != nil {
		if e := r.fired.Load(); e != nil {
			return n, r.fail(e)
		}
	}
	return n, err
}

// fail is e as Read returns it.
func (r *Reader) fail(e *Error) error {
	if r.b.Fail != nil {
		return r.b.Fail(e)
	}
	return e
}

// Stop stops the time bounds; the body stays open.
func (r *Reader) Stop() {
	r.stopOnce.Do(func() {
		if r.idleT != nil {
			r.idleT.Stop()
		}
		if r.totalT != nil {
			r.totalT.Stop()
		}
	})
}

// Close stops the bounds and closes the body.
func (r *Reader) Close() error {
	r.Stop()
	return r.body.Close()
}

// MaxItems bounds every JSON list and object the SDK decodes: far past
// any page or log, while millions of tiny items ({} decodes to a hundred
// times its 3 bytes) cannot turn a 16 MiB answer into gigabytes.
const MaxItems = 100_000

// ItemsFit reports, in one pass over its commas, whether every list and
// object of data holds at most MaxItems items. Text that is not JSON fits:
// its decoder says what is wrong.
func ItemsFit(data []byte) bool {
	var commas []int // per open list or object: its commas so far
	inString, escaped := false, false
	for _, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			commas = append(commas, 0)
		case ']', '}':
			if len(commas) > 0 {
				commas = commas[:len(commas)-1]
			}
		case ',':
			if n := len(commas); n > 0 {
				if commas[n-1]++; commas[n-1] >= MaxItems {
					return false
				}
			}
		}
	}
	return true
}

// MaxProblems bounds the problems one answer reports.
const MaxProblems = 100

// MoreProblems is the last problem of a list that has more than
// MaxProblems.
const MoreProblems = "…: more problems, not listed"

// Problems lists what is wrong with what a server sent, one entry per
// field ("visitors[3].total: -5 is negative"), at most MaxProblems then
// MoreProblems. As an error, an answer not to trust.
type Problems []string

// Error joins the problems with "; ".
func (p Problems) Error() string { return strings.Join(p, "; ") }

// Add records a problem with field: its text is format with args.
func (p *Problems) Add(field, format string, args ...any) {
	switch n := len(*p); {
	case n < MaxProblems:
		*p = append(*p, field+": "+fmt.Sprintf(format, args...))
	case n == MaxProblems:
		*p = append(*p, MoreProblems)
	}
}

// Names reports whether a problem with field was reported.
func (p Problems) Names(field string) bool {
	for _, s := range p {
		if strings.HasPrefix(s, field+": ") {
			return true
		}
	}
	return false
}

// Kind names a JSON value's kind, for a problem ("a string").
func Kind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}
