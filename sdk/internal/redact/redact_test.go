package redact

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Strings reaches every string an answer can hold, through pointers,
// lists, maps and interfaces.
func TestStrings_everyKindOfPlace(t *testing.T) {
	const key = "mint_secret"
	leak := func() string { return "x" + key }
	p1, p2, p3, p4 := leak(), leak(), leak(), leak()
	type named string
	v := struct {
		Plain   string
		Pointer *string
		List    []string
		Array   [1]string
		Map     map[string]string
		Named   map[string]named
		Any     any
		AnyMap  map[string]any
		PtrMap  map[string]*string
		Nested  []struct{ Inner *string }
		private string
		Number  any
		NilPtr  *string
		NilAny  any
	}{Plain: leak(), Pointer: &p1, List: []string{"ok", leak()}, Array: [1]string{leak()}, Map: map[string]string{"k": leak()},
		Named: map[string]named{"n": named(leak())}, Any: leak(),
		AnyMap: map[string]any{"a": &p2, "s": leak(), "nil": nil}, PtrMap: map[string]*string{"p": &p4}, Nested: []struct{ Inner *string }{{&p3}}, private: leak(), Number: 7}
	if !Strings(&v, []string{key}) {
		t.Fatal("found nothing")
	}
	want := "x" + Marker
	if v.Plain != want || p1 != want || v.List[1] != want || v.List[0] != "ok" || v.Array[0] != want || v.Map["k"] != want ||
		v.Named["n"] != named(want) || v.Any != want || v.AnyMap["s"] != want || p2 != want || p3 != want || p4 != want ||
		v.private != leak() || v.Number != 7 || v.NilPtr != nil || v.NilAny != nil {
		t.Errorf("%+v (pointers: %q %q %q %q)", v, p1, p2, p3, p4)
	}
	clean := struct{ A string }{"nothing here"}
	if Strings(&clean, []string{key}) || clean.A != "nothing here" {
		t.Errorf("a clean value: %+v", clean)
	}
	// A string reached by value cannot be set: it is left, and not counted.
	if Strings("x"+key, []string{key}) {
		t.Error("a string passed by value reported as redacted")
	}
}

// A secret is removed from map keys as from values, at any depth (hole 4
// of #43: a search result's metadata key kept the key, into Terraform
// state). Two keys the same once redacted are both kept, the later one
// in the keys' order numbered, so that the same answer always gives the
// same map.
func TestStrings_mapKeys(t *testing.T) {
	const key = "mint_k3y"
	v := struct {
		Meta  map[string]any
		Named map[string]string
	}{
		Meta: map[string]any{"title": "t", key: key, "x" + key: 1, "x" + Marker: 2, Marker + " (2)": 3,
			"nested": map[string]any{key: []any{map[string]any{"a" + key: "v"}}}},
		Named: map[string]string{key: "v"},
	}
	if !Strings(&v, []string{key}) {
		t.Fatal("found nothing")
	}
	want := map[string]any{"title": "t", Marker: Marker, "x" + Marker: 2, "x" + Marker + " (2)": 1, Marker + " (2)": 3,
		"nested": map[string]any{Marker: []any{map[string]any{"a" + Marker: "v"}}}}
	if diff := cmp.Diff(want, v.Meta); diff != "" || v.Named[Marker] != "v" || len(v.Named) != 1 {
		t.Errorf("(-want +got):\n%s\n%v", diff, v.Named)
	}
	// Only a key that held a secret moves.
	clean := map[string]any{"a": 1}
	if Strings(&clean, []string{key}) || clean["a"] != 1 {
		t.Errorf("a clean map: %v", clean)
	}
}

func TestScrub(t *testing.T) {
	s, found := Scrub("a key1 b key2 key1", []string{"", "key1", "key2", "absent"})
	if s != "a "+Marker+" b "+Marker+" "+Marker || !found {
		t.Errorf("%q %v", s, found)
	}
	if s, found := Scrub("plain", []string{"key1", ""}); s != "plain" || found {
		t.Errorf("clean text: %q %v", s, found)
	}
	if String("a key1", []string{"key1"}) != "a "+Marker {
		t.Error("String does not scrub")
	}
}

func TestMayHold(t *testing.T) {
	for body, want := range map[string]bool{
		`{"a":"key1"}`:      true,
		`{"a":"k\u0065y1"}`: true, // an escape could spell it
		`{"a":"b"}`:         false,
		`\u006b`:            true, // an escape at the very start
	} {
		if got := MayHold([]byte(body), []string{"", "key1"}); got != want {
			t.Errorf("%s: %v", body, got)
		}
	}
}

