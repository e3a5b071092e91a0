package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// capError is the SDK's error for a read stopped at a cap.
var capError = regexp.MustCompile(`getting search queries: [^;]*cap of [^;]*; stopped after \d+ requests`)

// endlessCase is one server that never stops paging, and what the
// provider did against it.
type endlessCase struct {
	name        string
	rowsPerPage int // terms in each answer, whatever the limit asked
	queryBytes  int // length of each term
	honorLimit  bool

	requests int
	rssKiB   int64
	wall     time.Duration
	stopped  string // the error's line naming the cap
}

// endlessCases are the servers: pages as asked (every row kept
// until the cap), larger answers than asked, and many small rows.
func endlessCases() []*endlessCase {
	return []*endlessCase{
		{name: "pages as asked: 100 terms of 1 KiB", rowsPerPage: 100, queryBytes: 1024, honorLimit: true},
		{name: "answers larger than asked: 1,000 terms of 1 KiB", rowsPerPage: 1000, queryBytes: 1024},
		{name: "1,000 small terms a page", rowsPerPage: 1000, queryBytes: 16},
	}
}

// endlessServer answers every searches request with a full page of new
// terms and a new cursor, forever.
func endlessServer(c *endlessCase) (url string, requests *atomic.Int64, closeFn func(), err error) {
	requests = &atomic.Int64{}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		rows := c.rowsPerPage
		if c.honorLimit {
			if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l < rows {
				rows = l
			}
		}
		type term struct {
			Query          string  `json:"searchQuery"`
			Hits           int     `json:"hits"`
			CTR            float64 `json:"ctr"`
			TopClickedPage *string `json:"topClickedPage"`
			LastSearchedAt string  `json:"lastSearchedAt"`
		}
		page := struct {
			Searches      []term `json:"searches"`
			TotalSearches int    `json:"totalSearches"`
			NextCursor    string `json:"nextCursor"`
		}{TotalSearches: 1 << 30, NextCursor: fmt.Sprintf("c%d", n)}
		pad := strings.Repeat("x", max(c.queryBytes-24, 0))
		for i := range rows {
			page.Searches = append(page.Searches, term{Query: fmt.Sprintf("q-%d-%d-%s", n, i, pad), Hits: 1, LastSearchedAt: "2026-11-20T00:00:00Z"})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(page)
	})
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, nil, err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), requests, func() { _ = srv.Close() }, nil
}

// measureEndless applies a mintlify_search_queries data source against
// each endless server: the read must stop at the client's cap with an
// error naming it, and the provider's peak RSS is the figure.
func (b *bench) measureEndless() ([]*endlessCase, error) {
	cases := endlessCases()
	for _, c := range cases {
		url, requests, stop, err := endlessServer(c)
		if err != nil {
			return nil, err
		}
		config := providerBlock(url, "") + "data \"mintlify_search_queries\" \"all\" {}\n"
		res, err := b.apply(config, b.provider)
		stop()
		if err == nil {
			return nil, fmt.Errorf("%s: the apply succeeded against a server that never stops paging", c.name)
		}
		c.requests, c.rssKiB, c.wall = int(requests.Load()), res.rssKiB, res.wall
		// Terraform wraps the error's lines: join them to find it whole.
		c.stopped = capError.FindString(strings.Join(strings.Fields(err.Error()), " "))
		if c.stopped == "" {
			return nil, fmt.Errorf("%s: the apply failed without naming a cap:\n%w", c.name, err)
		}
	}
	return cases, nil
}

// writeEndless writes the section on servers that never stop paging.
func (r *results) writeEndless(p func(format string, args ...any)) {
	p("## 10. A server that never stops paging\n\n")
	p("A `mintlify_search_queries` data source (cache off) applied against a stand-in for the API that answers every page with new terms and a new cursor, forever. The SDK stops a read at 1,000 requests or 64 MiB of answers (`DefaultMaxPagesPerRead`, `DefaultMaxBytesPerRead`), whichever comes first; the apply fails with an error naming the cap, caches nothing and writes nothing to state. Peak RSS is the provider process's high-water mark (`VmHWM`).\n\n")
	p("| server | requests until the stop | provider peak RSS | apply wall time |\n|---|---:|---:|---:|\n")
	for _, c := range r.endless {
		p("| %s | %d | %.0f MiB | %s |\n", c.name, c.requests, float64(c.rssKiB)/1024, round(c.wall))
	}
	if len(r.endless) > 0 {
		p("\nThe error, first case: `%s`\n\n", r.endless[0].stopped)
	}
}
