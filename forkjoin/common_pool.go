package forkjoin

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

var (
	commonOnce      sync.Once
	common          *Pool
	commonKeepAlive = DefaultKeepAlive // tests shorten it
)

// CommonPool returns the pool shared by the program: Java's ForkJoinPool.commonPool(). Fork
// on a thread that is not a worker queues the task here. Its parallelism is
// [CommonPoolParallelism](). It is made on first use, its workers (named
// "ForkJoinPool.commonPool-worker-K") start on demand and end after [DefaultKeepAlive] without
// work, so an idle program holds none of them; Shutdown, ShutdownNow and Close have no effect
// on it, as in Java.
func CommonPool() *Pool {
	commonOnce.Do(func() {
		common = newPool(PoolOptions{Parallelism: CommonPoolParallelism(), KeepAlive: commonKeepAlive})
		common.common = true
		common.prefix = "ForkJoinPool.commonPool-worker-"
	})
	return common
}

// CommonPoolParallelism returns the common pool's parallelism: [runtime.GOMAXPROCS](0)-1 (at
// least 1), as Java's availableProcessors()-1, or the value of the JDK property
// java.util.concurrent.ForkJoinPool.common.parallelism in the environment variable LOOM_OPTS
// ("-Djava.util.concurrent.ForkJoinPool.common.parallelism=N", N >= 1). It ports
// ForkJoinPool.getCommonPoolParallelism().
func CommonPoolParallelism() int {
	for _, f := range strings.Fields(os.Getenv("LOOM_OPTS")) {
		k, v, _ := strings.Cut(strings.TrimPrefix(f, "-D"), "=")
		if k == "java.util.concurrent.ForkJoinPool.common.parallelism" {
			if n, err := strconv.Atoi(v); err == nil && n >= 1 {
				return min(n, MaxParallelism)
			}
		}
	}
	return max(runtime.GOMAXPROCS(0)-1, 1)
}

// commonKeepAliveForTest is how tests make common-pool workers end soon after they idle.
func setCommonKeepAlive(d time.Duration) { commonKeepAlive = d }
