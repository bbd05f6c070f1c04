package thread_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// The class of defect 7 in thread's own wrappers of user code: Blocking and Native run fn and
// must leave the thread as they found it when fn panics or calls runtime.Goexit -- mounted again
// after Blocking (its OS-thread budget given back), no longer pinned after Native.
func TestBlockingAndNativeUnwindCleanly(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, PinnedThreshold: time.Millisecond})
	defer s.Close()
	for _, wrap := range []struct {
		name string
		run  func(func())
	}{{"Blocking", thread.Blocking}, {"Native", thread.Native}} {
		for _, how := range []string{"panic", "Goexit"} {
			t.Run(wrap.name+"/"+how, func(t *testing.T) {
				var after string
				th := thread.OfVirtual().Scheduler(s).Start(func() {
					func() {
						defer func() { recover() }()
						wrap.run(func() {
							if how == "panic" {
								panic("boom")
							}
							runtime.Goexit()
						})
					}()
					// only after a recovered panic: the thread goes on, mounted and unpinned (a
					// pinned sleep would be a pinned event)
					after = thread.Current().Carrier()
					thread.Sleep(2 * time.Millisecond)
				})
				join(t, th)
				if how == "panic" && after == "" {
					t.Errorf("after %s panicked the thread runs without a carrier", wrap.name)
				}
				// the carrier was passed on, and a pinned park would show as PinnedParked
				other := thread.OfVirtual().Scheduler(s).Start(func() { thread.Sleep(1) })
				join(t, other)
				// (Live counts a thread out just after its joiners are released)
				waitQuiescent(t, s)
				if st := s.Stats(); st.PinnedParked != 0 || st.PinnedEvents != 0 {
					t.Errorf("still pinned after %s unwound: %+v", wrap.name, st)
				}
			})
		}
	}
	// every Blocking gave its budget back: a platform thread limit of the threads alive plus one
	// still lets one start
	thread.SetPlatformThreadLimit(thread.PlatformThreads() + 1)
	defer thread.SetPlatformThreadLimit(0)
	join(t, thread.OfPlatform().Start(func() {}))
}
