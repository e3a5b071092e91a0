package sdk

import (
	"cmp"
	"context"
	"fmt"
	"strconv"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/rules"
)

// The assistant: one question, one streamed answer.
//
// The v2 endpoint streams the AI SDK v5 "UI message stream": server-sent
// events, one JSON part per `data:` line, ended by `data: [DONE]`. The v1
// endpoint streams the AI SDK v4 "data stream": one `CODE:JSON` line per
// part. AssistantStream reads either into the same parts, named as v2
// names them, so a caller handles one vocabulary.

// AssistantService streams the documentation assistant's answers. Every
// message costs credits, so a message is never sent twice once it may
// have reached the server: only a 429 refusal, or a connection that never
// opened, is tried again. Messages draw from the organization's discovery
// budget and from [AssistantMessageLimit]: while the client knows either is
// spent (a refused search or page read, a refused message), a message is
// not sent and fails at once with a NotSent 429.
type AssistantService struct {
	core *core
}

// AssistantProtocol chooses the endpoint and its stream format.
type AssistantProtocol string

const (
	// AssistantV2 is POST /v2/assistant/{domain}/message, the AI SDK v5 UI
	// message stream. The zero AssistantProtocol means it.
	AssistantV2 AssistantProtocol = "v2"
	// AssistantV1 is POST /v1/assistant/{domain}/message, the AI SDK v4
	// data stream, which Mintlify's reference marks deprecated. Its filter
	// has no groups.
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
	// Question is the user's question: sent as the last message, after
	// Messages. Set Question, Messages, or both.
	Question string
	// Messages are the conversation so far (earlier questions and
	// answers), oldest first.
	Messages []AssistantMessage
	// Fingerprint identifies the user's session (the API's fp);
	// "anonymous" when empty.
	Fingerprint string
	// ThreadID continues a conversation: the ThreadID of an earlier
	// answer.
	ThreadID string
	// RetrievalPageSize is how many search results the answer draws on
	// (0: the API's default, 5).
	RetrievalPageSize int
	// Filter narrows the documentation the answer draws on.
	Filter AssistantFilter
	// Context is code or selected text the question is about.
	Context []AssistantContext
	// CurrentPath is the page the user is reading (at most 200
	// characters).
	CurrentPath string
	// Protocol is the endpoint: AssistantV2 (the default) or AssistantV1.
	Protocol AssistantProtocol
}

// AssistantMessage is one message of a conversation.
type AssistantMessage struct {
	// ID identifies the message; "" sends msg-1, msg-2, ... by position.
	ID   string
	Role MessageRole
	Text string
}

// AssistantFilter narrows the documentation an answer draws on. Empty
// fields are not sent.
type AssistantFilter struct {
	Version  string
	Language string
	// Groups are the documentation groups the user may see (v2 only).
	Groups []string
}

// AssistantContext is something the question is about.
type AssistantContext struct {
	// Type is "code" or "textSelection".
	Type      string
	Value     string
	Path      string // optional
	ElementID string // optional
}

// Validate checks the request before any request is sent.
func (r AssistantRequest) Validate() error {
	in := rules.Assistant{Protocol: string(r.Protocol), Question: r.Question, RetrievalPageSize: r.RetrievalPageSize,
		Groups: r.Filter.Groups, CurrentPath: r.CurrentPath, MaxCurrentPath: MaxCurrentPathLength}
	for _, m := range r.Messages {
		in.Messages = append(in.Messages, rules.Message{Role: string(m.Role), Text: m.Text})
	}
	for _, c := range r.Context {
		in.Context = append(in.Context, rules.Context{Type: c.Type, Value: c.Value})
	}
	return validationError(in.Check())
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

// body is what the request sends: the v1 endpoint also wants each
// message's text as its content.
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
// answer as a stream, once the answer's headers arrived. Read it with
// Next, Parts or Collect, and Close it (Parts and Collect close it when
// they end). Ending ctx closes the stream at once.
//
// The message costs credits: it is never sent twice once it may have
// reached the server (MayHaveTakenEffect tells, when Stream fails). A 429
// is waited out when its Retry-After is short (WithMaxRetryAfter), else
// it fails at once with the time to retry (APIError.RetryAt), and later
// messages fail with NotSent, sending nothing, until then.
func (s *AssistantService) Stream(ctx context.Context, domain string, req AssistantRequest) (*AssistantStream, error) {
	k, err := checked(s.core, validateDomainRequest(domain, req))
	if err != nil {
		return nil, err
	}
	proto := req.protocol()
	c := k.post(escapePath(string(proto), "assistant", domain, "message"), req.body())
	// A 429 on a message may be the per-IP daily limit, which leaves
	// search and page reads going: it is remembered for messages alone.
	resp, info, err := k.stream(ctx, c, k.messages, k.budget) //nolint:bodyclose // the stream owns the body: Close, Parts and Collect close it
	if err != nil {
		return nil, fmt.Errorf("asking the assistant of %s: %w", domain, err)
	}
	return newAssistantStream(ctx, k, c, proto, resp.Body, info), nil
}

// Ask sends a message and collects the whole answer: Stream, then
// Collect.
func (s *AssistantService) Ask(ctx context.Context, domain string, req AssistantRequest) (*AssistantAnswer, error) {
	st, err := s.Stream(ctx, domain, req)
	if err != nil {
		return nil, err
	}
	return st.Collect()
}
