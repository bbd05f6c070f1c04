package locks_test

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's ExchangerTest, on every pairing of virtual and platform threads.

func forKindPairs(t *testing.T, f func(t *testing.T, a, b func(func()) *thread.Thread)) {
	for _, ka := range kinds {
		for _, kb := range kinds {
			t.Run(ka.name+"-"+kb.name, func(t *testing.T) { f(t, ka.start, kb.start) })
		}
	}
}

func TestExchanger_testExchange(t *testing.T) {
	forKindPairs(t, func(t *testing.T, a, b func(func()) *thread.Thread) {
		var e locks.Exchanger[string]
		exch := func(x, want string) {
			if got, err := e.Exchange(x); got != want || err != nil {
				t.Errorf("Exchange(%q) = %q, %v; want %q", x, got, err, want)
			}
		}
		t1 := a(func() { exch("two", "one"); exch("one", "two") })
		t2 := b(func() { exch("one", "two"); exch("two", "one") })
		testutil.Join(t, t1, t2)
	})
}

func TestExchanger_testTimedExchange(t *testing.T) {
	forKindPairs(t, func(t *testing.T, a, b func(func()) *thread.Thread) {
		e := locks.NewExchanger[string]()
		exch := func(x, want string) {
			// longWait, and math.MaxInt64 (forever: the deadline must not overflow)
			for _, d := range []time.Duration{longWait, forever} {
				if got, err := e.ExchangeTimeout(x, d); got != want || err != nil {
					t.Errorf("ExchangeTimeout(%q, %v) = %q, %v; want %q", x, d, got, err, want)
				}
			}
		}
		t1 := a(func() { exch("two", "one"); exch("one", "two") })
		t2 := b(func() { exch("one", "two"); exch("two", "one") })
		testutil.Join(t, t1, t2)
	})
}

func TestExchanger_testExchange_InterruptedException(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var e locks.Exchanger[int]
			for _, exch := range []func() (int, error){
				func() (int, error) { return e.Exchange(1) },
				func() (int, error) { return e.ExchangeTimeout(1, longWait) }, // testTimedExchange_InterruptedException
			} {
				th := k.start(func() {
					if _, err := exch(); !errors.Is(err, thread.ErrInterrupted) {
						t.Errorf("err = %v, want ErrInterrupted", err)
					}
					if thread.Interrupted() {
						t.Error("interrupt status left set")
					}
				})
				testutil.WaitState(t, th, parkedState(th))
				th.Interrupt()
				testutil.Join(t, th)
			}
			// The interrupted waiter's item was withdrawn: a new pair exchanges only its own.
			pair := k.start(func() {
				if got, err := e.Exchange(2); got != 3 || err != nil {
					t.Errorf("after interrupts: Exchange = %d, %v", got, err)
				}
			})
			if got, err := e.Exchange(3); got != 2 || err != nil {
				t.Errorf("after interrupts: Exchange = %d, %v", got, err)
			}
			testutil.Join(t, pair)
		})
	}
}

func TestExchanger_testExchange_TimeoutException(t *testing.T) {
	for _, k := range kinds {
		th := k.start(func() {
			var e locks.Exchanger[*int]
			const d = 30 * time.Millisecond
			start := time.Now()
			if _, err := e.ExchangeTimeout(nil, d); !errors.Is(err, locks.ErrTimeout) {
				t.Errorf("err = %v, want ErrTimeout", err)
			}
			if el := time.Since(start); el < d {
				t.Errorf("timed out after %v < %v", el, d)
			}
			if _, err := e.ExchangeTimeout(nil, 0); !errors.Is(err, locks.ErrTimeout) {
				t.Errorf("ExchangeTimeout(0) = %v, want ErrTimeout", err)
			}
		})
		testutil.Join(t, th)
	}
}

