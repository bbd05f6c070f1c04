package queue

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"time"

	"github.com/loomgo/loom/thread"
)

// BlockingQueue is java.util.concurrent.BlockingQueue: a queue that additionally supports
// operations that wait for the queue to become non-empty when taking an element, and wait for
// space to become available when storing one.
//
// Each operation comes in the four forms Java has:
//
//	            fails at once      reports            blocks      times out
//	insert      Add (ErrFull)      Offer              Put         OfferTimeout
//	remove      Remove (ErrEmpty)  Poll               Take        PollTimeout
//	examine     -                  Peek               -           -
//
// The blocking forms park the calling thread through [thread.Park], so a virtual thread unmounts
// while it waits; they return [thread.ErrInterrupted] (and clear the interrupt status) if the
// thread is interrupted while waiting, or before a call that has to wait, leaving the queue
// unchanged. Whether an interrupt before the call fails one that need not wait depends on the
// queue, as in Java (see the package documentation). A negative timeout means zero: the call does
// not wait.
//
// Memory: actions in a thread before it puts an element happen before the actions that follow
// the taking of that element in another thread.
type BlockingQueue[T any] interface {
	// Add inserts e if there is room now, otherwise returns [ErrFull]. It ports add.
	Add(e T) error
	// Offer inserts e if there is room now and reports whether it did. It ports offer(e).
	Offer(e T) bool
	// OfferTimeout inserts e, waiting up to d for room; it reports false if none became
	// available in time. It ports offer(e, timeout, unit).
	OfferTimeout(e T, d time.Duration) (bool, error)
	// Put inserts e, waiting as long as necessary for room. It ports put.
	Put(e T) error
	// Take removes and returns the head, waiting as long as necessary for one. It ports take.
	Take() (T, error)
	// Poll removes and returns the head if there is one. It ports poll().
	Poll() (T, bool)
	// PollTimeout removes and returns the head, waiting up to d for one; ok is false if none
	// became available in time. It ports poll(timeout, unit).
	PollTimeout(d time.Duration) (e T, ok bool, err error)
	// Peek returns the head without removing it. It ports peek.
	Peek() (T, bool)
	// Remove removes and returns the head, or returns [ErrEmpty]. It ports remove().
	Remove() (T, error)
	// RemainingCapacity returns how many more elements the queue can accept without blocking
	// ([math.MaxInt32] for unbounded queues, as Integer.MAX_VALUE). It ports remainingCapacity.
	RemainingCapacity() int
	// DrainTo removes at most max available elements, appends them to dst in queue order and
	// returns the extended slice; max <= 0 moves nothing ([math.MaxInt] moves everything). It
	// never blocks. It ports drainTo(c, max) and, with [math.MaxInt], drainTo(c).
	DrainTo(dst []T, max int) []T
	// Len returns the number of elements. It ports size.
	Len() int
	// All iterates over the elements in queue order. The iteration is weakly consistent, as
	// Java's iterators: it never fails because of concurrent change, and yields the elements
	// present at some moment since it began. It ports iterator.
	All() iter.Seq[T]
}

// BlockingDeque is java.util.concurrent.BlockingDeque: a [BlockingQueue] (whose methods act on
// the tail for insertion and the head for removal) that also supports the same four forms of
// each operation at both ends.
type BlockingDeque[T any] interface {
	BlockingQueue[T]
	// AddFirst inserts e at the head if there is room now, otherwise returns [ErrFull]. It ports
	// addFirst.
	AddFirst(e T) error
	// AddLast inserts e at the tail if there is room now, otherwise returns [ErrFull]. It ports
	// addLast.
	AddLast(e T) error
	// OfferFirst inserts e at the head if there is room now and reports whether it did. It ports
	// offerFirst(e).
	OfferFirst(e T) bool
	// OfferLast inserts e at the tail if there is room now and reports whether it did. It ports
	// offerLast(e).
	OfferLast(e T) bool
	// OfferFirstTimeout inserts e at the head, waiting up to d for room; it reports false if none
	// became available in time, and returns [thread.ErrInterrupted] if interrupted. It ports
	// offerFirst(e, timeout, unit).
	OfferFirstTimeout(e T, d time.Duration) (bool, error)
	// OfferLastTimeout inserts e at the tail, waiting up to d for room; it reports false if none
	// became available in time, and returns [thread.ErrInterrupted] if interrupted. It ports
	// offerLast(e, timeout, unit).
	OfferLastTimeout(e T, d time.Duration) (bool, error)
	// PutFirst inserts e at the head, waiting as long as necessary for room; an interrupt ends
	// the wait with [thread.ErrInterrupted]. It ports putFirst.
	PutFirst(e T) error
	// PutLast inserts e at the tail, waiting as long as necessary for room; an interrupt ends
	// the wait with [thread.ErrInterrupted]. It ports putLast.
	PutLast(e T) error
	// TakeFirst removes and returns the head, waiting as long as necessary for one; an
	// interrupt ends the wait with [thread.ErrInterrupted]. It ports takeFirst.
	TakeFirst() (T, error)
	// TakeLast removes and returns the tail, waiting as long as necessary for one; an interrupt
	// ends the wait with [thread.ErrInterrupted]. It ports takeLast.
	TakeLast() (T, error)
	// PollFirst removes and returns the head if there is one. It ports pollFirst().
	PollFirst() (T, bool)
	// PollLast removes and returns the tail if there is one. It ports pollLast().
	PollLast() (T, bool)
	// PollFirstTimeout removes and returns the head, waiting up to d for one; ok is false if
	// none became available in time, and an interrupt ends the wait with
	// [thread.ErrInterrupted]. It ports pollFirst(timeout, unit).
	PollFirstTimeout(d time.Duration) (T, bool, error)
	// PollLastTimeout removes and returns the tail, waiting up to d for one; ok is false if none
	// became available in time, and an interrupt ends the wait with [thread.ErrInterrupted]. It
	// ports pollLast(timeout, unit).
	PollLastTimeout(d time.Duration) (T, bool, error)
	// PeekFirst returns the head without removing it. It ports peekFirst.
	PeekFirst() (T, bool)
	// PeekLast returns the tail without removing it. It ports peekLast.
	PeekLast() (T, bool)
	// RemoveFirst removes and returns the head, or returns [ErrEmpty]. It ports removeFirst.
	RemoveFirst() (T, error)
	// RemoveLast removes and returns the tail, or returns [ErrEmpty]. It ports removeLast.
	RemoveLast() (T, error)
	// Push is AddFirst, as in Java's Deque used as a stack. It ports push.
	Push(e T) error
	// Pop is RemoveFirst, as in Java's Deque used as a stack. It ports pop.
	Pop() (T, error)
	// Backward iterates from the tail to the head (Java's descendingIterator).
	Backward() iter.Seq[T]
}

