package sdk

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"strings"
)

// FeedbackSource is where a piece of feedback came from.
type FeedbackSource string

// The feedback sources the API documents.
const (
	FeedbackSourceCodeSnippet FeedbackSource = "code_snippet" // on a code block
	FeedbackSourceContextual  FeedbackSource = "contextual"   // page-level
	FeedbackSourceAgent       FeedbackSource = "agent"        // from a third-party AI agent
	FeedbackSourceThumbsOnly  FeedbackSource = "thumbs_only"  // a thumbs up/down vote
)

// FeedbackStatus is where a piece of feedback is in review.
type FeedbackStatus string

// The review statuses the API documents.
const (
	FeedbackStatusPending    FeedbackStatus = "pending"
	FeedbackStatusInProgress FeedbackStatus = "in_progress"
	FeedbackStatusResolved   FeedbackStatus = "resolved"
	FeedbackStatusDismissed  FeedbackStatus = "dismissed"
)

// FeedbackSources and FeedbackStatuses list the documented values, for
// validation and documentation.
var (
	FeedbackSources  = []FeedbackSource{FeedbackSourceCodeSnippet, FeedbackSourceContextual, FeedbackSourceAgent, FeedbackSourceThumbsOnly}
	FeedbackStatuses = []FeedbackStatus{FeedbackStatusPending, FeedbackStatusInProgress, FeedbackStatusResolved, FeedbackStatusDismissed}
)

// ValidateFeedbackSource checks a source filter: one of FeedbackSources.
func ValidateFeedbackSource(s FeedbackSource) error {
	return oneOf("source", string(s), FeedbackSources)
}

// ValidateFeedbackStatus checks a status filter: one of FeedbackStatuses.
func ValidateFeedbackStatus(s FeedbackStatus) error {
	return oneOf("status", string(s), FeedbackStatuses)
}

func oneOf[T ~string](fieldName, value string, allowed []T) error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		if string(a) == value {
			return nil
		}
		names[i] = string(a)
	}
	return &ValidationError{Field: fieldName, Value: value, Rule: "must be one of " + strings.Join(names, ", ")}
}

// feedbackFilter is the source and status filters both feedback
// endpoints take.
type feedbackFilter struct {
	source   FeedbackSource
	statuses []FeedbackStatus
}

func (f feedbackFilter) validate() error {
	if f.source != "" {
		if err := ValidateFeedbackSource(f.source); err != nil {
			return err
		}
	}
	for _, s := range f.statuses {
		if err := ValidateFeedbackStatus(s); err != nil {
			return err
		}
	}
	return nil
}

func (f feedbackFilter) values() url.Values {
	v := url.Values{}
	if f.source != "" {
		v.Set("source", string(f.source))
	}
	if len(f.statuses) > 0 {
		names := make([]string, len(f.statuses))
		for i, s := range f.statuses {
			names[i] = string(s)
		}
		v.Set("status", strings.Join(names, ","))
	}
	return v
}

// FeedbackQuery selects feedback entries.
type FeedbackQuery struct {
	// DateFrom and DateTo bound the range (DateTo exclusive); see DateRange.
	DateFrom string
	DateTo   string
	// Source keeps only feedback from one source ("" for all).
	Source FeedbackSource
	// Statuses keeps only feedback in one of these review statuses (none
	// for all).
	Statuses []FeedbackStatus
	// Limit is the page size, 1 to 100; 0 means MaxFeedbackPageSize.
	Limit int
	// Cursor starts the read at a page a previous read stopped before.
	Cursor string
	// MaxResults stops the paging helpers after this many entries (0: all).
	MaxResults int
}

func (q FeedbackQuery) r() cursorRange {
	return cursorRange{q.DateFrom, q.DateTo, q.Limit, MaxFeedbackPageSize, q.Cursor, q.MaxResults}
}

func (q FeedbackQuery) filter() feedbackFilter { return feedbackFilter{q.Source, q.Statuses} }

// Validate checks the query before any request is sent.
func (q FeedbackQuery) Validate() error {
	if err := q.filter().validate(); err != nil {
		return err
	}
	return q.r().validate()
}

// Feedback is one piece of user feedback. The API sends one of three
// shapes by Source; this type holds all their fields, so none is lost, and
// a field a shape lacks is nil.
type Feedback struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	// Comment is the user's text; nil when they wrote none.
	Comment *string `json:"comment"`
	// CreatedAt is when the feedback was submitted, as the API wrote it.
	CreatedAt *string        `json:"createdAt"`
	Source    FeedbackSource `json:"source"`
	Status    FeedbackStatus `json:"status"`

	// Helpful and Contact come with contextual feedback: whether the page
	// helped, and an e-mail address for follow-up (nil when none).
	Helpful *bool   `json:"helpful,omitempty"`
	Contact *string `json:"contact,omitempty"`

	// Code, Filename and Lang come with code_snippet feedback: the code
	// block, and its file name and language when known.
	Code     *string `json:"code,omitempty"`
	Filename *string `json:"filename,omitempty"`
	Lang     *string `json:"lang,omitempty"`
}

