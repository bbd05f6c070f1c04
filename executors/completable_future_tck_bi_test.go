package executors_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/executors"
)

// Ports of CompletableFutureTest's two-source stages (thenCombine, thenAcceptBoth, runAfterBoth,
// applyToEither, acceptEither, runAfterEither), in the three execution modes.

// bothStage is one of the both stages made into a stage of *item for the shared bodies below:
// thenCombine as it is, thenAcceptBoth and runAfterBoth through the value their action records.
type bothStage struct {
	name string
	// make returns a stage of f and g running a's subtract (or, failing, a's failure); value is
	// what the completed stage must hold for the sources' values x, y.
	make  func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error)
	value func(x, y *item) *item
}

var bothStages = []bothStage{
	{"thenCombine", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error) {
		fn := a.subtractFunction()
		if failing {
			fn = a.failingBiFunction()
		}
		h := m.thenCombine(c, f, g, fn)
		return func() (*item, error) { return h.GetTimeout(tenSeconds) }
	}, subtract},
	{"thenAcceptBoth", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error) {
		fn := a.subtractAction()
		if failing {
			fn = a.failingBiConsumer()
		}
		h := m.thenAcceptBoth(c, f, g, fn)
		return func() (*item, error) { _, err := h.GetTimeout(tenSeconds); return nil, err }
	}, func(x, y *item) *item { return nil }},
	{"runAfterBoth", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error) {
		fn := a.noop()
		if failing {
			fn = a.failingRunnable()
		}
		h := m.runAfterBoth(c, f, g, fn)
		return func() (*item, error) { _, err := h.GetTimeout(tenSeconds); return nil, err }
	}, func(x, y *item) *item { return nil }},
}

// The TCK's three both-stage methods, testX_normalCompletion for each: two made before the first
// source completes (one of them on that source twice), two after, one after both.
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
						for i, h := range []*cf{h0, h2, h4} {
							checkCompletedNormally(c.T, h, subtract(v1, v2))
							rs[[]int{0, 2, 4}[i]].assertValue(subtract(v1, v2))
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
	runTCK(t, func(c *tck) { bothNormalCompletion(c, bothStages[1]) })
}

func TestCompletableFutureTest_testRunAfterBoth_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothNormalCompletion(c, bothStages[2]) })
}

// bothNormalCompletion is testThenAcceptBoth_normalCompletion and testRunAfterBoth_normalCompletion.
func bothNormalCompletion(c *tck, st bothStage) {
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
					h1 := st.make(c, m, f, g, rs[0], false)
					fst.Complete(w1)
					h2 := st.make(c, m, f, g, rs[1], false)
					rs[0].assertNotInvoked()
					rs[1].assertNotInvoked()
					snd.Complete(w2)
					h3 := st.make(c, m, f, g, rs[2], false)
					for i, h := range []func() (*item, error){h1, h2, h3} {
						if v, err := h(); err != nil || !cmp.Equal(v, st.value(v1, v2)) {
							c.Errorf("%s %v: stage %d = %v, %v", st.name, m, i+1, v, err)
						}
					}
					for _, r := range rs {
						if st.name == "thenAcceptBoth" {
							r.assertValue(subtract(v1, v2))
						} else {
							r.assertInvoked()
						}
					}
					checkCompletedNormally(c.T, f, v1)
					checkCompletedNormally(c.T, g, v2)
				}
			}
		}
	}
}

// bothStageChecks makes a both stage of f and g running a, and returns checks of it: still
// incomplete, and failed as sf makes a source fail.
type bothStageChecks func(c *tck, m executionMode, f, g *cf, a *action) (incomplete func(), failed func(sf sourceFailure))

