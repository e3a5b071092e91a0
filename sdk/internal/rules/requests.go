package rules

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// WebURL reports whether s is an absolute http(s) URL without
// credentials: the only kind of link the SDK sends or hands on.
func WebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// Search checks a discovery search: a query, a page size up to
// maxPageSize (0: the API's), a threshold (when set) from 0 to 1, no
// empty group.
func Search(query string, pageSize, maxPageSize int, threshold *float64, groups []string) *Broken {
	if b := NonEmpty("query", query); b != nil {
		return b
	}
	if b := UpTo("pageSize", pageSize, maxPageSize); b != nil {
		return b
	}
	if threshold != nil {
		if b := Score(*threshold); b != nil {
			return b
		}
	}
	return Groups("filter.groups", groups)
}

// domains checks an Index request's domains: no empty name, the included
// first.
func domains(include, exclude []string) *Broken {
	if b := Groups("includeDomains", include); b != nil {
		return b
	}
	return Groups("excludeDomains", exclude)
}

// IndexSearch checks a search of Mintlify Index: a query, up to
// maxResults results (0: the default), a cut of 0 or more characters.
func IndexSearch(query string, numResults, maxResults, maxCharacters int, include, exclude []string) *Broken {
	if b := NonEmpty("query", query); b != nil {
		return b
	}
	if b := UpTo("numResults", numResults, maxResults); b != nil {
		return b
	}
	if b := noCut("text.maxCharacters", maxCharacters); b != nil {
		return b
	}
	return domains(include, exclude)
}

// IndexContext checks a context request: a query, a product (when set)
// not only white space, the format "txt" or "json" ("" for txt), a token
// budget up to maxBudget (0: the API's).
func IndexContext(query, product, format string, budget, maxBudget int, include, exclude []string) *Broken {
	if b := NonEmpty("query", query); b != nil {
		return b
	}
	if product != "" {
		if b := NonEmpty("product", product); b != nil {
			return b
		}
	}
	if format != "" && format != "txt" && format != "json" {
		return &Broken{Field: "format", Value: format, Rule: `must be "txt" or "json"`}
	}
	if b := UpTo("tokenBudget", budget, maxBudget); b != nil {
		return b
	}
	return domains(include, exclude)
}

// IndexContents checks a contents request: 1 to maxItems ids and URLs
// together, no empty id, each URL an absolute http(s) one, a cut of 0 or
// more characters, a query (when set) not only white space.
func IndexContents(ids, urls []string, maxItems, maxCharacters int, query string) *Broken {
	n := len(ids) + len(urls)
	switch {
	case n == 0:
		return &Broken{Field: "ids", Rule: "or urls is required: name at least one result"}
	case n > maxItems:
		return &Broken{Field: "ids", Value: strconv.Itoa(n), Rule: fmt.Sprintf("and urls name %d items together; the API takes at most %d", n, maxItems)}
	}
	for i, id := range ids {
		if b := NonEmpty(fmt.Sprintf("ids[%d]", i), id); b != nil {
			return b
		}
	}
	for i, u := range urls {
		if !WebURL(u) {
			return &Broken{Field: fmt.Sprintf("urls[%d]", i), Value: u, Rule: "is not an absolute http(s) URL"}
		}
	}
	if b := noCut("maxCharacters", maxCharacters); b != nil {
		return b
	}
	if query != "" {
		return NonEmpty("query", query)
	}
	return nil
}

// Message is what the rules read of an assistant request's message.
type Message struct{ Role, Text string }

// Context is what the rules read of something an assistant request is
// about.
type Context struct{ Type, Value string }

// Assistant is an assistant request as its rules read it.
type Assistant struct {
	Protocol          string // "" (v2), "v2" or "v1"
	Question          string
	Messages          []Message
	RetrievalPageSize int
	Groups            []string
	Context           []Context
	CurrentPath       string
	MaxCurrentPath    int // in characters
}

// Check checks an assistant request: a known protocol, a question or
// messages, each message's role and text, a retrieval page size of 0 or
// more, groups (v2 only) not empty, each context's type and value, the
// current path's length.
func (r Assistant) Check() *Broken {
	switch r.Protocol {
	case "", "v2", "v1":
	default:
		return &Broken{Field: "protocol", Value: r.Protocol, Rule: `must be "v2" or "v1"`}
	}
	if len(r.Messages) == 0 && strings.TrimSpace(r.Question) == "" {
		return &Broken{Field: "question", Rule: "is required: set Question (or Messages) to what the user asks"}
	}
	if r.Question != "" {
		if b := NonEmpty("question", r.Question); b != nil {
			return b
		}
	}
	for i, m := range r.Messages {
		field := fmt.Sprintf("messages[%d]", i)
		switch m.Role {
		case "user", "assistant", "system":
		default:
			return &Broken{Field: field + ".role", Value: m.Role, Rule: `must be "user", "assistant" or "system"`}
		}
		if b := NonEmpty(field+".text", m.Text); b != nil {
			return b
		}
	}
	if r.RetrievalPageSize < 0 {
		return &Broken{Field: "retrievalPageSize", Value: strconv.Itoa(r.RetrievalPageSize), Rule: "must be 1 or more (0: the API's default, 5)"}
	}
	if len(r.Groups) > 0 && r.Protocol == "v1" {
		return &Broken{Field: "filter.groups", Rule: "is not supported by the v1 endpoint: use AssistantV2"}
	}
	if b := Groups("filter.groups", r.Groups); b != nil {
		return b
	}
	for i, c := range r.Context {
		field := fmt.Sprintf("context[%d]", i)
		if c.Type != "code" && c.Type != "textSelection" {
			return &Broken{Field: field + ".type", Value: c.Type, Rule: `must be "code" or "textSelection"`}
		}
		if c.Value == "" {
			return &Broken{Field: field + ".value", Rule: "must not be empty"}
		}
	}
	if n := len([]rune(r.CurrentPath)); n > r.MaxCurrentPath {
		return &Broken{Field: "currentPath", Value: r.CurrentPath, Rule: fmt.Sprintf("is %d characters long; the API takes at most %d", n, r.MaxCurrentPath)}
	}
	return nil
}
