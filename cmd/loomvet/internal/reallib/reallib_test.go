package reallib_test

import (
	"go/types"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/loomgo/loom/cmd/loomvet/internal/loomapi"
	"github.com/loomgo/loom/cmd/loomvet/internal/lostinterrupt"
	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The stubs in ../testdata copy these signatures of the real API; if one changes, this file stops
// compiling and the stubs must follow.
var (
	_ func(time.Duration) error                                                           = thread.Sleep
	_ func(func()) *thread.Thread                                                         = thread.StartVirtualThread
	_ func(func())                                                                        = thread.Blocking
	_ func(*thread.VirtualBuilder, func()) *thread.Thread                                 = (*thread.VirtualBuilder).Start
	_ func(*thread.VirtualBuilder) thread.Factory                                         = (*thread.VirtualBuilder).Factory
	_ func(*thread.Thread) error                                                          = (*thread.Thread).Join
	_ func() *executors.ThreadPerTaskExecutor                                             = executors.NewVirtualThreadPerTaskExecutor
	_ func(thread.Factory) *executors.ThreadPerTaskExecutor                               = executors.NewThreadPerTaskExecutor
	_ func(executors.ExecutorService, func() (int, error)) (executors.Future[int], error) = executors.Submit[int]
	_ func(executors.ExecutorService, func()) (executors.Future[struct{}], error)         = executors.SubmitRunnable
	_ func(func() (int, error)) *executors.CompletableFuture[int]                         = executors.SupplyAsync[int]
	_ func(*structured.Scope[any, struct{}], func() (int, error)) structured.Subtask[int] = structured.Fork[int, any, struct{}]
	_ func(*int) *locks.Monitor                                                           = locks.MonitorOf[int]
	_ func(*locks.ReentrantLock)                                                          = (*locks.ReentrantLock).Lock
	_ func(*locks.Monitor)                                                                = (*locks.Monitor).Enter
	_ func(*queue.LinkedBlockingQueue[int]) (int, error)                                  = (*queue.LinkedBlockingQueue[int]).Take
)

// TestInterruptibleFacts runs lostinterrupt over the real library and checks the functions it
// learns to be interruptible: every blocking call Java declares to throw InterruptedException, and
// none of those loom documents as not interruptible.
func TestInterruptibleFacts(t *testing.T) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: false}
	pkgs, err := packages.Load(cfg, "github.com/loomgo/loom/...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the loom packages do not load")
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{lostinterrupt.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	learnt := map[string]bool{}
	for act := range graph.All() {
		if act.Analyzer != lostinterrupt.Analyzer {
			continue
		}
		for _, f := range act.AllObjectFacts() {
			if fn, ok := f.Object.(*types.Func); ok && loomapi.InLoom(fn.Pkg()) {
				learnt[loomapi.Name(fn)] = true
			}
		}
	}
	want := []string{
		"thread.Sleep", "(*thread.Thread).Join", "(*thread.Thread).JoinTimeout",
		"(*locks.ReentrantLock).LockInterruptibly", "(*locks.ReentrantLock).TryLockTimeout",
		"(*locks.ReadLock).LockInterruptibly", "(*locks.WriteLock).LockInterruptibly",
		"(*locks.Condition).Await", "(*locks.Condition).AwaitTimeout", "(*locks.Condition).AwaitUntil", "(*locks.Condition).AwaitNanos",
		"(*locks.Monitor).Wait", "(*locks.Monitor).WaitTimeout",
		"(*locks.CountDownLatch).Await", "(*locks.CountDownLatch).AwaitTimeout",
		"(*locks.Semaphore).Acquire", "(*locks.Semaphore).AcquireN", "(*locks.Semaphore).TryAcquireTimeout",
		"(*locks.CyclicBarrier).Await", "(*locks.CyclicBarrier).AwaitTimeout",
		"queue.BlockingQueue.Put", "queue.BlockingQueue.Take", "queue.BlockingQueue.OfferTimeout", "queue.BlockingQueue.PollTimeout",
		"(*queue.LinkedBlockingQueue).Take", "(*queue.ArrayBlockingQueue).Put", "(*queue.SynchronousQueue).Take", "(*queue.SynchronousQueue).Put",
		"(*queue.LinkedBlockingDeque).TakeFirst", "(*queue.DelayQueue).Take", "queue.TransferQueue.Transfer",
		"executors.Future.Get", "executors.Future.GetTimeout", "(*executors.FutureTask).Get", "(*executors.CompletableFuture).Get",
		"executors.ExecutorService.AwaitTermination", "(*executors.ThreadPoolExecutor).AwaitTermination",
		"executors.InvokeAll", "executors.InvokeAny",
		"(*structured.Scope).Join",
	}
	notWant := []string{
		"(*executors.CompletableFuture).Join", "executors.ExecutorService.Close", "(*executors.ThreadPerTaskExecutor).Close",
		"executors.ExecutorService.Execute", "(*queue.DelayQueue).Put", "(*queue.PriorityBlockingQueue).Put",
		"(*queue.LinkedBlockingQueue).Add", "thread.DumpThreads", "(*thread.Thread).TryStart",
	}
	var missing, wrong []string
	for _, n := range want {
		if !learnt[n] {
			missing = append(missing, n)
		}
	}
	for _, n := range notWant {
		if learnt[n] {
			wrong = append(wrong, n)
		}
	}
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		all := make([]string, 0, len(learnt))
		for n := range learnt {
			all = append(all, n)
		}
		slices.Sort(all)
		t.Errorf("interruptible functions not learnt (-want +got):\n%s\nlearnt: %v", diff, all)
	}
	if diff := cmp.Diff([]string(nil), wrong); diff != "" {
		t.Errorf("functions learnt as interruptible that are not (-want +got):\n%s", diff)
	}
}
