/* SPDX-License-Identifier: MIT */
/*
 * Timing corners of the management core for its instruction-set simulator
 * (tests/sim/beh/test_mgmt_iss.c), run on the ISS and on tb_mgmt_soc under
 * Icarus with TIMER_PRESCALE 7: every value the program sees (mcycle,
 * minstret and mtime read back after writes, around MUL, DIV, loads and
 * WFI, the clock an interrupt is taken, mip while the timer's compare
 * settles, mcause, mepc and mtval of traps) is folded into a signature
 * in s0; the program writes (signature << 1) | 1 to tohost, which both
 * must write at the same mcycle. No register bus (the testbench's answers
 * after random delays).
 */
#include "test.h"

/* s0 = rotl(s0, 5) ^ r (clobbers t0, t1) */
#define MIX(r) slli t0, s0, 5; srli t1, s0, 27; or s0, t0, t1; xor s0, s0, r;
#define MIXCYC csrr a5, mcycle; MIX(a5)

RVTEST_BEGIN
	la t0, handler; csrw mtvec, t0
	li s0, 0x1234567
	li t2, MTIME
	/* counters around multi-clock instructions */
	MIXCYC
	csrr a0, minstret; MIX(a0)
	li a1, 7; li a2, -3
	mul a0, a1, a2; MIXCYC
	mulh a0, a2, a2; MIXCYC
	div a0, a1, a2; MIX(a0); MIXCYC
	remu a0, a2, a1; MIX(a0); MIXCYC
	/* counters written, then read */
	li a1, 0xfffffffd; csrw mcycle, a1; MIXCYC
	csrr a0, mcycleh; MIX(a0)
	csrrw a0, mcycle, a1; MIX(a0); csrr a0, mcycleh; MIX(a0)
	csrw minstret, a1; csrr a0, minstret; MIX(a0); csrr a0, minstreth; MIX(a0)
	csrw minstreth, zero; nop; csrr a0, minstret; MIX(a0)
	/* the timer: reads, partial reads, writes across a carry */
	lw a0, 0(t2); MIX(a0); MIXCYC
	lbu a0, 1(t2); MIX(a0); lhu a0, 2(t2); MIX(a0); lb a0, 8(t2); MIX(a0)
	li a1, 0xfffffffc; sw a1, 0(t2)
	lw a0, 4(t2); MIX(a0); lw a0, 0(t2); MIX(a0)
	nop; nop; nop; nop; nop; nop; nop; nop; nop; nop
	lw a0, 4(t2); MIX(a0); lw a0, 0(t2); MIX(a0)
	li a1, 0x5a; sb a1, 1(t2); lw a0, 0(t2); MIX(a0)
	li a1, 0x77; sh a1, 6(t2); lw a0, 4(t2); MIX(a0)
	sw zero, 4(t2); sw zero, 0(t2)
	/* mip.MTIP settling: mtimecmp = mtime + 1, mip polled (MIE clear) */
	li a1, 0x80; csrw mie, a1
	li a3, 0; li a4, 0
	lw a0, 0(t2); addi a0, a0, 1; sw a0, 8(t2); sw zero, 12(t2)
1:	csrr a3, mip; addi a4, a4, 1; beqz a3, 1b
	MIX(a4); MIX(a3); MIXCYC
	/* enabled: taken at once (the handler mixes mcycle, mepc) */
	csrsi mstatus, 8
	nop
	MIXCYC
	/* WFI until the timer, MIE clear: mcycle after it */
	csrci mstatus, 8
	lw a0, 0(t2); addi a0, a0, 5; sw a0, 8(t2); sw zero, 12(t2)
	wfi
	MIXCYC
	csrsi mstatus, 8
	nop
	/* the external line: taken right after the store */
	li a1, 0x800; csrw mie, a1
	li s9, TEST_IRQ; li a1, 1; sw a1, 0(s9)
	nop
	MIXCYC
	/* WFI with the external interrupt pending (MIE clear): no sleep */
	csrci mstatus, 8
	sw a1, 0(s9)
	nop; nop
	MIXCYC
	wfi
	MIXCYC
	/* both pending: external first */
	li a1, 0x880; csrw mie, a1
	sw zero, 12(t2); sw zero, 8(t2)
	li a1, 1; sw a1, 0(s9)
	nop; nop; nop; nop
	csrr a0, mip; MIX(a0)
	csrsi mstatus, 8
	nop; nop
	MIXCYC
	csrci mstatus, 8
	csrw mie, zero
	/* exceptions: the handler resumes at s11 */
	la s11, 2f; la a1, 2f; jalr ra, 2(a1)
2:	MIX(ra)
	la s11, 3f; li a1, 0x50000000; jalr ra, 0(a1)
3:	MIX(ra)
	la s11, 4f; lw a0, 2(t2)
4:	la s11, 5f; sh a0, 3(t2)
5:	la s11, 6f; li a1, BADADDR; sb a0, 7(a1)
6:	la s11, 7f; ecall
7:	la s11, 8f; ebreak
8:	la s11, 9f; csrw cycle, a0
9:	la s11, 10f; .word 0x0000707f
10:	MIXCYC
	csrr a0, minstret; MIX(a0)
	/* the signature */
	slli t1, s0, 1; ori t1, t1, 1
	li t0, TOHOST; sw t1, 0(t0)
11:	j 11b

	.balign 4
handler:
	csrr t3, mcause; csrr t4, mepc; csrr t5, mtval; csrr t6, mcycle
	MIX(t3); MIX(t4); MIX(t5); MIX(t6)
	bltz t3, 1f
	csrw mepc, s11
	mret
1:	li t0, 0x80000007; bne t3, t0, 2f
	li t0, MTIMECMP; li t1, -1; sw t1, 4(t0); sw t1, 0(t0)
	mret
2:	li t0, TEST_IRQ; sw zero, 0(t0)
	mret
RVTEST_END
