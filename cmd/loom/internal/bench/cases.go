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
	cs = append(cs, scaleCases()...)
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
		{Group: "start+join one thread", Name: "virtual thread", Note: "from a virtual thread", Java: "virtual-start-join", Goal: 1.6, F: func(b *testing.B) {
			onVirtualThread(b, func(n int) {
				for range n {
					join(b, thread.StartVirtualThread(func() {}))
				}
			})
		}},
		{Group: "start+join one thread", Name: "platform thread (OS thread)", Note: "from a virtual thread", Java: "platform-start-join",
			JavaRemark: "an OS thread created and ended per op, in Java as in loom: slow on both sides, as it should be",
			F: func(b *testing.B) {
				pb := thread.OfPlatform().Daemon(true)
				onVirtualThread(b, func(n int) {
					for range n {
						join(b, pb.Start(func() {}))
					}
				})
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
		{Group: "burst of 1,000 short tasks", Name: "virtual thread per task", Java: "virtual-burst-1000", Note: "per burst, from a virtual thread", F: func(b *testing.B) {
			var count atomic.Int64
			ths := make([]*thread.Thread, burst)
			vb := thread.OfVirtual()
			onVirtualThread(b, func(n int) {
				for range n {
					for i := range ths {
						ths[i] = vb.Start(func() { count.Add(1) })
					}
					join(b, ths...)
				}
			})
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
		{Group: "ping-pong between two threads", Name: "virtual threads, Park/Unpark", Java: "park-ping-pong", Note: "per round trip", Goal: 1.5, F: func(b *testing.B) {
			onVirtualThread(b, func(n int) { parkPingPong(b, thread.OfVirtual(), n) })
		}},
		{Group: "ping-pong between two threads", Name: "virtual threads on 1 carrier, Park/Unpark", Java: "park-ping-pong", JavaOptions: []string{"-Djdk.virtualThreadScheduler.parallelism=1"}, Note: "per round trip", JavaGoal: 1, F: func(b *testing.B) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			onVirtualThread(b, func(n int) { parkPingPong(b, thread.OfVirtual().Scheduler(s), n) })
		}},
	}
}

// onVirtualThread runs body(b.N) on a virtual thread and times body alone. Every case with a Java
// twin runs its loop so, as the twin does in Bench.java: a blocking call (a join, a get, a take)
// then parks a virtual thread on both sides. (From the benchmark's goroutine, which loom sees as a
// platform thread, a join parks a goroutine, cheaply; in Java a platform thread's join parks an OS
// thread, which costs tens of microseconds: the two would not measure the same thing.)
func onVirtualThread(b *testing.B, body func(n int)) {
	n := b.N
	b.StopTimer()
	b.ResetTimer()
	join(b, thread.StartVirtualThread(func() {
		b.StartTimer()
		body(n)
		b.StopTimer()
	}))
}

// parkPingPong bounces a turn between two virtual threads of vb n times with LockSupport-style
// park/unpark.
func parkPingPong(b *testing.B, vb *thread.VirtualBuilder, n int) {
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
	pa.Start()
	pb.Start()
	join(b, pa, pb)
}
