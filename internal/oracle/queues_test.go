package oracle_test

import (
	"math"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Every blocking queue's edge cases: the twins of java/QueueScenarios.java.
func queueScenarios() []scenario {
	const suite = "QueueScenarios"
	return []scenario{
		{suite, "queue_array_edges", queueArrayEdges},
		{suite, "queue_linked_edges", queueLinkedEdges},
		{suite, "queue_interrupt_on_entry", queueInterruptOnEntry},
		{suite, "queue_blocked_calls_interrupted", queueBlockedCallsInterrupted},
		{suite, "queue_array_fair_producers", queueArrayFairProducers},
		{suite, "queue_drain_to", queueDrainTo},
		{suite, "queue_deque_ops", queueDequeOps},
		{suite, "queue_priority_order", queuePriorityOrder},
		{suite, "queue_delay_order", queueDelayOrder},
		{suite, "queue_synchronous_edges", queueSynchronousEdges},
		{suite, "queue_synchronous_fair_order", queueSynchronousFairOrder},
		{suite, "queue_transfer", queueTransfer},
		{suite, "queue_remove_contains", queueRemoveContains},
	}
}

// val adapts a comma-ok result to Log.Val: Java's null when !ok.
func val[T any](fn func() (T, bool)) func() (any, error) {
	return func() (any, error) { v, ok := fn(); return opt(v, ok), nil }
}

// valErr adapts a (value, error) result to Log.Val.
func valErr[T any](fn func() (T, error)) func() (any, error) {
	return func() (any, error) { return fn() }
}

// valTimed adapts a timed poll, (value, ok, error), to Log.Val.
func valTimed[T any](fn func() (T, bool, error)) func() (any, error) {
	return func() (any, error) {
		v, ok, err := fn()
		return opt(v, ok), err
	}
}

func queueArrayEdges(lg *Log) {
	lg.Call("new ArrayBlockingQueue(0)", ok(func() { queue.NewArrayBlockingQueue[string](0, false) }))
	q := queue.NewArrayBlockingQueue[string](2, false)
	lg.Call("add a", func() error { return q.Add("a") })
	lg.Call("add b", func() error { return q.Add("b") })
	lg.Call("add c to a full queue", func() error { return q.Add("c") })
	lg.Val("offer c to a full queue", func() (any, error) { return q.Offer("c"), nil })
	lg.Val("offer(c, 1 ms) to a full queue", func() (any, error) { return q.OfferTimeout("c", time.Millisecond) })
	lg.P("%s size %s remaining %s peek %s contains b %s contains z %s", q, q.Len(), q.RemainingCapacity(), opt(q.Peek()), q.Contains("b"), q.Contains("z"))
	lg.Val("element", valErr(q.Element))
	lg.Val("remove()", valErr(q.Remove))
	lg.Val("poll", val(q.Poll))
	lg.Val("poll empty", val(q.Poll))
	lg.Val("peek empty", val(q.Peek))
	lg.Val("element empty", valErr(q.Element))
	lg.Val("remove() empty", valErr(q.Remove))
	lg.Val("poll(1 ms) empty", valTimed(func() (string, bool, error) { return q.PollTimeout(time.Millisecond) }))
	lg.Val("poll(0) empty", valTimed(func() (string, bool, error) { return q.PollTimeout(0) }))
	lg.P("%s size %s remaining %s", q, q.Len(), q.RemainingCapacity())
}

func queueLinkedEdges(lg *Log) {
	// Java's new LinkedBlockingQueue(0) throws IllegalArgumentException; loom's capacity <= 0
	// means unbounded, Java's no-argument constructor (DESIGN.md), so that case is not compared.
	unbounded := queue.NewLinkedBlockingQueue[string](0)
	lg.P("unbounded remaining %s", unbounded.RemainingCapacity())
	q := queue.NewLinkedBlockingQueue[string](1)
	q.Put("a")
	lg.Val("offer b to a full queue", func() (any, error) { return q.Offer("b"), nil })
	lg.Call("add b to a full queue", func() error { return q.Add("b") })
	lg.P("%s remaining %s", q, q.RemainingCapacity())
	lg.Val("take", valErr(q.Take))
	lg.Val("remove() empty", valErr(q.Remove))
	lg.Val("element empty", valErr(q.Element))
	p := queue.NewPriorityBlockingQueue(func(a, b int) int { return a - b })
	lg.P("priority queue remaining %s", p.RemainingCapacity())
	lg.P("delay queue remaining %s", queue.NewDelayQueue[item]().RemainingCapacity())
	lg.P("transfer queue remaining %s", queue.NewLinkedTransferQueue[string]().RemainingCapacity())
}

func queueInterruptOnEntry(lg *Log) {
	self := thread.Current()
	for _, k := range []struct {
		kind string
		q    queue.BlockingQueue[string]
	}{
		{"ArrayBlockingQueue", queue.NewArrayBlockingQueue[string](2, false)},
		{"LinkedBlockingQueue", queue.NewLinkedBlockingQueue[string](2)},
		{"LinkedBlockingDeque", queue.NewLinkedBlockingDeque[string](2)},
	} {
		kind, q := k.kind, k.q
		self.Interrupt()
		lg.Call(kind+": put with room and the status set", func() error { return q.Put("a") })
		self.Interrupt()
		lg.Val(kind+": offer(1 h) with room and the status set", func() (any, error) { return q.OfferTimeout("a", hour) })
		self.Interrupt()
		lg.Val(kind+": offer with the status set", func() (any, error) { return q.Offer("a"), nil })
		lg.P("%s: size %s interrupted %s", kind, q.Len(), self.IsInterrupted())
		lg.Val(kind+": take with an element and the status set", valErr(q.Take))
		self.Interrupt()
		lg.Val(kind+": poll(1 h) with an element and the status set", valTimed(func() (string, bool, error) { return q.PollTimeout(hour) }))
		self.Interrupt()
		lg.Val(kind+": poll with the status set", val(q.Poll))
		lg.P("%s: size %s interrupted %s", kind, q.Len(), thread.Interrupted())
	}
}

func queueBlockedCallsInterrupted(lg *Log) {
	full := queue.NewArrayBlockingQueue[string](1, false)
	full.Add("x")
	empty := queue.NewLinkedBlockingQueue[string](0)
	sync := queue.NewSynchronousQueue[string](false)
	ltq := queue.NewLinkedTransferQueue[string]()
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"put on a full ArrayBlockingQueue", func() error { return full.Put("y") }},
		{"take on an empty LinkedBlockingQueue", func() error { _, err := empty.Take(); return err }},
		{"put on a SynchronousQueue", func() error { return sync.Put("y") }},
		{"take on a SynchronousQueue", func() error { _, err := sync.Take(); return err }},
		{"transfer on a LinkedTransferQueue", func() error { return ltq.Transfer("y") }},
	} {
		t := thread.StartVirtualThread(func() {
			lg.Call(c.name+", interrupted", c.call)
			lg.P("interrupted after: %s", thread.Current().IsInterrupted())
		})
		awaitState(lg, t, thread.Waiting)
		t.Interrupt()
		t.Join()
	}
	lg.P("full %s empty %s sync %s transfer queue %s", full, empty, sync, ltq)
}

