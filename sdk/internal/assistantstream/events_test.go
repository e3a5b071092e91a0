package assistantstream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// lines reads every line of body, the last error included.
func lines(t *testing.T, l *LineReader) ([]string, error) {
	t.Helper()
	var got []string
	for range 1000 {
		line, err := l.Next()
		if line != nil || err == nil {
			got = append(got, string(line))
		}
		if err != nil {
			return got, err
		}
	}
	t.Fatal("no end after 1000 lines")
	return nil, nil
}

func TestLineReader_linesWithoutTheirEndings(t *testing.T) {
	for name, r := range map[string]func(string) io.Reader{
		"whole":       func(s string) io.Reader { return strings.NewReader(s) },
		"byte a time": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
	} {
		t.Run(name, func(t *testing.T) {
			got, err := lines(t, NewLineReader(r("one\r\ntwo\n\n\r\nthree\r"+"\nfour"), 10))
			want := []string{"one", "two", "", "", "three", "four"}
			if !errors.Is(err, ErrPartialLine) || strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%q, %v; want %q, a partial last line", got, err, want)
			}
		})
	}
	// Only a CR before the LF is a line ending: one elsewhere is kept.
	got, err := lines(t, NewLineReader(strings.NewReader("a\rb\n\r\r\n"), 10))
	if !errors.Is(err, io.EOF) || len(got) != 2 || got[0] != "a\rb" || got[1] != "\r" {
		t.Errorf("%q, %v", got, err)
	}
	// A body that ends after a newline ends with io.EOF alone.
	if got, err := lines(t, NewLineReader(strings.NewReader("x\n"), 10)); !errors.Is(err, io.EOF) || errors.Is(err, ErrPartialLine) || len(got) != 1 {
		t.Errorf("%q, %v", got, err)
	}
	if got, err := lines(t, NewLineReader(strings.NewReader(""), 10)); !errors.Is(err, io.EOF) || len(got) != 0 {
		t.Errorf("empty body: %q, %v", got, err)
	}
	// A partial last line keeps its CR off too.
	if got, err := lines(t, NewLineReader(strings.NewReader("x\r"), 10)); !errors.Is(err, ErrPartialLine) || got[0] != "x" {
		t.Errorf("%q, %v", got, err)
	}
}

func TestLineReader_aLineIsCapped(t *testing.T) {
	const maxLine = 100
	at := strings.Repeat("x", maxLine)
	for name, tc := range map[string]struct {
		body string
		err  error
	}{
		"at the cap, CRLF":           {at + "\r\nnext\n", io.EOF},
		"at the cap, LF":             {at + "\nnext\n", io.EOF},
		"past the cap, CRLF":         {at + "x\r\nnext\n", ErrLineTooLong},
		"two past the cap, LF":       {at + "xx\nnext\n", ErrLineTooLong},
		"past the cap, no newline":   {at + "xxx", ErrLineTooLong},
		"endless, no newline at all": {strings.Repeat("y", 200<<10), ErrLineTooLong},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := lines(t, NewLineReader(iotest.HalfReader(strings.NewReader(tc.body)), maxLine))
			if !errors.Is(err, tc.err) {
				t.Fatalf("%d lines, %v; want %v", len(got), err, tc.err)
			}
			if errors.Is(tc.err, io.EOF) && (len(got) != 2 || got[0] != at || got[1] != "next") {
				t.Errorf("%d lines: %.20q", len(got), got)
			}
			if errors.Is(err, ErrLineTooLong) && len(got) != 0 {
				t.Errorf("a line handed out before the cap: %.20q", got)
			}
		})
	}
}

// A line longer than the read buffer is joined from several reads.
func TestLineReader_aLineLongerThanTheBuffer(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 10<<10) // 160 KiB: the buffer holds 64
	l := NewLineReader(strings.NewReader(long+"\r\nshort\n"+long), len(long))
	if line, err := l.Next(); err != nil || string(line) != long {
		t.Fatalf("%d bytes of %d: %v", len(line), len(long), err)
	}
	if line, err := l.Next(); err != nil || string(line) != "short" {
		t.Fatalf("%.20q, %v", line, err)
	}
	if line, err := l.Next(); !errors.Is(err, ErrPartialLine) || string(line) != long {
		t.Fatalf("%d bytes of %d: %v", len(line), len(long), err)
	}
	if l.max != len(long) {
		t.Errorf("Max %d", l.max)
	}
}

// Start keeps the stream's first 256 bytes, across lines, to show a body
// that was not a stream.
func TestLineReader_startKeepsTheFirstBytes(t *testing.T) {
	body := "<html>\n" + strings.Repeat("abcdefgh\n", 100)
	l := NewLineReader(iotest.OneByteReader(strings.NewReader(body)), 64)
	if _, err := l.Next(); err != nil || string(l.start) != "<html>\n" {
		t.Fatalf("%q, %v", l.start, err)
	}
	if _, err := lines(t, l); !errors.Is(err, io.EOF) || string(l.start) != body[:256] {
		t.Errorf("%d bytes kept, %v", len(l.start), err)
	}
	// Even a line past the cap is kept from.
	l = NewLineReader(strings.NewReader(strings.Repeat("z", 300)), 10)
	if _, err := l.Next(); !errors.Is(err, ErrLineTooLong) || string(l.start) != strings.Repeat("z", 256) {
		t.Errorf("%d bytes kept, %v", len(l.start), err)
	}
}

