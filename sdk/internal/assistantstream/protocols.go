package assistantstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// The two protocols' parts: a v2 event's JSON part, a v1 CODE:JSON
// line, each read into Parts named as v2 names them.

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

// text is a string field of a part, read leniently: a value of another
// kind is kept as its kind, for a problem, and the rest of the part read.
type text struct {
	v   string
	set bool   // there, and a string
	odd string // the kind of a value that is neither a string nor null
}

// UnmarshalJSON reads any JSON value; only a string is kept.
func (t *text) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
	case b[0] == '"':
		t.set = true
		return json.Unmarshal(b, &t.v)
	default:
		t.odd = bounded.Kind(b)
	}
	return nil
}

// problems name a part's fields the SDK could not read: "delta: missing".
type problems struct{ bounded.Problems }

// str reads a string field that may be absent or null ("" then).
func (p *problems) str(name string, t text) string {
	if t.odd != "" {
		p.Add(name, "want a string or null, got %s", t.odd)
	}
	return t.v
}

// need reads a string field a part must have.
func (p *problems) need(name string, t text) string {
	switch {
	case t.odd != "":
		p.Add(name, "want a string, got %s", t.odd)
	case !t.set:
		p.Add(name, "missing")
	}
	return t.v
}

// object reads a part's JSON object into raw: only a value that is not an
// object (or not JSON, or holding a list past bounded.MaxItems) is an
// error.
func object(data []byte, raw any) error {
	if !bounded.ItemsFit(data) {
		return fmt.Errorf("a list or an object holds more than %d items", bounded.MaxItems)
	}
	if err := json.Unmarshal(data, raw); err != nil {
		return err
	}
	if data = bytes.TrimSpace(data); data[0] != '{' {
		return errors.New("want an object, got " + bounded.Kind(data))
	}
	return nil
}

// partsV2 reads one v2 part. It returns the parts to hand out: the part,
// preceded by text held back for redaction when the part ends a block.
func (s *Stream) partsV2(payload []byte) ([]Part, error) {
	var p problems
	var raw rawPart
	if err := object(payload, &raw); err != nil {
		return nil, err
	}
	if raw.Type.set && raw.Type.v == "" {
		p.Add("type", "missing or empty")
	}
	part := Part{Type: Type(s.redact(p.need("type", raw.Type)))}
	str := func(name string, t text) string { return s.redact(p.str(name, t)) }
	need := func(name string, t text) string { return s.redact(p.need(name, t)) }
	var before []Part
	switch t := part.Type; {
	case t == TextDelta || t == ReasoningDelta:
		part.ID = str("id", raw.ID)
		part.Text = s.scrubDelta(t, part.ID, p.need("delta", raw.Delta))
		if part.Text == "" && raw.Delta.v != "" {
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
			part.Text = s.scrubDelta(t, part.Tool.CallID, p.need("inputTextDelta", raw.InputTextDelta))
			if part.Text == "" && raw.InputTextDelta.v != "" {
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
	part.Problems = p.Problems
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
func (s *Stream) partsV1(line []byte) ([]Part, error) {
	line = bytes.TrimRight(line, "\r")
	code, value, ok := bytes.Cut(line, []byte(":"))
	if !ok || len(code) == 0 {
		return nil, errors.New("a v1 part is CODE:JSON, and this line has no code")
	}
	if !json.Valid(value) {
		return nil, fmt.Errorf("the value of a %q part is not JSON", redact.Clip(string(code), 10))
	}
	var p problems
	str := func(name string, t text) string { return s.redact(p.str(name, t)) }
	need := func(name string, t text) string { return s.redact(p.need(name, t)) }
	var raw rawV1
	obj := func() {
		if value[0] != '{' {
			p.Add("value", "want an object, got %s", bounded.Kind(value))
			return
		}
		_ = object(value, &raw)
	}
	stringValue := func() string {
		var t text
		_ = t.UnmarshalJSON(value)
		return p.need("value", t)
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
		v := p.need("argsTextDelta", raw.ArgsTextDelta)
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
	part.Problems = p.Problems
	return append(before, part), nil
}

// threadIDIn finds a threadId in JSON metadata or data: an object's
// "threadId", or that of an object in a list.
func threadIDIn(raw json.RawMessage) string {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`threadId`)) || !bounded.ItemsFit(raw) {
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
