package assistantstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"
)

// The two protocols' parts: a v2 event's JSON part, a v1 CODE:JSON
// line, each read into Parts named as v2 names them.

// rawPart is a v2 part: every field any known type has.
type rawPart struct {
	Type            wire.Text       `json:"type"`
	ID              wire.Text       `json:"id"`
	Delta           wire.Text       `json:"delta"`
	MessageID       wire.Text       `json:"messageId"`
	MessageMetadata json.RawMessage `json:"messageMetadata"`
	ErrorText       wire.Text       `json:"errorText"`
	ToolCallID      wire.Text       `json:"toolCallId"`
	ToolName        wire.Text       `json:"toolName"`
	InputTextDelta  wire.Text       `json:"inputTextDelta"`
	Input           json.RawMessage `json:"input"`
	Output          json.RawMessage `json:"output"`
	SourceID        wire.Text       `json:"sourceId"`
	URL             wire.Text       `json:"url"`
	Title           wire.Text       `json:"title"`
	MediaType       wire.Text       `json:"mediaType"`
	Filename        wire.Text       `json:"filename"`
	Data            json.RawMessage `json:"data"`
	FinishReason    wire.Text       `json:"finishReason"`
	ThreadID        wire.Text       `json:"threadId"`
	Reason          wire.Text       `json:"reason"`
}

// partsV2 reads one v2 part. It returns the parts to hand out: the part,
// preceded by text held back for redaction when the part ends a block.
func (s *Stream) partsV2(payload []byte) ([]Part, error) {
	var p wire.Problems
	var raw rawPart
	if err := wire.ReadRaw(payload, &raw, &p); err != nil {
		return nil, err
	}
	part := Part{Type: Type(s.redact(wire.NonEmpty(&p, wire.Top("type"), raw.Type)))}
	str := func(name string, t wire.Text) string { return s.redact(wire.OrEmpty(&p, wire.Top(name), t)) }
	need := func(name string, t wire.Text) string { return s.redact(wire.Required(&p, wire.Top(name), t)) }
	var before []Part
	switch t := part.Type; {
	case t == TextDelta || t == ReasoningDelta:
		part.ID = str("id", raw.ID)
		part.Text = s.scrubDelta(t, part.ID, wire.Required(&p, wire.Top("delta"), raw.Delta))
		if part.Text == "" && raw.Delta.Value() != "" {
			return nil, nil // all held back, for now
		}
	case t == TextStart || t == ReasoningStart:
		part.ID = str("id", raw.ID)
	case t == TextEnd || t == ReasoningEnd:
		part.ID = str("id", raw.ID)
		delta := TextDelta
		if t == ReasoningEnd {
			delta = ReasoningDelta
		}
		before = s.flush(func(h heldText) bool { return h.kind == delta && h.id == part.ID })
	case t == Start:
		part.MessageID = str("messageId", raw.MessageID)
		part.Data = s.redactJSON(raw.MessageMetadata)
		if part.MessageID != "" {
			s.messageID = part.MessageID
		}
	case t == Finish:
		part.FinishReason = str("finishReason", raw.FinishReason)
		part.Data = s.redactJSON(raw.MessageMetadata)
		part.ThreadID = str("threadId", raw.ThreadID)
		if part.ThreadID == "" {
			part.ThreadID = s.redact(threadIDIn(raw.MessageMetadata))
		}
		s.threadID, s.finished = part.ThreadID, true
		before = s.flush(func(heldText) bool { return true })
	case t == MessageMetadata:
		part.Data = s.redactJSON(raw.MessageMetadata)
	case t == Error:
		part.ErrorText = need("errorText", raw.ErrorText)
		s.serverErr = part.ErrorText
	case t == Abort:
		part.ErrorText = str("reason", raw.Reason)
	case strings.HasPrefix(string(t), "tool-"):
		part.Tool = &Tool{CallID: need("toolCallId", raw.ToolCallID), Name: str("toolName", raw.ToolName),
			Input: s.redactJSON(raw.Input), Output: s.redactJSON(raw.Output)}
		part.ErrorText = str("errorText", raw.ErrorText)
		switch t {
		case ToolInputDelta:
			part.Text = s.scrubDelta(t, part.Tool.CallID, wire.Required(&p, wire.Top("inputTextDelta"), raw.InputTextDelta))
			if part.Text == "" && raw.InputTextDelta.Value() != "" {
				return nil, nil
			}
		case ToolInput, ToolInputError:
			before = s.flush(func(h heldText) bool { return h.kind == ToolInputDelta && h.id == part.Tool.CallID })
		case ToolInputStart, ToolOutput, ToolOutputError:
		default: // a tool part the SDK does not know: keep it whole
			part.Raw = s.redactJSON(payload)
		}
	case t == SourceURL:
		part.Source = &Source{ID: str("sourceId", raw.SourceID), URL: need("url", raw.URL), Title: str("title", raw.Title)}
	case t == SourceDocument:
		part.Source = &Source{ID: str("sourceId", raw.SourceID), Title: str("title", raw.Title),
			MediaType: str("mediaType", raw.MediaType), Filename: str("filename", raw.Filename)}
	case t == File:
		part.Source = &Source{URL: need("url", raw.URL), MediaType: str("mediaType", raw.MediaType)}
	case t == StartStep || t == FinishStep:
	case strings.HasPrefix(string(t), "data-"):
		part.ID = str("id", raw.ID)
		part.Data = s.redactJSON(raw.Data)
	default:
		part.Raw = s.redactJSON(payload)
	}
	part.Problems = []string(p)
	return append(before, part), nil
}

