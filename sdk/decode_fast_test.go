package sdk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The fast path must take the pages a server really sends (or the
// 100,000-oneRow read loses its speed, silently: the careful decoder gives the
// same values) and hand everything else to the careful decoder. Each case
// sits at the edge of one of its rules. FuzzFastPathPage checks the other
// half: what it takes, it reads as the careful decoder does.

// fastPage is a visitors page around the given oneRow, with extra top-level
// fields after hasMore.
func fastPage(rowJSON, extra string) string {
	return `{"totals":{"human":9,"ai":2,"total":10},"visitors":[` + rowJSON + `],"hasMore":true` + extra + `}`
}

const oneRow = `{"path":"/a","human":1,"ai":2,"total":3}`

func TestFastPathPage_takesWhatServersSend(t *testing.T) {
	nested := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	for name, data := range map[string]string{
		"compact":                   visitorsPageJSON(true, "/", "/docs/page-1", "/api-reference/page-2"),
		"no rows, no more":          `{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":false}`,
		"spaces":                    ` { "totals" : { "human" : 9 , "ai" : 2 , "total" : 10 } , "visitors" : [ ` + oneRow + ` , ` + oneRow[:9] + `b"` + oneRow[12:] + ` ] , "hasMore" : true } `,
		"tabs":                      "{\t\"totals\":\t{\"human\":9,\"ai\":2,\"total\":10},\"visitors\":[\t" + oneRow + "\t],\"hasMore\":true\t}\t",
		"newlines":                  "{\n\"totals\":{\"human\":9,\"ai\":2,\"total\":10},\n\"visitors\":[\n" + oneRow + "\n],\n\"hasMore\":true\n}\n",
		"carriage returns":          "{\r\"totals\":{\"human\":9,\"ai\":2,\"total\":10},\r\"visitors\":[\r" + oneRow + "\r],\"hasMore\":true\r}\r",
		"any key order":             `{"hasMore":false,"visitors":[{"total":3,"ai":2,"path":"/a","human":1}],"totals":{"total":10,"ai":2,"human":9}}`,
		"digits 0 to 9":             fastPage(`{"path":"/a","human":1234567890,"ai":0,"total":9}`, ""),
		"18 digits":                 fastPage(`{"path":"/a","human":999999999999999999,"ai":0,"total":100000000000000000}`, ""),
		"utf-8 path":                fastPage(`{"path":"/déjà-vu/日本","human":1,"ai":0,"total":1}`, ""),
		"unknown string":            fastPage(oneRow, `,"note":"x"`),
		"unknown integer":           fastPage(oneRow, `,"n":42`),
		"unknown literals":          fastPage(oneRow, `,"a":true,"b":false,"c":null`),
		"unknown object":            fastPage(oneRow, `,"o":{"k":[1,"x",{"z":null}],"e":{}}`),
		"unknown empty list":        fastPage(oneRow, `,"l":[]`),
		"unknown nesting 8 deep":    fastPage(oneRow, `,"deep":`+nested(8)),
		"unknown field in a oneRow": fastPage(`{"path":"/a","human":1,"ai":2,"total":3,"extra":{"x":[true]}}`, ""),
		"unknown field before path": fastPage(`{"extra":1,"path":"/a","human":1,"ai":2,"total":3}`, ""),
	} {
		t.Run(name, func(t *testing.T) {
			totals, rows, more, ok := fastPathPage([]byte(data), "visitors")
			if !ok {
				t.Fatalf("the fast path handed over %s", data)
			}
			wantTotals, wantRows, wantMore, err := carefulPathPage([]byte(data), "visitors")
			if err != nil {
				t.Fatalf("the careful decoder refuses %s: %v", data, err)
			}
			if diff := cmp.Diff(fmt.Sprint(wantTotals, wantRows, wantMore), fmt.Sprint(totals, rows, more)); diff != "" {
				t.Errorf("(-careful +fast):\n%s", diff)
			}
		})
	}
	// A views page, read as views.
	views := strings.Replace(fastPage(oneRow, ""), `"visitors"`, `"views"`, 1)
	if _, rows, _, ok := fastPathPage([]byte(views), "views"); !ok || len(rows) != 1 || rows[0].Total != 3 {
		t.Errorf("views page: %v %+v", ok, rows)
	}
}

func TestFastPathPage_handsTheRestToTheCarefulDecoder(t *testing.T) {
	nested := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	for name, data := range map[string]string{
		"not an object":                  `[]`,
		"nothing":                        ``,
		"trailing bytes":                 fastPage(oneRow, "") + ` x`,
		"19 digits":                      fastPage(`{"path":"/a","human":1000000000000000000,"ai":0,"total":1}`, ""),
		"a leading zero":                 fastPage(`{"path":"/a","human":01,"ai":0,"total":1}`, ""),
		"a fraction":                     fastPage(`{"path":"/a","human":1.0,"ai":0,"total":1}`, ""),
		"an exponent":                    fastPage(`{"path":"/a","human":1e3,"ai":0,"total":1}`, ""),
		"an Exponent":                    fastPage(`{"path":"/a","human":1E3,"ai":0,"total":1}`, ""),
		"a sign":                         fastPage(`{"path":"/a","human":-1,"ai":0,"total":1}`, ""),
		"no digits":                      fastPage(`{"path":"/a","human":"1","ai":0,"total":1}`, ""),
		"a colon after digits":           fastPage(`{"path":"/a","human":1:,"ai":0,"total":1}`, ""),
		"a slash after digits":           fastPage(`{"path":"/a","human":1/,"ai":0,"total":1}`, ""),
		"an escape in a path":            fastPage(`{"path":"\/a","human":1,"ai":0,"total":1}`, ""),
		"a control byte in a path":       fastPage("{\"path\":\"/a\x01\",\"human\":1,\"ai\":0,\"total\":1}", ""),
		"invalid utf-8 in a path":        fastPage("{\"path\":\"/a\xff\",\"human\":1,\"ai\":0,\"total\":1}", ""),
		"an empty path":                  fastPage(`{"path":"","human":1,"ai":0,"total":1}`, ""),
		"no path":                        fastPage(`{"human":1,"ai":0,"total":1}`, ""),
		"a path twice":                   fastPage(`{"path":"/a","path":"/b","human":1,"ai":0,"total":1}`, ""),
		"a count twice":                  fastPage(`{"path":"/a","human":1,"human":2,"ai":0,"total":1}`, ""),
		"no human":                       fastPage(`{"path":"/a","ai":0,"total":1}`, ""),
		"no ai":                          fastPage(`{"path":"/a","human":1,"total":1}`, ""),
		"no total":                       fastPage(`{"path":"/a","human":1,"ai":0}`, ""),
		"a path in the totals":           `{"totals":{"path":"/","human":9,"ai":2,"total":10},"visitors":[],"hasMore":true}`,
		"Human":                          fastPage(`{"path":"/a","Human":1,"ai":0,"total":1}`, ""),
		"PATH":                           fastPage(`{"PATH":"/a","human":1,"ai":0,"total":1}`, ""),
		"HasMore":                        fastPage(oneRow, `,"HasMore":false`),
		"Totals":                         fastPage(oneRow, `,"Totals":{}`),
		"the other list":                 fastPage(oneRow, `,"views":[]`),
		"no totals":                      `{"visitors":[],"hasMore":true}`,
		"no list":                        `{"totals":{"human":0,"ai":0,"total":0},"hasMore":true}`,
		"no hasMore":                     `{"totals":{"human":0,"ai":0,"total":0},"visitors":[]}`,
		"hasMore not a literal":          `{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":1}`,
		"hasMore cut short":              `{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":tru`,
		"a missing comma":                `{"totals":{"human":0,"ai":0,"total":0} "visitors":[],"hasMore":true}`,
		"a missing colon":                `{"totals" {"human":0,"ai":0,"total":0},"visitors":[],"hasMore":true}`,
		"a missing comma in a list":      fastPage(oneRow+" "+oneRow, ""),
		"a list that is not one":         `{"totals":{"human":0,"ai":0,"total":0},"visitors":{},"hasMore":true}`,
		"a oneRow that is not an object": fastPage(`1`, ""),
		"an unterminated string":         `{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":true,"x":"abc`,
		"an unterminated key":            `{"tot`,
		"an unterminated object":         `{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":true`,
		"an unterminated list":           fastPage(oneRow, `,"l":[1,2`),
		"unknown nesting 9 deep":         fastPage(oneRow, `,"deep":`+nested(9)),
		"an unknown fraction":            fastPage(oneRow, `,"f":1.5`),
		"an unknown negative":            fastPage(oneRow, `,"f":-1`),
		"an unknown escaped string":      fastPage(oneRow, `,"s":"a\"b"`),
		"an unknown key escaped":         fastPage(oneRow, `,"k\u0041":1`),
		"an unknown list, no comma":      fastPage(oneRow, `,"l":[1 2]`),
		"an unknown object, no key":      fastPage(oneRow, `,"o":{1:2}`),
		"an unknown value cut short":     fastPage(oneRow, `,"x":`),
	} {
		if _, _, _, ok := fastPathPage([]byte(data), "visitors"); ok {
			t.Errorf("%s: the fast path took %q", name, data)
		}
	}
}
