package sdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// budget and from 10,000 per IP per day: while the client knows either is
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
	switch r.Protocol {
	case "", AssistantV2, AssistantV1:
	default:
		return &ValidationError{Field: "protocol", Value: string(r.Protocol), Rule: `must be "v2" or "v1"`}
	}
	if len(r.Messages) == 0 && strings.TrimSpace(r.Question) == "" {
		return &ValidationError{Field: "question", Rule: "is required: set Question (or Messages) to what the user asks"}
	}
	if r.Question != "" {
		if err := requireNonEmpty("question", r.Question); err != nil {
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
		if err := requireNonEmpty(field+".text", m.Text); err != nil {
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

func (r AssistantRequest) protocol() AssistantProtocol {
	if r.Protocol == "" {
		return AssistantV2
	}
	return r.Protocol
}

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
	b := assistantBody{FP: r.Fingerprint, ThreadID: r.ThreadID, RetrievalPageSize: r.RetrievalPageSize,
		Filter: filterBody{Version: r.Filter.Version, Language: r.Filter.Language, Groups: r.Filter.Groups}.orNil(), CurrentPath: r.CurrentPath}
	if b.FP == "" {
		b.FP = "anonymous"
	}
	for i, m := range msgs {
		id := m.ID
		if id == "" {
			id = "msg-" + strconv.Itoa(i+1)
		}
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
	k, err := ready(s.core)
	if err != nil {
		return nil, err
	}
	if err := validateDomainRequest(domain, req); err != nil {
		return nil, err
	}
	proto := req.protocol()
	c := k.post(escapePath(string(proto), "assistant", domain, "message"), req.body())
	// A 429 on a message may be the per-IP daily limit, which leaves
	// search and page reads going: it is remembered for messages alone.
	resp, info, err := k.budgetedStream(ctx, c, k.messages, k.budget) //nolint:bodyclose // the stream owns the body: Close, Parts and Collect close it
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

// PartType is the type of a part of an answer, as the AI SDK v5 UI
// message stream names it. Parts of the v1 stream are given the same
// names; a type the SDK does not know is kept as the server wrote it (a
// v1 part of an unknown code as "v1:" + the code).
type PartType string

// The part types the SDK reads. Any other is passed on with its JSON in
// AssistantPart.Raw.
const (
	PartStart           PartType = "start"
	PartTextStart       PartType = "text-start"
	PartTextDelta       PartType = "text-delta"
	PartTextEnd         PartType = "text-end"
	PartReasoningStart  PartType = "reasoning-start"
	PartReasoningDelta  PartType = "reasoning-delta"
	PartReasoningEnd    PartType = "reasoning-end"
	PartSourceURL       PartType = "source-url"
	PartSourceDocument  PartType = "source-document"
	PartFile            PartType = "file"
	PartToolInputStart  PartType = "tool-input-start"
	PartToolInputDelta  PartType = "tool-input-delta"
	PartToolInput       PartType = "tool-input-available"
	PartToolInputError  PartType = "tool-input-error"
	PartToolOutput      PartType = "tool-output-available"
	PartToolOutputError PartType = "tool-output-error"
	PartStartStep       PartType = "start-step"
	PartFinishStep      PartType = "finish-step"
	PartMessageMetadata PartType = "message-metadata"
	PartFinish          PartType = "finish"
	PartError           PartType = "error"
	PartAbort           PartType = "abort"
	// PartData is a v1 data part (code 2); v2 data parts are "data-" +
	// their name (see IsData).
	PartData PartType = "data"
	// PartMessageAnnotations is a v1 annotations part (code 8).
	PartMessageAnnotations PartType = "message-annotations"
)

// IsData reports whether t is a data part: v2's data-NAME, v1's data and
// annotations.
func (t PartType) IsData() bool {
	return strings.HasPrefix(string(t), "data-") || t == PartData || t == PartMessageAnnotations
}

// AssistantPart is one part of a streamed answer. Which fields are set
// depends on Type; the others are zero.
type AssistantPart struct {
	Type PartType
	// ID is the text or reasoning block a start, delta or end belongs to
	// (v2), or a data part's id.
	ID string
	// Text is a text or reasoning delta, or a tool input's delta.
	Text string
	// MessageID is the answer's message id (start; v1 start-step).
	MessageID string
	// Source is a source-url, source-document or file part's reference.
	Source *AssistantSource
	// Tool is a tool-* part's call.
	Tool *AssistantTool
	// Data is a data part's value, or the message metadata of a start,
	// finish or message-metadata part, as JSON.
	Data json.RawMessage
	// FinishReason is the finish part's reason ("stop", "length", ...).
	FinishReason string
	// ThreadID is the conversation's id, on the finish part: pass it as
	// AssistantRequest.ThreadID to follow up.
	ThreadID string
	// ErrorText is an error part's message, a tool error's, or an abort's
	// reason.
	ErrorText string
	// Raw is the whole part as JSON, for a type the SDK does not know.
	Raw json.RawMessage
	// Problems name the fields of the part the SDK could not read.
	Problems []string
}

// AssistantSource is a page or file an answer cites.
type AssistantSource struct {
	ID        string
	URL       string
	Title     string
	MediaType string
	Filename  string
}

// AssistantTool is a tool call the assistant made while answering (a
// search of the docs, say).
type AssistantTool struct {
	CallID string
	Name   string
	Input  json.RawMessage
	Output json.RawMessage
}

// AssistantAnswer is a whole answer, as Collect gathers it.
type AssistantAnswer struct {
	// Text is the answer: every text delta, in order.
	Text string
	// Reasoning is the model's reasoning, when the stream carried any.
	Reasoning string
	// Sources are the pages the answer cites, in the order they came.
	Sources []AssistantSource
	// Parts are the other parts the SDK keeps: tool calls and results,
	// data, errors and types it does not know (not the deltas, the
	// markers of blocks and steps, start or finish).
	Parts []AssistantPart
	// ThreadID continues the conversation (AssistantRequest.ThreadID).
	ThreadID     string
	MessageID    string
	FinishReason string
	// Errors are the texts of the stream's error parts.
	Errors []string
	// Problems name parts' fields the SDK could not read.
	Problems []string
	ResponseInfo
}

// StreamProblem is why reading a streamed answer failed.
type StreamProblem string

// The ways a streamed answer can fail after its headers arrived.
const (
	// StreamCut: the stream ended before its finish part. The answer is
	// incomplete; the message was sent and cost credits.
	StreamCut StreamProblem = "cut"
	// StreamMalformed: a part is not the protocol's JSON, or a line (or an
	// event's data) is longer than the SDK reads.
	StreamMalformed StreamProblem = "malformed"
	// StreamStalled: no byte came for the client's request timeout.
	StreamStalled StreamProblem = "stalled"
	// StreamTooLong: the answer was still coming after the client's
	// WithMaxStreamDuration (a trickle that never stalls).
	StreamTooLong StreamProblem = "too long"
	// StreamStopped: the caller's context ended, or the stream was closed.
	StreamStopped StreamProblem = "stopped"
	// StreamReportedError: the stream carried error parts (Collect).
	StreamReportedError StreamProblem = "error part"
	// StreamTooLarge: the stream carried more parts than the client's cap
	// (WithMaxStreamParts), or Collect gathered more than its cap of bytes
	// (WithMaxResponseBytes).
	StreamTooLarge StreamProblem = "too large"
)

// StreamError is a streamed answer that could not be read whole. The
// message reached the server (MayHaveTakenEffect is true): asking again
// costs credits again.
type StreamError struct {
	Method string
	Path   string
	// Problem says what went wrong; Detail says it in words.
	Problem StreamProblem
	Detail  string
	// Parts is how many parts were read before it.
	Parts int
	// ServerError is the text of the stream's last error part, if any.
	ServerError string
	// BodyStart is the start of a body that was not a stream at all, with
	// secrets redacted.
	BodyStart string
	Err       error
}

func (e *StreamError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "streamed answer to %s %s: after %s, %s", e.Method, e.Path, plural(e.Parts, "1 part", "%d parts"), e.Detail)
	if e.ServerError != "" {
		fmt.Fprintf(&b, "; the stream reported: %s", DisplayLine(e.ServerError))
	}
	if e.BodyStart != "" {
		fmt.Fprintf(&b, " (body starts %q)", e.BodyStart)
	}
	var limit *LimitError
	if e.Err != nil && !errors.As(e.Err, &limit) { // a bound broken: Detail says which
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

func (e *StreamError) Unwrap() error { return e.Err }

// maxStreamLine caps one line of a stream, and one event's data (its
// lines joined): a part bigger than this (a tool's output, say) is
// refused rather than held whole in memory.
const maxStreamLine = 4 << 20

// AssistantStream is an answer as it arrives. It is not safe for
// concurrent use; Close may be called from any goroutine.
type AssistantStream struct {
	// Protocol is the stream's format.
	Protocol AssistantProtocol
	ResponseInfo

	k       *core
	c       call
	ctx     context.Context
	body    io.ReadCloser
	bounded *boundedBody // the body within its time bounds
	lines   lineReader
	data    []byte // the current v2 event's data
	events  int    // events (v1: lines) read, every kind: WithMaxStreamParts
	stop    func() bool

	queue     []AssistantPart
	held      []heldText
	finished  bool // the finish part came
	ended     bool // nothing more to read
	atEOF     bool // the body ended mid-line: a bad part is a cut
	err       error
	parts     int
	threadID  string
	messageID string
	serverErr string
	closeOnce sync.Once
	closed    atomic.Bool // Close was called: a read error after it is no cut
}

func newAssistantStream(ctx context.Context, k *core, c call, proto AssistantProtocol, body io.ReadCloser, info ResponseInfo) *AssistantStream {
	s := &AssistantStream{Protocol: proto, ResponseInfo: info, k: k, c: c, ctx: ctx, body: body}
	s.bounded = newBoundedBody(body, bodyBounds{idle: k.requestTimeout, total: k.maxStreamDuration, totalOption: "WithMaxStreamDuration"})
	limit := min(int64(maxStreamLine), k.maxResponseBytes)
	s.lines = lineReader{r: bufio.NewReaderSize(s.bounded, 64<<10), max: int(limit)}
	// Ending ctx closes the body at once, even under a transport that
	// does not watch the request's context.
	s.stop = context.AfterFunc(ctx, func() { _ = body.Close() })
	return s
}

// ThreadID is the conversation's id, once the finish part has been read
// ("" before, or when the API sent none).
func (s *AssistantStream) ThreadID() string { return s.threadID }

// Finished reports whether the finish part has been read: the answer is
// whole.
func (s *AssistantStream) Finished() bool { return s.finished }

// Close ends the stream, releasing its connection. It is safe to call
// more than once, and from another goroutine.
func (s *AssistantStream) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.stop()
		s.bounded.stop()
		_ = s.body.Close()
	})
	return nil
}

// Next returns the answer's next part. After the finish part and the end
// of the stream it returns io.EOF. A stream that ends before its finish
// part, stalls, or carries a part that is not JSON returns a
// *StreamError; so does ctx ending (wrapping ctx.Err()). Any error is
// final: Next returns it again.
func (s *AssistantStream) Next() (AssistantPart, error) {
	for {
		if len(s.queue) > 0 {
			p := s.queue[0]
			s.queue = s.queue[1:]
			s.parts++
			return p, nil
		}
		if s.err != nil {
			return AssistantPart{}, s.err
		}
		if s.ended {
			return AssistantPart{}, io.EOF
		}
		if err := s.ctx.Err(); err != nil {
			s.fail(StreamStopped, "the caller stopped reading", err)
			continue
		}
		s.read()
	}
}

// Parts iterates over the answer's parts, then closes the stream. An
// error ends the iteration: it is yielded with a zero part.
func (s *AssistantStream) Parts() iter.Seq2[AssistantPart, error] {
	return func(yield func(AssistantPart, error) bool) {
		defer s.Close()
		for {
			p, err := s.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(AssistantPart{}, err)
				return
			}
			if !yield(p, nil) {
				return
			}
		}
	}
}

// Collect reads the whole answer and closes the stream. What it gathers
// is capped by the client's WithMaxResponseBytes (16 MiB by default), and
// the parts it reads by WithMaxStreamParts (every part counts, empty
// ones too). When reading fails, or the stream carried error parts, it
// returns what it gathered with a *StreamError.
func (s *AssistantStream) Collect() (*AssistantAnswer, error) {
	defer s.Close()
	a := &AssistantAnswer{ResponseInfo: s.ResponseInfo}
	var text, reasoning pieces
	var size int64
	for {
		p, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			a.finish(s, &text, &reasoning)
			return a, err
		}
		size += int64(len(p.Text) + len(p.Data) + len(p.Raw) + len(p.ErrorText))
		if p.Tool != nil {
			size += int64(len(p.Tool.Input) + len(p.Tool.Output))
		}
		if size > s.k.maxResponseBytes {
			a.finish(s, &text, &reasoning)
			err := &StreamError{Method: s.c.method, Path: s.c.path, Problem: StreamTooLarge, Parts: s.parts,
				Detail: fmt.Sprintf("the answer grew past %d bytes (WithMaxResponseBytes); read it with Next or Parts instead", s.k.maxResponseBytes),
				Err:    &LimitError{Limit: LimitBytes, Max: s.k.maxResponseBytes, Option: "WithMaxResponseBytes"}}
			s.err = err
			return a, err
		}
		for _, pr := range p.Problems {
			(*fieldProblems)(&a.Problems).add(string(p.Type), "%s", pr) // at most maxProblems
		}
		switch p.Type {
		case PartTextDelta:
			text.add(p.Text)
		case PartReasoningDelta:
			reasoning.add(p.Text)
		case PartSourceURL, PartSourceDocument:
			a.Sources = append(a.Sources, *p.Source)
		case PartError:
			a.Errors = append(a.Errors, p.ErrorText)
			a.Parts = append(a.Parts, p)
		case PartFinish:
			a.FinishReason = p.FinishReason
		case PartStart, PartTextStart, PartTextEnd, PartReasoningStart, PartReasoningEnd, PartStartStep, PartFinishStep, PartToolInputDelta:
		default:
			a.Parts = append(a.Parts, p)
		}
	}
	a.finish(s, &text, &reasoning)
	if len(a.Errors) > 0 {
		return a, &StreamError{Method: s.c.method, Path: s.c.path, Problem: StreamReportedError, Parts: s.parts,
			Detail: plural(len(a.Errors), "the stream carried an error part", "the stream carried %d error parts"), ServerError: a.Errors[len(a.Errors)-1]}
	}
	return a, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(many, n)
}

