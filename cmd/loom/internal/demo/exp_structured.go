package demo

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

// scopeFailFast opens a StructuredTaskScope (Java 21's ShutdownOnFailure) with a fork that fails
// after 100 ms and one that would take 2 s: the failure cancels the scope, the slow fork is
// interrupted, and Join fails at about 100 ms.
func scopeFailFast(c *Config) Outcome {
	var slowInterrupted atomic.Bool
	start := time.Now()
	s := structured.Open()
	structured.Fork(s, func() (string, error) {
		if err := thread.Sleep(2 * time.Second); err != nil {
			slowInterrupted.Store(errors.Is(err, thread.ErrInterrupted))
			return "", err
		}
		return "slow", nil
	})
	structured.Fork(s, func() (string, error) {
		sleepFor(100 * time.Millisecond)
		return "", errors.New("inventory service down")
	})
	_, err := s.Join()
	el := time.Since(start)
	s.Close()
	var failed *structured.FailedError
	ok := errors.As(err, &failed) && slowInterrupted.Load() && el < time.Second
	return Outcome{
		Loom:    fmt.Sprintf("failed in %s (%v), slow fork interrupted: %v", ms(el), err, slowInterrupted.Load()),
		Same:    ok,
		Verdict: fmt.Sprintf("a *FailedError after %s (not 2 s), slow fork saw thread.ErrInterrupted: %v", under(el, time.Second), slowInterrupted.Load()),
		Figures: map[string]float64{"elapsed_ms": msf(el)},
	}
}

// scopeFirstSuccess opens a scope whose joiner takes the first successful result (Java 21's
// ShutdownOnSuccess) over forks that take 300, 50 and 150 ms: the 50 ms one wins and the others
// are cancelled.
func scopeFirstSuccess(c *Config) Outcome {
	var cancelled atomic.Int32
	start := time.Now()
	s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
	for _, src := range []struct {
		name string
		d    time.Duration
	}{{"database", 300 * time.Millisecond}, {"cache", 50 * time.Millisecond}, {"replica", 150 * time.Millisecond}} {
		structured.Fork(s, func() (string, error) {
			if err := thread.Sleep(src.d); err != nil {
				cancelled.Add(1)
				return "", err
			}
			return src.name, nil
		})
	}
	winner, err := s.Join()
	el := time.Since(start)
	s.Close()
	if err != nil {
		return Outcome{Err: err}
	}
	return Outcome{
		Loom:    fmt.Sprintf("%q wins in %s; %d slower forks interrupted", winner, ms(el), cancelled.Load()),
		Same:    winner == "cache" && cancelled.Load() == 2 && el < 300*time.Millisecond,
		Verdict: fmt.Sprintf("%q won in %s, %d others cancelled", winner, under(el, 300*time.Millisecond), cancelled.Load()),
		Figures: map[string]float64{"elapsed_ms": msf(el)},
	}
}
