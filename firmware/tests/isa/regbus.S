/* SPDX-License-Identifier: MIT */
/* the register bus (m_reg_* of mgmt_soc): word, halfword and byte accesses
 * to the testbench's scratch registers, which take the requests and answer
 * after random delays */
#include "test.h"
RVTEST_BEGIN
	li s0, REGBUS
	li TESTNUM, 1; li a1, 0x12345678; sw a1, 0(s0); lw a0, 0(s0); bne a0, a1, fail
	li TESTNUM, 2; li a1, 0x9abcdef0; sw a1, 60(s0); lw a0, 60(s0); bne a0, a1, fail
	li TESTNUM, 3; lw a0, 0(s0); li t6, 0x12345678; bne a0, t6, fail
	li TESTNUM, 4; li a1, 0xee; sb a1, 1(s0); lw a0, 0(s0); li t6, 0x1234ee78; bne a0, t6, fail
	li TESTNUM, 5; li a1, 0xbeef; sh a1, 2(s0); lw a0, 0(s0); li t6, 0xbeefee78; bne a0, t6, fail
	li TESTNUM, 6; lb a0, 1(s0); li t6, 0xffffffee; bne a0, t6, fail
	li TESTNUM, 7; lhu a0, 2(s0); li t6, 0xbeef; bne a0, t6, fail
	li TESTNUM, 8; lh a0, 2(s0); li t6, 0xffffbeef; bne a0, t6, fail
	/* sixteen words, written then read back */
	li TESTNUM, 9; li a2, 0; li a3, 0x01010101
1:	add t0, s0, a2; mul a1, a2, a3; sw a1, 0(t0); addi a2, a2, 4; li t6, 64; bne a2, t6, 1b
	li a2, 0
2:	add t0, s0, a2; lw a0, 0(t0); mul a1, a2, a3; bne a0, a1, fail; addi a2, a2, 4; li t6, 64; bne a2, t6, 2b
RVTEST_END