func (a *AssistantAnswer) finish(s *AssistantStream, text, reasoning *pieces) {
	a.Text, a.Reasoning = text.String(), reasoning.String()
	a.ThreadID, a.MessageID = s.threadID, s.messageID
}

// pieceSize is how much text pieces gathers before it sets a piece
// aside.
const pieceSize = 64 << 10

// pieces gathers streamed text for one join at the end: small deltas
// are copied into pieces of 64 KiB, so that a million 1-byte deltas cost
// about a megabyte, not a million strings; a builder growing by doubling
// would allocate about three times the text instead.
type pieces struct {
	done []string
	cur  []byte
}

func (p *pieces) add(s string) {
	if len(p.cur)+len(s) > pieceSize && len(p.cur) > 0 {
		p.done = append(p.done, string(p.cur))
		p.cur = p.cur[:0]
	}
	if len(s) >= pieceSize {
		p.done = append(p.done, s)
		return
	}
	p.cur = append(p.cur, s...)
}

// String joins the text.
func (p *pieces) String() string {
	if len(p.done) == 0 {
		return string(p.cur)
	}
	return strings.Join(append(p.done, string(p.cur)), "")
}

// fail ends the stream with a final error. Text held back for redaction
// is dropped: it may be most of a secret.
// bodyStart, when given, is what the stream began with, to show a body
// that was not a stream.
func (s *AssistantStream) fail(problem StreamProblem, detail string, err error, bodyStart ...[]byte) {
	if s.err != nil {
		return
	}
	se := &StreamError{Method: s.c.method, Path: s.c.path, Problem: problem, Detail: detail, Parts: s.parts, ServerError: s.serverErr, Err: err}
	if len(bodyStart) > 0 {
		se.BodyStart = s.k.snippet(bodyStart[0])
	}
	s.err = se
	s.held = nil
	_ = s.Close()
}

