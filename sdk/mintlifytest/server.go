package mintlifytest

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Defaults of a new server: one organization, one project, one admin key.

// DemoAPIKey is the admin key of DemoOrg.
const DemoAPIKey = "mint_demo_0123456789abcdef"

// DemoProjectID is DemoOrg's project, with its analytics data set.
const DemoProjectID = "demo-project"

// DemoOrg is the demo organization.
const DemoOrg = "demo-org"

// Config sets up a Fake. The zero value is a usable server with the demo
// key and project and an empty visitor data set.
type Config struct {
	Clock Clock // nil: the real clock
	// JobBudget and AnalyticsBudget are the hourly rate limits of the
	// agent-jobs and analytics budgets (0: 100). A negative value turns
	// the limit off.
	JobBudget       int
	AnalyticsBudget int
	// Limits sets any budget's limit by its name (see Budget), after
	// JobBudget and AnalyticsBudget: 0 keeps the published limit, a
	// negative value turns the limit off. A budget that does not exist
	// panics.
	Limits map[string]int
	// DefaultJob is the lifecycle of jobs whose prompt carries no script
	// marker (zero value: active for 2 s, then completed with a PR).
	DefaultJob JobScript
	// Analytics is the demo project's data set (zero value: no data).
	Analytics Dataset
	// Faults are injected from the start, as by InjectFault.
	Faults []Fault
	// NoDemo leaves out the demo key and project.
	NoDemo bool
	// Pages are the demo documentation site's (DemoDomain) for the
	// discovery API and the Index; nil: DemoPages().
	Pages []DocPage
	// StaticExports sets up static exports: whether the organization has
	// them, their lifecycle and their bundles (StaticExportConfig).
	StaticExports StaticExportConfig
	// DefaultDeployment is the lifecycle of deployments and previews (zero
	// value: queued 1 s, building 4 s, success). PreviewsOffPlan takes
	// previews off every organization's plan: a preview trigger answers
	// 403.
	DefaultDeployment DeploymentScript
	PreviewsOffPlan   bool
	// OnRequest, when set, is called with each request once it is
	// answered (or abandoned: a stall the client gave up on, an endless
	// answer it hung up on), in the order they end, outside the fake's
	// lock, before the connection is handed back: keep it quick.
	// mintlify-fake's -log writes a line from it. The request is as
	// RequestLog has it: never the key.
	OnRequest func(LoggedRequest)
}

// Fake is the fake API. It is an http.Handler and safe for concurrent use.
type Fake struct {
	mux   *http.ServeMux
	clock Clock
	// stopping is closed by Stop: injected latency ends at once.
	stopping chan struct{}
	stopOnce sync.Once

	mu         sync.Mutex
	keys       map[string]keyInfo
	projects   map[string]*project
	limits     map[string]int
	windows    map[window][]time.Time // requests counted per budget and scope
	defaultJob JobScript
	jobSeq     uint64
	requestSeq uint64         // the last request id given
	requests   map[string]int // Route -> count
	log        []*logEntry
	faults     []*faultState
	disc       discovery // sites and answers: discovery.go
	exports    *exportState
	deploys    *deployState
	onRequest  func(LoggedRequest)
}

type keyInfo struct {
	org      string
	readOnly bool
	kind     keyKind // admin, assistant or Index: the API it opens
}

type project struct {
	id       string
	org      string
	repo     string
	jobs     map[string]*job
	jobOrder []string
	data     *dataset
}

// New returns the fake configured by cfg: an http.Handler, with its
// in-process Client and Transport; NewServer serves it on loopback.
func New(cfg Config) *Fake {
	return newFake(cfg, routeTable)
}

// newFake serves routes (tests add their own).
func newFake(cfg Config, routes []route) *Fake {
	s := &Fake{
		mux:        http.NewServeMux(),
		clock:      cfg.Clock,
		stopping:   make(chan struct{}),
		keys:       map[string]keyInfo{},
		projects:   map[string]*project{},
		limits:     limitsOf(cfg),
		windows:    map[window][]time.Time{},
		defaultJob: cfg.DefaultJob,
		requests:   map[string]int{},
		exports:    newExportState(cfg.StaticExports),
		deploys:    newDeployState(cfg),
		onRequest:  cfg.OnRequest,
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
		s.addDemoSite(cfg.Pages)
	}
	routes = slices.Clone(routes) // the table is shared by every Fake
	for i := range routes {
		rt := &routes[i]
		rt.wildcards = wildcards(rt.pattern)
		s.mux.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) { s.serveRoute(rt, w, r) })
	}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.serveRoute(&unmatched, w, r) })
	for _, f := range cfg.Faults {
		s.InjectFault(f)
	}
	return s
}

// Stop ends every injected latency, stall and Respond now and in the
// future (a Respond's request context ends), so that a server can shut
// down without waiting for them. Server.Close calls it.
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
		jobs: map[string]*job{}, data: newDataset(data, s.clock.Now),
	}
}

// SetDefaultJob sets the lifecycle of jobs whose prompt has no marker.
func (s *Fake) SetDefaultJob(js JobScript) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.defaultJob = js
}

// Requests returns how many requests arrived for a route (a Route
// constant, or RouteUnmatched), faulted ones included.
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

// ResetCounters zeroes the request counters and empties the log. Request
// ids keep counting up.
func (s *Fake) ResetCounters() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.requests)
	s.log = nil
}

