package budget

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
)

// clockAt is a now func standing at *t.
func clockAt(t *time.Time) func() time.Time { return func() time.Time { return *t } }

// shared is a budget kept beside a cache in dir.
func shared(t *testing.T, name string) *Budget {
	t.Helper()
	disk, err := analyticscache.OpenDisk(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return &Budget{Name: name, Shared: analyticscache.New(disk, "mint_key"), Base: "https://api.example"}
}

func TestSend_sendsOnceAndOpensOnAnAnswer(t *testing.T) {
	now := epoch
	b := &Budget{Name: "b"}
	calls := 0
	spent, err := send(context.Background(), clockAt(&now), b, nil, func() Answer {
		calls++
		return Answer{Answered: true}
	})
	if spent != nil || err != nil || calls != 1 {
		t.Fatalf("spent %v, err %v, %d calls", spent, err, calls)
	}
	if !b.Open() {
		t.Error("an answer left the gate closed")
	}
	if _, _ = send(context.Background(), clockAt(&now), b, nil, func() Answer { return Answer{} }); !b.Open() {
		t.Error("a failure to get an answer closed an open gate")
	}
}

func TestSend_aRefusalIsRememberedAndNamed(t *testing.T) {
	now := epoch
	b, other := &Budget{Name: "b"}, &Budget{Name: "other"}
	spent, err := send(context.Background(), clockAt(&now), b, nil, func() Answer {
		return Answer{RateLimited: true, RetryAt: epoch.Add(time.Hour)}
	})
	if spent != nil || err != nil || b.Open() {
		t.Fatalf("the refused call: spent %v, err %v, open %v", spent, err, b.Open())
	}
	now = epoch.Add(time.Minute)
	sent := false
	spent, err = send(context.Background(), clockAt(&now), other, []*Budget{b}, func() Answer { sent = true; return Answer{} })
	if sent || err != nil || spent == nil || *spent != (Spent{Name: "b", Until: epoch.Add(time.Hour), Left: 59 * time.Minute}) {
		t.Fatalf("a call on a spent budget: sent %v, spent %+v, err %v", sent, spent, err)
	}
	// Both spent: the one that frees up last is named.
	other.Hold(epoch.Add(2 * time.Hour))
	b.Hold(epoch.Add(90 * time.Minute))
	if spent, _ := send(context.Background(), clockAt(&now), b, []*Budget{other}, func() Answer { return Answer{} }); spent == nil || spent.Name != "other" {
		t.Errorf("spent %+v, want other's", spent)
	}
	if spent, _ := send(context.Background(), clockAt(&now), other, []*Budget{b}, func() Answer { return Answer{} }); spent == nil || spent.Name != "other" {
		t.Errorf("spent %+v, want other's", spent)
	}
	now = epoch.Add(2 * time.Hour)
	if spent, _ := send(context.Background(), clockAt(&now), b, []*Budget{other}, func() Answer { return Answer{} }); spent != nil {
		t.Errorf("once freed: spent %+v", spent)
	}
}

func TestSend_waitersGoAfterTheProbeOrWhenCtxEnds(t *testing.T) {
	now := epoch
	b := &Budget{Name: "b"}
	release := make(chan struct{})
	probing := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = send(context.Background(), clockAt(&now), b, nil, func() Answer {
			close(probing)
			<-release
			return Answer{Answered: true}
		})
	}()
	<-probing
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if spent, err := send(ctx, clockAt(&now), b, nil, func() Answer {
		t.Error("sent beside the probe")
		return Answer{}
	}); err != context.Canceled || spent != nil { //nolint:errorlint // ctx.Err() itself
		t.Errorf("a waiter whose ctx ended: spent %v, err %v", spent, err)
	}
	done := make(chan int)
	go func() {
		got := 0
		_, _ = send(context.Background(), clockAt(&now), b, nil, func() Answer { got = 2; return Answer{Answered: true} })
		done <- got
	}()
	select {
	case <-done:
		t.Fatal("a waiter went out beside the probe")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	if got := <-done; got != 2 {
		t.Errorf("the waiter's answer: %d", got)
	}
	wg.Wait()
}

func TestRefused_holdsWithinBoundsAndSharesWhatWasSaid(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		retryAt   time.Time
		wantUntil time.Time // zero: not spent
		wantSaved bool
	}{
		{"said", epoch.Add(time.Hour), epoch.Add(time.Hour), true},
		{"not said", time.Time{}, epoch.Add(UnknownHold), false},
		{"past", epoch.Add(-time.Second), time.Time{}, false},
		{"now", epoch, time.Time{}, false},
		{"too far", epoch.Add(MaxAhead + time.Hour), epoch.Add(MaxAhead), true},
		{"just within", epoch.Add(MaxAhead - time.Second), epoch.Add(MaxAhead - time.Second), true},
	} {
		b := shared(t, "b")
		b.Refused(ctx, epoch, tc.retryAt)
		if got := b.Until(epoch); !got.Equal(tc.wantUntil) {
			t.Errorf("%s: spent until %v, want %v", tc.name, got, tc.wantUntil)
		}
		until, saved := b.Shared.SpentUntil(ctx, b.Base, epoch)
		if saved != tc.wantSaved || saved && !until.Equal(tc.wantUntil) {
			t.Errorf("%s: saved %v until %v", tc.name, saved, until)
		}
	}
	var alone Budget // not shared: no cache to write to
	alone.Refused(ctx, epoch, epoch.Add(time.Hour))
	if !alone.Until(epoch).Equal(epoch.Add(time.Hour)) {
		t.Error("an unshared budget was not held")
	}
	alone.Refresh(ctx, epoch)
}

func TestRefresh_believesOnlyABelievableRecord(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		until   time.Time
		believe bool
	}{
		{"an hour", epoch.Add(time.Hour), true},
		{"within the skew", epoch.Add(MaxAhead + analyticscache.ClockSkew), true},
		{"past the skew", epoch.Add(MaxAhead + analyticscache.ClockSkew + time.Second), false},
		{"already free", epoch, false},
	} {
		writer, reader := shared(t, "w"), &Budget{}
		reader.Shared, reader.Base = writer.Shared, writer.Base
		writer.Shared.SaveSpent(ctx, writer.Base, epoch, tc.until)
		reader.Refresh(ctx, epoch)
		if got := !reader.Until(epoch).IsZero(); got != tc.believe {
			t.Errorf("%s: believed %v", tc.name, got)
		}
		if tc.believe && (reader.Open() || !reader.Until(epoch).Equal(tc.until)) {
			t.Errorf("%s: until %v, open %v", tc.name, reader.Until(epoch), reader.Open())
		}
	}
	var none Budget
	none.Refresh(ctx, epoch)
	if !none.Until(epoch).IsZero() {
		t.Error("a budget kept nowhere learnt something")
	}
}

// send is one request through Admit and Done, answered by answer.
func send(ctx context.Context, now func() time.Time, b *Budget, also []*Budget, answer func() Answer) (*Spent, error) {
	a, spent, err := b.Admit(ctx, now, also...)
	if spent != nil || err != nil {
		return spent, err
	}
	a.Done(ctx, now(), answer())
	return nil, nil
}
