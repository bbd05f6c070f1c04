package demo

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// threadLocals sets a ThreadLocal in two virtual threads and in main: each sees only its own
// value, and main sees none before it sets one.
func threadLocals(c *Config) Outcome {
	tl := threadlocal.New[string]()
	mainFirst := tl.Get() // the zero value: Java's null
	seen := make([]string, 2)
	var ths []*thread.Thread
	for i, v := range []string{"virtual-1", "virtual-2"} {
		ths = append(ths, thread.StartVirtualThread(func() {
			tl.Set(v)
			sleepFor(10 * time.Millisecond) // unmount, perhaps re-mount on another carrier
			seen[i] = tl.Get()
		}))
	}
	tl.Set("main")
	for _, t := range ths {
		joinAll(t)
	}
	mainAfter := tl.Get()
	tl.Remove()
	ok := mainFirst == "" && seen[0] == "virtual-1" && seen[1] == "virtual-2" && mainAfter == "main"
	return Outcome{
		Loom:    fmt.Sprintf("main first %q, then %q; threads saw %q and %q", mainFirst, mainAfter, seen[0], seen[1]),
		Same:    ok,
		Verdict: "each thread reads back only its own value; main reads the zero value (Java's null) first",
	}
}
