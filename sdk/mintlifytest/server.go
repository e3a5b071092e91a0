package mintlifytest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Routes, as counted by Requests and matched by Fault.Route.
const (
	RouteCreateJob   = "POST /v2/agent/{projectId}/job"
	RouteGetJob      = "GET /v2/agent/{projectId}/job/{id}"
	RouteSendMessage = "POST /v2/agent/{projectId}/job/{id}/message"
	RouteVisitors    = "GET /v1/analytics/{projectId}/visitors"
	RouteViews       = "GET /v1/analytics/{projectId}/views"
	RouteSearches    = "GET /v1/analytics/{projectId}/searches"
	RouteFeedback    = "GET /v1/analytics/{projectId}/feedback"
	// RouteFeedbackByPage is feedback counts per page (no paging).
	RouteFeedbackByPage  = "GET /v1/analytics/{projectId}/feedback/by-page"
	RouteAssistant       = "GET /v1/analytics/{projectId}/assistant"
	RouteAssistantThread = "GET /v1/analytics/{projectId}/assistant/threads/{threadId}"
	RouteCallerStats     = "GET /v1/analytics/{projectId}/assistant/caller-stats"
)

// AnalyticsRoutes lists every analytics route: they share one hourly
// budget per organization.
var AnalyticsRoutes = []string{RouteVisitors, RouteViews, RouteSearches, RouteFeedback, RouteFeedbackByPage,
	RouteAssistant, RouteAssistantThread, RouteCallerStats}

// Defaults of a new server: one organization, one project, one admin key.
const (
	DemoAPIKey    = "mint_demo_0123456789abcdef"
	DemoProjectID = "demo-project"
	DemoOrg       = "demo-org"
	// DefaultHourlyBudget is the published limit: 100 job creations and
	// messages per project per hour, 100 analytics calls per org per hour.
	DefaultHourlyBudget = 100
)

// Config sets up a Fake. The zero value is a usable server with the demo
// key and project and an empty visitor data set.
type Config struct {
	Clock Clock // nil: the real clock
	// JobBudget and AnalyticsBudget are the hourly rate limits (0: 100).
	// A negative value turns the limit off.
	JobBudget       int
	AnalyticsBudget int
	// DefaultJob is the lifecycle of jobs whose prompt carries no script
	// marker (zero value: active for 2 s, then completed with a PR).
	DefaultJob JobScript
	// Analytics is the demo project's data set (zero value: no data).
	Analytics Dataset
	// Faults are injected from the start, as by InjectFault.
	Faults []Fault
	// NoDemo leaves out the demo key and project.
	NoDemo bool
}

// Fake is the fake API. It is an http.Handler and safe for concurrent use.
type Fake struct {
	mux   *http.ServeMux
	clock Clock
	// stopping is closed by Stop: injected latency ends at once.
	stopping chan struct{}
	stopOnce sync.Once

	mu              sync.Mutex
	keys            map[string]keyInfo
	projects        map[string]*project
	jobBudget       int
	analyticsBudget int
	defaultJob      JobScript
	jobSeq          uint64
	orgCalls        map[string][]time.Time // analytics calls per org, for the hourly window
	requests        map[string]int         // "METHOD pattern" (or "unmatched") -> count
	log             []LoggedRequest
	faults          []*faultState
}

type keyInfo struct {
	org      string
	readOnly bool
}

type project struct {
	id       string
	org      string
	repo     string
	jobs     map[string]*job
	jobOrder []string
	jobCalls []time.Time // creations and messages, for the hourly window
	data     *dataset
}

// New returns a server configured by cfg.
func New(cfg Config) *Fake {
	s := &Fake{
		mux:             http.NewServeMux(),
		clock:           cfg.Clock,
		stopping:        make(chan struct{}),
		keys:            map[string]keyInfo{},
		projects:        map[string]*project{},
		jobBudget:       budget(cfg.JobBudget),
		analyticsBudget: budget(cfg.AnalyticsBudget),
		defaultJob:      cfg.DefaultJob,
		orgCalls:        map[string][]time.Time{},
		requests:        map[string]int{},
	}
	if s.clock == nil {
		s.clock = realClock{}
	}
	if s.defaultJob == (JobScript{}) {
		s.defaultJob = JobScript{ActiveFor: 2 * time.Second, Outcome: OutcomeCompleted}
	}
	if !cfg.NoDemo {
		s.AddKey(DemoAPIKey, DemoOrg, false)
		s.AddProject(DemoProjectID, DemoOrg, cfg.Analytics)
	}
	s.mux.HandleFunc(RouteCreateJob, s.authed(s.createJob))
	s.mux.HandleFunc(RouteGetJob, s.authed(s.getJob))
	s.mux.HandleFunc(RouteSendMessage, s.authed(s.sendMessage))
	for route, serve := range map[string]analyticsHandler{
		RouteVisitors: s.serveVisitors, RouteViews: s.serveViews, RouteSearches: s.serveSearches,
		RouteFeedback: s.serveFeedback, RouteFeedbackByPage: s.serveFeedbackByPage, RouteAssistant: s.serveAssistant,
		RouteAssistantThread: s.serveThread, RouteCallerStats: s.serveCallerStats,
	} {
		s.mux.HandleFunc(route, s.authed(s.analytics(serve)))
	}
	for _, f := range cfg.Faults {
		s.InjectFault(f)
	}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "Not found", "no route for "+r.Method+" "+r.URL.Path)
	})
	return s
}

