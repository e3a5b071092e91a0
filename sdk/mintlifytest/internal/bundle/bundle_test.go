package bundle

import (
	"bytes"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1024": 1024, "1KiB": 1024, "1.5MiB": 1572864, "1GiB": 1 << 30, "2GB": 2e9, "500KB": 500e3, "10B": 10} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("%q: %d %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "x", "-1", "1TiB", "2e12", "1 GiB"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// An archive's size is a formula of its tar's length, announced before a
// byte is made: it must be the length of the stream, at tar lengths around
// a whole number of stored blocks, where rounding up and rounding down plus
// one part.
func TestArchive_sizeIsTheStreamsLength(t *testing.T) {
	const whole = storedBlock * 512 // the first tar length (a multiple of 512) of whole stored blocks
	for _, tarSize := range []int64{10 * 512, whole - 512, whole, whole + 512} {
		fill := tarSize - 512 - 1024 // one header, the content (whole tar blocks), the end
		a, err := New([]File{{Name: "a.bin", Fill: fill}}, time.Unix(0, 0), 1)
		if err != nil || a.tarSize != tarSize {
			t.Fatalf("tar of %d: %d, %v", tarSize, a.tarSize, err)
		}
		var c countWriter
		if err := a.WriteRange(&c, 0, 1<<62); err != nil {
			t.Fatal(err)
		}
		if c.n != a.Size() {
			t.Errorf("tar of %d bytes: the stream is %d bytes, Size() says %d", tarSize, c.n, a.Size())
		}
	}
}

// Fill bytes are the export's own pseudo-random block: another export's
// archive of the same files differs in them, and neither is zeros (which
// any compressor, or a sloppy byte count, would get away with).
func TestArchive_fillIsTheExportsOwn(t *testing.T) {
	bytesOf := func(seed uint64) []byte {
		a, err := New([]File{{Name: "a.bin", Fill: 4096}}, time.Unix(0, 0), seed)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := a.WriteRange(&b, 0, a.Size()); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	one, two := bytesOf(1), bytesOf(2)
	// One stored block: the gzip header, the block's 5-byte header, the
	// tar header, then the content.
	content := func(b []byte) []byte { return b[gzipHeaderLen+5+512 : gzipHeaderLen+5+512+4096] }
	if bytes.Equal(content(one), content(two)) || bytes.Count(content(one), []byte{0}) > 64 {
		t.Errorf("fill of seed 1 %x..., of seed 2 %x...", content(one)[:16], content(two)[:16])
	}
}
