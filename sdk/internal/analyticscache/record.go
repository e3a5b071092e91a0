package analyticscache

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Cache reads and writes the records of one API key in a store: their
// names, and the seal that makes them trusted.
type Cache struct {
	// Store is where the records live (a Guarded store, in the SDK).
	Store Store
	who   string // the key's fingerprint, in names and records
	seal  []byte // the key of records' seals (sealKey)
}

// New is the cache of apiKey's records in store. The key itself is kept
// nowhere: only its fingerprint and the key of the seals, both derived
// one way.
func New(store Store, apiKey string) *Cache {
	return &Cache{Store: store, who: Fingerprint(apiKey), seal: sealKey(apiKey)}
}

// Fingerprint stands for the API key in cache names and records: a hash
// from which the key cannot be recovered, so answers read with one key
// are never served to another, and the key is never written.
func Fingerprint(apiKey string) string {
	sum := sha256.Sum256([]byte("mintlify-analytics-cache/v1\x00" + apiKey))
	return hex.EncodeToString(sum[:16])
}

// sealKey keys the seal each record carries (an HMAC of its body),
// derived from the API key one way and written nowhere: whoever can write
// a shared store without the key cannot make a record the cache trusts
// (an answer, a spent budget, a lease).
func sealKey(apiKey string) []byte {
	m := hmac.New(sha256.New, []byte(apiKey))
	m.Write([]byte("mintlify-analytics-cache/seal/v1"))
	return m.Sum(nil)
}

// Seal is the seal of a record's body.
func (c *Cache) Seal(body []byte) []byte {
	m := hmac.New(sha256.New, c.seal)
	m.Write(body)
	return m.Sum(nil)
}

// EntryName names the entry of one read: everything that changes the
// answer is in the read's key (base URL, project and endpoint in the path,
// query, the read's row cap), with the key's fingerprint.
func (c *Cache) EntryName(readKey string) string {
	sum := sha256.Sum256([]byte(readKey + "\x00" + c.who))
	return hex.EncodeToString(sum[:]) + ".json"
}

// LeaseName names the lease on one read.
func (c *Cache) LeaseName(readKey string) string { return "lease-" + c.EntryName(readKey) }

// BudgetName names the spent-budget record of a base URL and key.
func (c *Cache) BudgetName(base string) string {
	sum := sha256.Sum256([]byte("budget\x00" + base + "\x00" + c.who))
	return "budget-" + hex.EncodeToString(sum[:16]) + ".json"
}

// Magic starts every record the cache writes (format 3), followed by the
// seal of the record's body (hex) and a newline, then the body (JSON):
// with the name pattern, it is how eviction knows a file is the cache's
// own.
const Magic = "mintlify-analytics-cache/3 "

// OlderMagics start the records of earlier formats, which are misses but
// which eviction may remove: the second (unsealed) and the first (a raw
// body per page).
var OlderMagics = []string{"mintlify-analytics-cache/2\n", `{"format":1,"url":"`}

// Record kinds.
const (
	KindRead   = "read"
	KindBudget = "budget"
	KindLease  = "lease"
)

// Record is what the cache stores: an entry (the pages of one read), a
// spent budget, or a lease on a read being fetched.
type Record struct {
	Kind string `json:"kind"`
	// Key is what the record is about, without the API key: a read's key,
	// or the base URL of a budget.
	Key string `json:"key"`
	// Who is the API key's fingerprint.
	Who string `json:"who"`
	// At is when the record was written: for an entry, when its first
	// page was fetched from the API.
	At time.Time `json:"at"`
	// Until is when a spent budget frees up, or a lease expires.
	Until time.Time `json:"until,omitzero"`
	// Token tells the holder of a lease its own from another's.
	Token string `json:"token,omitempty"`
	Pages []Page `json:"pages,omitempty"`
}

// Page is one page of an entry: the query it answered and the page as the
// SDK decoded it (its own Go type, without how it arrived).
type Page struct {
	Query string          `json:"query"`
	Value json.RawMessage `json:"value"`
}

// Encode is a record as stored: the header, the body's seal, the body.
func (c *Cache) Encode(r Record) ([]byte, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	out := hex.AppendEncode([]byte(Magic), c.Seal(body))
	return append(append(out, '\n'), body...), nil
}

// ClockSkew is how far in the future a record's time may be and still be
// read as now: the clocks of the machines sharing a bucket differ a little.
// Past it, the record is not trusted.
const ClockSkew = time.Minute

// Decode reads a record and checks it is the one asked for: sealed with
// this API key, of the kind, about key, and not from the future. Any other
// is a miss.
func (c *Cache) Decode(data []byte, kind, key string, now time.Time) (Record, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(Magic))
	if !ok {
		return Record{}, false
	}
	sealHex, body, ok := bytes.Cut(rest, []byte{'\n'})
	seal := make([]byte, sha256.Size)
	if n, err := hex.Decode(seal, sealHex); !ok || err != nil || n != sha256.Size || !hmac.Equal(seal, c.Seal(body)) {
		return Record{}, false
	}
	var r Record
	if json.Unmarshal(body, &r) != nil || r.Kind != kind || r.Key != key || r.Who != c.who || r.At.IsZero() || r.At.After(now.Add(ClockSkew)) {
		return Record{}, false
	}
	if r.At.After(now) {
		r.At = now
	}
	return r, true
}

// Load reads the record name holds, at most limit bytes, or reports a
// miss.
func (c *Cache) Load(ctx context.Context, name, kind, key string, now time.Time, limit int64) (Record, bool) {
	data, err := c.Store.Get(ctx, name, limit)
	if err != nil {
		return Record{}, false
	}
	return c.Decode(data, kind, key, now)
}

// Save writes a record as this key's, quietly: a cache that cannot be
// written is only a cache that does not help.
func (c *Cache) Save(ctx context.Context, name string, r Record) {
	r.Who = c.who
	if data, err := c.Encode(r); err == nil {
		_ = c.Store.Put(ctx, name, data)
	}
}

// MaxRecordBytes bounds the small records (budgets, leases).
const MaxRecordBytes = 64 << 10

// SpentUntil is when the budget of the API at base frees up, as another
// program recorded it, if it did.
func (c *Cache) SpentUntil(ctx context.Context, base string, now time.Time) (time.Time, bool) {
	r, ok := c.Load(ctx, c.BudgetName(base), KindBudget, base, now, MaxRecordBytes)
	return r.Until, ok
}

// SaveSpent records that the budget of the API at base is spent until
// then, for the other programs sharing the store.
func (c *Cache) SaveSpent(ctx context.Context, base string, now, until time.Time) {
	c.Save(ctx, c.BudgetName(base), Record{Kind: KindBudget, Key: base, At: now, Until: until})
}
