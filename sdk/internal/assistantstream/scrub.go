package assistantstream

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Secrets in an answer: deltas are scrubbed across their boundaries
// (the end of a delta that may start a secret is held back), and JSON
// values are redacted whole.

// heldText is the end of a streamed text held back because it could be
// the start of a secret split across deltas.
type heldText struct {
	kind Type
	id   string
	text string
}

// scrubDelta redacts the client's secrets from a streamed text: a secret
// may arrive split across deltas, so the end of a delta that could start
// one is held back until the next delta (or the block's end) shows
// whether it does.
func (s *Stream) scrubDelta(kind Type, id, delta string) string {
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
	text = s.redact(text)
	n := secretPrefixAtEnd(text, s.secrets())
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

// scrubPooled redacts the secrets from text pooled from many blocks
// (Collect's Text and Reasoning): one split across two blocks (in turn,
// interleaved, or a v1 text cut by another part) is whole only there.
func (s *Stream) scrubPooled(p *Pieces) {
	*p = Pieces{done: []string{s.redact(p.String())}}
}

// flush hands out, as deltas, the held texts that match.
func (s *Stream) flush(match func(heldText) bool) []Part {
	var out []Part
	kept := s.held[:0]
	for _, h := range s.held {
		if !match(h) {
			kept = append(kept, h)
			continue
		}
		p := Part{Type: h.kind, Text: h.text}
		if h.kind == ToolInputDelta {
			p.Tool = &Tool{CallID: h.id}
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

// redact replaces the client's secrets in s.
func (s *Stream) redact(t string) string { return s.cfg.Secrets.Redact(t) }

// scrub returns t without secrets, and whether it held any.
func (s *Stream) scrub(t string) (string, bool) {
	clean := s.redact(t)
	return clean, clean != t
}

// redactJSON returns a JSON value without the client's secrets (nil for
// none or null). Only a value that may spell one is decoded and encoded
// again.
func (s *Stream) redactJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	out := append(json.RawMessage(nil), raw...)
	if !redact.MayHold(raw, s.secrets()) {
		return out
	}
	if !bounded.ItemsFit(raw) { // too many items to decode: kept as text
		return json.RawMessage(strconv.Quote(s.redact(string(raw))))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return json.RawMessage(strconv.Quote(s.redact(string(raw))))
	}
	v, found := s.redactAny(v)
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
func (s *Stream) redactAny(v any) (any, bool) {
	switch t := v.(type) {
	case string:
		return s.scrub(t)
	case []any:
		found := false
		for i, e := range t {
			var f bool
			t[i], f = s.redactAny(e)
			found = found || f
		}
		return t, found
	case map[string]any:
		found := false
		for key, e := range t {
			clean, f := s.redactAny(e)
			cleanKey, fk := s.scrub(key)
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
