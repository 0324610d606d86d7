/* SPDX-License-Identifier: MIT */
/* traps: ECALL, EBREAK, illegal instructions, misaligned loads and stores,
 * a misaligned jump target, access faults (load, store, instruction
 * fetch, the register bus), MRET and mstatus.MIE/MPIE, and that a trapping
 * instruction writes no register */
#include "test.h"
RVTEST_BEGIN
	EXPECT_TRAP(1, 11, ecall)
	li TESTNUM, 2; bnez t2, fail			/* mtval 0 */
	EXPECT_TRAP(3, 3, ebreak)
	li TESTNUM, 4; la t6, 2b; bne t2, t6, fail	/* mtval: the pc */
	EXPECT_TRAP(5, 2, .word 0x00000000)
	li TESTNUM, 6; bnez t2, fail
	EXPECT_TRAP(7, 2, .word 0xffffffff)
	li TESTNUM, 8; li t6, 0xffffffff; bne t2, t6, fail
	EXPECT_TRAP(9, 2, .word 0x40001033)		/* SLL with funct7 0100000 */
	li TESTNUM, 10; li t6, 0x40001033; bne t2, t6, fail
	EXPECT_TRAP(11, 2, .word 0x02b50533 | (1 << 30))	/* MUL with a bad funct7 */
	EXPECT_TRAP(12, 2, .word 0x00004073)		/* SYSTEM funct3 4 */
	EXPECT_TRAP(13, 2, .word 0x302000f3)		/* MRET with rd = 1 */
	EXPECT_TRAP(14, 2, .word 0x00003003)		/* LOAD funct3 3 (LD) */
	EXPECT_TRAP(15, 2, .word 0x00003023)		/* STORE funct3 3 (SD) */
	EXPECT_TRAP(16, 2, .word 0x00002063)		/* BRANCH funct3 2 */
	EXPECT_TRAP(17, 2, .word 0x00001067)		/* JALR funct3 1 */
	EXPECT_TRAP(18, 2, .word 0x02001013)		/* SLLI with shamt[5] */
	EXPECT_TRAP(19, 2, .word 0x00000001)		/* a compressed encoding */
	EXPECT_TRAP(20, 2, .word 0x0000002f)		/* AMO (no A extension) */
	/* misaligned loads and stores: mtval the address, rd unwritten */
	la s3, data
	li a0, 123
	EXPECT_TRAP(21, 4, lw a0, 1(s3))
	li TESTNUM, 22; addi t6, s3, 1; bne t2, t6, fail; li t6, 123; bne a0, t6, fail
	EXPECT_TRAP(23, 4, lw a0, 2(s3))
	EXPECT_TRAP(24, 4, lw a0, 3(s3))
	EXPECT_TRAP(25, 4, lh a0, 1(s3))
	EXPECT_TRAP(26, 4, lhu a0, 3(s3))
	li TESTNUM, 27; li t6, 123; bne a0, t6, fail
	EXPECT_TRAP(28, 6, sw a0, 2(s3))
	li TESTNUM, 29; addi t6, s3, 2; bne t2, t6, fail
	EXPECT_TRAP(30, 6, sh a0, 1(s3))
	EXPECT_TRAP(31, 6, sh a0, 3(s3))
	li TESTNUM, 32; lw a1, 0(s3); li t6, 0x11223344; bne a1, t6, fail	/* the stores wrote nothing */
	li TESTNUM, 33; lh a0, 2(s3); lbu a1, 3(s3); li t6, 0x1122; bne a0, t6, fail	/* aligned: no trap */
	/* a jump to an address that is not 4-byte aligned: reported on the jump */
	li a0, 55
	la s4, 3f
	addi s4, s4, 2
	EXPECT_TRAP(34, 0, jalr a0, 0(s4))
	li TESTNUM, 35; bne t2, s4, fail; li t6, 55; bne a0, t6, fail
	EXPECT_TRAP(36, 0, .word 0x0060006f)		/* jal x0, .+6 */
	li TESTNUM, 37; la t6, 2b; addi t6, t6, 6; bne t2, t6, fail
	li TESTNUM, 38; .word 0x00001363		/* bne x0, x0, .+6: not taken, no trap */
	nop
	/* access faults */
	li s5, BADADDR
	EXPECT_TRAP(39, 5, lw a0, 4(s5))
	li TESTNUM, 40; addi t6, s5, 4; bne t2, t6, fail
	EXPECT_TRAP(41, 7, sb a0, 3(s5))
	li TESTNUM, 42; addi t6, s5, 3; bne t2, t6, fail
	li s6, REGBUS + 0x100
	EXPECT_TRAP(43, 5, lw a0, 0(s6))		/* the register bus answers an error */
	EXPECT_TRAP(44, 7, sw a0, 0(s6))
	EXPECT_TRAP(52, 5, lw zero, 8(s5))		/* rd = x0 still faults */
	EXPECT_TRAP(53, 4, lw zero, 2(s3))		/* and still must be aligned */
	/* an instruction fetch outside IMEM: mepc and mtval the address */
	li TESTNUM, 45; la t0, 4f; csrw mtvec, t0; li s7, 0x60000000; jalr ra, 0(s7); j fail
	.balign 4
4:	csrr t1, mcause; li t6, 1; bne t1, t6, fail
	csrr t1, mepc; bne t1, s7, fail; csrr t1, mtval; bne t1, s7, fail
	li TESTNUM, 46; la t6, 4b - 4; bne ra, t6, fail	/* the jalr retired */
	la t0, unexpected_trap; csrw mtvec, t0
	/* MRET: mstatus.MIE <- MPIE, MPIE <- 1; a trap saves MIE in MPIE */
	li TESTNUM, 47; la t0, 5f; csrw mtvec, t0; csrw mie, zero; csrsi mstatus, 8
	ecall
	j 6f
	.balign 4
5:	csrr a0, mstatus; li t6, 0x1880; bne a0, t6, fail	/* MIE 0, MPIE 1 */
	csrr a1, mepc; addi a1, a1, 4; csrw mepc, a1
	csrci mstatus, 8
	mret
6:	li TESTNUM, 48; csrr a0, mstatus; li t6, 0x1888; bne a0, t6, fail
	li TESTNUM, 49; csrw mstatus, zero; la t0, 7f; csrw mepc, t0; mret; j fail
7:	csrr a0, mstatus; li t6, 0x1880; bne a0, t6, fail	/* MIE from MPIE (0), MPIE 1 */
	/* a trap does not retire, mret does */
	li TESTNUM, 50; la t0, 8f; csrw mtvec, t0; csrr s8, minstret; ecall
	.balign 4
8:	csrr s9, minstret; sub a0, s9, s8; li t6, 1; bne a0, t6, fail	/* csrr s8 only */
	la t0, unexpected_trap; csrw mtvec, t0
	li TESTNUM, 51; li a0, 1; addi a0, a0, 1; li t6, 2; bne a0, t6, fail
	j 9f
3:	nop; nop
9:
RVTEST_END
	.section .data
	.balign 4
data:	.word 0x11223344, 0
