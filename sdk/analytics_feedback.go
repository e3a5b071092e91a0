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

// FeedbackSources and FeedbackStatuses list the documented values.
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

// feedbackFilter is both feedback endpoints' source and status filters.
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
	DateFrom   string // see DateRange
	DateTo     string
	Source     FeedbackSource   // one source ("": all)
	Statuses   []FeedbackStatus // these review statuses (none: all)
	Limit      int              // page size, 1 to 100 (0: MaxFeedbackPageSize)
	Cursor     string           // a previous read's NextCursor
	MaxResults int              // stop after this many (0: all)
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

// Feedback is one piece of user feedback: the fields of the three shapes
// the API sends by Source, nil where a shape has none.
type Feedback struct {
	ID        string         `json:"id"`
	Path      string         `json:"path"`
	Comment   *string        `json:"comment"`
	CreatedAt *string        `json:"createdAt"` // as the API wrote it
	Source    FeedbackSource `json:"source"`
	Status    FeedbackStatus `json:"status"`
	// Helpful and Contact (an e-mail address) come with contextual
	// feedback; Code, Filename and Lang with code_snippet feedback.
	Helpful  *bool   `json:"helpful,omitempty"`
	Contact  *string `json:"contact,omitempty"`
	Code     *string `json:"code,omitempty"`
	Filename *string `json:"filename,omitempty"`
	Lang     *string `json:"lang,omitempty"`
}

func (f *Feedback) check(c *checker) { c.need("id", "path", "source", "status") }

// FeedbackPage is one page of feedback (or, from All, of one read).
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
	DateFrom string // see DateRange
	DateTo   string
	// Source and Statuses filter what is counted, as in FeedbackQuery.
	Source   FeedbackSource
	Statuses []FeedbackStatus
	Limit    int // pages to count, 1 to 100 (0: MaxFeedbackByPageSize)
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
	// ThumbsUp and ThumbsDown count contextual feedback, Code code-snippet
	// feedback, Total every entry.
	ThumbsUp   int64 `json:"thumbsUp"`
	ThumbsDown int64 `json:"thumbsDown"`
	Code       int64 `json:"code"`
	Total      int64 `json:"total"`
}

func (f *PageFeedback) check(c *checker) { c.need("path", "thumbsUp", "thumbsDown", "code", "total") }

// FeedbackByPage is the feedback-by-page answer.
type FeedbackByPage struct {
	Pages []PageFeedback `json:"feedback"`
	// HasMore: more pages have feedback than listed, which the API gives
	// no way to read.
	HasMore bool `json:"hasMore"`
	ResponseInfo
}

func (f *FeedbackByPage) check(c *checker) { c.need("feedback", "hasMore") }

// FeedbackByPage reads feedback counts per documentation page, most
// first, in one request of q.Limit pages (0: 100); it has no paging.
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
