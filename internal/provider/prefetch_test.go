package provider

import (
	"context"
	"errors"
	"iter"
	"sync/atomic"
	"testing"
	"time"
)

func counting(n int, produced *atomic.Int32, failAt int) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		for i := range n {
			produced.Add(1)
			if i == failAt {
				yield(0, errors.New("boom"))
				return
			}
			if !yield(i, nil) {
				return
			}
		}
	}
}

func TestPrefetch_yieldsEverythingInOrder(t *testing.T) {
	var produced atomic.Int32
	var got []int
	for v, err := range prefetch(context.Background(), counting(100, &produced, -1)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if len(got) != 100 || produced.Load() != 100 {
		t.Fatalf("got %d values, produced %d", len(got), produced.Load())
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("value %d is %d", i, v)
		}
	}
}

func TestPrefetch_passesErrorsAndStops(t *testing.T) {
	var produced atomic.Int32
	var errs, vals int
	for _, err := range prefetch(context.Background(), counting(10, &produced, 3)) {
		if err != nil {
			errs++
		} else {
			vals++
		}
	}
	if errs != 1 || vals != 3 || produced.Load() != 4 {
		t.Errorf("errs %d, vals %d, produced %d", errs, vals, produced.Load())
	}
}

func TestPrefetch_runsAtMostOneAheadAndStopsWithTheCaller(t *testing.T) {
	var produced atomic.Int32
	n := 0
	for _, err := range prefetch(context.Background(), counting(1000, &produced, -1)) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 5 {
			break
		}
	}
	time.Sleep(20 * time.Millisecond) // let a runaway producer show itself
	// 5 consumed, at most one buffered and one blocked on the send.
	if p := produced.Load(); p > 7 {
		t.Errorf("produced %d for 5 consumed", p)
	}
}

func TestPrefetch_overlapsProducerAndConsumer(t *testing.T) {
	slow := func(yield func(int, error) bool) {
		for i := range 4 {
			time.Sleep(30 * time.Millisecond) // a page on the wire
			if !yield(i, nil) {
				return
			}
		}
	}
	start := time.Now()
	for _, err := range prefetch(context.Background(), iter.Seq2[int, error](slow)) {
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond) // converting it
	}
	// Serial would be 240 ms; overlapped about 150 ms.
	if d := time.Since(start); d > 220*time.Millisecond {
		t.Errorf("took %s: fetching and converting did not overlap", d)
	}
}
