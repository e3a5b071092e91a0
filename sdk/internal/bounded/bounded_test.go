package bounded

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func wantBound(t *testing.T, err error, b Bound) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Bound != b {
		t.Fatalf("want bound %d, got %v", b, err)
	}
	return e
}

// Bytes up to the cap are read, one past it fails, and no more than the
// cap is handed out.
func TestReader_bytes(t *testing.T) {
	for n, wantErr := range map[int]bool{0: false, 99: false, 100: false, 101: true, 5000: true} {
		r := NewReader(io.NopCloser(strings.NewReader(strings.Repeat("x", n))), Bounds{MaxBytes: 100})
		data, err := io.ReadAll(r)
		if (err != nil) != wantErr || len(data) > 100 || (!wantErr && len(data) != n) {
			t.Errorf("%d bytes: read %d, %v", n, len(data), err)
		}
		if wantErr {
			if e := wantBound(t, err, Bytes); e.Max != 100 || e.Error() != "body over 100 bytes" || len(data) != 100 {
				t.Errorf("%d bytes: %+v, kept %d", n, e, len(data))
			}
		}
	}
	// No cap: everything.
	if data, err := io.ReadAll(NewReader(io.NopCloser(strings.NewReader(strings.Repeat("x", 5000))), Bounds{})); err != nil || len(data) != 5000 {
		t.Errorf("no cap: %d, %v", len(data), err)
	}
}

// A small buffer never reads past the cap plus the one byte that tells.
func TestReader_readsAtMostOnePastTheCap(t *testing.T) {
	src := strings.NewReader(strings.Repeat("x", 50))
	r := NewReader(io.NopCloser(src), Bounds{MaxBytes: 10})
	buf := make([]byte, 40)
	n, err := r.Read(buf)
	if n != 10 || err == nil || src.Len() != 39 {
		t.Errorf("read %d (%v), %d left", n, err, src.Len())
	}
}

// slow writes 100 bytes, one every step.
func slow(step time.Duration) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		defer pw.Close()
		for range 100 {
			if _, err := pw.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(step)
		}
	}()
	return pr
}

// Progress is a rate when MinRate is set: a trickle under it stalls, a
// body at it does not.
func TestReader_minRate(t *testing.T) {
	r := NewReader(slow(5*time.Millisecond), Bounds{Idle: 200 * time.Millisecond, MinRate: 1024})
	_, err := io.ReadAll(r)
	if e := wantBound(t, err, Idle); e.Max != 204 || e.After != 200*time.Millisecond || e.Error() != "less than 204 bytes came in 200ms" {
		t.Errorf("%+v", e)
	}
	r = NewReader(slow(time.Millisecond), Bounds{Idle: 200 * time.Millisecond, MinRate: 10})
	if data, err := io.ReadAll(r); err != nil || len(data) != 100 {
		t.Errorf("%d bytes: %v", len(data), err)
	}
	r.Stop()
}

