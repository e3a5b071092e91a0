package rules

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// text is a refusal as package sdk's ValidationError says it ("" when the
// rule held), so each case states the whole error.
func text(b *Broken) string {
	switch {
	case b == nil:
		return ""
	case b.Value != "":
		return fmt.Sprintf("%s %q %s", b.Field, b.Value, b.Rule)
	}
	return b.Field + " " + b.Rule
}

// cases runs a rule over inputs, each with the whole error it must give
// ("" when the input is accepted).
func cases(t *testing.T, rule func(string) *Broken, want map[string]string) {
	t.Helper()
	for in, w := range want {
		if got := text(rule(in)); got != w {
			t.Errorf("%q:\n got %s\nwant %s", in, got, w)
		}
	}
}

func TestNonEmpty(t *testing.T) {
	cases(t, func(s string) *Broken { return NonEmpty("prompt", s) }, map[string]string{
		"":       "prompt must not be empty or only white space",
		" \t\n ": "prompt must not be empty or only white space",
		" x ":    "",
		"x":      "",
	})
}

func TestID(t *testing.T) {
	const chars = `projectId %q may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)`
	want := map[string]string{
		"":                       "projectId must not be empty or only white space",
		"  ":                     "projectId must not be empty or only white space",
		".":                      `projectId "." is not allowed: it would change the request's path`,
		"..":                     `projectId ".." is not allowed: it would change the request's path`,
		"...":                    "",
		"azAZ09-_.~:":            "",
		strings.Repeat("a", 256): "",
		strings.Repeat("a", 257): fmt.Sprintf("projectId %q is longer than 256 characters: it cannot be an id", strings.Repeat("a", 257)),
		strings.Repeat("é", 128): "projectId " + fmt.Sprintf("%q", strings.Repeat("é", 128)) + chars[len("projectId %q"):],
		strings.Repeat("é", 129): fmt.Sprintf("projectId %q is longer than 256 characters: it cannot be an id", strings.Repeat("é", 129)),
	}
	// The characters just outside each range, and the punctuation an id
	// must not hold.
	for _, r := range "`{@[/ \t\n\x00\x7f!#$%&'()*+,;<=>?\\]^|\"" {
		want["a"+string(r)+"b"] = fmt.Sprintf(chars, "a"+string(r)+"b")
	}
	for _, r := range "azAZ09-_.~:" {
		want[string(r)+"x"] = ""
	}
	cases(t, func(s string) *Broken { return ID("projectId", s) }, want)
}

func TestOneOf(t *testing.T) {
	allowed := []string{"active", "failed"}
	for in, want := range map[string]string{
		"active":  "",
		"failed":  "",
		"":        "status must be one of active, failed",
		"Active":  `status "Active" must be one of active, failed`,
		"failed ": `status "failed " must be one of active, failed`,
	} {
		if got := text(OneOf("status", in, allowed)); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
	if got := text(OneOf[string]("status", "x", nil)); got != `status "x" must be one of ` {
		t.Errorf("none allowed: %s", got)
	}
}

func TestGroups(t *testing.T) {
	for _, tt := range []struct {
		groups []string
		want   string
	}{
		{nil, ""},
		{[]string{"admins", "beta"}, ""},
		{[]string{"admins", " "}, "filter.groups[1] must not be empty or only white space"},
		{[]string{"", ""}, "filter.groups[0] must not be empty or only white space"},
	} {
		if got := text(Groups("filter.groups", tt.groups)); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.groups, got, tt.want)
		}
	}
}

func TestUpTo_and_noCut(t *testing.T) {
	for n, want := range map[int]string{
		-1: `pageSize "-1" must be between 1 and 50`,
		0:  "",
		1:  "",
		50: "",
		51: `pageSize "51" must be between 1 and 50`,
	} {
		if got := text(UpTo("pageSize", n, 50)); got != want {
			t.Errorf("%d: got %s, want %s", n, got, want)
		}
	}
	for n, want := range map[int]string{-1: `maxCharacters "-1" must be 1 or more (0: no cut)`, 0: "", 1: ""} {
		if got := text(noCut("maxCharacters", n)); got != want {
			t.Errorf("%d: got %s, want %s", n, got, want)
		}
	}
}

func TestScore(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, ""}, {0.5, ""}, {1, ""},
		{-0.001, `scoreThreshold "-0.001" must be between 0 and 1`},
		{1.001, `scoreThreshold "1.001" must be between 0 and 1`},
		{math.NaN(), `scoreThreshold "NaN" must be between 0 and 1`},
		{math.Inf(1), `scoreThreshold "+Inf" must be between 0 and 1`},
	} {
		if got := text(Score(tt.v)); got != tt.want {
			t.Errorf("%v: got %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestULID(t *testing.T) {
	const rule = " must be a ULID (26 characters of Crockford base32, such as 01JD8X3Q6V3XK8M4Y2Z9T0B1CD)"
	want := map[string]string{
		"":                           "cursor" + rule,
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CD": "",
		"7ZZZZZZZZZZZZZZZZZZZZZZZZZ": "",
		"01jd8x3q6v3xk8m4y2z9t0b1cd": "",
		"00000000000000000000000000": "",
	}
	for _, bad := range []string{
		"8ZZZZZZZZZZZZZZZZZZZZZZZZZ",  // past 128 bits
		"01JD8X3Q6V3XK8M4Y2Z9T0B1C",   // 25
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CDE", // 27
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CU",  // U is not Crockford's
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CI", "01JD8X3Q6V3XK8M4Y2Z9T0B1CL", "01JD8X3Q6V3XK8M4Y2Z9T0B1CO",
		"01JD8X3Q6V3XK8M4Y2Z9T0B1C-",
	} {
		want[bad] = fmt.Sprintf("cursor %q%s", bad, rule)
	}
	cases(t, func(s string) *Broken { return ULID("cursor", s) }, want)
}
