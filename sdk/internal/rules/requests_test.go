package rules

import (
	"strings"
	"testing"
)

func TestSearch(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		query     string
		size      int
		threshold *float64
		groups    []string
		want      string
	}{
		{"q", 0, nil, nil, ""},
		{"q", 50, f(0), []string{"a"}, ""},
		{"q", 1, f(1), nil, ""},
		{" ", 0, nil, nil, "query must not be empty or only white space"},
		{"q", 51, nil, nil, `pageSize "51" must be between 1 and 50`},
		{"q", -1, nil, nil, `pageSize "-1" must be between 1 and 50`},
		{"q", 0, f(1.5), nil, `scoreThreshold "1.5" must be between 0 and 1`},
		{"q", 0, nil, []string{"a", ""}, "filter.groups[1] must not be empty or only white space"},
	} {
		if got := text(Search(tt.query, tt.size, 50, tt.threshold, tt.groups)); got != tt.want {
			t.Errorf("%+v:\n got %s\nwant %s", tt, got, tt.want)
		}
	}
}

func TestIndexSearch(t *testing.T) {
	for _, tt := range []struct {
		query            string
		n, cut           int
		include, exclude []string
		want             string
	}{
		{"q", 0, 0, nil, nil, ""},
		{"q", 20, 1, []string{"a.com"}, []string{"b.com"}, ""},
		{"", 0, 0, nil, nil, "query must not be empty or only white space"},
		{"q", 21, 0, nil, nil, `numResults "21" must be between 1 and 20`},
		{"q", -1, 0, nil, nil, `numResults "-1" must be between 1 and 20`},
		{"q", 0, -1, nil, nil, `text.maxCharacters "-1" must be 1 or more (0: no cut)`},
		{"q", 0, 0, []string{"a.com", " "}, nil, "includeDomains[1] must not be empty or only white space"},
		{"q", 0, 0, nil, []string{""}, "excludeDomains[0] must not be empty or only white space"},
		{"q", 0, 0, []string{""}, []string{""}, "includeDomains[0] must not be empty or only white space"},
	} {
		if got := text(IndexSearch(tt.query, tt.n, 20, tt.cut, tt.include, tt.exclude)); got != tt.want {
			t.Errorf("%+v:\n got %s\nwant %s", tt, got, tt.want)
		}
	}
}

func TestIndexContext(t *testing.T) {
	for _, tt := range []struct {
		query, product, format string
		budget                 int
		exclude                []string
		want                   string
	}{
		{"q", "", "", 0, nil, ""},
		{"q", "Acme", "txt", 6000, nil, ""},
		{"q", "", "json", 1, nil, ""},
		{"\t", "", "", 0, nil, "query must not be empty or only white space"},
		{"q", " ", "", 0, nil, "product must not be empty or only white space"},
		{"q", "", "xml", 0, nil, `format "xml" must be "txt" or "json"`},
		{"q", "", "TXT", 0, nil, `format "TXT" must be "txt" or "json"`},
		{"q", "", "", 6001, nil, `tokenBudget "6001" must be between 1 and 6000`},
		{"q", "", "", -1, nil, `tokenBudget "-1" must be between 1 and 6000`},
		{"q", "", "", 0, []string{" "}, "excludeDomains[0] must not be empty or only white space"},
	} {
		if got := text(IndexContext(tt.query, tt.product, tt.format, tt.budget, 6000, nil, tt.exclude)); got != tt.want {
			t.Errorf("%+v:\n got %s\nwant %s", tt, got, tt.want)
		}
	}
}

