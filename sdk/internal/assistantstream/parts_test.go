package assistantstream

import (
	"strings"
	"testing"
)

// Pieces gathers small deltas into pieces, not a string each: a million
// 1-byte deltas cost a few pieces, and the text is whole.
func TestPieces_smallDeltasArePooled(t *testing.T) {
	var p Pieces
	var want strings.Builder
	for i := range 300_000 {
		d := string(rune('a' + i%26))
		p.Add(d)
		want.WriteString(d)
	}
	big := strings.Repeat("B", pieceSize+1)
	p.Add(big)
	p.Add("end")
	want.WriteString(big + "end")
	if len(p.done) > 300_000/pieceSize+3 || p.String() != want.String() {
		t.Errorf("%d pieces for %d bytes; text whole: %v", len(p.done), want.Len(), p.String() == want.String())
	}
	var empty Pieces
	if empty.String() != "" {
		t.Error("no text is not empty")
	}
}

// A piece is set aside only when the next text would pass its size, and
// a text of a piece's size or more is a piece of its own.
func TestPieces_boundaries(t *testing.T) {
	var p Pieces
	p.Add(strings.Repeat("a", pieceSize-1))
	p.Add("b")
	if len(p.done) != 0 || len(p.cur) != pieceSize {
		t.Errorf("a piece's worth: %d set aside, %d current; want 0, %d", len(p.done), len(p.cur), pieceSize)
	}
	p.Add("c")
	if len(p.done) != 1 || string(p.cur) != "c" {
		t.Errorf("one past: %d set aside, %q current; want 1, \"c\"", len(p.done), p.cur)
	}
	var r Pieces
	r.Add(strings.Repeat("e", pieceSize+1))
	if len(r.done) != 1 || len(r.cur) != 0 {
		t.Errorf("past a piece, first: %d set aside, %d current; want 1, 0", len(r.done), len(r.cur))
	}
	var q Pieces
	q.Add(strings.Repeat("d", pieceSize))
	if len(q.done) != 1 || len(q.cur) != 0 || q.String() != strings.Repeat("d", pieceSize) {
		t.Errorf("a whole piece: %d set aside, %d current", len(q.done), len(q.cur))
	}
}
