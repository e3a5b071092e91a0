package mintlifytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The discovery API (discovery-openapi.json, server
// https://api.mintlify.com/discovery): search, page content and the
// assistant of a documentation site, with an assistant key. The fake
// serves it under /discovery on its one host, beside the admin API.

// Routes of the discovery API.

// RouteDiscoverySearch is the route of the SDK's DiscoveryClient.Search.
const RouteDiscoverySearch = "POST /discovery/v1/search/{domain}"

// RouteDiscoveryPage is the route of the SDK's DiscoveryClient.Page.
const RouteDiscoveryPage = "POST /discovery/v1/page/{domain}"

// RouteAssistantStream is the route of the SDK's
// DiscoveryClient.Assistant.Stream (and Ask) with AssistantV2: the AI SDK v5
// UI message stream.
const RouteAssistantStream = "POST /discovery/v2/assistant/{domain}/message"

// RouteAssistantStreamV1 is the route of the SDK's
// DiscoveryClient.Assistant.Stream (and Ask) with AssistantV1: the AI SDK v4
// data stream.
const RouteAssistantStreamV1 = "POST /discovery/v1/assistant/{domain}/message"

// keyKind is the API a key opens: each API refuses the others' keys (401).
type keyKind int

const (
	adminKind keyKind = iota
	assistantKind
	indexKind
)

func (k keyKind) name() string {
	switch k {
	case assistantKind:
		return "an assistant API key (mint_dsc_...)"
	case indexKind:
		return "a Mintlify Index API key (mint_us_...)"
	}
	return "an admin API key (mint_...)"
}

// refuse says why a key of kind got is refused by an API that takes k.
func (k keyKind) refuse(got keyKind) string {
	return "this API takes " + k.name() + ", not " + got.name()
}

// keyKindOf is the kind of key an area's routes take.
func keyKindOf(area string) keyKind {
	switch area {
	case areaDiscovery:
		return assistantKind
	case areaIndex:
		return indexKind
	}
	return adminKind
}

// AddAssistantKey registers an assistant key (mint_dsc_...) of an
// organization: it opens the discovery API of the organization's sites,
// and nothing else.
func (s *Fake) AddAssistantKey(key, org string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[key] = keyInfo{org: org, kind: assistantKind}
}

// AddIndexKey registers a Mintlify Index key (mint_us_...) of an
// organization: it opens the Index, and nothing else.
func (s *Fake) AddIndexKey(key, org string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[key] = keyInfo{org: org, kind: indexKind}
}

// discovery is the fake's state of the discovery API.
type discovery struct {
	sites      map[string]*site
	answers    []AssistantAnswer
	threads    map[string]string // thread id -> domain
	threadSeq  int
	messageSeq int
}

// addDemoSite adds DemoDomain with pages (nil: DemoPages()) and the demo
// assistant and Index keys.
func (s *Fake) addDemoSite(pages []DocPage) {
	if pages == nil {
		pages = DemoPages()
	}
	s.AddSite(DemoDomain, DemoOrg, pages)
	s.AddAssistantKey(DemoAssistantKey, DemoOrg)
	s.AddIndexKey(DemoIndexKey, DemoOrg)
}

// AddSite registers (or replaces) a documentation site of an organization
// with its pages.
func (s *Fake) AddSite(domain, org string, pages []DocPage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.disc.sites == nil {
		s.disc.sites = map[string]*site{}
	}
	s.disc.sites[domain] = &site{domain: domain, org: org, pages: slices.Clone(pages)}
}

// PutPage publishes a page on a site, replacing the one at its path: what a
// deployment does. It panics for an unknown site.
func (s *Fake) PutPage(domain string, p DocPage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.disc.sites[domain]
	if st == nil {
		panic("mintlifytest: PutPage: no site " + domain)
	}
	if old := st.findPage(p.Path); old != nil {
		*old = p
		return
	}
	st.pages = append(st.pages, p)
}

// RemovePage takes a page off a site; it reports whether there was one.
func (s *Fake) RemovePage(domain, path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.disc.sites[domain]
	if st == nil || st.findPage(path) == nil {
		return false
	}
	st.pages = slices.DeleteFunc(st.pages, func(p DocPage) bool { return strings.Trim(p.Path, "/") == strings.Trim(path, "/") })
	return true
}

// Pages returns a site's pages, in the order they were added.
func (s *Fake) Pages(domain string) []DocPage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.disc.sites[domain]; st != nil {
		return slices.Clone(st.pages)
	}
	return nil
}

