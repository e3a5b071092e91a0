package provider

import (
	"context"
	"iter"
)

// prefetch runs seq one element ahead in its own goroutine, so the next page
// is on its way while the caller converts this one. It asks seq for nothing
// more than seq would yield anyway: the SDK's iterator itself stops at the
// last page and at max_results, so no request is wasted. Stopping early (or
// ctx ending) stops the producer.
func prefetch[T any](ctx context.Context, seq iter.Seq2[T, error]) iter.Seq2[T, error] {
	type item struct {
		v   T
		err error
	}
	return func(yield func(T, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		ch := make(chan item, 1)
		go func() {
			defer close(ch)
			for v, err := range seq {
				select {
				case ch <- item{v, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
		for it := range ch {
			if !yield(it.v, it.err) {
				return
			}
		}
	}
}
