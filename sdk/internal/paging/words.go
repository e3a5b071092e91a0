package paging

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Names are the query parameters of a page's size and offset; "" is the
// usual limit and offset (the v1 job listing says take and skip).
type Names struct{ Limit, Offset string }

// Query sets on v (the query's dates and filters) the parameters of page
// r: its size, and its cursor (cursor paging, past the first page) or its
// offset (offset paging).
func Query(v url.Values, names Names, cursor bool, r Request) url.Values {
	if names.Limit == "" {
		names.Limit = "limit"
	}
	if names.Offset == "" {
		names.Offset = "offset"
	}
	v.Set(names.Limit, strconv.Itoa(r.Limit))
	switch {
	case cursor && r.Cursor != "":
		v.Set("cursor", r.Cursor)
	case !cursor:
		v.Set(names.Offset, strconv.Itoa(r.Offset))
	}
	return v
}

// Describe names where a page starts, in a message: its cursor (clipped)
// or its offset.
func Describe(r Request) string {
	if r.Cursor != "" {
		return "cursor " + strconv.Quote(redact.Clip(r.Cursor, 100))
	}
	return "offset " + strconv.Itoa(r.Offset)
}

// At names the page at fault, in a message.
func (e *Error) At() string {
	if e.First {
		return "the first page"
	}
	return "the page at " + Describe(e.Page)
}

// Detail says what went wrong, in a message: keyName is what identifies
// a row ("path", "id"), rd the read whose caps were passed.
func (e *Error) Detail(keyName string, rd Read) string {
	switch e.Problem {
	case RequestCap:
		return fmt.Sprintf("would pass the client's cap of %d requests per read: the server keeps saying there is more; read fewer rows (a max_results) or raise the cap", rd.MaxPages)
	case ByteCap:
		return fmt.Sprintf("took the read past the client's cap of %d MiB per read: read fewer rows (a max_results) or raise the cap", rd.MaxBytes>>20)
	case EmptyWithMore:
		return "is empty but says there is more; stopping rather than loop"
	case RepeatedRow:
		return fmt.Sprintf("repeats %s %q from an earlier page: the server is not advancing; stopping rather than loop", keyName, redact.Clip(e.Value, 100))
	case OnlyRepeatedRows:
		return fmt.Sprintf("holds only %ss from earlier pages: the server is not advancing; stopping rather than loop", keyName)
	case NoCursor:
		return "says there is more but gives no cursor to it"
	case UntrustedCursor:
		return "gives a cursor that held this client's key; it is not followed"
	case RepeatedCursor:
		return fmt.Sprintf("gives cursor %q again: the server is not advancing; stopping rather than loop", redact.Clip(e.Value, 100))
	}
	return ""
}

// Values starts a query string with a date range ("" is not sent) and
// further filters.
func Values(dateFrom, dateTo string, filters url.Values) url.Values {
	v := url.Values{}
	if dateFrom != "" {
		v.Set("dateFrom", dateFrom)
	}
	if dateTo != "" {
		v.Set("dateTo", dateTo)
	}
	for k, vs := range filters {
		v[k] = vs
	}
	return v
}