// read reads the next part (or parts) into the queue, or ends the stream.
func (s *AssistantStream) read() {
	var payload []byte
	var err error
	if s.Protocol == AssistantV1 {
		payload, err = s.lines.next()
		if errors.Is(err, errPartialLine) {
			s.atEOF, err = true, nil
		}
		if err == nil && len(bytes.TrimSpace(payload)) == 0 {
			if err := s.countEvent(); err != nil {
				s.readFailed(err)
			}
			return
		}
	} else {
		payload, err = s.nextEvent()
	}
	if err == nil {
		err = s.countEvent()
	}
	if err != nil {
		s.readFailed(err)
		return
	}
	if s.Protocol != AssistantV1 && string(bytes.TrimSpace(payload)) == "[DONE]" {
		s.end()
		return
	}
	var parts []AssistantPart
	if s.Protocol == AssistantV1 {
		parts, err = s.partsV1(payload)
	} else {
		parts, err = s.partsV2(payload)
	}
	if err != nil {
		if s.atEOF {
			s.fail(StreamCut, "the stream ended in the middle of a part; the answer is incomplete", nil)
			return
		}
		s.fail(StreamMalformed, "a part is not the stream's JSON: "+s.k.redact(err.Error()), nil, payload)
		return
	}
	s.queue = append(s.queue, parts...)
}

