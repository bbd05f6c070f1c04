// Package thread is a stub of loom's thread package for loomvet's tests: the same names and
// signatures, bodies just enough for the analyzers (which read how ErrInterrupted is returned).
package thread

import (
	"errors"
	"time"
)

var ErrInterrupted = errors.New("thread: interrupted")

type Thread struct{ interrupted bool }

func Current() *Thread { return &Thread{} }

func (t *Thread) Interrupt()  { t.interrupted = true }
func (t *Thread) Start()      {}
func (t *Thread) Join() error { return park(-1) }
func (t *Thread) JoinTimeout(d time.Duration) (bool, error) {
	if err := park(d); err != nil {
		return false, err
	}
	return true, nil
}

// park returns ErrInterrupted when the current thread is interrupted.
func park(d time.Duration) error {
	if Current().interrupted {
		return ErrInterrupted
	}
	return nil
}

func Sleep(d time.Duration) error { return park(d) }
func Yield()                      {}
func Blocking(fn func())          { fn() }
func Native(fn func())            { fn() }

func StartVirtualThread(task func()) *Thread { return &Thread{} }

type Factory interface {
	NewThread(task func()) *Thread
}

type VirtualBuilder struct{}

func OfVirtual() *VirtualBuilder                        { return &VirtualBuilder{} }
func (v *VirtualBuilder) Name(string) *VirtualBuilder   { return v }
func (v *VirtualBuilder) Start(task func()) *Thread     { return &Thread{} }
func (v *VirtualBuilder) Unstarted(task func()) *Thread { return &Thread{} }
func (v *VirtualBuilder) Factory() Factory              { return factory{} }

type PlatformBuilder struct{}

func OfPlatform() *PlatformBuilder                       { return &PlatformBuilder{} }
func (p *PlatformBuilder) Start(task func()) *Thread     { return &Thread{} }
func (p *PlatformBuilder) Unstarted(task func()) *Thread { return &Thread{} }
func (p *PlatformBuilder) Factory() Factory              { return factory{} }

type factory struct{}

func (factory) NewThread(task func()) *Thread { return &Thread{} }
