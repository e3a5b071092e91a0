package mintlifytest

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// The documentation sites the discovery API and Mintlify Index serve: a
// deterministic corpus, ranked the same way every time.

// Defaults of a new server's documentation site and its keys.

// DemoDomain is the demo site's domain identifier (demo-docs.mintlify.site).
const DemoDomain = "demo-docs"

// DemoAssistantKey is an assistant key of DemoOrg, for the discovery
// API (search, page content, the assistant).
const DemoAssistantKey = "mint_dsc_demo_0123456789abcdef"

// DemoIndexKey is a Mintlify Index key of DemoOrg.
const DemoIndexKey = "mint_us_demo_0123456789abcdef"

// DocPage is one page of a documentation site.
type DocPage struct {
	// Path is the page's path ("/quickstart"), as search results give it.
	Path  string
	Title string
	// Content is the page's full text (Markdown).
	Content string
	// Version, Language and Tag are what search filters match ("" matches
	// no filter on that field but is found without one).
	Version  string
	Language string
	Tag      string
	// Groups, when set, are the only groups that may see the page (a site
	// with authentication); nil: a public page.
	Groups []string
}

// DemoPages is the demo site's corpus: every page of DemoDomain.
func DemoPages() []DocPage {
	return []DocPage{
		{Path: "/quickstart", Title: "Quickstart", Language: "en", Tag: "getting-started", Content: "# Quickstart\n\n" +
			"Install the Mintlify CLI with npm: `npm i -g mint`. Then run `mint dev` in the folder that holds docs.json to preview your docs at http://localhost:3000.\n\n" +
			"When the preview looks right, push to your deployment branch: Mintlify deploys every push."},
		{Path: "/installation", Title: "Installation", Language: "en", Tag: "getting-started", Content: "# Installation\n\n" +
			"The CLI needs Node.js 20 or later. Install it globally with npm or pnpm, then check the install with `mint --version`.\n\n" +
			"Upgrade the CLI with `mint update`."},
		{Path: "/deploy/deployments", Title: "Deployments", Language: "en", Tag: "deploy", Content: "# Deployments\n\n" +
			"Every push to the deployment branch starts a deployment. A deployment builds the site, checks its links and publishes it in about a minute.\n\n" +
			"Trigger a deployment from CI with the admin API: POST /v1/project/update/{projectId}."},
		{Path: "/deploy/preview-deployments", Title: "Preview deployments", Language: "en", Tag: "deploy", Content: "# Preview deployments\n\n" +
			"A preview deployment publishes a branch at its own URL, for review before merging. Pushing the branch again redeploys the preview under the same URL."},
		{Path: "/api/keys", Title: "API keys", Language: "en", Tag: "api", Content: "# API keys\n\n" +
			"Admin keys start with mint_ and reach the admin API. Assistant keys start with mint_dsc_ and reach search, page content and the assistant. Index keys start with mint_us_.\n\n" +
			"Create and revoke keys on the API keys page of the dashboard."},
		{Path: "/api/search", Title: "Search API", Language: "en", Tag: "api", Content: "# Search API\n\n" +
			"Search your documentation with an assistant key: POST /v1/search/{domain} with a query. Results come best first, with the page path and the matching content.\n\n" +
			"Search requests cost no credits."},
		{Path: "/ai/assistant", Title: "AI assistant", Language: "en", Tag: "ai", Content: "# AI assistant\n\n" +
			"The assistant answers readers' questions from your documentation and cites its sources. Each assistant message costs credits.\n\n" +
			"Answers stream as they are written."},
		{Path: "/analytics/overview", Title: "Analytics", Language: "en", Tag: "analytics", Content: "# Analytics\n\n" +
			"Analytics show visitors, page views, searches and feedback. Export them with the analytics API: 100 requests per organization per hour."},
		{Path: "/changelog/v1", Title: "Changelog v1", Version: "v1", Language: "en", Tag: "changelog", Content: "# Changelog v1\n\n" +
			"Version 1 introduced the mint.json configuration file and the first search."},
		{Path: "/changelog/v2", Title: "Changelog v2", Version: "v2", Language: "en", Tag: "changelog", Content: "# Changelog v2\n\n" +
			"Version 2 replaces mint.json with docs.json. Breaking changes: the navigation moves under navigation.tabs."},
		{Path: "/fr/quickstart", Title: "Prise en main", Language: "fr", Tag: "getting-started", Content: "# Prise en main\n\n" +
			"Installez la CLI Mintlify avec npm : `npm i -g mint`, puis lancez `mint dev`."},
		{Path: "/internal/runbook", Title: "Support runbook", Language: "en", Tag: "internal", Groups: []string{"staff"}, Content: "# Support runbook\n\n" +
			"Staff only. To rotate a customer's API key, revoke it on the API keys page and create a new one; deployments are not affected."},
	}
}

