package oracle_test

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/loomgo/loom/thread"
)

// Log is the canonical log of one scenario: the Go twin of Log in java/Oracle.java. Both halves
// write the same lines for the same behaviour.
type Log struct {
	mu    sync.Mutex
	lines []string
}

// P appends a line: format with each %s replaced by the next argument written by str (Java:
// String.format, and the scenarios use no verb but %s).
func (l *Log) P(format string, args ...any) {
	line := subst(format, args)
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
}

// Lines returns a copy of the log.
func (l *Log) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// Call runs fn and logs "label -> ok", or "label -> <exception>" for the error it returns or the
// panic it raises (Java's unchecked exceptions are panics in loom).
func (l *Log) Call(label string, fn func() error) {
	l.P("%s -> %s", label, outcome(func() (string, error) { return "ok", fn() }))
}

// Val runs fn and logs "label -> <value>", or "label -> <exception>".
func (l *Log) Val(label string, fn func() (any, error)) {
	l.P("%s -> %s", label, outcome(func() (string, error) {
		v, err := fn()
		return str(v), err
	}))
}

func outcome(fn func() (string, error)) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = panicName(r)
		}
	}()
	v, err := fn()
	if err != nil {
		return exName(err)
	}
	return v
}

// subst replaces each %s in format with the next argument, written by str.
func subst(format string, args []any) string {
	var b strings.Builder
	for {
		i := strings.Index(format, "%s")
		if i < 0 || len(args) == 0 {
			b.WriteString(format)
			return b.String()
		}
		b.WriteString(format[:i])
		b.WriteString(str(args[0]))
		format, args = format[i+2:], args[1:]
	}
}

// null is what a comma-ok result that is not ok logs as: Java's null.
type null struct{}

// opt returns v, or null when !ok.
func opt[T any](v T, ok bool) any {
	if !ok {
		return null{}
	}
	return v
}

// str formats a value as Java's String.valueOf would: nil and null{} are "null", slices
// "[a, b]", errors by their exception name.
func str(v any) string {
	switch x := v.(type) {
	case nil, null:
		return "null"
	case string:
		return x
	case error:
		return exName(x)
	case fmt.Stringer:
		return x.String()
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		parts := make([]string, rv.Len())
		for i := range parts {
			parts[i] = str(rv.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// boom is the error the scenarios return on purpose: Java's Boom (a checked exception) or,
// raised by a panic, BoomRuntime. Logged as Boom(message).
type boom string

func (b boom) Error() string { return string(b) }

// awaitState polls until t is in state s, or logs after 10 s that it did not get there.
func awaitState(lg *Log, t *thread.Thread, s thread.State) bool {
	return await(lg, "state "+s.String(), func() bool { return t.State() == s })
}

// await polls cond every millisecond until it holds, or logs after 10 s that it did not.
func await(lg *Log, what string, cond func() bool) bool {
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			lg.P("gave up waiting for %s", what)
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// join joins each thread for up to a minute and logs if one did not end.
func join(lg *Log, ts ...*thread.Thread) {
	for _, t := range ts {
		if ok, _ := t.JoinTimeout(time.Minute); !ok {
			lg.P("thread did not end: %s", t)
		}
	}
}

// list is a slice safe to append to from several threads (Java: a synchronized list).
type list struct {
	mu sync.Mutex
	xs []string
}

func (l *list) add(format string, args ...any) {
	l.mu.Lock()
	l.xs = append(l.xs, subst(format, args))
	l.mu.Unlock()
}

func (l *list) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return str(l.xs)
}

// blocked polls until t is blocked (neither NEW nor RUNNABLE) and returns its state.
func blocked(lg *Log, t *thread.Thread) thread.State {
	await(lg, "the thread to block", func() bool {
		s := t.State()
		return s != thread.New && s != thread.Runnable
	})
	return t.State()
}
