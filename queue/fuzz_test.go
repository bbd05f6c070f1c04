package queue_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Model-based fuzzing: a random sequence of operations runs, on one thread, against a queue and
// against a plain slice that says what each operation must return. Operations that would block
// forever on one thread (Put on a full queue, Take on an empty one) are skipped. The seed corpus
// below runs in every `go test`; `go test -fuzz FuzzArrayBlockingQueue` explores further.

// model is the sequential specification: FIFO (or least first) over a slice, with a capacity.
type model struct {
	items    []int
	capacity int // queue.Unbounded for unbounded queues
	prio     bool
	noCap    bool // no capacity at all: RemainingCapacity is always queue.Unbounded
}

// noCapacity stands for the capacity of PriorityBlockingQueue, DelayQueue and
// LinkedTransferQueue, whose RemainingCapacity is Integer.MAX_VALUE whatever their size.
const noCapacity = -1

func (m *model) full() bool { return len(m.items) >= m.capacity }

func (m *model) push(v int, front bool) {
	switch {
	case m.prio:
		i, _ := slices.BinarySearch(m.items, v)
		m.items = slices.Insert(m.items, i, v)
	case front:
		m.items = slices.Insert(m.items, 0, v)
	default:
		m.items = append(m.items, v)
	}
}

func (m *model) pop(back bool) int {
	if back {
		v := m.items[len(m.items)-1]
		m.items = m.items[:len(m.items)-1]
		return v
	}
	v := m.items[0]
	m.items = m.items[1:]
	return v
}

func (m *model) removeValue(v int, last bool) bool {
	i := slices.Index(m.items, v)
	if last {
		i = -1
		for j := len(m.items) - 1; j >= 0; j-- {
			if m.items[j] == v {
				i = j
				break
			}
		}
	}
	if i < 0 {
		return false
	}
	m.items = slices.Delete(m.items, i, i+1)
	return true
}

