/* SPDX-License-Identifier: MIT */
/* loads and stores of every width: LB LH LW LBU LHU SB SH SW, sign and zero
 * extension, every byte offset, negative offsets, DMEM and IMEM (.rodata,
 * and a store into IMEM read back) */
#include "test.h"
	.section .data
	.balign 4
dm:	.word 0x80ff7f01, 0x12345678, 0xdeadbeef, 0
buf:	.word 0, 0, 0, 0
	.section .rodata
	.balign 4
ro:	.word 0x8a7b6c5d, 0xcafef00d
	.section .text
scratch_imem:			/* a word of IMEM the test writes */
	.word 0
RVTEST_BEGIN
	TEST_LD(1, lb, 0x00000001, dm, 0)
	TEST_LD(2, lb, 0x0000007f, dm, 1)
	TEST_LD(3, lb, 0xffffffff, dm, 2)
	TEST_LD(4, lb, 0xffffff80, dm, 3)
	TEST_LD(5, lbu, 0x00000001, dm, 0)
	TEST_LD(6, lbu, 0x0000007f, dm, 1)
	TEST_LD(7, lbu, 0x000000ff, dm, 2)
	TEST_LD(8, lbu, 0x00000080, dm, 3)
	TEST_LD(9, lh, 0x00007f01, dm, 0)
	TEST_LD(10, lh, 0xffff80ff, dm, 2)
	TEST_LD(11, lhu, 0x00007f01, dm, 0)
	TEST_LD(12, lhu, 0x000080ff, dm, 2)
	TEST_LD(13, lw, 0x80ff7f01, dm, 0)
	TEST_LD(14, lw, 0x12345678, dm, 4)
	TEST_LD(15, lw, 0xdeadbeef, dm, 8)
	TEST_LD(16, lh, 0xffffdead, dm, 10)
	TEST_LD(17, lbu, 0x000000de, dm, 11)
	TEST_LD(18, lw, 0x12345678, dm + 8, -4)
	TEST_LD(19, lb, 0xffffffef, dm + 9, -1)
	/* IMEM through the data port */
	TEST_LD(20, lw, 0x8a7b6c5d, ro, 0)
	TEST_LD(21, lb, 0x0000006c, ro, 1)
	TEST_LD(22, lh, 0xffff8a7b, ro, 2)
	TEST_LD(23, lhu, 0x0000cafe, ro, 6)
	/* stores */
	li TESTNUM, 24; la a1, buf; li a2, 0x11223344; sw a2, 0(a1); lw a0, 0(a1); bne a0, a2, fail
	li TESTNUM, 25; li a2, 0xaa; sb a2, 1(a1); lw a0, 0(a1); li t6, 0x1122aa44; bne a0, t6, fail
	li TESTNUM, 26; li a2, 0xbb; sb a2, 3(a1); lw a0, 0(a1); li t6, 0xbb22aa44; bne a0, t6, fail
	li TESTNUM, 27; li a2, 0xcc; sb a2, 0(a1); sb a2, 2(a1); lw a0, 0(a1); li t6, 0xbbccaacc; bne a0, t6, fail
	li TESTNUM, 28; li a2, 0x12345678; sh a2, 2(a1); lw a0, 0(a1); li t6, 0x5678aacc; bne a0, t6, fail
	li TESTNUM, 29; li a2, 0xfedc; sh a2, 0(a1); lw a0, 0(a1); li t6, 0x5678fedc; bne a0, t6, fail
	li TESTNUM, 30; lb a0, 0(a1); li t6, 0xffffffdc; bne a0, t6, fail
	li TESTNUM, 31; lh a0, 2(a1); li t6, 0x5678; bne a0, t6, fail
	li TESTNUM, 32; li a2, 0x01020304; sw a2, 12(a1); sw zero, 8(a1); lw a0, 12(a1); bne a0, a2, fail
	li TESTNUM, 33; lw a0, 8(a1); bne a0, zero, fail
	li TESTNUM, 34; addi a3, a1, 16; li a2, 0x55; sb a2, -5(a3); lw a0, 8(a1); li t6, 0x55000000; bne a0, t6, fail
	li TESTNUM, 35; li a2, 0xffff; sh a2, -8(a3); lhu a0, 8(a1); li t6, 0xffff; bne a0, t6, fail
	/* a load into the register it addresses from */
	li TESTNUM, 36; la a0, dm + 4; lw a0, 0(a0); li t6, 0x12345678; bne a0, t6, fail
	/* a store into IMEM, read back */
	li TESTNUM, 37; la a1, scratch_imem; li a2, 0x0badc0de; sw a2, 0(a1); lw a0, 0(a1); bne a0, a2, fail
	li TESTNUM, 38; li a2, 0x77; sb a2, 2(a1); lw a0, 0(a1); li t6, 0x0b77c0de; bne a0, t6, fail
	/* the stack */
	li TESTNUM, 39; addi sp, sp, -16; li a2, 0x600df00d; sw a2, 12(sp); lw a0, 12(sp); addi sp, sp, 16; bne a0, a2, fail
	/* a load into x0: done, not written */
	li TESTNUM, 40; la a1, dm; lw zero, 0(a1); lbu zero, 3(a1); bnez zero, fail
RVTEST_END