func budget(n int) int {
	if n == 0 {
		return DefaultHourlyBudget
	}
	return n
}

// Stop ends every injected latency now and in the future, so that a
// server can shut down without waiting for them. Server.Close calls it.
func (s *Fake) Stop() { s.stopOnce.Do(func() { close(s.stopping) }) }

// AddKey registers an API key for an organization. A read-only key may only
// GET; its POSTs get 403.
func (s *Fake) AddKey(key, org string, readOnly bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[key] = keyInfo{org: org, readOnly: readOnly}
}

// AddProject registers (or replaces) a project of an organization with its
// analytics data set. Its repository is https://github.com/acme/<slug>.
func (s *Fake) AddProject(id, org string, data Dataset) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.projects[id] = &project{
		id: id, org: org, repo: "acme/" + slug(id),
		jobs: map[string]*job{}, data: newDataset(data),
	}
}

// SetDefaultJob sets the lifecycle of jobs whose prompt has no marker.
func (s *Fake) SetDefaultJob(js JobScript) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.defaultJob = js
}

// Requests returns how many requests arrived for a route (one of the Route
// constants), faulted ones included.
func (s *Fake) Requests(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[route]
}

// TotalRequests returns how many requests arrived in all.
func (s *Fake) TotalRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.requests {
		n += c
	}
	return n
}

// LoggedRequest is one request as the server received it.
type LoggedRequest struct {
	Route     string // a Route constant, or "unmatched"
	Query     string // raw query string
	UserAgent string
}

// RequestLog returns every request received, in order, faulted ones included.
func (s *Fake) RequestLog() []LoggedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]LoggedRequest(nil), s.log...)
}

// ResetRateLimits forgets every call counted against the hourly limits:
// job creations and messages, and analytics calls, for every project and
// organization. The next hour starts now.
func (s *Fake) ResetRateLimits() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.orgCalls)
	for _, p := range s.projects {
		p.jobCalls = nil
	}
}

// ResetCounters zeroes the request counters and the log.
func (s *Fake) ResetCounters() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.requests)
	s.log = nil
}

// ServeHTTP counts the request, applies any matching fault, then serves it.
func (s *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, pattern := s.mux.Handler(r)
	if pattern == "/" || pattern == "" {
		pattern = "unmatched"
	}
	s.mu.Lock()
	s.requests[pattern]++
	s.log = append(s.log, LoggedRequest{Route: pattern, Query: r.URL.RawQuery, UserAgent: r.UserAgent()})
	fault := s.matchFault(pattern, r.Method)
	s.mu.Unlock()
	if fault != nil && fault.apply(w, r, s.stopping) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

type authedHandler func(w http.ResponseWriter, r *http.Request, org string, p *project)

// authed checks the bearer key (401), the key's scope (403 for a read-only
// key on POST) and the project (404), then calls next with the server locked.
func (s *Fake) authed(next authedHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		auth := r.Header.Get("Authorization")
		token, ok := strings.CutPrefix(auth, "Bearer ")
		key, known := s.keys[token]
		if !ok || token == "" || !known {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mintlify"`)
			writeError(w, http.StatusUnauthorized, "Unauthorized", "missing, invalid or expired API key")
			return
		}
		if key.readOnly && r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, http.StatusForbidden, "Forbidden", "this API key is read-only")
			return
		}
		p := s.projects[r.PathValue("projectId")]
		if p == nil || p.org != key.org {
			writeError(w, http.StatusNotFound, "Project not found")
			return
		}
		next(w, r, key.org, p)
	}
}

// takeBudget records one call in an hourly sliding window, or reports how
// long until the oldest call leaves the window when the budget is spent.
func (s *Fake) takeBudget(calls *[]time.Time, limit int) (retryAfter time.Duration, ok bool) {
	if limit < 0 {
		return 0, true
	}
	now := s.clock.Now()
	kept := (*calls)[:0]
	for _, t := range *calls {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	*calls = kept
	if len(kept) >= limit {
		return kept[0].Add(time.Hour).Sub(now), false
	}
	*calls = append(*calls, now)
	return 0, true
}

func writeRateLimited(w http.ResponseWriter, retryAfter time.Duration, limit int) {
	secs := int((retryAfter + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", fmt.Sprint(max(secs, 1)))
	w.Header().Set("X-RateLimit-Limit", fmt.Sprint(limit))
	w.Header().Set("X-RateLimit-Remaining", "0")
	writeError(w, http.StatusTooManyRequests, "Too many requests", fmt.Sprintf("rate limit of %d requests per hour exceeded", limit))
}

type errorDetail struct {
	Message string `json:"message"`
}

// writeError writes the API's error body: {"error": ..., "details": [...]}.
func writeError(w http.ResponseWriter, status int, msg string, details ...string) {
	body := struct {
		Error   string        `json:"error"`
		Details []errorDetail `json:"details,omitempty"`
	}{Error: msg}
	for _, d := range details {
		body.Details = append(body.Details, errorDetail{d})
	}
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
