package sdk

import (
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Server text made safe (package redact). Secrets never echo: a client
// knows secrets of two kinds, its own (the key it sends) and those it is
// handed (a bundle's presigned link), all in one list (core.secrets);
// every place that shows or keeps server text removes them: errors,
// decoded answers, problems, streamed text, request ids in logs, download
// errors. Text a server sent, shown to a person (in errors, Terraform's
// warnings and progress lines, display names), may carry terminal control
// sequences (a deployment's logs come from a docs build that any
// contributor's file name reaches): DisplayText and DisplayLine are the
// one way such text is shown. Data (a data source's attributes, an SDK
// type's fields) keeps the full value.

// Redacted replaces a secret wherever a server's answer echoed it.
const Redacted = redact.Marker

// The bounds of shown server text, in runes of the escaped text.
const (
	// MaxDisplayLine is the most of one line that is shown: 200.
	MaxDisplayLine = redact.MaxLine
	// MaxDisplayText is the most of a whole text that is shown: 2,000.
	MaxDisplayText = redact.MaxText
)

// DisplayText returns server text fit to show a person: newlines kept,
// every other control character (C0, DEL, C1), line separator and
// invisible formatting character (bidirectional overrides, zero-width
// characters) escaped as Go writes it in a string literal (\x1b, \r,
// \u202e), bytes that are not UTF-8 as \xff, each line clipped at
// MaxDisplayLine runes and the whole at MaxDisplayText, each cut marked
// with "…". Past what is shown, the input is only scanned for newlines.
func DisplayText(s string) string { return redact.Text(s) }

// DisplayLine is DisplayText for a place that holds one line (a display
// name, a value quoted inside a sentence): newlines are escaped too, and
// the whole is clipped at MaxDisplayLine runes.
func DisplayLine(s string) string { return redact.Line(s) }