// producersServed blocks one producer after another in put on a full (or hand-off) queue, each
// waiting before the next starts, then takes n elements: the order shows whom q served first.
func producersServed(lg *Log, q queue.BlockingQueue[string], n int) []string {
	var ts []*thread.Thread
	for _, name := range []string{"p1", "p2", "p3"} {
		t := thread.StartVirtualThread(func() { q.Put(name) })
		awaitState(lg, t, thread.Waiting)
		ts = append(ts, t)
	}
	var got []string
	for range n {
		v, _ := q.Take()
		got = append(got, v)
	}
	join(lg, ts...)
	return got
}

func queueArrayFairProducers(lg *Log) {
	q := queue.NewArrayBlockingQueue[string](1, true)
	q.Put("first")
	lg.P("taken %s", producersServed(lg, q, 4))
}

func queueDrainTo(lg *Log) {
	q := queue.NewLinkedBlockingQueue(0, queue.WithElements(1, 2, 3, 4, 5))
	var out []int
	out = q.DrainTo(out, 2)
	lg.P("drainTo(max 2) %s -> %s, left %s", len(out), out, q)
	n := len(out)
	out = q.DrainTo(out, 0)
	lg.P("drainTo(max 0) %s", len(out)-n)
	n = len(out)
	out = q.DrainTo(out, math.MaxInt)
	lg.P("drainTo(all) %s -> %s, left %s", len(out)-n, out, q)
	full := queue.NewArrayBlockingQueue(2, false, queue.WithElements("a", "b"))
	putter := thread.StartVirtualThread(func() { full.Put("c") })
	awaitState(lg, putter, thread.Waiting)
	drained := full.DrainTo(nil, math.MaxInt)
	putter.Join()
	lg.P("drained %s; the blocked putter went on: %s", drained, full)
}

