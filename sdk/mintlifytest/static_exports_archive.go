package mintlifytest

import (
	"archive/tar"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"time"
)

// archive is a bundle's content: a tar of files in a gzip stream made of
// stored (uncompressed) deflate blocks. Stored blocks make the archive's
// size a formula of the tar's (known before a byte is made) and its
// making as fast as a copy, so a 1 GiB bundle streams without being held
// anywhere; every byte is a function of the export, so the same export
// always gives the same archive.
type archive struct {
	files   []archiveFile
	modTime time.Time
	seed    uint64
	tarSize int64
}

// archiveFile is one file of an archive: data, or fill bytes of the
// export's pseudo-random block when data is nil.
type archiveFile struct {
	name string
	data []byte
	fill int64
}

func (f archiveFile) size() int64 {
	if f.data != nil {
		return int64(len(f.data))
	}
	return f.fill
}

const (
	storedBlock   = 65535 // the largest stored deflate block
	gzipHeaderLen = 10
	gzipTrailer   = 8
	fillBlock     = 1 << 20
)

func newArchive(files []archiveFile, modTime time.Time, seed uint64) (*archive, error) {
	a := &archive{files: files, modTime: modTime.UTC().Truncate(time.Second), seed: seed}
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

func (a *archive) header(f archiveFile) *tar.Header {
	return &tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: 0o644, Size: f.size(), ModTime: a.modTime}
}

// size is the archive's length in bytes.
func (a *archive) size() int64 {
	blocks := (a.tarSize + storedBlock - 1) / storedBlock
	return gzipHeaderLen + a.tarSize + 5*blocks + gzipTrailer
}

// errDone stops the making of an archive once the bytes asked for are out.
var errDone = errors.New("done")

// writeRange writes the archive's bytes [from, to) to w.
func (a *archive) writeRange(w io.Writer, from, to int64) error {
	sw := &windowWriter{w: w, skip: from, left: to - from}
	z := newStoredGzip(sw, a.modTime)
	tw := tar.NewWriter(z)
	var block []byte
	for _, f := range a.files {
		if err := tw.WriteHeader(a.header(f)); err != nil {
			return done(err)
		}
		if f.data != nil {
			if _, err := tw.Write(f.data); err != nil {
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
		for left := f.fill; left > 0; {
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
