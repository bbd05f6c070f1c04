package thread

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/loomgo/loom/internal/carrier"
)

// The blocking watchdog (beyond Java).
//
// A virtual thread that blocks in Go's own ways (a channel, sync.Mutex, time.Sleep, a syscall)
// keeps its carrier: loom cannot unmount a goroutine it does not see park. Java has the same
// hazard with pinning, and JFR reports it; the watchdog does the same for Go-native blocking.
// Every half threshold it looks at the busy carriers; a carrier that has run the same mount for a
// whole threshold, whose virtual thread is RUNNABLE to loom but whose goroutine the Go runtime
// reports as waiting ("chan receive", "sync.Mutex.Lock", "syscall", ...), is reported as a
// PinnedEvent with reason "NATIVE_BLOCKING", the runtime's wait reason as the blocking operation
// and the goroutine's stack, and printed by TracePinned like a pinned park. With
// WatchdogCompensate the scheduler also lends a temporary carrier (up to
// MaxPoolSize) until that mount ends.
//
// Reading goroutine states costs a stop-the-world stack dump, so it is done only when some mount
// has outlived the threshold. The watchdog goroutine runs while its scheduler has live virtual
// threads and ends when it has none (or is closed).

type seenMount struct {
	seq   uint64
	ticks int // consecutive ticks it has been seen at
}

type watchState struct {
	seen        map[*carrier.Slot]seenMount
	reported    map[*carrier.Slot]uint64 // mount seq already reported
	compensated map[*carrier.Slot]uint64 // mount seq a carrier was lent for
}

func (s *Scheduler) startWatchdog() {
	if s.opts.WatchdogThreshold <= 0 || !s.wdRunning.CompareAndSwap(false, true) {
		return
	}
	go s.watchdog()
}

// wakeWatchdog tells the watchdog that the scheduler has no live thread (it ends then, instead
// of at its next tick, which may be far off for a long threshold).
func (s *Scheduler) wakeWatchdog() {
	if s.wdRunning.Load() {
		select {
		case s.wdIdle <- struct{}{}:
		default:
		}
	}
}

func (s *Scheduler) watchdog() {
	st := watchState{seen: map[*carrier.Slot]seenMount{}, reported: map[*carrier.Slot]uint64{}, compensated: map[*carrier.Slot]uint64{}}
	tick := time.NewTicker(max(s.opts.WatchdogThreshold/2, 100*time.Microsecond)) // 1ns/2 would panic
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			s.watch(&st)
		case <-s.wdIdle:
		}
		if s.live() == 0 {
			for range st.compensated {
				s.pool.EndCompensate()
			}
			s.wdRunning.Store(false)
			// a thread started after the check above found the flag still set: run on for it
			if s.live() == 0 || !s.wdRunning.CompareAndSwap(false, true) {
				return
			}
			st = watchState{seen: map[*carrier.Slot]seenMount{}, reported: map[*carrier.Slot]uint64{}, compensated: map[*carrier.Slot]uint64{}}
		}
	}
}

func (s *Scheduler) watch(st *watchState) {
	mounts := s.pool.Mounts()
	current := map[*carrier.Slot]seenMount{}
	var long []carrier.Mount
	for _, m := range mounts {
		sm := seenMount{seq: m.Seq}
		if prev, ok := st.seen[m.Slot]; ok && prev.seq == m.Seq {
			sm.ticks = prev.ticks + 1
		}
		current[m.Slot] = sm
		// seen at three ticks half a threshold apart: the mount has lasted a threshold
		if sm.ticks >= 2 && st.reported[m.Slot] != m.Seq {
			long = append(long, m)
		}
	}
	// end the compensation of mounts that are over
	for sl, seq := range st.compensated {
		if current[sl].seq != seq {
			delete(st.compensated, sl)
			s.pool.EndCompensate()
		}
	}
	st.seen = current
	if len(long) == 0 {
		return
	}
	waits := goroutineWaits()
	for _, m := range long {
		w, blocked := waits[m.Gid]
		if !blocked {
			continue
		}
		t := (*Thread)(m.Cur)
		if t == nil || t.gid != m.Gid || t.rawState() != Runnable {
			continue // parked in loom while pinned: reported as a pinned park instead
		}
		st.reported[m.Slot] = m.Seq
		s.pinnedEvents.Add(1)
		t.tracePinned(s.opts.WatchdogThreshold, "NATIVE_BLOCKING", w.reason)
		if s.opts.OnPinned != nil {
			ev := PinnedEvent{Thread: t, Carrier: m.Slot.Name, Duration: s.opts.WatchdogThreshold,
				Reason: "NATIVE_BLOCKING", BlockingOperation: w.reason, Stack: w.stack}
			callUser("SchedulerOptions.OnPinned", func() { s.opts.OnPinned(ev) })
		}
		if s.opts.TracePinned != "" {
			callUser("SchedulerOptions.TraceOutput", func() { s.trace(t, "NATIVE_BLOCKING", w.stack) }) // as a pinned park is traced
		}
		if s.opts.WatchdogCompensate {
			if _, ok := st.compensated[m.Slot]; !ok && s.pool.Compensate() {
				st.compensated[m.Slot] = m.Seq
			}
		}
	}
}

// goroutineWait is what the runtime says of a waiting goroutine: why it waits ("chan receive",
// "sync.Mutex.Lock", "IO wait", ...) and its stack, in runtime.Stack's format.
type goroutineWait struct {
	reason string
	stack  []byte
}

// goroutineWaits returns every goroutine that is waiting, by id. Running and runnable goroutines
// are left out.
func goroutineWaits() map[int64]goroutineWait {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	waits := map[int64]goroutineWait{}
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		// goroutine 18 [chan receive, 2 minutes]:
		line, _, _ := bytes.Cut(g, []byte("\n"))
		if !bytes.HasPrefix(line, []byte("goroutine ")) {
			continue
		}
		l := string(line)
		open, close := strings.IndexByte(l, '['), strings.IndexByte(l, ']')
		if open < 0 || close < open {
			continue
		}
		id, err := strconv.ParseInt(strings.Fields(l[:open])[1], 10, 64)
		if err != nil {
			continue
		}
		reason, _, _ := strings.Cut(l[open+1:close], ",")
		if reason == "running" || reason == "runnable" {
			continue
		}
		waits[id] = goroutineWait{reason: reason, stack: g}
	}
	return waits
}