func queueDequeOps(lg *Log) {
	d := queue.NewLinkedBlockingDeque[string](3)
	d.AddFirst("a")
	d.AddLast("b")
	lg.Val("offerFirst c", func() (any, error) { return d.OfferFirst("c"), nil })
	lg.Val("offerLast d to a full deque", func() (any, error) { return d.OfferLast("d"), nil })
	lg.Call("addFirst d to a full deque", func() error { return d.AddFirst("d") })
	lg.Call("push d to a full deque", func() error { return d.Push("d") })
	lg.Val("offerFirst(d, 1 ms) to a full deque", func() (any, error) { return d.OfferFirstTimeout("d", time.Millisecond) })
	lg.P("%s peekFirst %s peekLast %s", d, opt(d.PeekFirst()), opt(d.PeekLast()))
	var back []string
	for e := range d.Backward() {
		back = append(back, e)
	}
	lg.P("descending %s", back)
	lg.Val("pollLast", val(d.PollLast))
	lg.Val("pop", valErr(d.Pop))
	d.Push("x")
	d.AddLast("x")
	lg.P("%s removeLastOccurrence(x) %s -> %s", d, d.RemoveLastOccurrence("x"), d)
	d.AddLast("x")
	lg.P("removeFirstOccurrence(x) %s -> %s", d.RemoveFirstOccurrence("x"), d)
	lg.Val("takeLast", valErr(d.TakeLast))
	lg.Val("takeFirst", valErr(d.TakeFirst))
	lg.Val("removeFirst empty", valErr(d.RemoveFirst))
	lg.Val("removeLast empty", valErr(d.RemoveLast))
	lg.Val("pop empty", valErr(d.Pop))
	lg.Val("pollFirst empty", val(d.PollFirst))
	lg.Val("peekLast empty", val(d.PeekLast))
	lg.Val("pollLast(1 ms) empty", valTimed(func() (string, bool, error) { return d.PollLastTimeout(time.Millisecond) }))
	taker := thread.StartVirtualThread(func() { lg.Val("takeLast, blocked until putFirst", valErr(d.TakeLast)) })
	awaitState(lg, taker, thread.Waiting)
	d.PutFirst("y")
	taker.Join()
}

func queuePriorityOrder(lg *Log) {
	q := queue.NewPriorityBlockingQueue(func(a, b int) int { return b - a }) // Comparator.reverseOrder()
	for _, x := range []int{5, 1, 4, 2, 3} {
		q.Put(x)
	}
	lg.P("size %s peek %s", q.Len(), opt(q.Peek()))
	var out []int
	v, _ := q.Poll()
	out = append(out, v)
	out = q.DrainTo(out, 2)
	lg.P("poll then drainTo(max 2): %s", out)
	t, _ := q.Take()
	a, aok := q.Poll()
	b, bok := q.Poll()
	lg.P("take %s poll %s poll %s", t, opt(a, aok), opt(b, bok))
	taker := thread.StartVirtualThread(func() { lg.Val("take, blocked until put", valErr(q.Take)) })
	awaitState(lg, taker, thread.Waiting)
	q.Put(7)
	taker.Join()
}

// item is a Delayed element with a fixed deadline (Java: QueueScenarios.Item).
type item struct {
	name     string
	deadline time.Time
}

func itemIn(name string, d time.Duration) item { return item{name, time.Now().Add(d)} }

func (i item) Delay() time.Duration { return time.Until(i.deadline) }
func (i item) String() string       { return i.name }

func queueDelayOrder(lg *Log) {
	q := queue.NewDelayQueue[item]()
	q.Put(itemIn("later", hour))
	q.Put(itemIn("expired-1s", -time.Second))
	q.Put(itemIn("expired-3s", -3*time.Second))
	q.Put(itemIn("expired-2s", -2*time.Second))
	lg.P("size %s peek %s", q.Len(), opt(q.Peek()))
	a, aok := q.Poll()
	b, bok := q.Poll()
	lg.P("poll %s poll %s", opt(a, aok), opt(b, bok))
	out := q.DrainTo(nil, math.MaxInt)
	lg.P("drainTo %s -> %s", len(out), out)
	lg.Val("poll with only an unexpired element", val(q.Poll))
	lg.Val("poll(1 ms)", valTimed(func() (item, bool, error) { return q.PollTimeout(time.Millisecond) }))
	lg.P("size %s peek %s", q.Len(), opt(q.Peek()))
	lg.Val("remove() with only an unexpired element", valErr(q.Remove))
	lg.P("size %s", q.Len())
}

