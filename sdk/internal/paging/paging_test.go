package paging

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"testing"
	"time"
)

// page is a page of the tests' list: rows, and what it says of more.
type page struct {
	rows    []string
	more    bool
	cursor  *string
	skipped int
}

// spec is how the tests' endpoint pages: whether its pages say there is
// more (their more and cursor), by cursor, and whether rows are added at
// the head.
type spec struct{ says, cursor, prepends bool }

// walk is the loop package sdk runs over a Walk: each page asked for,
// fetched from src, told to Took and trimmed to the rows it keeps.
func walk(s spec, rd Read, src func(Request) (*page, int64, error), emit func(*page) bool) (bool, error) {
	rd.Cursor, rd.Prepends = s.cursor, s.prepends
	w := rd.Walk()
	for {
		r, stop := w.Next()
		if stop != nil {
			return false, stop
		}
		p, size, err := src(r)
		if err != nil {
			return false, err
		}
		keep, done, stop := w.Took(Page{Size: size, Keys: p.rows, SetAside: p.skipped, Says: s.says, More: p.more, Next: p.cursor})
		if stop != nil {
			return false, stop
		}
		p.rows = Keep(p.rows, keep)
		if !emit(p) {
			return false, nil
		}
		if done {
			return true, nil
		}
	}
}

// list serves offsets of n rows, "r0", "r1", ..., recording the requests.
func list(n int, asked *[]Request) func(Request) (*page, int64, error) {
	return func(r Request) (*page, int64, error) {
		*asked = append(*asked, r)
		p := &page{}
		for i := r.Offset; i < min(n, r.Offset+r.Limit); i++ {
			p.rows = append(p.rows, fmt.Sprint("r", i))
		}
		return p, 10, nil
	}
}

func collect(t *testing.T, s spec, rd Read, src func(Request) (*page, int64, error)) ([]string, bool, error) {
	t.Helper()
	var got []string
	complete, err := walk(s, rd, src, func(p *page) bool { got = append(got, p.rows...); return true })
	return got, complete, err
}

func read(limit int) Read {
	return Read{Start: Request{Limit: limit}, MaxPages: 100, MaxBytes: 1 << 20}
}

func TestWalk_offsetsEachPageOnceAndStopsAtMaxResults(t *testing.T) {
	var asked []Request
	got, complete, err := collect(t, spec{}, read(2), list(5, &asked))
	want := []Request{{Limit: 2}, {Limit: 2, Offset: 2}, {Limit: 2, Offset: 4}}
	if err != nil || !complete || len(got) != 5 || !reflect.DeepEqual(asked, want) {
		t.Fatalf("%v, %v, %v; asked %v", got, complete, err, asked)
	}
	// Four rows, exactly two full pages: one more request, answered empty.
	asked = nil
	if got, _, err := collect(t, spec{}, read(2), list(4, &asked)); err != nil || len(got) != 4 || len(asked) != 3 {
		t.Errorf("%v, %v; asked %v", got, err, asked)
	}
	// MaxResults 3: the last page asks for the one row missing.
	asked = nil
	rd := read(2)
	rd.MaxResults = 3
	got, complete, err = collect(t, spec{}, rd, list(10, &asked))
	if err != nil || !complete || len(got) != 3 || !reflect.DeepEqual(asked, []Request{{Limit: 2}, {Limit: 1, Offset: 2}}) {
		t.Errorf("max results: %v, %v; asked %v", got, err, asked)
	}
}

// A read whose answers come to exactly the byte cap is whole: the cap is
// passed only by a byte more.
func TestWalk_theByteCapIsInclusive(t *testing.T) {
	var asked []Request
	rd := read(1)
	rd.MaxBytes = 30 // three pages of 10 bytes, the last empty
	if got, complete, err := collect(t, spec{}, rd, list(2, &asked)); err != nil || !complete || len(got) != 2 || len(asked) != 3 {
		t.Errorf("%v, %v, %v; asked %v", got, complete, err, asked)
	}
}

func TestWalk_aServerIgnoringLimitIsTrimmed(t *testing.T) {
	var asked []Request
	src := func(r Request) (*page, int64, error) {
		asked = append(asked, r)
		if r.Offset == 0 {
			return &page{rows: []string{"a", "b", "c", "d"}, skipped: 1}, 1, nil
		}
		return &page{rows: []string{"e"}}, 1, nil
	}
	got, _, err := collect(t, spec{}, read(3), src)
	if err != nil || !reflect.DeepEqual(got, []string{"a", "b", "e"}) || asked[1].Offset != 3 {
		t.Errorf("%v, %v; asked %v", got, err, asked)
	}
}

