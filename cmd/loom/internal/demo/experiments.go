package demo

import "time"

// All returns the experiments of DESIGN.md section 4, in the order the articles tell them.
func All() []Experiment {
	return []Experiment{
		{
			Name:  "fixed-vs-virtual-1s",
			Title: "10,000 tasks × 1 s sleep: fixed pool of 200 vs virtual thread per task",
			Java:  "50,436 ms vs 1,582 ms (32×); 207 vs 15 platform threads",
			Rule:  "fixed/virtual ≥ 10×, and the fixed pool holds its threads' worth of OS threads",
			Run: func(c *Config) Outcome {
				return fixedVersusVirtual(c, 10_000, 200, time.Second, 20*time.Millisecond, 200*time.Millisecond)
			},
			Last: true, // sized to what is left of the time budget
		},
		{
			Name:  "cached-pool",
			Title: "10,000 tasks × 1 s sleep on a cached pool",
			Java:  "thousands of OS threads, then OutOfMemoryError: unable to create native thread",
			Rule:  "thousands of OS threads, then a clean ErrThreadLimit (or all done); never a crash",
			Run:   cachedPool,
		},
		{
			Name:  "virtual-100k",
			Title: "100,000 tasks × 1 s sleep on virtual threads",
			Java:  "1,404–1,444 ms (JDK 25, 14 cores), ~170 MB peak; 3,400 ms (JDK 19, 6 cores)",
			Rule:  "done in under 5× the sleep (Java: 1.4× on 14 cores, 3.4× on 6)",
			Run:   virtual100k,
		},
		{
			Name:  "platform-100k",
			Title: "100,000 tasks × 1 s sleep on platform (OS) threads",
			Java:  "11,500 ms, 23,000 threads",
			Rule:  "all done without a crash, over 3× the sleep (OS threads are the bottleneck)",
			Run:   platform100k,
		},
		{
			Name:  "fixed-vs-virtual-100ms",
			Title: "10,000 tasks × 100 ms sleep: fixed pool of 200 vs virtual",
			Java:  "5,048 ms vs 154 ms (33×)",
			Rule:  "fixed/virtual ≥ 10×",
			Run: func(c *Config) Outcome {
				return fixedVersusVirtual(c, 10_000, 200, 100*time.Millisecond, 20*time.Millisecond, 0)
			},
		},
		{
			Name:  "futures-1m",
			Title: "1,000,000 tasks returning id*2, summed via futures",
			Java:  "sum 999,999,000,000 in 569 ms",
			Rule:  "the right sum, in under 10 s",
			Run:   futures1M,
		},
		{
			Name:  "memory-10k",
			Title: "10,000 sleeping threads: memory, virtual vs platform",
			Java:  "7.8 MB vs 19.2 GB (virtual memory, 1 MB stacks)",
			Rule:  "a platform thread costs ≥ 3× a virtual one",
			Run:   memory10k,
		},
		{
			Name:  "create-10k",
			Title: "creating (starting and joining) 10,000 threads, virtual vs platform",
			Java:  "84 ms vs 346 ms",
			Rule:  "platform/virtual ≥ 2×",
			Run:   create10k,
		},
		{
			Name:  "one-carrier-sleepers",
			Title: "1 carrier, 3 virtual threads × 100 ms sleep",
			Java:  "156 ms total, all on worker-1",
			Rule:  "under 250 ms (not 300), all on worker-1",
			Run:   oneCarrierSleepers,
		},
		{
			Name:  "pinning",
			Title: "1 carrier, 4 virtual threads × 200 ms sleep inside synchronized vs ReentrantLock",
			Java:  "Java 21: 831 vs 200 ms; Java 25: 213 vs 200 ms",
			Rule:  "Java 21 rules: synchronized ≥ 3× the lock; Java 25 rules: < 2×",
			Run:   pinning,
		},
		{
			Name:  "monitors-100",
			Title: "1 carrier, 100 virtual threads × 50 ms sleep inside synchronized (Java 25 rules)",
			Java:  "59 ms, 1 carrier used",
			Rule:  "under 500 ms (not 5 s), one carrier",
			Run:   hundredMonitors,
		},
		{
			Name:  "scope-fail-fast",
			Title: "structured scope: one fork fails at 100 ms, another would take 2 s",
			Java:  "fails in 143 ms, slow fork interrupted",
			Rule:  "Join fails in under 1 s and the slow fork is interrupted",
			Run:   scopeFailFast,
		},
		{
			Name:  "scope-first-success",
			Title: "first-success scope over forks of 300, 50 and 150 ms",
			Java:  "\"cache\" wins",
			Rule:  "\"cache\" (the 50 ms fork) wins, the others are cancelled",
			Run:   scopeFirstSuccess,
		},
		{
			Name:  "carrier-hopping",
			Title: "virtual thread toString before/after a sleep",
			Java:  "VirtualThread[#21]/runnable@ForkJoinPool-1-worker-1, may resume on another worker",
			Rule:  "the JDK's format before and after",
			Run:   carrierHopping,
		},
		{
			Name:  "threadlocal",
			Title: "ThreadLocal set in two virtual threads and in main",
			Java:  "each sees only its own value; main sees none (null) first",
			Rule:  "each thread reads back only its own value; main reads the zero value first",
			Run:   threadLocals,
		},
		{
			Name:  "say-hello-world",
			Title: "goroutine-style say(\"hello\") / say(\"world\") on virtual threads",
			Java:  "same output as the Go original",
			Rule:  "5 hello + 5 world, sleeping concurrently",
			Run:   sayHelloWorld,
		},
		{
			Name:  "queue-sum",
			Title: "the Go tour's channel sum with a SynchronousQueue and virtual threads",
			Java:  "same output as the Go original (-5 17 12)",
			Rule:  "the two half sums, in either order, and 12",
			Run:   queueSum,
		},
		{
			Name:  "work-stealing",
			Title: "work stealing: one worker forks 2,000 CPU-bound tasks on its own deque, 4 workers",
			Java:  "ForkJoinPool: the idle workers steal from the loaded deque (getStealCount > 0, work spread out)",
			Rule:  "≥ 2 workers ran tasks, and StealCount ≥ the tasks the other workers ran",
			Run:   workStealing,
		},
	}
}
