package mintlifytest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Mintlify Index (index-openapi.json, server
// https://leaves.mintlify.com/api/universal-search): search, context and
// contents over every site's public pages (source "mintlify") and a few web
// pages (source "web"), with an Index key. The fake serves it under
// /api/universal-search on its one host.

// Routes of Mintlify Index.

// RouteIndexSearch is the route of the SDK's IndexClient.Search.
const RouteIndexSearch = "POST /api/universal-search/v1/search"

// RouteIndexContext is the route of the SDK's IndexClient.Context.
const RouteIndexContext = "POST /api/universal-search/v1/context"

// RouteIndexContents is the route of the SDK's IndexClient.Contents.
const RouteIndexContents = "POST /api/universal-search/v1/contents"

// indexDoc is one document of the Index.
type indexDoc struct {
	// ID is "<site>:<path>" for Mintlify documents, the URL for web pages.
	ID          string
	URL         string
	Title       string
	Text        string
	Source      string // "mintlify" or "web"
	SiteName    string
	Breadcrumbs []string
	// Published is the source's date as it gives it ("" for none).
	Published string
}

// webDocs are the Index's web pages.
var webDocs = []indexDoc{
	{ID: "https://blog.example.com/docs-as-code", URL: "https://blog.example.com/docs-as-code", Title: "Docs as code with Mintlify", Source: "web",
		SiteName: "blog.example.com", Published: "2026-03-14", Text: "# Docs as code\n\nKeep your documentation in Git and deploy it on every push. " +
			"Preview deployments let reviewers read a branch before it merges.\n\nSearch and the AI assistant answer readers from the same pages."},
	{ID: "https://forum.example.org/t/search-api-tips", URL: "https://forum.example.org/t/search-api-tips", Title: "Search API tips", Source: "web",
		SiteName: "forum.example.org", Published: "2026-05-02T09:30:00Z", Text: "# Search API tips\n\nUse a score threshold to drop weak matches, " +
			"and page sizes up to 50 for broad queries. An assistant key is enough; search costs no credits."},
}

// indexDocs is the Index: every site's public pages, sorted by id, then
// the web pages.
func (s *Fake) indexDocs() []indexDoc {
	var out []indexDoc
	domains := make([]string, 0, len(s.disc.sites))
	for d := range s.disc.sites {
		domains = append(domains, d)
	}
	slices.Sort(domains)
	for _, d := range domains {
		for _, p := range s.disc.sites[d].pages {
			if len(p.Groups) > 0 {
				continue
			}
			var crumbs []string
			segs := strings.Split(strings.Trim(p.Path, "/"), "/")
			for _, seg := range segs[:len(segs)-1] {
				crumbs = append(crumbs, strings.ToUpper(seg[:1])+seg[1:])
			}
			out = append(out, indexDoc{ID: d + ":" + p.Path, URL: sourceURL(d, &p), Title: p.Title, Text: p.Content,
				Source: "mintlify", SiteName: d, Breadcrumbs: crumbs})
		}
	}
	return append(out, webDocs...)
}

// indexResult is a result as the Index sends it.
type indexResult struct {
	ID              string   `json:"id"`
	URL             string   `json:"url"`
	Title           string   `json:"title"`
	Text            string   `json:"text"`
	Truncated       bool     `json:"truncated"`
	TotalCharacters int      `json:"totalCharacters"`
	Score           float64  `json:"score"`
	Source          string   `json:"source"`
	SiteName        string   `json:"siteName"`
	Breadcrumbs     []string `json:"breadcrumbs"`
	PublishedDate   *string  `json:"publishedDate"`
}

// result is doc as a result: its text cut to maxChars runes (0: whole;
// -1: none).
func (d indexDoc) result(score float64, maxChars int, normalizeDate bool) indexResult {
	r := indexResult{ID: d.ID, URL: d.URL, Title: d.Title, Score: score, Source: d.Source, SiteName: d.SiteName,
		Breadcrumbs: d.Breadcrumbs, TotalCharacters: utf8.RuneCountInString(d.Text)}
	if r.Breadcrumbs == nil {
		r.Breadcrumbs = []string{}
	}
	switch {
	case maxChars < 0:
	case maxChars == 0 || maxChars >= r.TotalCharacters:
		r.Text = d.Text
	default:
		r.Text, r.Truncated = string([]rune(d.Text)[:maxChars]), true
	}
	if d.Published != "" {
		date := d.Published
		if normalizeDate && len(date) == len("2006-01-02") {
			date += "T00:00:00.000Z"
		}
		r.PublishedDate = &date
	}
	return r
}

// hostIn reports whether u's host is one of domains or under one.
func hostIn(u string, domains []string) bool {
	parsed, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := parsed.Hostname()
	for _, d := range domains {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	return false
}

// rankIndex ranks the Index's documents for a query within the domains.
func rankIndex(docs []indexDoc, query string, include, exclude []string) []struct {
	doc   indexDoc
	score float64
} {
	pages := make([]DocPage, 0, len(docs))
	byID := map[string]indexDoc{}
	for _, d := range docs {
		if (len(include) > 0 && !hostIn(d.URL, include)) || hostIn(d.URL, exclude) {
			continue
		}
		pages = append(pages, DocPage{Path: d.ID, Title: d.Title, Content: d.Text})
		byID[d.ID] = d
	}
	var out []struct {
		doc   indexDoc
		score float64
	}
	for _, r := range rank(pages, query, pageFilter{}) {
		out = append(out, struct {
			doc   indexDoc
			score float64
		}{byID[r.page.Path], r.score})
	}
	return out
}

// badIndexRequest writes the Index's 400: {"error": ...}.
func badIndexRequest(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusBadRequest, struct {
		Error string `json:"error"`
	}{msg})
}

// domainLists are the domain filters of a search or context request.
type domainLists struct {
	IncludeDomains []string `json:"includeDomains"`
	ExcludeDomains []string `json:"excludeDomains"`
}

func (d domainLists) check() error {
	for name, l := range map[string][]string{"includeDomains": d.IncludeDomains, "excludeDomains": d.ExcludeDomains} {
		if l != nil && len(l) == 0 {
			return errors.New(name + ": must hold at least one domain")
		}
		if slices.Contains(l, "") {
			return errors.New(name + ": a domain must not be empty")
		}
	}
	return nil
}

// positive reads an optional whole number from 1 to hi (hi 0: no bound).
func positive(name string, v *float64, hi int) (int, error) {
	if v == nil {
		return 0, nil
	}
	n := int(*v)
	if float64(n) != *v || n < 1 || (hi > 0 && n > hi) {
		if hi > 0 {
			return 0, fmt.Errorf("%s: must be an integer from 1 to %d", name, hi)
		}
		return 0, fmt.Errorf("%s: must be an integer of at least 1", name)
	}
	return n, nil
}

func requestID(r *http.Request) string {
	if e, _ := r.Context().Value(entryKey{}).(*logEntry); e != nil && e.RequestID != "" {
		return "idx_" + e.RequestID
	}
	return "idx_request"
}

func (s *Fake) indexSearch(w http.ResponseWriter, r *http.Request, _ string, _ *project) {
	var b struct {
		Query      *string         `json:"query"`
		NumResults *float64        `json:"numResults"`
		Text       json.RawMessage `json:"text"`
		domainLists
	}
	if err := readBody(r, &b, true); err != nil {
		badIndexRequest(w, "Invalid request body: "+err.Error())
		return
	}
	n, err := positive("numResults", b.NumResults, 20)
	maxChars := -1 // text: false, the default
	switch {
	case err != nil:
	case b.Query == nil || *b.Query == "":
		err = errors.New("query: Required")
	case b.NumResults == nil:
		err = errors.New("numResults: Required")
	case string(b.Text) == "true":
		maxChars = 0
	case len(b.Text) > 0 && b.Text[0] == '{':
		var t struct {
			MaxCharacters *float64 `json:"maxCharacters"`
		}
		if err = json.Unmarshal(b.Text, &t); err == nil {
			maxChars, err = positive("text.maxCharacters", t.MaxCharacters, 0)
			if t.MaxCharacters == nil {
				err = errors.New("text.maxCharacters: Required")
			}
		}
	case len(b.Text) > 0 && string(b.Text) != "false":
		err = errors.New("text: must be true, false or {maxCharacters}")
	}
	if err == nil {
		err = b.check()
	}
	if err != nil {
		badIndexRequest(w, "Invalid request body: "+err.Error())
		return
	}
	results := []indexResult{}
	for _, r := range rankIndex(s.indexDocs(), *b.Query, b.IncludeDomains, b.ExcludeDomains) {
		if len(results) == n {
			break
		}
		results = append(results, r.doc.result(r.score, maxChars, true))
	}
	writeJSON(w, http.StatusOK, struct {
		RequestID string        `json:"requestId"`
		Results   []indexResult `json:"results"`
	}{requestID(r), results})
}

// tokens estimates a text's tokens: one per four characters, rounded up.
func tokens(s string) int { return (len(s) + 3) / 4 }

func (s *Fake) indexContext(w http.ResponseWriter, r *http.Request, _ string, _ *project) {
	var b struct {
		Query       *string  `json:"query"`
		Product     *string  `json:"product"`
		Format      *string  `json:"format"`
		TokenBudget *float64 `json:"tokenBudget"`
		domainLists
	}
	if err := readBody(r, &b, true); err != nil {
		badIndexRequest(w, "Invalid request body: "+err.Error())
		return
	}
	budget, err := positive("tokenBudget", b.TokenBudget, 6000)
	switch {
	case err != nil:
	case b.Query == nil || *b.Query == "":
		err = errors.New("query: Required")
	case b.Format == nil:
		err = errors.New("format: Required")
	case *b.Format != "txt" && *b.Format != "json":
		err = errors.New(`format: must be "txt" or "json"`)
	case b.Product != nil && *b.Product == "":
		err = errors.New("product: must not be empty")
	}
	if err == nil {
		err = b.check()
	}
	if err != nil {
		badIndexRequest(w, "Invalid request body: "+err.Error())
		return
	}
	if budget == 0 {
		budget = 3000
	}
	query := *b.Query
	if b.Product != nil {
		query += " " + *b.Product
	}
	type item struct {
		Title string `json:"title"`
		URL   string `json:"url"`
		Text  string `json:"text"`
	}
	var md strings.Builder
	var items []item
	response := ""
	for _, r := range rankIndex(s.indexDocs(), query, b.IncludeDomains, b.ExcludeDomains) {
		if *b.Format == "json" {
			next := append(slices.Clone(items), item{r.doc.Title, r.doc.URL, r.doc.Text})
			out, _ := json.Marshal(struct {
				Results []item `json:"results"`
			}{next})
			if tokens(string(out)) > budget {
				break
			}
			items, response = next, string(out)
			continue
		}
		section := fmt.Sprintf("### %s\n\nSource: %s\n\n%s\n\n--------------------------------\n\n", r.doc.Title, r.doc.URL, r.doc.Text)
		if tokens(md.String()+section) > budget {
			break
		}
		md.WriteString(section)
		items = append(items, item{})
		response = md.String()
	}
	writeJSON(w, http.StatusOK, struct {
		RequestID    string `json:"requestId"`
		Query        string `json:"query"`
		Response     string `json:"response"`
		ResultsCount int    `json:"resultsCount"`
		OutputTokens int    `json:"outputTokens"`
	}{requestID(r), *b.Query, response, len(items), tokens(response)})
}

func (s *Fake) indexContents(w http.ResponseWriter, r *http.Request, _ string, _ *project) {
	var b struct {
		URLs          []string `json:"urls"`
		IDs           []string `json:"ids"`
		MaxCharacters *float64 `json:"maxCharacters"`
		Query         *string  `json:"query"`
	}
	if err := readBody(r, &b, true); err != nil {
		badIndexRequest(w, "Invalid request body: "+err.Error())
		return
	}
	maxChars, err := positive("maxCharacters", b.MaxCharacters, 0)
	switch {
	case err != nil:
	case b.URLs == nil && b.IDs == nil:
		err = errors.New("provide ids or urls")
	case (b.URLs != nil && len(b.URLs) == 0) || (b.IDs != nil && len(b.IDs) == 0):
		err = errors.New("ids and urls must not be empty lists")
	case len(b.URLs)+len(b.IDs) > 20:
		badIndexRequest(w, "A request may reference at most 20 items across urls and ids")
		return
	case b.Query != nil && *b.Query == "":
		err = errors.New("query: must not be empty")
	}
	for _, u := range b.URLs {
		if p, perr := url.Parse(u); err == nil && (perr != nil || p.Scheme == "" || p.Host == "") {
			err = fmt.Errorf("urls: %q is not a URL", u)
		}
	}
	if err != nil {
		badIndexRequest(w, "Invalid request body: "+err.Error())
		return
	}
	docs := s.indexDocs()
	type status struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Error  *struct {
			Tag            string `json:"tag"`
			HTTPStatusCode *int   `json:"httpStatusCode"`
		} `json:"error,omitempty"`
	}
	results, statuses := []indexResult{}, []status{}
	find := func(asked string, match func(indexDoc) bool) {
		i := slices.IndexFunc(docs, match)
		if i < 0 {
			code := http.StatusNotFound
			st := status{ID: asked, Status: "error"}
			st.Error = &struct {
				Tag            string `json:"tag"`
				HTTPStatusCode *int   `json:"httpStatusCode"`
			}{"NOT_FOUND", &code}
			statuses = append(statuses, st)
			return
		}
		d := docs[i]
		if b.Query != nil && maxChars > 0 && utf8.RuneCountInString(d.Text) > maxChars {
			// The query chooses where the cut text starts: at its best
			// paragraph.
			p := DocPage{Content: d.Text}
			if best := snippet(&p, *b.Query); best != "" {
				d.Text = d.Text[strings.Index(d.Text, best):]
			}
		}
		res := d.result(0, maxChars, false)
		res.TotalCharacters = utf8.RuneCountInString(docs[i].Text)
		results = append(results, res)
		statuses = append(statuses, status{ID: asked, Status: "success"})
	}
	for _, id := range b.IDs {
		find(id, func(d indexDoc) bool { return d.Source == "mintlify" && d.ID == id })
	}
	for _, u := range b.URLs {
		find(u, func(d indexDoc) bool { return d.URL == u })
	}
	writeJSON(w, http.StatusOK, struct {
		RequestID string        `json:"requestId"`
		Results   []indexResult `json:"results"`
		Statuses  []status      `json:"statuses"`
	}{requestID(r), results, statuses})
}
