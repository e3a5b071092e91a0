package sdk

import (
	"encoding/json"
	"strings"
)

// The parts of an answer, in the one vocabulary both protocols are read
// into, and the whole answer Collect gathers.

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
	// Text is the answer: every text delta, in order, of every block. The
	// client's keys are redacted from it whole, also one the server split
	// across blocks.
	Text string
	// Reasoning is the model's reasoning, when the stream carried any,
	// pooled and redacted as Text is.
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
