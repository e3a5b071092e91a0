// Package refusal reads what a server says when it refuses a request: the
// body of a final answer that is not 2xx. The API words a refusal as JSON
// ({"error": ..., "message": ..., "details": [{"message": ...}]}); an
// object store answering a presigned link words it as XML (S3's
// <Error><Code>AccessDenied</Code>...); anything else (a proxy's HTML
// page) is not read here.
//
// It is separate from package sdk because it is machinery: which shapes
// a refusal takes and how much of one is kept. The server's text is made
// fit to show by the caller (secrets removed, escaped, clipped: Parse's
// show), and package sdk turns the result into its public APIError in one
// place.
package refusal

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"
)

// MaxDetails bounds how many of an error body's details a refusal keeps:
// a server may send thousands. One more entry says how many were left
// out.
const MaxDetails = 10

// Refusal is what a refusal's body says, every text through Parse's show.
type Refusal struct {
	// Message is the API's "error" (its "message" when "error" is absent,
	// empty or null), or an object store's "Code: Message".
	Message string
	// Details are the messages of the API's "details", at most MaxDetails
	// and one "and N more".
	Details []string
}

// errorBody is the API's JSON error.
type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
	Details []struct {
		Message string `json:"message"`
	} `json:"details"`
}

// Parse reads a refusal's body. ok is false when it is neither the API's
// JSON error nor an object store's XML one: the caller shows the body's
// start instead. show makes each of the server's texts fit to show.
func Parse(data []byte, show func(string) string) (r Refusal, ok bool) {
	var eb errorBody
	if wire.CheckLists(data) == nil && json.Unmarshal(data, &eb) == nil && (len(eb.Error) > 0 || eb.Message != "" || len(eb.Details) > 0) {
		var msg string
		if json.Unmarshal(eb.Error, &msg) != nil {
			msg = string(eb.Error) // an object or number: show keeps its start verbatim
		}
		if msg == "" || msg == "null" {
			msg = eb.Message
		}
		r.Message = show(msg)
		for i, d := range eb.Details {
			if i == MaxDetails {
				r.Details = append(r.Details, fmt.Sprintf("and %d more", len(eb.Details)-i))
				break
			}
			r.Details = append(r.Details, show(d.Message))
		}
		return r, true
	}
	if msg, ok := objectStorageError(data); ok {
		return Refusal{Message: show(msg)}, true
	}
	return Refusal{}, false
}

// objectStorageError reads an object store's XML error body (S3's
// <Error><Code>AccessDenied</Code><Message>Request has expired</Message>
// ...), which a presigned link answers with, as "AccessDenied: Request
// has expired". Only the code and message are kept: the rest may echo the
// request's signature.
func objectStorageError(data []byte) (string, bool) {
	trimmed := strings.TrimSpace(string(data[:min(len(data), 64)]))
	if !strings.HasPrefix(trimmed, "<?xml") && !strings.HasPrefix(trimmed, "<Error") {
		return "", false
	}
	var body struct {
		XMLName xml.Name `xml:"Error"`
		Code    string   `xml:"Code"`
		Message string   `xml:"Message"`
	}
	if xml.Unmarshal(data, &body) != nil || body.Code == "" {
		return "", false
	}
	if body.Message == "" {
		return body.Code, true
	}
	return body.Code + ": " + body.Message, true
}
