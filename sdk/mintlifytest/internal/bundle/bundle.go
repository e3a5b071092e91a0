// Package bundle makes the fake's static export archives: a tar of files
// in a gzip stream of stored (uncompressed) deflate blocks. Stored blocks
// make an archive's size a formula of its tar's, known before a byte is
// made, and its making as fast as a copy, so a 1 GiB bundle streams,
// range by range, without being held anywhere. Every byte is a function
// of the files and a seed: the same export always gives the same archive.
package bundle

import (
	"archive/tar"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Archive is a bundle's content, described: its bytes are made as they
// are written.
type Archive struct {
	files   []File
	modTime time.Time
	seed    uint64
	tarSize int64
}

// File is one file of an archive: Data, or Fill bytes of the archive's
// pseudo-random block when Data is nil.
type File struct {
	Name string
	Data []byte
	Fill int64
}

func (f File) size() int64 {
	if f.Data != nil {
		return int64(len(f.Data))
	}
	return f.Fill
}

const (
	storedBlock   = 65535 // the largest stored deflate block
	gzipHeaderLen = 10
	gzipTrailer   = 8
	fillBlock     = 1 << 20
)

// New describes the archive of files, each stamped modTime; seed makes
// its fill bytes.
func New(files []File, modTime time.Time, seed uint64) (*Archive, error) {
	a := &Archive{files: files, modTime: modTime.UTC().Truncate(time.Second), seed: seed}
	for _, f := range files {
		// The header's length: that of the same header with no content
		// (a size under 8 GiB never needs a PAX record).
		var c countWriter
		tw := tar.NewWriter(&c)
		h := a.header(f)
		h.Size = 0
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if err := tw.Flush(); err != nil {
			return nil, err
		}
		a.tarSize += c.n + (f.size()+511)/512*512
	}
	a.tarSize += 1024 // the end: two zero blocks
	return a, nil
}

func (a *Archive) header(f File) *tar.Header {
	return &tar.Header{Typeflag: tar.TypeReg, Name: f.Name, Mode: 0o644, Size: f.size(), ModTime: a.modTime}
}

// Size is the archive's length in bytes.
func (a *Archive) Size() int64 {
	blocks := (a.tarSize + storedBlock - 1) / storedBlock
	return gzipHeaderLen + a.tarSize + 5*blocks + gzipTrailer
}

// errDone stops the making of an archive once the bytes asked for are out.
var errDone = errors.New("done")

// WriteRange writes the archive's bytes [from, to) to w.
func (a *Archive) WriteRange(w io.Writer, from, to int64) error {
	sw := &windowWriter{w: w, skip: from, left: to - from}
	z := newStoredGzip(sw, a.modTime)
	tw := tar.NewWriter(z)
	var block []byte
	for _, f := range a.files {
		if err := tw.WriteHeader(a.header(f)); err != nil {
			return done(err)
		}
		if f.Data != nil {
			if _, err := tw.Write(f.Data); err != nil {
				return done(err)
			}
			continue
		}
		if block == nil {
			block = make([]byte, fillBlock)
			rng := rand.New(rand.NewPCG(a.seed, a.seed^0x9e3779b97f4a7c15))
			for i := 0; i < len(block); i += 8 {
				binary.LittleEndian.PutUint64(block[i:], rng.Uint64())
			}
		}
		for left := f.Fill; left > 0; {
			n := min(left, int64(len(block)))
			if _, err := tw.Write(block[:n]); err != nil {
				return done(err)
			}
			left -= n
		}
	}
	if err := tw.Close(); err != nil {
		return done(err)
	}
	return done(z.Close())
}

func done(err error) error {
	if errors.Is(err, errDone) {
		return nil
	}
	return err
}

// windowWriter passes on the bytes after the first skip, left of them.
type windowWriter struct {
	w          io.Writer
	skip, left int64
}

func (s *windowWriter) Write(p []byte) (int, error) {
	n := len(p)
	if s.skip > 0 {
		drop := min(s.skip, int64(len(p)))
		p, s.skip = p[drop:], s.skip-drop
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	if len(p) > 0 {
		if _, err := s.w.Write(p); err != nil {
			return 0, err
		}
		s.left -= int64(len(p))
	}
	if s.left == 0 {
		return 0, errDone
	}
	return n, nil
}

// storedGzip is a gzip stream of stored deflate blocks: each full block
// goes out when the next byte comes, so the last one is marked final.
type storedGzip struct {
	w    io.Writer
	buf  []byte // 5 header bytes, then the block
	n    int
	crc  uint32
	size uint32
	err  error
}

func newStoredGzip(w io.Writer, mtime time.Time) *storedGzip {
	z := &storedGzip{w: w, buf: make([]byte, 5+storedBlock)}
	h := [gzipHeaderLen]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}
	binary.LittleEndian.PutUint32(h[4:8], uint32(mtime.Unix())) //nolint:gosec // gzip's MTIME is 32 bits
	_, z.err = w.Write(h[:])
	return z
}

func (z *storedGzip) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 && z.err == nil {
		if z.n == storedBlock {
			z.emit(false)
			continue
		}
		c := copy(z.buf[5+z.n:], p)
		z.crc = crc32.Update(z.crc, crc32.IEEETable, p[:c])
		z.size += uint32(c) //nolint:gosec // gzip's ISIZE is the size modulo 2^32
		z.n += c
		p = p[c:]
		written += c
	}
	return written, z.err
}

func (z *storedGzip) emit(final bool) {
	if z.err != nil {
		return
	}
	z.buf[0] = 0
	if final {
		z.buf[0] = 1
	}
	n := uint16(z.n) //nolint:gosec // a stored block holds at most 65535 bytes
	binary.LittleEndian.PutUint16(z.buf[1:3], n)
	binary.LittleEndian.PutUint16(z.buf[3:5], ^n)
	_, z.err = z.w.Write(z.buf[:5+z.n])
	z.n = 0
}

func (z *storedGzip) Close() error {
	z.emit(true)
	if z.err != nil {
		return z.err
	}
	var t [gzipTrailer]byte
	binary.LittleEndian.PutUint32(t[:4], z.crc)
	binary.LittleEndian.PutUint32(t[4:], z.size)
	_, z.err = z.w.Write(t[:])
	return z.err
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// ParseSize reads a size: bytes, or a number with a KiB, MiB, GiB, KB, MB
// or GB suffix ("1GiB", "500MB", "1.5GiB"), up to 1 TiB.
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		n      float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}, {"", 1}}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || v < 0 || v*u.n > 1<<40 {
			return 0, fmt.Errorf("size %q: want a number of bytes, with an optional KiB, MiB, GiB, KB, MB or GB", s)
		}
		return int64(v * u.n), nil
	}
	return 0, fmt.Errorf("size %q: want a number of bytes", s)
}
