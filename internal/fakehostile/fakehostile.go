// Package fakehostile makes the fake (sdk/mintlifytest) play a hostile
// server, for this repository's own tests and benchmarks: answers a
// client must bound (an event or a body that never ends, a flood of empty
// parts, a trickle), escape (control characters in server text), check
// (an id it cannot read back by) or scrub (its own secret repeated to
// it). Each is a mintlifytest.Fault whose Respond plays it: the fake's
// one fault mechanism, nothing beside it.
//
// Like the fake, it imports nothing of the SDK; the provider never links
// it, its tests do.
package fakehostile

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The hostile kinds. Those that never end stop when the client hangs up
// or the fake stops (Stop, Server.Close).
const (
	// EndlessEvent is a 200 event stream whose one event never ends:
	// `data:` lines (each Body, or 1 KiB of x) without the blank line that
	// would end the event; on the v1 assistant route (a line per part),
	// one line that never ends. The request is not served.
	EndlessEvent mintlifytest.FaultKind = "endless-event"
	// EmptyDeltas is a 200 assistant stream of parts that carry nothing,
	// without end: a start and a text-start, then empty text deltas (v1: a
	// start-step, then `0:""` lines). Body, when set, is the part repeated
	// instead (v2: an event's JSON, such as {"type":"start-step"}; v1: a
	// CODE:JSON line). The request is not served.
	EmptyDeltas mintlifytest.FaultKind = "empty-deltas"
	// EndlessBody is a 200 whose body announces no size (chunked on the
	// wire) and never ends: Body, then filler for ever. Without Body, the
	// bundle download route sends a gzip header then zeros (an archive
	// that never ends), other routes `{"data":"` then x's. The request is
	// not served.
	EndlessBody mintlifytest.FaultKind = "endless-body"
	// Trickle serves the request and sends its answer (headers at once,
	// with the Content-Length they would have) one byte every Latency (0:
	// one second), streamed answers too. A client's idle timer never
	// fires; only a bound on the whole answer ends it.
	Trickle mintlifytest.FaultKind = "trickle"
	// ControlText serves the request and appends Text (or
	// DefaultControlText) to every string (or string in a list) of its
	// JSON answer under a key named summary, logs, error, title,
	// messageToUser, message or errorText, at any depth: a deployment's
	// summary and log lines, an export's error, a listed job's title, an
	// error body's message and details.
	ControlText mintlifytest.FaultKind = "control-text"
	// UnreadableID serves the request (the job, deployment, preview or
	// export exists) and names it in its 2xx answer by an id a client
	// cannot read it back by: Text, or DefaultUnreadableID. The id is the
	// top-level Field when set; else, by route: id (create job), statusId
	// (trigger a deployment or a preview), jobId (start an export), and on
	// the job listing the first row's sessionId.
	UnreadableID mintlifytest.FaultKind = "unreadable-id"
	// EchoSecret serves the request and repeats a secret of the exchange
	// in its 2xx JSON answer's top-level Field (default expiresAt on a
	// bundle answer, createdAt elsewhere), after the field's own text: a
	// bundle answer, its link's signature (X-Amz-Signature); any other,
	// the request's API key.
	EchoSecret mintlifytest.FaultKind = "echo-secret"
)

// DefaultControlText is what ControlText appends: a screen clear, a
// cursor home, a green "Apply complete!", a window title, a carriage
// return, a bell and a right-to-left override.
const DefaultControlText = "\x1b[2J\x1b[H\x1b[32mApply complete! Resources: 0 added.\x1b[0m\x1b]0;pwned\x07\r\u202eevil"

// DefaultUnreadableID is the id UnreadableID answers with: a slash would
// change the path a client reads the object back by.
const DefaultUnreadableID = "a/b"

// Fault is f, of one of the hostile kinds above, with the Respond that
// plays it; Body, Text, Field and Latency are its parameters. It panics
// for another kind.
func Fault(f mintlifytest.Fault) mintlifytest.Fault {
	play, ok := plays[f.Kind]
	if !ok {
		panic(fmt.Sprintf("fakehostile: %q is not a hostile fault", f.Kind))
	}
	f.Respond = func(w http.ResponseWriter, r *http.Request, serve http.Handler) { play(f, w, r, serve) }
	return f
}

