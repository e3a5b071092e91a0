package sdk

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strconv"
)

// DefaultIndexBaseURL is the address of the Mintlify Index API.
const DefaultIndexBaseURL = "https://leaves.mintlify.com/api/universal-search"

// Environment variables NewIndexClientFromEnv reads.
const (
	EnvIndexAPIKey  = "MINTLIFY_INDEX_API_KEY" //nolint:gosec // the variable's name, not a credential
	EnvIndexBaseURL = "MINTLIFY_INDEX_BASE_URL"
)

// Limits of the Index API's inputs: results of a search (the default
// asked for when NumResults is 0), a context's token budget, the ids and
// URLs of one contents request together.
const (
	MaxIndexResults       = 20
	DefaultIndexResults   = 10
	MaxIndexTokenBudget   = 6000
	MaxIndexContentsItems = 20
)

// IndexClient searches Mintlify Index (publisher-maintained documentation
// and the web), assembles context and reads contents, with an Index key
// (mint_us_...). The API allows [IndexSecondLimit] and [IndexDayLimit]: a
// second's wait is waited out; a spent day fails at once, and so does
// every call until APIError.RetryAt (a NotSent 429). Safe for concurrent
// use; the zero value answers ErrNotConfigured.
type IndexClient struct {
	core *core
}

// NewIndexClient returns an Index client that authenticates with key, an
// Index key (mint_us_...); another kind is refused. Against the fake, pass
// WithBaseURL(srv.URL + "/api/universal-search").
func NewIndexClient(key string, opts ...Option) (*IndexClient, error) {
	k, err := newCore(indexKey, key, DefaultIndexBaseURL, opts)
	if err != nil {
		return nil, err
	}
	return &IndexClient{core: k}, nil
}

// NewIndexClientFromEnv is NewIndexClient with the key from
// MINTLIFY_INDEX_API_KEY and, when set, the address from
// MINTLIFY_INDEX_BASE_URL; opts win over both.
func NewIndexClientFromEnv(opts ...Option) (*IndexClient, error) {
	key := os.Getenv(EnvIndexAPIKey)
	if key == "" {
		return nil, &ValidationError{Field: "indexKey", Rule: "is required: set " + EnvIndexAPIKey + " to a Mintlify Index API key (mint_us_...)"}
	}
	if base := os.Getenv(EnvIndexBaseURL); base != "" {
		opts = append([]Option{WithBaseURL(base)}, opts...)
	}
	return NewIndexClient(key, opts...)
}

// ValidateIndexKey checks a Mintlify Index key's form: printable ASCII
// without white space, starting mint_us_. The value is never echoed.
func ValidateIndexKey(key string) error { return indexKey.validate(key) }

// BaseURL returns the address the client sends requests to ("" for a zero
// client).
func (c *IndexClient) BaseURL() string {
	if c == nil || c.core == nil {
		return ""
	}
	return c.core.baseURL.String()
}

// checked is checked for this client (nil: ErrNotConfigured).
func (c *IndexClient) checked(checks ...error) (*core, error) {
	if c == nil {
		return nil, ErrNotConfigured
	}
	return checked(c.core, checks...)
}

// Domains narrows where the Index looks: nil fields are not sent.
type Domains struct {
	Include []string
	Exclude []string
}

// IndexSearchRequest is a search of Mintlify Index.
type IndexSearchRequest struct {
	// Query is what to search for (required).
	Query string
	// NumResults is how many results to return, 1 to 20 (0:
	// DefaultIndexResults).
	NumResults int
	// IncludeText returns each result's matching text; MaxCharacters,
	// when above 0, returns it cut to that length.
	IncludeText   bool
	MaxCharacters int
	Domains       Domains
}

// Validate checks the request before any request is sent.
func (r IndexSearchRequest) Validate() error {
	if err := nonEmpty("query", r.Query); err != nil {
		return err
	}
	if err := upTo("numResults", r.NumResults, MaxIndexResults); err != nil {
		return err
	}
	if err := noCut("text.maxCharacters", r.MaxCharacters); err != nil {
		return err
	}
	return r.Domains.validate()
}

// validate checks an Index request's domains: no empty name.
func (d Domains) validate() error {
	if err := validateGroups("includeDomains", d.Include); err != nil {
		return err
	}
	return validateGroups("excludeDomains", d.Exclude)
}

type indexSearchBody struct {
	Query          string   `json:"query"`
	NumResults     int      `json:"numResults"`
	Text           any      `json:"text,omitempty"`
	IncludeDomains []string `json:"includeDomains,omitempty"`
	ExcludeDomains []string `json:"excludeDomains,omitempty"`
}

