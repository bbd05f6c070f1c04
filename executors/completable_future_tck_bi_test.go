package executors_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/executors"
)

// Ports of CompletableFutureTest's two-source stages (thenCombine, thenAcceptBoth, runAfterBoth,
// applyToEither, acceptEither, runAfterEither), in the three execution modes.

var (
	combineKind = stageKind{"thenCombine", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) stageProbe {
		return probeItem(c, m.thenCombine(c, f, g, pick(failing, a.subtractFunction, a.failingBiFunction)))
	}, subtract, subtract}
	acceptBothKind = stageKind{"thenAcceptBoth", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) stageProbe {
		return probeVoid(c, m.thenAcceptBoth(c, f, g, pick(failing, a.subtractAction, a.failingBiConsumer)))
	}, nil, subtract}
	runAfterBothKind = stageKind{"runAfterBoth", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) stageProbe {
		return probeVoid(c, m.runAfterBoth(c, f, g, pick(failing, a.noop, a.failingRunnable)))
	}, nil, nil}

	applyToEitherKind = stageKind{"applyToEither", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) stageProbe {
		return probeItem(c, m.applyToEither(c, f, g, pick(failing, a.incFunction, a.failingFunction)))
	}, unary(inc), unary(inc)}
	acceptEitherKind = stageKind{"acceptEither", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) stageProbe {
		return probeVoid(c, m.acceptEither(c, f, g, pick(failing, a.noopConsumer, a.failingConsumer)))
	}, nil, unary(func(x *item) *item { return x })}
	runAfterEitherKind = stageKind{"runAfterEither", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) stageProbe {
		return probeVoid(c, m.runAfterEither(c, f, g, pick(failing, a.noop, a.failingRunnable)))
	}, nil, nil}
)

// The TCK's thenCombine test also combines the first source with itself.
func TestCompletableFutureTest_testThenCombine_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, fFirst := range []bool{true, false} {
				for _, v1 := range values {
					for _, v2 := range []*item{two, nil} {
						f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
						rs := c.newActions(m, 5)
						fst, snd, w1, w2 := f, g, v1, v2
						if !fFirst {
							fst, snd, w1, w2 = g, f, v2, v1
						}
						h0 := m.thenCombine(c, f, g, rs[0].subtractFunction())
						h1 := m.thenCombine(c, fst, fst, rs[1].subtractFunction())
						fst.Complete(w1)
						h2 := m.thenCombine(c, f, g, rs[2].subtractFunction())
						h3 := m.thenCombine(c, fst, fst, rs[3].subtractFunction())
						checkIncomplete(c.T, h0)
						rs[0].assertNotInvoked()
						checkIncomplete(c.T, h2)
						rs[2].assertNotInvoked()
						checkCompletedNormally(c.T, h1, subtract(w1, w1))
						checkCompletedNormally(c.T, h3, subtract(w1, w1))
						rs[1].assertValue(subtract(w1, w1))
						rs[3].assertValue(subtract(w1, w1))
						snd.Complete(w2)
						h4 := m.thenCombine(c, f, g, rs[4].subtractFunction())
						for i, h := range map[int]*cf{0: h0, 2: h2, 4: h4} {
							checkCompletedNormally(c.T, h, subtract(v1, v2))
							rs[i].assertValue(subtract(v1, v2))
						}
						checkCompletedNormally(c.T, f, v1)
						checkCompletedNormally(c.T, g, v2)
					}
				}
			}
		}
	})
}

func TestCompletableFutureTest_testThenAcceptBoth_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothNormalCompletion(c, acceptBothKind) })
}

func TestCompletableFutureTest_testRunAfterBoth_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothNormalCompletion(c, runAfterBothKind) })
}

