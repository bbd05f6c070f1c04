package locals

import (
	"context"
	"sync"
	"testing"

	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
	"github.com/petermattis/goid"
	"github.com/timandy/routine"
)

var sink any
var sinkInt int

// onVirtual runs body on a virtual thread (the way loom code runs) and waits for it.
func onVirtual(b *testing.B, body func()) {
	b.Helper()
	thread.OfVirtual().Start(body).Join()
}

// ThreadLocal.Get: loom vs routine vs sync.Map vs a plain map, on one goroutine.
func BenchmarkThreadLocalGet(b *testing.B) {
	b.Run("loom/virtual", func(b *testing.B) {
		tl := threadlocal.New[int]()
		onVirtual(b, func() {
			tl.Set(42)
			b.ResetTimer()
			for range b.N {
				sinkInt += tl.Get()
			}
		})
	})
	b.Run("loom/goroutine", func(b *testing.B) { // a goroutine loom did not start (attached)
		tl := threadlocal.New[int]()
		tl.Set(42)
		b.ResetTimer()
		for range b.N {
			sinkInt += tl.Get()
		}
	})
	b.Run("routine", func(b *testing.B) {
		tl := routine.NewThreadLocal[int]()
		tl.Set(42)
		b.ResetTimer()
		for range b.N {
			sinkInt += tl.Get()
		}
	})
	b.Run("sync.Map/goid-key", func(b *testing.B) { // a hand-made thread-local: goroutine id -> value
		var m sync.Map
		m.Store(goid.Get(), 42)
		b.ResetTimer()
		for range b.N {
			v, _ := m.Load(goid.Get())
			sinkInt += v.(int)
		}
	})
	b.Run("sync.Map/Load", func(b *testing.B) {
		var m sync.Map
		m.Store(uint64(1), 42)
		b.ResetTimer()
		for range b.N {
			v, _ := m.Load(uint64(1))
			sinkInt += v.(int)
		}
	})
	b.Run("map/lookup", func(b *testing.B) {
		m := map[uint64]any{1: 42}
		b.ResetTimer()
		for range b.N {
			sinkInt += m[1].(int)
		}
	})
}

// ThreadLocal.Get from many goroutines at once.
func BenchmarkThreadLocalGetParallel(b *testing.B) {
	b.Run("loom", func(b *testing.B) {
		tl := threadlocal.WithInitial(func() int { return 42 })
		b.RunParallel(func(pb *testing.PB) {
			defer thread.Detach()
			n := 0
			for pb.Next() {
				n += tl.Get()
			}
			sink = n
		})
	})
	b.Run("routine", func(b *testing.B) {
		tl := routine.NewThreadLocalWithInitial[int](func() int { return 42 })
		b.RunParallel(func(pb *testing.PB) {
			n := 0
			for pb.Next() {
				n += tl.Get()
			}
			sink = n
		})
	})
	b.Run("sync.Map/goid-key", func(b *testing.B) {
		var m sync.Map
		b.RunParallel(func(pb *testing.PB) {
			id := goid.Get()
			m.Store(id, 42)
			n := 0
			for pb.Next() {
				v, _ := m.Load(goid.Get())
				n += v.(int)
			}
			sink = n
		})
	})
}

func BenchmarkThreadLocalSet(b *testing.B) {
	b.Run("loom/virtual", func(b *testing.B) {
		tl := threadlocal.New[int]()
		onVirtual(b, func() {
			b.ResetTimer()
			for i := range b.N {
				tl.Set(i)
			}
		})
	})
	b.Run("routine", func(b *testing.B) {
		tl := routine.NewThreadLocal[int]()
		for i := range b.N {
			tl.Set(i)
		}
	})
}

type ctxKey int

// ScopedValue.Get vs context.Value, with the value bound innermost and under 4 other bindings.
func BenchmarkScopedGet(b *testing.B) {
	for _, depth := range []int{1, 5} {
		name := map[int]string{1: "depth1", 5: "depth5"}[depth]
		b.Run("scoped/"+name, func(b *testing.B) {
			v := scoped.NewInstance[int]()
			others := make([]*scoped.Value[int], depth-1)
			for i := range others {
				others[i] = scoped.NewInstance[int]()
			}
			onVirtual(b, func() {
				var nest func(i int)
				nest = func(i int) {
					if i == len(others) {
						b.ResetTimer()
						for range b.N {
							sinkInt += v.Get()
						}
						return
					}
					scoped.Where(others[i], i).Run(func() { nest(i + 1) })
				}
				scoped.Where(v, 42).Run(func() { nest(0) })
			})
		})
		b.Run("context/"+name, func(b *testing.B) {
			ctx := context.WithValue(context.Background(), ctxKey(0), 42)
			for i := 1; i < depth; i++ {
				ctx = context.WithValue(ctx, ctxKey(i), i)
			}
			b.ResetTimer()
			for range b.N {
				sinkInt += ctx.Value(ctxKey(0)).(int)
			}
		})
	}
}

// Binding and running: scoped.Where(..).Run vs context.WithValue.
func BenchmarkScopedBind(b *testing.B) {
	b.Run("scoped/Where.Run", func(b *testing.B) {
		v := scoped.NewInstance[int]()
		onVirtual(b, func() {
			b.ResetTimer()
			for i := range b.N {
				scoped.Where(v, i).Run(func() { sinkInt += v.Get() })
			}
		})
	})
	b.Run("context/WithValue", func(b *testing.B) {
		for i := range b.N {
			ctx := context.WithValue(context.Background(), ctxKey(0), i)
			sinkInt += ctx.Value(ctxKey(0)).(int)
		}
	})
}
