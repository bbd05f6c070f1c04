package queue

// ring is a growable double-ended ring buffer; the queues that use it guard it with their lock.
type ring[T any] struct {
	buf  []T
	head int // index of the first element
	n    int
}

func (r *ring[T]) len() int { return r.n }

func (r *ring[T]) idx(i int) int {
	j := r.head + i
	if j >= len(r.buf) {
		j -= len(r.buf)
	}
	return j
}

func (r *ring[T]) at(i int) T { return r.buf[r.idx(i)] }

func (r *ring[T]) grow() {
	if r.n < len(r.buf) {
		return
	}
	nb := make([]T, max(8, 2*len(r.buf)))
	for i := range r.n {
		nb[i] = r.at(i)
	}
	r.buf, r.head = nb, 0
}

func (r *ring[T]) pushBack(e T) {
	r.grow()
	r.buf[r.idx(r.n)] = e
	r.n++
}

func (r *ring[T]) pushFront(e T) {
	r.grow()
	if r.head--; r.head < 0 {
		r.head = len(r.buf) - 1
	}
	r.buf[r.head] = e
	r.n++
}

func (r *ring[T]) popFront() T {
	var zero T
	e := r.buf[r.head]
	r.buf[r.head] = zero
	if r.head++; r.head == len(r.buf) {
		r.head = 0
	}
	r.n--
	return e
}

func (r *ring[T]) popBack() T {
	var zero T
	j := r.idx(r.n - 1)
	e := r.buf[j]
	r.buf[j] = zero
	r.n--
	return e
}

func (r *ring[T]) front() T { return r.buf[r.head] }
func (r *ring[T]) back() T  { return r.at(r.n - 1) }

// removeAt removes the element i places from the front.
func (r *ring[T]) removeAt(i int) {
	for k := i; k < r.n-1; k++ {
		r.buf[r.idx(k)] = r.at(k + 1)
	}
	var zero T
	r.buf[r.idx(r.n-1)] = zero
	r.n--
}

func (r *ring[T]) clear() {
	clear(r.buf)
	r.head, r.n = 0, 0
}

func (r *ring[T]) slice() []T {
	s := make([]T, r.n)
	for i := range s {
		s[i] = r.at(i)
	}
	return s
}
