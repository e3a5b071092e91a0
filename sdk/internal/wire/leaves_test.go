package wire

import (
	"strings"
	"testing"
)

// ReadRaw names the field and both kinds when a list or an object of a
// raw struct comes as something else, and reads the rest regardless.
func TestDecodeRaw_namesTheKinds(t *testing.T) {
	type raw struct {
		List   *[]struct{}    `json:"list"`
		Object *struct{}      `json:"object"`
		Str    string         `json:"str"`
		Flag   bool           `json:"flag"`
		Num    int            `json:"num"`
		Map    map[string]int `json:"map"`
		Leaf   Text           `json:"leaf"`
	}
	for body, want := range map[string]string{
		`{"list":"x"}`:   "list: want a list, got a string",
		`{"list":1}`:     "list: want a list, got a number",
		`{"list":true}`:  "list: want a list, got true or false",
		`{"list":{}}`:    "list: want a list, got an object",
		`{"object":[]}`:  "object: want an object, got a list",
		`{"str":1}`:      "str: want a string, got a number",
		`{"flag":"yes"}`: "flag: want true or false, got a string",
		`{"num":"1"}`:    "num: want a number, got a string",
		`{"map":[]}`:     "map: want an object, got a list",
	} {
		var r raw
		var p Problems
		if err := ReadRaw([]byte(body), &r, &p); err != nil || p.Error() != want {
			t.Errorf("%s: problems %q, err %v; want %q", body, p, err, want)
		}
	}
	// The rest of the answer is still read.
	var r raw
	var p Problems
	if err := ReadRaw([]byte(`{"list":"x","str":"kept","leaf":"also"}`), &r, &p); err != nil || r.Str != "kept" || r.Leaf.v != "also" || len(p) != 1 {
		t.Errorf("%+v, %q, %v", r, p, err)
	}
	// Only a body that is not an object is an error.
	for body, want := range map[string]string{`[]`: "answer: want an object, got a list", `7`: "answer: want an object, got a number",
		`"x"`: "answer: want an object, got a string", `true`: "answer: want an object, got true or false", `null`: "answer: want an object, got null"} {
		var r raw
		var p Problems
		if err := ReadRaw([]byte(body), &r, &p); err == nil || err.Error() != want || p != nil {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var p2 Problems
	if err := ReadRaw([]byte(`{"str":`), &r, &p2); err == nil || strings.HasPrefix(err.Error(), "answer") {
		t.Errorf("a cut body: %v", err)
	}
	if (Problems{}).Err() != nil || (Problems(nil)).Err() != nil {
		t.Error("no problems is an error")
	}
}

// CheckLists counts the items of every list, strings and nesting aside.
func TestCheckLists(t *testing.T) {
	for body, ok := range map[string]bool{
		manyOf("1", MaxListLength):                                 true,
		manyOf("1", MaxListLength+1):                               false,
		`{"a":"` + strings.Repeat(",", 2*MaxListLength) + `"}`:     true, // commas in a string
		`{"a":"\"` + strings.Repeat(",", 2*MaxListLength) + `"}`:   true, // after an escaped quote
		`[` + manyOf("[1,2]", MaxListLength) + `]`:                 true, // nested lists count apart
		`{` + strings.Repeat(`"k":1,`, 2*MaxListLength) + `"z":1}`: true, // an object's members are no list
		`[[` + strings.Repeat("1,", MaxListLength) + `1],2]`:       false,
		`not json [,,,`: true,
	} {
		if err := CheckLists([]byte(body)); (err == nil) != ok {
			t.Errorf("%.60s: %v", body, err)
		}
	}
}

func manyOf(item string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}
