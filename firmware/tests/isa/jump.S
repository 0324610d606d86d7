/* SPDX-License-Identifier: MIT */
/* JAL and JALR: link values, offsets, bit 0 of JALR's target cleared,
 * rd = rs1, x0 as the link */
#include "test.h"
RVTEST_BEGIN
	li TESTNUM, 1
	jal a0, 1f
2:	j fail
1:	la t6, 2b; bne a0, t6, fail

	li TESTNUM, 2
	la a1, 3f
	jalr a0, 0(a1)
4:	j fail
3:	la t6, 4b; bne a0, t6, fail

	li TESTNUM, 3			/* offset, negative */
	la a1, 5f + 8
	jalr a0, -8(a1)
	j fail
5:	li TESTNUM, 4			/* bit 0 of the target cleared */
	la a1, 6f
	addi a1, a1, 1
	jalr x0, 0(a1)
	j fail
6:	li TESTNUM, 5			/* rd = rs1: the old rs1 is the target */
	la a1, 7f
	jalr a1, 0(a1)
8:	j fail
7:	la t6, 8b; bne a1, t6, fail

	li TESTNUM, 6			/* call and return */
	li a0, 0
	call func
	li t6, 42; bne a0, t6, fail

	li TESTNUM, 7			/* backward jal */
	li a0, 0
	j 10f
9:	addi a0, a0, 1
	j 11f
10:	jal x0, 9b
11:	li t6, 1; bne a0, t6, fail

	li TESTNUM, 8			/* jalr with positive offset, x0 source never used */
	la a1, 12f - 12
	jalr ra, 12(a1)
	j fail
12:	li TESTNUM, 9
	j 13f
func:
	li a0, 42
	ret
13:
RVTEST_END