// bothNormalCompletion is testThenAcceptBoth_normalCompletion and
// testRunAfterBoth_normalCompletion: stages made before, between and after the two sources
// complete, in both orders.
func bothNormalCompletion(c *tck, k stageKind) {
	for _, m := range executionModes {
		for _, fFirst := range []bool{true, false} {
			for _, v1 := range values {
				for _, v2 := range []*item{two, nil} {
					f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
					rs := c.newActions(m, 3)
					fst, snd, w1, w2 := f, g, v1, v2
					if !fFirst {
						fst, snd, w1, w2 = g, f, v2, v1
					}
					h1 := k.make(c, m, f, g, rs[0], false)
					fst.Complete(w1)
					h2 := k.make(c, m, f, g, rs[1], false)
					h1.incomplete()
					h2.incomplete()
					rs[0].assertNotInvoked()
					rs[1].assertNotInvoked()
					snd.Complete(w2)
					h3 := k.make(c, m, f, g, rs[2], false)
					for i, h := range []stageProbe{h1, h2, h3} {
						h.normal(k.valueOf(v1, v2))
						k.assertSaw(rs[i], v1, v2)
					}
					checkCompletedNormally(c.T, f, v1)
					checkCompletedNormally(c.T, g, v2)
				}
			}
		}
	}
}

// bothSourceFailed is testX_exceptionalCompletion and testX_sourceCancelled for a both stage: one
// source fails and the other completes, in both orders; the stages made before, between and after
// fail as the source did without running their action, and those made before the second source
// completes are incomplete until it does (Java waits for both, even after a failure).
func bothSourceFailed(c *tck, k stageKind, failures func() []sourceFailure) {
	for _, m := range executionModes {
		for _, fFirst := range []bool{true, false} {
			for _, failFirst := range []bool{true, false} {
				for _, v1 := range values {
					for _, sf := range failures() {
						f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
						rs := c.newActions(m, 3)
						fst, snd := f, g
						if !fFirst {
							fst, snd = g, f
						}
						failing, completing := fst, snd
						if !failFirst {
							failing, completing = snd, fst
						}
						steps := [2]func() bool{func() bool { return sf.fail(failing) }, func() bool { return completing.Complete(v1) }}
						if !failFirst {
							steps[0], steps[1] = steps[1], steps[0]
						}
						h1 := k.make(c, m, f, g, rs[0], false)
						if !steps[0]() {
							c.Error("first completion = false")
						}
						h2 := k.make(c, m, f, g, rs[1], false)
						h1.incomplete()
						h2.incomplete()
						if !steps[1]() {
							c.Error("second completion = false")
						}
						h3 := k.make(c, m, f, g, rs[2], false)
						for _, h := range []stageProbe{h1, h2, h3} {
							h.failedAs(sf)
						}
						for _, r := range rs {
							r.assertNotInvoked()
						}
						checkCompletedNormally(c.T, completing, v1)
						sf.checkItem(c.T, failing.Copy())
					}
				}
			}
		}
	}
}

func TestCompletableFutureTest_testThenCombine_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, combineKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testThenCombine_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, combineKind, cancellation) })
}

func TestCompletableFutureTest_testThenAcceptBoth_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, acceptBothKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testThenAcceptBoth_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, acceptBothKind, cancellation) })
}

func TestCompletableFutureTest_testRunAfterBoth_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, runAfterBothKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testRunAfterBoth_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, runAfterBothKind, cancellation) })
}

// bothActionFailed is testThenCombine_actionFailed, testThenAcceptBoth_actionFailed and
// testRunAfterBoth_actionFailed.
func bothActionFailed(c *tck, k stageKind) {
	for _, m := range executionModes {
		for _, fFirst := range []bool{true, false} {
			for _, v1 := range values {
				for _, v2 := range []*item{two, nil} {
					f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
					rs := c.newActions(m, 3)
					fst, snd, w1, w2 := f, g, v1, v2
					if !fFirst {
						fst, snd, w1, w2 = g, f, v2, v1
					}
					h1 := k.make(c, m, f, g, rs[0], true)
					fst.Complete(w1)
					h2 := k.make(c, m, f, g, rs[1], true)
					snd.Complete(w2)
					h3 := k.make(c, m, f, g, rs[2], true)
					for i, h := range []stageProbe{h1, h2, h3} {
						h.failedBy(rs[i])
						k.assertSaw(rs[i], v1, v2)
					}
					checkCompletedNormally(c.T, f, v1)
					checkCompletedNormally(c.T, g, v2)
				}
			}
		}
	}
}

func TestCompletableFutureTest_testThenCombine_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { bothActionFailed(c, combineKind) })
}

func TestCompletableFutureTest_testThenAcceptBoth_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { bothActionFailed(c, acceptBothKind) })
}

