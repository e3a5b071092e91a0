package paging

import (
	"net/url"
	"strings"
	"testing"
)

func TestQuery_namesEachPagesParameters(t *testing.T) {
	for name, tt := range map[string]struct {
		names  Names
		cursor bool
		r      Request
		want   string
	}{
		"offset":            {r: Request{Limit: 5, Offset: 10}, want: "a=1&limit=5&offset=10"},
		"offset 0 is sent":  {r: Request{Limit: 5}, want: "a=1&limit=5&offset=0"},
		"take and skip":     {names: Names{Limit: "take", Offset: "skip"}, r: Request{Limit: 5, Offset: 10}, want: "a=1&skip=10&take=5"},
		"first cursor page": {cursor: true, r: Request{Limit: 5}, want: "a=1&limit=5"},
		"next cursor page":  {cursor: true, r: Request{Limit: 5, Cursor: "c1", Offset: 3}, want: "a=1&cursor=c1&limit=5"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := Query(url.Values{"a": {"1"}}, tt.names, tt.cursor, tt.r).Encode(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestValues_datesAndFilters(t *testing.T) {
	if got := Values("", "", nil).Encode(); got != "" {
		t.Errorf("no dates: %q", got)
	}
	if got := Values("2026-01-01", "2026-02-01", url.Values{"status": {"a,b"}}).Encode(); got != "dateFrom=2026-01-01&dateTo=2026-02-01&status=a%2Cb" {
		t.Errorf("got %q", got)
	}
	if got := Values("", "2026-02-01", nil).Encode(); got != "dateTo=2026-02-01" {
		t.Errorf("got %q", got)
	}
}

func TestError_wording(t *testing.T) {
	rd := Read{MaxPages: 7, MaxBytes: 3 << 20}
	long := strings.Repeat("x", 150)
	clipped := strings.Repeat("x", 100) + "…"
	for _, tt := range []struct {
		e          Error
		at, detail string
	}{
		{Error{Problem: RequestCap, First: true}, "the first page", "would pass the client's cap of 7 requests per read: the server keeps saying there is more; read fewer rows (a max_results) or raise the cap"},
		{Error{Problem: ByteCap, Page: Request{Offset: 250}}, "the page at offset 250", "took the read past the client's cap of 3 MiB per read: read fewer rows (a max_results) or raise the cap"},
		{Error{Problem: EmptyWithMore, Page: Request{Cursor: "c\"1"}}, `the page at cursor "c\"1"`, "is empty but says there is more; stopping rather than loop"},
		{Error{Problem: RepeatedRow, Page: Request{Cursor: long}, Value: long}, `the page at cursor "` + clipped + `"`, `repeats path "` + clipped + `" from an earlier page: the server is not advancing; stopping rather than loop`},
		{Error{Problem: OnlyRepeatedRows, First: true}, "the first page", "holds only paths from earlier pages: the server is not advancing; stopping rather than loop"},
		{Error{Problem: NoCursor, First: true}, "the first page", "says there is more but gives no cursor to it"},
		{Error{Problem: UntrustedCursor, First: true}, "the first page", "gives a cursor that held this client's key; it is not followed"},
		{Error{Problem: RepeatedCursor, First: true, Value: "c2"}, "the first page", `gives cursor "c2" again: the server is not advancing; stopping rather than loop`},
		{Error{First: true}, "the first page", ""},
	} {
		if at, detail := tt.e.At(), tt.e.Detail("path", rd); at != tt.at || detail != tt.detail {
			t.Errorf("%+v: got %q, %q; want %q, %q", tt.e, at, detail, tt.at, tt.detail)
		}
	}
	if got := Describe(Request{Offset: 0}); got != "offset 0" {
		t.Errorf("Describe: %q", got)
	}
}

func TestRead_FirstAsksForNoMoreThanMaxResults(t *testing.T) {
	start := Request{Limit: 100, Offset: 5, Cursor: "c"}
	for _, tt := range []struct{ max, want int }{{0, 100}, {40, 40}, {100, 100}, {101, 100}} {
		if got := (Read{Start: start, MaxResults: tt.max}).First(); got != (Request{Limit: tt.want, Offset: 5, Cursor: "c"}) {
			t.Errorf("MaxResults %d: got %+v", tt.max, got)
		}
	}
}