// events reads every event's data, the last error included.
func events(t *testing.T, r *Events) ([]string, error) {
	t.Helper()
	var got []string
	for range 1000 {
		data, err := r.NextEvent()
		if err != nil {
			if data != nil {
				t.Errorf("data %q with %v", data, err)
			}
			return got, err
		}
		got = append(got, string(data))
	}
	t.Fatal("no end after 1000 events")
	return nil, nil
}

func TestReader_eventsOfServerSentEvents(t *testing.T) {
	body := ": a comment, a keep-alive\n\n" +
		"data: one\n\n" +
		"event: message\nid: 7\nretry: 10\ndata:two\n\n" + // other fields skipped; the space after the colon is optional
		"data: three\r\ndata:  four\r\n\r\n" + // data lines joined; one space cut, not two
		"data\n\n" + // a field with no colon: data, empty
		": ping\ndata: five\n: pong\n\n" +
		"data: six:seven\n\n" +
		"\n\n" // blank lines alone
	for name, r := range map[string]io.Reader{
		"whole":       strings.NewReader(body),
		"byte a time": iotest.OneByteReader(strings.NewReader(body)),
	} {
		t.Run(name, func(t *testing.T) {
			er := NewEvents(r, 64, 100)
			got, err := events(t, er)
			want := []string{"one", "two", "three\n four", "", "five", "six:seven"}
			if !errors.Is(err, io.EOF) || strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%q, %v; want %q", got, err, want)
			}
			if er.atEOF {
				t.Error("AtEOF after a body that ended between events")
			}
		})
	}
}

// Every event counts, those that carry nothing too: a comment, a blank
// line alone. The lines of one event of comments count once each, not
// again at its blank line; a blank line alone ends as such an event
// does, so two blank lines count once.
func TestReader_everyEventCounts(t *testing.T) {
	for name, tc := range map[string]struct {
		body   string
		events int // events counted
	}{
		"data":                   {"data: a\n\ndata: b\n\n", 2},
		"comments":               {": a\n\n: b\n\n", 2},
		"an event of comments":   {": a\n: b\n: c\n\n", 3},
		"blank lines":            {"\n\n\n\n\n", 3},
		"comments then data":     {": a\n\ndata: b\n\n", 2},
		"a comment in an event":  {": a\ndata: b\n\n", 2},
		"a last event cut short": {"data: a\n\ndata: b", 2},
	} {
		t.Run(name, func(t *testing.T) {
			// At the count, the stream reads to its end.
			if _, err := events(t, NewEvents(strings.NewReader(tc.body), 64, tc.events)); !errors.Is(err, io.EOF) {
				t.Errorf("at %d events: %v", tc.events, err)
			}
			// One fewer, and it fails at the last.
			got, err := events(t, NewEvents(strings.NewReader(tc.body), 64, tc.events-1))
			if !errors.Is(err, ErrTooManyEvents) {
				t.Errorf("at %d events: %q, %v; want too many events", tc.events-1, got, err)
			}
		})
	}
}

// An event's data is capped like a line: data lines that never meet the
// blank line that ends an event fail at the cap, never growing past it.
func TestReader_eventDataIsCapped(t *testing.T) {
	const maxLine = 64
	half := strings.Repeat("x", maxLine/2-1)
	// The data lines joined, their newline counted: 31 + 1 + 32 = 64
	// bytes, the cap.
	if got, err := events(t, NewEvents(strings.NewReader("data: "+half+"\ndata: "+half+"x\n\n"), maxLine, 10)); !errors.Is(err, io.EOF) || len(got) != 1 || got[0] != half+"\n"+half+"x" {
		t.Errorf("%q, %v", got, err)
	}
	// One byte more than the cap: 32 + 1 + 32 = 65.
	over := half + "x"
	if got, err := events(t, NewEvents(strings.NewReader("data: "+over+"\ndata: "+over+"\n\n"), maxLine, 10)); !errors.Is(err, ErrEventTooLong) || len(got) != 0 {
		t.Errorf("%q, %v; want an event too long", got, err)
	}
	// An endless event: data lines and no blank line, byte by byte.
	endless := iotest.OneByteReader(&repeatReader{s: "data: x\n"})
	r := NewEvents(endless, maxLine, 1000)
	if got, err := events(t, r); !errors.Is(err, ErrEventTooLong) || len(got) != 0 {
		t.Errorf("%q, %v; want an event too long", got, err)
	}
	if r.lines.max != maxLine {
		t.Errorf("MaxLine %d", r.lines.max)
	}
	// A data line past the line cap fails as a line.
	if _, err := events(t, NewEvents(strings.NewReader("data: "+strings.Repeat("y", maxLine)+"\n\n"), maxLine, 10)); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("%v; want a line too long", err)
	}
}