func TestCompletableFutureTest_testRunAfterBoth_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { bothActionFailed(c, runAfterBothKind) })
}

// eitherOutcome checks a stage made when both sources were complete (the TCK's "unspecified
// behavior"): it ran on one of the values (the action saw it), or failed as sf made one fail and
// did not run.
func eitherOutcome(c *tck, k stageKind, h stageProbe, a *action, values []*item, sf *sourceFailure) {
	c.Helper()
	v, err := h.wait()
	if err != nil {
		if sf == nil || !sourceFailureIs(err, *sf) {
			c.Errorf("%s: failed with %v", k.name, err)
		}
		a.assertNotInvoked()
		return
	}
	a.assertInvoked()
	for _, x := range values {
		if cmp.Equal(v, k.valueOf(x, x)) && (k.saw == nil || cmp.Equal(a.get(), k.saw(x, x))) {
			return
		}
	}
	c.Errorf("%s: %v, the action saw %v; want the outcome of one of %v", k.name, v, a.get(), values)
}

// eitherNormalCompletion is testApplyToEither_normalCompletion, testAcceptEither_normalCompletion
// and testRunAfterEither_normalCompletion: f completes first, so the stages made before and
// between see f's value; with both complete, either value.
func eitherNormalCompletion(c *tck, k stageKind) {
	for _, m := range executionModes {
		for _, v1 := range values {
			for _, v2 := range []*item{two, nil} {
				for _, pushNop := range []bool{true, false} {
					f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
					rs := c.newActions(m, 6)
					h0, h1 := k.make(c, m, f, g, rs[0], false), k.make(c, m, g, f, rs[1], false)
					h0.incomplete()
					h1.incomplete()
					if pushNop { // the TCK's ad hoc test of intra-completion interference
						m.thenRun(c, f, func() {})
						m.thenRun(c, g, func() {})
					}
					f.Complete(v1)
					h2, h3 := k.make(c, m, f, g, rs[2], false), k.make(c, m, g, f, rs[3], false)
					for i, h := range []stageProbe{h0, h1, h2, h3} {
						h.normal(k.valueOf(v1, v1))
						k.assertSaw(rs[i], v1, v1)
					}
					g.Complete(v2)
					h4, h5 := k.make(c, m, f, g, rs[4], false), k.make(c, m, g, f, rs[5], false)
					eitherOutcome(c, k, h4, rs[4], []*item{v1, v2}, nil)
					eitherOutcome(c, k, h5, rs[5], []*item{v1, v2}, nil)
					checkCompletedNormally(c.T, f, v1)
					checkCompletedNormally(c.T, g, v2)
				}
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherNormalCompletion(c, applyToEitherKind) })
}

func TestCompletableFutureTest_testAcceptEither_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherNormalCompletion(c, acceptEitherKind) })
}

func TestCompletableFutureTest_testRunAfterEither_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherNormalCompletion(c, runAfterEitherKind) })
}

// eitherSourceFailed is testX_exceptionalCompletion and testX_sourceCancelled for the either
// stages: f fails first, so the stages made before and after fail as f did without running their
// action; once g has completed too, a new stage either fails so or runs on g's value.
func eitherSourceFailed(c *tck, k stageKind, failures func() []sourceFailure) {
	for _, m := range executionModes {
		for _, v1 := range values {
			for _, sf := range failures() {
				f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
				rs := c.newActions(m, 6)
				h0, h1 := k.make(c, m, f, g, rs[0], false), k.make(c, m, g, f, rs[1], false)
				h0.incomplete()
				h1.incomplete()
				sf.fail(f)
				h2, h3 := k.make(c, m, f, g, rs[2], false), k.make(c, m, g, f, rs[3], false)
				for i, h := range []stageProbe{h0, h1, h2, h3} {
					h.failedAs(sf)
					rs[i].assertNotInvoked()
				}
				g.Complete(v1)
				h4, h5 := k.make(c, m, f, g, rs[4], false), k.make(c, m, g, f, rs[5], false)
				eitherOutcome(c, k, h4, rs[4], []*item{v1}, &sf)
				eitherOutcome(c, k, h5, rs[5], []*item{v1}, &sf)
				sf.checkItem(c.T, f.Copy())
				checkCompletedNormally(c.T, g, v1)
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, applyToEitherKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testApplyToEither_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, applyToEitherKind, cancellation) })
}

