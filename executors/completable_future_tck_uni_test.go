package executors_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/executors"
)

// Ports of CompletableFutureTest's one-source stages, each in the three execution modes, on a
// virtual and a platform driver thread.

func TestCompletableFutureTest_testExceptionally_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					var ran atomic.Int32
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf {
						return m.exceptionally(c, f, func(error) (*item, error) {
							ran.Add(1)
							return nil, errors.New("should not be called")
						})
					})
					checkCompletedNormally(c.T, g, v1)
					checkCompletedNormally(c.T, f, v1)
					if ran.Load() != 0 {
						c.Errorf("%v: function ran %d times", m, ran.Load())
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testExceptionally_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					var ran atomic.Int32
					ex := newCFException()
					_, g := stage(incomplete, failWith[*item](ex), func(f *cf) *cf {
						return m.exceptionally(c, f, func(err error) (*item, error) {
							c.checkExecutionMode(m)
							if err != ex {
								c.Errorf("function saw %v, want %v", err, ex)
							}
							ran.Add(1)
							return v1, nil
						})
					})
					checkCompletedNormally(c.T, g, v1)
					if ran.Load() != 1 {
						c.Errorf("%v: function ran %d times", m, ran.Load())
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testExceptionally_exceptionalCompletionActionFailed(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				var ran atomic.Int32
				ex1, ex2 := newCFException(), newCFException()
				f, g := stage(incomplete, failWith[*item](ex1), func(f *cf) *cf {
					return m.exceptionally(c, f, func(err error) (*item, error) {
						c.checkExecutionMode(m)
						if err != ex1 {
							c.Errorf("function saw %v", err)
						}
						ran.Add(1)
						return nil, ex2
					})
				})
				checkCompletedExceptionally(c.T, g, ex2)
				checkCompletedExceptionally(c.T, f, ex1)
				if ran.Load() != 1 {
					c.Errorf("%v: function ran %d times", m, ran.Load())
				}
			}
		}
	})
}

func TestCompletableFutureTest_testWhenComplete_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					var ran atomic.Int32
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf {
						return m.whenComplete(c, f, func(v *item, err error) {
							c.checkExecutionMode(m)
							if v != v1 || err != nil {
								c.Errorf("action saw %v, %v", v, err)
							}
							ran.Add(1)
						})
					})
					checkCompletedNormally(c.T, g, v1)
					checkCompletedNormally(c.T, f, v1)
					if ran.Load() != 1 {
						c.Errorf("%v: action ran %d times", m, ran.Load())
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testWhenComplete_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				var ran atomic.Int32
				ex := newCFException()
				f, g := stage(incomplete, failWith[*item](ex), func(f *cf) *cf {
					return m.whenComplete(c, f, func(v *item, err error) {
						c.checkExecutionMode(m)
						if v != nil || err != ex {
							c.Errorf("action saw %v, %v", v, err)
						}
						ran.Add(1)
					})
				})
				checkCompletedExceptionally(c.T, g, ex)
				checkCompletedExceptionally(c.T, f, ex)
				if ran.Load() != 1 || g.Suppressed() != nil {
					c.Errorf("%v: action ran %d times, suppressed %v", m, ran.Load(), g.Suppressed())
				}
			}
		}
	})
}

func TestCompletableFutureTest_testWhenComplete_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				var ran atomic.Int32
				f, g := stage(incomplete, cancel[*item], func(f *cf) *cf {
					return m.whenComplete(c, f, func(v *item, err error) {
						c.checkExecutionMode(m)
						if v != nil || !errors.Is(err, executors.ErrCancelled) {
							c.Errorf("action saw %v, %v", v, err)
						}
						ran.Add(1)
					})
				})
				checkCompletedWithWrappedCancellation(c.T, g)
				checkCancelled(c.T, f)
				if ran.Load() != 1 {
					c.Errorf("%v: action ran %d times", m, ran.Load())
				}
			}
		}
	})
}

func TestCompletableFutureTest_testWhenComplete_sourceCompletedNormallyActionFailed(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, incomplete := range createIncomplete {
			for _, m := range executionModes {
				for _, v1 := range values {
					a := c.newAction(m)
					fail := a.failingRunnable()
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf {
						return m.whenComplete(c, f, func(v *item, err error) {
							if v != v1 || err != nil {
								c.Errorf("action saw %v, %v", v, err)
							}
							fail()
						})
					})
					failedWith(c, g, a)
					checkCompletedNormally(c.T, f, v1)
					a.assertInvoked()
				}
			}
		}
	})
}

