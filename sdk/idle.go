package sdk

import (
	"io"
	"sync/atomic"
	"time"
)

// idleReader closes a body that sends nothing for d: a stalled stream or
// download must not hang a program that set no deadline. fired tells a
// read that failed because of it from one the connection broke.
type idleReader struct {
	r     io.Reader
	d     time.Duration
	t     *time.Timer
	fired atomic.Bool
}

func newIdleReader(body io.ReadCloser, d time.Duration) *idleReader {
	i := &idleReader{r: body, d: d}
	i.t = time.AfterFunc(d, func() {
		i.fired.Store(true)
		_ = body.Close()
	})
	return i
}

func (i *idleReader) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	if n > 0 && !i.fired.Load() {
		i.t.Reset(i.d)
	}
	return n, err
}
