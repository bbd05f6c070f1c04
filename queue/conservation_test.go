package queue_test

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Conservation under concurrency: producers and consumers on virtual and platform threads use
// every form of insert and remove (blocking, timed with random timeouts, non-blocking) while a
// chaos thread interrupts them at random. A producer whose insert failed (timeout, interrupt,
// full) tries again, so every element is inserted exactly once; the consumers must then receive
// every element exactly once: none lost to a timed-out or interrupted take, none duplicated.

type conservationCase struct {
	name string
	mk   func() anyQueue
}

func conservationCases() []conservationCase {
	var cs []conservationCase
	for _, k := range kinds() {
		if k.bounded != nil {
			cs = append(cs, conservationCase{k.name, func() anyQueue { return k.bounded(4) }})
		}
		if k.unbounded != nil {
			cs = append(cs, conservationCase{k.name + "Unbounded", k.unbounded})
		}
	}
	cs = append(cs,
		conservationCase{"SynchronousQueueFair", func() anyQueue { return queue.NewSynchronousQueue[int](true) }},
		conservationCase{"SynchronousQueueNonFair", func() anyQueue { return queue.NewSynchronousQueue[int](false) }},
	)
	return cs
}

func TestConcurrentProducersAndConsumersDeliverEveryElementExactlyOnce(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	for _, c := range conservationCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 1))
			conserve(t, c.mk(), r, 4, 4, 1500)
			conserve(t, c.mk(), r, 8, 2, 400)
			conserve(t, c.mk(), r, 2, 8, 1500)
		})
	}
}

// randomTimeout returns a timeout from "do not wait" to a few milliseconds.
func randomTimeout(r *rand.Rand) time.Duration {
	switch r.IntN(4) {
	case 0:
		return time.Duration(-r.IntN(2)) // 0 or negative
	case 1:
		return time.Duration(r.IntN(50)) * time.Microsecond
	default:
		return time.Duration(r.IntN(3000)) * time.Microsecond
	}
}

func unstarted(virtual bool, fn func()) *thread.Thread {
	if virtual {
		return thread.OfVirtual().Unstarted(fn)
	}
	return thread.OfPlatform().Unstarted(fn)
}

func conserve(t *testing.T, q anyQueue, r *rand.Rand, producers, consumers, perProducer int) {
	total := producers * perProducer
	received := make([]atomic.Int32, total)
	var got atomic.Int64
	var done atomic.Bool
	var interrupts atomic.Int64
	tq, _ := q.(queue.TransferQueue[int])

	var ths []*thread.Thread
	seeds := make([]uint64, producers+consumers)
	for i := range seeds {
		seeds[i] = r.Uint64()
	}
	for p := range producers {
		th := unstarted(p%2 == 0, func() {
			r := rand.New(rand.NewPCG(seeds[p], 2))
			for i := 0; i < perProducer; {
				e := p*perProducer + i
				var ok bool
				var err error
				switch op := r.IntN(5); {
				case op == 0:
					err = q.Put(e)
					ok = err == nil
				case op == 1:
					ok, err = q.OfferTimeout(e, randomTimeout(r))
				case op == 2:
					ok = q.Offer(e)
				case op == 3 && tq != nil:
					if r.IntN(2) == 0 {
						err = tq.Transfer(e)
						ok = err == nil
					} else {
						ok, err = tq.TryTransferTimeout(e, randomTimeout(r))
					}
				default:
					ok = q.Add(e) == nil
				}
				if err != nil && !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("producer: %v", err)
				}
				if ok {
					i++
				}
			}
		})
		ths = append(ths, th)
	}
	var consumerThs []*thread.Thread
	for c := range consumers {
		th := unstarted(c%2 == 1, func() {
			r := rand.New(rand.NewPCG(seeds[producers+c], 3))
			for !done.Load() {
				var e int
				var ok bool
				var err error
				switch r.IntN(4) {
				case 0:
					e, err = q.Take()
					ok = err == nil
				case 1:
					e, ok, err = q.PollTimeout(randomTimeout(r))
				case 2:
					e, ok = q.Poll()
				default:
					if s := q.DrainTo(nil, 1+r.IntN(3)); len(s) > 0 {
						for _, e := range s[1:] {
							received[e].Add(1)
							got.Add(1)
						}
						e, ok = s[0], true
					}
				}
				if err != nil && !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("consumer: %v", err)
				}
				if ok {
					received[e].Add(1)
					if got.Add(1) == int64(total) {
						done.Store(true)
					}
				}
			}
		})
		consumerThs = append(consumerThs, th)
	}
	all := append(append([]*thread.Thread(nil), ths...), consumerThs...)

	// chaos: interrupt random threads until every element is delivered
	chaos := thread.OfPlatform().Start(func() {
		cr := rand.New(rand.NewPCG(r.Uint64(), 4))
		for !done.Load() {
			all[cr.IntN(len(all))].Interrupt()
			interrupts.Add(1)
			thread.Sleep(time.Duration(cr.IntN(300)) * time.Microsecond)
		}
	})
	for _, th := range all {
		th.Start()
	}
	deadline := time.Now().Add(40 * time.Second)
	for !done.Load() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !done.Load() {
		t.Errorf("only %d of %d elements delivered in time; queue holds %d", got.Load(), total, q.Len())
		done.Store(true)
	}
	join(t, chaos)
	// release consumers still blocked in Take
	for _, th := range consumerThs {
		for th.IsAlive() {
			th.Interrupt()
			th.JoinTimeout(time.Millisecond)
		}
	}
	for _, th := range all {
		join(t, th)
	}
	for e := range received {
		if n := received[e].Load(); n != 1 {
			t.Errorf("element %d received %d times", e, n)
		}
	}
	if q.Len() != 0 {
		t.Errorf("queue still holds %v", q.ToSlice())
	}
	t.Logf("%d elements, %d interrupts", total, interrupts.Load())
}
