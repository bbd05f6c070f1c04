package thread

import (
	"fmt"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
)

// Factory creates threads, as java.util.concurrent.ThreadFactory. The factories returned by the
// builders are safe for concurrent use.
type Factory interface {
	// NewThread returns a new, unstarted thread that will run task.
	NewThread(task func()) *Thread
}

// builder holds what both builders share. Builders are not safe for concurrent use (as in Java);
// their factories are.
type builder struct {
	name      string
	prefix    string
	counter   int64
	counting  bool
	noInherit bool
	ueh       func(*Thread, any)
}

func (b *builder) setName(name string) {
	b.name, b.counting = name, false
}

func (b *builder) setCounter(prefix string, start int64) {
	if start < 0 {
		panic(fmt.Errorf("%w: 'start' is negative", ErrIllegalArgument))
	}
	b.prefix, b.counter, b.counting = prefix, start, true
}

func (b *builder) setUEH(h func(*Thread, any)) {
	if h == nil {
		panic(fmt.Errorf("%w: uncaught exception handler", ErrNilArgument))
	}
	b.ueh = h
}

// nextName returns the name of the next thread, advancing the builder's own counter.
func (b *builder) nextName() string {
	if !b.counting {
		return b.name
	}
	n := b.prefix + itoa(b.counter)
	b.counter++
	return n
}

// init gives t, not yet shared, what the builder says: its task, name and handler, and the
// creating thread's inheritable thread-locals. A thread that gets none of these has no extra.
func (b *builder) init(t, cur *Thread, name string, task rt.Runner) {
	t.task = task
	if name != "" {
		n := name // not &name: that would move the parameter to the heap for every thread
		t.more().name.Store(&n)
	}
	if b.ueh != nil {
		t.more().ueh = b.ueh
	}
	if !b.noInherit {
		if pm := cur.moreIfAny(); pm != nil && pm.data.HasLocals() {
			var d rt.Data
			d.InheritFrom(&pm.data)
			if d.HasLocals() {
				t.more().data = d
			}
		}
	}
}

func taskOf(task func()) rt.Runner {
	if task == nil {
		panic(fmt.Errorf("%w: task", ErrNilArgument))
	}
	return funcTask(task)
}

// factory is a Factory that snapshots a builder; its counter is its own, advanced atomically.
type factory struct {
	b       builder
	counter atomic.Int64
	virtual bool
	sched   *Scheduler // virtual: nil means the default (or the creating virtual thread's)
	daemon  *bool      // platform
	prio    int        // platform
}

func (f *factory) NewThread(task func()) *Thread {
	r := taskOf(task)
	t := new(Thread)
	f.init(t, f.nextName(), r)
	return t
}

func (f *factory) nextName() string {
	if f.b.counting {
		return f.b.prefix + itoa(f.counter.Add(1)-1)
	}
	return f.b.name
}

// init makes t, zero and not yet shared, the thread the factory's builder describes.
func (f *factory) init(t *Thread, name string, task rt.Runner) {
	if f.virtual {
		initVirtual(t, f.sched, &f.b, name, task)
	} else {
		initPlatform(t, &f.b, f.daemon, f.prio, name, task)
	}
}

func newFactory(b builder) *factory {
	f := &factory{b: b}
	f.counter.Store(b.counter)
	return f
}

func init() {
	rt.NewVirtual = func(fx any, tx any, r rt.Runner) bool {
		f, ok := fx.(*factory)
		if !ok || !f.virtual {
			return false
		}
		if tx != nil {
			f.init(tx.(*Thread), f.nextName(), r)
		}
		return true
	}
}

// VirtualBuilder builds virtual threads. It ports Thread.Builder.OfVirtual; get one from
// [OfVirtual]. A builder is not safe for concurrent use; the Factory it makes is.
type VirtualBuilder struct {
	b     builder
	sched *Scheduler
}

// OfVirtual returns a new builder of virtual threads. It ports Thread.ofVirtual().
func OfVirtual() *VirtualBuilder { return &VirtualBuilder{} }

// Name gives every thread this builder makes the same name.
func (v *VirtualBuilder) Name(name string) *VirtualBuilder { v.b.setName(name); return v }

// NameCounter names threads prefix+counter, the counter starting at start and advancing with
// each thread the builder makes. A negative start panics with [ErrIllegalArgument]. It ports
// Thread.Builder.name(String, long).
func (v *VirtualBuilder) NameCounter(prefix string, start int64) *VirtualBuilder {
	v.b.setCounter(prefix, start)
	return v
}

// InheritInheritableThreadLocals says whether threads copy the creating thread's inheritable
// thread-locals (the default) or start without any.
func (v *VirtualBuilder) InheritInheritableThreadLocals(inherit bool) *VirtualBuilder {
	v.b.noInherit = !inherit
	return v
}

// UncaughtExceptionHandler sets the handler called, on the failing thread, when a thread's task
// panics. A panic in the handler is ignored, as the JVM ignores an exception thrown by the
// handler; [runtime.Goexit] in it just ends the thread. A nil handler panics with [ErrNilArgument].
func (v *VirtualBuilder) UncaughtExceptionHandler(h func(t *Thread, panicValue any)) *VirtualBuilder {
	v.b.setUEH(h)
	return v
}

// Scheduler makes the threads run on s instead of the default scheduler (nil means the
// default). Java has no public equivalent; it is how loom gives a program, or a test, a
// scheduler with one carrier or Java 21 pinning.
func (v *VirtualBuilder) Scheduler(s *Scheduler) *VirtualBuilder { v.sched = s; return v }