// The source's failure takes precedence over the action's (unlike handle); the action's panic is
// the stage's Suppressed error (Java: ex1.getSuppressed()[0] == ex2).
func TestCompletableFutureTest_testWhenComplete_sourceFailedActionFailed(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, incomplete := range createIncomplete {
			for _, m := range executionModes {
				a := c.newAction(m)
				fail := a.failingRunnable()
				ex1 := newCFException()
				f, g := stage(incomplete, failWith[*item](ex1), func(f *cf) *cf {
					return m.whenComplete(c, f, func(v *item, err error) {
						if v != nil || err != ex1 {
							c.Errorf("action saw %v, %v", v, err)
						}
						fail()
					})
				})
				checkCompletedExceptionally(c.T, g, ex1)
				checkCompletedExceptionally(c.T, f, ex1)
				var pe *executors.PanicError
				if s := g.Suppressed(); !errors.As(s, &pe) || pe.Value != a.ex {
					c.Errorf("%v: Suppressed = %v, want the action's panic", m, s)
				}
				a.assertInvoked()
			}
		}
	})
}

func TestCompletableFutureTest_testHandle_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					var ran atomic.Int32
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf {
						return m.handle(c, f, func(v *item, err error) (*item, error) {
							c.checkExecutionMode(m)
							if v != v1 || err != nil {
								c.Errorf("function saw %v, %v", v, err)
							}
							ran.Add(1)
							return inc(v1), nil
						})
					})
					checkCompletedNormally(c.T, g, inc(v1))
					checkCompletedNormally(c.T, f, v1)
					if ran.Load() != 1 {
						c.Errorf("%v: function ran %d times", m, ran.Load())
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testHandle_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					var ran atomic.Int32
					ex := newCFException()
					f, g := stage(incomplete, failWith[*item](ex), func(f *cf) *cf {
						return m.handle(c, f, func(v *item, err error) (*item, error) {
							c.checkExecutionMode(m)
							if v != nil || err != ex {
								c.Errorf("function saw %v, %v", v, err)
							}
							ran.Add(1)
							return v1, nil
						})
					})
					checkCompletedNormally(c.T, g, v1)
					checkCompletedExceptionally(c.T, f, ex)
					if ran.Load() != 1 {
						c.Errorf("%v: function ran %d times", m, ran.Load())
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testHandle_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					var ran atomic.Int32
					f, g := stage(incomplete, cancel[*item], func(f *cf) *cf {
						return m.handle(c, f, func(v *item, err error) (*item, error) {
							c.checkExecutionMode(m)
							if v != nil || !errors.Is(err, executors.ErrCancelled) {
								c.Errorf("function saw %v, %v", v, err)
							}
							ran.Add(1)
							return v1, nil
						})
					})
					checkCompletedNormally(c.T, g, v1)
					checkCancelled(c.T, f)
					if ran.Load() != 1 {
						c.Errorf("%v: function ran %d times", m, ran.Load())
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testHandle_sourceCompletedNormallyActionFailed(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					a := c.newAction(m)
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf {
						return m.handle(c, f, func(v *item, err error) (*item, error) {
							if v != v1 || err != nil {
								c.Errorf("function saw %v, %v", v, err)
							}
							return a.failingFunction()(v)
						})
					})
					failedWith(c, g, a)
					checkCompletedNormally(c.T, f, v1)
					a.assertInvoked()
				}
			}
		}
	})
}

// The action's failure takes precedence over the source's (unlike whenComplete).
func TestCompletableFutureTest_testHandle_sourceFailedActionFailed(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, incomplete := range createIncomplete {
			for _, m := range executionModes {
				a := c.newAction(m)
				ex1 := newCFException()
				f, g := stage(incomplete, failWith[*item](ex1), func(f *cf) *cf {
					return m.handle(c, f, func(v *item, err error) (*item, error) {
						if v != nil || err != ex1 {
							c.Errorf("function saw %v, %v", v, err)
						}
						return a.failingFunction()(v)
					})
				})
				failedWith(c, g, a)
				checkCompletedExceptionally(c.T, f, ex1)
				a.assertInvoked()
			}
		}
	})
}

var asyncModes = []executionMode{asyncMode, executorMode}

func TestCompletableFutureTest_testRunAsync_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range asyncModes {
			r := c.newAction(m)
			f := m.runAsync(c, r.noop())
			if _, err := f.Join(); err != nil {
				c.Errorf("Join = %v", err)
			}
			checkCompletedNormally(c.T, f, void)
			r.assertInvoked()
		}
	})
}

