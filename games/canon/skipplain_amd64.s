//go:build amd64 && !purego

#include "textflag.h"

// func plainRun(p []byte) int
//
// The length of the run of plain bytes at the head of p, len(p) >= 16: the index of its first
// byte below 0x20, at 0x80 or above, a quote or a backslash, len(p) if none. SSE2 only (every
// amd64 has it). One signed comparison finds two of the four: a byte at 0x80 or above is
// negative as a signed byte, so "0x20 > byte" holds for it and for every control character.
TEXT ·plainRun(SB), NOSPLIT, $0-32
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), BX
	MOVQ $0x2020202020202020, AX
	MOVQ AX, X4
	PUNPCKLQDQ X4, X4
	MOVQ $0x2222222222222222, AX
	MOVQ AX, X5
	PUNPCKLQDQ X5, X5
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X6
	PUNPCKLQDQ X6, X6
	XORQ DI, DI

	// Thirty-two bytes a turn while they last.
	LEAQ -32(BX), R8
loop32:
	CMPQ DI, R8
	JGT  loop16
	MOVOU (SI)(DI*1), X0
	MOVOU 16(SI)(DI*1), X7
	MOVO X4, X1
	PCMPGTB X0, X1
	MOVO X0, X2
	PCMPEQB X5, X2
	PCMPEQB X6, X0
	POR X2, X1
	POR X0, X1
	MOVO X4, X8
	PCMPGTB X7, X8
	MOVO X7, X9
	PCMPEQB X5, X9
	PCMPEQB X6, X7
	POR X9, X8
	POR X7, X8
	PMOVMSKB X1, AX
	PMOVMSKB X8, CX
	SHLQ $16, CX
	ORQ  CX, AX
	TESTQ AX, AX
	JNZ  found
	ADDQ $32, DI
	JMP  loop32

	// Then sixteen.
loop16:
	LEAQ -16(BX), R8
	CMPQ DI, R8
	JGT  last
	MOVOU (SI)(DI*1), X0
	MOVO X4, X1
	PCMPGTB X0, X1
	MOVO X0, X2
	PCMPEQB X5, X2
	PCMPEQB X6, X0
	POR X2, X1
	POR X0, X1
	PMOVMSKB X1, AX
	TESTL AX, AX
	JNZ  found
	ADDQ $16, DI
	JMP  loop16

	// The last sixteen bytes, overlapping those already judged plain (which add no bit).
last:
	CMPQ DI, BX
	JEQ  none
	MOVQ R8, DI
	MOVOU (SI)(DI*1), X0
	MOVO X4, X1
	PCMPGTB X0, X1
	MOVO X0, X2
	PCMPEQB X5, X2
	PCMPEQB X6, X0
	POR X2, X1
	POR X0, X1
	PMOVMSKB X1, AX
	TESTL AX, AX
	JNZ  found
none:
	MOVQ BX, ret+24(FP)
	RET

found:
	BSFQ AX, AX
	ADDQ DI, AX
	MOVQ AX, ret+24(FP)
	RET
