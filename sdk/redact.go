package sdk

import (
	"net/url"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Secrets never echo. A client knows secrets of two kinds: its own (the
// key it sends) and those it is handed (a bundle's presigned link), all in
// one list, secretList; every place that shows or keeps server text
// removes them through it (package redact): errors (k.redact, k.snippet),
// decoded answers (decodeWith), problems, streamed text, request ids in
// logs, download errors.

// Redacted replaces a secret wherever a server's answer echoed it.
const Redacted = "[REDACTED]"

// secretList is every secret the client knows: its key, and the secrets
// of the links it was handed last.
func (k *core) secretList() []string { return k.learned.List(k.secrets) }

// learn adds the secrets of a link the client was handed, or is given.
func (k *core) learn(link []string) { k.learned.Learn(k.secrets, link) }

// redact removes the client's secrets from text that came from the server,
// in case a proxy or a misbehaving server echoes the request's headers.
func (k *core) redact(s string) string { return redact.String(s, k.secretList()) }

// mayHoldSecret reports whether a body may spell one of the client's
// secrets: it holds one, or escapes that could.
func (k *core) mayHoldSecret(data []byte) bool { return redact.MayHold(data, k.secretList()) }

// snippet turns a body that is not the API's JSON (an HTML 502 page from a
// proxy, say) into one short readable line (at most MaxDisplayLine runes),
// with secrets redacted.
func (k *core) snippet(data []byte) string {
	return DisplayLine(redact.Snippet(data, k.secretList()))
}

// The names the rest of the package scrubs with.
var (
	scrub             = redact.Scrub
	redactStrings     = redact.Strings
	withoutQuery      = redact.WithoutQuery
	bundleLinkSecrets = redact.BundleLinkSecrets
)

// linkSecrets are the strings of a presigned link that must never be shown.
func linkSecrets(u *url.URL) []string { return redact.LinkSecrets(u) }
