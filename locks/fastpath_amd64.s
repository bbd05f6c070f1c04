//go:build !race

#include "go_asm.h"
#include "textflag.h"

// The uncontended paths of ReentrantLock and Monitor (see fastpath.go and exclusive.go). Each
// reads the current goroutine's id from its g at ·goidOffset, and jumps, with its frame as it
// came, to a Go function for anything but the case it handles. Offsets are go_asm.h's.


// func lockFast(l *ReentrantLock)
TEXT ·lockFast(SB), NOSPLIT, $0-8
	MOVQ	l+0(FP), DI
	MOVQ	·goidOffset(SB), DX
	TESTQ	DX, DX
	JZ	contended
	CMPB	ReentrantLock_fair(DI), $0
	JEQ	take
	CMPQ	(ReentrantLock_s+const_exclusiveQueueHead)(DI), $0 // fair: no barging past a queue
	JNE	contended
take:
	MOVQ	(TLS), CX
	MOVQ	(CX)(DX*1), BX // g: the goroutine id
	XORL	AX, AX
	LOCK
	CMPXCHGQ	BX, (ReentrantLock_s+exclusive_owner)(DI) // owner: 0 -> g
	JNE	contended
	CMPQ	(ReentrantLock_s+exclusive_g)(DI), BX // took(g): the recorded thread is
	JNE	took                                  // on g and has not terminated
	MOVQ	(ReentrantLock_s+exclusive_st)(DI), CX
	CMPL	(CX), $const_terminated
	JEQ	took
	MOVL	$1, (ReentrantLock_s+exclusive_holds)(DI)
	RET
took:
	JMP	·lockTook(SB)
contended:
	JMP	·lockContended(SB)

// func unlockFast(l *ReentrantLock)
TEXT ·unlockFast(SB), NOSPLIT, $0-8
	MOVQ	l+0(FP), DI
	MOVQ	·goidOffset(SB), DX
	TESTQ	DX, DX
	JZ	checked
	MOVQ	(TLS), CX
	MOVQ	(CX)(DX*1), BX
	CMPQ	(ReentrantLock_s+exclusive_owner)(DI), BX // mine(g)
	JNE	checked
	MOVQ	(ReentrantLock_s+exclusive_st)(DI), CX
	CMPL	(CX), $const_terminated
	JEQ	checked
	DECL	(ReentrantLock_s+exclusive_holds)(DI)
	JNE	done
	XORL	AX, AX
	XCHGQ	AX, (ReentrantLock_s+exclusive_owner)(DI) // owner = 0, then look for waiters
	CMPQ	(ReentrantLock_s+const_exclusiveQueueHead)(DI), $0
	JNE	wake
done:
	RET
checked:
	JMP	·unlockChecked(SB)
wake:
	JMP	·unlockWake(SB)

// func enterFast(m *Monitor)
TEXT ·enterFast(SB), NOSPLIT, $0-8
	MOVQ	m+0(FP), DI
	MOVQ	·goidOffset(SB), DX
	TESTQ	DX, DX
	JZ	contended
	MOVQ	(TLS), CX
	MOVQ	(CX)(DX*1), BX
	XORL	AX, AX
	LOCK
	CMPXCHGQ	BX, (Monitor_s+exclusive_owner)(DI)
	JNE	contended
	CMPQ	(Monitor_s+exclusive_g)(DI), BX
	JNE	took
	MOVQ	(Monitor_s+exclusive_st)(DI), CX
	CMPL	(CX), $const_terminated
	JEQ	took
	MOVL	$1, (Monitor_s+exclusive_holds)(DI)
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
	MOVQ	·goidOffset(SB), DX
	TESTQ	DX, DX
	JZ	checked
	MOVQ	(TLS), CX
	MOVQ	(CX)(DX*1), BX
	CMPQ	(Monitor_s+exclusive_owner)(DI), BX
	JNE	checked
	MOVQ	(Monitor_s+exclusive_st)(DI), CX
	CMPL	(CX), $const_terminated
	JEQ	checked
	MOVQ	(Monitor_s+exclusive_mc)(DI), CX // exited()
	TESTQ	CX, CX
	JZ	release
	DECL	(CX)
release:
	DECL	(Monitor_s+exclusive_holds)(DI)
	JNE	done
	XORL	AX, AX
	XCHGQ	AX, (Monitor_s+exclusive_owner)(DI)
	CMPQ	(Monitor_s+const_exclusiveQueueHead)(DI), $0
	JNE	wake
done:
	RET
checked:
	JMP	·exitChecked(SB)
wake:
	JMP	·exitWake(SB)
