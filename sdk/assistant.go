package sdk

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// AssistantService streams the documentation assistant's answers: one
// question, one streamed answer, read as v2 names its parts whichever
// protocol the endpoint speaks. A message costs credits: it is never sent
// twice once it may have reached the server. While the discovery budget
// or [AssistantMessageLimit] is known to be spent, a message fails at
// once with a NotSent 429.
type AssistantService struct {
	core *core
}

// AssistantProtocol chooses the endpoint and its stream format.
type AssistantProtocol string

const (
	// AssistantV2 (the zero value's meaning) streams the AI SDK v5 UI
	// message stream: server-sent events of JSON parts.
	AssistantV2 AssistantProtocol = "v2"
	// AssistantV1 streams the AI SDK v4 data stream (CODE:JSON lines),
	// marked deprecated; its filter has no groups.
	AssistantV1 AssistantProtocol = "v1"
)

// MessageRole is who wrote a message of the conversation.
type MessageRole string

// The roles a message of the conversation may have.
const (
	RoleUser      MessageRole = "user"
	RoleAssistant MessageRole = "assistant"
	RoleSystem    MessageRole = "system"
)

// MaxCurrentPathLength is the longest currentPath the API takes.
const MaxCurrentPathLength = 200

// AssistantRequest is one message to the assistant.
type AssistantRequest struct {
	// Question is sent as the last message, after Messages (the
	// conversation so far, oldest first). Set either, or both.
	Question string
	Messages []AssistantMessage
	// Fingerprint identifies the user's session ("": "anonymous").
	Fingerprint string
	// ThreadID continues the conversation of an earlier answer.
	ThreadID string
	// RetrievalPageSize is how many search results the answer draws on
	// (0: 5).
	RetrievalPageSize int
	Filter            AssistantFilter
	// Context is code or selected text the question is about.
	Context []AssistantContext
	// CurrentPath is the page the user is reading (at most 200
	// characters).
	CurrentPath string
	Protocol    AssistantProtocol
}

// AssistantMessage is one message of a conversation.
type AssistantMessage struct {
	ID   string // "": msg-1, msg-2, ... by position
	Role MessageRole
	Text string
}

// AssistantFilter narrows the documentation an answer draws on. Empty
// fields are not sent.
type AssistantFilter struct {
	Version  string
	Language string
	Groups   []string // the groups the user may see (v2 only)
}

// AssistantContext is something the question is about.
type AssistantContext struct {
	Type      string // "code" or "textSelection"
	Value     string
	Path      string // optional
	ElementID string // optional
}

// Validate checks the request before any request is sent.
func (r AssistantRequest) Validate() error {
	switch r.Protocol {
	case "", AssistantV2, AssistantV1:
	default:
		return &ValidationError{Field: "protocol", Value: string(r.Protocol), Rule: `must be "v2" or "v1"`}
	}
	if len(r.Messages) == 0 && strings.TrimSpace(r.Question) == "" {
		return &ValidationError{Field: "question", Rule: "is required: set Question (or Messages) to what the user asks"}
	}
	if r.Question != "" {
		if err := nonEmpty("question", r.Question); err != nil {
			return err
		}
	}
	for i, m := range r.Messages {
		field := fmt.Sprintf("messages[%d]", i)
		switch m.Role {
		case RoleUser, RoleAssistant, RoleSystem:
		default:
			return &ValidationError{Field: field + ".role", Value: string(m.Role), Rule: `must be "user", "assistant" or "system"`}
		}
		if err := nonEmpty(field+".text", m.Text); err != nil {
			return err
		}
	}
	if r.RetrievalPageSize < 0 {
		return &ValidationError{Field: "retrievalPageSize", Value: strconv.Itoa(r.RetrievalPageSize), Rule: "must be 1 or more (0: the API's default, 5)"}
	}
	if len(r.Filter.Groups) > 0 && r.Protocol == AssistantV1 {
		return &ValidationError{Field: "filter.groups", Rule: "is not supported by the v1 endpoint: use AssistantV2"}
	}
	if err := validateGroups("filter.groups", r.Filter.Groups); err != nil {
		return err
	}
	for i, c := range r.Context {
		field := fmt.Sprintf("context[%d]", i)
		if c.Type != "code" && c.Type != "textSelection" {
			return &ValidationError{Field: field + ".type", Value: c.Type, Rule: `must be "code" or "textSelection"`}
		}
		if c.Value == "" {
			return &ValidationError{Field: field + ".value", Rule: "must not be empty"}
		}
	}
	if n := len([]rune(r.CurrentPath)); n > MaxCurrentPathLength {
		return &ValidationError{Field: "currentPath", Value: r.CurrentPath, Rule: fmt.Sprintf("is %d characters long; the API takes at most %d", n, MaxCurrentPathLength)}
	}
	return nil
}