// site is a documentation site of an organization.
type site struct {
	domain string
	org    string
	pages  []DocPage
}

// findPage returns the page at path (a leading or trailing slash makes no
// difference), or nil.
func (st *site) findPage(path string) *DocPage {
	want := strings.Trim(path, "/")
	for i := range st.pages {
		if strings.Trim(st.pages[i].Path, "/") == want {
			return &st.pages[i]
		}
	}
	return nil
}

// visible reports whether a reader with groups may see p.
func (p *DocPage) visible(groups []string) bool {
	if len(p.Groups) == 0 {
		return true
	}
	for _, g := range groups {
		if slices.Contains(p.Groups, g) {
			return true
		}
	}
	return false
}

// pageFilter is what a search or an answer may draw on.
type pageFilter struct {
	Version  string   `json:"version"`
	Language string   `json:"language"`
	Tag      string   `json:"tag"`
	Groups   []string `json:"groups"`
}

func (f pageFilter) admits(p *DocPage) bool {
	return (f.Version == "" || p.Version == f.Version) && (f.Language == "" || p.Language == f.Language) &&
		(f.Tag == "" || p.Tag == f.Tag) && p.visible(f.Groups)
}

// stopWords are left out of queries: they would match every page.
var stopWords = map[string]bool{"a": true, "an": true, "and": true, "the": true, "to": true, "of": true, "in": true,
	"is": true, "it": true, "i": true, "do": true, "how": true, "what": true, "my": true, "with": true, "for": true,
	"on": true, "can": true, "does": true, "you": true, "your": true, "or": true, "be": true}

// terms splits text into lower-case words of letters and digits, without
// stop words, each once, in order.
func terms(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !stopWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// matches reports whether a query term matches one of words: the word
// itself, its plural, or (for terms of 4 letters or more) a word it
// starts with an English ending ("deploy": deploys, deployment,
// deployments; "install": installation, not installez); a plural term,
// its singular's.
func matches(term string, words []string) bool {
	// A plural term matches its singular too ("deployments": deployment).
	if singular, ok := strings.CutSuffix(term, "s"); ok && len(singular) >= 4 && matches(singular, words) {
		return true
	}
	for _, w := range words {
		if w == term || w == term+"s" || w == term+"es" {
			return true
		}
		if rest, ok := strings.CutPrefix(w, term); ok && len(term) >= 4 && slices.Contains(endings, rest) {
			return true
		}
	}
	return false
}

// endings are the English word endings a term of 4 letters or more
// matches with.
var endings = []string{"ed", "er", "ers", "ing", "ment", "ments", "ation", "ations"}

// scored is a page and how well it matches a query.
type scored struct {
	page  *DocPage
	score float64
}

// rank scores every page the filter admits against the query: a term in
// the title counts 2, in the content 1 (see matches), and the score is the
// share of the most a page could get, rounded to 2 places. Pages that
// match nothing are left out; ties go by path, so the order never varies.
func rank(pages []DocPage, query string, f pageFilter) []scored {
	q := terms(query)
	if len(q) == 0 {
		return nil
	}
	var out []scored
	for i := range pages {
		p := &pages[i]
		if !f.admits(p) {
			continue
		}
		title, content := terms(p.Title), terms(p.Content)
		points := 0
		for _, t := range q {
			if matches(t, title) {
				points += 2
			}
			if matches(t, content) {
				points++
			}
		}
		if points == 0 {
			continue
		}
		out = append(out, scored{page: p, score: math.Round(float64(points)/float64(3*len(q))*100) / 100})
	}
	slices.SortStableFunc(out, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.page.Path, b.page.Path)
	})
	return out
}

// snippet is the paragraph of p that matches the query best (the first of
// the best), without its heading: what a search result shows.
func snippet(p *DocPage, query string) string {
	q := terms(query)
	best, bestN := "", -1
	for _, para := range strings.Split(p.Content, "\n\n") {
		if strings.HasPrefix(para, "#") {
			continue
		}
		words, n := terms(para), 0
		for _, t := range q {
			if matches(t, words) {
				n++
			}
		}
		if n > bestN {
			best, bestN = para, n
		}
	}
	return best
}

// firstSentence is the first sentence of text.
func firstSentence(text string) string {
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}
