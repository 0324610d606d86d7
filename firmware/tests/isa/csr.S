/* SPDX-License-Identifier: MIT */
/* Zicsr: CSRRW CSRRS CSRRC and the immediate forms on mscratch, the WARL
 * fields of mtvec, mepc, mstatus and mie, read-only mip, misa and the ID
 * registers, mcycle and minstret (counting, written), the user counters,
 * and the illegal accesses (an unknown CSR, a write to a read-only one) */
#include "test.h"
RVTEST_BEGIN
	li TESTNUM, 1; csrr a0, misa; li t6, 0x40001100; bne a0, t6, fail
	li TESTNUM, 2; csrr a0, mhartid; bnez a0, fail
	li TESTNUM, 3; csrr a0, mvendorid; csrr a1, marchid; or a0, a0, a1; csrr a1, mimpid; or a0, a0, a1; bnez a0, fail
	li TESTNUM, 4; li a1, 0x12345678; csrw mscratch, a1; csrr a0, mscratch; bne a0, a1, fail
	li TESTNUM, 5; li a1, 0xcafe0000; csrrw a0, mscratch, a1; li t6, 0x12345678; bne a0, t6, fail
	li TESTNUM, 6; csrr a0, mscratch; li t6, 0xcafe0000; bne a0, t6, fail
	li TESTNUM, 7; li a1, 0x0000beef; csrrs a0, mscratch, a1; li t6, 0xcafe0000; bne a0, t6, fail
	li TESTNUM, 8; csrr a0, mscratch; li t6, 0xcafebeef; bne a0, t6, fail
	li TESTNUM, 9; li a1, 0xca0000ef; csrrc a0, mscratch, a1; li t6, 0xcafebeef; bne a0, t6, fail
	li TESTNUM, 10; csrr a0, mscratch; li t6, 0x00febe00; bne a0, t6, fail
	li TESTNUM, 11; csrrwi a0, mscratch, 21; li t6, 0x00febe00; bne a0, t6, fail
	li TESTNUM, 12; csrrsi a0, mscratch, 10; li t6, 21; bne a0, t6, fail
	li TESTNUM, 13; csrrci a0, mscratch, 1; li t6, 31; bne a0, t6, fail
	li TESTNUM, 14; csrr a0, mscratch; li t6, 30; bne a0, t6, fail
	/* csrrs/csrrc with x0 and uimm 0 read without writing */
	li TESTNUM, 15; csrrs a0, mscratch, x0; csrrci a1, mscratch, 0; csrr a2, mscratch; li t6, 30; bne a0, t6, fail; bne a1, t6, fail; bne a2, t6, fail
	/* rd = rs1 */
	li TESTNUM, 16; li a0, 77; csrrw a0, mscratch, a0; li t6, 30; bne a0, t6, fail; csrr a0, mscratch; li t6, 77; bne a0, t6, fail
	/* WARL: mtvec and mepc keep bits 31:2 */
	li TESTNUM, 17; csrr s2, mtvec; li a1, 0x00000107; csrw mtvec, a1; csrr a0, mtvec; csrw mtvec, s2; li t6, 0x104; bne a0, t6, fail
	li TESTNUM, 18; li a1, 0x12345677; csrw mepc, a1; csrr a0, mepc; li t6, 0x12345674; bne a0, t6, fail
	li TESTNUM, 19; li a1, 0xdeadbeef; csrw mtval, a1; csrr a0, mtval; bne a0, a1, fail
	li TESTNUM, 20; li a1, 0x8000000b; csrw mcause, a1; csrr a0, mcause; bne a0, a1, fail
	/* mstatus: MIE, MPIE; MPP reads 3 */
	li TESTNUM, 21; csrr a0, mstatus; li t6, 0x1800; bne a0, t6, fail
	li TESTNUM, 22; li a1, 0xffffff77; csrw mstatus, a1; csrr a0, mstatus; li t6, 0x1800; bne a0, t6, fail
	li TESTNUM, 23; csrsi mstatus, 8; csrr a0, mstatus; li t6, 0x1808; bne a0, t6, fail
	li TESTNUM, 24; li a1, 0x88; csrrc a0, mstatus, a1; li t6, 0x1808; bne a0, t6, fail; csrr a0, mstatus; li t6, 0x1800; bne a0, t6, fail
	li TESTNUM, 25; li a1, 0x80; csrs mstatus, a1; csrr a0, mstatus; li t6, 0x1880; bne a0, t6, fail; csrw mstatus, zero
	/* mie: MTIE, MEIE; mip read-only (its write ignored) */
	li TESTNUM, 26; li a1, -1; csrw mie, a1; csrr a0, mie; li t6, 0x880; bne a0, t6, fail; csrw mie, zero
	li TESTNUM, 27; li a1, -1; csrw mip, a1; csrr a0, mip; bnez a0, fail
	li TESTNUM, 28; csrr a0, mstatush; bnez a0, fail
	/* mcycle counts clocks, cycle is its view */
	li TESTNUM, 29; csrr a1, mcycle; nop; csrr a2, mcycle; bgeu a1, a2, fail; sub a0, a2, a1; li t6, 8; bltu a0, t6, fail
	li TESTNUM, 30; csrr a1, cycle; csrr a2, mcycle; bgeu a1, a2, fail
	li TESTNUM, 31; csrw mcycle, zero; csrr a0, mcycle; li t6, 20; bgeu a0, t6, fail
	li TESTNUM, 32; li a1, 0xfffffff0; csrw mcycle, a1; csrw mcycleh, zero; nop; nop; nop; nop; nop; csrr a0, mcycleh; li t6, 1; bne a0, t6, fail
	li TESTNUM, 33; csrr a0, cycleh; li t6, 1; bne a0, t6, fail
	/* minstret: one a retired instruction; a write sets it */
	li TESTNUM, 34; csrr a1, minstret; nop; nop; nop; csrr a2, minstret; sub a0, a2, a1; li t6, 4; bne a0, t6, fail
	li TESTNUM, 35; csrr a1, instret; addi a0, a0, 0; csrr a2, instret; sub a0, a2, a1; li t6, 2; bne a0, t6, fail
	li TESTNUM, 36; li a1, 1000; csrw minstret, a1; csrr a0, minstret; bne a0, a1, fail
	li TESTNUM, 37; li a1, -1; csrw minstret, a1; csrw minstreth, zero; nop; csrr a0, minstreth; li t6, 1; bne a0, t6, fail
	li TESTNUM, 38; csrr a0, instreth; li t6, 1; bne a0, t6, fail
	/* a trap does not retire: ecall between two reads adds only the reads and the handler's */
	/* illegal CSR accesses */
	EXPECT_TRAP(39, 2, csrr a0, 0x7c0)
	li TESTNUM, 40; li t6, 0x7c002573; bne t2, t6, fail	/* mtval: the instruction */
	EXPECT_TRAP(41, 2, csrw mhartid, a1)
	EXPECT_TRAP(42, 2, csrwi cycle, 0)
	li TESTNUM, 43; csrsi misa, 1; csrr a0, misa; li t6, 0x40001100; bne a0, t6, fail	/* WARL: ignored */
	EXPECT_TRAP(44, 2, csrr a0, 0x3a0)	/* pmpcfg0: not here */
	/* a read-only one read with csrrs x0 / csrrci 0 is legal */
	li TESTNUM, 45; csrrci a0, mhartid, 0; csrrs a0, cycle, x0; bnez a0, 1f; j fail
1:	li TESTNUM, 46; li a0, 5; EXPECT_TRAP(47, 2, csrrw a0, 0x7c0, a1)
	li TESTNUM, 48; li t6, 5; bne a0, t6, fail	/* rd untouched */
RVTEST_END
