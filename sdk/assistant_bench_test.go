package sdk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The assistant's stream, measured (make bench reports these in
// docs/performance.md, section 8).

const benchQuestion = `{"fp":"anonymous","messages":[{"id":"msg-1","role":"user","parts":[{"type":"text","text":"How do I deploy a preview?"}]}]}`

// BenchmarkAssistantFirstText is the time from sending a question to the
// first text part, against the fake on loopback: through the SDK (Stream,
// then Next until a text-delta), and by a raw HTTP read of the same stream
// (bufio lines until one holds a text-delta). The two alternate, one of
// each per iteration, so that both see the same machine; it reports the
// median of each, in microseconds, and the median of their differences
// (overhead-us: what the SDK adds).
func BenchmarkAssistantFirstText(b *testing.B) {
	srv := mintlifytest.NewServer(mintlifytest.Config{Limits: map[string]int{"discovery": -1}})
	defer srv.Close()
	ctx := context.Background()
	c, err := NewDiscoveryClient(mintlifytest.DemoAssistantKey, WithBaseURL(srv.URL+"/discovery"))
	if err != nil {
		b.Fatal(err)
	}
	viaSDK := func() time.Duration {
		start := time.Now()
		st, err := c.Assistant.Stream(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "How do I deploy a preview?"})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		for {
			p, err := st.Next()
			if err != nil {
				b.Fatal(err)
			}
			if p.Type == PartTextDelta {
				return time.Since(start)
			}
		}
	}
	hc := &http.Client{}
	raw := func() time.Duration {
		start := time.Now()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/discovery/v2/assistant/"+mintlifytest.DemoDomain+"/message", strings.NewReader(benchQuestion))
		req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAssistantKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatal(err, resp)
		}
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadSlice('\n')
			if err != nil {
				b.Fatal(err)
			}
			if bytes.Contains(line, []byte(`"type":"text-delta"`)) {
				return time.Since(start)
			}
		}
	}
	var sdkTimes, rawTimes, diffs []float64
	i := 0
	for b.Loop() {
		var s, r time.Duration
		if i%2 == 0 { // neither always goes first
			s, r = viaSDK(), raw()
		} else {
			r, s = raw(), viaSDK()
		}
		i++
		sdkTimes, rawTimes = append(sdkTimes, us(s)), append(rawTimes, us(r))
		diffs = append(diffs, us(s)-us(r))
	}
	b.ReportMetric(medianOf(sdkTimes), "sdk-us")
	b.ReportMetric(medianOf(rawTimes), "raw-us")
	b.ReportMetric(medianOf(diffs), "overhead-us")
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// recordedAnswer is a 10 MiB answer as the fake streams it, recorded once
// and replayed by a plain server, so that what the benchmark measures is
// the client alone (the fake would compose and keep it in this process).
var recordedAnswer = sync.OnceValue(func() []byte {
	srv := mintlifytest.NewServer(mintlifytest.Config{})
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/discovery/v2/assistant/"+mintlifytest.DemoDomain+"/message",
		strings.NewReader(strings.Replace(benchQuestion, "How do I", "[fake:size=10MB] How do I", 1)))
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAssistantKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		panic(err)
	}
	return data
})

// heapSampler records the largest heap of live and not yet collected
// objects while it runs.
type heapSampler struct {
	stop chan struct{}
	done chan uint64
}

func sampleHeap() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan uint64)}
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-h.stop:
				h.done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapSampler) peak() uint64 { close(h.stop); return <-h.done }

func heapNow() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkAssistantAnswer10MB reads a 10 MiB answer, replayed as the
// fake streamed it, two ways: Collect (the whole text in memory) and
// Next (each part dropped once read). It reports the heap's peak during
// the read and what the read left behind, above the heap before it, in
// MiB; B/op is everything allocated.
func BenchmarkAssistantAnswer10MB(b *testing.B) {
	answer := recordedAnswer()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for rest := answer; len(rest) > 0; {
			n := min(32<<10, len(rest))
			_, _ = w.Write(rest[:n])
			rest = rest[n:]
		}
	}))
	defer ts.Close()
	c, err := NewDiscoveryClient(mintlifytest.DemoAssistantKey, WithBaseURL(ts.URL))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, mode := range []string{"collect", "iterate"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(answer)))
			var peak, left float64
			for b.Loop() {
				b.StopTimer()
				base := heapNow()
				h := sampleHeap()
				b.StartTimer()
				st, err := c.Assistant.Stream(ctx, "bench", AssistantRequest{Question: "q"})
				if err != nil {
					b.Fatal(err)
				}
				var kept *AssistantAnswer
				text := 0
				if mode == "collect" {
					if kept, err = st.Collect(); err != nil {
						b.Fatal(err)
					}
					text = len(kept.Text)
				} else {
					for {
						p, err := st.Next()
						if errors.Is(err, io.EOF) {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						text += len(p.Text)
					}
				}
				b.StopTimer()
				top := h.peak()
				after := heapNow()
				runtime.KeepAlive(kept)
				if text < 10<<20 {
					b.Fatalf("%d bytes of text", text)
				}
				peak = max(peak, float64(top-min(top, base))/(1<<20))
				left = max(left, float64(after-min(after, base))/(1<<20))
				b.StartTimer()
			}
			b.ReportMetric(peak, "peak-MiB")
			b.ReportMetric(left, "kept-MiB")
		})
	}
}
