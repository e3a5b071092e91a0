package assistantstream

import (
	"encoding/json"
	"strings"
)

// Type is a part's type, as the AI SDK v5 UI message stream names it
// (package sdk's PartType has the same values).
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
	// Data is a v1 data part (code 2).
	Data Type = "data"
	// MessageAnnotations is a v1 annotations part (code 8).
	MessageAnnotations Type = "message-annotations"
)

// Part is one part of a streamed answer, with the fields package sdk's
// AssistantPart has (see it for what each holds).
type Part struct {
	Type         Type
	ID           string
	Text         string
	MessageID    string
	Source       *Source
	Tool         *Tool
	Data         json.RawMessage
	FinishReason string
	ThreadID     string
	ErrorText    string
	Raw          json.RawMessage
	Problems     []string
}

// Source is a page or file an answer cites.
type Source struct {
	ID        string
	URL       string
	Title     string
	MediaType string
	Filename  string
}

// Tool is a tool call the assistant made while answering.
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