// FeedbackPage is one page of feedback.
type FeedbackPage struct {
	Feedback   []Feedback `json:"feedback"`
	NextCursor *string    `json:"nextCursor"`
	HasMore    bool       `json:"hasMore"`
	// Cache says whether the page came from the client's cache.
	Cache CacheStatus `json:"-"`
}

// FeedbackEntries is every feedback entry read.
type FeedbackEntries struct {
	Feedback []Feedback
	Pages    int
	// Cache combines the pages' cache statuses.
	Cache CacheStatus
}

type rawFeedback struct {
	ID        *string         `json:"id"`
	Path      *string         `json:"path"`
	Comment   *string         `json:"comment"`
	CreatedAt *string         `json:"createdAt"`
	Source    *FeedbackSource `json:"source"`
	Status    *FeedbackStatus `json:"status"`
	Helpful   *bool           `json:"helpful"`
	Contact   *string         `json:"contact"`
	Code      *string         `json:"code"`
	Filename  *string         `json:"filename"`
	Lang      *string         `json:"lang"`
}

// UnmarshalJSON decodes and checks a page: every entry with its id, path,
// source and status.
func (pg *FeedbackPage) UnmarshalJSON(data []byte) error {
	fields, err := decodeTop(data)
	if err != nil {
		return err
	}
	var p fieldProblems
	var raw []rawFeedback
	if err := decodeList(&p, fields, "feedback", &raw); err != nil {
		return err
	}
	*pg = FeedbackPage{Feedback: make([]Feedback, len(raw))}
	for i, r := range raw {
		f := Feedback{
			ID:      required(&p, row("feedback", i, "id"), r.ID),
			Path:    required(&p, row("feedback", i, "path"), r.Path),
			Comment: r.Comment, CreatedAt: r.CreatedAt,
			Helpful: r.Helpful, Contact: r.Contact, Code: r.Code, Filename: r.Filename, Lang: r.Lang,
		}
		if r.Source == nil {
			p.add(row("feedback", i, "source").String(), "missing")
		} else {
			f.Source = *r.Source
		}
		if r.Status == nil {
			p.add(row("feedback", i, "status").String(), "missing")
		} else {
			f.Status = *r.Status
		}
		pg.Feedback[i] = f
	}
	decodeField(&p, fields, "nextCursor", &pg.NextCursor)
	var more *bool
	decodeField(&p, fields, "hasMore", &more)
	pg.HasMore = requiredBool(&p, top("hasMore"), more)
	return p.err()
}

func feedbackPager(c *Client, projectID string, q FeedbackQuery) pager[FeedbackPage] {
	return pager[FeedbackPage]{
		what: "feedback", keyName: "id", cursor: true,
		fetch: func(ctx context.Context, r pageRequest) (*FeedbackPage, error) {
			return fetchInto[FeedbackPage](ctx, c, "feedback", analyticsPath(projectID, "feedback"), q.r().query(r, q.filter().values()))
		},
		view: func(p *FeedbackPage) pageView {
			return pageView{rows: len(p.Feedback), key: func(i int) string { return p.Feedback[i].ID },
				hasMore: p.HasMore, next: p.NextCursor}
		},
		trim: func(p *FeedbackPage, n int) { p.Feedback = p.Feedback[:n] },
	}
}

// GetFeedback reads one page of feedback (q.Limit, 100 when 0, from
// q.Cursor).
func (c *Client) GetFeedback(ctx context.Context, projectID string, q FeedbackQuery) (*FeedbackPage, error) {
	return cursorPage(ctx, projectID, q.Validate, q.r(), feedbackPager(c, projectID, q))
}

// FeedbackPages iterates over pages of feedback, following nextCursor while
// hasMore, until q.MaxResults entries.
func (c *Client) FeedbackPages(ctx context.Context, projectID string, q FeedbackQuery) iter.Seq2[*FeedbackPage, error] {
	return cursorPages(ctx, c, projectID, q.Validate, q.r(), feedbackPager(c, projectID, q))
}

// FeedbackRows iterates over feedback entries across pages.
func (c *Client) FeedbackRows(ctx context.Context, projectID string, q FeedbackQuery) iter.Seq2[Feedback, error] {
	return rowsOf(c.FeedbackPages(ctx, projectID, q), func(p *FeedbackPage) []Feedback { return p.Feedback })
}

