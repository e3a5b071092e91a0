package redact

// Error is err with its text scrubbed of secrets; errors.Is and errors.As
// still reach what it wraps.
func Error(err error, secrets []string) error { return &scrubbed{err: err, secrets: secrets} }

// scrubbed is an error whose text is shown without secrets.
type scrubbed struct {
	err     error
	secrets []string
}

func (e *scrubbed) Error() string { return String(e.err.Error(), e.secrets) }

func (e *scrubbed) Unwrap() error { return e.err }