var (
	combineChecks bothStageChecks = func(c *tck, m executionMode, f, g *cf, a *action) (func(), func(sourceFailure)) {
		h := m.thenCombine(c, f, g, a.subtractFunction())
		return func() { checkIncomplete(c.T, h) }, func(sf sourceFailure) { sf.checkItem(c.T, h) }
	}
	acceptBothChecks bothStageChecks = func(c *tck, m executionMode, f, g *cf, a *action) (func(), func(sourceFailure)) {
		h := m.thenAcceptBoth(c, f, g, a.subtractAction())
		return func() { checkIncomplete(c.T, h) }, func(sf sourceFailure) { sf.checkVoid(c.T, h) }
	}
	runAfterBothChecks bothStageChecks = func(c *tck, m executionMode, f, g *cf, a *action) (func(), func(sourceFailure)) {
		h := m.runAfterBoth(c, f, g, a.noop())
		return func() { checkIncomplete(c.T, h) }, func(sf sourceFailure) { sf.checkVoid(c.T, h) }
	}
)

// bothSourceFailed is testX_exceptionalCompletion and testX_sourceCancelled for a both stage: one
// source fails and the other completes, in both orders; the stages made before, between and after
// fail as the source did without running their action, and the one made between is incomplete
// until the second source completes (Java waits for both, even after a failure).
func bothSourceFailed(c *tck, mk bothStageChecks, failures func() []sourceFailure) {
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
						complete1, complete2 := func() bool { return sf.fail(fst) }, func() bool { return snd.Complete(v1) }
						if !failFirst {
							failing, completing = snd, fst
							complete1, complete2 = func() bool { return fst.Complete(v1) }, func() bool { return sf.fail(snd) }
						}
						inc1, failed1 := mk(c, m, f, g, rs[0])
						if !complete1() {
							c.Error("first completion = false")
						}
						inc2, failed2 := mk(c, m, f, g, rs[1])
						inc1()
						inc2()
						if !complete2() {
							c.Error("second completion = false")
						}
						_, failed3 := mk(c, m, f, g, rs[2])
						failed1(sf)
						failed2(sf)
						failed3(sf)
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
	runTCK(t, func(c *tck) { bothSourceFailed(c, combineChecks, exceptionalFailure) })
}

func TestCompletableFutureTest_testThenCombine_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, combineChecks, cancellation) })
}

func TestCompletableFutureTest_testThenAcceptBoth_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, acceptBothChecks, exceptionalFailure) })
}

func TestCompletableFutureTest_testThenAcceptBoth_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, acceptBothChecks, cancellation) })
}

func TestCompletableFutureTest_testRunAfterBoth_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, runAfterBothChecks, exceptionalFailure) })
}

func TestCompletableFutureTest_testRunAfterBoth_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { bothSourceFailed(c, runAfterBothChecks, cancellation) })
}

func TestCompletableFutureTest_testThenCombine_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { bothActionFailed(c, bothStages[0]) })
}

func TestCompletableFutureTest_testThenAcceptBoth_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { bothActionFailed(c, bothStages[1]) })
}

func TestCompletableFutureTest_testRunAfterBoth_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { bothActionFailed(c, bothStages[2]) })
}

// bothActionFailed is testThenCombine_actionFailed, testThenAcceptBoth_actionFailed and
// testRunAfterBoth_actionFailed.
func bothActionFailed(c *tck, st bothStage) {
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
					h1 := st.make(c, m, f, g, rs[0], true)
					fst.Complete(w1)
					h2 := st.make(c, m, f, g, rs[1], true)
					snd.Complete(w2)
					h3 := st.make(c, m, f, g, rs[2], true)
					for i, h := range []func() (*item, error){h1, h2, h3} {
						if _, err := h(); !errorIsAction(err, rs[i]) {
							c.Errorf("%s %v: stage %d = %v, want the action's failure", st.name, m, i+1, err)
						}
						rs[i].assertInvoked()
					}
					checkCompletedNormally(c.T, f, v1)
					checkCompletedNormally(c.T, g, v2)
				}
			}
		}
	}
}

