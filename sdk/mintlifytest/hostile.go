package mintlifytest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The hostile server: faults a client must bound (endless events, floods
// of empty parts, bodies without end or size, trickles), escape (control
// characters in server text), check (ids it cannot read back) or scrub
// (its own secrets repeated to it). See the FaultKind constants.

// floodChunk is how much an endless answer writes at a time.
const floodChunk = 32 << 10

// endless answers r with head, then fill again and again, flushing each
// time, until the client hangs up (a write fails, or its context ends) or
// the server stops; a stopped server breaks the connection, so the client
// never sees the answer end cleanly. contentType "" leaves the header
// unset.
func endless(w http.ResponseWriter, r *http.Request, stopping <-chan struct{}, contentType, head, fill string) {
	h := w.Header()
	h.Del("Content-Length")
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if _, err := io.WriteString(w, head); err != nil {
		return
	}
	_ = rc.Flush()
	chunk := strings.Repeat(fill, max(1, floodChunk/max(len(fill), 1)))
	for {
		select {
		case <-r.Context().Done():
			return
		case <-stopping:
			breakConn(w)
			return
		default:
		}
		if _, err := io.WriteString(w, chunk); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// isV1Stream reports whether a route streams the v1 data stream (a
// CODE:JSON line per part) rather than server-sent events.
func isV1Stream(pattern string) bool { return pattern == RouteAssistantStreamV1 }

// endlessEvent is a FaultEndlessEvent's answer.
func (f *faultState) endlessEvent(w http.ResponseWriter, r *http.Request, pattern string, stopping <-chan struct{}) {
	if isV1Stream(pattern) {
		endless(w, r, stopping, "text/plain; charset=utf-8", `0:"`, "x")
		return
	}
	line := cmp.Or(f.Body, strings.Repeat("x", 1024))
	endless(w, r, stopping, "text/event-stream", "", "data: "+line+"\n")
}

// emptyDeltas is a FaultEmptyDeltas's answer.
func (f *faultState) emptyDeltas(w http.ResponseWriter, r *http.Request, pattern string, stopping <-chan struct{}) {
	if isV1Stream(pattern) {
		endless(w, r, stopping, "text/plain; charset=utf-8", `f:{"messageId":"msg_flood"}`+"\n",
			cmp.Or(f.Body, `0:""`)+"\n")
		return
	}
	endless(w, r, stopping, "text/event-stream",
		"data: {\"type\":\"start\",\"messageId\":\"msg_flood\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"text_1\"}\n\n",
		"data: "+cmp.Or(f.Body, `{"type":"text-delta","id":"text_1","delta":""}`)+"\n\n")
}

// gzipHeader is the start of a gzip member (magic, deflate, no flags):
// what an archive begins with.
const gzipHeader = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"

// endlessBody is a FaultEndlessBody's answer.
func (f *faultState) endlessBody(w http.ResponseWriter, r *http.Request, pattern string, stopping <-chan struct{}) {
	if pattern == RouteStaticExportsDownloadBundle {
		endless(w, r, stopping, "application/gzip", cmp.Or(f.Body, gzipHeader), "\x00")
		return
	}
	endless(w, r, stopping, "application/json", cmp.Or(f.Body, `{"data":"`), "x")
}

// trickleDelay is a FaultTrickle's pause between bytes.
func (f *faultState) trickleDelay() time.Duration { return cmp.Or(f.Latency, time.Second) }

// trickle writes p one byte at a time, delay apart, flushing each, until
// the client hangs up or the server stops (then the connection breaks).
func trickle(w http.ResponseWriter, r *http.Request, stopping <-chan struct{}, delay time.Duration, p []byte) (int, error) {
	rc := http.NewResponseController(w)
	t := time.NewTimer(delay)
	defer t.Stop()
	for i := range p {
		if i > 0 {
			t.Reset(delay)
			select {
			case <-t.C:
			case <-r.Context().Done():
				return i, r.Context().Err()
			case <-stopping:
				breakConn(w)
				return i, io.ErrClosedPipe
			}
		}
		if _, err := w.Write(p[i : i+1]); err != nil {
			return i, err
		}
		if err := rc.Flush(); err != nil {
			return i + 1, err
		}
	}
	return len(p), nil
}

// trickleWriter is a streaming route's writer under a FaultTrickle: every
// write goes out a byte at a time. Once the connection is broken (the
// server stopped), writes and flushes fail.
type trickleWriter struct {
	http.ResponseWriter
	r        *http.Request
	stopping <-chan struct{}
	delay    time.Duration
	broken   bool
}

func (t *trickleWriter) Write(p []byte) (int, error) {
	if t.broken {
		return 0, io.ErrClosedPipe
	}
	n, err := trickle(t.ResponseWriter, t.r, t.stopping, t.delay, p)
	if errors.Is(err, io.ErrClosedPipe) {
		t.broken = true
	}
	return n, err
}

// FlushError flushes, unless the connection is broken.
func (t *trickleWriter) FlushError() error {
	if t.broken {
		return io.ErrClosedPipe
	}
	return http.NewResponseController(t.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (t *trickleWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// sendTrickled sends a recorded answer: its headers at once, its body a
// byte at a time.
func (rec *recorder) sendTrickled(w http.ResponseWriter, r *http.Request, stopping <-chan struct{}, delay time.Duration) {
	rec.start(w)
	_ = http.NewResponseController(w).Flush()
	_, _ = trickle(w, r, stopping, delay, rec.body.Bytes())
}

// controlTextKeys are the keys whose strings FaultControlText taints:
// server text a client shows to people.
var controlTextKeys = map[string]bool{
	"summary": true, "logs": true, "error": true, "title": true, "messageToUser": true, "message": true, "errorText": true,
}

// withControlText is body with text appended to the server text it holds
// (see FaultControlText), or body unchanged when it is not JSON.
func withControlText(body []byte, text string) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return body
	}
	v = taint(v, "", cmp.Or(text, DefaultControlText))
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// taint appends text to the strings under the keys of controlTextKeys
// (key is the key v is the value of, "" for none).
func taint(v any, key, text string) any {
	switch t := v.(type) {
	case string:
		if controlTextKeys[key] {
			return t + text
		}
	case []any:
		for i, e := range t {
			t[i] = taint(e, key, text) // a list's strings are its key's
		}
	case map[string]any:
		for k, e := range t {
			t[k] = taint(e, k, text)
		}
	}
	return v
}

// unreadableIDField is the field a route's answer names its new object
// by, for FaultUnreadableID ("" for none).
func unreadableIDField(pattern string) string {
	switch pattern {
	case RouteAgentJobsCreate:
		return "id"
	case RouteDeploymentsTrigger, RouteDeploymentsPreview:
		return "statusId"
	case RouteStaticExportsStart:
		return "jobId"
	}
	return ""
}

// withUnreadableID is body with its id replaced as FaultUnreadableID says.
func (f *faultState) withUnreadableID(body []byte, pattern string) []byte {
	id := cmp.Or(f.Text, DefaultUnreadableID)
	return editObject(body, func(obj map[string]json.RawMessage) bool {
		field := cmp.Or(f.Field, unreadableIDField(pattern))
		if field == "" && pattern == RouteAgentJobsSessions {
			var rows []map[string]json.RawMessage
			if json.Unmarshal(obj["allSessions"], &rows) != nil || len(rows) == 0 {
				return false
			}
			rows[0]["sessionId"] = jsonString(id)
			obj["allSessions"], _ = json.Marshal(rows)
			return true
		}
		if _, ok := obj[field]; !ok {
			return false
		}
		obj[field] = jsonString(id)
		return true
	})
}

// withEchoedSecret is body with a secret of the exchange repeated in a
// field, as FaultEchoSecret says.
func (f *faultState) withEchoedSecret(body []byte, r *http.Request) []byte {
	return editObject(body, func(obj map[string]json.RawMessage) bool {
		secret, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		field := cmp.Or(f.Field, "createdAt")
		var link string
		if json.Unmarshal(obj["bundleUrl"], &link) == nil && link != "" {
			if u, err := url.Parse(link); err == nil && u.Query().Get(amzSignature) != "" {
				secret = u.Query().Get(amzSignature)
				field = cmp.Or(f.Field, "expiresAt")
			}
		}
		if secret == "" {
			return false
		}
		var was string
		_ = json.Unmarshal(obj[field], &was)
		obj[field] = jsonString(strings.TrimSpace(was + " " + secret))
		return true
	})
}

// editObject is body, a JSON object, as edit changes it (edit reports
// whether it did); body unchanged when it is not an object or edit did
// nothing.
func editObject(body []byte, edit func(map[string]json.RawMessage) bool) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil || obj == nil || !edit(obj) {
		return body
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return body
	}
	return append(out, '\n')
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always encodes
	return b
}
