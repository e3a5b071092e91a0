package refusal

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shown marks each text that went through show, so the tests see which did.
func shown(s string) string { return "<" + s + ">" }

func TestParse(t *testing.T) {
	details := func(n int) string {
		d := make([]string, n)
		for i := range d {
			d[i] = `{"message":"d` + strconv.Itoa(i) + `"}`
		}
		return `{"error":"bad","details":[` + strings.Join(d, ",") + `]}`
	}
	tenShown := []string{"<d0>", "<d1>", "<d2>", "<d3>", "<d4>", "<d5>", "<d6>", "<d7>", "<d8>", "<d9>"}
	tests := map[string]struct {
		body string
		want Refusal
		ok   bool
	}{
		"error":                       {`{"error":"Invalid request body","extra":1}`, Refusal{Message: "<Invalid request body>"}, true},
		"error and details":           {`{"error":"bad","details":[{"message":"prompt: Required"},{"message":""}]}`, Refusal{Message: "<bad>", Details: []string{"<prompt: Required>", "<>"}}, true},
		"message when error is null":  {`{"error":null,"message":"fallback"}`, Refusal{Message: "<fallback>"}, true},
		"message when error is empty": {`{"error":"","message":"fallback"}`, Refusal{Message: "<fallback>"}, true},
		"message alone":               {`{"message":"only"}`, Refusal{Message: "<only>"}, true},
		"error over message":          {`{"error":"first","message":"second"}`, Refusal{Message: "<first>"}, true},
		"details alone":               {`{"details":[{"message":"only details"}]}`, Refusal{Message: "<>", Details: []string{"<only details>"}}, true},
		"error as an object":          {`{"error":{"code":7}}`, Refusal{Message: `<{"code":7}>`}, true},
		"error as a number":           {`{"error":42}`, Refusal{Message: "<42>"}, true},
		"ten details":                 {details(MaxDetails), Refusal{Message: "<bad>", Details: tenShown}, true},
		"eleven details":              {details(MaxDetails + 1), Refusal{Message: "<bad>", Details: append(tenShown[:10:10], "and 1 more")}, true},
		"a thousand details":          {details(1000), Refusal{Message: "<bad>", Details: append(tenShown[:10:10], "and 990 more")}, true},
		"no error fields":             {`{"status":"down"}`, Refusal{}, false},
		"empty object":                {`{}`, Refusal{}, false},
		"empty details":               {`{"details":[]}`, Refusal{}, false},
		"not JSON":                    {`<html>Bad gateway</html>`, Refusal{}, false},
		"a list":                      {`[{"error":"x"}]`, Refusal{}, false},
		"empty body":                  {``, Refusal{}, false},
		"a list past wire's cap":      {`{"error":"bad","details":[` + strings.Repeat(`{},`, 100_000) + `{}]}`, Refusal{}, false},
		"object storage": {`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>2026</Expires></Error>`,
			Refusal{Message: "<AccessDenied: Request has expired>"}, true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := Parse([]byte(tt.body), shown)
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestObjectStorageError(t *testing.T) {
	for body, want := range map[string]string{
		`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>2026</Expires></Error>`: "AccessDenied: Request has expired",
		`<Error><Code>NoSuchKey</Code></Error>`:                           "NoSuchKey",
		"  \n<Error><Code>NoSuchKey</Code></Error>":                       "NoSuchKey",
		`<Error><Message>x</Message></Error>`:                             "",
		`<Error><Code>NoSuchKey</Code>`:                                   "",
		`<Other><Code>NoSuchKey</Code></Other>`:                           "",
		strings.Repeat(" ", 64) + `<Error><Code>NoSuchKey</Code></Error>`: "",
		`<html>nope</html>`:                                               "",
		`{"error":"x"}`:                                                   "",
		``:                                                                "",
	} {
		got, ok := objectStorageError([]byte(body))
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q, %v", body, got, ok)
		}
	}
}