func queueSynchronousEdges(lg *Log) {
	q := queue.NewSynchronousQueue[string](false)
	lg.P("size %s empty %s remaining %s peek %s poll %s contains %s %s", q.Len(), q.Len() == 0, q.RemainingCapacity(), opt(q.Peek()), opt(q.Poll()), q.Contains("x"), q)
	lg.Val("offer without a taker", func() (any, error) { return q.Offer("x"), nil })
	lg.Call("add without a taker", func() error { return q.Add("x") })
	lg.Val("offer(1 ms) without a taker", func() (any, error) { return q.OfferTimeout("x", time.Millisecond) })
	lg.Val("poll(1 ms) without a putter", valTimed(func() (string, bool, error) { return q.PollTimeout(time.Millisecond) }))
	lg.Val("element", valErr(q.Element))
	var out [2]string
	taker := thread.StartVirtualThread(func() { out[0] = valOf(valErr(q.Take)) })
	awaitState(lg, taker, thread.Waiting)
	offered := q.Offer("handed")
	taker.Join()
	lg.P("offer with a taker waiting -> %s; take -> %s", offered, out[0])
	putter := thread.StartVirtualThread(func() { out[1] = of(func() error { return q.Put("put") }) })
	awaitState(lg, putter, thread.Waiting)
	lg.P("a putter waits: size %s peek %s", q.Len(), opt(q.Peek()))
	polled := valOf(val(q.Poll))
	putter.Join()
	lg.P("poll with a putter waiting -> %s; put -> %s", polled, out[1])
}

func queueSynchronousFairOrder(lg *Log) {
	lg.P("fair hand-off order %s", producersServed(lg, queue.NewSynchronousQueue[string](true), 3))
}

func queueTransfer(lg *Log) {
	q := queue.NewLinkedTransferQueue[string]()
	lg.Val("tryTransfer without a consumer", func() (any, error) { return q.TryTransfer("x"), nil })
	lg.Val("tryTransfer(1 ms) without a consumer", func() (any, error) { return q.TryTransferTimeout("x", time.Millisecond) })
	lg.P("size %s hasWaitingConsumer %s", q.Len(), q.HasWaitingConsumer())
	var out [2]string
	taker := thread.StartVirtualThread(func() { out[0] = valOf(valErr(q.Take)) })
	awaitState(lg, taker, thread.Waiting)
	lg.P("consumer waiting: hasWaitingConsumer %s count %s", q.HasWaitingConsumer(), q.WaitingConsumerCount())
	tried := q.TryTransfer("handed")
	taker.Join()
	lg.P("tryTransfer with a consumer waiting -> %s; take -> %s", tried, out[0])
	transferrer := thread.StartVirtualThread(func() { out[1] = of(func() error { return q.Transfer("transferred") }) })
	awaitState(lg, transferrer, thread.Waiting)
	lg.P("a transfer waits: size %s peek %s", q.Len(), opt(q.Peek()))
	taken := valOf(valErr(q.Take))
	transferrer.Join()
	lg.P("take -> %s; transfer -> %s", taken, out[1])
	q.Put("p")
	lg.Val("offer", func() (any, error) { return q.Offer("o"), nil })
	lg.P("put and offer never block: %s", q)
}

func queueRemoveContains(lg *Log) {
	q := queue.NewLinkedBlockingQueue(0, queue.WithElements("a", "b", "a", "c"))
	lg.P("remove(a) %s -> %s", q.RemoveElement("a"), q)
	lg.P("remove(z) %s contains a %s contains z %s", q.RemoveElement("z"), q.Contains("a"), q.Contains("z"))
	q.Add("a")
	lg.P("removeIf(a) %s -> %s", q.RemoveIf(func(s string) bool { return s == "a" }) > 0, q)
	lg.P("toArray %s", q.ToSlice())
	var seen []string
	for s := range q.All() {
		seen = append(seen, s)
	}
	lg.P("iteration %s", seen)
	q.Clear()
	lg.P("clear: %s size %s", q, q.Len())
}