// readFailed ends the stream on a read error or the body's end.
func (s *AssistantStream) readFailed(err error) {
	var limit *LimitError
	switch {
	case s.finished:
		// The answer is whole: whatever follows the finish part (the end
		// of the body, a dropped connection) ends it cleanly.
		s.end()
	case s.ctx.Err() != nil:
		s.fail(StreamStopped, "the caller stopped reading", s.ctx.Err())
	case s.closed.Load():
		s.fail(StreamStopped, "the stream was closed", nil)
	case errors.As(err, &limit) && limit.Limit == LimitIdle:
		s.fail(StreamStalled, fmt.Sprintf("no data came for %s (the request timeout); the answer is incomplete", s.k.requestTimeout), limit)
	case limit != nil && limit.Limit == LimitDuration:
		s.fail(StreamTooLong, fmt.Sprintf("the answer was still coming after %s (WithMaxStreamDuration); it is incomplete", limit.After), limit)
	case errors.Is(err, errLineTooLong):
		s.fail(StreamMalformed, fmt.Sprintf("a line is longer than %d bytes", s.lines.max), &LimitError{Limit: LimitLine, Max: int64(s.lines.max)})
	case errors.Is(err, errEventTooLong):
		s.fail(StreamMalformed, fmt.Sprintf("an event's data is longer than %d bytes (its data lines came without the blank line that ends an event)", s.lines.max),
			&LimitError{Limit: LimitLine, Max: int64(s.lines.max)})
	case errors.Is(err, errTooManyParts):
		s.fail(StreamTooLarge, fmt.Sprintf("the stream carried more than %d parts (WithMaxStreamParts); the answer is incomplete", s.k.maxStreamParts),
			&LimitError{Limit: LimitParts, Max: int64(s.k.maxStreamParts), Option: "WithMaxStreamParts"})
	case errors.Is(err, io.EOF):
		detail := "the stream ended before its finish part; the answer is incomplete"
		if s.parts == 0 && len(s.lines.start) > 0 {
			s.fail(StreamCut, detail, nil, s.lines.start)
			return
		}
		s.fail(StreamCut, detail, nil)
	default:
		s.fail(StreamCut, "reading the stream failed before its finish part; the answer is incomplete", err)
	}
}

