package sdk

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// page250 is a full analytics page as the API sends it.
var page250 = func() []byte {
	var b strings.Builder
	b.WriteString(`{"totals":{"human":123456,"ai":23456,"total":140000},"visitors":[`)
	for i := range MaxPageSize {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"path":"/docs/section-%d/page-%d","human":%d,"ai":%d,"total":%d}`, i%7, i, 5000-i, 900-i, 5600-2*i)
	}
	b.WriteString(`],"hasMore":true}`)
	return []byte(b.String())
}()

// BenchmarkDecodeVisitorsPage250 decodes a page the way the client does.
func BenchmarkDecodeVisitorsPage250(b *testing.B) {
	b.SetBytes(int64(len(page250)))
	b.ReportAllocs()
	k := &core{settings: defaultSettings(DefaultBaseURL), apiKey: "mint_bench", secrets: redact.NewSecrets("mint_bench")}
	for b.Loop() {
		var page PathCountsPage
		err := decodePathCounts(decoding{echo: k.echo}, page250, "visitors", &page)
		if k.secrets.MayHold(page250) {
			redact.Strings(&page, k.secrets.List())
		}
		if err != nil || len(page.Paths) != MaxPageSize {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeVisitorsPage250Map is the untyped baseline the typed
// decoder is compared with.
func BenchmarkDecodeVisitorsPage250Map(b *testing.B) {
	b.SetBytes(int64(len(page250)))
	b.ReportAllocs()
	for b.Loop() {
		var page map[string]any
		if err := json.Unmarshal(page250, &page); err != nil || len(page["visitors"].([]any)) != MaxPageSize {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeAgentJob(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if job, err := decodeJob([]byte(jobJSON)); err != nil || job.Problems != nil {
			b.Fatal(err)
		}
	}
}