// Plays reports whether kind is one of the hostile kinds Fault plays.
func Plays(kind mintlifytest.FaultKind) bool {
	_, ok := plays[kind]
	return ok
}

type play func(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, serve http.Handler)

var plays = map[mintlifytest.FaultKind]play{
	EndlessEvent: endlessEvent,
	EmptyDeltas:  emptyDeltas,
	EndlessBody:  endlessBody,
	Trickle:      trickle,
	ControlText:  controlText,
	UnreadableID: unreadableID,
	EchoSecret:   echoSecret,
}

// floodChunk is how much an endless answer writes at a time.
const floodChunk = 32 << 10

// endless answers with head, then fill again and again, flushing each
// time, until the client hangs up (a write fails) or the request's
// context ends (the fake breaks the connection when it stopped).
// contentType "" leaves the header unset.
func endless(w http.ResponseWriter, r *http.Request, contentType, head, fill string) {
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
	for r.Context().Err() == nil {
		if _, err := io.WriteString(w, chunk); err != nil || rc.Flush() != nil {
			return
		}
	}
}

// v1Stream reports whether r is on the route that streams the v1 data
// stream (a CODE:JSON line per part) rather than server-sent events.
func v1Stream(r *http.Request) bool { return r.Pattern == mintlifytest.RouteAssistantStreamV1 }

func endlessEvent(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, _ http.Handler) {
	if v1Stream(r) {
		endless(w, r, "text/plain; charset=utf-8", `0:"`, "x")
		return
	}
	endless(w, r, "text/event-stream", "", "data: "+cmp.Or(f.Body, strings.Repeat("x", 1024))+"\n")
}

func emptyDeltas(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, _ http.Handler) {
	if v1Stream(r) {
		endless(w, r, "text/plain; charset=utf-8", `f:{"messageId":"msg_flood"}`+"\n", cmp.Or(f.Body, `0:""`)+"\n")
		return
	}
	endless(w, r, "text/event-stream",
		"data: {\"type\":\"start\",\"messageId\":\"msg_flood\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"text_1\"}\n\n",
		"data: "+cmp.Or(f.Body, `{"type":"text-delta","id":"text_1","delta":""}`)+"\n\n")
}

// gzipHeader is the start of a gzip member (magic, deflate, no flags):
// what an archive begins with.
const gzipHeader = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"

func endlessBody(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, _ http.Handler) {
	if r.Pattern == mintlifytest.RouteStaticExportsDownloadBundle {
		endless(w, r, "application/gzip", cmp.Or(f.Body, gzipHeader), "\x00")
		return
	}
	endless(w, r, "application/json", cmp.Or(f.Body, `{"data":"`), "x")
}

func trickle(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, serve http.Handler) {
	serve.ServeHTTP(&trickleWriter{ResponseWriter: w, r: r, delay: cmp.Or(f.Latency, time.Second)}, r)
}

// trickleWriter sends every write a byte at a time, delay apart, each
// flushed. Once the client hangs up or the fake stops, writes and
// flushes fail.
type trickleWriter struct {
	http.ResponseWriter
	r      *http.Request
	delay  time.Duration
	broken error
}

func (t *trickleWriter) Write(p []byte) (int, error) {
	if t.broken != nil {
		return 0, t.broken
	}
	rc := http.NewResponseController(t.ResponseWriter)
	timer := time.NewTimer(t.delay)
	defer timer.Stop()
	for i := range p {
		if i > 0 {
			timer.Reset(t.delay)
			select {
			case <-timer.C:
			case <-t.r.Context().Done():
				t.broken = t.r.Context().Err()
				return i, t.broken
			}
		}
		if _, err := t.ResponseWriter.Write(p[i : i+1]); err != nil {
			t.broken = err
			return i, err
		}
		if err := rc.Flush(); err != nil {
			t.broken = err
			return i + 1, err
		}
	}
	return len(p), nil
}