// eitherStage is one of the either stages as a function of two sources and an action, returning
// a way to wait for the stage and what the action saw.
type eitherStage struct {
	name string
	make func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error)
	// value is what the stage holds when the winning source had x.
	value func(x *item) *item
	// saw is what the action records when the winning source had x (nil: only that it ran).
	saw func(x *item) *item
}

var eitherStages = []eitherStage{
	{"applyToEither", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error) {
		fn := a.incFunction()
		if failing {
			fn = a.failingFunction()
		}
		h := m.applyToEither(c, f, g, fn)
		return func() (*item, error) { return h.GetTimeout(tenSeconds) }
	}, inc, inc},
	{"acceptEither", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error) {
		fn := a.noopConsumer()
		if failing {
			fn = a.failingConsumer()
		}
		h := m.acceptEither(c, f, g, fn)
		return func() (*item, error) { _, err := h.GetTimeout(tenSeconds); return nil, err }
	}, func(*item) *item { return nil }, func(x *item) *item { return x }},
	{"runAfterEither", func(c *tck, m executionMode, f, g *cf, a *action, failing bool) func() (*item, error) {
		fn := a.noop()
		if failing {
			fn = a.failingRunnable()
		}
		h := m.runAfterEither(c, f, g, fn)
		return func() (*item, error) { _, err := h.GetTimeout(tenSeconds); return nil, err }
	}, func(*item) *item { return nil }, nil},
}

func (st eitherStage) assertSaw(r *action, x *item) {
	r.c.Helper()
	if st.saw == nil {
		r.assertInvoked()
		return
	}
	r.assertValue(st.saw(x))
}

// eitherNormalCompletion is testApplyToEither_normalCompletion, testAcceptEither_normalCompletion
// and testRunAfterEither_normalCompletion: f completes first, so the stages made before and
// between see f's value; with both complete, either value.
func eitherNormalCompletion(c *tck, st eitherStage) {
	for _, m := range executionModes {
		for _, v1 := range values {
			for _, v2 := range []*item{two, nil} {
				for _, pushNop := range []bool{true, false} {
					f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
					rs := c.newActions(m, 6)
					h0, h1 := st.make(c, m, f, g, rs[0], false), st.make(c, m, g, f, rs[1], false)
					rs[0].assertNotInvoked()
					rs[1].assertNotInvoked()
					if pushNop { // the TCK's ad hoc test of intra-completion interference
						m.thenRun(c, f, func() {})
						m.thenRun(c, g, func() {})
					}
					f.Complete(v1)
					for i, h := range []func() (*item, error){h0, h1} {
						if v, err := h(); err != nil || !cmp.Equal(v, st.value(v1)) {
							c.Errorf("%s %v: h%d = %v, %v", st.name, m, i, v, err)
						}
						st.assertSaw(rs[i], v1)
					}
					h2, h3 := st.make(c, m, f, g, rs[2], false), st.make(c, m, g, f, rs[3], false)
					for i, h := range []func() (*item, error){h2, h3} {
						if v, err := h(); err != nil || !cmp.Equal(v, st.value(v1)) {
							c.Errorf("%s %v: h%d = %v, %v", st.name, m, i+2, v, err)
						}
						st.assertSaw(rs[i+2], v1)
					}
					g.Complete(v2)
					// unspecified behavior: both source completions available
					h4, h5 := st.make(c, m, f, g, rs[4], false), st.make(c, m, g, f, rs[5], false)
					for i, h := range []func() (*item, error){h4, h5} {
						v, err := h()
						if err != nil || !cmp.Equal(v, st.value(v1)) && !cmp.Equal(v, st.value(v2)) {
							c.Errorf("%s %v: h%d = %v, %v", st.name, m, i+4, v, err)
						}
						rs[i+4].assertInvoked()
						if st.saw != nil {
							if got := rs[i+4].get(); !cmp.Equal(got, st.saw(v1)) && !cmp.Equal(got, st.saw(v2)) {
								c.Errorf("%s %v: action %d saw %v", st.name, m, i+4, got)
							}
						}
					}
					checkCompletedNormally(c.T, f, v1)
					checkCompletedNormally(c.T, g, v2)
				}
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherNormalCompletion(c, eitherStages[0]) })
}

func TestCompletableFutureTest_testAcceptEither_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherNormalCompletion(c, eitherStages[1]) })
}

