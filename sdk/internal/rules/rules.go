// Package rules holds the rules every input is checked by before any
// request is sent: ids and names sent as path segments, hostnames, Git
// branch names, page paths, keys' forms, dates and each request's fields.
// A refused input is a *Broken, which package sdk turns into its public
// *ValidationError in one place. It is separate from package sdk, whose
// Validate functions say each rule in their doc comments, so that the
// rules' edges (lengths at and past a limit, each character class, each
// error's words) are tested on their own.
package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Broken is an input a rule refused: the field, by the API's name for it
// (dateFrom, projectId, paths[2], ...); the value given ("" for a secret
// or an empty input); the rule it broke, worded to follow them.
type Broken struct {
	Field string
	Value string
	Rule  string
}

// maxIDLength bounds an id sent in a path.
const maxIDLength = 256

// NonEmpty refuses a value that is empty or only white space.
func NonEmpty(field, value string) *Broken {
	if strings.TrimSpace(value) == "" {
		return &Broken{Field: field, Rule: "must not be empty or only white space"}
	}
	return nil
}

// ID checks a value sent as one path segment: 1 to 256 ASCII letters,
// digits and - _ . ~ :, and not "." or "..".
func ID(field, value string) *Broken {
	if b := NonEmpty(field, value); b != nil {
		return b
	}
	if value == "." || value == ".." {
		return &Broken{Field: field, Value: value, Rule: "is not allowed: it would change the request's path"}
	}
	if len(value) > maxIDLength {
		return &Broken{Field: field, Value: value, Rule: "is longer than " + strconv.Itoa(maxIDLength) + " characters: it cannot be an id"}
	}
	for _, r := range value {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.~:", r)
		if !ok {
			return &Broken{Field: field, Value: value, Rule: "may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)"}
		}
	}
	return nil
}

// OneOf refuses a value that is not one of allowed.
func OneOf[T ~string](field, value string, allowed []T) *Broken {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		if string(a) == value {
			return nil
		}
		names[i] = string(a)
	}
	return &Broken{Field: field, Value: value, Rule: "must be one of " + strings.Join(names, ", ")}
}

// Groups checks a list of documentation groups: no empty name. Each is
// named field[i].
func Groups(field string, groups []string) *Broken {
	for i, g := range groups {
		if b := NonEmpty(fmt.Sprintf("%s[%d]", field, i), g); b != nil {
			return b
		}
	}
	return nil
}

// UpTo refuses a count outside 0 to largest, 0 leaving it to the API:
// a page size, a number of results, a token budget.
func UpTo(field string, n, largest int) *Broken {
	if n < 0 || n > largest {
		return &Broken{Field: field, Value: strconv.Itoa(n), Rule: fmt.Sprintf("must be between 1 and %d", largest)}
	}
	return nil
}

// noCut refuses a negative character count (0: no cut).
func noCut(field string, n int) *Broken {
	if n < 0 {
		return &Broken{Field: field, Value: strconv.Itoa(n), Rule: "must be 1 or more (0: no cut)"}
	}
	return nil
}

// Score checks a search's score threshold: 0 to 1.
func Score(v float64) *Broken {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return &Broken{Field: "scoreThreshold", Value: strconv.FormatFloat(v, 'g', -1, 64), Rule: "must be between 0 and 1"}
	}
	return nil
}

// ULID checks a ULID: 26 characters of Crockford's base32, the first at
// most 7 (a 128-bit value).
func ULID(field, s string) *Broken {
	bad := len(s) != 26 || s[0] > '7'
	for _, r := range strings.ToUpper(s) {
		if !strings.ContainsRune("0123456789ABCDEFGHJKMNPQRSTVWXYZ", r) {
			bad = true
		}
	}
	if bad {
		return &Broken{Field: field, Value: s, Rule: "must be a ULID (26 characters of Crockford base32, such as 01JD8X3Q6V3XK8M4Y2Z9T0B1CD)"}
	}
	return nil
}