// fuzzQueue runs the operations encoded in data against q and the model.
func fuzzQueue(t *testing.T, q anyQueue, m *model, data []byte) {
	dq, _ := q.(*queue.LinkedBlockingDeque[int])
	check := func(step int, what string, got, want any) {
		t.Helper()
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("step %d %s (-want +got):\n%s\nmodel %v, queue %v", step, what, diff, m.items, q.ToSlice())
		}
	}
	checkHead := func(step int, what string, got int, ok bool) {
		t.Helper()
		if len(m.items) == 0 {
			check(step, what, ok, false)
			return
		}
		check(step, what, []any{got, ok}, []any{m.pop(false), true})
	}
	for step := 0; step+1 < len(data); step += 2 {
		op, v := data[step], int(data[step+1]%8)
		ops := 18
		if dq != nil {
			ops = 28
		}
		switch int(op) % ops {
		case 0:
			err := q.Add(v)
			check(step, "Add", errors.Is(err, queue.ErrFull), m.full())
			if err == nil {
				m.push(v, false)
			}
		case 1:
			ok := q.Offer(v)
			check(step, "Offer", ok, !m.full())
			if ok {
				m.push(v, false)
			}
		case 2:
			ok, err := q.OfferTimeout(v, -1)
			check(step, "OfferTimeout", []any{ok, err}, []any{!m.full(), nil})
			if ok {
				m.push(v, false)
			}
		case 3:
			if !m.full() {
				check(step, "Put", q.Put(v), nil)
				m.push(v, false)
			}
		case 4:
			if len(m.items) > 0 {
				e, err := q.Take()
				check(step, "Take", []any{e, err}, []any{m.pop(false), nil})
			}
		case 5:
			e, ok := q.Poll()
			checkHead(step, "Poll", e, ok)
		case 6:
			e, ok, err := q.PollTimeout(0)
			check(step, "PollTimeout err", err, nil)
			checkHead(step, "PollTimeout", e, ok)
		case 7:
			e, ok := q.Peek()
			if len(m.items) == 0 {
				check(step, "Peek", ok, false)
			} else {
				check(step, "Peek", []any{e, ok}, []any{m.items[0], true})
			}
		case 8:
			e, err := q.Remove()
			if len(m.items) == 0 {
				check(step, "Remove", errors.Is(err, queue.ErrEmpty), true)
			} else {
				check(step, "Remove", []any{e, err}, []any{m.pop(false), nil})
			}
		case 9:
			want := m.capacity - len(m.items)
			if m.noCap {
				want = queue.Unbounded
			}
			check(step, "RemainingCapacity", q.RemainingCapacity(), want)
		case 10:
			n := v - 2
			got := q.DrainTo([]int{-1}, n)
			want := []int{-1}
			for i := 0; i < n && len(m.items) > 0; i++ {
				want = append(want, m.pop(false))
			}
			check(step, "DrainTo", got, want)
		case 11:
			check(step, "Len", q.Len(), len(m.items))
		case 12:
			check(step, "Contains", q.Contains(v), slices.Contains(m.items, v))
		case 13:
			check(step, "RemoveElement", q.RemoveElement(v), m.removeValue(v, false))
		case 14:
			if v == 0 {
				q.Clear()
				m.items = nil
				break
			}
			pred := func(x int) bool { return x%(v+1) == 0 }
			n := len(m.items)
			m.items = slices.DeleteFunc(m.items, pred)
			check(step, "RemoveIf", q.RemoveIf(pred), n-len(m.items))
		case 15:
			got, all := q.ToSlice(), slices.Collect(q.All())
			if m.prio { // heap order: compare as multisets
				got, all = sorted(got), sorted(all)
			}
			check(step, "ToSlice", got, slices.Clone(m.items))
			check(step, "All", all, slices.Clone(m.items))
		case 16:
			// interrupt status set: a timed poll fails at once, changing nothing (JDK 25's
			// LinkedTransferQueue returns an element that is there, keeping the status)
			thread.Current().Interrupt()
			e, ok, err := q.PollTimeout(0)
			if _, ltq := q.(*queue.LinkedTransferQueue[int]); ltq && len(m.items) > 0 {
				check(step, "interrupted PollTimeout", []any{e, ok, err}, []any{m.pop(false), true, nil})
				check(step, "status kept", thread.Interrupted(), true)
				break
			}
			check(step, "interrupted PollTimeout", errors.Is(err, thread.ErrInterrupted), true)
			check(step, "status cleared", thread.Current().IsInterrupted(), false)
		case 17:
			e, err := q.Element()
			if len(m.items) == 0 {
				check(step, "Element", errors.Is(err, queue.ErrEmpty), true)
			} else {
				check(step, "Element", []any{e, err}, []any{m.items[0], nil})
			}
		// deque-only operations
		case 18:
			ok := dq.OfferFirst(v)
			check(step, "OfferFirst", ok, !m.full())
			if ok {
				m.push(v, true)
			}
		case 19:
			err := dq.Push(v)
			check(step, "Push", errors.Is(err, queue.ErrFull), m.full())
			if err == nil {
				m.push(v, true)
			}
		case 20:
			if !m.full() {
				check(step, "PutFirst", dq.PutFirst(v), nil)
				m.push(v, true)
			}
		case 21:
			e, ok := dq.PollLast()
			if len(m.items) == 0 {
				check(step, "PollLast", ok, false)
			} else {
				check(step, "PollLast", []any{e, ok}, []any{m.pop(true), true})
			}
		case 22:
			if len(m.items) > 0 {
				e, err := dq.TakeLast()
				check(step, "TakeLast", []any{e, err}, []any{m.pop(true), nil})
			}
		case 23:
			e, ok := dq.PeekLast()
			if len(m.items) == 0 {
				check(step, "PeekLast", ok, false)
			} else {
				check(step, "PeekLast", []any{e, ok}, []any{m.items[len(m.items)-1], true})
			}
		case 24:
			check(step, "RemoveLastOccurrence", dq.RemoveLastOccurrence(v), m.removeValue(v, true))
		case 25:
			check(step, "Backward", slices.Collect(dq.Backward()), reversed(m.items))
		case 26:
			// JDK 25's takeLast uses lock(): an element that is there is returned to an
			// interrupted thread, which stays interrupted; on an empty deque it would wait, so
			// it fails with the status cleared
			thread.Current().Interrupt()
			e, err := dq.TakeLast()
			if len(m.items) > 0 {
				check(step, "interrupted TakeLast", []any{e, err}, []any{m.pop(true), nil})
				check(step, "status kept", thread.Interrupted(), true)
			} else {
				check(step, "interrupted TakeLast", errors.Is(err, thread.ErrInterrupted), true)
				check(step, "status cleared", thread.Current().IsInterrupted(), false)
			}
		case 27:
			// putFirst likewise inserts if there is room
			thread.Current().Interrupt()
			err := dq.PutFirst(v)
			if !m.full() {
				check(step, "interrupted PutFirst", err, nil)
				check(step, "status kept", thread.Interrupted(), true)
				m.push(v, true)
			} else {
				check(step, "interrupted PutFirst", errors.Is(err, thread.ErrInterrupted), true)
				check(step, "status cleared", thread.Current().IsInterrupted(), false)
			}
		}
	}
	check(len(data), "final contents", sortedIf(m.prio, q.ToSlice()), slices.Clone(m.items))
}

