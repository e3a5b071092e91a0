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
