package mintlifytest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"runtime/debug"
	"strconv"
	"sync"
)

// Transport returns an http.RoundTripper that serves each request from the
// fake itself, in process: no socket, no port, no real timer. Any scheme
// and host reach it ("https://mintlify.test" will do as a base URL).
//
// It behaves as a connection to the fake would. The handler runs in its
// own goroutine; RoundTrip returns once the answer's headers are sent (the
// handler flushed, wrote more than 4 KiB, or returned), and a read of the
// body blocks until the handler writes more or returns, so streamed
// answers stream. The request's context is the handler's too: when it
// ends, RoundTrip (or the body's Read) returns its error and the handler's
// context ends. Closing the body early ends the handler's context as a
// hang-up would. Faults look as they do on the wire: FaultDropConnection
// fails RoundTrip (an error wrapping io.EOF), FaultReset fails the read of
// the body (io.ErrUnexpectedEOF), FaultStall blocks until the request's
// context ends. Client traces (net/http/httptrace) see GetConn,
// WroteHeaders, WroteRequest and GotFirstResponseByte.
//
// Inside a testing/synctest bubble it needs nothing from outside: create
// the Fake (and its ManualClock, if any) inside the bubble, and time.Sleep,
// context deadlines, FaultLatency and FaultStall run on the bubble's clock.
// Without a Config.Clock the fake reads time.Now, which a bubble fakes
// too, so a job scripted to run for hours completes in no wall time.
func (s *Fake) Transport() http.RoundTripper { return &inProcessTransport{h: s} }

// Client returns an HTTP client whose transport is Transport(): a client
// of the fake with no sockets. (On a Server too, this client skips the
// listener; use URL with any other client to go through it.)
func (s *Fake) Client() *http.Client { return &http.Client{Transport: s.Transport()} }

type inProcessTransport struct{ h http.Handler }

// remoteAddr is the client address the handler sees (TEST-NET-1, as
// httptest.NewRequest gives).
const remoteAddr = "192.0.2.1:1234"

// commitSize is how much an answer buffers before its headers are sent,
// as net/http's response buffer does: below it, the answer gets a
// Content-Length.
const commitSize = 4 << 10

func (t *inProcessTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	closeBody := func() {
		if req.Body != nil {
			_ = req.Body.Close()
		}
	}
	if req.URL == nil {
		closeBody()
		return nil, errors.New("mintlifytest: in-process request without a URL")
	}
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		closeBody()
		return nil, err
	}
	trace := httptrace.ContextClientTrace(ctx)
	if trace != nil && trace.GetConn != nil {
		trace.GetConn(hostPort(req.URL))
	}
	hctx, cancel := context.WithCancel(context.Background())
	sr, err := serverRequest(hctx, req)
	if err != nil {
		cancel()
		closeBody()
		return nil, err
	}
	w := &inProcessWriter{
		req: req, header: http.Header{}, cancel: cancel, length: -1,
		ready: make(chan struct{}), body: newPipe(),
	}
	w.stopWatch = context.AfterFunc(ctx, func() { w.abandon(ctx.Err()) })
	if trace != nil && trace.WroteHeaders != nil {
		trace.WroteHeaders()
	}
	if trace != nil && trace.WroteRequest != nil {
		trace.WroteRequest(httptrace.WroteRequestInfo{})
	}
	go w.serve(t.h, sr, closeBody)
	select {
	case <-w.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if w.err != nil {
		w.stopWatch()
		return nil, w.err
	}
	if trace != nil && trace.GotFirstResponseByte != nil {
		trace.GotFirstResponseByte()
	}
	return w.resp, nil
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// serverRequest is req as a server receives it.
func serverRequest(ctx context.Context, req *http.Request) (*http.Request, error) {
	sr := req.Clone(ctx)
	sr.RequestURI = req.URL.RequestURI()
	u, err := url.ParseRequestURI(sr.RequestURI)
	if err != nil {
		return nil, fmt.Errorf("mintlifytest: in-process request: %w", err)
	}
	sr.URL = u
	sr.Host = cmp.Or(req.Host, req.URL.Host)
	sr.RemoteAddr = remoteAddr
	sr.Proto, sr.ProtoMajor, sr.ProtoMinor = "HTTP/1.1", 1, 1
	sr.Method = cmp.Or(req.Method, http.MethodGet)
	if _, set := req.Header["User-Agent"]; !set {
		sr.Header.Set("User-Agent", "Go-http-client/1.1")
	}
	sr.Body, sr.GetBody = req.Body, nil
	if sr.Body == nil {
		sr.Body, sr.ContentLength = http.NoBody, 0
	}
	sr.Close, sr.TLS, sr.Response, sr.TransferEncoding = false, nil, nil, nil
	return sr, nil
}

// inProcessWriter is the handler's side of an in-process exchange.
type inProcessWriter struct {
	req       *http.Request // the client's
	header    http.Header
	cancel    context.CancelFunc // ends the handler's context
	stopWatch func() bool        // stops watching the client's context
	body      *pipe

	mu      sync.Mutex
	status  int
	pending []byte // written before the headers were sent
	written int64  // body bytes written
	length  int64  // the declared Content-Length, or -1
	sent    bool   // ready is closed: resp or err is set
	ready   chan struct{}
	resp    *http.Response
	err     error
}

func (w *inProcessWriter) serve(h http.Handler, r *http.Request, closeBody func()) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler { //nolint:errorlint // net/http compares it the same way
				log.Printf("mintlifytest: panic serving %s %s in process: %v\n%s", r.Method, r.URL, v, debug.Stack())
			}
			w.breakConn()
		}
		w.finish()
		closeBody()
	}()
	h.ServeHTTP(w, r)
}