func TestCompletableFutureTest_testAcceptEither_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, acceptEitherKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testAcceptEither_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, acceptEitherKind, cancellation) })
}

func TestCompletableFutureTest_testRunAfterEither_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, runAfterEitherKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testRunAfterEither_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, runAfterEitherKind, cancellation) })
}

// eitherSourceFailed2 is testX_exceptionalCompletion2 and testApplyToEither_sourceCancelled2: f
// completes and g fails, in both orders, before some stages are made: each either runs on f's
// value or fails as g did.
func eitherSourceFailed2(c *tck, k stageKind, failures func() []sourceFailure) {
	for _, m := range executionModes {
		for _, fFirst := range []bool{true, false} {
			for _, v1 := range values {
				for _, sf := range failures() {
					f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
					rs := c.newActions(m, 4)
					h0, h1 := k.make(c, m, f, g, rs[0], false), k.make(c, m, g, f, rs[1], false)
					if fFirst {
						f.Complete(v1)
						sf.fail(g)
					} else {
						sf.fail(g)
						f.Complete(v1)
					}
					h2, h3 := k.make(c, m, f, g, rs[2], false), k.make(c, m, g, f, rs[3], false)
					for i, h := range []stageProbe{h0, h1, h2, h3} {
						eitherOutcome(c, k, h, rs[i], []*item{v1}, &sf)
					}
					checkCompletedNormally(c.T, f, v1)
				}
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_exceptionalCompletion2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, applyToEitherKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testApplyToEither_sourceCancelled2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, applyToEitherKind, cancellation) })
}

func TestCompletableFutureTest_testAcceptEither_exceptionalCompletion2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, acceptEitherKind, exceptionalFailure) })
}

func TestCompletableFutureTest_testRunAfterEither_exceptionalCompletion2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, runAfterEitherKind, exceptionalFailure) })
}

// eitherActionFailed is testApplyToEither_actionFailed, testAcceptEither_actionFailed and
// testRunAfterEither_actionFailed.
func eitherActionFailed(c *tck, k stageKind) {
	for _, m := range executionModes {
		for _, v1 := range values {
			for _, v2 := range []*item{two, nil} {
				f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
				rs := c.newActions(m, 6)
				h0, h1 := k.make(c, m, f, g, rs[0], true), k.make(c, m, g, f, rs[1], true)
				f.Complete(v1)
				h2, h3 := k.make(c, m, f, g, rs[2], true), k.make(c, m, g, f, rs[3], true)
				for i, h := range []stageProbe{h0, h1, h2, h3} {
					h.failedBy(rs[i])
					if k.saw != nil {
						rs[i].assertValue(v1) // the failing forms record the value they got
					} else {
						rs[i].assertInvoked()
					}
				}
				g.Complete(v2)
				h4, h5 := k.make(c, m, f, g, rs[4], true), k.make(c, m, g, f, rs[5], true)
				for i, h := range []stageProbe{h4, h5} {
					h.failedBy(rs[i+4])
					rs[i+4].assertInvoked()
					if got := rs[i+4].get(); k.saw != nil && !cmp.Equal(got, v1) && !cmp.Equal(got, v2) {
						c.Errorf("%s %v: action %d saw %v", k.name, m, i+4, got)
					}
				}
				checkCompletedNormally(c.T, f, v1)
				checkCompletedNormally(c.T, g, v2)
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { eitherActionFailed(c, applyToEitherKind) })
}

func TestCompletableFutureTest_testAcceptEither_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { eitherActionFailed(c, acceptEitherKind) })
}

func TestCompletableFutureTest_testRunAfterEither_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { eitherActionFailed(c, runAfterEitherKind) })
}

// sourceFailureIs reports whether err, from a dependent's Get, is the failure sf gave a source.
func sourceFailureIs(err error, sf sourceFailure) bool {
	var ee *executors.ExecutionError
	if !errors.As(err, &ee) {
		return false
	}
	if sf.name == "cancelled" {
		return errors.Is(ee.Cause, executors.ErrCancelled)
	}
	return sf.ex != nil && ee.Cause == sf.ex
}
