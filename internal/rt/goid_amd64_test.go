//go:build !purego

package rt

import (
	"sync"
	"testing"
	"unsafe"
)

// GoidOffset, on amd64, is where every goroutine's g holds its id (the lock fast paths in
// assembly read it there).
func TestGoidOffset(t *testing.T) {
	if !GoidOK {
		if GoidOffset != 0 {
			t.Fatalf("GoidOffset = %d though goid.Get is not trusted", GoidOffset)
		}
		t.Log("goid.Get disagrees with runtime.Stack here: the locks take their Go paths")
		return
	}
	if GoidOffset == 0 {
		t.Fatal("GoidOffset not found on amd64")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 16 {
		wg.Go(func() {
			if got, want := *(*int64)(unsafe.Add(getg(), GoidOffset)), slowGoid(); got != want {
				errs <- "the word at GoidOffset is not the goroutine's id"
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
