package sdk

import "github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"

// Forwarding to package wire (sdk/internal/wire) for the assistant's
// stream decoders (assistant.go, which another change splits) and the
// error-body check (request.go). Temporary: each goes with its last caller.

type fieldProblems []string

func (p *fieldProblems) add(f, format string, args ...any) {
	(*wire.Problems)(p).Add(f, format, args...)
}

type field = wire.Field

func top(name string) field { return wire.Top(name) }

func decodeRaw(data []byte, raw any, p *fieldProblems) error {
	return wire.ReadRaw(data, raw, (*wire.Problems)(p))
}

func checkLists(data []byte) error { return wire.CheckLists(data) }
func rawKind(raw []byte) string    { return wire.RawKind(raw) }

// text is wire.Text with its string at hand (assistant.go reads t.v).
type text struct {
	w wire.Text
	v string
}

func (t *text) UnmarshalJSON(b []byte) error {
	err := t.w.UnmarshalJSON(b)
	t.v = t.w.Value()
	return err
}

func required(p *fieldProblems, f field, t text) string {
	return wire.Required((*wire.Problems)(p), f, t.w)
}

func nonEmpty(p *fieldProblems, f field, t text) string {
	return wire.NonEmpty((*wire.Problems)(p), f, t.w)
}

func orEmpty(p *fieldProblems, f field, t text) string {
	return wire.OrEmpty((*wire.Problems)(p), f, t.w)
}