// end ends a stream whose finish part came (or a [DONE] marker): text held
// back for redaction is handed out first.
func (s *AssistantStream) end() {
	if !s.finished {
		s.fail(StreamCut, "the stream ended (with [DONE]) before its finish part; the answer is incomplete", nil)
		return
	}
	s.queue = append(s.queue, s.flush(func(heldText) bool { return true })...)
	s.ended = true
	_ = s.Close()
}

// nextEvent reads one server-sent event and returns its data: the data
// lines joined by newlines. Comments (keep-alives) and other fields are
// skipped. io.EOF means the body ended with no event pending.
func (s *AssistantStream) nextEvent() ([]byte, error) {
	s.data = s.data[:0]
	have := false
	lines := 0 // the event's lines so far: comments, fields
	for {
		line, err := s.lines.next()
		partial := errors.Is(err, errPartialLine)
		if err != nil && !partial {
			if errors.Is(err, io.EOF) && have {
				// The last event lacks its blank line: if its data is
				// whole, it counts; if not, it fails as a cut.
				s.atEOF = true
				return s.data, nil
			}
			return nil, err
		}
		if partial {
			s.atEOF = true
		}
		switch {
		case len(line) == 0 && have:
			return s.data, nil
		case len(line) == 0 && lines > 0: // the end of an event of comments: counted as they came
			lines = 0
		case len(line) == 0 || line[0] == ':': // a blank line alone, or a comment (a keep-alive): a part all the same
			if err := s.countEvent(); err != nil {
				return nil, err
			}
			lines++
		default:
			lines++
			name, value, _ := bytes.Cut(line, []byte(":"))
			if string(name) == "data" {
				value, _ = bytes.CutPrefix(value, []byte(" "))
				// The event's data is capped like a line: data lines
				// without the blank line that ends an event must not
				// grow it without end.
				if len(s.data)+1+len(value) > s.lines.max {
					return nil, errEventTooLong
				}
				if have {
					s.data = append(s.data, '\n')
				}
				s.data = append(s.data, value...)
				have = true
			}
		}
		if partial {
			if have {
				return s.data, nil
			}
			return nil, io.EOF
		}
	}
}

// rawPart is a v2 part: every field any known type has.
type rawPart struct {
	Type            text            `json:"type"`
	ID              text            `json:"id"`
	Delta           text            `json:"delta"`
	MessageID       text            `json:"messageId"`
	MessageMetadata json.RawMessage `json:"messageMetadata"`
	ErrorText       text            `json:"errorText"`
	ToolCallID      text            `json:"toolCallId"`
	ToolName        text            `json:"toolName"`
	InputTextDelta  text            `json:"inputTextDelta"`
	Input           json.RawMessage `json:"input"`
	Output          json.RawMessage `json:"output"`
	SourceID        text            `json:"sourceId"`
	URL             text            `json:"url"`
	Title           text            `json:"title"`
	MediaType       text            `json:"mediaType"`
	Filename        text            `json:"filename"`
	Data            json.RawMessage `json:"data"`
	FinishReason    text            `json:"finishReason"`
	ThreadID        text            `json:"threadId"`
	Reason          text            `json:"reason"`
}

