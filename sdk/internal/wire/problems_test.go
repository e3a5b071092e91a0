package wire

import "testing"

// Problems name their field; names are built only for a problem.
func TestField_names(t *testing.T) {
	for f, want := range map[Field]string{Top("hasMore"): "hasMore", Row("visitors", 3, "path"): "visitors[3].path", Row("feedback", 0, ""): "feedback[0]"} {
		if got := f.String(); got != want {
			t.Errorf("%+v = %q, want %q", f, got, want)
		}
	}
	p := Problems{"a.b: x", "c: y"}
	if !p.Names("a.b") || !p.Names("c") || p.Names("a") || p.Names("b") {
		t.Error("names")
	}
}
