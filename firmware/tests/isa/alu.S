/* SPDX-License-Identifier: MIT */
/* ALU, register-register and register-immediate: ADD SUB XOR OR AND, ADDI
 * XORI ORI ANDI, NOP, x0 as source and destination, rd = rs */
#include "test.h"
RVTEST_BEGIN
	TEST_RR(1, add, 0, 0, 0)
	TEST_RR(2, add, 3, 1, 2)
	TEST_RR(3, add, 0x80000000, 0x7fffffff, 1)
	TEST_RR(4, add, 0, 0xffffffff, 1)
	TEST_RR(5, add, 0xfffffffe, 0xffffffff, 0xffffffff)
	TEST_RR(6, add, 0x00000000, 0x80000000, 0x80000000)
	TEST_RR(7, sub, 0xffffffff, 0, 1)
	TEST_RR(8, sub, 0x7fffffff, 0x80000000, 1)
	TEST_RR(9, sub, 2, 5, 3)
	TEST_RR(10, sub, 0x80000000, 0, 0x80000000)
	TEST_RR(11, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
	TEST_RR(12, or, 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
	TEST_RR(13, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
	TEST_RR(14, xor, 0, 0x12345678, 0x12345678)
	TEST_RI(15, addi, 0x800, 0x7ff, 1)
	TEST_RI(16, addi, 0xfffff800, 0, -2048)
	TEST_RI(17, addi, 0x000007ff, 0, 2047)
	TEST_RI(18, addi, 0x7fffffff, 0x80000000, -1)
	TEST_RI(19, xori, 0xedcba987, 0x12345678, -1)
	TEST_RI(20, xori, 0x123456f0, 0x12345678, 0x88)
	TEST_RI(21, ori, 0xfffff8ff, 0x000000ff, -1793)
	TEST_RI(22, ori, 0x12345679, 0x12345678, 1)
	TEST_RI(23, andi, 0x12345670, 0x12345678, -16)
	TEST_RI(24, andi, 0x00000678, 0x12345678, 0x7ff)
	TEST_RR_SAME(25, add, 0x2468acf0, 0x12345678)
	TEST_RR_SAME(26, sub, 0, 0x12345678)
	TEST_RI_SAME(27, addi, 0x12345677, 0x12345678, -1)
	/* x0: writes are dropped, reads are 0 */
	li TESTNUM, 28; li a1, 5; add x0, a1, a1; bne x0, zero, fail
	li TESTNUM, 29; addi x0, x0, 1; bne x0, zero, fail
	li TESTNUM, 30; li a1, 7; add a0, x0, a1; li t6, 7; bne a0, t6, fail
	li TESTNUM, 31; li a1, 7; sub a0, x0, a1; li t6, -7; bne a0, t6, fail
	/* a chain through several registers */
	li TESTNUM, 32; li a1, 1; add a2, a1, a1; add a3, a2, a1; add a4, a3, a2; add a5, a4, a3
	li t6, 8; bne a5, t6, fail
	li TESTNUM, 33; li a0, 9; nop; nop; li t6, 9; bne a0, t6, fail
RVTEST_END
