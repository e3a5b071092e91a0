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

func TestPrefetch_fetchesTheNextPageWhileThisOneIsConverted(t *testing.T) {
	// The consumer holds item 0 until the producer has started on item 1.
	// Without the overlap the producer would wait for the consumer: the
	// select would time out.
	startedNext := make(chan struct{})
	seq := func(yield func(int, error) bool) {
		if !yield(0, nil) {
			return
		}
		close(startedNext) // fetching item 1 begins
		yield(1, nil)
	}
	n := 0
	for v, err := range prefetch(context.Background(), iter.Seq2[int, error](seq)) {
		if err != nil {
			t.Fatal(err)
		}
		if v == 0 {
			select {
			case <-startedNext:
			case <-time.After(5 * time.Second):
				t.Fatal("the next item was not fetched while this one was being handled")
			}
		}
		n++
	}
	if n != 2 {
		t.Errorf("got %d items", n)
	}
}