// AssistantAnswers returns every answer the assistant streamed, in order:
// one per message, and each message costs the organization credits.
func (s *Fake) AssistantAnswers() []AssistantAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.disc.answers)
	for i := range out {
		out[i].Sources, out[i].Parts = slices.Clone(out[i].Sources), slices.Clone(out[i].Parts)
	}
	return out
}

// SearchQuery is a search of a site, as SearchData takes it.
type SearchQuery struct {
	Query string
	// PageSize is 1 to 50; 0: the API's default, 10.
	PageSize       int
	ScoreThreshold *float64
	Version        string
	Language       string
	Tag            string
	Groups         []string
}

// SearchHit is one search result, as the API sends it.
type SearchHit struct {
	Path     string         `json:"path"`
	Content  string         `json:"content"`
	Metadata map[string]any `json:"metadata"`
}

// SearchData returns what a search of domain answers, without a request:
// to compare with what a client read. nil for an unknown site.
func (s *Fake) SearchData(domain string, q SearchQuery) []SearchHit {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.disc.sites[domain]
	if st == nil {
		return nil
	}
	return search(st, q.Query, pageFilter{Version: q.Version, Language: q.Language, Tag: q.Tag, Groups: q.Groups}, q.PageSize, q.ScoreThreshold)
}

// search ranks the site's pages for a query: the first size results
// (0: 10) scored at or above threshold.
func search(st *site, query string, f pageFilter, size int, threshold *float64) []SearchHit {
	if size == 0 {
		size = 10
	}
	hits := []SearchHit{}
	for _, r := range rank(st.pages, query, f) {
		if len(hits) == size {
			break
		}
		if threshold != nil && r.score < *threshold {
			continue
		}
		meta := map[string]any{"title": r.page.Title, "score": r.score}
		for k, v := range map[string]string{"version": r.page.Version, "language": r.page.Language, "tag": r.page.Tag} {
			if v != "" {
				meta[k] = v
			}
		}
		hits = append(hits, SearchHit{Path: r.page.Path, Content: snippet(r.page, query), Metadata: meta})
	}
	return hits
}

// faultKey carries a streaming route's fault (a Fault) in its request's
// context.
type faultKey struct{}

// writeMessage writes the discovery API's error body, {"message": ...},
// the shape its 404 documents.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, struct {
		Message string `json:"message"`
	}{msg})
}

// reshapeError turns an error the admission wrote ({"error": ...,
// "details": [...]}) into the area's own body: the discovery API's
// {"message": ...}, the Index's {"error": ...} alone.
func reshapeError(area string, rec *recorder) {
	if area != areaDiscovery && area != areaIndex {
		return
	}
	var body struct {
		Error   string        `json:"error"`
		Details []errorDetail `json:"details"`
	}
	if json.Unmarshal(rec.body.Bytes(), &body) != nil {
		return
	}
	msg := body.Error
	for _, d := range body.Details {
		msg += ": " + d.Message
	}
	var out any = struct {
		Message string `json:"message"`
	}{msg}
	if area == areaIndex {
		out = struct {
			Error string `json:"error"`
		}{msg}
	}
	rec.body.Reset()
	_ = json.NewEncoder(&rec.body).Encode(out)
}

// siteOf finds the site of the request's {domain} for the key's
// organization, or answers 404.
func (s *Fake) siteOf(w http.ResponseWriter, r *http.Request, org string) *site {
	st := s.disc.sites[r.PathValue("domain")]
	if st == nil || st.org != org {
		writeMessage(w, http.StatusNotFound, "No search index available for domain "+r.PathValue("domain"))
		return nil
	}
	return st
}

