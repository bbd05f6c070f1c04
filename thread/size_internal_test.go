package thread

import (
	"testing"
	"unsafe"
)

// The Thread core stays within 96 bytes (a size class): what a thread that never parks costs.
// Cold fields go to extra, the wait to the parker.
func TestThreadCoreSize(t *testing.T) {
	if n := unsafe.Sizeof(Thread{}); n > 96 {
		t.Fatalf("Thread is %d bytes, want <= 96", n)
	}
	if n := unsafe.Sizeof(parker{}); n > 64 {
		t.Fatalf("parker is %d bytes, want <= 64", n)
	}
}

// A park with a blocker (a lock, a queue, a join) costs the small extra, not extraMore.
func TestExtraSize(t *testing.T) {
	if n := unsafe.Sizeof(extra{}); n > 32 {
		t.Fatalf("extra is %d bytes, want <= 32", n)
	}
}