// repeatReader reads s again and again, without end.
type repeatReader struct {
	s   string
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.s[r.off:])
		n, r.off = n+c, (r.off+c)%len(r.s)
	}
	return n, nil
}

// A body that ends inside an event hands the event out, saying so
// (AtEOF): the caller tells a cut from a malformed part by it.
func TestReader_theBodyEndingInAnEvent(t *testing.T) {
	for name, tc := range map[string]struct {
		body  string
		want  []string
		atEOF bool
	}{
		"no blank line after it":      {"data: a\n\ndata: b\n", []string{"a", "b"}, true},
		"no newline after it":         {"data: a\n\ndata: b", []string{"a", "b"}, true},
		"no newline after two lines":  {"data: a\ndata: b", []string{"a\nb"}, true},
		"a comment cut short":         {"data: a\n\n: pi", []string{"a"}, true},
		"a field cut short":           {"data: a\n\nevent: mess", []string{"a"}, true},
		"a field, then the end":       {"data: a\n\nevent: message\n", []string{"a"}, false},
		"a blank line cut short (CR)": {"data: a\n\r", []string{"a"}, true},
	} {
		t.Run(name, func(t *testing.T) {
			r := NewEvents(strings.NewReader(tc.body), 64, 100)
			got, err := events(t, r)
			if !errors.Is(err, io.EOF) || strings.Join(got, "|") != strings.Join(tc.want, "|") || r.atEOF != tc.atEOF {
				t.Errorf("%q, %v, AtEOF %v; want %q, AtEOF %v", got, err, r.atEOF, tc.want, tc.atEOF)
			}
		})
	}
}

// An error of the body comes out as it is, whatever was pending.
func TestReader_theBodysErrorsComeThrough(t *testing.T) {
	broken := errors.New("connection reset")
	r := NewEvents(io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(broken)), 64, 100)
	if got, err := events(t, r); !errors.Is(err, broken) || len(got) != 1 {
		t.Errorf("%q, %v", got, err)
	}
	r = NewEvents(io.MultiReader(strings.NewReader("a:1\n"), iotest.ErrReader(broken)), 64, 100)
	if line, err := r.NextLine(); err != nil || string(line) != "a:1" {
		t.Fatalf("%q, %v", line, err)
	}
	if line, err := r.NextLine(); !errors.Is(err, broken) || line != nil {
		t.Errorf("%q, %v", line, err)
	}
}

func TestReader_linesOfTheDataStream(t *testing.T) {
	body := "0:\"a\"\r\n\n  \n" + `d:{"finishReason":"stop"}`
	r := NewEvents(iotest.OneByteReader(strings.NewReader(body)), 64, 4)
	var got []string
	for {
		line, err := r.NextLine()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
		if r.atEOF != (len(got) == 4) {
			t.Errorf("line %d: AtEOF %v", len(got), r.atEOF)
		}
	}
	// Blank lines are handed out (and counted): the caller skips them.
	want := []string{`0:"a"`, "", "  ", `d:{"finishReason":"stop"}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%q; want %q", got, want)
	}
	// One line fewer allowed: the last line fails.
	r = NewEvents(strings.NewReader(body), 64, 3)
	for i := range 4 {
		if _, err := r.NextLine(); (err != nil) != (i == 3) || (i == 3 && !errors.Is(err, ErrTooManyEvents)) {
			t.Errorf("line %d: %v", i+1, err)
		}
	}
	// A line past the cap, and a body that was not a stream.
	r = NewEvents(strings.NewReader("<html>"+strings.Repeat(" ", 64)+"\n"), 64, 4)
	if _, err := r.NextLine(); !errors.Is(err, ErrLineTooLong) || !bytes.HasPrefix(r.lines.start, []byte("<html> ")) {
		t.Errorf("%v, start %q", err, r.lines.start)
	}
}

// A field the reader does not use (event, id, retry, any other) counts
// as an event, like a comment: a flood of them, whatever its blank lines,
// ends at the cap.
func TestReader_unusedFieldsCount(t *testing.T) {
	for name, tc := range map[string]struct {
		body   string
		events int
	}{
		"an event of fields":        {"event: ping\nid: 7\n\n", 2},
		"fields with no blank line": {"retry: 1\nretry: 2\nretry: 3\n", 3},
		"a field with no colon":     {"x-glitter\n\n", 1},
		"fields in a data event":    {"event: message\nid: 1\ndata: a\n\n", 3},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := events(t, NewEvents(strings.NewReader(tc.body), 64, tc.events)); !errors.Is(err, io.EOF) {
				t.Errorf("at %d events: %v", tc.events, err)
			}
			if got, err := events(t, NewEvents(strings.NewReader(tc.body), 64, tc.events-1)); !errors.Is(err, ErrTooManyEvents) {
				t.Errorf("at %d events: %q, %v; want too many events", tc.events-1, got, err)
			}
		})
	}
}