// rawV1 is the value of a v1 part: every field any known code has.
type rawV1 struct {
	ToolCallID    wire.Text       `json:"toolCallId"`
	ToolName      wire.Text       `json:"toolName"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	ArgsTextDelta wire.Text       `json:"argsTextDelta"`
	FinishReason  wire.Text       `json:"finishReason"`
	ThreadID      wire.Text       `json:"threadId"`
	MessageID     wire.Text       `json:"messageId"`
	ID            wire.Text       `json:"id"`
	URL           wire.Text       `json:"url"`
	Title         wire.Text       `json:"title"`
}

// partsV1 reads one v1 line, CODE:JSON, into parts named as v2 names
// them.
func (s *Stream) partsV1(line []byte) ([]Part, error) {
	line = bytes.TrimRight(line, "\r")
	code, value, ok := bytes.Cut(line, []byte(":"))
	if !ok || len(code) == 0 {
		return nil, errors.New("a v1 part is CODE:JSON, and this line has no code")
	}
	if !json.Valid(value) {
		return nil, fmt.Errorf("the value of a %q part is not JSON", redact.Clip(string(code), 10))
	}
	var p wire.Problems
	str := func(name string, t wire.Text) string { return s.redact(wire.OrEmpty(&p, wire.Top(name), t)) }
	need := func(name string, t wire.Text) string { return s.redact(wire.Required(&p, wire.Top(name), t)) }
	var raw rawV1
	obj := func() {
		if value[0] != '{' {
			p.Add("value", "want an object, got %s", wire.RawKind(value))
			return
		}
		_ = wire.ReadRaw(value, &raw, &p)
	}
	stringValue := func() string {
		var t wire.Text
		_ = t.UnmarshalJSON(value)
		return wire.Required(&p, wire.Top("value"), t)
	}
	var part Part
	var before []Part
	switch string(code) {
	case "0", "g":
		part.Type = TextDelta
		if code[0] == 'g' {
			part.Type = ReasoningDelta
		}
		v := stringValue()
		part.Text = s.scrubDelta(part.Type, "", v)
		if part.Text == "" && v != "" {
			return nil, nil
		}
	case "3":
		part.Type, part.ErrorText = Error, s.redact(stringValue())
		s.serverErr = part.ErrorText
	case "2", "8":
		part.Type, part.Data = Data, s.redactJSON(value)
		if code[0] == '8' {
			part.Type = MessageAnnotations
		}
		if id := threadIDIn(value); id != "" {
			s.threadID = s.redact(id)
		}
	case "9", "b":
		obj()
		part.Type = ToolInput
		if code[0] == 'b' {
			part.Type = ToolInputStart
		}
		part.Tool = &Tool{CallID: need("toolCallId", raw.ToolCallID), Name: str("toolName", raw.ToolName), Input: s.redactJSON(raw.Args)}
		if part.Type == ToolInput {
			before = s.flush(func(h heldText) bool { return h.kind == ToolInputDelta && h.id == part.Tool.CallID })
		}
	case "c":
		obj()
		part.Type = ToolInputDelta
		part.Tool = &Tool{CallID: need("toolCallId", raw.ToolCallID)}
		v := wire.Required(&p, wire.Top("argsTextDelta"), raw.ArgsTextDelta)
		part.Text = s.scrubDelta(part.Type, part.Tool.CallID, v)
		if part.Text == "" && v != "" {
			return nil, nil
		}
	case "a":
		obj()
		part.Type = ToolOutput
		part.Tool = &Tool{CallID: need("toolCallId", raw.ToolCallID), Output: s.redactJSON(raw.Result)}
	case "h":
		obj()
		part.Type = SourceURL
		part.Source = &Source{ID: str("id", raw.ID), URL: need("url", raw.URL), Title: str("title", raw.Title)}
	case "f":
		obj()
		part.Type, part.MessageID = StartStep, str("messageId", raw.MessageID)
		if part.MessageID != "" && s.messageID == "" {
			s.messageID = part.MessageID
		}
	case "e", "d":
		obj()
		part.Type, part.FinishReason = FinishStep, str("finishReason", raw.FinishReason)
		part.Data = s.redactJSON(value)
		if code[0] == 'd' {
			part.Type = Finish
			part.ThreadID = str("threadId", raw.ThreadID)
			if part.ThreadID == "" {
				part.ThreadID = s.threadID // from a data part, if one carried it
			}
			s.threadID, s.finished = part.ThreadID, true
		}
	default:
		part.Type, part.Raw = Type("v1:"+s.redact(redact.Clip(string(code), 10))), s.redactJSON(value)
	}
	if part.Type != TextDelta && part.Type != ReasoningDelta && part.Type != ToolInputDelta {
		// v1 text has no block ends: any other part ends the text so far.
		before = append(s.flush(func(h heldText) bool { return h.kind != ToolInputDelta }), before...)
	}
	part.Problems = []string(p)
	return append(before, part), nil
}

// threadIDIn finds a threadId in JSON metadata or data: an object's
// "threadId", or that of an object in a list.
func threadIDIn(raw json.RawMessage) string {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`threadId`)) || wire.CheckLists(raw) != nil {
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
