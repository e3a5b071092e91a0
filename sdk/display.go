package sdk

import "github.com/mintlify/terraform-provider-mintlify/sdk/internal/display"

// Text a server sent, shown to a person (in errors, Terraform's warnings
// and progress lines, display names), may carry terminal control
// sequences (package display lists them; a deployment's logs come from a
// docs build that any contributor's file name reaches). DisplayText and
// DisplayLine are the one way such text is shown. Data (a data source's
// attributes, an SDK type's fields) keeps the full value.

// The bounds of shown server text, in runes of the escaped text.
const (
	// MaxDisplayLine is the most of one line that is shown.
	MaxDisplayLine = 200
	// MaxDisplayText is the most of a whole text that is shown.
	MaxDisplayText = 2000
)

// DisplayText returns server text fit to show a person: newlines kept,
// every other control character (C0, DEL, C1), line separator and
// invisible formatting character (bidirectional overrides, zero-width
// characters) escaped as Go writes it in a string literal (\x1b, \r,
// \u202e), bytes that are not UTF-8 as \xff, each line clipped at
// MaxDisplayLine runes and the whole at MaxDisplayText, each cut marked
// with "…". Past what is shown, the input is only scanned for newlines.
func DisplayText(s string) string { return display.Escape(s, true, MaxDisplayLine, MaxDisplayText) }

// DisplayLine is DisplayText for a place that holds one line (a display
// name, a value quoted inside a sentence): newlines are escaped too, and
// the whole is clipped at MaxDisplayLine runes.
func DisplayLine(s string) string { return display.Escape(s, false, MaxDisplayLine, MaxDisplayLine) }

// clip shortens s to at most n runes, marking the cut, for a value quoted
// with %q (which escapes it): a value a server sent may be any length, and
// an error message must stay readable. Text shown unquoted goes through
// DisplayLine or DisplayText instead.
func clip(s string, n int) string { return display.Clip(s, n) }
