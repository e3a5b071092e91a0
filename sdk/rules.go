package sdk

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// The rules the services' inputs share, checked before any request: each
// refusal a *ValidationError naming the field as the API does
// (paths[2]), the value ("" for a secret) and the rule. A request's own
// rules are its Validate method.

// maxIDLength bounds an id sent in a path.
const maxIDLength = 256

// nonEmpty refuses a value that is empty or only white space.
func nonEmpty(field, value string) error {
	if strings.TrimSpace(value) == "" {
		return &ValidationError{Field: field, Rule: "must not be empty or only white space"}
	}
	return nil
}

// isWebURL reports whether s is an absolute http(s) URL without
// credentials: the only link the SDK sends or hands on.
func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// validateID checks a value sent as one path segment: 1 to 256 ASCII
// letters, digits and - _ . ~ :, and not "." or "..".
func validateID(field, value string) error {
	if err := nonEmpty(field, value); err != nil {
		return err
	}
	if value == "." || value == ".." {
		return &ValidationError{Field: field, Value: value, Rule: "is not allowed: it would change the request's path"}
	}
	if len(value) > maxIDLength {
		return &ValidationError{Field: field, Value: value, Rule: "is longer than " + strconv.Itoa(maxIDLength) + " characters: it cannot be an id"}
	}
	for _, r := range value {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.~:", r)
		if !ok {
			return &ValidationError{Field: field, Value: value, Rule: "may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)"}
		}
	}
	return nil
}

// oneOf refuses a value that is not one of allowed.
func oneOf[T ~string](field, value string, allowed []T) error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		if string(a) == value {
			return nil
		}
		names[i] = string(a)
	}
	return &ValidationError{Field: field, Value: value, Rule: "must be one of " + strings.Join(names, ", ")}
}

// validateGroups refuses an empty name in a list (field[i]).
func validateGroups(field string, groups []string) error {
	for i, g := range groups {
		if err := nonEmpty(fmt.Sprintf("%s[%d]", field, i), g); err != nil {
			return err
		}
	}
	return nil
}

// upTo refuses a count outside 0 (the API's default) to largest.
func upTo(field string, n, largest int) error {
	if n < 0 || n > largest {
		return &ValidationError{Field: field, Value: strconv.Itoa(n), Rule: fmt.Sprintf("must be between 1 and %d", largest)}
	}
	return nil
}

// noCut refuses a negative character count (0: no cut).
func noCut(field string, n int) error {
	if n < 0 {
		return &ValidationError{Field: field, Value: strconv.Itoa(n), Rule: "must be 1 or more (0: no cut)"}
	}
	return nil
}

// validateULID checks a ULID: 26 characters of Crockford's base32, the
// first at most 7 (a 128-bit value).
func validateULID(field, s string) error {
	bad := len(s) != 26 || s[0] > '7'
	for _, r := range strings.ToUpper(s) {
		if !strings.ContainsRune("0123456789ABCDEFGHJKMNPQRSTVWXYZ", r) {
			bad = true
		}
	}
	if bad {
		return &ValidationError{Field: field, Value: s, Rule: "must be a ULID (26 characters of Crockford base32, such as 01JD8X3Q6V3XK8M4Y2Z9T0B1CD)"}
	}
	return nil
}
