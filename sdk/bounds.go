package sdk

import (
	"fmt"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
)

// Every body from outside is read through one bounded reader
// (package bounded): an API's answer, an assistant's streamed answer, a
// bundle download. Each has bounds of bytes, of parts or events, and of
// time, each with a documented default and the same typed error,
// *LimitError:
//
//   - an answer read whole: WithMaxResponseBytes (16 MiB) and the request
//     timeout (1 minute), which bounds the attempt from sending to its
//     last byte;
//   - a streamed answer: a line, and an event's data, at most 4 MiB (or
//     WithMaxResponseBytes when smaller); WithMaxStreamParts parts
//     (100,000); no byte for the request timeout is a stall;
//     WithMaxStreamDuration for the whole answer (10 minutes); Collect
//     also gathers at most WithMaxResponseBytes;
//   - a download: the size announced (the API's sizeBytes, or the download
//     server's), a download with no size announced refused before a byte
//     is written; less than MinDownloadRate bytes a second over a request
//     timeout is a stall, resumed like a broken connection, at most
//     WithMaxRetries times.
//
// Lists an answer holds are bounded by what was asked for: a search keeps
// at most its page size, an Index search its NumResults, a paging read
// its page size; what a server sends past it is a problem, not kept.

// BodyLimit names a bound of a body from outside (see LimitError).
type BodyLimit string

// The bounds a body from outside can break.
const (
	// LimitBytes: a body, or an answer gathered from a stream, grew past
	// its cap.
	LimitBytes BodyLimit = "bytes"
	// LimitLine: one line of a stream, or one event's data, grew past its
	// cap.
	LimitLine BodyLimit = "line"
	// LimitParts: a stream carried more parts than its cap.
	LimitParts BodyLimit = "parts"
	// LimitIdle: nothing (or, for a download, too little) arrived for the
	// request timeout: a stall.
	LimitIdle BodyLimit = "idle"
	// LimitDuration: the whole body took longer than its bound (a
	// trickle that never stalls).
	LimitDuration BodyLimit = "duration"
	// LimitUnknownSize: a download whose size nobody announced (neither
	// the API's sizeBytes nor the download server): it could be endless.
	LimitUnknownSize BodyLimit = "size"
)

// MinDownloadRate is the slowest a download may be, in bytes per second
// averaged over each request timeout (WithRequestTimeout): 1 KiB/s, 60
// KiB in the default minute. A download slower than that (a trickle) is
// stalled: it is resumed like a broken connection, at most WithMaxRetries
// times, then fails with a *LimitError (LimitIdle).
const MinDownloadRate = 1 << 10

// LimitError is a body from outside that broke one of its bounds (see
// BodyLimit). errors.Is(err, ErrResponseTooLarge) holds for the bounds of
// size: bytes, lines and parts.
type LimitError struct {
	Limit BodyLimit
	// Max is the bound of bytes or parts; After the bound of time.
	Max   int64
	After time.Duration
	// Option is the client option that sets the bound ("" when none
	// does).
	Option string
}

// Error says which bound, and how to raise it.
func (e *LimitError) Error() string {
	var s string
	switch e.Limit {
	case LimitBytes:
		s = fmt.Sprintf("%s: over %d bytes", ErrResponseTooLarge, e.Max)
	case LimitLine:
		s = fmt.Sprintf("a line (or an event's data) is longer than %d bytes", e.Max)
	case LimitParts:
		s = fmt.Sprintf("more than %d parts", e.Max)
	case LimitIdle:
		s = fmt.Sprintf("no data came for %s (the request timeout)", e.After)
		if e.Max > 0 {
			s = fmt.Sprintf("less than %d bytes came in %s (the request timeout): slower than %d bytes a second", e.Max, e.After, MinDownloadRate)
		}
	case LimitDuration:
		s = fmt.Sprintf("still unfinished after %s", e.After)
	case LimitUnknownSize:
		s = "no size was announced (the API's sizeBytes, or the download server's Content-Length): an endless body cannot be told from a large one"
	default:
		s = "a bound was broken: " + string(e.Limit)
	}
	if e.Option != "" {
		s += " (" + e.Option + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrResponseTooLarge) hold for bounds of size.
func (e *LimitError) Is(target error) bool {
	return target == ErrResponseTooLarge && (e.Limit == LimitBytes || e.Limit == LimitLine || e.Limit == LimitParts) //nolint:errorlint,err113 // the sentinel itself
}

// limitError is err as the SDK reports it: a broken bound a *LimitError
// (totalOption names the option of a bound on the whole body), anything
// else unchanged.
func limitError(err error, totalOption string) error {
	b, ok := err.(*bounded.Error) //nolint:errorlint // package bounded returns its errors unwrapped
	if !ok {
		return err
	}
	switch b.Bound {
	case bounded.Bytes:
		return &LimitError{Limit: LimitBytes, Max: b.Max, Option: "WithMaxResponseBytes"}
	case bounded.Idle:
		return &LimitError{Limit: LimitIdle, Max: b.Max, After: b.After}
	}
	return &LimitError{Limit: LimitDuration, After: b.After, Option: totalOption}
}