func TestCompletableFutureTest_testRunAsync_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range asyncModes {
			r := c.newAction(m)
			f := m.runAsync(c, r.failingRunnable())
			failedWith(c, f, r)
			r.assertInvoked()
		}
	})
}

// Java's runAsync throws the executor's RejectedExecutionException; loom's future fails with
// the executor's error instead (the executor is asked once, as in Java).
func TestCompletableFutureTest_testRunAsync_rejectingExecutor(t *testing.T) {
	e := newCountingRejectingExecutor()
	f := executors.RunAsyncOn(e, func() { t.Error("task ran") })
	checkCompletedExceptionally(t, f, e.ex)
	if e.count.Load() != 1 {
		t.Errorf("executor asked %d times", e.count.Load())
	}
}

func TestCompletableFutureTest_testSupplyAsync_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range asyncModes {
			for _, v1 := range values {
				r := c.newAction(m)
				f := m.supplyAsync(c, r.itemSupplier(v1))
				if v, err := f.Join(); v != v1 || err != nil {
					c.Errorf("Join = %v, %v", v, err)
				}
				checkCompletedNormally(c.T, f, v1)
				r.assertInvoked()
			}
		}
	})
}

func TestCompletableFutureTest_testSupplyAsync_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range asyncModes {
			r := c.newAction(m)
			f := m.supplyAsync(c, r.failingSupplier())
			failedWith(c, f, r)
			r.assertInvoked()
		}
	})
}

func TestCompletableFutureTest_testSupplyAsync_rejectingExecutor(t *testing.T) {
	e := newCountingRejectingExecutor()
	f := executors.SupplyAsyncOn(e, func() (*item, error) { t.Error("task ran"); return nil, nil })
	checkCompletedExceptionally(t, f, e.ex)
	if e.count.Load() != 1 {
		t.Errorf("executor asked %d times", e.count.Load())
	}
}

// The TCK's thenRun, thenApply and thenAccept tests also check runAfterBoth(f, f),
// runAfterEither(f, f), applyToEither(f, f) and acceptEither(f, f): a stage of one future twice.
var (
	runKinds = []stageKind{
		{"thenRun", func(c *tck, m executionMode, f, _ *cf, a *action, failing bool) stageProbe {
			return probeVoid(c, m.thenRun(c, f, pick(failing, a.noop, a.failingRunnable)))
		}, nil, nil},
		{"runAfterBoth", func(c *tck, m executionMode, f, _ *cf, a *action, failing bool) stageProbe {
			return probeVoid(c, m.runAfterBoth(c, f, f, pick(failing, a.noop, a.failingRunnable)))
		}, nil, nil},
		{"runAfterEither", func(c *tck, m executionMode, f, _ *cf, a *action, failing bool) stageProbe {
			return probeVoid(c, m.runAfterEither(c, f, f, pick(failing, a.noop, a.failingRunnable)))
		}, nil, nil},
	}
	applyKinds = []stageKind{
		{"thenApply", func(c *tck, m executionMode, f, _ *cf, a *action, failing bool) stageProbe {
			return probeItem(c, m.thenApply(c, f, pick(failing, a.incFunction, a.failingFunction)))
		}, unary(inc), unary(inc)},
		{"applyToEither", func(c *tck, m executionMode, f, _ *cf, a *action, failing bool) stageProbe {
			return probeItem(c, m.applyToEither(c, f, f, pick(failing, a.incFunction, a.failingFunction)))
		}, unary(inc), unary(inc)},
	}
	acceptKinds = []stageKind{
		{"thenAccept", func(c *tck, m executionMode, f, _ *cf, a *action, failing bool) stageProbe {
			return probeVoid(c, m.thenAccept(c, f, pick(failing, a.noopConsumer, a.failingConsumer)))
		}, nil, unary(func(x *item) *item { return x })},
		{"acceptEither", func(c *tck, m executionMode, f, _ *cf, a *action, failing bool) stageProbe {
			return probeVoid(c, m.acceptEither(c, f, f, pick(failing, a.noopConsumer, a.failingConsumer)))
		}, nil, unary(func(x *item) *item { return x })},
	}
)