func TestCompletableFutureTest_testRunAfterEither_normalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherNormalCompletion(c, eitherStages[2]) })
}

// eitherSourceFailed is testX_exceptionalCompletion and testX_sourceCancelled for the either
// stages: f fails first, so the stages made before and after fail as f did without running
// their action; once g has completed too, a new stage either fails so or runs on g's value.
func eitherSourceFailed(c *tck, st eitherStage, failures func() []sourceFailure) {
	for _, m := range executionModes {
		for _, v1 := range values {
			for _, sf := range failures() {
				f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
				rs := c.newActions(m, 6)
				h0, h1 := st.make(c, m, f, g, rs[0], false), st.make(c, m, g, f, rs[1], false)
				sf.fail(f)
				h2, h3 := st.make(c, m, f, g, rs[2], false), st.make(c, m, g, f, rs[3], false)
				for i, h := range []func() (*item, error){h0, h1, h2, h3} {
					if _, err := h(); err == nil || !sourceFailureIs(err, sf) {
						c.Errorf("%s %v %s: h%d = %v", st.name, m, sf.name, i, err)
					}
					rs[i].assertNotInvoked()
				}
				g.Complete(v1)
				h4, h5 := st.make(c, m, f, g, rs[4], false), st.make(c, m, g, f, rs[5], false)
				for i, h := range []func() (*item, error){h4, h5} {
					v, err := h()
					switch {
					case err == nil:
						if !cmp.Equal(v, st.value(v1)) {
							c.Errorf("%s %v: h%d = %v", st.name, m, i+4, v)
						}
						st.assertSaw(rs[i+4], v1)
					case sourceFailureIs(err, sf):
						rs[i+4].assertNotInvoked()
					default:
						c.Errorf("%s %v: h%d failed with %v", st.name, m, i+4, err)
					}
				}
				sf.checkItem(c.T, executors.ThenApply(f, func(v *item) (*item, error) { return v, nil }))
				checkCompletedNormally(c.T, g, v1)
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, eitherStages[0], exceptionalFailure) })
}

func TestCompletableFutureTest_testApplyToEither_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, eitherStages[0], cancellation) })
}

func TestCompletableFutureTest_testAcceptEither_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, eitherStages[1], exceptionalFailure) })
}

func TestCompletableFutureTest_testAcceptEither_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, eitherStages[1], cancellation) })
}

func TestCompletableFutureTest_testRunAfterEither_exceptionalCompletion(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, eitherStages[2], exceptionalFailure) })
}

func TestCompletableFutureTest_testRunAfterEither_sourceCancelled(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed(c, eitherStages[2], cancellation) })
}

// eitherSourceFailed2 is testX_exceptionalCompletion2 and testApplyToEither_sourceCancelled2: f
// completes and g fails, in both orders, before some stages are made: each either runs on f's
// value or fails as g did.
func eitherSourceFailed2(c *tck, st eitherStage, failures func() []sourceFailure) {
	for _, m := range executionModes {
		for _, fFirst := range []bool{true, false} {
			for _, v1 := range values {
				for _, sf := range failures() {
					f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
					rs := c.newActions(m, 4)
					h0, h1 := st.make(c, m, f, g, rs[0], false), st.make(c, m, g, f, rs[1], false)
					if fFirst {
						f.Complete(v1)
						sf.fail(g)
					} else {
						sf.fail(g)
						f.Complete(v1)
					}
					h2, h3 := st.make(c, m, f, g, rs[2], false), st.make(c, m, g, f, rs[3], false)
					for i, h := range []func() (*item, error){h0, h1, h2, h3} {
						v, err := h()
						switch {
						case err == nil:
							if !cmp.Equal(v, st.value(v1)) {
								c.Errorf("%s %v: h%d = %v", st.name, m, i, v)
							}
							st.assertSaw(rs[i], v1)
						case sourceFailureIs(err, sf):
							rs[i].assertNotInvoked()
						default:
							c.Errorf("%s %v: h%d failed with %v", st.name, m, i, err)
						}
					}
					checkCompletedNormally(c.T, f, v1)
				}
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_exceptionalCompletion2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, eitherStages[0], exceptionalFailure) })
}

