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

// keyPattern is any Mintlify key (admin, assistant or Index): written
// nowhere, whoever sent it where.
var keyPattern = regexp.MustCompile(`mint_[A-Za-z0-9_\-]+`)

// linkSecrets are the query parameters of a bundle link that grant it.
var linkSecrets = []string{"X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token"}

// redacted is s without keys.
func redacted(s string) string { return keyPattern.ReplaceAllString(s, "[REDACTED]") }

// redactedQuery is a raw query without keys or a link's signature.
func redactedQuery(raw string) string {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return redacted(raw)
	}
	changed := false
	for _, name := range linkSecrets {
		if q.Has(name) {
			q.Set(name, "[REDACTED]")
			changed = true
		}
	}
	if !changed {
		return redacted(raw)
	}
	return redacted(q.Encode())
}

// requestLog writes lines to w, one whole line per Write.
type requestLog struct {
	mu sync.Mutex
	w  io.Writer
}

// write logs one answered request. The body is a POST's (any method's
// but GET and HEAD), as the fake kept it (at most MaxLoggedBody bytes).
func (l *requestLog) write(r mintlifytest.LoggedRequest) {
	line := logLine{Time: r.Time.UTC().Format(time.RFC3339Nano), Method: r.Method, Path: redacted(r.Path), Query: redactedQuery(r.Query),
		Route: r.Route, Status: r.Status, Fault: r.Fault, RequestID: r.RequestID}
	if r.Method != "GET" && r.Method != "HEAD" {
		line.Body = redacted(r.Body)
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