// seqNormalCompletion is testThenRun_normalCompletion, testThenApply_normalCompletion and
// testThenAccept_normalCompletion: each stage made before and after its source completes.
func seqNormalCompletion(c *tck, kinds []stageKind) {
	for _, m := range executionModes {
		for _, v1 := range values {
			f := executors.NewCompletableFuture[*item]()
			var hs []stageProbe
			var rs []*action
			for _, k := range kinds {
				rs = append(rs, c.newAction(m))
				hs = append(hs, k.make(c, m, f, nil, rs[len(rs)-1], false))
				hs[len(hs)-1].incomplete()
			}
			f.Complete(v1)
			for _, k := range kinds {
				rs = append(rs, c.newAction(m))
				hs = append(hs, k.make(c, m, f, nil, rs[len(rs)-1], false))
			}
			for i, h := range hs {
				k := kinds[i%len(kinds)]
				h.normal(k.valueOf(v1, v1))
				k.assertSaw(rs[i], v1, v1)
			}
			checkCompletedNormally(c.T, f, v1)
		}
	}
}

// seqSourceFailed is testX_exceptionalCompletion and testX_sourceCancelled for the same stages.
func seqSourceFailed(c *tck, kinds []stageKind, failures func() []sourceFailure) {
	for _, m := range executionModes {
		for _, sf := range failures() {
			f := executors.NewCompletableFuture[*item]()
			var hs []stageProbe
			var rs []*action
			for _, k := range kinds {
				rs = append(rs, c.newAction(m))
				hs = append(hs, k.make(c, m, f, nil, rs[len(rs)-1], false))
				hs[len(hs)-1].incomplete()
			}
			if !sf.fail(f) {
				c.Errorf("%s: failing the source reported false", sf.name)
			}
			for _, k := range kinds {
				rs = append(rs, c.newAction(m))
				hs = append(hs, k.make(c, m, f, nil, rs[len(rs)-1], false))
			}
			for i, h := range hs {
				h.failedAs(sf)
				rs[i].assertNotInvoked()
			}
		}
	}
}

// seqActionFailed is testX_actionFailed for the same stages.
func seqActionFailed(c *tck, kinds []stageKind) {
	for _, m := range executionModes {
		for _, v1 := range values {
			f := executors.NewCompletableFuture[*item]()
			var hs []stageProbe
			var rs []*action
			for _, k := range kinds {
				rs = append(rs, c.newAction(m))
				hs = append(hs, k.make(c, m, f, nil, rs[len(rs)-1], true))
			}
			f.Complete(v1)
			for _, k := range kinds {
				rs = append(rs, c.newAction(m))
				hs = append(hs, k.make(c, m, f, nil, rs[len(rs)-1], true))
			}
			for i, h := range hs {
				h.failedBy(rs[i])
			}
			checkCompletedNormally(c.T, f, v1)
		}
	}
}

func TestCompletableFutureTest_testThenRun_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { seqNormalCompletion(c, runKinds) })
}

func TestCompletableFutureTest_testThenRun_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { seqSourceFailed(c, runKinds, exceptionalFailure) })
}

func TestCompletableFutureTest_testThenRun_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { seqSourceFailed(c, runKinds, cancellation) })
}

func TestCompletableFutureTest_testThenRun_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { seqActionFailed(c, runKinds) })
}

func TestCompletableFutureTest_testThenApply_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { seqNormalCompletion(c, applyKinds) })
}

func TestCompletableFutureTest_testThenApply_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { seqSourceFailed(c, applyKinds, exceptionalFailure) })
}

func TestCompletableFutureTest_testThenApply_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { seqSourceFailed(c, applyKinds, cancellation) })
}

func TestCompletableFutureTest_testThenApply_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { seqActionFailed(c, applyKinds) })
}

func TestCompletableFutureTest_testThenAccept_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { seqNormalCompletion(c, acceptKinds) })
}

func TestCompletableFutureTest_testThenAccept_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { seqSourceFailed(c, acceptKinds, exceptionalFailure) })
}

func TestCompletableFutureTest_testThenAccept_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { seqSourceFailed(c, acceptKinds, cancellation) })
}

func TestCompletableFutureTest_testThenAccept_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { seqActionFailed(c, acceptKinds) })
}

func TestCompletableFutureTest_testThenCompose_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					r := c.newAction(m)
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf { return m.thenCompose(c, f, r.completableFutureInc()) })
					checkCompletedNormally(c.T, g, inc(v1))
					checkCompletedNormally(c.T, f, v1)
					r.assertValue(v1)
				}
			}
		}
	})
}

func TestCompletableFutureTest_testThenCompose_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				ex := newCFException()
				r := c.newAction(m)
				f, g := stage(incomplete, failWith[*item](ex), func(f *cf) *cf { return m.thenCompose(c, f, r.completableFutureInc()) })
				checkCompletedExceptionally(c.T, g, ex)
				checkCompletedExceptionally(c.T, f, ex)
				r.assertNotInvoked()
			}
		}
	})
}

