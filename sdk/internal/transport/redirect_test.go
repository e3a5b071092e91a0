package transport

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{"localhost": true, "LocalHost": true, "127.0.0.1": true, "127.8.8.8": true, "::1": true,
		"LOCALHOST": true, "example.com": false, "10.0.0.1": false, "": false, "localhost.example": false, "0.0.0.0": false} {
		if IsLoopbackHost(host) != want {
			t.Errorf("%q", host)
		}
	}
}

func check(t *testing.T, hc *http.Client, method, to string, via ...string) error {
	t.Helper()
	var chain []*http.Request
	for _, v := range via {
		r, _ := http.NewRequest(method, v, nil)
		chain = append(chain, r)
	}
	req, _ := http.NewRequest(http.MethodGet, to, nil)
	req.Header.Set("Authorization", "Bearer k")
	err := GuardRedirects(hc).CheckRedirect(req, chain)
	if err == nil && req.Header.Get("Authorization") == "" {
		return errors.New("dropped")
	}
	return err
}

func TestGuardRedirects(t *testing.T) {
	hc := &http.Client{}
	if err := check(t, hc, "POST", "https://api.example/b", "https://api.example/a"); !errors.Is(err, http.ErrUseLastResponse) {
		t.Errorf("a POST: %v", err)
	}
	for _, m := range []string{"GET", "HEAD"} {
		if err := check(t, hc, m, "https://api.example/b", "https://api.example/a"); err != nil {
			t.Errorf("%s on the same host: %v", m, err)
		}
	}
	if err := check(t, hc, "GET", "https://files.api.example/b", "https://api.example/a"); err == nil || err.Error() != "dropped" {
		t.Errorf("another host keeps the key: %v", err)
	}
	if err := check(t, hc, "GET", "https://api.example:8443/b", "https://api.example/a"); err == nil || err.Error() != "dropped" {
		t.Errorf("another port keeps the key: %v", err)
	}
	err := check(t, hc, "GET", "http://api.example/b?sig=s3cr3t", "https://api.example/a")
	var re *redirectError
	if !errors.As(err, &re) || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "insecure URL http://api.example/b") {
		t.Errorf("a downgrade: %v", err)
	}
	if err := check(t, hc, "GET", "http://127.0.0.1:9/b", "http://127.0.0.1:9/a"); err != nil {
		t.Errorf("plain http on loopback: %v", err)
	}
	ten := make([]string, 10)
	for i := range ten {
		ten[i] = "https://api.example/a"
	}
	if err := check(t, hc, "GET", "https://api.example/b", ten...); !errors.As(err, &re) || err.Error() != "stopped after 10 redirects" {
		t.Errorf("ten: %v", err)
	}
	if err := check(t, hc, "GET", "https://api.example/b", ten[:9]...); err != nil {
		t.Errorf("nine: %v", err)
	}
	mine := errors.New("mine")
	if err := check(t, &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return mine }}, "GET", "https://api.example/b", "https://api.example/a"); !errors.Is(err, mine) {
		t.Errorf("the client's own policy: %v", err)
	}
	if hc.CheckRedirect != nil {
		t.Error("the client given was changed")
	}
}

// A refused redirect is final: it is not retried.
func TestDo_aRefusedRedirectIsFinal(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		u, _ := url.Parse("http://api.example/elsewhere")
		http.Redirect(w, r, u.String(), http.StatusFound)
	})
	p := policy(&fakeClock{})
	p.Client = GuardRedirects(&http.Client{})
	if r := Do(t.Context(), p, Request{Method: "GET", URL: s.URL}); r.Err == nil || len(r.Tries) != 1 || s.n.Load() != 1 {
		t.Errorf("%+v", r)
	}
	s2 := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusSeeOther) })
	if r := Do(t.Context(), p, Request{Method: "POST", URL: s2.URL}); r.Status != http.StatusSeeOther || r.Err != nil {
		t.Errorf("a POST's redirect comes back as its answer: %+v", r)
	}
}