// initVirtual makes t, zero and not yet shared, a new virtual thread on s (nil: the default
// scheduler, or the creating virtual thread's) that runs task.
func initVirtual(t *Thread, s *Scheduler, b *builder, name string, task rt.Runner) {
	cur := Current()
	if s == nil {
		// a virtual thread made by a virtual thread uses its parent's scheduler
		if cur.isVirtual() {
			s = cur.sched
		} else {
			s = DefaultScheduler()
		}
	}
	t.id, t.kind, t.sched = idSeq.Add(1), kindVirtual, s
	b.init(t, cur, name, task)
}

// Unstarted returns a new virtual thread, in state New, that will run task. A nil task panics
// with [ErrNilArgument].
func (v *VirtualBuilder) Unstarted(task func()) *Thread {
	r := taskOf(task)
	t := new(Thread)
	initVirtual(t, v.sched, &v.b, v.b.nextName(), r)
	return t
}

// Start returns a new virtual thread running task (Unstarted, then Start).
func (v *VirtualBuilder) Start(task func()) *Thread {
	t := v.Unstarted(task)
	t.Start()
	return t
}

// Factory returns a Factory, safe for concurrent use, that makes threads as this builder does
// now; its name counter starts where the builder's is and is its own from then on.
func (v *VirtualBuilder) Factory() Factory {
	f := newFactory(v.b)
	f.virtual, f.sched = true, v.sched
	return f
}

// StartVirtualThread starts a new unnamed virtual thread on the default scheduler (or the current
// virtual thread's). It ports Thread.startVirtualThread. A nil task panics with [ErrNilArgument].
func StartVirtualThread(task func()) *Thread { return OfVirtual().Start(task) }

// PlatformBuilder builds platform threads: goroutines locked to an OS thread of their own. It
// ports Thread.Builder.OfPlatform; get one from [OfPlatform].
type PlatformBuilder struct {
	b        builder
	daemon   *bool
	priority int
	stack    int64
}

// OfPlatform returns a new builder of platform threads. It ports Thread.ofPlatform().
func OfPlatform() *PlatformBuilder { return &PlatformBuilder{} }

// Name gives every thread this builder makes the same name (default: "Thread-N").
func (p *PlatformBuilder) Name(name string) *PlatformBuilder { p.b.setName(name); return p }

// NameCounter names threads prefix+counter; see [VirtualBuilder.NameCounter].
func (p *PlatformBuilder) NameCounter(prefix string, start int64) *PlatformBuilder {
	p.b.setCounter(prefix, start)
	return p
}

// InheritInheritableThreadLocals: see [VirtualBuilder.InheritInheritableThreadLocals].
func (p *PlatformBuilder) InheritInheritableThreadLocals(inherit bool) *PlatformBuilder {
	p.b.noInherit = !inherit
	return p
}

// UncaughtExceptionHandler: see [VirtualBuilder.UncaughtExceptionHandler].
func (p *PlatformBuilder) UncaughtExceptionHandler(h func(t *Thread, panicValue any)) *PlatformBuilder {
	p.b.setUEH(h)
	return p
}

// Daemon marks the threads as daemon threads ([AwaitNonDaemon] does not wait for them). Without
// it a thread inherits the creating thread's daemon status.
func (p *PlatformBuilder) Daemon(on bool) *PlatformBuilder { p.daemon = &on; return p }

// Priority sets the threads' priority (1..10, else a panic with [ErrIllegalArgument]). Go does not
// apply it; [Thread.Priority] reports it.
func (p *PlatformBuilder) Priority(prio int) *PlatformBuilder {
	if prio < MinPriority || prio > MaxPriority {
		panic(fmt.Errorf("%w: priority %d not in 1..10", ErrIllegalArgument, prio))
	}
	p.priority = prio
	return p
}

// StackSize records the requested stack size (negative panics with [ErrIllegalArgument]). Go
// grows goroutine stacks on demand, so it is advisory, as the JDK says it may be.
func (p *PlatformBuilder) StackSize(size int64) *PlatformBuilder {
	if size < 0 {
		panic(fmt.Errorf("%w: stack size is negative", ErrIllegalArgument))
	}
	p.stack = size
	return p
}

// initPlatform makes t, zero and not yet shared, a new platform thread that runs task; daemon
// (nil: the creating thread's status) and prio (0: the creating platform thread's) are the
// builder's.
func initPlatform(t *Thread, b *builder, daemon *bool, prio int, name string, task rt.Runner) {
	t.id, t.kind = idSeq.Add(1), kindPlatform
	if name == "" && !b.counting && b.name == "" {
		name = "Thread-" + itoa(platformNameSeq.Add(1)-1)
	}
	cur := Current()
	b.init(t, cur, name, task)
	x := t.more()
	if daemon != nil {
		x.daemon.Store(*daemon)
	} else {
		x.daemon.Store(cur.IsDaemon())
	}
	if prio != 0 {
		x.priority.Store(int32(prio))
	} else if !cur.isVirtual() {
		x.priority.Store(int32(cur.Priority()))
	}
}

// Unstarted returns a new platform thread, in state New, that will run task.
func (p *PlatformBuilder) Unstarted(task func()) *Thread {
	r := taskOf(task)
	t := new(Thread)
	initPlatform(t, &p.b, p.daemon, p.priority, p.b.nextName(), r)
	return t
}

// Start returns a new platform thread running task. It panics with [ErrThreadLimit] when the
// process cannot have another platform thread (build with Unstarted and use TryStart to get an
// error instead).
func (p *PlatformBuilder) Start(task func()) *Thread {
	t := p.Unstarted(task)
	t.Start()
	return t
}

// Factory returns a Factory, safe for concurrent use, that makes threads as this builder does
// now.
func (p *PlatformBuilder) Factory() Factory {
	f := newFactory(p.b)
	f.daemon, f.prio = p.daemon, p.priority
	return f
}
