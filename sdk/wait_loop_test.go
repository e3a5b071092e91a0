package sdk

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// stepClock is a Clock whose Sleep advances it at once, recording each
// sleep.
type stepClock struct {
	now    time.Time
	sleeps []time.Duration
	// cancel, when set, is called instead of sleeping at the sleep of that
	// index, and Sleep returns ctx's error.
	cancelAt int
	cancel   context.CancelFunc
}

func newStepClock() *stepClock { return &stepClock{now: epoch, cancelAt: -1} }

func (c *stepClock) Now() time.Time { return c.now }

func (c *stepClock) Sleep(ctx context.Context, d time.Duration) error {
	if len(c.sleeps) == c.cancelAt && c.cancel != nil {
		c.cancel()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return nil
}

func (c *stepClock) elapsed() time.Duration { return c.now.Sub(epoch) }

var (
	errTransient = &APIError{StatusCode: 502, Method: "GET", Path: "/job/7"}
	errFinal     = &APIError{StatusCode: 404, Method: "GET", Path: "/job/7"}
)

// retryAfterError is a transient failure whose server asked for a wait.
func retryAfterError(after time.Duration) error {
	return &APIError{StatusCode: 429, Method: "GET", Path: "/job/7", RetryAfter: after}
}

// script is a poller over a list of answers: read i answers answers[i]
// (the last one again past the end); a negative value fails with err[i].
type script struct {
	values []int
	errs   map[int]error
	reads  int
	seen   []int
}

func (s *script) poller(doneAt int) poller[int] {
	return poller[int]{
		what: "job 7",
		read: func(context.Context) (int, error) {
			i := s.reads
			s.reads++
			if err, ok := s.errs[i]; ok {
				return -1, err
			}
			return s.values[min(i, len(s.values)-1)], nil
		},
		terminal: func(v int) bool { return v >= doneAt },
	}
}

// waitOn runs the wait of p on clk with schedule w, reporting each status
// to s.
func waitOn(ctx context.Context, clk Clock, w waitSettings, s *script, p poller[int]) (int, error) {
	return poll(ctx, &core{settings: settings{clock: clk}}, p, []WaitOption{WithPollInterval(w.initial, w.max), WithWaitTimeout(w.timeout),
		WithStatusCallback(func(v int) { s.seen = append(s.seen, v) })})
}

var defaults = waitSettings{initial: time.Second, max: 20 * time.Second}

func TestWaitDelay_growsToTheCapJitteredDownByAtMostFivePercent(t *testing.T) {
	for elapsed, want := range map[time.Duration]time.Duration{0: time.Second, 10 * time.Second: 2 * time.Second,
		100 * time.Second: 11 * time.Second, 190 * time.Second: 20 * time.Second, time.Hour: 20 * time.Second} {
		lowest := want
		for range 200 {
			got := defaults.delay(elapsed)
			if got > want || got < want*19/20 {
				t.Fatalf("Delay(%s) = %s, want within [%s, %s]", elapsed, got, want*19/20, want)
			}
			lowest = min(lowest, got)
		}
		if lowest == want {
			t.Errorf("Delay(%s) was never jittered in 200 draws", elapsed)
		}
	}
	// The smallest schedule still waits (jitter never takes it to 0 or below).
	tiny := waitSettings{initial: time.Nanosecond, max: time.Nanosecond}
	for range 50 {
		if d := tiny.delay(time.Hour); d != time.Nanosecond {
			t.Fatalf("Delay = %s", d)
		}
	}
}

func TestPoll_readsUntilDoneAndReportsEveryStatus(t *testing.T) {
	clk := newStepClock()
	s := &script{values: []int{1, 2, 3, 4}}
	got, err := waitOn(context.Background(), clk, defaults, s, s.poller(3))
	if err != nil || got != 3 || s.reads != 3 || !slices.Equal(s.seen, []int{1, 2, 3}) {
		t.Fatalf("got %d, %v after %d reads, saw %v", got, err, s.reads, s.seen)
	}
	if len(clk.sleeps) != 3 || clk.sleeps[0] > time.Second || clk.sleeps[0] < 950*time.Millisecond {
		t.Errorf("slept %v: a delay before each read, the first of about Initial", clk.sleeps)
	}
}

func TestPoll_onStatusIsOptional(t *testing.T) {
	s := &script{values: []int{5}}
	k := &core{settings: settings{clock: newStepClock()}}
	if got, err := poll(context.Background(), k, s.poller(5), nil); err != nil || got != 5 {
		t.Fatalf("got %d, %v", got, err)
	}
}

func TestPoll_timeoutEndsOnTheClockWithALastRead(t *testing.T) {
	clk := newStepClock()
	s := &script{values: []int{1, 2}}
	got, err := waitOn(context.Background(), clk, waitSettings{initial: time.Second, max: 20 * time.Second, timeout: 5 * time.Minute}, s, s.poller(99))
	if !errors.Is(err, ErrWaitTimeout) || !errors.Is(err, context.DeadlineExceeded) || got != 2 {
		t.Fatalf("got %d, %v", got, err)
	}
	if want := "waiting for job 7: wait timed out: context deadline exceeded after 5m0s"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if clk.elapsed() != 5*time.Minute {
		t.Errorf("the wait took %s on the clock", clk.elapsed())
	}
	// The last sleep was cut to end at the bound (the clock stands at
	// exactly 5m, above), no longer than a delay, and a read followed it.
	// A cut sleep may still be over 19s, the jittered delay's floor, when
	// that much was left: the floor is no test of the cut.
	if last := clk.sleeps[len(clk.sleeps)-1]; last > 20*time.Second || s.reads != len(clk.sleeps) {
		t.Errorf("last sleep %s, %d reads after %d sleeps", last, s.reads, len(clk.sleeps))
	}
}

func TestPoll_noTimeoutWaitsPastIt(t *testing.T) {
	clk := newStepClock()
	s := &script{values: append(slices.Repeat([]int{1}, 100), 2)}
	if got, err := waitOn(context.Background(), clk, defaults, s, s.poller(2)); err != nil || got != 2 || clk.elapsed() < 25*time.Minute {
		t.Fatalf("got %d, %v after %s", got, err, clk.elapsed())
	}
}

func TestPoll_transientFailuresAreToleratedUntilThreeInARow(t *testing.T) {
	// Two in a row, then a success, then two more: tolerated.
	s := &script{values: []int{1, 1, 1, 1, 1, 1, 9}, errs: map[int]error{0: errTransient, 1: errTransient, 3: errTransient, 4: errTransient}}
	clk := newStepClock()
	if got, err := waitOn(context.Background(), clk, defaults, s, s.poller(9)); err != nil || got != 9 || s.reads != 7 {
		t.Fatalf("got %d, %v after %d reads", got, err, s.reads)
	}
	// A failure whose server asked for no wait is read again on schedule.
	for _, d := range clk.sleeps {
		if d < 950*time.Millisecond {
			t.Errorf("slept %v", clk.sleeps)
		}
	}
	// Three in a row end it, with the last object seen.
	s = &script{values: []int{4}, errs: map[int]error{1: errTransient, 2: errTransient, 3: errTransient}}
	got, err := waitOn(context.Background(), newStepClock(), defaults, s, s.poller(9))
	if !errors.Is(err, errTransient) || got != 4 || s.reads != 1+maxTransientErrors || err.Error() != "waiting for job 7: "+errTransient.Error() {
		t.Fatalf("got %d, %v after %d reads", got, err, s.reads)
	}
}

func TestPoll_aFailureThatIsNotTransientEndsAtOnce(t *testing.T) {
	s := &script{values: []int{4}, errs: map[int]error{1: errFinal}}
	got, err := waitOn(context.Background(), newStepClock(), defaults, s, s.poller(9))
	if !errors.Is(err, errFinal) || got != 4 || s.reads != 2 || !strings.HasPrefix(err.Error(), "waiting for job 7: ") {
		t.Fatalf("got %d, %v after %d reads", got, err, s.reads)
	}
}

func TestPoll_retryAfterIsTheNextDelay(t *testing.T) {
	clk := newStepClock()
	s := &script{values: []int{1, 1, 9}, errs: map[int]error{1: retryAfterError(90 * time.Second)}}
	if got, err := waitOn(context.Background(), clk, defaults, s, s.poller(9)); err != nil || got != 9 {
		t.Fatalf("got %d, %v", got, err)
	}
	if len(clk.sleeps) != 3 || clk.sleeps[2] != 90*time.Second {
		t.Errorf("slept %v, want the server's 90s before the third read", clk.sleeps)
	}
}

func TestPoll_retryAfterThatOutlastsTheBoundEndsItNow(t *testing.T) {
	for name, tt := range map[string]struct {
		timeout time.Duration
		wantErr bool
	}{
		"reaches the bound":     {2*time.Minute + time.Nanosecond, true},
		"ends just before it":   {2*time.Minute + 2*time.Nanosecond, false},
		"well within the bound": {time.Hour, false},
		"no bound":              {0, false},
	} {
		t.Run(name, func(t *testing.T) {
			clk := newStepClock()
			s := &script{values: []int{9}, errs: map[int]error{0: retryAfterError(2 * time.Minute)}}
			_, err := waitOn(context.Background(), clk, waitSettings{initial: time.Nanosecond, max: time.Nanosecond, timeout: tt.timeout}, s, s.poller(9))
			if tt.wantErr != (err != nil) {
				t.Fatalf("err %v after %d reads", err, s.reads)
			}
			var ra *APIError
			if tt.wantErr && (!errors.As(err, &ra) || errors.Is(err, ErrWaitTimeout) || s.reads != 1 || clk.elapsed() != time.Nanosecond) {
				t.Errorf("err %v after %d reads, %s", err, s.reads, clk.elapsed())
			}
		})
	}
}

func TestPoll_retryAfterPastCtxsDeadlineEndsItNow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := &script{values: []int{9}, errs: map[int]error{0: retryAfterError(2 * time.Minute)}}
	var ra *APIError
	if _, err := waitOn(ctx, newStepClock(), defaults, s, s.poller(9)); !errors.As(err, &ra) || s.reads != 1 {
		t.Fatalf("err %v after %d reads", err, s.reads)
	}
	// One that fits is waited for.
	s = &script{values: []int{9}, errs: map[int]error{0: retryAfterError(time.Second)}}
	if got, err := waitOn(ctx, newStepClock(), defaults, s, s.poller(9)); err != nil || got != 9 || s.reads != 2 {
		t.Fatalf("got %d, %v after %d reads", got, err, s.reads)
	}
}

func TestPoll_ctxEndingDuringASleepReturnsTheLastObject(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	clk := newStepClock()
	clk.cancelAt, clk.cancel = 3, cancel
	s := &script{values: []int{1, 2, 3}}
	got, err := waitOn(ctx, clk, defaults, s, s.poller(9))
	if !errors.Is(err, context.Canceled) || got != 3 || s.reads != 3 || err.Error() != "waiting for job 7: context canceled" {
		t.Fatalf("got %d, %v after %d reads", got, err, s.reads)
	}
}

func TestPoll_ctxEndingDuringAReadIsNotAFailureOfTheRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := poller[int]{
		what: "job 7",
		read: func(context.Context) (int, error) {
			cancel()
			return 0, errFinal // what a read cut short by ctx fails with
		},
		terminal: func(int) bool { return false },
	}
	_, err := poll(ctx, &core{settings: settings{clock: newStepClock()}}, p, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, errFinal) {
		t.Fatalf("%v", err)
	}
}