// ListAllFeedback reads every page (or up to q.MaxResults entries).
func (c *Client) ListAllFeedback(ctx context.Context, projectID string, q FeedbackQuery) (*FeedbackEntries, error) {
	all, err := collect(c.FeedbackPages(ctx, projectID, q), func(p *FeedbackPage) []Feedback { return p.Feedback },
		func(p *FeedbackPage) CacheStatus { return p.Cache }, nil)
	if err != nil {
		return nil, err
	}
	return &FeedbackEntries{Feedback: all.rows, Pages: all.pages, Cache: all.cache}, nil
}

// FeedbackByPageQuery selects feedback counts per documentation page.
type FeedbackByPageQuery struct {
	// DateFrom and DateTo bound the range (DateTo exclusive); see DateRange.
	DateFrom string
	DateTo   string
	// Source and Statuses filter the feedback counted, as in FeedbackQuery.
	Source   FeedbackSource
	Statuses []FeedbackStatus
	// Limit is how many pages to count, 1 to 100; 0 means
	// MaxFeedbackByPageSize.
	Limit int
}

// Validate checks the query before any request is sent.
func (q FeedbackByPageQuery) Validate() error {
	if err := (feedbackFilter{q.Source, q.Statuses}).validate(); err != nil {
		return err
	}
	if err := ValidatePageSize(q.Limit, MaxFeedbackByPageSize); err != nil {
		return err
	}
	return ValidateDateRange(q.DateFrom, q.DateTo)
}

// PageFeedback is the feedback one documentation page received.
type PageFeedback struct {
	Path string `json:"path"`
	// ThumbsUp and ThumbsDown count contextual feedback by whether the page
	// helped; Code counts code-snippet feedback; Total counts every entry.
	ThumbsUp   int64 `json:"thumbsUp"`
	ThumbsDown int64 `json:"thumbsDown"`
	Code       int64 `json:"code"`
	Total      int64 `json:"total"`
}

// FeedbackByPage is the answer of the feedback-by-page endpoint.
type FeedbackByPage struct {
	Pages []PageFeedback `json:"feedback"`
	// HasMore says more pages have feedback than the answer lists. The API
	// gives no way to read them (no offset, no cursor): the SDK asks for the
	// largest answer (100 pages) and reports HasMore as it came.
	HasMore bool `json:"hasMore"`
	// Cache says whether the answer came from the client's cache.
	Cache CacheStatus `json:"-"`
}

type rawPageFeedback struct {
	Path       *string `json:"path"`
	ThumbsUp   count   `json:"thumbsUp"`
	ThumbsDown count   `json:"thumbsDown"`
	Code       count   `json:"code"`
	Total      count   `json:"total"`
}

// UnmarshalJSON decodes and checks the answer: every page with its counts.
func (fb *FeedbackByPage) UnmarshalJSON(data []byte) error {
	fields, err := decodeTop(data)
	if err != nil {
		return err
	}
	var p fieldProblems
	var raw []rawPageFeedback
	if err := decodeList(&p, fields, "feedback", &raw); err != nil {
		return err
	}
	*fb = FeedbackByPage{Pages: make([]PageFeedback, len(raw))}
	for i, r := range raw {
		fb.Pages[i] = PageFeedback{
			Path:       required(&p, row("feedback", i, "path"), r.Path),
			ThumbsUp:   wholeCount(&p, row("feedback", i, "thumbsUp"), r.ThumbsUp),
			ThumbsDown: wholeCount(&p, row("feedback", i, "thumbsDown"), r.ThumbsDown),
			Code:       wholeCount(&p, row("feedback", i, "code"), r.Code),
			Total:      wholeCount(&p, row("feedback", i, "total"), r.Total),
		}
	}
	var more *bool
	decodeField(&p, fields, "hasMore", &more)
	fb.HasMore = requiredBool(&p, top("hasMore"), more)
	return p.err()
}

// GetFeedbackByPage reads feedback counts per documentation page, most
// feedback first as the API orders them, in one request of q.Limit pages
// (100 when 0). The endpoint has no paging: when HasMore is true, more
// pages have feedback than any one request can list.
func (c *Client) GetFeedbackByPage(ctx context.Context, projectID string, q FeedbackByPageQuery) (*FeedbackByPage, error) {
	if err := validateQuery(projectID, q); err != nil {
		return nil, err
	}
	query := analyticsQuery(q.DateFrom, q.DateTo)
	for k, v := range (feedbackFilter{q.Source, q.Statuses}).values() {
		query[k] = v
	}
	query.Set("limit", strconv.Itoa(orLargest(q.Limit, MaxFeedbackByPageSize)))
	out, err := fetchInto[FeedbackByPage](ctx, c, "feedback by page", analyticsPath(projectID, "feedback", "by-page"), query)
	if err != nil {
		return nil, err
	}
	if limit := orLargest(q.Limit, MaxFeedbackByPageSize); len(out.Pages) > limit {
		out.Pages, out.HasMore = out.Pages[:limit], true
	}
	return out, nil
}
