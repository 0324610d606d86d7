/* SPDX-License-Identifier: MIT */
/* LUI, AUIPC, and FENCE, FENCE.I (no-ops here) */
#include "test.h"
RVTEST_BEGIN
	li TESTNUM, 1; lui a0, 0; li t6, 0; bne a0, t6, fail
	li TESTNUM, 2; lui a0, 0xfffff; li t6, 0xfffff000; bne a0, t6, fail
	li TESTNUM, 3; lui a0, 0x80000; li t6, 0x80000000; bne a0, t6, fail
	li TESTNUM, 4; lui a0, 0x12345; addi a0, a0, 0x678; li t6, 0x12345678; bne a0, t6, fail
	li TESTNUM, 5
1:	auipc a0, 0
	la t6, 1b; bne a0, t6, fail
	li TESTNUM, 6
2:	auipc a0, 0x12345
	la t6, 2b; sub a0, a0, t6; li t6, 0x12345000; bne a0, t6, fail
	li TESTNUM, 7
3:	auipc a0, 0xfffff
	la t6, 3b; sub a0, a0, t6; li t6, 0xfffff000; bne a0, t6, fail
	li TESTNUM, 8; li a0, 5; fence; fence rw, rw; fence.i; addi a0, a0, 1; li t6, 6; bne a0, t6, fail
	li TESTNUM, 9; lui x0, 0x12345; bne x0, zero, fail
RVTEST_END
