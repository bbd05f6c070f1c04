package carrier

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The run queue: an unbounded, lock-free, multi-producer multi-consumer FIFO of Runnables, a port
// of crossbeam's SegQueue (crossbeam-queue/src/seg_queue.rs) to Go.
//
// The queue is a linked list of blocks of blockCap cells. An index counts positions; each block
// takes lap = blockCap+1 positions, the last one a sentinel that is never a cell: an index whose
// offset in its lap is blockCap means "the next block is being installed". A producer claims a
// position with a compare-and-swap on the tail index; the one that claims the last cell of a
// block allocates the next block (before its CAS, so the others wait as short a time as possible),
// links it and moves the tail past the sentinel. It then writes the Runnable into its cell and
// sets the cell's write flag. A consumer claims a position the same way on the head index, unless
// head and tail are equal (empty); it waits for the cell's write flag (the producer has claimed
// the cell and is writing it: a few instructions, unless it was preempted in between), reads the
// Runnable and clears the cell.
//
// Why a CAS on the index validates the block loaded after it: the index only moves past a block's
// end after that block's successor has been stored as the current block, and indexes never repeat,
// so if the index is unchanged between the load and the CAS, no block switch happened in between
// and the block loaded matches the index.
//
// Blocks are reused (a sync.Pool), with crossbeam's destruction protocol deciding when a block is
// free: the consumer of a block's last cell starts the destruction, which walks the other cells
// and marks each not yet read (destroy); a consumer that reads a marked cell continues the walk
// from the next one; whoever finishes the walk owns the block, clears it and puts it in the pool.
// A producer or consumer that still holds a pointer to a recycled block only loads from it: its
// CAS on the index (which never repeats) fails, and it reloads. Not reusing blocks (the garbage
// collector would free them) measured at 24 bytes of garbage a Runnable, twice per virtual thread
// that parks (its start and its resumption).
//
// The head index keeps, in its low bit, a hint that the block after the head block exists
// (hasNext): a consumer that sees it need not load the tail to know the queue is not empty.

const (
	shift    = 1 // the low bit of the head index is the hasNext hint
	hasNext  = 1
	lap      = 64 // positions per block
	blockCap = lap - 1
)

// The bits of a cell's state.
const (
	cellWrite   = 1 // the Runnable is written
	cellRead    = 2 // the Runnable has been read
	cellDestroy = 4 // the block's destruction has reached this cell before it was read
)

type cell struct {
	state atomic.Uint32
	r     Runnable // written before cellWrite is set, read after it is seen
}

var blocks = sync.Pool{New: func() any { return new(block) }}

func newBlock() *block { return blocks.Get().(*block) }

// destroy continues the destruction of b at cell start (see above).
func destroy(b *block, start int) {
	for i := start; i < blockCap-1; i++ {
		c := &b.cells[i]
		if c.state.Load()&cellRead == 0 && c.state.Or(cellDestroy)&cellRead == 0 {
			return // its consumer has not read it yet: it goes on when it has
		}
	}
	// nobody else uses b any more
	b.next.Store(nil)
	for i := range b.cells {
		b.cells[i].state.Store(0)
	}
	blocks.Put(b)
}

type block struct {
	next  atomic.Pointer[block]
	cells [blockCap]cell
}

// waitNext returns b's successor, waiting for the producer that is installing it.
func (b *block) waitNext() *block {
	for i := 0; ; i++ {
		if n := b.next.Load(); n != nil {
			return n
		}
		backoff(i)
	}
}

type position struct {
	index atomic.Uint64
	block atomic.Pointer[block]
	_     [48]byte // head and tail on different cache lines: producers and consumers do not share
}

type runQueue struct {
	head position
	tail position
}

func newRunQueue() *runQueue {
	q := &runQueue{}
	b := newBlock()
	q.head.block.Store(b)
	q.tail.block.Store(b)
	return q
}

// backoff spins briefly, then yields the processor: the thread being waited for (a producer
// between its claim and its write, or installing a block) may have been preempted.
func backoff(i int) {
	if i < 16 {
		return // spin
	}
	runtime.Gosched()
}

