/* SPDX-License-Identifier: MIT */
/*
 * Startup: the stack at the top of DMEM, the trap vector, .data's initial
 * values copied from IMEM (the image carries them after .rodata) to DMEM,
 * .bss zeroed, then main. The trap entry saves the caller-saved registers
 * and calls fw_trap(mcause, mepc, mtval) (main.c).
 */
	.section .text.init, "ax"
	.globl _start
_start:
	la	sp, _stack_top
	la	t0, trap_entry
	csrw	mtvec, t0
	la	a0, _data_lma
	la	a1, _data_start
	la	a2, _data_end
1:	bgeu	a1, a2, 2f
	lw	t0, 0(a0)
	sw	t0, 0(a1)
	addi	a0, a0, 4
	addi	a1, a1, 4
	j	1b
2:	la	a1, _bss_start
	la	a2, _bss_end
3:	bgeu	a1, a2, 4f
	sw	zero, 0(a1)
	addi	a1, a1, 4
	j	3b
4:	call	main
5:	wfi
	j	5b

	.balign 4
	.globl trap_entry
trap_entry:
	addi	sp, sp, -64
	sw	ra, 0(sp)
	sw	t0, 4(sp)
	sw	t1, 8(sp)
	sw	t2, 12(sp)
	sw	a0, 16(sp)
	sw	a1, 20(sp)
	sw	a2, 24(sp)
	sw	a3, 28(sp)
	sw	a4, 32(sp)
	sw	a5, 36(sp)
	sw	a6, 40(sp)
	sw	a7, 44(sp)
	sw	t3, 48(sp)
	sw	t4, 52(sp)
	sw	t5, 56(sp)
	sw	t6, 60(sp)
	csrr	a0, mcause
	csrr	a1, mepc
	csrr	a2, mtval
	call	fw_trap
	lw	ra, 0(sp)
	lw	t0, 4(sp)
	lw	t1, 8(sp)
	lw	t2, 12(sp)
	lw	a0, 16(sp)
	lw	a1, 20(sp)
	lw	a2, 24(sp)
	lw	a3, 28(sp)
	lw	a4, 32(sp)
	lw	a5, 36(sp)
	lw	a6, 40(sp)
	lw	a7, 44(sp)
	lw	t3, 48(sp)
	lw	t4, 52(sp)
	lw	t5, 56(sp)
	lw	t6, 60(sp)
	addi	sp, sp, 64
	mret
