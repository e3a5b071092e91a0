package assistantstream

import (
	"errors"
	"fmt"
	"io"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
)

// Collect reads the rest of the stream into an Answer holding at most
// most bytes, its pooled text and reasoning scrubbed of secrets whole. It returns what it gathered, with Next's error when reading
// failed, a TooLarge failure when the answer grew past most (the stream
// then ends with it), or a ReportedError one when the stream carried
// error parts.
func (s *Stream) Collect(most int64) (*Answer, error) {
	var a Answer
	defer func() {
		s.scrubPooled(&a.Text)
		s.scrubPooled(&a.Reasoning)
	}()
	for {
		p, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return &a, err
		}
		if !a.Add(p, most) {
			s.End(&Failure{Problem: TooLarge, Parts: s.parts, Limit: BytesLimit, Max: most,
				Detail: fmt.Sprintf("the answer grew past %d bytes (WithMaxResponseBytes); read it with Next or Parts instead", most)})
			return &a, s.err
		}
	}
	if n := len(a.Errors); n > 0 {
		detail := "the stream carried an error part"
		if n > 1 {
			detail = fmt.Sprintf("the stream carried %d error parts", n)
		}
		return &a, &Failure{Problem: ReportedError, Parts: s.parts, Detail: detail, ServerError: a.Errors[n-1]}
	}
	return &a, nil
}

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
	Problems     bounded.Problems
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
		a.Problems.Add(string(p.Type), "%s", pr) // at most bounded.MaxProblems
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
