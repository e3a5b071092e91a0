package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// attempt is the outcome of one HTTP exchange.
type attempt struct {
	status int
	data   []byte         // the body, when read whole
	resp   *http.Response // a 2xx stream, its body unread
	header http.Header
	err    error
	// sent is false only when the request certainly never left this
	// machine; when in doubt it is true.
	sent bool
}

// send makes one attempt. The request timeout bounds it until the answer
// is read (a stream: until its headers). A request that is not a GET or
// HEAD, once on the wire, may create an object: until its answer's headers
// arrive, it is awaited for a short grace (Policy.SentGrace) even after
// ctx ends, so the caller still learns the new object's id.
func send(ctx context.Context, p Policy, req Request) attempt {
	var attemptCtx context.Context
	var cancel context.CancelFunc
	var graceOver, headersIn atomic.Bool
	stopWatch := func() bool { return true }
	if req.Method == http.MethodGet || req.Method == http.MethodHead {
		attemptCtx, cancel = context.WithCancel(ctx)
	} else {
		attemptCtx, cancel = context.WithCancel(context.WithoutCancel(ctx))
		stopWatch = context.AfterFunc(ctx, func() {
			if headersIn.Load() || p.SentGrace == 0 {
				graceOver.Store(!headersIn.Load())
				cancel()
				return
			}
			t := time.NewTimer(p.SentGrace)
			defer t.Stop()
			select {
			case <-t.C:
				graceOver.Store(true)
				cancel()
			case <-attemptCtx.Done():
			}
		})
	}
	var timedOut atomic.Bool
	var timer *time.Timer
	if p.RequestTimeout > 0 {
		timer = time.AfterFunc(p.RequestTimeout, func() { timedOut.Store(true); cancel() })
	}
	release := sync.OnceFunc(func() {
		if timer != nil {
			timer.Stop()
		}
		stopWatch()
		cancel()
	})
	a := sendWith(attemptCtx, p, req, &headersIn, timer)
	if a.resp == nil {
		release()
	} else {
		a.resp.Body = &releasingBody{ReadCloser: a.resp.Body, release: release}
	}
	var bound *bounded.Error
	if a.err != nil && !errors.As(a.err, &bound) { // a broken bound says itself
		switch {
		case timedOut.Load() && ctx.Err() == nil:
			a.err = fmt.Errorf("no response within %s (the request timeout): %w", p.RequestTimeout, a.err)
		case graceOver.Load():
			a.err = fmt.Errorf("the caller stopped waiting (%w) and no answer came within %s more: %w", ctx.Err(), p.SentGrace, a.err)
		}
	}
	return a
}

// releasingBody frees an attempt's timer and context when the caller
// closes a streamed body.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// sendWith performs the attempt on ctx.
func sendWith(ctx context.Context, p Policy, r Request, headersIn *atomic.Bool, timer *time.Timer) attempt {
	// The trace tells a request that never left (no headers written) from
	// one that may have reached the server.
	var gotConn, wroteHeaders atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn:      func(string) { gotConn.Store(true) },
		WroteHeaders: func() { wroteHeaders.Store(true) },
	})
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		if r.SecretURL {
			err = redact.URLError(err)
		}
		return attempt{err: err}
	}
	req.Header = r.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		// Without the trace (a custom transport) only errors that cannot
		// happen after sending prove the request never left.
		sent := wroteHeaders.Load() || (!gotConn.Load() && !isPreSendError(err))
		if r.SecretURL {
			err = redact.URLError(err)
		}
		return attempt{err: err, sent: sent}
	}
	if r.Stream && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		headersIn.Store(true)
		if timer != nil {
			timer.Stop()
		}
		return attempt{status: resp.StatusCode, resp: resp, header: resp.Header, sent: true}
	}
	// The attempt's timer bounds the body's time: a trickle ends with it.
	defer resp.Body.Close()
	data, err := io.ReadAll(bounded.NewReader(resp.Body, bounded.Bounds{MaxBytes: p.MaxResponseBytes}))
	var tooLarge *bounded.Error
	switch {
	case errors.As(err, &tooLarge):
		return attempt{status: resp.StatusCode, header: resp.Header, sent: true, err: tooLarge}
	case err != nil:
		// The connection broke mid-body: treat it like a dropped connection.
		return attempt{err: fmt.Errorf("reading response (status %d): %w", resp.StatusCode, err), sent: true}
	}
	return attempt{status: resp.StatusCode, data: data, header: resp.Header, sent: true}
}
