package sdk

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// DefaultDiscoveryBaseURL is the address of the discovery API.
const DefaultDiscoveryBaseURL = "https://api.mintlify.com/discovery"

// EnvAssistantAPIKey holds the assistant key NewDiscoveryClientFromEnv
// reads.
const EnvAssistantAPIKey = "MINTLIFY_ASSISTANT_API_KEY" //nolint:gosec // the variable's name, not a credential

// MaxSearchPageSize is the most results one search returns;
// DefaultSearchPageSize how many when the page size is left out.
const (
	MaxSearchPageSize     = 50
	DefaultSearchPageSize = 10
)

// DiscoveryClient searches a documentation site, reads its pages and
// streams its assistant's answers, with an assistant key (mint_dsc_...).
// Messages cost credits. The API allows [DiscoveryLimit] for all three,
// [AssistantMessageLimit] for messages; a longer rate limit than the
// client waits is remembered (a refused search or page stops all three, a
// refused message messages), and calls fail at once with a NotSent 429.
// Safe for concurrent use; the zero value answers ErrNotConfigured.
type DiscoveryClient struct {
	// Assistant streams the assistant's answers.
	Assistant AssistantService

	core *core
}

// NewDiscoveryClient returns a discovery client that authenticates with
// key, an assistant key (mint_dsc_...); another kind is refused. Against
// the fake, pass WithBaseURL(srv.URL + "/discovery").
func NewDiscoveryClient(key string, opts ...Option) (*DiscoveryClient, error) {
	k, err := newCore(assistantKey, key, DefaultDiscoveryBaseURL, opts)
	if err != nil {
		return nil, err
	}
	k.messages = &budget.Budget{Name: assistantMessagesBudgetName}
	return &DiscoveryClient{Assistant: AssistantService{core: k}, core: k}, nil
}

// NewDiscoveryClientFromEnv is NewDiscoveryClient with the key from
// MINTLIFY_ASSISTANT_API_KEY and, when MINTLIFY_BASE_URL is set, the
// address MINTLIFY_BASE_URL + "/discovery"; opts win over both.
func NewDiscoveryClientFromEnv(opts ...Option) (*DiscoveryClient, error) {
	key := os.Getenv(EnvAssistantAPIKey)
	if key == "" {
		return nil, &ValidationError{Field: "assistantKey", Rule: "is required: set " + EnvAssistantAPIKey + " to an assistant API key (mint_dsc_...) from the dashboard's API keys page"}
	}
	if base := os.Getenv(EnvBaseURL); base != "" {
		opts = append([]Option{WithBaseURL(strings.TrimRight(base, "/") + "/discovery")}, opts...)
	}
	return NewDiscoveryClient(key, opts...)
}

// ValidateAssistantKey checks an assistant key's form: printable ASCII
// without white space, starting mint_dsc_. The error never echoes it.
func ValidateAssistantKey(key string) error { return assistantKey.validate(key) }

// BaseURL returns the address the client sends requests to ("" for a zero
// client).
func (c *DiscoveryClient) BaseURL() string {
	if c == nil || c.core == nil {
		return ""
	}
	return c.core.baseURL.String()
}

// ValidateDomain checks a site's domain identifier (acme of
// acme.mintlify.site): an id sent as one path segment. A URL or a path is
// refused with what to write instead.
func ValidateDomain(domain string) error {
	err := validateID("domain", domain)
	var ve *ValidationError
	if errors.As(err, &ve) && strings.Contains(domain, "/") {
		ve.Rule = "is a URL or a path: write the domain identifier alone, as acme for acme.mintlify.site " +
			"(the end of the dashboard's URL, app.mintlify.com/<organization>/<domain>)"
		if id := siteID(domain); id != "" {
			ve.Rule += fmt.Sprintf(": write %q", id)
		}
	}
	return err
}

// siteID is the domain identifier in a Mintlify-hosted site's URL, or "".
func siteID(s string) string {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		rest = s
	}
	host, _, _ := strings.Cut(rest, "/")
	for _, suffix := range []string{".mintlify.site", ".mintlify.app"} {
		if id, ok := strings.CutSuffix(host, suffix); ok && id != "" && validateID("domain", id) == nil {
			return id
		}
	}
	return ""
}

