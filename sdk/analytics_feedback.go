package sdk

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/paging"
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

func (q FeedbackQuery) filter() feedbackFilter { return feedbackFilter{q.Source, q.Statuses} }

// Validate checks the query before any request is sent.
func (q FeedbackQuery) Validate() error {
	if err := q.filter().validate(); err != nil {
		return err
	}
	return validatePaging(q.paging(), MaxFeedbackPageSize)
}

func (q FeedbackQuery) paging() pageParams {
	return pageParams{dateFrom: q.DateFrom, dateTo: q.DateTo, limit: q.Limit, cursor: q.Cursor,
		maxResults: q.MaxResults, filters: q.filter().values()}
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

func (f *Feedback) check(c *checker) { c.need("id", "path", "source", "status") }

// FeedbackPage is one page of feedback (or, from All, every page of one
// read).
type FeedbackPage struct {
	Feedback   []Feedback `json:"feedback"`
	NextCursor *string    `json:"nextCursor"`
	HasMore    bool       `json:"hasMore"`
	ResponseInfo
}

func (pg *FeedbackPage) check(c *checker) { c.need("feedback", "hasMore") }

var feedbackSpec = pageSpec[FeedbackPage, Feedback]{
	what: "feedback", keyName: "id", path: analyticsEndpoint("feedback"),
	largest: MaxFeedbackPageSize, cursor: true, cached: true,
	rows: func(p *FeedbackPage) *[]Feedback { return &p.Feedback },
	key:  func(r *Feedback) string { return r.ID },
	more: func(p *FeedbackPage) (bool, *string) { return p.HasMore, p.NextCursor },
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

func (f *PageFeedback) check(c *checker) { c.need("path", "thumbsUp", "thumbsDown", "code", "total") }

// FeedbackByPage is the answer of the feedback-by-page endpoint.
type FeedbackByPage struct {
	Pages []PageFeedback `json:"feedback"`
	// HasMore says more pages have feedback than the answer lists. The API
	// gives no way to read them (no offset, no cursor): the SDK asks for the
	// largest answer (100 pages) and reports HasMore as it came.
	HasMore bool `json:"hasMore"`
	ResponseInfo
}

func (f *FeedbackByPage) check(c *checker) { c.need("feedback", "hasMore") }

// FeedbackByPage reads feedback counts per documentation page, most
// feedback first as the API orders them, in one request of q.Limit pages
// (100 when 0). The endpoint has no paging: when HasMore is true, more
// pages have feedback than any one request can list.
func (s *AnalyticsService) FeedbackByPage(ctx context.Context, projectID string, q FeedbackByPageQuery) (*FeedbackByPage, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), q.Validate())
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit == 0 {
		limit = MaxFeedbackByPageSize
	}
	query := paging.Values(q.DateFrom, q.DateTo, feedbackFilter{q.Source, q.Statuses}.values())
	query.Set("limit", strconv.Itoa(limit))
	out, err := getOne[FeedbackByPage](ctx, k, "feedback by page", get(analyticsPath(projectID, "feedback", "by-page"), query))
	if err != nil {
		return nil, err
	}
	if len(out.Pages) > limit {
		out.Pages, out.HasMore = out.Pages[:limit], true
	}
	return out, nil
}
