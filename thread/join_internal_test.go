package thread

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// joinEntries returns the joiners the join table holds for t.
func joinEntries(t *Thread) int {
	sh := joinShardOf(t)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	ws, ok := sh.m[t]
	if !ok {
		return 0
	}
	n := len(ws.more)
	if ws.first != nil {
		n++
	}
	return n
}

// The join table holds a thread's joiners only while they wait: a join that times out or is
// interrupted takes itself out, the others are woken by the thread's end, which empties the
// entry, and every joiner returns.
func TestJoinTableEntries(t *testing.T) {
	var release atomic.Bool
	target := OfVirtual().Start(func() {
		for !release.Load() {
			Park()
		}
	})
	waitFor := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); joinEntries(target) != n; {
			if time.Now().After(deadline) {
				t.Fatalf("join table holds %d joiners of the target, want %d", joinEntries(target), n)
			}
			time.Sleep(time.Millisecond)
		}
	}

	// a join that times out leaves nothing behind
	if ok, err := target.JoinTimeout(time.Millisecond); ok || err != nil {
		t.Fatalf("JoinTimeout = %v, %v; want false, nil", ok, err)
	}
	if n := joinEntries(target); n != 0 {
		t.Fatalf("after a timed-out join: %d joiners, want 0", n)
	}

	// three joiners wait; the first of them (and so the entry's first) is interrupted
	var wg sync.WaitGroup
	errs := make([]error, 3)
	joiners := make([]*Thread, 3)
	for i := range joiners {
		joiners[i] = OfVirtual().Start(func() { errs[i] = target.Join() })
		wg.Add(1)
		go func() { defer wg.Done(); joiners[i].Join() }() // a platform joiner of each joiner
		waitFor(i + 1)
	}
	joiners[0].Interrupt()
	waitFor(2)

	release.Store(true)
	Unpark(target)
	wg.Wait()
	if !errors.Is(errs[0], ErrInterrupted) {
		t.Errorf("interrupted joiner: %v, want ErrInterrupted", errs[0])
	}
	for i, err := range errs[1:] {
		if err != nil {
			t.Errorf("joiner %d: %v, want nil", i+1, err)
		}
	}
	if n := joinEntries(target); n != 0 {
		t.Errorf("after the end: %d joiners, want 0", n)
	}
	if err := target.Join(); err != nil { // a join of an ended thread registers nothing
		t.Fatal(err)
	}
	if n := joinEntries(target); n != 0 {
		t.Errorf("after a join of the ended thread: %d joiners, want 0", n)
	}
}

// A shard's map that held a burst of joins is dropped once it is empty again.
func TestJoinTableShardShrinksAfterBurst(t *testing.T) {
	const n = 1100 // joined threads in one shard at once: over dropEntry's 1024
	var release atomic.Bool
	var targets []*Thread
	shard := -1
	for len(targets) < n {
		th := OfVirtual().Unstarted(func() {
			for !release.Load() {
				Park()
			}
		})
		if shard < 0 {
			shard = int(th.id & (shards - 1))
		}
		if int(th.id&(shards-1)) == shard {
			targets = append(targets, th)
		}
	}
	sh := &joinTable[shard]
	entries := func() int {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		return len(sh.m)
	}
	base := entries() // other tests' joins of threads of this shard, if any are still under way
	joiners := make([]*Thread, n)
	for i, th := range targets {
		th.Start()
		joiners[i] = OfVirtual().Start(func() { th.Join() })
	}
	for deadline := time.Now().Add(20 * time.Second); entries() < base+n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d joins registered", entries()-base, n)
		}
		time.Sleep(time.Millisecond)
	}
	release.Store(true)
	for _, th := range targets {
		Unpark(th)
	}
	for _, j := range joiners {
		j.Join()
	}
	// (the joins of the joiners above may have made a new map in the shard since: its high is low)
	sh.mu.Lock()
	high := sh.high
	sh.mu.Unlock()
	if base == 0 && high >= n {
		t.Errorf("after the burst: the shard's map has had %d entries, want it dropped", high)
	}
}