// SearchRequest is a search of a documentation site.
type SearchRequest struct {
	// Query is what to search for (required).
	Query string
	// PageSize is how many results to return, 1 to 50 (0: 10).
	PageSize int
	// ScoreThreshold keeps only results scored at or above it (0 to 1).
	ScoreThreshold *float64
	// Filter narrows the results; its zero value does not.
	Filter SearchFilter
}

// SearchFilter narrows a search. Empty fields are not sent.
type SearchFilter struct {
	Version  string
	Language string
	Tag      string
	// Groups are the documentation groups the caller may see, on a
	// protected site (none: public pages only).
	Groups []string
}

// Validate checks the request before any request is sent.
func (r SearchRequest) Validate() error {
	if err := ValidateQuery(r.Query); err != nil {
		return err
	}
	if err := ValidateSearchPageSize(r.PageSize); err != nil {
		return err
	}
	if r.ScoreThreshold != nil {
		if err := ValidateScoreThreshold(*r.ScoreThreshold); err != nil {
			return err
		}
	}
	return validateGroups("filter.groups", r.Filter.Groups)
}

// ValidateSearchPageSize checks a search's page size: 1 to 50, or 0 for
// the API's default.
func ValidateSearchPageSize(n int) error { return upTo("pageSize", n, MaxSearchPageSize) }

// ValidateScoreThreshold checks a search's score threshold: 0 to 1.
func ValidateScoreThreshold(v float64) error {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return &ValidationError{Field: "scoreThreshold", Value: strconv.FormatFloat(v, 'g', -1, 64), Rule: "must be between 0 and 1"}
	}
	return nil
}

// ValidateGroup checks a documentation group's name: more than white
// space.
func ValidateGroup(group string) error { return nonEmpty("group", group) }

// ValidateQuery checks a search query: it must hold more than white space.
func ValidateQuery(query string) error { return nonEmpty("query", query) }

// SearchResults are the results of one search, best first.
type SearchResults struct {
	// Results are at most the page size asked for: more is a problem.
	Results []SearchResult `json:"results"`
	// Problems name what could not be read (`results[2].path: missing`);
	// the results are kept.
	Problems []string `json:"-"`
	ResponseInfo
}

// SearchResult is one match.
type SearchResult struct {
	// Path is the page's path, as Page takes it.
	Path string `json:"path"`
	// Content is the matching text.
	Content string `json:"content"`
	// Metadata is what the API adds (title, score, ...), as JSON values.
	Metadata map[string]any `json:"metadata"`
}

func (r *SearchResult) check(c *checker) { c.need("path", "content") }

// MetadataText is the result's metadata with each value as text: a
// string as it is, anything else as its JSON (numbers as the API wrote
// them). Never nil.
func (r SearchResult) MetadataText() map[string]string {
	out := make(map[string]string, len(r.Metadata))
	for k, v := range r.Metadata {
		if s, ok := v.(string); ok {
			out[k] = s
			continue
		}
		b, err := json.Marshal(v)
		if err != nil { // a value no answer decodes to (set by a caller)
			out[k] = fmt.Sprint(v)
			continue
		}
		out[k] = string(b)
	}
	return out
}

// Paths lists the results' paths, best first.
func (r *SearchResults) Paths() []string {
	out := make([]string, len(r.Results))
	for i, res := range r.Results {
		out[i] = res.Path
	}
	return out
}

type searchBody struct {
	Query          string      `json:"query"`
	PageSize       int         `json:"pageSize,omitempty"`
	ScoreThreshold *float64    `json:"scoreThreshold,omitempty"`
	Filter         *filterBody `json:"filter,omitempty"`
}

