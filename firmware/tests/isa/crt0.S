/* SPDX-License-Identifier: MIT */
/*
 * Startup of the C test programs: a trap handler that fails, the stack at
 * the top of DMEM, .bss zeroed, main(); main's return goes to tohost as a
 * check number (0: pass, N: (N << 1) | 1).
 */
#include "test.h"
	.section .text.init
	.globl _start
_start:
	la t0, 1f
	csrw mtvec, t0
	la sp, _stack_top
	la t0, _bss_start
	la t1, _bss_end
2:	bgeu t0, t1, 3f
	sw zero, 0(t0)
	addi t0, t0, 4
	j 2b
3:	call main
	li t0, TOHOST
	slli t1, a0, 1
	ori t1, t1, 1
	bnez a0, 4f
	li t1, 1
4:	sw t1, 0(t0)
5:	j 5b
	/* an unexpected trap: check 1000 + mcause (mcause 11: ECALL, 1011) */
	.balign 4
1:	csrr a0, mcause
	addi a0, a0, 1000
	li t0, TOHOST
	slli t1, a0, 1
	ori t1, t1, 1
	sw t1, 0(t0)
6:	j 6b
