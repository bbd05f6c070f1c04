package thread

import (
	"testing"
	"unsafe"
)

// The Thread core stays within 112 bytes (one size class below 128): what a thread that never
// parks costs. Cold fields go to extra, the wait to the parker.
func TestThreadCoreSize(t *testing.T) {
	if n := unsafe.Sizeof(Thread{}); n > 112 {
		t.Fatalf("Thread is %d bytes, want <= 112", n)
	}
	if n := unsafe.Sizeof(parker{}); n > 64 {
		t.Fatalf("parker is %d bytes, want <= 64", n)
	}
}