// readBody decodes a JSON object body into v; a body that is not one is a
// 400 with the problem.
func readBody(r *http.Request, v any, strict bool) error {
	data, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		return errors.New("could not read body")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s: expected %s, received %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("body must be a JSON object: %w", err)
	}
	return nil
}

type searchBody struct {
	Query          *string     `json:"query"`
	PageSize       *float64    `json:"pageSize"`
	ScoreThreshold *float64    `json:"scoreThreshold"`
	Filter         *pageFilter `json:"filter"`
}

func (s *Fake) discoverySearch(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	st := s.siteOf(w, r, org)
	if st == nil {
		return
	}
	var b searchBody
	if err := readBody(r, &b, false); err != nil {
		writeMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	switch {
	case b.Query == nil:
		writeMessage(w, http.StatusBadRequest, "query: Required")
		return
	case b.PageSize != nil && (*b.PageSize != math.Trunc(*b.PageSize) || *b.PageSize < 1 || *b.PageSize > 50):
		writeMessage(w, http.StatusBadRequest, "pageSize: must be an integer between 1 and 50")
		return
	case b.ScoreThreshold != nil && (*b.ScoreThreshold < 0 || *b.ScoreThreshold > 1):
		writeMessage(w, http.StatusBadRequest, "scoreThreshold: must be between 0 and 1")
		return
	}
	size := 0
	if b.PageSize != nil {
		size = int(*b.PageSize)
	}
	var f pageFilter
	if b.Filter != nil {
		f = *b.Filter
	}
	writeJSON(w, http.StatusOK, search(st, *b.Query, f, size, b.ScoreThreshold))
}

func (s *Fake) discoveryPage(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	st := s.siteOf(w, r, org)
	if st == nil {
		return
	}
	var b struct {
		Path   *string  `json:"path"`
		Groups []string `json:"groups"`
	}
	if err := readBody(r, &b, false); err != nil {
		writeMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	if b.Path == nil {
		writeMessage(w, http.StatusBadRequest, "path: Required")
		return
	}
	p := st.findPage(*b.Path)
	if p == nil || !p.visible(b.Groups) {
		// A page the groups may not see is not there, for them.
		writeMessage(w, http.StatusNotFound, "Page not found")
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}{p.Path, p.Content})
}

// messageBody is an assistant message request, v1 and v2.
type messageBody struct {
	FP                *string     `json:"fp"`
	ThreadID          *string     `json:"threadId"`
	Messages          []message   `json:"messages"`
	RetrievalPageSize *float64    `json:"retrievalPageSize"`
	Filter            *pageFilter `json:"filter"`
	CurrentPath       *string     `json:"currentPath"`
}

type message struct {
	ID      string `json:"id"`
	Role    string `json:"role"`
	Content string `json:"content"`
	Parts   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"parts"`
}

// text is a message's text: its text parts, else its content (v1).
func (m message) text() string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	if b.Len() == 0 {
		return m.Content
	}
	return b.String()
}

func (s *Fake) assistantV2(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	s.assistant(w, r, org, "v2")
}

func (s *Fake) assistantV1(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	s.assistant(w, r, org, "v1")
}

// assistant streams an answer. It runs unlocked (a streaming route),
// locking the fake around its state: the answer is composed and recorded
// first, then written part by part, as the question's markers script it.
func (s *Fake) assistant(w http.ResponseWriter, r *http.Request, org, proto string) {
	var b messageBody
	err := readBody(r, &b, false)
	question := ""
	if err == nil {
		err = b.check()
	}
	if err == nil {
		for _, m := range b.Messages {
			if m.Role == "user" {
				question = m.text()
			}
		}
	}
	script, query := parseAnswerScript(question)
	if f, ok := r.Context().Value(faultKey{}).(Fault); ok {
		switch f.Kind {
		case FaultSlowStream:
			script.slow = f.Latency
		case FaultReset:
			script.reset = true
		}
	}
	// The fake is unlocked while writing: its log records the status.
	s.mu.Lock()
	st := s.disc.sites[r.PathValue("domain")]
	if st == nil || st.org != org {
		s.mu.Unlock()
		writeMessage(w, http.StatusNotFound, "No search index available for domain "+r.PathValue("domain"))
		return
	}
	if err != nil {
		s.mu.Unlock()
		writeMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	retrieval := 5
	if b.RetrievalPageSize != nil && *b.RetrievalPageSize >= 1 {
		retrieval = int(*b.RetrievalPageSize)
	}
	var f pageFilter
	if b.Filter != nil {
		f = pageFilter{Version: b.Filter.Version, Language: b.Filter.Language, Groups: b.Filter.Groups}
	}
	c := compose(st, query, retrieval, f, script.size)
	s.disc.messageSeq++
	messageID := fmt.Sprintf("msg_%06d", s.disc.messageSeq)
	threadID := ""
	if b.ThreadID != nil && s.disc.threads[*b.ThreadID] == st.domain {
		threadID = *b.ThreadID
	} else {
		s.disc.threadSeq++
		threadID = fmt.Sprintf("thread_%06d", s.disc.threadSeq)
		if s.disc.threads == nil {
			s.disc.threads = map[string]string{}
		}
		s.disc.threads[threadID] = st.domain
	}
	parts := c.partsV2(st.domain, messageID, threadID, script.fail)
	if proto == "v1" {
		parts = c.partsV1(st.domain, messageID, threadID, script.fail)
	}
	sent := parts
	switch {
	case script.reset: // the fault's half of the answer
		sent = parts[:len(parts)/2]
	case script.cutAfter > 0 && script.cutAfter < len(parts):
		sent = parts[:script.cutAfter]
	}
	answer := AssistantAnswer{Domain: st.domain, Protocol: proto, Question: question, ThreadID: threadID, MessageID: messageID,
		Text: c.text, Parts: sent, Complete: !script.fail && len(sent) == len(parts), Time: s.clock.Now()}
	for _, p := range c.sources {
		answer.Sources = append(answer.Sources, sourceURL(st.domain, p))
	}
	s.disc.answers = append(s.disc.answers, answer)
	s.mu.Unlock()

	h := w.Header()
	if proto == "v1" {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("X-Vercel-AI-Data-Stream", "v1")
	} else {
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Vercel-AI-UI-Message-Stream", "v1")
	}
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flush := func() { _ = http.NewResponseController(w).Flush() }
	flush()
	for _, p := range sent {
		if script.slow > 0 {
			t := time.NewTimer(script.slow)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			case <-s.stopping:
				t.Stop()
				return
			}
		}
		if proto == "v1" {
			_, _ = io.WriteString(w, p+"\n")
		} else {
			if script.keepAlive {
				_, _ = io.WriteString(w, ": keep-alive\n\n")
			}
			_, _ = io.WriteString(w, "data: "+p+"\n\n")
		}
		flush()
	}
	if len(sent) < len(parts) {
		if !script.reset { // a reset's break is the route's (serveRoute)
			breakConn(w) // [fake:cut=N]: the connection breaks mid-answer
		}
		return
	}
	if proto == "v2" && !script.fail {
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
		flush()
	}
}

// check is the request's validation, as the spec's schema has it.
func (b *messageBody) check() error {
	switch {
	case b.FP == nil:
		return errors.New("fp: Required")
	case b.Messages == nil:
		return errors.New("messages: Required")
	case b.CurrentPath != nil && len([]rune(*b.CurrentPath)) > 200:
		return errors.New("currentPath: must be at most 200 characters")
	}
	for i, m := range b.Messages {
		if m.ID == "" || m.Role == "" {
			return fmt.Errorf("messages[%d]: id and role are required", i)
		}
		if !slices.Contains([]string{"system", "assistant", "user", "data"}, m.Role) {
			return fmt.Errorf("messages[%d].role: %s is not one of system, assistant, user, data", i, m.Role)
		}
	}
	return nil
}
