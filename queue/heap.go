package queue

import "slices"

// binaryHeap is a min-heap under less; the queues that use it guard it with their lock.
type binaryHeap[T any] struct {
	items []T
	less  func(a, b T) bool
}

// push adds e and returns its final index (0: it is the new head).
func (h *binaryHeap[T]) push(e T) int {
	h.items = append(h.items, e)
	return h.up(len(h.items) - 1)
}

func (h *binaryHeap[T]) pop() T { return h.removeAt(0) }

func (h *binaryHeap[T]) removeAt(i int) T {
	var zero T
	e := h.items[i]
	n := len(h.items) - 1
	if i != n {
		h.items[i] = h.items[n]
	}
	h.items[n] = zero
	h.items = h.items[:n]
	if i < n {
		h.down(i)
		h.up(i)
	}
	if n == 0 && cap(h.items) > 64 {
		h.items = nil // give a large drained heap back to the garbage collector
	}
	return e
}

func (h *binaryHeap[T]) up(i int) int {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.items[i], h.items[p]) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
	return i
}

func (h *binaryHeap[T]) down(i int) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(h.items[r], h.items[l]) {
			m = r
		}
		if !h.less(h.items[m], h.items[i]) {
			return
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
}

// removeIf deletes the elements satisfying pred and restores the heap order.
func (h *binaryHeap[T]) removeIf(pred func(T) bool) int {
	n := len(h.items)
	h.items = slices.DeleteFunc(h.items, pred)
	for i := len(h.items)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return n - len(h.items)
}
