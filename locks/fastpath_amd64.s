//go:build !race && !purego

#include "go_asm.h"
#include "textflag.h"

// The uncontended paths of ReentrantLock and Monitor (see fastpath.go and exclusive.go). Each
// reads the current goroutine's id from its g at ·goidOffset, and jumps, with its frame as it
// came, to a Go function for anything but the case it handles. Offsets are go_asm.h's; S is
// the offset of the exclusive in the lock, whose address is in DI.

// GOID loads the current goroutine's id into BX, or jumps to none if its offset is unknown.
#define GOID(none) \
	MOVQ	·goidOffset(SB), DX; \
	TESTQ	DX, DX; \
	JZ	none; \
	MOVQ	(TLS), CX; \
	MOVQ	(CX)(DX*1), BX

// TAKE takes a free lock for goroutine BX with one hold (owner: 0 -> BX; holds is 0 while the
// lock is free), or jumps to busy if it is not free, or to took, holding it, if the thread
// recorded in it is not the caller (exclusive.took).
#define TAKE(S, busy, took) \
	XORL	AX, AX; \
	LOCK; \
	CMPXCHGQ	BX, (S+exclusive_owner)(DI); \
	JNE	busy; \
	CMPQ	(S+exclusive_g)(DI), BX; \
	JNE	took; \
	MOVQ	(S+exclusive_st)(DI), CX; \
	CMPL	(CX), $const_terminated; \
	JEQ	took

// MINE jumps to not unless the thread on goroutine BX owns the lock (exclusive.mine).
#define MINE(S, not) \
	CMPQ	(S+exclusive_owner)(DI), BX; \
	JNE	not; \
	MOVQ	(S+exclusive_st)(DI), CX; \
	CMPL	(CX), $const_terminated; \
	JEQ	not

// RELEASE drops one of the owner's holds: one beyond the first (holds--), or the last, which
// frees the lock (owner = 0), and then jumps to wake if threads are queued (exclusive.release).
#define RELEASE(S, nested, wake) \
	CMPL	(S+exclusive_holds)(DI), $0; \
	JNE	nested; \
	XORL	AX, AX; \
	XCHGQ	AX, (S+exclusive_owner)(DI); \
	CMPQ	(S+const_exclusiveQueueHead)(DI), $0; \
	JNE	wake

// func lockFast(l *ReentrantLock)
TEXT ·lockFast(SB), NOSPLIT, $0-8
	MOVQ	l+0(FP), DI
	CMPB	ReentrantLock_fair(DI), $0
	JEQ	take
	CMPQ	(ReentrantLock_s+const_exclusiveQueueHead)(DI), $0 // fair: no barging past a queue
	JNE	contended
take:
	GOID(contended)
	TAKE(ReentrantLock_s, contended, took)
	RET
took:
	JMP	·lockTook(SB)
contended:
	JMP	·lockContended(SB)

// func unlockFast(l *ReentrantLock)
TEXT ·unlockFast(SB), NOSPLIT, $0-8
	MOVQ	l+0(FP), DI
	GOID(checked)
	MINE(ReentrantLock_s, checked)
	RELEASE(ReentrantLock_s, nested, wake)
	RET
nested:
	DECL	(ReentrantLock_s+exclusive_holds)(DI)
	RET
checked:
	JMP	·unlockChecked(SB)
wake:
	JMP	·unlockWake(SB)

// func enterFast(m *Monitor)
TEXT ·enterFast(SB), NOSPLIT, $0-8
	MOVQ	m+0(FP), DI
	GOID(contended)
	TAKE(Monitor_s, contended, took)
	MOVQ	(Monitor_s+exclusive_mc)(DI), CX // entered()
	TESTQ	CX, CX
	JZ	done
	INCL	(CX)
done:
	RET
took:
	JMP	·enterTook(SB)
contended:
	JMP	·enterContended(SB)

// func exitFast(m *Monitor)
TEXT ·exitFast(SB), NOSPLIT, $0-8
	MOVQ	m+0(FP), DI
	GOID(checked)
	MINE(Monitor_s, checked)
	MOVQ	(Monitor_s+exclusive_mc)(DI), CX // exited(), before the release
	TESTQ	CX, CX
	JZ	release
	DECL	(CX)
release:
	RELEASE(Monitor_s, nested, wake)
	RET
nested:
	DECL	(Monitor_s+exclusive_holds)(DI)
	RET
checked:
	JMP	·exitChecked(SB)
wake:
	JMP	·exitWake(SB)
