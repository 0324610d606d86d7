/* SPDX-License-Identifier: MIT */
/* conditional branches: BEQ BNE BLT BGE BLTU BGEU, taken and not taken,
 * forward and backward */
#include "test.h"
RVTEST_BEGIN
	TEST_BR_TAKEN(1, beq, 0, 0)
	TEST_BR_TAKEN(2, beq, 0x80000000, 0x80000000)
	TEST_BR_NOT(3, beq, 0, 1)
	TEST_BR_NOT(4, beq, 0x80000000, 0)
	TEST_BR_TAKEN(5, bne, 0, 1)
	TEST_BR_TAKEN(6, bne, 0xffffffff, 0x7fffffff)
	TEST_BR_NOT(7, bne, 5, 5)
	TEST_BR_TAKEN(8, blt, 0xffffffff, 0)
	TEST_BR_TAKEN(9, blt, 0x80000000, 0x7fffffff)
	TEST_BR_NOT(10, blt, 0, 0xffffffff)
	TEST_BR_NOT(11, blt, 3, 3)
	TEST_BR_TAKEN(12, bge, 3, 3)
	TEST_BR_TAKEN(13, bge, 0, 0xffffffff)
	TEST_BR_TAKEN(14, bge, 0x7fffffff, 0x80000000)
	TEST_BR_NOT(15, bge, 0xffffffff, 0)
	TEST_BR_TAKEN(16, bltu, 0, 0xffffffff)
	TEST_BR_TAKEN(17, bltu, 0x7fffffff, 0x80000000)
	TEST_BR_NOT(18, bltu, 0xffffffff, 0)
	TEST_BR_NOT(19, bltu, 4, 4)
	TEST_BR_TAKEN(20, bgeu, 4, 4)
	TEST_BR_TAKEN(21, bgeu, 0xffffffff, 0)
	TEST_BR_NOT(22, bgeu, 0, 0xffffffff)
	TEST_BR_NOT(23, bgeu, 0x7fffffff, 0x80000000)
	/* backward: a loop of 10 */
	li TESTNUM, 24; li a0, 0; li a1, 10
3:	addi a0, a0, 2; addi a1, a1, -1; bnez a1, 3b
	li t6, 20; bne a0, t6, fail
	/* not taken falls through to the next instruction, taken skips */
	li TESTNUM, 25; li a0, 0; li a1, 1
	beq a1, zero, 4f; addi a0, a0, 1
4:	bne a1, zero, 5f; addi a0, a0, 4
5:	li t6, 1; bne a0, t6, fail
	/* a branch far ahead (over 2 KiB) */
	li TESTNUM, 26; li a1, 1; bnez a1, 6f; j fail
	.skip 3000
6:	li TESTNUM, 27; li a1, 1; bnez a1, 7f; j fail
7:
RVTEST_END
