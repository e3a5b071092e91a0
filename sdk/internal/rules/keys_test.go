package rules

import (
	"net/url"
	"testing"
)

var (
	admin = Key{Name: "an admin API key", Field: "apiKey", Prefix: "mint_",
		Others: [][2]string{{"mint_dsc_", "an assistant key (mint_dsc_...), for the discovery API"}, {"mint_us_", "a Mintlify Index key (mint_us_...)"}},
		Where:  "the dashboard"}
	assistant = Key{Name: "an assistant API key", Field: "assistantKey", Prefix: "mint_dsc_",
		Others: [][2]string{{"mint_us_", "a Mintlify Index key (mint_us_...)"}, {"mint_", "an admin API key (mint_...), for the admin API"}},
		Where:  "the dashboard"}
)

func TestKey_Check(t *testing.T) {
	for _, tt := range []struct {
		kind Key
		key  string
		want string
	}{
		{admin, "mint_abc", ""},
		{admin, "mint_", ""},
		{admin, "mint_~!#", ""},
		{admin, "mint_ds", ""},
		{assistant, "mint_dsc_abc", ""},
		{admin, "", "apiKey is required"},
		{admin, "mint_abc\n", "apiKey contains a newline (often a trailing one, from a file or a secret store): remove it"},
		{admin, "mint_abc\r", "apiKey contains a newline (often a trailing one, from a file or a secret store): remove it"},
		{admin, "mint_a c", "apiKey contains white space: remove it"},
		{admin, "mint_a\tc", "apiKey contains white space: remove it"},
		{admin, "mint_a\x1fc", "apiKey must be printable ASCII"},
		{admin, "mint_a\x00c", "apiKey must be printable ASCII"},
		{admin, "mint_a\x7fc", "apiKey must be printable ASCII"},
		{admin, "mint_aéc", "apiKey must be printable ASCII"},
		{admin, "mint_dsc_abc", "apiKey is an assistant key (mint_dsc_...), for the discovery API, not an admin API key (mint_...): get one from the dashboard"},
		{admin, "mint_us_abc", "apiKey is a Mintlify Index key (mint_us_...), not an admin API key (mint_...): get one from the dashboard"},
		{admin, "sk-123", "apiKey is not an admin API key: those start mint_ (get one from the dashboard)"},
		{admin, "MINT_abc", "apiKey is not an admin API key: those start mint_ (get one from the dashboard)"},
		{assistant, "mint_abc", "assistantKey is an admin API key (mint_...), for the admin API, not an assistant API key (mint_dsc_...): get one from the dashboard"},
		{assistant, "mint_us_abc", "assistantKey is a Mintlify Index key (mint_us_...), not an assistant API key (mint_dsc_...): get one from the dashboard"},
		{assistant, "dsc_abc", "assistantKey is not an assistant API key: those start mint_dsc_ (get one from the dashboard)"},
		// A prefix of another kind as long as the kind's own does not
		// outrank it: only a longer one does.
		{Key{Name: "a key", Field: "k", Prefix: "ab_", Others: [][2]string{{"ab_", "a twin"}}}, "ab_x", ""},
	} {
		b := tt.kind.Check(tt.key)
		if got := text(b); got != tt.want {
			t.Errorf("%s %q:\n got %s\nwant %s", tt.kind.Field, tt.key, got, tt.want)
		}
		if b != nil && b.Value != "" {
			t.Errorf("%q: the key is echoed", tt.key)
		}
	}
}

func TestBaseURL(t *testing.T) {
	loopback := func(h string) bool { return h == "127.0.0.1" || h == "localhost" }
	const abs = " must be an absolute http(s) URL such as https://api.example.com"
	for _, tt := range []struct {
		raw, want, url string
	}{
		{"https://api.example.com", "", "https://api.example.com"},
		{" https://api.example.com/v1/// ", "", "https://api.example.com/v1"},
		{"https://proxy.example.com/a%2Fb/", "", "https://proxy.example.com/a%2Fb"},
		{"http://127.0.0.1:8080/", "", "http://127.0.0.1:8080"},
		{"http://localhost", "", "http://localhost"},
		{"", `baseURL` + abs, ""},
		{"api.example.com", `baseURL "api.example.com"` + abs, ""},
		{"ftp://api.example.com", `baseURL "ftp://api.example.com"` + abs, ""},
		{"https://", `baseURL "https://"` + abs, ""},
		{"https://a b.com:x", `baseURL "https://a b.com:x"` + abs, ""},
		{"https://u:secret@api.example.com", `baseURL "https://u:xxxxx@api.example.com" must not carry credentials, a query or a fragment`, ""},
		{"https://api.example.com?x=1", `baseURL "https://api.example.com?x=1" must not carry credentials, a query or a fragment`, ""},
		{"https://api.example.com#x", `baseURL "https://api.example.com#x" must not carry credentials, a query or a fragment`, ""},
		{"http://api.example.com", `baseURL "http://api.example.com" must use https (plain http is allowed only for loopback hosts)`, ""},
	} {
		u, b := BaseURL(tt.raw, "https://api.example.com", loopback)
		if got := text(b); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.raw, got, tt.want)
		}
		if got := urlString(u); got != tt.url {
			t.Errorf("%q: url %q, want %q", tt.raw, got, tt.url)
		}
	}
}

func urlString(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.String()
}
