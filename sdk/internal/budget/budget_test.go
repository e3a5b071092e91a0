package budget

import (
	"testing"
	"time"
)

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestBudget_spentUntilHoldsTheLatest(t *testing.T) {
	var g Budget
	if !g.Until(epoch).IsZero() || g.Open() {
		t.Fatal("a new gate is spent, or open")
	}
	if got := g.Hold(epoch.Add(time.Hour)); !got.Equal(epoch.Add(time.Hour)) {
		t.Errorf("held until %v", got)
	}
	if got := g.Hold(epoch.Add(time.Minute)); !got.Equal(epoch.Add(time.Hour)) {
		t.Errorf("an earlier time shortened the hold: %v", got)
	}
	if got := g.Until(epoch.Add(59 * time.Minute)); !got.Equal(epoch.Add(time.Hour)) {
		t.Errorf("before it frees up: %v", got)
	}
	if got := g.Until(epoch.Add(time.Hour)); !got.IsZero() {
		t.Errorf("once it frees up: %v", got)
	}
}

func TestBudget_oneProbeAtATimeUntilAnAnswer(t *testing.T) {
	var g Budget
	wait, probe := g.enter()
	if wait != nil || !probe {
		t.Fatal("the first request is not the probe")
	}
	second, secondProbe := g.enter()
	if second == nil || secondProbe {
		t.Fatal("a second request went out beside the probe")
	}
	g.settle(true, false) // refused: the gate stays closed, the waiter goes on
	select {
	case <-second:
	default:
		t.Fatal("the waiter was not woken")
	}
	if wait, probe := g.enter(); wait != nil || !probe || g.Open() {
		t.Fatal("after a refusal, the next request is not the probe")
	}
	g.settle(true, true)
	if wait, probe := g.enter(); wait != nil || probe || !g.Open() {
		t.Fatal("after an answer, requests do not go out together")
	}
	g.settle(false, true)
	g.Hold(epoch)
	if g.Open() {
		t.Error("a hold left the gate open")
	}
}

func TestBudget_learnsOnlyALaterTime(t *testing.T) {
	var g Budget
	_, probe := g.enter()
	g.settle(probe, true)
	g.Hold(epoch.Add(time.Hour))
	g.settle(false, true) // open again
	g.learn(epoch.Add(time.Minute))
	if !g.Open() || !g.Until(epoch).Equal(epoch.Add(time.Hour)) {
		t.Errorf("an earlier time was learnt: open %v, until %v", g.Open(), g.Until(epoch))
	}
	g.learn(epoch.Add(2 * time.Hour))
	if g.Open() || !g.Until(epoch).Equal(epoch.Add(2*time.Hour)) {
		t.Errorf("a later time was not learnt: open %v, until %v", g.Open(), g.Until(epoch))
	}
}