// partsV2 reads one v2 part. It returns the parts to hand out: the part,
// preceded by text held back for redaction when the part ends a block.
func (s *AssistantStream) partsV2(payload []byte) ([]AssistantPart, error) {
	var p fieldProblems
	var raw rawPart
	if err := decodeRaw(payload, &raw, &p); err != nil {
		return nil, err
	}
	k := s.k
	part := AssistantPart{Type: PartType(k.redact(nonEmpty(&p, top("type"), raw.Type)))}
	str := func(name string, t text) string { return k.redact(orEmpty(&p, top(name), t)) }
	need := func(name string, t text) string { return k.redact(required(&p, top(name), t)) }
	var before []AssistantPart
	switch t := part.Type; {
	case t == PartTextDelta || t == PartReasoningDelta:
		part.ID = str("id", raw.ID)
		part.Text = s.scrubDelta(t, part.ID, required(&p, top("delta"), raw.Delta))
		if part.Text == "" && raw.Delta.v != "" {
			return nil, nil // all held back, for now
		}
	case t == PartTextStart || t == PartReasoningStart:
		part.ID = str("id", raw.ID)
	case t == PartTextEnd || t == PartReasoningEnd:
		part.ID = str("id", raw.ID)
		delta := PartTextDelta
		if t == PartReasoningEnd {
			delta = PartReasoningDelta
		}
		before = s.flush(func(h heldText) bool { return h.kind == delta && h.id == part.ID })
	case t == PartStart:
		part.MessageID = str("messageId", raw.MessageID)
		part.Data = k.redactJSON(raw.MessageMetadata)
		if part.MessageID != "" {
			s.messageID = part.MessageID
		}
	case t == PartFinish:
		part.FinishReason = str("finishReason", raw.FinishReason)
		part.Data = k.redactJSON(raw.MessageMetadata)
		part.ThreadID = str("threadId", raw.ThreadID)
		if part.ThreadID == "" {
			part.ThreadID = k.redact(threadIDIn(raw.MessageMetadata))
		}
		s.threadID, s.finished = part.ThreadID, true
		before = s.flush(func(heldText) bool { return true })
	case t == PartMessageMetadata:
		part.Data = k.redactJSON(raw.MessageMetadata)
	case t == PartError:
		part.ErrorText = need("errorText", raw.ErrorText)
		s.serverErr = part.ErrorText
	case t == PartAbort:
		part.ErrorText = str("reason", raw.Reason)
	case strings.HasPrefix(string(t), "tool-"):
		part.Tool = &AssistantTool{CallID: need("toolCallId", raw.ToolCallID), Name: str("toolName", raw.ToolName),
			Input: k.redactJSON(raw.Input), Output: k.redactJSON(raw.Output)}
		part.ErrorText = str("errorText", raw.ErrorText)
		switch t {
		case PartToolInputDelta:
			part.Text = s.scrubDelta(t, part.Tool.CallID, required(&p, top("inputTextDelta"), raw.InputTextDelta))
			if part.Text == "" && raw.InputTextDelta.v != "" {
				return nil, nil
			}
		case PartToolInput, PartToolInputError:
			before = s.flush(func(h heldText) bool { return h.kind == PartToolInputDelta && h.id == part.Tool.CallID })
		case PartToolInputStart, PartToolOutput, PartToolOutputError:
		default: // a tool part the SDK does not know: keep it whole
			part.Raw = k.redactJSON(payload)
		}
	case t == PartSourceURL:
		part.Source = &AssistantSource{ID: str("sourceId", raw.SourceID), URL: need("url", raw.URL), Title: str("title", raw.Title)}
	case t == PartSourceDocument:
		part.Source = &AssistantSource{ID: str("sourceId", raw.SourceID), Title: str("title", raw.Title),
			MediaType: str("mediaType", raw.MediaType), Filename: str("filename", raw.Filename)}
	case t == PartFile:
		part.Source = &AssistantSource{URL: need("url", raw.URL), MediaType: str("mediaType", raw.MediaType)}
	case t == PartStartStep || t == PartFinishStep:
	case strings.HasPrefix(string(t), "data-"):
		part.ID = str("id", raw.ID)
		part.Data = k.redactJSON(raw.Data)
	default:
		part.Raw = k.redactJSON(payload)
	}
	part.Problems = p
	return append(before, part), nil
}

