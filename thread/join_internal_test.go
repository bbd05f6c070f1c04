package thread

import (
	"errors"
	"math/rand/v2"
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
	if i := sh.findFew(t); i >= 0 {
		return 1
	}
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
	targets, shard := unstartedInOneShard(n, &release, func(int) bool { return true })
	sh := &joinTable[shard]
	entries := func() int {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		n := len(sh.m)
		for _, p := range sh.few {
			if p.t != nil {
				n++
			}
		}
		return n
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

// One-joiner joins are kept in the shard's few pairs while they last, the rest in its map; a
// second joiner of a thread in the few moves both joiners to the map, first one first, and the
// end of each joined thread wakes exactly its own joiners, from either place.
func TestJoinTableFewThenMap(t *testing.T) {
	const n = fewJoins + 2
	var release atomic.Bool
	targets, shard := unstartedInOneShard(n, &release, func(shard int) bool {
		return freePairs(&joinTable[shard]) == fewJoins // no other join holds the shard's pairs
	})
	sh := &joinTable[shard]
	where := func(th *Thread) (few bool, inMap []*Thread) {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		if i := sh.findFew(th); i >= 0 {
			return true, []*Thread{sh.few[i].w}
		}
		if ws, ok := sh.m[th]; ok {
			return false, append([]*Thread{ws.first}, ws.more...)
		}
		return false, nil
	}
	free := freePairs(sh)

	joined := func(th *Thread, joiners int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			if _, ws := where(th); len(ws) == joiners {
				return
			}
			if time.Now().After(deadline) {
				_, ws := where(th)
				t.Fatalf("%v has %d joiners in the table, want %d", th, len(ws), joiners)
			}
		}
	}
	var returned atomic.Int64
	joiners := make([]*Thread, n+1)
	for i, th := range targets {
		th.Start()
		joiners[i] = OfVirtual().Start(func() {
			if err := th.Join(); err != nil {
				t.Errorf("join: %v", err)
			}
			if th.State() != Terminated {
				t.Errorf("join returned while the joined thread is %v", th.State())
			}
			returned.Add(1)
		})
		joined(th, 1) // one at a time, so that the first ones take the few pairs
	}
	inFew := 0
	for i, th := range targets {
		few, ws := where(th)
		if few {
			inFew++
		}
		if len(ws) != 1 || ws[0] != joiners[i] {
			t.Fatalf("target %d: joiners %v, want [%v]", i, ws, joiners[i])
		}
	}
	if free == fewJoins && inFew != fewJoins { // other tests' joins took none of the pairs
		t.Errorf("%d of %d one-joiner joins in the few pairs, want %d", inFew, n, fewJoins)
	}
	if inFew > free {
		t.Errorf("%d joins in the few pairs, but only %d were free", inFew, free)
	}

	// a second joiner of a target that is in the few moves both to the map, in order
	first := -1
	for i, th := range targets {
		if few, _ := where(th); few {
			first = i
			break
		}
	}
	if first < 0 {
		t.Fatal("no target is in the few pairs")
	}
	th := targets[first]
	joiners[n] = OfVirtual().Start(func() {
		if err := th.Join(); err != nil {
			t.Errorf("second join: %v", err)
		}
		returned.Add(1)
	})
	joined(th, 2)
	if few, ws := where(th); few || ws[0] != joiners[first] || ws[1] != joiners[n] {
		t.Fatalf("after a second joiner: in the few pairs %v, joiners %v; want the map, [%v %v]", few, ws, joiners[first], joiners[n])
	}

	release.Store(true)
	for _, th := range targets {
		Unpark(th)
	}
	for _, j := range joiners {
		j.Join()
	}
	if got := returned.Load(); got != n+1 {
		t.Fatalf("%d joins returned, want %d", got, n+1)
	}
	for i, th := range targets {
		if few, ws := where(th); few || len(ws) != 0 {
			t.Errorf("target %d ended but the table still holds it (few pairs %v, joiners %v)", i, few, ws)
		}
	}
}

// freePairs counts the few pairs of sh that no join holds.
func freePairs(sh *joinShard) int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	free := 0
	for _, p := range sh.few {
		if p.t == nil {
			free++
		}
	}
	return free
}

// Joins of threads that end at random moments, by one to three joiners each (so that shards'
// few pairs fill and joins overflow into their maps, and second joiners move first ones there),
// racing interrupts and timeouts: every join returns, says true or nil only once the thread has
// terminated, and the table holds nothing for any of the threads afterwards.
func TestStressJoinTableRacingEnds(t *testing.T) {
	const rounds, targets = 20, 100
	for round := range rounds {
		var wg sync.WaitGroup
		ts := make([]*Thread, targets)
		for i := range ts {
			r := rand.New(rand.NewPCG(uint64(round), uint64(i)))
			spin, d := r.IntN(4), time.Duration(r.IntN(200))*time.Microsecond
			ts[i] = OfVirtual().Start(func() {
				switch spin {
				case 1:
					Yield()
				case 2:
					Sleep(d)
				case 3:
					time.Sleep(d / 4)
				}
			})
			for j := range 1 + r.IntN(3) {
				kind := r.IntN(3)
				wait := time.Duration(r.IntN(300)) * time.Microsecond
				wg.Add(1)
				joiner := OfVirtual().Start(func() {
					defer wg.Done()
					target := ts[i]
					switch kind {
					case 0:
						if err := target.Join(); err != nil || target.State() != Terminated {
							t.Errorf("round %d target %d joiner %d: Join = %v with the target %v", round, i, j, err, target.State())
						}
					case 1:
						if ok, err := target.JoinTimeout(wait); err != nil || ok && target.State() != Terminated {
							t.Errorf("round %d target %d joiner %d: JoinTimeout = %v, %v with the target %v", round, i, j, ok, err, target.State())
						}
					case 2: // interrupted by the goroutine below, or not in time
						err := target.Join()
						if err != nil && !errors.Is(err, ErrInterrupted) || err == nil && target.State() != Terminated {
							t.Errorf("round %d target %d joiner %d: Join = %v with the target %v", round, i, j, err, target.State())
						}
					}
				})
				if kind == 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						time.Sleep(wait / 4)
						joiner.Interrupt()
					}()
				}
			}
		}
		wg.Wait()
		for i, th := range ts {
			th.Join()
			if n := joinEntries(th); n != 0 {
				t.Fatalf("round %d: target %d ended, but the join table holds %d joiners of it", round, i, n)
			}
		}
	}
}

// unstartedInOneShard returns n unstarted virtual threads whose ids fall in one join-table shard,
// the first whose shard ok accepts, and that shard. Each thread parks until release is set.
func unstartedInOneShard(n int, release *atomic.Bool, ok func(shard int) bool) ([]*Thread, int) {
	var targets []*Thread
	shard := -1
	for len(targets) < n {
		th := OfVirtual().Unstarted(func() {
			for !release.Load() {
				Park()
			}
		})
		if sh := int(th.id & (shards - 1)); shard < 0 && ok(sh) {
			shard = sh
		}
		if int(th.id&(shards-1)) == shard {
			targets = append(targets, th)
		}
	}
	return targets, shard
}
