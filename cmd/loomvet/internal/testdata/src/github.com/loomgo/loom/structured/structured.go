// Package structured is a stub of loom's structured package for loomvet's tests.
package structured

import "github.com/loomgo/loom/thread"

type Scope[T, R any] struct{}

type Option interface{ option() }

type opt struct{}

func (opt) option() {}

func WithThreadFactory(f thread.Factory) Option { return opt{} }
func WithName(name string) Option               { return opt{} }

type Joiner[T, R any] interface {
	OnFork(Subtask[T]) bool
	Result() (R, error)
}

func Open() *Scope[any, struct{}]                                       { return nil }
func OpenWith[T, R any](j Joiner[T, R], options ...Option) *Scope[T, R] { return nil }
func AwaitAll[T any]() Joiner[T, struct{}]                              { return nil }

func (s *Scope[T, R]) Join() (R, error) {
	var zero R
	if err := thread.Sleep(0); err != nil {
		return zero, err
	}
	return zero, nil
}
func (s *Scope[T, R]) Close() {}

type Subtask[T any] struct{}

func Fork[U, T, R any](s *Scope[T, R], task func() (U, error)) Subtask[U] { return Subtask[U]{} }
