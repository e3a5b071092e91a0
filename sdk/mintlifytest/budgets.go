package mintlifytest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// A Budget is one of the API's published rate limits: so many requests
// per sliding window, per project or per organization. A route draws one
// request from each of its budgets (RouteInfo.Budgets); when one is spent
// the fake answers 429 with Retry-After (whole seconds, rounded up, at
// least 1: when the oldest request in the window leaves it),
// X-RateLimit-Limit and X-RateLimit-Remaining: 0, and takes nothing from
// the route's other budgets. Windows slide on the fake's clock.
//
// The budgets (../shared/API.md, "Rate limits"), by Name:
//
//   - agent-jobs: 100 agent job creations and follow-up messages per
//     project per hour;
//   - analytics: 100 requests per organization per hour, shared by every
//     analytics route;
//   - deployments: 10 requests per organization per 10 seconds, shared by
//     deployments (trigger update) and automation triggers;
//   - previews: 5 preview deployments per organization per minute;
//   - discovery: 10,000 requests per organization per hour, shared by
//     discovery search, page content and assistant messages;
//   - index-second and index-day: the Mintlify Index allows 10 requests
//     per second and 1,000 per day per organization; its routes draw from
//     both.
type Budget struct {
	Name string
	// Limit requests per Window (sliding).
	Limit  int
	Window time.Duration
	// PerProject budgets count each project's requests apart; the others
	// count the organization's.
	PerProject bool
	// Covers says which requests draw from it.
	Covers string
}

// The budgets' names, as routes draw from them.
const (
	budgetAgentJobs   = "agent-jobs"
	budgetAnalytics   = "analytics"
	budgetDeployments = "deployments"
	budgetPreviews    = "previews"
	budgetDiscovery   = "discovery"
	budgetIndexSecond = "index-second"
	budgetIndexDay    = "index-day"
)

// budgets is every budget and its published limit. To add a budget, add
// its name above, one line here and one to Budget's list; routes name it
// in their budgets (routeTable).
var budgets = []Budget{
	{budgetAgentJobs, 100, time.Hour, true, "agent job creations and follow-up messages"},
	{budgetAnalytics, 100, time.Hour, false, "every analytics endpoint"},
	{budgetDeployments, 10, 10 * time.Second, false, "deployments (trigger update) and automation triggers"},
	{budgetPreviews, 5, time.Minute, false, "preview deployments"},
	{budgetDiscovery, 10_000, time.Hour, false, "discovery search, page content and assistant messages"},
	{budgetIndexSecond, 10, time.Second, false, "Mintlify Index requests (per second)"},
	{budgetIndexDay, 1_000, 24 * time.Hour, false, "Mintlify Index requests (per day)"},
}

// Budgets lists every budget with its published limit.
func Budgets() []Budget { return slices.Clone(budgets) }

func budgetNamed(name string) (Budget, bool) {
	for _, b := range budgets {
		if b.Name == name {
			return b, true
		}
	}
	return Budget{}, false
}

// limitsOf resolves a configuration's limits: the published ones, then
// JobBudget and AnalyticsBudget, then Limits. 0 leaves a limit as it was;
// a negative one turns it off.
func limitsOf(cfg Config) map[string]int {
	limits := map[string]int{}
	for _, b := range budgets {
		limits[b.Name] = b.Limit
	}
	set := func(name string, n int) {
		if _, ok := budgetNamed(name); !ok {
			panic(fmt.Sprintf("mintlifytest: Config.Limits: no budget %q (see Budgets)", name))
		}
		if n != 0 {
			limits[name] = n
		}
	}
	set(budgetAgentJobs, cfg.JobBudget)
	set(budgetAnalytics, cfg.AnalyticsBudget)
	for b, n := range cfg.Limits {
		set(b, n)
	}
	return limits
}

// window is the requests a budget counted for one project or organization.
type window struct {
	budget string
	scope  string // "project " + id, or "org " + name
}

// refusal is why a request was refused: the budget that is spent for
// longest, and when it frees up.
type refusal struct {
	wait   time.Duration
	limit  int
	window time.Duration
}

// spend takes one request from each budget, or from none when one of them
// is spent: then it reports the one that frees up last. Called with s.mu
// held; p may be nil (a route with no project counts per organization).
func (s *Fake) spend(names []string, org string, p *project) (*refusal, bool) {
	now := s.clock.Now()
	var refused *refusal
	var take []window
	for _, name := range names {
		limit := s.limits[name]
		if limit < 0 {
			continue
		}
		spec, _ := budgetNamed(name)
		key := window{budget: name, scope: "org " + org}
		if spec.PerProject && p != nil {
			key.scope = "project " + p.id
		}
		calls := s.windows[key]
		kept := calls[:0]
		for _, t := range calls {
			if now.Sub(t) < spec.Window {
				kept = append(kept, t)
			}
		}
		s.windows[key] = kept
		if len(kept) >= limit {
			// A slot frees up when the oldest call leaves (a window never
			// holds more than its limit: limits do not change).
			wait := kept[0].Add(spec.Window).Sub(now)
			if refused == nil || wait > refused.wait {
				refused = &refusal{wait: wait, limit: limit, window: spec.Window}
			}
			continue
		}
		take = append(take, key)
	}
	if refused != nil {
		return refused, false
	}
	for _, key := range take {
		s.windows[key] = append(s.windows[key], now)
	}
	return nil, true
}

// ResetRateLimits forgets every request counted against every budget, for
// every project and organization: each window starts afresh now.
func (s *Fake) ResetRateLimits() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.windows)
}

// writeRateLimited answers 429 for a spent budget.
func writeRateLimited(w http.ResponseWriter, r *refusal) {
	w.Header().Set("Retry-After", fmt.Sprint(retryAfterSeconds(r.wait)))
	w.Header().Set("X-RateLimit-Limit", fmt.Sprint(r.limit))
	w.Header().Set("X-RateLimit-Remaining", "0")
	writeError(w, http.StatusTooManyRequests, "Too many requests",
		fmt.Sprintf("rate limit of %d requests per %s exceeded", r.limit, per(r.window)))
}

// retryAfterSeconds is a wait in whole seconds, rounded up, at least 1.
func retryAfterSeconds(d time.Duration) int64 {
	return max(int64((d+time.Second-1)/time.Second), 1)
}

// per names a window: "hour", "10s", "2h".
func per(d time.Duration) string {
	switch d {
	case time.Second:
		return "second"
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	case 24 * time.Hour:
		return "day"
	}
	return strings.TrimSuffix(d.String(), "0m0s")
}

// Per names the budget's window as its 429s do: "hour", "10s".
func (b Budget) Per() string { return per(b.Window) }
