package structured_test

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

func findUser() (string, error) { thread.Sleep(20 * time.Millisecond); return "duke", nil }
func fetchOrder() (int, error)  { thread.Sleep(10 * time.Millisecond); return 42, nil }

// The JEP 505 example: two subtasks of different types, both needed.
func ExampleOpen() {
	s := structured.Open()
	defer s.Close()
	user := structured.Fork(s, findUser)
	order := structured.Fork(s, fetchOrder)
	if _, err := s.Join(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(user.Get(), order.Get())
	// Output: duke 42
}

// Java 21's ShutdownOnFailure: the first failure cancels the others.
func ExampleAwaitAllSuccessfulOrThrow() {
	s := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[any]())
	defer s.Close()
	slow := structured.Fork(s, func() (string, error) {
		if err := thread.Sleep(2 * time.Second); err != nil {
			return "", err // interrupted when the scope is cancelled
		}
		return "slow", nil
	})
	structured.Fork(s, func() (string, error) {
		thread.Sleep(100 * time.Millisecond)
		return "", errors.New("inventory service down")
	})
	_, err := s.Join()
	var failed *structured.FailedError
	fmt.Println(errors.As(err, &failed), failed.Cause)
	fmt.Println(slow.State())
	// Output:
	// true inventory service down
	// UNAVAILABLE
}

// Java 21's ShutdownOnSuccess: the first result wins and the others are cancelled.
func ExampleAnySuccessfulResultOrThrow() {
	s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
	defer s.Close()
	for _, src := range []struct {
		name string
		d    time.Duration
	}{{"database", 900 * time.Millisecond}, {"cache", 50 * time.Millisecond}, {"replica", 600 * time.Millisecond}} {
		structured.Fork(s, func() (string, error) {
			if err := thread.Sleep(src.d); err != nil {
				return "", err
			}
			return src.name, nil
		})
	}
	fastest, err := s.Join()
	fmt.Println(fastest, err)
	// Output: cache <nil>
}

func ExampleAllSuccessfulOrThrow() {
	s := structured.OpenWith(structured.AllSuccessfulOrThrow[int]())
	defer s.Close()
	for i := 1; i <= 3; i++ {
		structured.Fork(s, func() (int, error) { return i * i, nil })
	}
	subtasks, err := s.Join()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, st := range subtasks {
		fmt.Print(st.Get(), " ")
	}
	fmt.Println()
	// Output: 1 4 9
}

func ExampleWithTimeout() {
	s := structured.OpenWith(structured.AwaitAll[any](), structured.WithTimeout(50*time.Millisecond))
	defer s.Close()
	structured.Fork(s, func() (any, error) { return nil, thread.Sleep(time.Minute) })
	_, err := s.Join()
	fmt.Println(errors.Is(err, structured.ErrTimeout), s.IsCancelled())
	// Output: true true
}

// Scoped values bound when the scope is opened are seen by its subtasks.
func ExampleFork_scopedValue() {
	requestID := scoped.NewInstance[string]()
	scoped.Where(requestID, "req-7").Run(func() {
		s := structured.Open()
		defer s.Close()
		a := structured.Fork(s, func() (string, error) { return "a sees " + requestID.Get(), nil })
		b := structured.Fork(s, func() (string, error) { return "b sees " + requestID.Get(), nil })
		s.Join()
		fmt.Println(a.Get())
		fmt.Println(b.Get())
	})
	// Output:
	// a sees req-7
	// b sees req-7
}

// collectingJoiner is a custom joiner: it collects the results of the subtasks that succeed and
// ignores the failures (the example in Java's Joiner documentation).
type collectingJoiner[T any] struct {
	structured.BaseJoiner[T]
	mu      sync.Mutex
	results []T
}

func (j *collectingJoiner[T]) OnComplete(s structured.Subtask[T]) bool {
	if s.State() == structured.Success {
		j.mu.Lock()
		j.results = append(j.results, s.Get())
		j.mu.Unlock()
	}
	return false
}

func (j *collectingJoiner[T]) Result() ([]T, error) { return j.results, nil }

// A custom joiner: collect the successful results, ignore failures.
func ExampleJoiner() {
	j := &collectingJoiner[string]{}
	s := structured.OpenWith[string, []string](j)
	defer s.Close()
	structured.Fork(s, func() (string, error) { return "ok", nil })
	structured.Fork(s, func() (string, error) { return "", errors.New("lost") })
	results, _ := s.Join()
	fmt.Println(results)
	// Output: [ok]
}
