package assistantstream

import (
	"encoding/json"
	"strings"
)

// Type is the type of a part of an answer, as the AI SDK v5 UI message
// stream names it (package sdk's PartType). Parts of the v1 stream are
// given the same names; a type the package does not know is kept as the
// server wrote it (a v1 part of an unknown code as "v1:" + the code).
type Type string

// The part types the package reads. Any other is passed on with its JSON
// in Part.Raw.
const (
	Start           Type = "start"
	TextStart       Type = "text-start"
	TextDelta       Type = "text-delta"
	TextEnd         Type = "text-end"
	ReasoningStart  Type = "reasoning-start"
	ReasoningDelta  Type = "reasoning-delta"
	ReasoningEnd    Type = "reasoning-end"
	SourceURL       Type = "source-url"
	SourceDocument  Type = "source-document"
	File            Type = "file"
	ToolInputStart  Type = "tool-input-start"
	ToolInputDelta  Type = "tool-input-delta"
	ToolInput       Type = "tool-input-available"
	ToolInputError  Type = "tool-input-error"
	ToolOutput      Type = "tool-output-available"
	ToolOutputError Type = "tool-output-error"
	StartStep       Type = "start-step"
	FinishStep      Type = "finish-step"
	MessageMetadata Type = "message-metadata"
	Finish          Type = "finish"
	Error           Type = "error"
	Abort           Type = "abort"
	// Data is a v1 data part (code 2); v2 data parts are "data-" + their
	// name (see IsData).
	Data Type = "data"
	// MessageAnnotations is a v1 annotations part (code 8).
	MessageAnnotations Type = "message-annotations"
)

// IsData reports whether t is a data part: v2's data-NAME, v1's data and
// annotations.
func (t Type) IsData() bool {
	return strings.HasPrefix(string(t), "data-") || t == Data || t == MessageAnnotations
}

// Part is one part of a streamed answer (package sdk's AssistantPart).
// Which fields are set depends on Type; the others are zero.
type Part struct {
	Type Type
	// ID is the text or reasoning block a start, delta or end belongs to
	// (v2), or a data part's id.
	ID string
	// Text is a text or reasoning delta, or a tool input's delta.
	Text string
	// MessageID is the answer's message id (start; v1 start-step).
	MessageID string
	// Source is a source-url, source-document or file part's reference.
	Source *Source
	// Tool is a tool-* part's call.
	Tool *Tool
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
	// Raw is the whole part as JSON, for a type the package does not know.
	Raw json.RawMessage
	// Problems name the fields of the part that could not be read.
	Problems []string
}

// Source is a page or file an answer cites.
type Source struct {
	ID        string
	URL       string
	Title     string
	MediaType string
	Filename  string
}

// Tool is a tool call the assistant made while answering (a search of
// the docs, say).
type Tool struct {
	CallID string
	Name   string
	Input  json.RawMessage
	Output json.RawMessage
}

// pieceSize is how much text Pieces gathers before it sets a piece
// aside.
const pieceSize = 64 << 10

// Pieces gathers streamed text for one join at the end: small deltas
// are copied into pieces of 64 KiB, so that a million 1-byte deltas cost
// about a megabyte, not a million strings; a builder growing by doubling
// would allocate about three times the text instead. The zero value is
// empty text.
type Pieces struct {
	done []string
	cur  []byte
}

// Add appends s to the text.
func (p *Pieces) Add(s string) {
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
func (p *Pieces) String() string {
	switch {
	case len(p.done) == 0:
		return string(p.cur)
	case len(p.done) == 1 && len(p.cur) == 0:
		return p.done[0]
	}
	return strings.Join(append(p.done, string(p.cur)), "")
}
