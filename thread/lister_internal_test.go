package thread

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type fakeLister []*Thread

func (l fakeLister) Threads(yield func(t any) bool) {
	for _, t := range l {
		if !yield(t) {
			return
		}
	}
}

// TestListerAddRemove: the threads of an added lister are listed (listedThreads) until its remove
// is called; calling remove again does nothing (it is called both when an executor terminates and
// when it is collected).
func TestListerAddRemove(t *testing.T) {
	a, b := &Thread{id: -2}, &Thread{id: -3}
	listed := func() []int64 { // the ids of a and b, if listed
		var got []int64
		listedThreads(func(t *Thread) {
			if t == a || t == b {
				got = append(got, t.id)
			}
		})
		slices.Sort(got)
		return got
	}
	removeA := addLister(fakeLister{a})
	removeB := addLister(fakeLister{b})
	if diff := cmp.Diff([]int64{-3, -2}, listed()); diff != "" {
		t.Errorf("two listers (-want +got):\n%s", diff)
	}
	removeA()
	removeA()
	if diff := cmp.Diff([]int64{-3}, listed()); diff != "" {
		t.Errorf("after removing one twice (-want +got):\n%s", diff)
	}
	removeB()
	if got := listed(); len(got) != 0 {
		t.Errorf("after removing both: %v", got)
	}
}
