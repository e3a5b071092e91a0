package mintlifytest

import (
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SearchRow is one search term, as the searches export sends it.
type SearchRow struct {
	Query          string  `json:"searchQuery"`
	Hits           int64   `json:"hits"`
	CTR            float64 `json:"ctr"`
	TopClickedPage *string `json:"topClickedPage"`
	LastSearchedAt string  `json:"lastSearchedAt"`
}

type searchesPage struct {
	Searches      []SearchRow `json:"searches"`
	TotalSearches int64       `json:"totalSearches"`
	NextCursor    *string     `json:"nextCursor"`
}

type searchResult struct {
	terms []SearchRow
	total int64
}

var searchTopics = []string{"authentication", "api keys", "webhooks", "rate limits", "pagination", "quickstart",
	"custom domain", "analytics", "search", "components", "openapi", "navigation", "themes", "sdk", "errors", "deploy"}

// term is search term i: a topic, numbered once every topic is used.
func (d *dataset) term(i int) string {
	t := searchTopics[i%len(searchTopics)]
	if n := i / len(searchTopics); n > 0 {
		t = fmt.Sprintf("%s %d", t, n+1)
	}
	if d.rnd(3, uint64(i))%4 == 0 { //nolint:gosec // non-negative index
		t = "how to " + t
	}
	return t
}

const wireTime = "2006-01-02T15:04:05.000Z"

// searches computes the terms searched in s: hits and clicks summed over
// its days, terms with no hit left out, most searched first.
func (d *dataset) searches(s span) searchResult {
	if d.rows.Searches != nil {
		return seededSearches(d.rows.Searches, s)
	}
	from, to := d.days(s)
	return cached(d, fmt.Sprintf("searches %d %d %s", from, to, d.clockKey()), func() searchResult {
		r := searchResult{terms: []SearchRow{}}
		for i := range d.cfg.SearchTerms {
			pop := uint64(1 + 200/math.Pow(float64(i+1), 0.8))
			var hits, clicks int64
			var last int // the last day with a hit
			for day := from; day < to; day++ {
				x := d.rnd(4, uint64(i)<<20^uint64(day)) //nolint:gosec // non-negative indexes
				h := d.arrived(day, int64(x%(pop+1)))    //nolint:gosec // at most 201
				if h > 0 {
					hits += h
					clicks += h * int64((x>>20)%100) / 100 //nolint:gosec // below 100
					last = day
				}
			}
			if hits == 0 {
				continue
			}
			row := SearchRow{Query: d.term(i), Hits: hits, CTR: math.Round(float64(clicks)/float64(hits)*10000) / 10000}
			if clicks > 0 && len(d.paths) > 0 {
				row.TopClickedPage = &d.paths[d.rnd(5, uint64(i))%uint64(len(d.paths))] //nolint:gosec // non-negative index
			}
			secs := d.rnd(6, uint64(i)<<20^uint64(last)) % 86400 //nolint:gosec // non-negative indexes
			row.LastSearchedAt = d.dayStart(last).Add(time.Duration(secs) * time.Second).Format(wireTime)
			r.terms = append(r.terms, row)
			r.total += hits
		}
		slices.SortFunc(r.terms, func(a, b SearchRow) int {
			return cmp.Or(cmp.Compare(b.Hits, a.Hits), strings.Compare(a.Query, b.Query))
		})
		return r
	})
}

// queryFingerprint names a query's selection (everything but paging), so
// a cursor is only honored by the query that gave it.
func queryFingerprint(p *params) string {
	var parts []string
	for _, k := range []string{"dateFrom", "dateTo", "source", "status"} {
		parts = append(parts, k+"="+p.q.Get(k))
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "&")))
	return hex.EncodeToString(sum[:6])
}

// The searches and feedback exports page by opaque cursors: here the
// offset of the next row and the query's fingerprint, encoded.
func encodeCursor(p *params, offset int) *string {
	c := base64.RawURLEncoding.EncodeToString([]byte(queryFingerprint(p) + ":" + strconv.Itoa(offset)))
	return &c
}

// cursorOffset reads the cursor parameter: 0 when absent; a cursor that
// this query did not give is a problem.
func cursorOffset(p *params) int {
	c := p.q.Get("cursor")
	if c == "" {
		return 0
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	fp, off, ok := strings.Cut(string(raw), ":")
	n, convErr := strconv.Atoi(off)
	if err != nil || !ok || convErr != nil || n < 1 || fp != queryFingerprint(p) {
		p.fail("cursor: Invalid cursor")
		return 0
	}
	return n
}

// cursorPageOf serves the rows from the cursor's offset, with the cursor
// of the rest when there is more.
func cursorPageOf[T any](p *params, rows []T, limit int) (page []T, next *string, hasMore bool) {
	offset := cursorOffset(p)
	page, hasMore = pageOf(rows, offset, limit)
	if hasMore {
		next = encodeCursor(p, offset+len(page))
	}
	return page, next, hasMore
}

func serveSearches(p *params, d *dataset) (int, any) {
	limit := p.number("limit", 1, 100, 50, false)
	r := d.searches(p.span())
	page, next, _ := cursorPageOf(p, r.terms, limit)
	return http.StatusOK, searchesPage{Searches: page, TotalSearches: r.total, NextCursor: next}
}