// Without a rate, a byte is progress; nothing for the idle time stalls.
func TestReader_idle(t *testing.T) {
	r := NewReader(slow(2*time.Millisecond), Bounds{Idle: time.Second})
	if data, err := io.ReadAll(r); err != nil || len(data) != 100 {
		t.Errorf("a steady body: %d bytes, %v", len(data), err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	start := time.Now()
	_, err := io.ReadAll(NewReader(pr, Bounds{Idle: 50 * time.Millisecond}))
	if e := wantBound(t, err, Idle); e.Max != 0 || e.Error() != "no data came for 50ms" || time.Since(start) > 5*time.Second {
		t.Errorf("%+v", e)
	}
}

// A trickle that never stalls still ends at Total, and a later read
// fails the same way.
func TestReader_total(t *testing.T) {
	r := NewReader(slow(10*time.Millisecond), Bounds{Idle: time.Second, Total: 100 * time.Millisecond})
	_, err := io.ReadAll(r)
	if e := wantBound(t, err, Duration); e.After != 100*time.Millisecond || e.Error() != "still unfinished after 100ms" {
		t.Errorf("%+v", e)
	}
	if n, again := r.Read(make([]byte, 1)); n != 0 || again != err { //nolint:errorlint // the very same error
		t.Errorf("read after: %d, %v", n, again)
	}
	if r.Close() != nil {
		t.Error("close")
	}
}

// Stop keeps the time bounds from firing: a stopped reader whose body
// goes quiet is not closed under its reader.
func TestReader_stopStopsTheTimers(t *testing.T) {
	pr, pw := io.Pipe()
	r := NewReader(pr, Bounds{Idle: 20 * time.Millisecond, Total: 20 * time.Millisecond})
	r.Stop()
	r.Stop() // twice is fine
	time.Sleep(60 * time.Millisecond)
	go func() { _, _ = pw.Write([]byte("late")); pw.Close() }()
	if data, err := io.ReadAll(r); err != nil || string(data) != "late" {
		t.Errorf("%q, %v", data, err)
	}
}

// A body that fails on its own keeps its error.
func TestReader_passesOtherErrors(t *testing.T) {
	boom := errors.New("boom")
	pr, pw := io.Pipe()
	pw.CloseWithError(boom)
	r := NewReader(pr, Bounds{Idle: time.Minute, MaxBytes: 10})
	defer r.Close()
	if _, err := r.Read(make([]byte, 4)); err != boom { //nolint:errorlint // the very same error
		t.Errorf("%v", err)
	}
}

// Each read is capped by what is left of the cap, plus the byte that
// tells: a body is never read further than that.
func TestReader_eachReadStopsOnePastTheCap(t *testing.T) {
	src := strings.NewReader(strings.Repeat("x", 50))
	r := NewReader(io.NopCloser(src), Bounds{MaxBytes: 10})
	for i, size := range []int{5, 5} { // to the cap exactly, in buffers that fit
		if n, err := r.Read(make([]byte, size)); n != size || err != nil {
			t.Fatalf("read %d: %d, %v", i, n, err)
		}
	}
	n, err := r.Read(make([]byte, 10))
	if n != 0 || err == nil || src.Len() != 39 {
		t.Errorf("past the cap: %d (%v), %d left", n, err, src.Len())
	}
	src = strings.NewReader(strings.Repeat("x", 50))
	r = NewReader(io.NopCloser(src), Bounds{MaxBytes: 10})
	_, _ = r.Read(make([]byte, 5))
	if n, err := r.Read(make([]byte, 10)); n != 5 || err == nil || src.Len() != 39 {
		t.Errorf("a buffer past the cap: %d (%v), %d left", n, err, src.Len())
	}
}

// Without a rate, one byte is progress enough: a byte each window keeps
// the body alive.
func TestReader_aByteIsProgress(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		defer pw.Close()
		for range 3 {
			time.Sleep(400 * time.Millisecond)
			if _, err := pw.Write([]byte("x")); err != nil {
				return
			}
		}
	}()
	// Over one byte a window, with 200ms of slack either way.
	r := NewReader(pr, Bounds{Idle: 600 * time.Millisecond})
	buf := make([]byte, 1)
	var got []byte
	for {
		n, err := r.Read(buf)
		got = append(got, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("after %d bytes: %v", len(got), err)
		}
	}
	if len(got) != 3 {
		t.Errorf("%d bytes", len(got))
	}
}

// failAs is a Fail that wraps the broken bound in an error of the caller's.
type failAs struct{ e *Error }

func (f *failAs) Error() string { return "caller's: " + f.e.Error() }

// Fail makes every broken bound the caller's error: the cap, a time bound,
// and a read after a time bound fired.
func TestReader_failIsTheCallersError(t *testing.T) {
	fail := func(e *Error) error { return &failAs{e} }
	_, err := io.ReadAll(NewReader(io.NopCloser(strings.NewReader(strings.Repeat("x", 20))), Bounds{MaxBytes: 10, Fail: fail}))
	var f *failAs
	if !errors.As(err, &f) || f.e.Bound != Bytes || f.e.Max != 10 {
		t.Errorf("the cap: %v", err)
	}
	r := NewReader(slow(10*time.Millisecond), Bounds{Total: 50 * time.Millisecond, Fail: fail})
	defer r.Close()
	_, err = io.ReadAll(r)
	if !errors.As(err, &f) || f.e.Bound != Duration {
		t.Errorf("the total: %v", err)
	}
	if _, again := r.Read(make([]byte, 1)); !errors.As(again, &f) || f.e.Bound != Duration {
		t.Errorf("a read after: %v", again)
	}
	if _, err := io.ReadAll(NewReader(io.NopCloser(strings.NewReader("ok")), Bounds{MaxBytes: 10, Fail: fail})); err != nil {
		t.Errorf("within the bounds: %v", err)
	}
}

func manyOf(item string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

// ItemsFit counts the items of every list and the members of every
// object, strings and nesting aside.
func TestItemsFit(t *testing.T) {
	for body, ok := range map[string]bool{
		manyOf("1", MaxItems):                                    true,
		manyOf("1", MaxItems+1):                                  false,
		`{"a":"` + strings.Repeat(",", 2*MaxItems) + `"}`:        true, // commas in a string
		`{"a":"\"` + strings.Repeat(",", 2*MaxItems) + `"}`:      true, // after an escaped quote
		`[` + manyOf("[1,2]", MaxItems) + `]`:                    true, // nested lists count apart
		`{` + strings.Repeat(`"k":1,`, MaxItems-1) + `"z":1}`:    true,
		`{` + strings.Repeat(`"k":1,`, MaxItems) + `"z":1}`:      false, // an object's members count
		`[[` + strings.Repeat("1,", MaxItems) + `1],2]`:          false,
		`[{"a":1},` + strings.Repeat(`{"b":1,"c":2},`, 3) + `1]`: true, // each object counts apart
		`not json [,,,`: true,
	} {
		if ItemsFit([]byte(body)) != ok {
			t.Errorf("%.60s: want %v", body, ok)
		}
	}
}

// ItemsFit leaves a stray closing bracket or comma to the JSON parser,
// and stops counting a list where it closes: the members of the object
// around it count apart.
func TestItemsFit_closedListsStopCounting(t *testing.T) {
	for _, body := range []string{`]`, `}`, `]]`, `,`, `1,2`, `{"a":1},`,
		`{"l":[` + strings.Repeat("1,", MaxItems-3) + `1],` + strings.Repeat(`"k":1,`, 3) + `"z":1}`} {
		if !ItemsFit([]byte(body)) {
			t.Errorf("%.60s: refused", body)
		}
	}
}

// The 100th problem is listed; the 101st is MoreProblems; past it,
// nothing more.
func TestProblems_theHundredthAndHundredFirst(t *testing.T) {
	var p Problems
	for i := range MaxProblems - 1 {
		p.Add("f", "%d", i)
	}
	p.Add("f", "last")
	if len(p) != MaxProblems || p[MaxProblems-1] != "f: last" {
		t.Fatalf("100th: %d problems, last %q", len(p), p[len(p)-1])
	}
	p.Add("f", "one more")
	if len(p) != MaxProblems+1 || p[MaxProblems] != MoreProblems {
		t.Fatalf("101st: %d problems, last %q", len(p), p[len(p)-1])
	}
	p.Add("f", "yet more")
	if len(p) != MaxProblems+1 || !strings.HasSuffix(p.Error(), "f: last; "+MoreProblems) {
		t.Errorf("past 101: %d problems", len(p))
	}
}

// Names finds a field's problem, not one of a field it prefixes.
func TestProblems_names(t *testing.T) {
	p := Problems{"a.b: x", "c: y"}
	if !p.Names("a.b") || !p.Names("c") || p.Names("a") || p.Names("b") || p.Error() != "a.b: x; c: y" {
		t.Error("names")
	}
}
