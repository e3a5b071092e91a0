package sdk

import (
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/assistantstream"
)

// The public part types and stream problems are package assistantstream's
// values, so that its parts and failures convert by a cast.
func TestAssistantStream_publicNamesAreTheInternalValues(t *testing.T) {
	for public, internal := range map[PartType]assistantstream.Type{
		PartStart: assistantstream.Start, PartTextStart: assistantstream.TextStart, PartTextDelta: assistantstream.TextDelta,
		PartTextEnd: assistantstream.TextEnd, PartReasoningStart: assistantstream.ReasoningStart,
		PartReasoningDelta: assistantstream.ReasoningDelta, PartReasoningEnd: assistantstream.ReasoningEnd,
		PartSourceURL: assistantstream.SourceURL, PartSourceDocument: assistantstream.SourceDocument, PartFile: assistantstream.File,
		PartToolInputStart: assistantstream.ToolInputStart, PartToolInputDelta: assistantstream.ToolInputDelta,
		PartToolInput: assistantstream.ToolInput, PartToolInputError: assistantstream.ToolInputError,
		PartToolOutput: assistantstream.ToolOutput, PartToolOutputError: assistantstream.ToolOutputError,
		PartStartStep: assistantstream.StartStep, PartFinishStep: assistantstream.FinishStep,
		PartMessageMetadata: assistantstream.MessageMetadata, PartFinish: assistantstream.Finish, PartError: assistantstream.Error,
		PartAbort: assistantstream.Abort, PartData: assistantstream.Data, PartMessageAnnotations: assistantstream.MessageAnnotations,
	} {
		if string(public) != string(internal) {
			t.Errorf("PartType %q is %q inside", public, internal)
		}
	}
	for public, internal := range map[StreamProblem]assistantstream.Problem{
		StreamCut: assistantstream.Cut, StreamMalformed: assistantstream.Malformed, StreamStalled: assistantstream.Stalled,
		StreamTooLong: assistantstream.TooLong, StreamStopped: assistantstream.Stopped, StreamTooLarge: assistantstream.TooLarge,
	} {
		if string(public) != string(internal) {
			t.Errorf("StreamProblem %q is %q inside", public, internal)
		}
	}
}