func (w *inProcessWriter) Header() http.Header { return w.header }

func (w *inProcessWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent || w.status != 0 || code < 200 {
		return
	}
	w.status = code
}

func (w *inProcessWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if !w.sent {
		w.length = declaredLength(w.header)
	}
	if w.length >= 0 && w.written+int64(len(p)) > w.length {
		w.mu.Unlock()
		return 0, http.ErrContentLength
	}
	w.written += int64(len(p))
	if w.req.Method == http.MethodHead || bodyless(w.status) {
		w.mu.Unlock()
		return len(p), nil
	}
	if !w.sent {
		w.pending = append(w.pending, p...)
		if len(w.pending) >= commitSize {
			w.sendHeaders(-1)
		}
		w.mu.Unlock()
		return len(p), nil
	}
	w.mu.Unlock()
	return w.body.write(p)
}

// declaredLength is the Content-Length a header declares, or -1.
func declaredLength(h http.Header) int64 {
	if n, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
		return n
	}
	return -1
}

func bodyless(status int) bool {
	return status == http.StatusNoContent || status == http.StatusNotModified
}

// Flush sends the headers, if they are not yet sent; what the handler
// wrote is readable as soon as it is written.
func (w *inProcessWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.sent {
		w.sendHeaders(-1)
	}
}

// finish ends the answer when the handler returns.
func (w *inProcessWriter) finish() {
	w.mu.Lock()
	if !w.sent {
		w.sendHeaders(w.written)
	}
	short := w.length >= 0 && w.written < w.length && w.req.Method != http.MethodHead
	w.mu.Unlock()
	if short { // net/http would close the connection
		w.body.closeWrite(fmt.Errorf("mintlifytest: the answer is shorter than its Content-Length: %w", io.ErrUnexpectedEOF))
	} else {
		w.body.closeWrite(io.EOF)
	}
	w.cancel()
}

