// Package optcheck checks a client option's value before the option sets
// it: a count or duration that may not be negative, a count or size with
// a floor. Each check makes an option's apply function, whose error names
// the option and the value.
//
// It is separate from package sdk because the checks are the same for
// every option: package sdk's options say only which field a value sets
// and which rule it follows.
package optcheck

import (
	"fmt"
	"time"
)

// NotNegative is the apply function of an option of a count or duration
// for which 0 means none (no retries, no bound) and a negative value can
// only be a mistake: it sets v through set, or fails.
func NotNegative[S any, T int | time.Duration](option string, v T, set func(*S)) func(*S) error {
	return func(s *S) error {
		if v < 0 {
			return fmt.Errorf("sdk: %s: %v is negative", option, v)
		}
		set(s)
		return nil
	}
}

// AtLeast is the apply function of an option of a count or size with a
// floor; floorText is the floor as the error says it ("1 MiB").
func AtLeast[S any, T int | int64](option string, v, floor T, floorText string, set func(*S)) func(*S) error {
	return func(s *S) error {
		if v < floor {
			return fmt.Errorf("sdk: %s: %d is below %s", option, v, floorText)
		}
		set(s)
		return nil
	}
}