func TestIndexContents(t *testing.T) {
	ids := func(n int) []string { return strings.Split(strings.Repeat("x,", n)[:2*n-1], ",") }
	for _, tt := range []struct {
		ids, urls []string
		cut       int
		query     string
		want      string
	}{
		{[]string{"a"}, nil, 0, "", ""},
		{nil, []string{"https://a.com/x"}, 1, "q", ""},
		{ids(19), []string{"http://a.com"}, 0, "", ""},
		{nil, nil, 0, "", "ids or urls is required: name at least one result"},
		{ids(20), []string{"http://a.com"}, 0, "", `ids "21" and urls name 21 items together; the API takes at most 20`},
		{[]string{"a", " "}, nil, 0, "", "ids[1] must not be empty or only white space"},
		{nil, []string{"https://a.com", "ftp://a.com"}, 0, "", `urls[1] "ftp://a.com" is not an absolute http(s) URL`},
		{nil, []string{"a.com/x"}, 0, "", `urls[0] "a.com/x" is not an absolute http(s) URL`},
		{[]string{"a"}, nil, -1, "", `maxCharacters "-1" must be 1 or more (0: no cut)`},
		{[]string{"a"}, nil, 0, " ", "query must not be empty or only white space"},
	} {
		if got := text(IndexContents(tt.ids, tt.urls, 20, tt.cut, tt.query)); got != tt.want {
			t.Errorf("%d ids %q:\n got %s\nwant %s", len(tt.ids), tt.urls, got, tt.want)
		}
	}
}

func TestAssistant_Check(t *testing.T) {
	ok := Assistant{Question: "How?", MaxCurrentPath: 5}
	with := func(edit func(*Assistant)) Assistant { r := ok; edit(&r); return r }
	for name, tt := range map[string]struct {
		req  Assistant
		want string
	}{
		"question":        {ok, ""},
		"v2":              {with(func(r *Assistant) { r.Protocol = "v2"; r.Groups = []string{"a"} }), ""},
		"v1":              {with(func(r *Assistant) { r.Protocol = "v1" }), ""},
		"messages only":   {with(func(r *Assistant) { r.Question = ""; r.Messages = []Message{{"user", "hi"}} }), ""},
		"every role":      {with(func(r *Assistant) { r.Messages = []Message{{"user", "a"}, {"assistant", "b"}, {"system", "c"}} }), ""},
		"path at limit":   {with(func(r *Assistant) { r.CurrentPath = "ééééé" }), ""},
		"page size 1":     {with(func(r *Assistant) { r.RetrievalPageSize = 1 }), ""},
		"contexts":        {with(func(r *Assistant) { r.Context = []Context{{"code", "x"}, {"textSelection", "y"}} }), ""},
		"protocol":        {with(func(r *Assistant) { r.Protocol = "v3" }), `protocol "v3" must be "v2" or "v1"`},
		"nothing":         {with(func(r *Assistant) { r.Question = " " }), "question is required: set Question (or Messages) to what the user asks"},
		"blank question":  {with(func(r *Assistant) { r.Question = " "; r.Messages = []Message{{"user", "hi"}} }), "question must not be empty or only white space"},
		"role":            {with(func(r *Assistant) { r.Messages = []Message{{"user", "a"}, {"bot", "b"}} }), `messages[1].role "bot" must be "user", "assistant" or "system"`},
		"no role":         {with(func(r *Assistant) { r.Messages = []Message{{"", "a"}} }), `messages[0].role must be "user", "assistant" or "system"`},
		"message text":    {with(func(r *Assistant) { r.Messages = []Message{{"user", "a"}, {"user", "\n"}} }), "messages[1].text must not be empty or only white space"},
		"page size":       {with(func(r *Assistant) { r.RetrievalPageSize = -1 }), `retrievalPageSize "-1" must be 1 or more (0: the API's default, 5)`},
		"v1 groups":       {with(func(r *Assistant) { r.Protocol = "v1"; r.Groups = []string{"a"} }), "filter.groups is not supported by the v1 endpoint: use AssistantV2"},
		"empty group":     {with(func(r *Assistant) { r.Groups = []string{"a", ""} }), "filter.groups[1] must not be empty or only white space"},
		"context type":    {with(func(r *Assistant) { r.Context = []Context{{"code", "x"}, {"image", "y"}} }), `context[1].type "image" must be "code" or "textSelection"`},
		"context value":   {with(func(r *Assistant) { r.Context = []Context{{"code", "x"}, {"textSelection", ""}} }), "context[1].value must not be empty"},
		"path past limit": {with(func(r *Assistant) { r.CurrentPath = "éééééé" }), `currentPath "éééééé" is 6 characters long; the API takes at most 5`},
	} {
		if got := text(tt.req.Check()); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, tt.want)
		}
	}
}
