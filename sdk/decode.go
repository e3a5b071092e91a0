package sdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// fieldProblems lists what is wrong with a decoded answer, one entry per
// field: "visitors[3].total: -5 is negative". Decoders return it; the
// request layer turns it into a *MalformedResponseError.
type fieldProblems []string

func (p fieldProblems) Error() string { return strings.Join(p, "; ") }

func (p *fieldProblems) add(field, format string, args ...any) {
	*p = append(*p, field+": "+fmt.Sprintf(format, args...))
}

// err returns the problems as an error, or nil when there are none.
func (p fieldProblems) err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// typeProblem turns encoding/json's complaint about a field of the wrong
// kind into a problem that names the field.
func typeProblem(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fieldProblems{fmt.Sprintf("%s: want %s, got %s", te.Field, jsonKind(te.Type.String()), te.Value)}
	}
	return err
}

func jsonKind(goType string) string {
	switch {
	case strings.Contains(goType, "Number"), strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "a number"
	case strings.Contains(goType, "string"):
		return "a string"
	case strings.Contains(goType, "bool"):
		return "true or false"
	case strings.HasPrefix(goType, "[]") || strings.HasPrefix(goType, "*[]"):
		return "a list"
	}
	return "an object"
}

// wholeCount reads a count the API types as a JSON number: 12, 12.0 and
// 1.2e1 are all twelve. A fraction, a negative value or one past int64 is a
// problem, never a silent truncation. A missing count is a problem too.
func wholeCount(p *fieldProblems, field string, n *json.Number) int64 {
	if n == nil {
		p.add(field, "missing")
		return 0
	}
	if v, err := strconv.ParseInt(string(*n), 10, 64); err == nil {
		if v < 0 {
			p.add(field, "%d is negative", v)
			return 0
		}
		return v
	}
	f, err := strconv.ParseFloat(string(*n), 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		p.add(field, "%q is not a number", string(*n))
	case err != nil || f >= math.MaxInt64 || f <= math.MinInt64:
		p.add(field, "%s is out of range", string(*n))
	case f != math.Trunc(f):
		p.add(field, "%s is not a whole number", string(*n))
	case f < 0:
		p.add(field, "%s is negative", string(*n))
	default:
		return int64(f)
	}
	return 0
}

// ratio reads a required non-negative real number, such as a click-through
// rate.
func ratio(p *fieldProblems, field string, n *json.Number) float64 {
	if n == nil {
		p.add(field, "missing")
		return 0
	}
	f, err := strconv.ParseFloat(string(*n), 64)
	switch {
	case err != nil:
		p.add(field, "%q is not a finite number", string(*n))
	case f < 0:
		p.add(field, "%s is negative", string(*n))
	default:
		return f
	}
	return 0
}

// required reads a required string.
func required(p *fieldProblems, field string, s *string) string {
	if s == nil {
		p.add(field, "missing")
		return ""
	}
	return *s
}