// FlushError flushes, unless the connection is broken.
func (t *trickleWriter) FlushError() error {
	if t.broken != nil {
		return t.broken
	}
	return http.NewResponseController(t.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (t *trickleWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// edited serves r and sends its answer as edit changes it: a JSON answer
// is held whole, edited (edit gets its status) and sent with its new
// length; any other passes as it is written.
func edited(w http.ResponseWriter, r *http.Request, serve http.Handler, edit func(status int, body []byte) []byte) {
	h := &held{ResponseWriter: w}
	serve.ServeHTTP(h, r)
	if !h.holding {
		return
	}
	body := edit(h.status, h.body.Bytes())
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(h.status)
	_, _ = w.Write(body)
}

// held is the writer edited gives the route: it holds a JSON answer and
// passes any other on.
type held struct {
	http.ResponseWriter
	status  int
	holding bool
	body    bytes.Buffer
}

func (h *held) WriteHeader(code int) {
	if h.status != 0 {
		return
	}
	h.status = code
	h.holding = strings.HasPrefix(h.Header().Get("Content-Type"), "application/json")
	if !h.holding {
		h.ResponseWriter.WriteHeader(code)
	}
}

func (h *held) Write(p []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	if h.holding {
		return h.body.Write(p)
	}
	return h.ResponseWriter.Write(p)
}

// FlushError sends what a passed-on answer wrote; a held one waits.
func (h *held) FlushError() error {
	if h.holding {
		return nil
	}
	return http.NewResponseController(h.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (h *held) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// controlTextKeys are the keys whose strings ControlText taints: server
// text a client shows to people.
var controlTextKeys = map[string]bool{
	"summary": true, "logs": true, "error": true, "title": true, "messageToUser": true, "message": true, "errorText": true,
}

func controlText(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, serve http.Handler) {
	edited(w, r, serve, func(_ int, body []byte) []byte {
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if dec.Decode(&v) != nil {
			return body
		}
		out, err := json.Marshal(taint(v, "", cmp.Or(f.Text, DefaultControlText)))
		if err != nil {
			return body
		}
		return out
	})
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

// idFields are the fields a route's answer names its new object by.
var idFields = map[string]string{
	mintlifytest.RouteAgentJobsCreate:    "id",
	mintlifytest.RouteDeploymentsTrigger: "statusId",
	mintlifytest.RouteDeploymentsPreview: "statusId",
	mintlifytest.RouteStaticExportsStart: "jobId",
}

func unreadableID(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, serve http.Handler) {
	id := jsonString(cmp.Or(f.Text, DefaultUnreadableID))
	edited(w, r, serve, func(status int, body []byte) []byte {
		return editObject(status, body, func(obj map[string]json.RawMessage) bool {
			field := cmp.Or(f.Field, idFields[r.Pattern])
			if field == "" && r.Pattern == mintlifytest.RouteAgentJobsSessions {
				var rows []map[string]json.RawMessage
				if json.Unmarshal(obj["allSessions"], &rows) != nil || len(rows) == 0 {
					return false
				}
				rows[0]["sessionId"] = id
				obj["allSessions"], _ = json.Marshal(rows)
				return true
			}
			if _, ok := obj[field]; !ok {
				return false
			}
			obj[field] = id
			return true
		})
	})
}

func echoSecret(f mintlifytest.Fault, w http.ResponseWriter, r *http.Request, serve http.Handler) {
	edited(w, r, serve, func(status int, body []byte) []byte {
		return editObject(status, body, func(obj map[string]json.RawMessage) bool {
			secret, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			field := cmp.Or(f.Field, "createdAt")
			var link string
			if json.Unmarshal(obj["bundleUrl"], &link) == nil && link != "" {
				if u, err := url.Parse(link); err == nil && u.Query().Get("X-Amz-Signature") != "" {
					secret = u.Query().Get("X-Amz-Signature")
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
	})
}

// editObject is a 2xx answer's body, a JSON object, as edit changes it
// (edit reports whether it did); body unchanged when the answer failed,
// is not an object, or edit did nothing.
func editObject(status int, body []byte, edit func(map[string]json.RawMessage) bool) []byte {
	var obj map[string]json.RawMessage
	if status/100 != 2 || json.Unmarshal(body, &obj) != nil || obj == nil || !edit(obj) {
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