func reversed(s []int) []int {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

func sortedIf(b bool, s []int) []int {
	if b {
		return sorted(s)
	}
	return s
}

func seedCorpus(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 3, 5, 0, 15, 0, 4, 0})
	f.Add([]byte{1, 1, 1, 2, 1, 3, 1, 4, 1, 5, 13, 3, 15, 0, 10, 4, 11, 0, 9, 0})
	f.Add([]byte{3, 7, 3, 6, 3, 5, 12, 6, 13, 6, 7, 0, 8, 0, 8, 0, 8, 0, 16, 0, 17, 0})
	f.Add([]byte{0, 5, 0, 5, 0, 5, 13, 5, 14, 0, 0, 1, 2, 2, 6, 0, 15, 0, 10, 7})
	f.Add([]byte{18, 1, 19, 2, 20, 3, 21, 0, 22, 0, 23, 0, 24, 1, 25, 0, 0, 4, 18, 5, 19, 6, 25, 0, 15, 0})
	f.Add([]byte{0, 1, 0, 2, 16, 0, 26, 0, 27, 3, 27, 4, 27, 5, 27, 6, 26, 0, 26, 0, 26, 0, 26, 0, 26, 0, 16, 0})
	f.Add([]byte("the quick brown fox jumps over the lazy dog, again and again and again"))
}

func fuzzKind(f *testing.F, capacity int, prio bool, mk func() anyQueue) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m := &model{capacity: capacity, prio: prio}
		if capacity == noCapacity {
			m.capacity, m.noCap = queue.Unbounded, true
		}
		fuzzQueue(t, mk(), m, data)
	})
}

func FuzzArrayBlockingQueue(f *testing.F) {
	fuzzKind(f, 4, false, func() anyQueue { return queue.NewArrayBlockingQueue[int](4, false) })
}

func FuzzArrayBlockingQueueFair(f *testing.F) {
	fuzzKind(f, 3, false, func() anyQueue { return queue.NewArrayBlockingQueue[int](3, true) })
}

func FuzzLinkedBlockingQueue(f *testing.F) {
	fuzzKind(f, 5, false, func() anyQueue { return queue.NewLinkedBlockingQueue[int](5) })
}

func FuzzLinkedBlockingQueueUnbounded(f *testing.F) {
	fuzzKind(f, queue.Unbounded, false, func() anyQueue { return new(queue.LinkedBlockingQueue[int]) })
}

func FuzzLinkedBlockingDeque(f *testing.F) {
	fuzzKind(f, 4, false, func() anyQueue { return queue.NewLinkedBlockingDeque[int](4) })
}

func FuzzPriorityBlockingQueue(f *testing.F) {
	fuzzKind(f, noCapacity, true, func() anyQueue {
		return queue.NewPriorityBlockingQueue(func(a, b int) int { return a - b })
	})
}

func FuzzDelayQueue(f *testing.F) {
	fuzzKind(f, noCapacity, true, func() anyQueue { return &delayAdapter{q: new(queue.DelayQueue[expiredInt])} })
}

func FuzzLinkedTransferQueue(f *testing.F) {
	fuzzKind(f, noCapacity, false, func() anyQueue { return new(queue.LinkedTransferQueue[int]) })
}

// A SynchronousQueue used by one thread is both empty and full: the model has capacity 0.
func FuzzSynchronousQueue(f *testing.F) {
	fuzzKind(f, 0, false, func() anyQueue { return new(queue.SynchronousQueue[int]) })
}

func FuzzSynchronousQueueFair(f *testing.F) {
	fuzzKind(f, 0, false, func() anyQueue { return queue.NewSynchronousQueue[int](true) })
}