// Secrets keeps the client's own secrets first, each link once, and the
// last MaxLinks links; the nil Secrets knows none.
func TestSecrets(t *testing.T) {
	own := []string{"mint_key"}
	m := NewSecrets(own...)
	if got := m.List(); !slices.Equal(got, own) {
		t.Errorf("nothing learned: %q", got)
	}
	before := m.all.Load()
	m.Learn(nil)
	if m.all.Load() != before {
		t.Error("nothing learned changed the list")
	}
	for i := range MaxLinks + 3 {
		m.Learn([]string{fmt.Sprintf("secret-%02d", i)})
		m.Learn([]string{fmt.Sprintf("secret-%02d", i)}) // again: once
	}
	got := m.List()
	if len(got) != 1+MaxLinks || got[0] != "mint_key" || got[1] != "secret-03" || got[MaxLinks] != fmt.Sprintf("secret-%02d", MaxLinks+2) {
		t.Errorf("%q", got)
	}
	if m.Redact("a mint_key secret-03 secret-02") != "a "+Marker+" "+Marker+" secret-02" || !m.MayHold([]byte("secret-10")) || m.MayHold([]byte("secret-02")) {
		t.Error("the methods do not use every secret known")
	}
	if got := m.Line("mint_key\x1b[2J\n" + strings.Repeat("x", 300)); got != Marker+`\x1b[2J\n`+strings.Repeat("x", MaxLine-len(Marker)-9)+"…" {
		t.Errorf("Line: %q", got)
	}
	if got := m.Snippet([]byte("<b>mint_key</b>\x07 gone")); got != Marker+" gone" {
		t.Errorf("Snippet: %q", got)
	}
	var none *Secrets
	if none.List() != nil || none.Redact("mint_key") != "mint_key" {
		t.Error("the nil Secrets")
	}
}

func TestLinkSecrets(t *testing.T) {
	u, _ := url.Parse("https://files.example/b.zip?X-Sig=ab%2Fcdefgh&short=1234567&t=token123")
	got := LinkSecrets(u)
	for _, want := range []string{u.String(), u.RawQuery, "ab/cdefgh", "ab%2Fcdefgh", "token123"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q missing from %q", want, got)
		}
	}
	if slices.Contains(got, "1234567") {
		t.Errorf("a value too short to be a secret is one: %q", got)
	}
}

func TestBundleLinkSecrets(t *testing.T) {
	if got := BundleLinkSecrets([]byte(`{"bundleUrl":"https://f.example/b?sig=abcdefgh"}`)); !slices.Contains(got, "abcdefgh") {
		t.Errorf("link: %q", got)
	}
	if got := BundleLinkSecrets([]byte(`{"bundleUrl":"%zz"}`)); !slices.Equal(got, []string{"%zz"}) {
		t.Errorf("not a URL: %q", got)
	}
	for _, body := range []string{`{}`, `{"bundleUrl":""}`, `not json`} {
		if got := BundleLinkSecrets([]byte(body)); got != nil {
			t.Errorf("%s: %q", body, got)
		}
	}
}

// URLError keeps the error's kind and drops the query and fragment.
func TestURLError(t *testing.T) {
	inner := errors.New("boom")
	err := URLError(&url.Error{Op: "Get", URL: "https://user:pw@files.example/a.csv?sig=s3cr3t#frag", Err: inner})
	var ue *url.Error
	if !errors.As(err, &ue) || ue.URL != "https://user:xxxxx@files.example/a.csv" || !errors.Is(err, inner) || ue.Op != "Get" {
		t.Errorf("%#v", err)
	}
	err = URLError(&url.Error{Op: "Get", URL: "%zz?sig=s3cr3t", Err: inner})
	if !errors.As(err, &ue) || ue.URL != "(link)" {
		t.Errorf("unparsable: %#v", err)
	}
	if err := URLError(inner); err != inner { //nolint:errorlint // the very same error, not one wrapping it
		t.Errorf("another error changed: %v", err)
	}
}

func TestWithoutQuery(t *testing.T) {
	u, _ := url.Parse("https://files.example/a?sig=x#frag")
	u.ForceQuery = true
	if got := WithoutQuery(u); got != "https://files.example/a" {
		t.Error(got)
	}
	if u.RawQuery != "sig=x" {
		t.Error("the URL given was changed")
	}
}

// Snippet makes one line of a proxy's page: no tags, scripts, styles,
// controls or runs of white space, no secrets, and only the start of a
// huge body.
func TestSnippet(t *testing.T) {
	page := "<html><style>p{}</style><script>x()</script><h1>502 Bad\x1b\x00 Gateway</h1>\n\t<p>key1</p></html>"
	if got := Snippet([]byte(page), []string{"key1"}); got != "502 Bad Gateway "+Marker {
		t.Errorf("%q", got)
	}
	huge := strings.Repeat("a", maxSnippetInput) + "key1"
	if got := Snippet([]byte(huge), nil); len(got) != maxSnippetInput {
		t.Errorf("%d bytes", len(got))
	}
	if got := Snippet([]byte("a\tb"), nil); got != "a b" {
		t.Errorf("a tab: %q", got)
	}
}