type maxCharacters struct {
	MaxCharacters int `json:"maxCharacters"`
}

// IndexResult is one result of the Index.
type IndexResult struct {
	// ID names a Mintlify result for Contents; a web result is read by URL.
	ID    string `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
	// Text is the matching content, when asked for; else "".
	Text string `json:"text"`
	// Truncated says Text is cut; TotalCharacters is the content's length.
	Truncated       bool   `json:"truncated"`
	TotalCharacters *int64 `json:"totalCharacters"`
	// Score ranks search results (contents answers carry 0).
	Score float64 `json:"score"`
	// Source is "mintlify" or "web".
	Source      string   `json:"source"`
	SiteName    string   `json:"siteName"`
	Breadcrumbs []string `json:"breadcrumbs"`
	// PublishedDate is as the source gives it.
	PublishedDate *string `json:"publishedDate"`
}

func (r *IndexResult) check(c *checker) { c.need("id") }

// IndexSearchResults are the results of an Index search, best first.
type IndexSearchResults struct {
	// IndexRequestID is the Index's own id of the request;
	// ResponseInfo.RequestID is the gateway's.
	IndexRequestID string        `json:"requestId"`
	Results        []IndexResult `json:"results"`
	Problems       []string      `json:"-"` // what could not be read
	ResponseInfo
}

func (r *IndexSearchResults) check(c *checker) { c.vital("results") }

// Search searches Mintlify Index.
func (c *IndexClient) Search(ctx context.Context, req IndexSearchRequest) (*IndexSearchResults, error) {
	k, err := c.checked(req.Validate())
	if err != nil {
		return nil, err
	}
	body := indexSearchBody{Query: req.Query, NumResults: cmp.Or(req.NumResults, DefaultIndexResults),
		IncludeDomains: req.Domains.Include, ExcludeDomains: req.Domains.Exclude}
	switch {
	case req.MaxCharacters > 0:
		body.Text = maxCharacters{req.MaxCharacters}
	case req.IncludeText:
		body.Text = true
	}
	out := &IndexSearchResults{}
	_, _, err = k.fetch(ctx, k.post("/v1/search", body), out, func(d decoding, data []byte) error {
		d.most = map[string]int{"results": body.NumResults}
		return d.decode(data, out)
	}, k.budget)
	if err != nil {
		return nil, fmt.Errorf("searching Mintlify Index: %w", err)
	}
	return out, nil
}

// ContextFormat is the form of an assembled context.
type ContextFormat string

// The formats of IndexContext.Response.
const (
	// ContextText is Markdown sections, each with its source (the
	// default).
	ContextText ContextFormat = "txt"
	// ContextJSON is a serialized JSON object of result items.
	ContextJSON ContextFormat = "json"
)

// IndexContextRequest asks for source-cited context on a question.
type IndexContextRequest struct {
	// Query is the question to research (required); Product a product or
	// company name, a retrieval hint.
	Query   string
	Product string
	Format  ContextFormat // ContextText (the default) or ContextJSON
	Domains Domains
	// TokenBudget bounds the context's tokens, 1 to 6000 (0: 3000).
	TokenBudget int
}

// Validate checks the request before any request is sent.
func (r IndexContextRequest) Validate() error {
	if err := nonEmpty("query", r.Query); err != nil {
		return err
	}
	if r.Product != "" {
		if err := nonEmpty("product", r.Product); err != nil {
			return err
		}
	}
	if r.Format != "" && r.Format != "txt" && r.Format != "json" {
		return &ValidationError{Field: "format", Value: string(r.Format), Rule: `must be "txt" or "json"`}
	}
	if err := upTo("tokenBudget", r.TokenBudget, MaxIndexTokenBudget); err != nil {
		return err
	}
	return r.Domains.validate()
}

type indexContextBody struct {
	Query          string        `json:"query"`
	Product        string        `json:"product,omitempty"`
	Format         ContextFormat `json:"format"`
	IncludeDomains []string      `json:"includeDomains,omitempty"`
	ExcludeDomains []string      `json:"excludeDomains,omitempty"`
	TokenBudget    int           `json:"tokenBudget,omitempty"`
}

// IndexContext is context assembled for a question.
type IndexContext struct {
	IndexRequestID string `json:"requestId"`
	Query          string `json:"query"`
	// Response is the context, empty when nothing fits the budget.
	Response     string   `json:"response"`
	ResultsCount int64    `json:"resultsCount"`
	OutputTokens int64    `json:"outputTokens"`
	Problems     []string `json:"-"`
	ResponseInfo
}

func (x *IndexContext) check(c *checker) { c.vital("response") }

// Context assembles source-cited context for a question within a token
// budget.
func (c *IndexClient) Context(ctx context.Context, req IndexContextRequest) (*IndexContext, error) {
	k, err := c.checked(req.Validate())
	if err != nil {
		return nil, err
	}
	body := indexContextBody{Query: req.Query, Product: req.Product, Format: cmp.Or(req.Format, ContextText), TokenBudget: req.TokenBudget,
		IncludeDomains: req.Domains.Include, ExcludeDomains: req.Domains.Exclude}
	out := &IndexContext{}
	_, _, err = k.fetch(ctx, k.post("/v1/context", body), out, nil, k.budget)
	if err != nil {
		return nil, fmt.Errorf("building context from Mintlify Index: %w", err)
	}
	return out, nil
}

// IndexContentsRequest reads results' contents: Mintlify results by ID,
// web results by URL, at most 20 together.
type IndexContentsRequest struct {
	IDs  []string
	URLs []string
	// MaxCharacters cuts each content (0: no cut), keeping the sections
	// most relevant to Query.
	MaxCharacters int
	Query         string
}

// Validate checks the request before any request is sent.
func (r IndexContentsRequest) Validate() error {
	n := len(r.IDs) + len(r.URLs)
	switch {
	case n == 0:
		return &ValidationError{Field: "ids", Rule: "or urls is required: name at least one result"}
	case n > MaxIndexContentsItems:
		return &ValidationError{Field: "ids", Value: strconv.Itoa(n), Rule: fmt.Sprintf("and urls name %d items together; the API takes at most %d", n, MaxIndexContentsItems)}
	}
	for i, id := range r.IDs {
		if err := nonEmpty(fmt.Sprintf("ids[%d]", i), id); err != nil {
			return err
		}
	}
	for i, u := range r.URLs {
		if !isWebURL(u) {
			return &ValidationError{Field: fmt.Sprintf("urls[%d]", i), Value: u, Rule: "is not an absolute http(s) URL"}
		}
	}
	if err := noCut("maxCharacters", r.MaxCharacters); err != nil {
		return err
	}
	if r.Query != "" {
		return nonEmpty("query", r.Query)
	}
	return nil
}

type indexContentsBody struct {
	URLs          []string `json:"urls,omitempty"`
	IDs           []string `json:"ids,omitempty"`
	MaxCharacters int      `json:"maxCharacters,omitempty"`
	Query         string   `json:"query,omitempty"`
}

// IndexContents are the contents read, and how each item fared.
type IndexContents struct {
	IndexRequestID string        `json:"requestId"`
	Results        []IndexResult `json:"results"`
	// Statuses say, for each item asked for, whether it was read.
	Statuses []ContentStatus `json:"statuses"`
	Problems []string        `json:"-"`
	ResponseInfo
}

func (x *IndexContents) check(c *checker) {
	c.vital("results")
	c.need("statuses")
}

// ContentStatus is how one item of a contents request fared.
type ContentStatus struct {
	ID     string       `json:"id"`     // the id or URL asked for
	Status string       `json:"status"` // "success" or "error"
	Error  ContentError `json:"error"`  // why it failed, when the API said
}

func (s *ContentStatus) check(c *checker) { c.need("id", "status") }

// ContentError is why an item of a contents request failed.
type ContentError struct {
	Tag            string `json:"tag"`
	HTTPStatusCode *int64 `json:"httpStatusCode"` // the upstream's
}

// Failed reports whether the item could not be read.
func (s ContentStatus) Failed() bool { return s.Status != "success" }

// Contents reads the contents of results by ID (Mintlify results) or URL;
// Statuses say which were read.
func (c *IndexClient) Contents(ctx context.Context, req IndexContentsRequest) (*IndexContents, error) {
	k, err := c.checked(req.Validate())
	if err != nil {
		return nil, err
	}
	body := indexContentsBody{URLs: req.URLs, IDs: req.IDs, MaxCharacters: req.MaxCharacters, Query: req.Query}
	out := &IndexContents{}
	_, _, err = k.fetch(ctx, k.post("/v1/contents", body), out, func(d decoding, data []byte) error {
		asked := len(req.IDs) + len(req.URLs)
		d.most = map[string]int{"results": asked, "statuses": asked}
		return d.decode(data, out)
	}, k.budget)
	if err != nil {
		return nil, fmt.Errorf("getting contents from Mintlify Index: %w", err)
	}
	return out, nil
}
