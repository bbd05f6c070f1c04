package structured

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/thread"
)

// Option configures a scope opened by [OpenWith]. It ports StructuredTaskScope.Configuration (Java
// passes a function of the default configuration; Go passes options).
type Option interface {
	apply(*config)
}

type config struct {
	name       string
	factory    thread.Factory
	timeout    time.Duration
	hasTimeout bool
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithName names the scope (its String, for thread dumps and messages). It ports
// Configuration.withName.
func WithName(name string) Option {
	return optionFunc(func(c *config) { c.name = name })
}

// WithTimeout gives the scope a timeout, counted from [OpenWith]: when it expires the scope is
// cancelled and Join returns an error wrapping [ErrTimeout]. A timeout <= 0 has already expired.
// It ports Configuration.withTimeout.
func WithTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) { c.timeout, c.hasTimeout = d, true })
}

// WithThreadFactory makes the scope create its subtask threads with f instead of as unnamed
// virtual threads (for example, named ones, or platform threads). A nil f panics with an error
// wrapping [thread.ErrNilArgument]. It ports Configuration.withThreadFactory.
func WithThreadFactory(f thread.Factory) Option {
	if f == nil {
		panic(fmt.Errorf("%w: structured: thread factory", thread.ErrNilArgument))
	}
	return optionFunc(func(c *config) { c.factory = f })
}
