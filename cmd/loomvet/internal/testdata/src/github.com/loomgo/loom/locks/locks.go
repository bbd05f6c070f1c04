// Package locks is a stub of loom's locks package for loomvet's tests.
package locks

import (
	"time"

	"github.com/loomgo/loom/thread"
)

type ReentrantLock struct{ held int }

func NewReentrantLock(fair bool) *ReentrantLock { return &ReentrantLock{} }
func (l *ReentrantLock) Lock()                  { l.held++ }
func (l *ReentrantLock) Unlock()                { l.held-- }
func (l *ReentrantLock) TryLock() bool          { return true }
func (l *ReentrantLock) LockInterruptibly() error {
	if thread.Current() == nil {
		return thread.ErrInterrupted
	}
	return nil
}
func (l *ReentrantLock) TryLockTimeout(d time.Duration) (bool, error) {
	if err := l.LockInterruptibly(); err != nil {
		return false, err
	}
	return true, nil
}
func (l *ReentrantLock) NewCondition() *Condition { return &Condition{} }

type ReentrantReadWriteLock struct{ r ReadLock }

func NewReentrantReadWriteLock(fair bool) *ReentrantReadWriteLock { return &ReentrantReadWriteLock{} }
func (rw *ReentrantReadWriteLock) ReadLock() *ReadLock            { return &rw.r }
func (rw *ReentrantReadWriteLock) WriteLock() *WriteLock          { return (*WriteLock)(rw) }

type ReadLock struct{ held int }

func (r *ReadLock) Lock()   {}
func (r *ReadLock) Unlock() {}

type WriteLock ReentrantReadWriteLock

func (w *WriteLock) Lock()   {}
func (w *WriteLock) Unlock() {}

type Condition struct{}

func (c *Condition) Await() error { return thread.Sleep(-1) }
func (c *Condition) AwaitTimeout(d time.Duration) (bool, error) {
	if err := c.Await(); err != nil {
		return false, err
	}
	return true, nil
}
func (c *Condition) Signal() {}

type Monitor struct{ held int }

func MonitorOf[T any](p *T) *Monitor      { return &Monitor{} }
func (m *Monitor) Enter()                 {}
func (m *Monitor) Exit()                  {}
func (m *Monitor) Synchronized(fn func()) { m.Enter(); defer m.Exit(); fn() }
func (m *Monitor) Wait() error            { return thread.Sleep(-1) }
func (m *Monitor) Notify()                {}

type CountDownLatch struct{}

func NewCountDownLatch(n int) *CountDownLatch { return &CountDownLatch{} }
func (l *CountDownLatch) Await() error        { return thread.Sleep(-1) }
func (l *CountDownLatch) CountDown()          {}

type Semaphore struct{}

func NewSemaphore(n int, fair bool) *Semaphore { return &Semaphore{} }
func (s *Semaphore) Acquire() error            { return thread.Sleep(-1) }
func (s *Semaphore) TryAcquire() bool          { return true }
func (s *Semaphore) Release()                  {}

type CyclicBarrier struct{}

func (b *CyclicBarrier) Await() (int, error) {
	if err := thread.Sleep(-1); err != nil {
		return 0, err
	}
	return 0, nil
}