func TestCompletableFutureTest_testApplyToEither_sourceCancelled2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, eitherStages[0], cancellation) })
}

func TestCompletableFutureTest_testAcceptEither_exceptionalCompletion2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, eitherStages[1], exceptionalFailure) })
}

func TestCompletableFutureTest_testRunAfterEither_exceptionalCompletion2(t *testing.T) {
	runTCK(t, func(c *tck) { eitherSourceFailed2(c, eitherStages[2], exceptionalFailure) })
}

// eitherActionFailed is testApplyToEither_actionFailed, testAcceptEither_actionFailed and
// testRunAfterEither_actionFailed.
func eitherActionFailed(c *tck, st eitherStage) {
	for _, m := range executionModes {
		for _, v1 := range values {
			for _, v2 := range []*item{two, nil} {
				f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
				rs := c.newActions(m, 6)
				h0, h1 := st.make(c, m, f, g, rs[0], true), st.make(c, m, g, f, rs[1], true)
				f.Complete(v1)
				h2, h3 := st.make(c, m, f, g, rs[2], true), st.make(c, m, g, f, rs[3], true)
				for i, h := range []func() (*item, error){h0, h1, h2, h3} {
					if _, err := h(); !errorIsAction(err, rs[i]) {
						c.Errorf("%s %v: h%d = %v, want the action's failure", st.name, m, i, err)
					}
					if st.saw != nil {
						rs[i].assertValue(v1)
					} else {
						rs[i].assertInvoked()
					}
				}
				g.Complete(v2)
				h4, h5 := st.make(c, m, f, g, rs[4], true), st.make(c, m, g, f, rs[5], true)
				for i, h := range []func() (*item, error){h4, h5} {
					if _, err := h(); !errorIsAction(err, rs[i+4]) {
						c.Errorf("%s %v: h%d = %v, want the action's failure", st.name, m, i+4, err)
					}
					rs[i+4].assertInvoked()
					if got := rs[i+4].get(); st.saw != nil && !cmp.Equal(got, v1) && !cmp.Equal(got, v2) {
						c.Errorf("%s %v: action %d saw %v", st.name, m, i+4, got)
					}
				}
				checkCompletedNormally(c.T, f, v1)
				checkCompletedNormally(c.T, g, v2)
			}
		}
	}
}

func TestCompletableFutureTest_testApplyToEither_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { eitherActionFailed(c, eitherStages[0]) })
}

func TestCompletableFutureTest_testAcceptEither_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { eitherActionFailed(c, eitherStages[1]) })
}

func TestCompletableFutureTest_testRunAfterEither_actionFailed(t *testing.T) {
	runTCK(t, func(c *tck) { eitherActionFailed(c, eitherStages[2]) })
}

const tenSeconds = 10 * time.Second

// errorIsAction reports whether err is the failure a's failing form makes: a.ex, or the
// *PanicError of its panic.
func errorIsAction(err error, a *action) bool {
	var ee *executors.ExecutionError
	if !errors.As(err, &ee) {
		return false
	}
	if !a.panics {
		return ee.Cause == a.ex
	}
	var pe *executors.PanicError
	return errors.As(ee.Cause, &pe) && pe.Value == a.ex
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