func (r AssistantRequest) protocol() AssistantProtocol { return cmp.Or(r.Protocol, AssistantV2) }

type assistantBody struct {
	FP                string        `json:"fp"`
	ThreadID          string        `json:"threadId,omitempty"`
	Messages          []messageBody `json:"messages"`
	RetrievalPageSize int           `json:"retrievalPageSize,omitempty"`
	Filter            *filterBody   `json:"filter,omitempty"`
	Context           []contextBody `json:"context,omitempty"`
	CurrentPath       string        `json:"currentPath,omitempty"`
}

type messageBody struct {
	ID      string         `json:"id"`
	Role    MessageRole    `json:"role"`
	Content *string        `json:"content,omitempty"` // v1 only
	Parts   []textPartBody `json:"parts"`
}

type textPartBody struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type contextBody struct {
	Type      string `json:"type"`
	Value     string `json:"value"`
	Path      string `json:"path,omitempty"`
	ElementID string `json:"elementId,omitempty"`
}

// body is what the request sends (v1 also wants a message's content).
func (r AssistantRequest) body() assistantBody {
	msgs := r.Messages
	if r.Question != "" {
		msgs = append(msgs[:len(msgs):len(msgs)], AssistantMessage{Role: RoleUser, Text: r.Question})
	}
	b := assistantBody{FP: cmp.Or(r.Fingerprint, "anonymous"), ThreadID: r.ThreadID, RetrievalPageSize: r.RetrievalPageSize,
		Filter: filterBody{Version: r.Filter.Version, Language: r.Filter.Language, Groups: r.Filter.Groups}.orNil(), CurrentPath: r.CurrentPath}
	for i, m := range msgs {
		id := cmp.Or(m.ID, "msg-"+strconv.Itoa(i+1))
		mb := messageBody{ID: id, Role: m.Role, Parts: []textPartBody{{Type: "text", Text: m.Text}}}
		if r.protocol() == AssistantV1 {
			mb.Content = &m.Text
		}
		b.Messages = append(b.Messages, mb)
	}
	for _, c := range r.Context {
		b.Context = append(b.Context, contextBody(c))
	}
	return b
}

// Stream sends a message to the assistant of domain and returns its
// answer as a stream once its headers arrived: read it with Next, Parts or
// Collect, and Close it (Parts and Collect do). Ending ctx closes it.
func (s *AssistantService) Stream(ctx context.Context, domain string, req AssistantRequest) (*AssistantStream, error) {
	k, err := checked(s.core, ValidateDomain(domain), req.Validate())
	if err != nil {
		return nil, err
	}
	proto := req.protocol()
	c := k.post(escapePath(string(proto), "assistant", domain, "message"), req.body())
	// A refused message (maybe the per-IP limit) stops messages alone.
	resp, info, err := k.stream(ctx, c, k.messages, k.budget) //nolint:bodyclose // the stream owns the body: Close, Parts and Collect close it
	if err != nil {
		return nil, fmt.Errorf("asking the assistant of %s: %w", domain, err)
	}
	return newAssistantStream(ctx, k, c, proto, resp.Body, info), nil
}

// Ask is Stream, then Collect.
func (s *AssistantService) Ask(ctx context.Context, domain string, req AssistantRequest) (*AssistantAnswer, error) {
	st, err := s.Stream(ctx, domain, req)
	if err != nil {
		return nil, err
	}
	return st.Collect()
}