// TransferQueue is java.util.concurrent.TransferQueue: a [BlockingQueue] in which producers may
// wait for consumers to receive elements.
type TransferQueue[T any] interface {
	BlockingQueue[T]
	// Transfer hands e to a consumer, waiting until one receives it. It ports transfer.
	Transfer(e T) error
	// TryTransfer hands e to a consumer already waiting and reports whether there was one. It
	// ports tryTransfer(e).
	TryTransfer(e T) bool
	// TryTransferTimeout is Transfer that gives up after d, leaving e out of the queue. It ports
	// tryTransfer(e, timeout, unit).
	TryTransferTimeout(e T, d time.Duration) (bool, error)
	// HasWaitingConsumer reports whether a consumer is waiting in Take or PollTimeout.
	HasWaitingConsumer() bool
	// WaitingConsumerCount estimates the number of consumers waiting.
	WaitingConsumerCount() int
}

// Delayed is java.util.concurrent.Delayed: an element of a [DelayQueue], which may be taken only
// once its delay has expired.
type Delayed interface {
	// Delay returns the remaining delay; zero or negative means expired.
	Delay() time.Duration
}

var (
	// ErrFull is Java's IllegalStateException("Queue full"): Add found no room.
	ErrFull = errors.New("queue: full")
	// ErrEmpty is Java's NoSuchElementException: Remove found no element.
	ErrEmpty = errors.New("queue: empty")
)

// Unbounded is the RemainingCapacity of an unbounded queue (Java's Integer.MAX_VALUE).
const Unbounded = math.MaxInt32

// Option configures a queue at construction.
type Option[T any] interface{ apply(*options[T]) }

type options[T any] struct {
	eq    func(a, b T) bool
	elems []T
}

type optionFunc[T any] func(*options[T])

func (f optionFunc[T]) apply(o *options[T]) { f(o) }

// WithEqual sets the equality that Contains and RemoveElement use (Java's equals). Without it
// they compare with ==, which panics at run time for element types that are not comparable.
// A nil eq panics with an error wrapping [thread.ErrNilArgument].
func WithEqual[T any](eq func(a, b T) bool) Option[T] {
	if eq == nil {
		panic(fmt.Errorf("queue: nil equality function: %w", thread.ErrNilArgument))
	}
	return optionFunc[T](func(o *options[T]) { o.eq = eq })
}

// WithElements makes the queue start with elems, in order (Java's constructors that take a
// collection). For a bounded queue, more elements than its capacity panic with an error
// wrapping [thread.ErrIllegalArgument].
func WithElements[T any](elems ...T) Option[T] {
	return optionFunc[T](func(o *options[T]) { o.elems = append(o.elems, elems...) })
}

func buildOptions[T any](opts []Option[T]) options[T] {
	var o options[T]
	for _, op := range opts {
		op.apply(&o)
	}
	if o.eq == nil {
		o.eq = defaultEqual[T]
	}
	return o
}

func defaultEqual[T any](a, b T) bool { return any(a) == any(b) }

func illegalArgument(format string, args ...any) error {
	return fmt.Errorf("queue: "+format+": %w", append(args, thread.ErrIllegalArgument)...)
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
