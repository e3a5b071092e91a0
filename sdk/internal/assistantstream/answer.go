package assistantstream

import "github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"

// Answer gathers a whole answer from its parts, as package sdk's Collect
// hands it out: the text and reasoning pooled, the sources, the parts
// worth keeping, the error texts and the parts' problems.
type Answer struct {
	Text, Reasoning Pieces
	Sources         []Source
	// Parts are the parts kept whole: tool calls and results, data,
	// errors and types the package does not know (not the deltas, the
	// markers of blocks and steps, start or finish).
	Parts        []Part
	Errors       []string
	Problems     wire.Problems
	FinishReason string
	size         int64
}

// Add gathers p, unless it would take what the answer holds past most
// bytes: then it reports false, and p is not gathered.
func (a *Answer) Add(p Part, most int64) bool {
	a.size += int64(len(p.Text) + len(p.Data) + len(p.Raw) + len(p.ErrorText))
	if p.Tool != nil {
		a.size += int64(len(p.Tool.Input) + len(p.Tool.Output))
	}
	if a.size > most {
		return false
	}
	for _, pr := range p.Problems {
		a.Problems.Add(string(p.Type), "%s", pr) // at most wire.MaxProblems
	}
	switch p.Type {
	case TextDelta:
		a.Text.Add(p.Text)
	case ReasoningDelta:
		a.Reasoning.Add(p.Text)
	case SourceURL, SourceDocument:
		a.Sources = append(a.Sources, *p.Source)
	case Error:
		a.Errors = append(a.Errors, p.ErrorText)
		a.Parts = append(a.Parts, p)
	case Finish:
		a.FinishReason = p.FinishReason
	case Start, TextStart, TextEnd, ReasoningStart, ReasoningEnd, StartStep, FinishStep, ToolInputDelta:
	default:
		a.Parts = append(a.Parts, p)
	}
	return true
}
