package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The request log (-log): one JSON line per request, for a Terraform user
// to watch what a configuration sends.

// logLine is one request as -log writes it.
type logLine struct {
	Time      string                 `json:"time"`
	Method    string                 `json:"method"`
	Path      string                 `json:"path"`
	Query     string                 `json:"query,omitempty"`
	Route     string                 `json:"route"`
	Status    int                    `json:"status"`
	Fault     mintlifytest.FaultKind `json:"fault,omitempty"`
	RequestID string                 `json:"request_id"`
	Body      string                 `json:"body,omitempty"`
}

// What the log writes is scrubbed unit by unit (a path segment, a query
// pair, a JSON body's strings), each decoded layer by layer before it is
// matched: a key or a link's secret is found in whatever spelling a
// server would read it (mint%5F..., mint\u005f..., escaped twice), and a
// pair the server skips (x=%zz, a=1;b=2) is scrubbed like any other.

// keyPattern is any Mintlify key (admin, assistant or Index): written
// nowhere, whoever sent it where.
var keyPattern = regexp.MustCompile(`mint_[A-Za-z0-9_\-]+`)

// linkSecret is a query parameter of a bundle link that grants it, with
// its value, wherever it is written.
var linkSecret = regexp.MustCompile(`(?i)(X-Amz-(?:Signature|Credential|Security-Token))=[^&\s"'<>]*`)

// escape is one percent or JSON escape.
var escape = regexp.MustCompile(`%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}`)

const mark = "[REDACTED]"

// scrub is s without the keys and link secrets it shows; mark alone when
// s, its percent and JSON escapes undone once or more, would show one
// (mint%5F..., a key escaped twice, a signature under an escaped name).
func scrub(s string) string {
	s = keyPattern.ReplaceAllString(s, mark)
	s = linkSecret.ReplaceAllString(s, "${1}="+mark)
	for range 4 { // each round undoes one layer of escapes
		d := escape.ReplaceAllStringFunc(s, func(e string) string {
			if e[0] == '%' {
				d, _ := url.PathUnescape(e)
				return d
			}
			d, _ := strconv.Unquote(`"` + e + `"`)
			return d
		})
		if d == s {
			return s
		}
		if keyPattern.MatchString(d) || linkSecret.MatchString(d) {
			return mark
		}
		s = d
	}
	return mark // escaped deeper than any client would: not written
}

// loggedPath is an escaped path, each segment scrubbed.
func loggedPath(p string) string { return scrubEach(p, "/") }

// loggedQuery is a raw query, each pair scrubbed.
func loggedQuery(raw string) string { return scrubEach(raw, "&") }

func scrubEach(s, sep string) string {
	parts := strings.Split(s, sep)
	for i, p := range parts {
		parts[i] = scrub(p)
	}
	return strings.Join(parts, sep)
}

// loggedBody is a request body as sent when it shows and hides no
// secret; else a JSON body written again from its decoded strings,
// scrubbed, and any other scrubbed whole.
func loggedBody(body string) string {
	if scrub(body) == body {
		return body
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return scrub(body)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return scrub(body) // more than one JSON value
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(scrubJSON(v)) != nil {
		return mark
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// scrubJSON is a decoded JSON value with every string scrubbed, keys
// included.
func scrubJSON(v any) any {
	switch t := v.(type) {
	case string:
		return scrub(t)
	case []any:
		for i, e := range t {
			t[i] = scrubJSON(e)
		}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[scrub(k)] = scrubJSON(e)
		}
		return out
	}
	return v
}

// requestLog writes lines to w, one whole line per Write.
type requestLog struct {
	mu sync.Mutex
	w  io.Writer
}

// write logs one answered request. The body is a POST's (any method's
// but GET and HEAD), as the fake kept it (at most 64 KiB).
func (l *requestLog) write(r mintlifytest.LoggedRequest) {
	line := logLine{Time: r.Time.UTC().Format(time.RFC3339Nano), Method: r.Method, Path: loggedPath(r.Path), Query: loggedQuery(r.Query),
		Route: r.Route, Status: r.Status, Fault: r.Fault, RequestID: r.RequestID}
	if r.Method != "GET" && r.Method != "HEAD" {
		line.Body = loggedBody(r.Body)
	}
	b, err := json.Marshal(line)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(b, '\n'))
}

// openLog opens -log's destination: "-" for stderr, else a file appended
// to (created 0600). Only a regular file is written: a link, a FIFO or a
// device at the path is refused, so -log never writes where the path
// does not say.
func openLog(name string, stderr io.Writer) (io.Writer, func() error, error) {
	if name == "-" {
		return stderr, func() error { return nil }, nil
	}
	if fi, err := os.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("-log %q: not a regular file (%s): give a file's path, or - for stderr", name, fi.Mode().Type())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("-log: %w", err)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND|noFollow, 0o600) //nolint:gosec // the path the user gave -log, checked above
	if err != nil {
		return nil, nil, fmt.Errorf("-log: %w", err)
	}
	return f, f.Close, nil
}