func TestCompletableFutureTest_testThenCompose_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					r := c.newAction(m)
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf { return m.thenCompose(c, f, r.failingCompletableFutureFunction()) })
					failedWith(c, g, r)
					checkCompletedNormally(c.T, f, v1)
				}
			}
		}
	})
}

func TestCompletableFutureTest_testThenCompose_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				r := c.newAction(m)
				f, g := stage(incomplete, cancel[*item], func(f *cf) *cf {
					g := m.thenCompose(c, f, r.completableFutureInc())
					if incomplete {
						checkIncomplete(c.T, g)
					}
					return g
				})
				checkCompletedWithWrappedCancellation(c.T, g)
				checkCancelled(c.T, f)
				r.assertNotInvoked()
			}
		}
	})
}

// composeOrders runs the TCK's six orders of completing f (with v1), failing g (with ex) and
// making h from f by compose(f, x -> g).
func composeOrders(compose func(f *cf, fn func() *cf) *cf, completeF func(f *cf) bool, ex error) []func() (f, g, h *cf) {
	mk := func(steps ...int) func() (f, g, h *cf) {
		return func() (f, g, h *cf) {
			f, g = executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
			for _, s := range steps {
				switch s {
				case 0:
					completeF(f)
				case 1:
					g.CompleteExceptionally(ex)
				case 2:
					h = compose(f, func() *cf { return g })
				}
			}
			return f, g, h
		}
	}
	return []func() (f, g, h *cf){mk(0, 1, 2), mk(0, 2, 1), mk(1, 0, 2), mk(1, 2, 0), mk(2, 0, 1), mk(2, 1, 0)}
}

func TestCompletableFutureTest_testThenCompose_actionReturnsFailingFuture(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, v1 := range values {
				ex := newCFException()
				compose := func(f *cf, fn func() *cf) *cf { return m.thenCompose(c, f, func(*item) *cf { return fn() }) }
				for i, order := range composeOrders(compose, func(f *cf) bool { return f.Complete(v1) }, ex) {
					f, g, h := order()
					checkCompletedExceptionally(c.T, g, ex)
					checkCompletedExceptionally(c.T, h, ex)
					checkCompletedNormally(c.T, f, v1)
					if c.Failed() {
						c.Errorf("%v, order %d", m, i)
						return
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testExceptionallyCompose_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				for _, v1 := range values {
					r := c.newAction(m)
					f, g := stage(incomplete, completeWith(v1), func(f *cf) *cf {
						return m.exceptionallyCompose(c, f, r.exceptionalCompletableFutureFunction())
					})
					checkCompletedNormally(c.T, f, v1)
					checkCompletedNormally(c.T, g, v1)
					r.assertNotInvoked()
				}
			}
		}
	})
}

func TestCompletableFutureTest_testExceptionallyCompose_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				ex := newCFException()
				r := c.newAction(m)
				f, g := stage(incomplete, failWith[*item](ex), func(f *cf) *cf {
					return m.exceptionallyCompose(c, f, r.exceptionalCompletableFutureFunction())
				})
				checkCompletedExceptionally(c.T, f, ex)
				checkCompletedNormally(c.T, g, three)
				r.assertInvoked()
			}
		}
	})
}

func TestCompletableFutureTest_testExceptionallyCompose_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, incomplete := range createIncomplete {
				ex := newCFException()
				r := c.newAction(m)
				f, g := stage(incomplete, failWith[*item](ex), func(f *cf) *cf {
					return m.exceptionallyCompose(c, f, r.failingExceptionalCompletableFutureFunction())
				})
				checkCompletedExceptionally(c.T, f, ex)
				failedWith(c, g, r)
				r.assertInvoked()
			}
		}
	})
}

func TestCompletableFutureTest_testExceptionallyCompose_actionReturnsFailingFuture(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			ex0, ex := newCFException(), newCFException()
			compose := func(f *cf, fn func() *cf) *cf { return m.exceptionallyCompose(c, f, func(error) *cf { return fn() }) }
			for i, order := range composeOrders(compose, func(f *cf) bool { return f.CompleteExceptionally(ex0) }, ex) {
				f, g, h := order()
				checkCompletedExceptionally(c.T, g, ex)
				checkCompletedExceptionally(c.T, h, ex)
				checkCompletedExceptionally(c.T, f, ex0)
				if c.Failed() {
					c.Errorf("%v, order %d", m, i)
					return
				}
			}
		}
	})
}
