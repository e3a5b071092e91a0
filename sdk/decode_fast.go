package sdk

import (
	"bytes"
	"unicode/utf8"
)

// fastPathPage decodes the common case of a visitors or views page in one
// pass with no reflection: an object with totals, the list (list is
// "visitors" or "views") and hasMore, every count a plain non-negative
// integer, every path a non-empty string without escapes. It is the hot
// path of a 100,000-path read (400 pages).
//
// Anything else it does not judge: it returns ok false, and the careful
// decoder (decodePathPage) reads the page and says what is wrong, if
// anything. So it never accepts what the careful decoder would refuse, and
// when it accepts, it returns the same values (FuzzFastPathPage holds it
// to that).
func fastPathPage(data []byte, list string) (totals VisitorCounts, rows []PathVisitors, hasMore bool, ok bool) {
	s := scanner{b: data}
	s.space()
	if !s.byte('{') {
		return totals, nil, false, false
	}
	var seenTotals, seenList, seenMore bool
	for first := true; ; first = false {
		s.space()
		if s.byte('}') {
			break
		}
		key, ok := s.key(first)
		if !ok {
			return totals, nil, false, false
		}
		switch string(key) { // compared without allocating
		case "totals":
			var c [3]int64
			if !s.counts(&c, nil) {
				return totals, nil, false, false
			}
			totals, seenTotals = VisitorCounts{c[0], c[1], c[2]}, true
		case list:
			if rows, ok = s.rows(); !ok {
				return totals, nil, false, false
			}
			seenList = true
		case "hasMore":
			switch {
			case s.literal("true"):
				hasMore = true
			case s.literal("false"):
				hasMore = false
			default:
				return totals, nil, false, false
			}
			seenMore = true
		default:
			if foldsTo(key, "totals", "visitors", "views", "hasMore") || !s.skipValue(0) {
				return totals, nil, false, false
			}
		}
	}
	s.space()
	return totals, rows, hasMore, seenTotals && seenList && seenMore && s.i == len(s.b)
}

// scanner reads JSON bytes for fastPathPage; every method reports false on
// anything outside the common case.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// next reads the comma before an element but the first.
func (s *scanner) next(first bool) bool {
	if first {
		return true
	}
	if !s.byte(',') {
		return false
	}
	s.space()
	return true
}

// key reads an object's next key and its colon.
func (s *scanner) key(first bool) ([]byte, bool) {
	if !s.next(first) {
		return nil, false
	}
	k, ok := s.plainString()
	if !ok {
		return nil, false
	}
	s.space()
	if !s.byte(':') {
		return nil, false
	}
	s.space()
	return k, true
}

func (s *scanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) literal(lit string) bool {
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}

// plainString reads a string without escapes or control characters, in
// valid UTF-8, and returns its bytes (in the page: keys are compared in
// place, and only paths become strings).
func (s *scanner) plainString() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			str := s.b[start:s.i]
			s.i++
			return str, utf8.Valid(str)
		case c == '\\' || c < 0x20:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// integer reads a plain non-negative integer of at most 18 digits (no
// sign, fraction, exponent or leading zero).
func (s *scanner) integer() (int64, bool) {
	start := s.i
	var v int64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		v = v*10 + int64(s.b[s.i]-'0')
		s.i++
	}
	n := s.i - start
	if n == 0 || n > 18 || (n > 1 && s.b[start] == '0') {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	return v, true
}

// counts reads an object holding human, ai and total (in any order,
// each once) and, when path is not nil, a path.
func (s *scanner) counts(c *[3]int64, path *string) bool {
	if !s.byte('{') {
		return false
	}
	var seen [3]bool
	seenPath := false
	for first := true; ; first = false {
		s.space()
		if s.byte('}') {
			break
		}
		key, ok := s.key(first)
		if !ok {
			return false
		}
		switch k := countIndex(key); {
		case k >= 0:
			v, ok := s.integer()
			if !ok || seen[k] {
				return false
			}
			c[k], seen[k] = v, true
		case string(key) == "path" && path != nil:
			p, ok := s.plainString()
			if !ok || len(p) == 0 || seenPath {
				return false
			}
			*path, seenPath = string(p), true
		default:
			if foldsTo(key, "human", "ai", "total", "path") || !s.skipValue(0) {
				return false
			}
		}
	}
	return seen[0] && seen[1] && seen[2] && (path == nil || seenPath)
}

// countIndex is the index of a count's key in a [3]int64, or -1.
func countIndex(key []byte) int {
	switch string(key) {
	case "human":
		return 0
	case "ai":
		return 1
	case "total":
		return 2
	}
	return -1
}

// foldsTo reports whether key matches one of names the way encoding/json
// matches keys to fields: ignoring case (Unicode folding). Such a near
// miss ("HasMore") goes to the careful decoder, which reads it as
// encoding/json does.
func foldsTo(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

func (s *scanner) rows() ([]PathVisitors, bool) {
	if !s.byte('[') {
		return nil, false
	}
	rows := make([]PathVisitors, 0, MaxPageSize)
	for first := true; ; first = false {
		s.space()
		if s.byte(']') {
			return rows, true
		}
		if !s.next(first) {
			return nil, false
		}
		var c [3]int64
		var path string
		if !s.counts(&c, &path) {
			return nil, false
		}
		rows = append(rows, PathVisitors{Path: path, Human: c[0], AI: c[1], Total: c[2]})
	}
}

// skipValue skips a value of a field the page does not use: only plain
// strings, integers, literals and (nested, up to a depth) objects and
// lists of them. Anything fancier goes to the careful decoder.
func (s *scanner) skipValue(depth int) bool {
	if depth > 8 || s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, ok := s.plainString()
		return ok
	case c >= '0' && c <= '9':
		_, ok := s.integer()
		return ok
	case s.literal("true"), s.literal("false"), s.literal("null"):
		return true
	case c == '[' || c == '{':
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		s.i++
		for first := true; ; first = false {
			s.space()
			if s.byte(end) {
				return true
			}
			if c == '{' {
				if _, ok := s.key(first); !ok {
					return false
				}
			} else if !s.next(first) {
				return false
			}
			if !s.skipValue(depth + 1) {
				return false
			}
		}
	}
	return false
}
