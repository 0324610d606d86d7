/* SPDX-License-Identifier: MIT */
/* interrupts: the machine timer (mtime/mtimecmp, mcause 0x80000007) and the
 * external line (the SoC's test_irq, mcause 0x8000000b); mstatus.MIE and
 * mie masking, mip, WFI (wakes on a pending enabled interrupt, also with
 * MIE clear), mepc at the next instruction, MRET back, priority (external
 * first). The handler logs mcause in DMEM (s5), counts in s0, keeps mepc
 * in s2, and clears the source. */
#include "test.h"
#define WAIT_COUNT(n, target) \
	li t2, 2000; 1: li t6, target; beq s0, t6, 2f; addi t2, t2, -1; bnez t2, 1b; j fail; 2:

RVTEST_BEGIN
	la t0, handler; csrw mtvec, t0
	li s0, 0; la s5, log
	/* 1: the timer, enabled */
	li TESTNUM, 1
	li t0, MTIMECMP; li t1, -1; sw t1, 4(t0)
	li t0, MTIME; lw t1, 0(t0); addi t1, t1, 200
	li t0, MTIMECMP; sw t1, 0(t0); sw zero, 4(t0)
	li t1, 0x80; csrw mie, t1; csrsi mstatus, 8
	WAIT_COUNT(1, 1)
	li t6, 0x80000007; bne s1, t6, fail
	li TESTNUM, 2; csrr a0, mstatus; andi a0, a0, 8; beqz a0, fail	/* MIE back after mret */
	li TESTNUM, 3; li t0, MTIME; lw a0, 0(t0); li t0, MTIMECMP; lw a1, 0(t0); li t6, -1; bne a1, t6, fail
	/* 4: masked by mstatus.MIE: pending in mip, not taken; WFI still wakes */
	li TESTNUM, 4; csrci mstatus, 8
	li t0, MTIMECMP; sw zero, 0(t0); sw zero, 4(t0)
	nop; nop; nop; nop
	csrr a0, mip; li t6, 0x80; bne a0, t6, fail
	li TESTNUM, 5; wfi; li t6, 1; bne s0, t6, fail
	/* 6: masked by mie: not taken with MIE set */
	li TESTNUM, 6; csrw mie, zero; csrsi mstatus, 8; nop; nop; nop; li t6, 1; bne s0, t6, fail
	/* 7: enabling it takes it at once, mepc the next instruction */
	li TESTNUM, 7; li t1, 0x80
	csrs mie, t1
3:	nop
	li t6, 2; bne s0, t6, fail; la t6, 3b; bne s2, t6, fail
	/* 8: WFI until the timer */
	li TESTNUM, 8
	li t0, MTIME; lw s6, 0(t0); addi s6, s6, 300
	li t0, MTIMECMP; sw s6, 0(t0); sw zero, 4(t0)
	wfi
4:	li t6, 3; bne s0, t6, fail; la t6, 4b; bne s2, t6, fail
	li TESTNUM, 9; li t0, MTIME; lw a0, 0(t0); bltu a0, s6, fail
	/* 10: the external line */
	li TESTNUM, 10; li t1, 0x800; csrw mie, t1
	li t0, TEST_IRQ; li t1, 1; sw t1, 0(t0)
	WAIT_COUNT(10, 4)
	li t6, 0x8000000b; bne s1, t6, fail
	li TESTNUM, 11; csrr a0, mip; bnez a0, fail
	/* 12: both pending: external first, then the timer */
	li TESTNUM, 12; csrci mstatus, 8
	li t0, MTIMECMP; sw zero, 4(t0); sw zero, 0(t0)
	li t0, TEST_IRQ; li t1, 1; sw t1, 0(t0)
	li t1, 0x880; csrw mie, t1; nop; nop
	csrsi mstatus, 8
	WAIT_COUNT(12, 6)
	la a1, log; lw a0, 16(a1); li t6, 0x8000000b; bne a0, t6, fail
	li TESTNUM, 13; lw a0, 20(a1); li t6, 0x80000007; bne a0, t6, fail
	li TESTNUM, 14; lw a0, 0(a1); li t6, 0x80000007; bne a0, t6, fail
	li TESTNUM, 15; lw a0, 12(a1); li t6, 0x8000000b; bne a0, t6, fail
	/* 16: mtime counts and is writable */
	li TESTNUM, 16; csrci mstatus, 8; li t0, MTIME; li t1, 0xfffffff0; sw t1, 0(t0); sw zero, 4(t0)
	nop; nop; nop; nop; nop; nop; lw a0, 4(t0); li t6, 1; bne a0, t6, fail
	li TESTNUM, 17; sw zero, 4(t0); sw zero, 0(t0); lw a0, 0(t0); li t6, 20; bgeu a0, t6, fail
	j pass

	.balign 4
handler:
	csrr s1, mcause; addi s0, s0, 1; csrr s2, mepc
	sw s1, 0(s5); addi s5, s5, 4
	li t0, 0x80000007; bne s1, t0, 1f
	li t0, MTIMECMP; li t1, -1; sw t1, 4(t0); sw t1, 0(t0)
	mret
1:	li t0, 0x8000000b; bne s1, t0, fail
	li t0, TEST_IRQ; sw zero, 0(t0)
	mret
RVTEST_END
	.section .bss
	.balign 4
log:	.skip 64