// If one exchanging thread is interrupted, another succeeds.
func TestExchanger_testReplacementAfterExchange(t *testing.T) {
	forKindPairs(t, func(t *testing.T, a, b func(func()) *thread.Thread) {
		var e locks.Exchanger[string]
		exchanged := locks.NewCountDownLatch(2)
		interrupted := locks.NewCountDownLatch(1)
		t1 := a(func() {
			if got, _ := e.Exchange("one"); got != "two" {
				t.Errorf("t1 got %q", got)
			}
			exchanged.CountDown()
			if _, err := e.Exchange("two"); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("t1 second exchange: %v, want ErrInterrupted", err)
			}
		})
		t2 := b(func() {
			if got, _ := e.Exchange("two"); got != "one" {
				t.Errorf("t2 got %q", got)
			}
			exchanged.CountDown()
			_ = interrupted.Await()
			if got, _ := e.Exchange("one"); got != "three" {
				t.Errorf("t2 replacement got %q", got)
			}
		})
		t3 := a(func() {
			_ = interrupted.Await()
			if got, _ := e.Exchange("three"); got != "one" {
				t.Errorf("t3 got %q", got)
			}
		})
		mustNot(t, exchanged.Await())
		testutil.WaitState(t, t1, thread.Waiting)
		t1.Interrupt()
		testutil.Join(t, t1)
		interrupted.CountDown()
		testutil.Join(t, t2, t3)
	})
}

// An interrupt that comes after a partner took the waiter's item does not undo the exchange:
// the waiter gets the partner's item and keeps its interrupt status, as in Java.
func TestExchangerInterruptAfterMatchCompletesExchange(t *testing.T) {
	for range 200 {
		var e locks.Exchanger[int]
		got := make(chan int, 1)
		var status atomic.Bool
		waiter := startVirtual(func() {
			v, err := e.Exchange(1)
			if err != nil {
				got <- -1
				return
			}
			status.Store(thread.Interrupted())
			got <- v
		})
		testutil.WaitState(t, waiter, thread.Waiting)
		// Race the waiter's reaction to the interrupt with the partner's arrival.
		waiter.Interrupt()
		v, err := e.ExchangeTimeout(2, 10*time.Millisecond)
		w := <-got
		testutil.Join(t, waiter)
		switch {
		case err == nil && v == 1: // the partner matched: the exchange completed on both sides
			if w != 2 || !status.Load() {
				t.Fatalf("matched: waiter got %d (status %v), want 2 with the status set", w, status.Load())
			}
		case errors.Is(err, locks.ErrTimeout): // the waiter withdrew first
			if w != -1 {
				t.Fatalf("withdrawn waiter got %d", w)
			}
		default:
			t.Fatalf("partner: %d, %v", v, err)
		}
	}
}

// Many threads exchanging in pairs: every item is received by exactly one other thread, none
// is lost or duplicated, with interrupts and timeouts racing the matches.
func TestExchangerStressNoItemLostOrDuplicated(t *testing.T) {
	for seed := range 3 {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			var e locks.Exchanger[int]
			const threads, rounds = 8, 300
			var sent, received [threads][]int
			var ths []*thread.Thread
			for i := range threads {
				ths = append(ths, kinds[(i+seed)%2].start(func() {
					for r := range rounds {
						item := i*rounds + r + 1
						v, err := e.ExchangeTimeout(item, time.Duration((r+seed)%5)*time.Millisecond)
						if err != nil {
							if !errors.Is(err, locks.ErrTimeout) && !errors.Is(err, thread.ErrInterrupted) {
								t.Errorf("exchange: %v", err)
							}
							continue
						}
						thread.Interrupted() // a late interrupt may leave the status set
						sent[i] = append(sent[i], item)
						received[i] = append(received[i], v)
					}
				}))
			}
			stop := make(chan struct{})
			go func() { // interrupt at random
				for k := 0; ; k++ {
					select {
					case <-stop:
						return
					case <-time.After(time.Millisecond):
						ths[k%threads].Interrupt()
					}
				}
			}()
			testutil.Join(t, ths...)
			close(stop)
			var all, got []int
			for i := range threads {
				all = append(all, sent[i]...)
				got = append(got, received[i]...)
				for _, v := range received[i] {
					if (v-1)/rounds == i {
						t.Errorf("thread %d received its own item %d", i, v)
					}
				}
			}
			slices.Sort(all)
			slices.Sort(got)
			if diff := cmp.Diff(all, got); diff != "" {
				t.Errorf("items sent and received differ (-sent +received):\n%s", diff)
			}
			if len(all) == 0 {
				t.Error("no exchange happened")
			}
		})
	}
}
