// Package queue ports the blocking queues of java.util.concurrent: [BlockingQueue],
// [BlockingDeque] and [TransferQueue], with the implementations a Java programmer knows:
//
//	Java                          loom
//	ArrayBlockingQueue            [ArrayBlockingQueue]      bounded ring buffer, optional fairness
//	LinkedBlockingQueue           [LinkedBlockingQueue]     optionally bounded, two locks
//	LinkedBlockingDeque           [LinkedBlockingDeque]     optionally bounded, both ends
//	PriorityBlockingQueue         [PriorityBlockingQueue]   unbounded, ordered by a comparison
//	DelayQueue                    [DelayQueue]              unbounded, elements wait out a delay
//	SynchronousQueue              [SynchronousQueue]        no capacity: a rendezvous
//	LinkedTransferQueue           [LinkedTransferQueue]     unbounded, producers may wait for consumers
//
// Every operation that waits parks the calling thread through [thread.Park], as the JDK's
// queues do through LockSupport, so a virtual thread unmounts while it waits and gives its
// carrier to another virtual thread, the thread shows WAITING or TIMED_WAITING, and an interrupt
// wakes it: the waiting call returns [thread.ErrInterrupted] and clears the interrupt status,
// leaving the queue as it was. The lock-based queues wait on the conditions of a
// [locks.ReentrantLock] (notEmpty, notFull), exactly as in Java ([ArrayBlockingQueue] on those of
// a reentrant lock of its own, built on the same wait queue, that looks the current thread up
// once per operation); [SynchronousQueue] and
// [LinkedTransferQueue] park on the nodes of a dual queue. Before it parks, a waiting thread looks
// again a few dozen times with the lock released, as Java's synchronizers spin briefly: a
// partner on another carrier usually arrives sooner than a park and a resume would take.
//
// Whether a thread interrupted before the call fails even when the call need not wait differs
// from queue to queue, as it does in JDK 25 (each follows its Java class):
//
//	ArrayBlockingQueue, LinkedBlockingQueue     Take, Put, PollTimeout and OfferTimeout fail at
//	                                            once (Java's lockInterruptibly)
//	PriorityBlockingQueue, DelayQueue           Take and PollTimeout fail at once; Put and
//	                                            OfferTimeout never wait and ignore the status
//	LinkedBlockingDeque                         the timed forms fail at once; Take, Put and their
//	                                            First/Last forms (Java's lock()) succeed if they
//	                                            need not wait, leaving the status set
//	LinkedTransferQueue                         Take and Transfer fail at once; PollTimeout and
//	                                            TryTransferTimeout succeed if an element (a consumer)
//	                                            is there, leaving the status set
//	SynchronousQueue                            Take and Put fail at once; PollTimeout and
//	                                            OfferTimeout succeed if a partner waits, leaving
//	                                            the status set
//
// A call that has to wait fails when interrupted, before or while it waits, in every queue.
//
// Java's exceptions become errors: a full queue's Add returns [ErrFull]
// (IllegalStateException "Queue full"), an empty queue's Remove returns [ErrEmpty]
// (NoSuchElementException), and Java's null results become comma-ok pairs. A negative timeout
// means zero, as in Java: the call does not wait. Programming errors panic with an error that
// [errors.Is] recognises: a capacity <= 0 for an [ArrayBlockingQueue] wraps
// [thread.ErrIllegalArgument], a nil comparison function wraps [thread.ErrNilArgument].
//
// Go has no null, so "the queue rejects null elements" has no counterpart: every value of T,
// including its zero value, is an element. Contains and RemoveElement compare elements with ==
// unless the queue was made [WithEqual]; iteration (All) is weakly consistent, as Java's
// iterators: it never fails because of concurrent change.
//
// When to use plain Go instead: between goroutines that loom does not manage, a buffered channel
// is the idiomatic bounded FIFO queue and is faster; these queues are for code that is ported
// from Java, that needs the queue's extra operations (peek, remove an element, drain, deque ends,
// priorities, delays, transfer), or that must behave like Java under interrupts and on virtual
// threads.
package queue
