package demo

import (
	"errors"
	"sync"

	"github.com/loomgo/loom/thread"
)

// executor is the part of executors.ExecutorService the experiments use.
type executor interface {
	Execute(task func()) error
	Close() error
}

// perTask starts a thread per task from a factory and Close joins them all (the shape of
// Executors.newThreadPerTaskExecutor).
type perTask struct {
	f       thread.Factory
	mu      sync.Mutex
	threads []*thread.Thread
}

func (p *perTask) Execute(task func()) error {
	t := p.f.NewThread(task)
	if err := t.TryStart(); err != nil {
		return err
	}
	p.mu.Lock()
	p.threads = append(p.threads, t)
	p.mu.Unlock()
	return nil
}

func (p *perTask) Close() error {
	p.mu.Lock()
	ts := p.threads
	p.threads = nil
	p.mu.Unlock()
	for _, t := range ts {
		t.Join()
	}
	return nil
}

// fixedPool is n platform threads taking tasks from a FIFO list (the shape of
// Executors.newFixedThreadPool).
type fixedPool struct {
	mu      sync.Mutex
	tasks   []func()
	idle    []*thread.Thread
	closed  bool
	workers []*thread.Thread
}

func newFixedPool(n int) *fixedPool {
	p := &fixedPool{}
	for range n {
		p.workers = append(p.workers, thread.OfPlatform().Daemon(true).Start(p.work))
	}
	return p
}

func (p *fixedPool) work() {
	me := thread.Current()
	for {
		p.mu.Lock()
		if len(p.tasks) > 0 {
			t := p.tasks[0]
			p.tasks = p.tasks[1:]
			p.mu.Unlock()
			t()
			continue
		}
		if p.closed {
			p.mu.Unlock()
			return
		}
		p.idle = append(p.idle, me)
		p.mu.Unlock()
		thread.Park()
	}
}

var errClosed = errors.New("pool closed")

func (p *fixedPool) Execute(task func()) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errClosed
	}
	p.tasks = append(p.tasks, task)
	var w *thread.Thread
	if n := len(p.idle); n > 0 {
		w = p.idle[n-1]
		p.idle = p.idle[:n-1]
	}
	p.mu.Unlock()
	thread.Unpark(w)
	return nil
}

func (p *fixedPool) Close() error {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, w := range idle {
		thread.Unpark(w)
	}
	for _, w := range p.workers {
		w.Join()
	}
	return nil
}

func newVirtualPerTask(s *thread.Scheduler) executor {
	return &perTask{f: thread.OfVirtual().Scheduler(s).Factory()}
}

func newFixed(n int) executor { return newFixedPool(n) }

// newCached starts a platform thread per task: with tasks that all sleep, a cached pool never
// finds an idle thread to reuse, so this is what Executors.newCachedThreadPool does for them.
func newCached() executor {
	return &perTask{f: thread.OfPlatform().Daemon(true).Factory()}
}