// rawV1 is the value of a v1 part: every field any known code has.
type rawV1 struct {
	ToolCallID    text            `json:"toolCallId"`
	ToolName      text            `json:"toolName"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	ArgsTextDelta text            `json:"argsTextDelta"`
	FinishReason  text            `json:"finishReason"`
	ThreadID      text            `json:"threadId"`
	MessageID     text            `json:"messageId"`
	ID            text            `json:"id"`
	URL           text            `json:"url"`
	Title         text            `json:"title"`
}

// partsV1 reads one v1 line, CODE:JSON, into parts named as v2 names
// them.
func (s *AssistantStream) partsV1(line []byte) ([]AssistantPart, error) {
	line = bytes.TrimRight(line, "\r")
	code, value, ok := bytes.Cut(line, []byte(":"))
	if !ok || len(code) == 0 {
		return nil, errors.New("a v1 part is CODE:JSON, and this line has no code")
	}
	if !json.Valid(value) {
		return nil, fmt.Errorf("the value of a %q part is not JSON", clip(string(code), 10))
	}
	k := s.k
	var p fieldProblems
	str := func(name string, t text) string { return k.redact(orEmpty(&p, top(name), t)) }
	need := func(name string, t text) string { return k.redact(required(&p, top(name), t)) }
	var raw rawV1
	obj := func() {
		if value[0] != '{' {
			p.add("value", "want an object, got %s", rawKind(value))
			return
		}
		_ = decodeRaw(value, &raw, &p)
	}
	stringValue := func() string {
		var t text
		_ = t.UnmarshalJSON(value)
		return required(&p, top("value"), t)
	}
	var part AssistantPart
	var before []AssistantPart
	switch string(code) {
	case "0", "g":
		part.Type = PartTextDelta
		if code[0] == 'g' {
			part.Type = PartReasoningDelta
		}
		v := stringValue()
		part.Text = s.scrubDelta(part.Type, "", v)
		if part.Text == "" && v != "" {
			return nil, nil
		}
	case "3":
		part.Type, part.ErrorText = PartError, k.redact(stringValue())
		s.serverErr = part.ErrorText
	case "2", "8":
		part.Type, part.Data = PartData, k.redactJSON(value)
		if code[0] == '8' {
			part.Type = PartMessageAnnotations
		}
		if id := threadIDIn(value); id != "" {
			s.threadID = k.redact(id)
		}
	case "9", "b":
		obj()
		part.Type = PartToolInput
		if code[0] == 'b' {
			part.Type = PartToolInputStart
		}
		part.Tool = &AssistantTool{CallID: need("toolCallId", raw.ToolCallID), Name: str("toolName", raw.ToolName), Input: k.redactJSON(raw.Args)}
		if part.Type == PartToolInput {
			before = s.flush(func(h heldText) bool { return h.kind == PartToolInputDelta && h.id == part.Tool.CallID })
		}
	case "c":
		obj()
		part.Type = PartToolInputDelta
		part.Tool = &AssistantTool{CallID: need("toolCallId", raw.ToolCallID)}
		v := required(&p, top("argsTextDelta"), raw.ArgsTextDelta)
		part.Text = s.scrubDelta(part.Type, part.Tool.CallID, v)
		if part.Text == "" && v != "" {
			return nil, nil
		}
	case "a":
		obj()
		part.Type = PartToolOutput
		part.Tool = &AssistantTool{CallID: need("toolCallId", raw.ToolCallID), Output: k.redactJSON(raw.Result)}
	case "h":
		obj()
		part.Type = PartSourceURL
		part.Source = &AssistantSource{ID: str("id", raw.ID), URL: need("url", raw.URL), Title: str("title", raw.Title)}
	case "f":
		obj()
		part.Type, part.MessageID = PartStartStep, str("messageId", raw.MessageID)
		if part.MessageID != "" && s.messageID == "" {
			s.messageID = part.MessageID
		}
	case "e", "d":
		obj()
		part.Type, part.FinishReason = PartFinishStep, str("finishReason", raw.FinishReason)
		part.Data = k.redactJSON(value)
		if code[0] == 'd' {
			part.Type = PartFinish
			part.ThreadID = str("threadId", raw.ThreadID)
			if part.ThreadID == "" {
				part.ThreadID = s.threadID // from a data part, if one carried it
			}
			s.threadID, s.finished = part.ThreadID, true
		}
	default:
		part.Type, part.Raw = PartType("v1:"+k.redact(clip(string(code), 10))), k.redactJSON(value)
	}
	if part.Type != PartTextDelta && part.Type != PartReasoningDelta && part.Type != PartToolInputDelta {
		// v1 text has no block ends: any other part ends the text so far.
		before = append(s.flush(func(h heldText) bool { return h.kind != PartToolInputDelta }), before...)
	}
	part.Problems = p
	return append(before, part), nil
}

// threadIDIn finds a threadId in JSON metadata or data: an object's
// "threadId", or that of an object in a list.
func threadIDIn(raw json.RawMessage) string {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`threadId`)) || checkLists(raw) != nil {
		return ""
	}
	var one struct {
		ThreadID string `json:"threadId"`
	}
	if json.Unmarshal(raw, &one) == nil && one.ThreadID != "" {
		return one.ThreadID
	}
	var many []json.RawMessage
	if json.Unmarshal(raw, &many) == nil {
		for _, m := range many {
			if json.Unmarshal(m, &one) == nil && one.ThreadID != "" {
				return one.ThreadID
			}
		}
	}
	return ""
}

// heldText is the end of a streamed text held back because it could be
// the start of a secret split across deltas.
type heldText struct {
	kind PartType
	id   string
	text string
}

// scrubDelta redacts the client's secrets from a streamed text: a secret
// may arrive split across deltas, so the end of a delta that could start
// one is held back until the next delta (or the block's end) shows
// whether it does.
func (s *AssistantStream) scrubDelta(kind PartType, id, delta string) string {
	i := -1
	for j, h := range s.held {
		if h.kind == kind && h.id == id {
			i = j
			break
		}
	}
	text := delta
	if i >= 0 {
		text = s.held[i].text + delta
	}
	text = s.k.redact(text)
	n := secretPrefixAtEnd(text, s.k.secretList())
	switch {
	case n > 0 && i >= 0:
		s.held[i].text = text[len(text)-n:]
	case n > 0:
		s.held = append(s.held, heldText{kind: kind, id: id, text: text[len(text)-n:]})
	case i >= 0:
		s.held = append(s.held[:i], s.held[i+1:]...)
	}
	return text[:len(text)-n]
}

// flush hands out, as deltas, the held texts that match.
func (s *AssistantStream) flush(match func(heldText) bool) []AssistantPart {
	var out []AssistantPart
	kept := s.held[:0]
	for _, h := range s.held {
		if !match(h) {
			kept = append(kept, h)
			continue
		}
		p := AssistantPart{Type: h.kind, Text: h.text}
		if h.kind == PartToolInputDelta {
			p.Tool = &AssistantTool{CallID: h.id}
		} else {
			p.ID = h.id
		}
		out = append(out, p)
	}
	s.held = kept
	return out
}

// secretPrefixAtEnd returns the length of the longest end of s that is
// the start of a secret (but not a whole one).
func secretPrefixAtEnd(s string, secrets []string) int {
	longest := 0
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		for i := max(0, len(s)-len(secret)+1); i < len(s)-longest; i++ {
			if s[i] == secret[0] && strings.HasPrefix(secret, s[i:]) {
				longest = len(s) - i
				break
			}
		}
	}
	return longest
}

// redactJSON returns a JSON value without the client's secrets (nil for
// none or null). Only a value that may spell one is decoded and encoded
// again.
func (k *core) redactJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	out := append(json.RawMessage(nil), raw...)
	if !k.mayHoldSecret(raw) {
		return out
	}
	if checkLists(raw) != nil { // too many items to decode: kept as text
		return json.RawMessage(strconv.Quote(k.redact(string(raw))))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return json.RawMessage(strconv.Quote(k.redact(string(raw))))
	}
	v, found := redactAny(v, k.secretList())
	if !found {
		return out
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// redactAny removes secrets from a decoded JSON value (strings, and keys
// and values of objects and lists).
func redactAny(v any, secrets []string) (any, bool) {
	switch t := v.(type) {
	case string:
		return scrub(t, secrets)
	case []any:
		found := false
		for i, e := range t {
			var f bool
			t[i], f = redactAny(e, secrets)
			found = found || f
		}
		return t, found
	case map[string]any:
		found := false
		for key, e := range t {
			clean, f := redactAny(e, secrets)
			cleanKey, fk := scrub(key, secrets)
			if fk {
				delete(t, key)
			}
			t[cleanKey] = clean
			found = found || f || fk
		}
		return t, found
	}
	return v, false
}

// errLineTooLong and errPartialLine are what lineReader says of a line
// past its cap, and of a last line the body ended before its newline;
// errEventTooLong and errTooManyParts what an event reader says of an
// event's data past the line cap, and of a stream past its parts.
var (
	errLineTooLong  = errors.New("line too long")
	errPartialLine  = errors.New("partial last line")
	errEventTooLong = errors.New("event too long")
	errTooManyParts = errors.New("too many parts")
)

// countEvent counts an event read (a v1 line), whatever it holds, against
// the client's WithMaxStreamParts: parts that carry nothing (empty deltas,
// step markers, keep-alives) cost time all the same.
func (s *AssistantStream) countEvent() error {
	if s.events++; s.events > s.k.maxStreamParts {
		return errTooManyParts
	}
	return nil
}

// lineReader reads a stream line by line, whatever the reads' sizes: a
// line split across reads is joined, and no line grows past max.
type lineReader struct {
	r   *bufio.Reader
	buf []byte
	max int
	// start keeps the stream's first bytes, to show a body that is not a
	// stream at all.
	start []byte
}

// next returns the next line without its line ending; the slice is valid
// until the next call. At the body's end it returns io.EOF, or the last
// line with errPartialLine when that line had no newline.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if len(l.start) < 256 {
			l.start = append(l.start, frag[:min(len(frag), 256-len(l.start))]...)
		}
		if len(l.buf)+len(frag) > l.max+2 {
			return nil, errLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			l.buf = append(l.buf, frag...)
			continue
		}
		line := frag
		if len(l.buf) > 0 {
			l.buf = append(l.buf, frag...)
			line = l.buf
		}
		if err != nil {
			if len(line) > 0 && errors.Is(err, io.EOF) {
				return bytes.TrimSuffix(line, []byte("\r")), errPartialLine
			}
			return nil, err
		}
		line = line[:len(line)-1]
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}