func (q *runQueue) push(r Runnable) {
	tail := q.tail.index.Load()
	b := q.tail.block.Load()
	var next *block
	for i := 0; ; i++ {
		offset := (tail >> shift) % lap
		if offset == blockCap {
			// another producer is installing the next block
			backoff(i)
			tail = q.tail.index.Load()
			b = q.tail.block.Load()
			continue
		}
		if offset+1 == blockCap && next == nil {
			next = newBlock()
		}
		newTail := tail + 1<<shift
		if !q.tail.index.CompareAndSwap(tail, newTail) {
			tail = q.tail.index.Load()
			b = q.tail.block.Load()
			continue
		}
		if offset+1 == blockCap {
			// claimed the last cell: install the next block and skip the sentinel
			q.tail.block.Store(next)
			q.tail.index.Store(newTail + 1<<shift)
			b.next.Store(next)
			next = nil
		}
		c := &b.cells[offset]
		c.r = r
		c.state.Or(cellWrite)
		if next != nil {
			blocks.Put(next) // allocated for a block switch another producer made
		}
		return
	}
}

// pop takes the head of the queue. Its common case (the head's cell is written and not the last
// of its block) is a small frame: the carrier that calls it may be deep in a parked thread's
// stack (see package thread's park.go).
func (q *runQueue) pop() (Runnable, bool) {
	head := q.head.index.Load()
	if offset := (head >> shift) % lap; offset+1 < blockCap { // neither a block's last cell nor the sentinel
		b := q.head.block.Load() // checked by the CAS below, as in popSlow
		newHead := head + 1<<shift
		if head&hasNext == 0 {
			tail := q.tail.index.Load()
			if head>>shift == tail>>shift {
				return nil, false
			}
			if (head>>shift)/lap != (tail>>shift)/lap {
				newHead |= hasNext
			}
		}
		if c := &b.cells[offset]; c.state.Load()&cellWrite != 0 && q.head.index.CompareAndSwap(head, newHead) {
			r := c.r
			c.r = nil // the block may wait in the pool a while: do not keep the Runnable alive
			if c.state.Or(cellRead)&cellDestroy != 0 {
				destroy(b, int(offset)+1)
			}
			return r, true
		}
	}
	return q.popSlow()
}

//go:noinline
func (q *runQueue) popSlow() (Runnable, bool) {
	head := q.head.index.Load()
	b := q.head.block.Load()
	for i := 0; ; i++ {
		offset := (head >> shift) % lap
		if offset == blockCap {
			// another consumer is moving the head to the next block
			backoff(i)
			head = q.head.index.Load()
			b = q.head.block.Load()
			continue
		}
		newHead := head + 1<<shift
		if newHead&hasNext == 0 {
			tail := q.tail.index.Load()
			if head>>shift == tail>>shift {
				return nil, false
			}
			if (head>>shift)/lap != (tail>>shift)/lap {
				newHead |= hasNext
			}
		}
		if !q.head.index.CompareAndSwap(head, newHead) {
			head = q.head.index.Load()
			b = q.head.block.Load()
			continue
		}
		if offset+1 == blockCap {
			// took the last cell: move the head to the next block (the producer of this cell
			// installed it, or is about to)
			n := b.waitNext()
			nextIndex := (newHead &^ hasNext) + 1<<shift
			if n.next.Load() != nil {
				nextIndex |= hasNext
			}
			q.head.block.Store(n)
			q.head.index.Store(nextIndex)
		}
		c := &b.cells[offset]
		for j := 0; c.state.Load()&cellWrite == 0; j++ {
			backoff(j)
		}
		r := c.r
		c.r = nil
		if offset+1 == blockCap {
			destroy(b, 0) // its last cell: the block is done once every other cell is read
		} else if c.state.Or(cellRead)&cellDestroy != 0 {
			destroy(b, int(offset)+1)
		}
		return r, true
	}
}

// count converts an index to the number of cells before it.
func count(index uint64) uint64 {
	i := index >> shift
	off := i % lap
	if off > blockCap {
		off = blockCap
	}
	return i/lap*blockCap + off
}

// empty reports whether the queue held nothing at some moment during the call.
func (q *runQueue) empty() bool {
	head := q.head.index.Load()
	return count(head) == count(q.tail.index.Load())
}

// len returns the number of Runnables queued (a snapshot).
func (q *runQueue) len() int {
	for {
		tail := q.tail.index.Load()
		head := q.head.index.Load()
		if q.tail.index.Load() == tail {
			h, t := count(head), count(tail)
			if t < h {
				return 0
			}
			return int(t - h)
		}
	}
}

// pushed returns the number of Runnables ever pushed.
func (q *runQueue) pushed() int64 { return int64(count(q.tail.index.Load())) }
