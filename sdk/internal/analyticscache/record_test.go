package analyticscache

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestRecords_roundTripAndRefusals(t *testing.T) {
	c := New(nil, "mint_key")
	r := Record{Kind: KindRead, Key: "read\x00u", Who: c.who, At: epoch, Pages: []Page{{Query: "limit=1", Value: json.RawMessage(`{"a":1}`)}}}
	good, err := c.Encode(r)
	if err != nil || !bytes.HasPrefix(good, []byte(Magic)) || bytes.Contains(good, []byte("mint_key")) {
		t.Fatalf("encoded %q, %v", good, err)
	}
	got, ok := c.Decode(good, KindRead, r.Key, epoch)
	if !ok || got.Key != r.Key || !got.At.Equal(epoch) || len(got.Pages) != 1 || string(got.Pages[0].Value) != `{"a":1}` {
		t.Fatalf("decoded %+v, %v", got, ok)
	}
	variant := func(change func(*Record)) []byte {
		v := r
		change(&v)
		data, _ := c.Encode(v)
		return data
	}
	other, _ := New(nil, "mint_other").Encode(r)
	flipped := bytes.Clone(good)
	flipped[len(Magic)] ^= 1
	for name, data := range map[string][]byte{
		"empty":               nil,
		"no header":           good[len(Magic):],
		"an older format":     append([]byte(OlderMagics[0]), good[len(Magic)+65:]...),
		"a seal one bit off":  flipped,
		"a seal cut short":    append(append([]byte(Magic), good[len(Magic):len(Magic)+62]...), good[len(Magic)+64:]...),
		"no newline":          good[:len(Magic)+64],
		"the body changed":    bytes.Replace(good, []byte(`"a":1`), []byte(`"a":2`), 1),
		"another key's seal":  other,
		"another kind":        variant(func(v *Record) { v.Kind = KindLease }),
		"another read":        variant(func(v *Record) { v.Key = "read\x00v" }),
		"another fingerprint": variant(func(v *Record) { v.Who = Fingerprint("mint_other") }),
		"no time":             variant(func(v *Record) { v.At = time.Time{} }),
		"past the skew":       variant(func(v *Record) { v.At = epoch.Add(ClockSkew + time.Second) }),
		"sealed JSON garbage": append(append([]byte(Magic), []byte(strings.Repeat("0", 64))...), "\n{"...),
	} {
		if _, ok := c.Decode(data, KindRead, r.Key, epoch); ok {
			t.Errorf("%s: trusted", name)
		}
	}
	// Within the skew, a record from the future is read as now.
	if got, ok := c.Decode(variant(func(v *Record) { v.At = epoch.Add(ClockSkew) }), KindRead, r.Key, epoch); !ok || !got.At.Equal(epoch) {
		t.Errorf("within the skew: %v, %v", got.At, ok)
	}
}

func TestRecords_namesAreOneWayAndDistinct(t *testing.T) {
	a, b := New(nil, "mint_a"), New(nil, "mint_b")
	names := map[string]bool{}
	for _, n := range []string{a.EntryName("u"), a.EntryName("v"), b.EntryName("u"), a.LeaseName("u"), a.BudgetName("u"), a.BudgetName("v"), b.BudgetName("u")} {
		if names[n] || strings.Contains(n, "mint_") {
			t.Errorf("name %q repeats or holds the key", n)
		}
		names[n] = true
	}
	if a.LeaseName("u") != "lease-"+a.EntryName("u") || len(a.EntryName("u")) != 64+len(".json") {
		t.Errorf("names %q, %q", a.LeaseName("u"), a.EntryName("u"))
	}
	if fp := Fingerprint("mint_a"); len(fp) != 32 || fp == Fingerprint("mint_b") || strings.Contains(fp, "mint_a") {
		t.Errorf("fingerprint %q", fp)
	}
}

func TestRecords_loadSaveAndSpentBudgets(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	c := New(store, "mint_key")
	c.Save(ctx, c.EntryName("k"), Record{Kind: KindRead, Key: "k", At: epoch})
	if r, ok := c.Load(ctx, c.EntryName("k"), KindRead, "k", epoch, MaxRecordBytes); !ok || r.Who != c.who {
		t.Errorf("saved record: %+v, %v", r, ok)
	}
	if _, ok := c.Load(ctx, c.EntryName("k"), KindRead, "k", epoch, 10); ok {
		t.Error("a record past the limit was read")
	}
	if _, ok := New(store, "mint_other").Load(ctx, c.EntryName("k"), KindRead, "k", epoch, MaxRecordBytes); ok {
		t.Error("another key trusted the record")
	}
	if _, ok := c.SpentUntil(ctx, "https://api", epoch); ok {
		t.Error("a budget before any was recorded")
	}
	c.SaveSpent(ctx, "https://api", epoch, epoch.Add(time.Hour))
	if until, ok := c.SpentUntil(ctx, "https://api", epoch); !ok || !until.Equal(epoch.Add(time.Hour)) {
		t.Errorf("spent until %v, %v", until, ok)
	}
	if _, ok := c.SpentUntil(ctx, "https://other", epoch); ok {
		t.Error("another API's budget")
	}
}