// filterBody is the filter of a search or an assistant message.
type filterBody struct {
	Version  string   `json:"version,omitempty"`
	Language string   `json:"language,omitempty"`
	Tag      string   `json:"tag,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

func (f filterBody) orNil() *filterBody {
	if f.Version == "" && f.Language == "" && f.Tag == "" && len(f.Groups) == 0 {
		return nil
	}
	return &f
}

// decodeSearchResults reads a search's list of results, keeping pageSize.
func decodeSearchResults(d decoding, data []byte, pageSize int, out *SearchResults) error {
	d.most = map[string]int{"results": pageSize}
	p, err := d.decodeList(data, &out.Results)
	out.Problems = p
	return err
}

// Search searches the documentation of domain. An answer the SDK cannot
// read at all is a *MalformedResponseError; a result's unreadable field
// is named in Problems.
func (c *DiscoveryClient) Search(ctx context.Context, domain string, req SearchRequest) (*SearchResults, error) {
	k, err := c.checked(ValidateDomain(domain), req.Validate())
	if err != nil {
		return nil, err
	}
	body := searchBody{Query: req.Query, PageSize: req.PageSize, ScoreThreshold: req.ScoreThreshold,
		Filter: filterBody{Version: req.Filter.Version, Language: req.Filter.Language, Tag: req.Filter.Tag, Groups: req.Filter.Groups}.orNil()}
	out := &SearchResults{}
	pageSize := cmp.Or(req.PageSize, DefaultSearchPageSize)
	c0 := k.post(escapePath("v1", "search", domain), body)
	_, _, err = k.fetch(ctx, c0, out, func(d decoding, b []byte) error { return decodeSearchResults(d, b, pageSize, out) }, k.budget)
	if err != nil {
		return nil, fmt.Errorf("searching %s: %w", domain, err)
	}
	return out, nil
}

// PageContent is the text of one documentation page.
type PageContent struct {
	Path     string   `json:"path"`
	Content  string   `json:"content"`
	Problems []string `json:"-"` // what could not be read
	ResponseInfo
}

func (pg *PageContent) check(c *checker) { c.vital("content") }

// samePath reports whether two page paths, slashes trimmed, are one.
func samePath(a, b string) bool { return strings.Trim(a, "/") == strings.Trim(b, "/") }

// decodePage reads a page's answer: its content is required, another
// page's refused.
func decodePage(d decoding, data []byte, path string, out *PageContent) error {
	if err := d.decode(data, out); err != nil {
		return err
	}
	p := (*problems)(&out.Problems)
	switch {
	case out.Path == "":
		if !p.Names("path") {
			p.Add("path", "missing: the page asked for is assumed")
		}
		out.Path = path
	case !samePath(out.Path, path):
		var must problems
		must.Add("path", "the answer is for page %q, not %q", d.quote(out.Path), redact.Clip(path, maxEchoedValue))
		return append(must, *p...)
	}
	return nil
}

// Page reads the full text of a page of domain by its path (as Search
// gives it), as a caller who may see groups (nil: public pages only). An
// unknown page is a 404 (IsNotFound).
func (c *DiscoveryClient) Page(ctx context.Context, domain, path string, groups []string) (*PageContent, error) {
	k, err := c.checked(ValidateDomain(domain), ValidatePagePath(path), validateGroups("groups", groups))
	if err != nil {
		return nil, err
	}
	out := &PageContent{}
	c0 := k.post(escapePath("v1", "page", domain), pageBody{Path: path, Groups: groups})
	_, _, err = k.fetch(ctx, c0, out, func(d decoding, b []byte) error { return decodePage(d, b, path, out) }, k.budget)
	if err != nil {
		return nil, fmt.Errorf("getting page %s of %s: %w", path, domain, err)
	}
	return out, nil
}

type pageBody struct {
	Path   string   `json:"path"`
	Groups []string `json:"groups,omitempty"`
}

// ValidatePagePath checks a page's path: more than white space.
func ValidatePagePath(path string) error { return nonEmpty("path", path) }

// checked is checked for this client (nil: ErrNotConfigured).
func (c *DiscoveryClient) checked(checks ...error) (*core, error) {
	if c == nil {
		return nil, ErrNotConfigured
	}
	return checked(c.core, checks...)
}
