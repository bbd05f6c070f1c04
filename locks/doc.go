// Package locks ports java.util.concurrent.locks and its neighbours: the locks, conditions,
// monitors and synchronizers a Java programmer reaches for, with the same behaviour on loom's
// virtual and platform threads.
//
//	Java                                         loom
//	java.util.concurrent.locks.ReentrantLock     [ReentrantLock]
//	java.util.concurrent.locks.Condition         [Condition]
//	java.util.concurrent.locks.ReentrantReadWriteLock  [ReentrantReadWriteLock], [ReadLock], [WriteLock]
//	java.util.concurrent.Semaphore               [Semaphore]
//	java.util.concurrent.CountDownLatch          [CountDownLatch]
//	java.util.concurrent.CyclicBarrier           [CyclicBarrier]
//	java.util.concurrent.Phaser                  [Phaser]
//	java.util.concurrent.Exchanger               [Exchanger]
//	java.util.concurrent.locks.StampedLock       [StampedLock]
//	synchronized, Object.wait/notify/notifyAll   [Monitor], [MonitorOf]
//	IllegalMonitorStateException                 [ErrIllegalMonitorState] (a panic)
//	InterruptedException                         thread.ErrInterrupted (a returned error)
//	IllegalArgumentException                     thread.ErrIllegalArgument (a panic)
//
// # Blocking, interrupts, timeouts
//
// Every blocking method waits through loom's one park primitive ([thread.Park]), via one shared
// wait queue (the role AbstractQueuedSynchronizer plays in Java). So a virtual thread that waits
// for a lock, a permit or a signal unmounts and gives its carrier to another virtual thread;
// interrupts, timeouts and thread states (WAITING, TIMED_WAITING, BLOCKED for monitors) behave
// the same everywhere; and (*thread.Thread).Blocker names the lock a thread waits for, whose
// Owner method names the thread holding it (deadlock detection walks that chain).
//
// Interruptible methods (LockInterruptibly, TryLockTimeout, Await, Acquire, Wait ...) check the
// interrupt status on entry and while waiting, return [thread.ErrInterrupted] and clear the
// status, as Java throws InterruptedException. The others (Lock, AcquireUninterruptibly,
// AwaitUninterruptibly, [Monitor.Enter]) keep waiting and return with the status set. Timed
// methods report a timeout as false, never as an error. On failure nothing is held and nothing
// is consumed.
//
// Locks are owned by threads ([thread.Current]), not goroutines; they work on goroutines loom
// did not start too, each of which is a platform thread to loom. Programmer errors (unlocking a
// lock you do not hold, negative permits) panic with an error value that [errors.Is] recognises,
// as Java throws an unchecked exception.
//
// # Monitors and pinning
//
// [Monitor] is Java's per-object monitor, and what it does to a virtual thread depends on the
// scheduler's [thread.PinningMode]: under [thread.PinSynchronized] (Java 21-23) a virtual thread
// holding a monitor is pinned, so parking inside Synchronized keeps its carrier (reported to
// SchedulerOptions.OnPinned with reason "MONITOR"), and contended Enter pins too; Wait pins but
// is compensated with a temporary extra carrier. Under [thread.PinNone] (Java 24+, the default)
// monitors never pin. The classic experiment, one carrier and four virtual threads that each
// sleep 200 ms inside their own monitor, takes ~800 ms under PinSynchronized and ~200 ms under
// PinNone; with a [ReentrantLock] it takes ~200 ms in both modes.
//
// # When to use plain Go instead
//
// [sync.Mutex], [sync.RWMutex] and channels are faster and simpler when you do not need what these
// types add: ownership and reentrancy, interruptible and timed waits, fairness, conditions with
// Java's semantics, and the cooperation with virtual threads (a goroutine that blocks in
// [sync.Mutex] on a virtual thread keeps its carrier; one that blocks in a [ReentrantLock] does
// not). On amd64 an uncontended [ReentrantLock] or [Monitor] costs about 1.1-1.3 times a
// [sync.Mutex] (a call each for Lock and Unlock, which [sync.Mutex] inlines, and the owner
// checks); elsewhere, and under the race detector, about 1.2-1.5 times.
package locks
