package bench

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/thread"
)

// Cases returns every benchmark, grouped; the first case of each group is its baseline.
func Cases() []Case {
	var cs []Case
	cs = append(cs, threadCases()...)
	cs = append(cs, lockCases()...)
	cs = append(cs, queueCases()...)
	cs = append(cs, localCases()...)
	cs = append(cs, executorCases()...)
	cs = append(cs, vioCases()...)
	cs = append(cs, jucCases()...)
	return cs
}

func threadCases() []Case {
	const burst = 1000
	return []Case{
		{Group: "start+join one thread", Name: "goroutine+WaitGroup", F: func(b *testing.B) {
			var wg sync.WaitGroup
			for b.Loop() {
				wg.Add(1)
				go func() { wg.Done() }()
				wg.Wait()
			}
		}},
		{Group: "start+join one thread", Name: "virtual thread", Java: "virtual-start-join", F: func(b *testing.B) {
			for b.Loop() {
				join(b, thread.StartVirtualThread(func() {}))
			}
		}},
		{Group: "start+join one thread", Name: "platform thread (OS thread)", Java: "platform-start-join", F: func(b *testing.B) {
			pb := thread.OfPlatform().Daemon(true)
			for b.Loop() {
				join(b, pb.Start(func() {}))
			}
		}},

		{Group: "burst of 1,000 short tasks", Name: "goroutine per task", Note: "per burst", F: func(b *testing.B) {
			var n atomic.Int64
			var wg sync.WaitGroup
			for b.Loop() {
				wg.Add(burst)
				for range burst {
					go func() { n.Add(1); wg.Done() }()
				}
				wg.Wait()
			}
		}},
		{Group: "burst of 1,000 short tasks", Name: "virtual thread per task", Java: "virtual-burst-1000", Note: "per burst", F: func(b *testing.B) {
			var n atomic.Int64
			ths := make([]*thread.Thread, burst)
			vb := thread.OfVirtual()
			for b.Loop() {
				for i := range ths {
					ths[i] = vb.Start(func() { n.Add(1) })
				}
				join(b, ths...)
			}
		}},

		{Group: "ping-pong between two threads", Name: "goroutines, unbuffered channels", Note: "per round trip", F: func(b *testing.B) {
			ping, pong := make(chan struct{}), make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range ping {
					pong <- struct{}{}
				}
			}()
			for b.Loop() {
				ping <- struct{}{}
				<-pong
			}
			close(ping)
			<-done
		}},
		{Group: "ping-pong between two threads", Name: "virtual threads, Park/Unpark", Java: "park-ping-pong", Note: "per round trip", F: func(b *testing.B) {
			parkPingPong(b, thread.OfVirtual())
		}},
		{Group: "ping-pong between two threads", Name: "virtual threads on 1 carrier, Park/Unpark", Java: "park-ping-pong", JavaOptions: []string{"-Djdk.virtualThreadScheduler.parallelism=1"}, Note: "per round trip", F: func(b *testing.B) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			parkPingPong(b, thread.OfVirtual().Scheduler(s))
		}},
	}
}

// parkPingPong bounces a turn between two virtual threads b.N times with LockSupport-style
// park/unpark.
func parkPingPong(b *testing.B, vb *thread.VirtualBuilder) {
	n := b.N
	var turn atomic.Int32
	var pa, pb *thread.Thread
	pa = vb.Unstarted(func() {
		for range n {
			for turn.Load() != 0 {
				thread.Park()
			}
			turn.Store(1)
			thread.Unpark(pb)
		}
	})
	pb = vb.Unstarted(func() {
		for range n {
			for turn.Load() != 1 {
				thread.Park()
			}
			turn.Store(0)
			thread.Unpark(pa)
		}
	})
	b.ResetTimer()
	pa.Start()
	pb.Start()
	join(b, pa, pb)
}
