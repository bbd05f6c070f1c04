package unreleasedlock

import (
	"errors"

	"github.com/loomgo/loom/locks"
)

type store struct {
	mu   *locks.ReentrantLock
	rw   *locks.ReentrantReadWriteLock
	data map[string]int
}

func (s *store) earlyReturn(k string) (int, error) {
	s.mu.Lock() // want `s.mu.Lock\(\) is not released on every path: a return at line \d+ leaves it held`
	v, ok := s.data[k]
	if !ok {
		return 0, errors.New("missing")
	}
	s.mu.Unlock()
	return v, nil
}

func (s *store) never(k string) int {
	s.mu.Lock() // want `s.mu.Lock\(\) is not released on every path`
	return s.data[k]
}

func (s *store) readNever(k string) int {
	s.rw.ReadLock().Lock() // want `s.rw.ReadLock\(\).Lock\(\) is not released on every path`
	return s.data[k]
}

func monitorNever(o *store) {
	m := locks.MonitorOf(o)
	m.Enter() // want `m.Enter\(\) is not released on every path`
	o.data["x"]++
}

func loop(s *store, keys []string) {
	for _, k := range keys {
		s.mu.Lock() // want `s.mu.Lock\(\) is not released on every path: a path back to this statement`
		if k == "" {
			continue
		}
		s.data[k]++
		s.mu.Unlock()
	}
}

// Released on every path: not reported.
func (s *store) deferred(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k == "" {
		return 0
	}
	return s.data[k]
}

func (s *store) everyPath(k string) int {
	s.rw.WriteLock().Lock()
	if k == "" {
		s.rw.WriteLock().Unlock()
		return 0
	}
	v := s.data[k]
	s.rw.WriteLock().Unlock()
	return v
}

func (s *store) deferredClosure() {
	m := locks.MonitorOf(s)
	m.Enter()
	defer func() { m.Exit() }()
	s.data["x"]++
}

func (s *store) panics(k string) {
	s.mu.Lock()
	if k == "" {
		panic("empty key") // a panic path is not followed
	}
	s.mu.Unlock()
}

// lock is a helper that returns holding the lock, on purpose.
func (s *store) lock() {
	s.mu.Lock()
}

func (s *store) unlock() { s.mu.Unlock() }