// sendHeaders makes the response, with w.mu held. length is the body's
// length when the handler is done, or -1.
func (w *inProcessWriter) sendHeaders(length int64) {
	status := max(w.status, http.StatusOK)
	h := w.header.Clone()
	if h.Get("Content-Type") == "" && len(w.pending) > 0 {
		h.Set("Content-Type", http.DetectContentType(w.pending))
	}
	if length >= 0 && h.Get("Content-Length") == "" && !bodyless(status) {
		h.Set("Content-Length", strconv.FormatInt(length, 10))
	}
	contentLength := declaredLength(h)
	w.length = contentLength
	text := http.StatusText(status)
	if text == "" {
		text = "status code " + strconv.Itoa(status)
	}
	resp := &http.Response{
		Status: strconv.Itoa(status) + " " + text, StatusCode: status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, ContentLength: contentLength, Request: w.req,
		Body: &inProcessBody{w: w},
	}
	if w.req.Method == http.MethodHead || bodyless(status) {
		resp.Body = http.NoBody
		if bodyless(status) {
			resp.ContentLength = 0
		}
		w.body.closeRead()
	}
	_, _ = w.body.write(w.pending)
	w.pending = nil
	w.resp = resp
	w.sent = true
	close(w.ready)
}

// breakConn fails the exchange as a broken connection: before the
// headers, the round trip; after them, the read of the body.
func (w *inProcessWriter) breakConn() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.sent {
		w.err = fmt.Errorf("mintlifytest: the server closed the connection before answering (in process): %w", io.EOF)
		w.sent = true
		close(w.ready)
		w.body.closeRead()
		return
	}
	w.body.closeWrite(fmt.Errorf("mintlifytest: the connection broke mid-answer (in process): %w", io.ErrUnexpectedEOF))
}

// abandon is called when the client's context ends: the body fails with
// its error, and the handler's context ends.
func (w *inProcessWriter) abandon(err error) {
	w.body.fail(err)
	w.cancel()
}

// inProcessBody is the client's side of the answer.
type inProcessBody struct{ w *inProcessWriter }

func (b *inProcessBody) Read(p []byte) (int, error) {
	n, err := b.w.body.read(p)
	if err == io.EOF { //nolint:errorlint // io.EOF is returned bare
		b.w.stopWatch()
	}
	return n, err
}

// Close hangs up: the handler's writes fail and its context ends.
func (b *inProcessBody) Close() error {
	b.w.body.closeRead()
	b.w.stopWatch()
	b.w.cancel()
	return nil
}

// pipe carries the body from the handler to the client: writes are
// buffered (up to pipeLimit, then they wait for the reader), reads wait for
// data. Its waits are on channels, so a goroutine waiting here is durably
// blocked for testing/synctest.
type pipe struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	werr   error // what a read returns once buf is empty: io.EOF, or a break
	rerr   error // what a read returns at once: the client's context ended
	closed bool  // the reader closed its side
	data   chan struct{}
	room   chan struct{}
}

const pipeLimit = 1 << 20

var errReadAfterClose = errors.New("http: read on closed response body")

func newPipe() *pipe {
	return &pipe{data: make(chan struct{}, 1), room: make(chan struct{}, 1)}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (p *pipe) write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.mu.Lock()
	for p.buf.Len() >= pipeLimit && !p.closed && p.rerr == nil && p.werr == nil {
		p.mu.Unlock()
		<-p.room
		p.mu.Lock()
	}
	defer p.mu.Unlock()
	if p.closed || p.rerr != nil || p.werr != nil {
		return 0, io.ErrClosedPipe
	}
	p.buf.Write(b)
	signal(p.data)
	return len(b), nil
}

func (p *pipe) read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		switch {
		case p.closed:
			return 0, errReadAfterClose
		case p.rerr != nil:
			return 0, p.rerr
		case p.buf.Len() > 0:
			n, _ := p.buf.Read(b)
			signal(p.room)
			return n, nil
		case p.werr != nil:
			return 0, p.werr
		}
		p.mu.Unlock()
		<-p.data
		p.mu.Lock()
	}
}

// closeWrite ends the body: reads return err once the buffer is read.
func (p *pipe) closeWrite(err error) { p.end(&p.werr, err) }

// fail makes every read return err at once, and every write fail.
func (p *pipe) fail(err error) { p.end(&p.rerr, err) }

// end sets one side's error (the first one set stays) and wakes both
// sides, so that a blocked read or write sees it.
func (p *pipe) end(side *error, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if *side == nil {
		*side = err
	}
	signal(p.data)
	signal(p.room)
}

// closeRead is the reader going away: writes fail.
func (p *pipe) closeRead() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.buf.Reset()
	signal(p.data)
	signal(p.room)
}
