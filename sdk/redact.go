package sdk

import (
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Server text made safe (package redact): a client's secrets (its key,
// the links it was handed) are removed wherever server text is shown or
// kept, and text shown to a person goes through DisplayText or
// DisplayLine, since it may carry terminal control sequences. Data (an
// answer's fields) keeps the full value.

// Redacted replaces a secret wherever a server's answer echoed it.
const Redacted = redact.Marker

// The bounds of shown server text, in runes of the escaped text.
const (
	// MaxDisplayLine is the most of one line that is shown: 200.
	MaxDisplayLine = redact.MaxLine
	// MaxDisplayText is the most of a whole text that is shown: 2,000.
	MaxDisplayText = redact.MaxText
)

// DisplayText returns server text fit to show a person: newlines kept;
// every other control character, line separator and invisible formatting
// character (bidi overrides, zero-width) escaped as in a Go string
// literal (\x1b, \u202e), bytes that are not UTF-8 as \xff; each line
// clipped at MaxDisplayLine runes and the whole at MaxDisplayText, each
// cut marked "…".
func DisplayText(s string) string { return redact.Text(s) }

// DisplayLine is DisplayText for one line (a name, a value in a
// sentence): newlines escaped too, clipped at MaxDisplayLine.
func DisplayLine(s string) string { return redact.Line(s) }