func TestWalk_problemsStopTheRead(t *testing.T) {
	str := func(s string) *string { return &s }
	cursorSpec := spec{says: true, cursor: true}
	pages := func(ps ...page) func(Request) (*page, int64, error) {
		i := 0
		return func(Request) (*page, int64, error) {
			p := ps[min(i, len(ps)-1)]
			i++
			p.rows = append([]string(nil), p.rows...)
			return &p, 10, nil
		}
	}
	prepends := spec{prepends: true}
	for name, tt := range map[string]struct {
		s     spec
		rd    Read
		src   func(Request) (*page, int64, error)
		want  Error
		saw   int
		start string
	}{
		"empty with more": {s: cursorSpec, rd: read(2), src: pages(page{more: true, cursor: str("c")}),
			want: Error{Problem: EmptyWithMore, First: true, Requests: 1, Page: Request{Limit: 2}}},
		"a repeated row": {s: spec{}, rd: read(2), src: pages(page{rows: []string{"a", "b"}}, page{rows: []string{"b", "c"}}),
			want: Error{Problem: RepeatedRow, Requests: 2, Page: Request{Limit: 2, Offset: 2}, Value: "b"}, saw: 2},
		"only repeated rows": {s: prepends, rd: read(2), src: pages(page{rows: []string{"a", "b"}}, page{rows: []string{"b", "a"}}),
			want: Error{Problem: OnlyRepeatedRows, Requests: 2, Page: Request{Limit: 2, Offset: 2}}, saw: 2},
		"more without a cursor": {s: cursorSpec, rd: read(1), src: pages(page{rows: []string{"a"}, more: true}),
			want: Error{Problem: NoCursor, First: true, Requests: 1, Page: Request{Limit: 1}}},
		"an untrusted cursor": {s: cursorSpec, rd: Read{Start: Request{Limit: 1}, MaxPages: 9, MaxBytes: 99, Untrusted: "[X]"}, src: pages(page{rows: []string{"a"}, more: true, cursor: str("c[X]")}),
			want: Error{Problem: UntrustedCursor, First: true, Requests: 1, Page: Request{Limit: 1}}},
		"a repeated cursor": {s: cursorSpec, rd: read(1), src: pages(page{rows: []string{"a"}, more: true, cursor: str("c1")}, page{rows: []string{"b"}, more: true, cursor: str("c1")}),
			want: Error{Problem: RepeatedCursor, Requests: 2, Page: Request{Limit: 1, Offset: 1, Cursor: "c1"}, Value: "c1"}, saw: 1},
		"the start's cursor again": {s: cursorSpec, rd: Read{Start: Request{Limit: 1, Cursor: "c0"}, MaxPages: 9, MaxBytes: 99}, src: pages(page{rows: []string{"a"}, more: true, cursor: str("c0")}),
			want: Error{Problem: RepeatedCursor, First: true, Requests: 1, Page: Request{Limit: 1, Cursor: "c0"}, Value: "c0"}},
		"the request cap": {s: spec{}, rd: Read{Start: Request{Limit: 1}, MaxPages: 2, MaxBytes: 99}, src: list(9, new([]Request)),
			want: Error{Problem: RequestCap, Requests: 2, Page: Request{Limit: 1, Offset: 2}}, saw: 2},
		"the byte cap": {s: spec{}, rd: Read{Start: Request{Limit: 1}, MaxPages: 9, MaxBytes: 25}, src: list(9, new([]Request)),
			want: Error{Problem: ByteCap, Requests: 3, Page: Request{Limit: 1, Offset: 2}}, saw: 2},
	} {
		got, complete, err := collect(t, tt.s, tt.rd, tt.src)
		var pe *Error
		if !errors.As(err, &pe) || complete || !reflect.DeepEqual(*pe, tt.want) || len(got) != tt.saw || pe.Error() == "paging stopped: " {
			t.Errorf("%s: %v (%+v), complete %v, saw %v", name, err, pe, complete, got)
		}
	}
}

func TestWalk_sourceErrorsAndAStopAreReturned(t *testing.T) {
	boom := errors.New("boom")
	complete, err := walk(spec{}, read(1), func(Request) (*page, int64, error) { return nil, 0, boom }, func(*page) bool { return true })
	if !errors.Is(err, boom) || complete {
		t.Errorf("%v, %v", err, complete)
	}
	var asked []Request
	complete, err = walk(spec{}, read(1), list(9, &asked), func(*page) bool { return false })
	if err != nil || complete || len(asked) != 1 {
		t.Errorf("stopped: %v, %v, asked %v", err, complete, asked)
	}
}

func TestPrefetch_oneAheadAndStopsTheProducer(t *testing.T) {
	produced := make(chan int, 10)
	seq := iter.Seq2[int, error](func(yield func(int, error) bool) {
		defer close(produced)
		for i := range 5 {
			produced <- i
			if !yield(i, nil) {
				return
			}
		}
	})
	var got []int
	for v, err := range Prefetch(context.Background(), seq) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
		if v == 1 {
			break
		}
	}
	deadline := time.After(5 * time.Second)
	n := 0
	for done := false; !done; {
		select {
		case _, ok := <-produced:
			if !ok {
				done = true
			} else {
				n++
			}
		case <-deadline:
			t.Fatal("the producer did not stop")
		}
	}
	if !reflect.DeepEqual(got, []int{0, 1}) || n > 3 {
		t.Errorf("got %v; %d produced, want at most one past the last taken", got, n)
	}
}
