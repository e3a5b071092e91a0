package sdk

import (
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/assistantstream"
)

// PartType is the type of a part of an answer, as the AI SDK v5 UI
// message stream names it; IsData reports a data part. See the constants
// below; a type the SDK does not know is kept as the server wrote it (a
// v1 part of an unknown code as "v1:" + the code), its JSON in
// AssistantPart.Raw.
type PartType = assistantstream.Type

// The part types the SDK reads.
const (
	PartStart           = assistantstream.Start
	PartTextStart       = assistantstream.TextStart
	PartTextDelta       = assistantstream.TextDelta
	PartTextEnd         = assistantstream.TextEnd
	PartReasoningStart  = assistantstream.ReasoningStart
	PartReasoningDelta  = assistantstream.ReasoningDelta
	PartReasoningEnd    = assistantstream.ReasoningEnd
	PartSourceURL       = assistantstream.SourceURL
	PartSourceDocument  = assistantstream.SourceDocument
	PartFile            = assistantstream.File
	PartToolInputStart  = assistantstream.ToolInputStart
	PartToolInputDelta  = assistantstream.ToolInputDelta
	PartToolInput       = assistantstream.ToolInput
	PartToolInputError  = assistantstream.ToolInputError
	PartToolOutput      = assistantstream.ToolOutput
	PartToolOutputError = assistantstream.ToolOutputError
	PartStartStep       = assistantstream.StartStep
	PartFinishStep      = assistantstream.FinishStep
	PartMessageMetadata = assistantstream.MessageMetadata
	PartFinish          = assistantstream.Finish
	PartError           = assistantstream.Error
	PartAbort           = assistantstream.Abort
	// PartData is a v1 data part (code 2); v2 data parts are "data-" +
	// their name.
	PartData = assistantstream.Data
	// PartMessageAnnotations is a v1 annotations part (code 8).
	PartMessageAnnotations = assistantstream.MessageAnnotations
)

// AssistantPart is one part of a streamed answer: its Type, and the
// fields that type sets (an ID, Text, a Source, a Tool call, Data, a
// FinishReason and ThreadID, an ErrorText, the Raw JSON of a type the SDK
// does not know, the Problems of fields it could not read); the others
// are zero.
type AssistantPart = assistantstream.Part

// AssistantSource is a page or file an answer cites.
type AssistantSource = assistantstream.Source

// AssistantTool is a tool call the assistant made while answering (a
// search of the docs, say): its CallID, Name, Input and Output.
type AssistantTool = assistantstream.Tool

// AssistantAnswer is a whole answer, as Collect gathers it.
type AssistantAnswer struct {
	// Text is every text delta of every block, in order; Reasoning the
	// model's reasoning, pooled alike. Keys are redacted from both whole,
	// even one the server split across blocks.
	Text      string
	Reasoning string
	Sources   []AssistantSource // the pages cited
	// Parts are the parts kept whole: tool calls and results, data,
	// errors and unknown types (not deltas, markers, start or finish).
	Parts []AssistantPart
	// ThreadID continues the conversation (AssistantRequest.ThreadID).
	ThreadID     string
	MessageID    string
	FinishReason string
	Errors       []string // the error parts' texts
	Problems     []string // parts' fields the SDK could not read
	ResponseInfo
}
