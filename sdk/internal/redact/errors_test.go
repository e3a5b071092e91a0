package redact

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestError(t *testing.T) {
	inner := fmt.Errorf("GET https://s.example/b?sig=5ec2e7 failed: %w", io.ErrUnexpectedEOF)
	err := Error(inner, []string{"", "sig=5ec2e7", "unused"})
	if got, want := err.Error(), "GET https://s.example/b?"+Marker+" failed: unexpected EOF"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Unwrap(err) != inner { //nolint:errorlint // the very error wrapped, not one like it
		t.Errorf("what it wraps is not reached: %v", errors.Unwrap(err))
	}
	if got := Error(inner, nil).Error(); got != inner.Error() {
		t.Errorf("no secrets: %q", got)
	}
}
