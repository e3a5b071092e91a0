package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// The summary table of CONTRIBUTING.md sits between these markers; make bench
// rewrites what is between them, so the summary never quotes a figure that
// docs/performance.md (written by the same run) does not hold.
const (
	summaryStart = "<!-- make bench: summary start -->"
	summaryEnd   = "<!-- make bench: summary end -->"
)

// summary renders the summary table (CONTRIBUTING.md): one line per section of the report.
func (r *results) summary() string {
	var w strings.Builder
	row := func(what, result string, args ...any) {
		fmt.Fprintf(&w, "| %s | %s |\n", what, fmt.Sprintf(result, args...))
	}
	w.WriteString("| what | result |\n|---|---|\n")

	lo, hi, most := math.Inf(1), math.Inf(-1), 0
	for _, q := range r.reqs {
		lo, hi, most = math.Min(lo, q.ratio()), math.Max(hi, q.ratio()), max(most, q.paths)
	}
	if len(r.reqs) > 0 {
		ratio := fmt.Sprintf("ratio %.2f at every size", lo)
		if lo != hi {
			ratio = fmt.Sprintf("ratio %.2f to %.2f", lo, hi)
		}
		row(fmt.Sprintf("analytics requests per read, every paged data source, 0 to %s rows", thousands(most)),
			"ceil(rows / largest page): %s", ratio)
	}
	for _, s := range r.scales {
		adjusted := s.floorApply - s.floorGen
		row(fmt.Sprintf("`mintlify_%s`, %s rows: apply through HTTP vs the same rows from memory", s.source, thousands(s.paths)),
			"%s vs %s (%.2f); provider CPU %.2f× the floor's", round(s.apply), round(adjusted),
			float64(s.apply)/float64(max(adjusted, 1)), float64(s.cpu)/float64(max(s.floorCPU-s.floorGen, 1)))
	}
	if r.wait != nil {
		var late []string
		polls := 0.0
		for _, run := range []time.Duration{3 * time.Second, 30 * time.Second, 300 * time.Second} {
			m := r.wait["BenchmarkWaitForAgentJob/job="+run.String()]
			late = append(late, fmt.Sprintf("%.2f s", m["max-late-s"]))
			polls = math.Max(polls, m["max-polls"])
		}
		row("lateness noticing a finished job (3 s / 30 s / 300 s jobs, worst of 200)", "%s; at most %.0f polls", strings.Join(late, " / "), polls)
	}
	r.deploymentWaitSummary(row)
	if m := r.many; m != nil {
		ideal := time.Duration((m.jobs+m.parallelism-1)/m.parallelism) * m.jobTime
		row(fmt.Sprintf("%d jobs of %s in one apply (ideal %s)", m.jobs, m.jobTime, ideal), "%s", round(m.wall))
	}
	if s := r.soak; s != nil {
		row(fmt.Sprintf("fault soak: %d applies under random 429 / 502 / dropped connections / 2xx with mistyped fields", s.applies),
			"%d of %d succeeded; %d jobs in state, %d on the server; %d messages in state, %d on the server; %d misread results",
			s.applies-s.failed, s.applies, s.jobsInState, s.jobsOnServer, s.messagesInState, s.messagesOnServer, s.dataMismatches)
	}
	if c := r.cache; c != nil {
		row(fmt.Sprintf("analytics requests of %d terraform commands on %s paths", c.commands, thousands(c.paths)),
			"**%d** with the cache (its default), %d without", c.requestsDefault, c.requestsOff)
		row(fmt.Sprintf("`plan` then `apply` of %s paths", thousands(c.pairPaths)),
			"**%d** requests with the cache, %d without", c.pairDefault, c.pairOff)
	}
	if bu := r.budget; bu != nil {
		row(fmt.Sprintf("analytics requests of %d plans of a 7-data-source dashboard while the budget is spent", bu.plans),
			"**%d** (each plan shows the cached copy)", bu.spentRequests)
		waves := make([]string, len(bu.waves))
		for i, n := range bu.waves {
			waves[i] = fmt.Sprint(n)
		}
		row(fmt.Sprintf("%d runners at once, empty disks, one shared bucket (`cache_url`), %d paths", bu.runners, bu.fleetPaths),
			"**%s** requests per `cache_ttl` (one read: %d)", strings.Join(waves, "** and **"), bu.fleetRead)
		row(fmt.Sprintf("totals only (`max_results = 0`) of %s paths", thousands(bu.totalsPaths)),
			"**%d** request; state %s", bu.totalsRequests["unique_visitors"], bytesText(bu.totalsState["unique_visitors"]))
	}

	if d := r.download; d != nil {
		what, result := d.summaryRow()
		row(what, "%s", result)
	}
	if a := r.assistant; a != nil {
		a.summaryRows(row)
	}
	if pl := r.plans; pl != nil {
		pl.summaryRow(row)
	}
	if h := r.hostile; h != nil {
		h.summaryRows(row)
	}
	if d := r.daily; d != nil {
		d.summaryRows(row)
	}
	return w.String()
}

// thousands writes n with comma separators: 100000 is 100,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// spliceSummary puts table between the summary file's markers, replacing what
// was there, and leaves every other byte as it was.
func spliceSummary(summaryFile []byte, table string) ([]byte, error) {
	start := bytes.Index(summaryFile, []byte(summaryStart))
	end := bytes.Index(summaryFile, []byte(summaryEnd))
	if start < 0 || end < start {
		return nil, errors.New("the summary file has no " + summaryStart + " ... " + summaryEnd + " block, in that order")
	}
	var out bytes.Buffer
	out.Write(summaryFile[:start+len(summaryStart)])
	out.WriteString("\n" + table)
	out.Write(summaryFile[end:])
	return out.Bytes(), nil
}
