package sdk

import "github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"

// Forwarding to package wire (sdk/internal/wire) for the decoders not yet
// read from their types' tags. Temporary: each goes with its last caller.

type fieldProblems []string

func (p *fieldProblems) add(f, format string, args ...any) {
	(*wire.Problems)(p).Add(f, format, args...)
}

func (p fieldProblems) err() error          { return wire.Problems(p).Err() }
func (p fieldProblems) names(f string) bool { return wire.Problems(p).Names(f) }

type field = wire.Field

func top(name string) field                     { return wire.Top(name) }
func row(list string, i int, name string) field { return wire.Row(list, i, name) }

func decodeRaw(data []byte, raw any, p *fieldProblems) error {
	return wire.ReadRaw(data, raw, (*wire.Problems)(p))
}

func checkLists(data []byte) error { return wire.CheckLists(data) }
func rawKind(raw []byte) string    { return wire.RawKind(raw) }
func kindName(v string) string     { return wire.KindName(v) }

// text is wire.Text with its parts at hand.
type text struct {
	w    wire.Text
	v    string
	set  bool
	null bool
	odd  string
}

func (t *text) UnmarshalJSON(b []byte) error {
	err := t.w.UnmarshalJSON(b)
	t.v, t.set, t.null, t.odd = t.w.Value(), t.w.Present(), t.w.Null(), t.w.Odd()
	return err
}

func required(p *fieldProblems, f field, t text) string {
	return wire.Required((*wire.Problems)(p), f, t.w)
}

func nonEmpty(p *fieldProblems, f field, t text) string {
	return wire.NonEmpty((*wire.Problems)(p), f, t.w)
}

func optional(p *fieldProblems, f field, t text) *string {
	return wire.Optional((*wire.Problems)(p), f, t.w)
}

func orEmpty(p *fieldProblems, f field, t text) string {
	return wire.OrEmpty((*wire.Problems)(p), f, t.w)
}

type flag = wire.Flag

func optionalBool(p *fieldProblems, f field, b flag) *bool {
	return wire.OptionalBool((*wire.Problems)(p), f, b)
}

// count is wire.Count with its parts at hand.
type count struct {
	w         wire.Count
	v         int64
	set       bool
	odd, kind string
}

func (c *count) UnmarshalJSON(b []byte) error {
	err := c.w.UnmarshalJSON(b)
	c.v, c.set, c.odd, c.kind = c.w.Value(), c.w.Present(), c.w.Literal(), c.w.Kind()
	return err
}

func wholeCount(p *fieldProblems, f field, c count) int64 {
	return wire.WholeCount((*wire.Problems)(p), f, c.w)
}

func ratio(p *fieldProblems, f field, c count) float64 {
	return wire.Ratio((*wire.Problems)(p), f, c.w)
}

func list[T any](p *fieldProblems, name string, l *[]T) []T {
	return wire.List((*wire.Problems)(p), name, l)
}

func atMost[T any](p *fieldProblems, name string, items []T, most int, what string) []T {
	return wire.AtMost((*wire.Problems)(p), name, items, most, what)
}

func decodeAnswer[T any](data []byte, out *T) error { return wire.Decode(data, out) }

func decodeAnswerAs[T any](data []byte, out *T, names map[string]string) error {
	return wire.DecodeWith(data, out, wire.Options{Names: names})
}
