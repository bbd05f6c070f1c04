package demo

import (
	"strconv"
	"time"
)

// arg returns loom's figure name as a program argument: the size loom's run used.
func arg(o Outcome, name string) string { return strconv.FormatInt(int64(o.Figures[name]+0.5), 10) }

// msArg returns a duration as a program argument in milliseconds.
func msArg(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

func noArgs(*Config, Outcome) []string { return nil }

// fixedVsVirtualTwin runs FixedVsVirtual.java with the tasks, pool and sleep of loom's run.
var fixedVsVirtualTwin = &JavaTwin{
	Program: "FixedVsVirtual",
	Args: func(c *Config, o Outcome) []string {
		return []string{arg(o, "tasks"), arg(o, "pool"), arg(o, "sleep_ms")}
	},
	Metric: "virtual_ms", What: "the virtual threads",
}

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
			Twin: fixedVsVirtualTwin,
		},
		{
			Name:  "cached-pool",
			Title: "10,000 tasks × 1 s sleep on a cached pool",
			Java:  "thousands of OS threads, then OutOfMemoryError: unable to create native thread",
			Rule:  "a platform thread per sleeping task, then a clean ErrThreadLimit at loom's limit (or all done below it); never a crash",
			Run:   cachedPool,
			Twin: &JavaTwin{Program: "CachedPool", Args: func(c *Config, o Outcome) []string {
				return []string{arg(o, "tasks"), msArg(c.dur(time.Second, 100*time.Millisecond))}
			}},
		},
		{
			Name:  "virtual-100k",
			Title: "100,000 tasks × 1 s sleep on virtual threads",
			Java:  "1,404–1,444 ms (JDK 25, 14 cores), ~170 MB peak; 3,400 ms (JDK 19, 6 cores)",
			Rule:  "done in under 5× the sleep (Java: 1.4× on 14 cores, 3.4× on 6)",
			Run:   virtual100k,
			Twin: &JavaTwin{Program: "Virtual100k", Args: func(c *Config, o Outcome) []string {
				return []string{arg(o, "tasks"), arg(o, "sleep_ms")}
			}, Metric: "elapsed_ms", What: "the run"},
		},
		{
			Name:  "platform-100k",
			Title: "100,000 tasks × 1 s sleep on platform (OS) threads",
			Java:  "11,500 ms, 23,000 threads",
			Rule:  "all done without a crash, over 3× the sleep (OS threads are the bottleneck)",
			Run:   platform100k,
			Twin: &JavaTwin{Program: "Platform100k", Args: func(c *Config, o Outcome) []string {
				return []string{arg(o, "tasks"), msArg(c.dur(time.Second, 100*time.Millisecond))}
			}, Metric: "elapsed_ms", What: "the run"},
		},
		{
			Name:  "fixed-vs-virtual-100ms",
			Title: "10,000 tasks × 100 ms sleep: fixed pool of 200 vs virtual",
			Java:  "5,048 ms vs 154 ms (33×)",
			Rule:  "fixed/virtual ≥ 10×",
			Run: func(c *Config) Outcome {
				return fixedVersusVirtual(c, 10_000, 200, 100*time.Millisecond, 20*time.Millisecond, 0)
			},
			Twin: fixedVsVirtualTwin,
		},
		{
			Name:  "futures-1m",
			Title: "1,000,000 tasks returning id*2, summed via futures",
			Java:  "sum 999,999,000,000 in 569 ms",
			Rule:  "the right sum, in under 10 µs a task (10 s at full scale, at least 1 s)",
			Run:   futures1M,
			Twin: &JavaTwin{Program: "Futures1M", Args: func(c *Config, o Outcome) []string { return []string{arg(o, "tasks")} },
				Metric: "elapsed_ms", What: "the run"},
		},
		{
			Name:  "memory-10k",
			Title: "10,000 sleeping threads: memory, virtual vs platform",
			Java:  "7.8 MB vs 19.2 GB (virtual memory, 1 MB stacks)",
			Rule:  "a platform thread costs ≥ 3× a virtual one",
			Run:   memory10k,
			Twin: &JavaTwin{Program: "Memory10k", Args: func(c *Config, o Outcome) []string { return []string{arg(o, "threads")} },
				Metric: "virtual_bytes_per_thread", What: "a sleeping virtual thread"},
		},
		{
			Name:  "create-10k",
			Title: "creating (starting and joining) 10,000 threads, virtual vs platform",
			Java:  "84 ms vs 346 ms",
			Rule:  "platform/virtual ≥ 2×",
			Run:   create10k,
			Twin: &JavaTwin{Program: "Create10k", Args: func(c *Config, o Outcome) []string { return []string{arg(o, "threads")} },
				Metric: "virtual_ms", What: "the virtual threads"},
		},
		{
			Name:  "one-carrier-sleepers",
			Title: "1 carrier, 3 virtual threads × 100 ms sleep",
			Java:  "156 ms total, all on worker-1",
			Rule:  "under 250 ms (not 300), all on worker-1",
			Run:   oneCarrierSleepers,
			Twin:  &JavaTwin{Program: "OneCarrierSleepers", Args: noArgs, Parallelism: 1, Metric: "elapsed_ms", What: "the run"},
		},
		{
			Name:  "pinning",
			Title: "1 carrier, 4 virtual threads × 200 ms sleep inside synchronized vs ReentrantLock",
			Java:  "Java 21: 831 vs 200 ms; Java 25: 213 vs 200 ms",
			Rule:  "Java 21 rules: synchronized ≥ 3× the lock; Java 25 rules: < 2×",
			Run:   pinning,
			Twin: &JavaTwin{Program: "Pinning", Args: noArgs, Parallelism: 1, MaxPoolSize: 1,
				Metric: "sync25_ms", JavaMetric: "sync_ms", What: "synchronized under Java 25 rules"},
		},
		{
			Name:  "monitors-100",
			Title: "1 carrier, 100 virtual threads × 50 ms sleep inside synchronized (Java 25 rules)",
			Java:  "59 ms, 1 carrier used",
			Rule:  "under half the time of the sleeps one after the other, and under 500 ms (at full scale: not 5 s), one carrier",
			Run:   hundredMonitors,
			Twin: &JavaTwin{Program: "Monitors100", Args: func(c *Config, o Outcome) []string { return []string{arg(o, "threads")} },
				Parallelism: 1, MaxPoolSize: 1, Metric: "elapsed_ms", What: "the run"},
		},
		{
			Name:  "scope-fail-fast",
			Title: "structured scope: one fork fails at 100 ms, another would take 2 s",
			Java:  "fails in 143 ms, slow fork interrupted",
			Rule:  "Join fails in under 1 s and the slow fork is interrupted",
			Run:   scopeFailFast,
			Twin:  &JavaTwin{Program: "ScopeFailFast", Args: noArgs, Metric: "elapsed_ms", What: "the failure"},
		},
		{
			Name:  "scope-first-success",
			Title: "first-success scope over forks of 300, 50 and 150 ms",
			Java:  "\"cache\" wins",
			Rule:  "\"cache\" (the 50 ms fork) wins, the others are cancelled",
			Run:   scopeFirstSuccess,
			Twin:  &JavaTwin{Program: "ScopeFirstSuccess", Args: noArgs, Metric: "elapsed_ms", What: "the winner"},
		},
		{
			Name:  "carrier-hopping",
			Title: "virtual thread toString before/after a sleep",
			Java:  "VirtualThread[#21]/runnable@ForkJoinPool-1-worker-1, may resume on another worker",
			Rule:  "the JDK's format before and after",
			Run:   carrierHopping,
			Twin:  &JavaTwin{Program: "CarrierHopping", Args: noArgs, Parallelism: 2},
		},
		{
			Name:  "threadlocal",
			Title: "ThreadLocal set in two virtual threads and in main",
			Java:  "each sees only its own value; main sees none (null) first",
			Rule:  "each thread reads back only its own value; main reads the zero value first",
			Run:   threadLocals,
			Twin:  &JavaTwin{Program: "ThreadLocals", Args: noArgs},
		},
		{
			Name:  "say-hello-world",
			Title: "goroutine-style say(\"hello\") / say(\"world\") on virtual threads",
			Java:  "same output as the Go original",
			Rule:  "5 hello + 5 world, sleeping concurrently",
			Run:   sayHelloWorld,
			Twin:  &JavaTwin{Program: "SayHelloWorld", Args: noArgs, Metric: "elapsed_ms", What: "the run"},
		},
		{
			Name:  "server-per-connection",
			Title: "thread-per-connection server on 2 carriers: 300 keep-alive clients × 5 lines 100 ms apart, virtual threads (vio) vs goroutines",
			Java:  "no article; issue 12 measured on this machine: JDK 25 600 ms, goroutines 540 ms",
			Rule:  "virtual threads take at most 2× the goroutines' time (plain conns: ~100×)",
			Run:   threadPerConnection,
			Twin: &JavaTwin{Program: "ServerPerConnection", Parallelism: 2, Metric: "virtual_ms", JavaMetric: "elapsed_ms", What: "the virtual threads",
				Args: func(c *Config, o Outcome) []string {
					return []string{arg(o, "clients"), arg(o, "lines"), arg(o, "gap_ms")}
				}},
		},
		{
			Name:  "http-calls-10k",
			Title: "10,000 HTTP calls at once (≤ 2,000 connections) to a server answering after 100 ms, virtual threads (vio.Transport) vs goroutines",
			Java:  "no article; JDK 25's HttpClient on virtual threads, this machine, loaded: 2,500–5,700 ms",
			Rule:  "every call answered; virtual threads take at most 2× the goroutines' time",
			Run:   httpCalls,
			Twin: &JavaTwin{Program: "HttpCalls", Parallelism: 2, Metric: "virtual_ms", JavaMetric: "elapsed_ms", What: "the virtual threads",
				Args: func(c *Config, o Outcome) []string { return []string{arg(o, "calls"), arg(o, "conns")} }},
		},
		{
			Name:  "queue-sum",
			Title: "the Go tour's channel sum with a SynchronousQueue and virtual threads",
			Java:  "same output as the Go original (-5 17 12)",
			Rule:  "the two half sums, in either order, and 12",
			Run:   queueSum,
			Twin:  &JavaTwin{Program: "QueueSum", Args: noArgs},
		},
		{
			Name:  "work-stealing",
			Title: "work stealing: one worker forks 2,000 CPU-bound tasks on its own deque, 4 workers",
			Java:  "ForkJoinPool: the idle workers steal from the loaded deque (getStealCount > 0, work spread out)",
			Rule:  "≥ 2 workers ran tasks, and StealCount ≥ the tasks the other workers ran",
			Run:   workStealing,
			Twin: &JavaTwin{Program: "WorkStealing", Args: func(c *Config, o Outcome) []string {
				return []string{arg(o, "tasks")}
			}, Metric: "by_others", What: "the tasks the other workers ran"},
		},
	}
}
