// Package wire decodes the API's JSON answers into the SDK's public
// types, leniently: one mistyped or missing field is a problem that names
// it ("visitors[3].total: -5 is negative"), never a failed decode that
// hides the rest of the answer.
//
// It is separate from package sdk so that each field of an answer is
// written once, in its public type (Decode reads a type's fields by their
// Go types and tags), and the machinery that does it (plans built with
// reflect, the lenient leaves, the caps on lists and problems) sits apart
// from the services. It knows nothing of HTTP or of package sdk: the
// caller hands it the body it has already bounded, and turns Problems into
// its public error.
package wire

import (
	"fmt"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Problems lists what is wrong with a decoded answer, one entry per
// field: "visitors[3].total: -5 is negative". As an error, it is an answer
// the caller should not trust (package sdk's MalformedResponseError).
type Problems []string

// Error joins the problems with "; ".
func (p Problems) Error() string { return strings.Join(p, "; ") }

// MaxProblems bounds the problems one answer reports: a list of a million
// rows with a field missing from each must not make a million strings
// and an error of hundreds of megabytes.
const MaxProblems = 100

// MoreProblems is the last problem of an answer that has more than
// MaxProblems.
const MoreProblems = "…: more problems, not listed"

// Add records a problem with field: its text is format with args. Past
// MaxProblems, one MoreProblems stands for the rest.
func (p *Problems) Add(field, format string, args ...any) {
	switch n := len(*p); {
	case n < MaxProblems:
		*p = append(*p, field+": "+fmt.Sprintf(format, args...))
	case n == MaxProblems:
		*p = append(*p, MoreProblems)
	}
}

// Err returns the problems as an error, or nil when there are none.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// Names reports whether a problem with field f was already reported.
func (p Problems) Names(f string) bool {
	for _, s := range p {
		if strings.HasPrefix(s, f+": ") {
			return true
		}
	}
	return false
}

// Field names a field of an answer for problems, built only when one is
// reported: a 250-row page that decodes cleanly formats no names.
type Field struct {
	list  string // the list the row is in; "" for a top-level field
	index int
	name  string // "" for the row itself
}

// String is the field's name as problems spell it: "visitors[3].path".
func (f Field) String() string {
	switch {
	case f.list == "":
		return f.name
	case f.name == "":
		return fmt.Sprintf("%s[%d]", f.list, f.index)
	}
	return fmt.Sprintf("%s[%d].%s", f.list, f.index, f.name)
}

// Top names a top-level field.
func Top(name string) Field { return Field{name: name} }

// Row names field name of row i of list ("" for the row itself).
func Row(list string, i int, name string) Field { return Field{list: list, index: i, name: name} }

// maxEchoed bounds how much of a value a problem quotes: a value may be
// any length (package sdk's errors use the same bound).
const maxEchoed = 100

// clip shortens s to at most maxEchoed runes, marking the cut, for a
// value quoted with %q.
func clip(s string) string { return redact.Clip(s, maxEchoed) }