// ServeHTTP logs the request, gives it its request id, and hands it to its
// route (serveRoute).
func (s *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e := s.arrive(r)
	w.Header().Set("X-Request-Id", e.RequestID)
	tw := &tracker{ResponseWriter: w, s: s, e: e}
	s.mux.ServeHTTP(tw, r.WithContext(context.WithValue(r.Context(), entryKey{}, e)))
	s.mu.Lock()
	if !e.claimed { // the mux answered itself (a redirect to the clean path)
		s.requests[RouteUnmatched]++
	}
	e.done = true
	done := e.LoggedRequest
	done.PathValues = maps.Clone(e.PathValues)
	s.mu.Unlock()
	if s.onRequest != nil {
		s.onRequest(done)
	}
}

// serveRoute counts the request, applies any matching fault, checks the
// key, the project and the budgets, and calls the route's handler.
func (s *Fake) serveRoute(rt *route, w http.ResponseWriter, r *http.Request) {
	e, _ := r.Context().Value(entryKey{}).(*logEntry)
	if e == nil { // the mux reached without ServeHTTP: cannot happen
		e = &logEntry{}
	}
	values := map[string]string{}
	for _, name := range rt.wildcards {
		values[name] = r.PathValue(name)
	}
	s.mu.Lock()
	e.claimed = true
	e.Route = rt.pattern
	if len(values) > 0 {
		e.PathValues = values
		e.ProjectID = values["projectId"]
		e.JobID = cmp.Or(values["jobId"], values["id"])
	}
	s.requests[rt.pattern]++
	fault := s.matchFault(rt.pattern, r.Method)
	if fault != nil {
		e.Fault = fault.Kind
	}
	s.mu.Unlock()
	if fault != nil && fault.Respond != nil {
		s.respond(fault.Respond, rt, w, r)
		return
	}
	if fault != nil && fault.apply(w, r, s.stopping) {
		return // the fault answered
	}
	s.answer(rt, fault, w, r)
}

// respond hands a request to a fault's Respond, with the route's own
// answer to call. The request's context ends when the client hangs up or
// the fake stops; a stopped fake breaks the connection, so that an answer
// cut short never looks whole.
func (s *Fake) respond(respond func(http.ResponseWriter, *http.Request, http.Handler), rt *route, w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.stopping:
			cancel()
		case <-ctx.Done():
		}
	}()
	respond(w, r.WithContext(ctx), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.answer(rt, nil, w, r) }))
	select {
	case <-s.stopping:
		breakConn(w)
	default:
	}
}

// answer admits a request (key, project, budgets) and serves it; fault,
// when not nil, is a reset, a slow stream or an odd field to play on it.
func (s *Fake) answer(rt *route, fault *faultState, w http.ResponseWriter, r *http.Request) {
	rec := newRecorder()
	s.mu.Lock()
	org, p, admitted := s.admit(rt, rec, r)
	if admitted && !rt.stream {
		rt.serve(s, rec, r, org, p)
	}
	s.mu.Unlock()
	if admitted && rt.stream {
		// A streaming route answers as it goes, unlocked; a reset cuts
		// its end off. It sees its fault (a reset, a slow stream).
		if fault != nil {
			r = r.WithContext(context.WithValue(r.Context(), faultKey{}, fault.Fault))
		}
		rt.serve(s, w, r, org, p)
		if fault != nil && fault.Kind == FaultReset {
			_ = http.NewResponseController(w).Flush()
			breakConn(w)
		}
		return
	}
	if fault != nil && fault.Kind == FaultReset {
		rec.cut(w)
		return
	}
	if !admitted {
		reshapeError(rt.area, rec) // each API's error body
	}
	if fault != nil && fault.Kind == FaultOddField && max(rec.status, http.StatusOK)/100 == 2 {
		odd := oddField(rec.body.Bytes(), fault.Field)
		rec.body.Reset()
		rec.body.Write(odd)
	}
	rec.send(w)
}

// admit checks a request with s.mu held: the route (404), the key (401,
// 403), the project (404) and the budgets (429). When one fails it answers
// into w (a recorder); else it returns the key's organization and the
// project (nil when the route has none).
func (s *Fake) admit(rt *route, w http.ResponseWriter, r *http.Request) (org string, p *project, ok bool) {
	if rt.serve == nil {
		writeError(w, http.StatusNotFound, "Not found", "no route for "+r.Method+" "+r.URL.Path)
		return "", nil, false
	}
	if rt.keyless {
		return "", nil, true
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	key, known := s.keys[token]
	if !ok || token == "" || !known {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mintlify"`)
		writeError(w, http.StatusUnauthorized, "Unauthorized", "missing, invalid or expired API key")
		return "", nil, false
	}
	if want := keyKindOf(rt.area); key.kind != want {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mintlify"`)
		writeError(w, http.StatusUnauthorized, "Unauthorized", want.refuse(key.kind))
		return "", nil, false
	}
	if key.readOnly && r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusForbidden, "Forbidden", "this API key is read-only")
		return "", nil, false
	}
	if slices.Contains(rt.wildcards, "projectId") {
		p = s.projects[r.PathValue("projectId")]
		if p == nil || p.org != key.org {
			writeError(w, http.StatusNotFound, "Project not found")
			return "", nil, false
		}
	}
	if refused, ok := s.spend(rt.budgets, key.org, p); !ok {
		writeRateLimited(w, refused)
		return "", nil, false
	}
	return key.org, p, true
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
