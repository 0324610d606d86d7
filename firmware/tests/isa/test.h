/* SPDX-License-Identifier: MIT */
/*
 * Macros of the management core's ISA tests (the .S files of firmware/tests/isa): each
 * program is RVTEST_BEGIN, numbered checks, RVTEST_END. A check sets gp to
 * its number, computes into a0 (operands in a1, a2), compares with the
 * expected value in t6 and jumps to fail when they differ. The result goes
 * to the SoC's tohost register (rtl/mgmt/mgmt_soc.v): 1 when every check
 * passed, (N << 1) | 1 when check N failed (an unexpected trap fails the
 * check running). Registers: gp the check's number, t0-t2 and t6 scratch,
 * a0-a2 values, s0-s11 the trap handlers' records.
 */
#define TOHOST   0x30000000
#define TEST_IRQ 0x30000004
#define MTIME    0x20000000
#define MTIMECMP 0x20000008
#define REGBUS   0x40000000
#define BADADDR  0x50000000

#define TESTNUM gp

#define RVTEST_BEGIN \
	.section .text.init; .globl _start; _start: \
	la t0, unexpected_trap; csrw mtvec, t0; la sp, _stack_top; li TESTNUM, 0;

#define RVTEST_END \
	j pass; \
	.balign 4; unexpected_trap: j fail; \
	pass: li t0, TOHOST; li t1, 1; sw t1, 0(t0); 1: j 1b; \
	fail: li t0, TOHOST; slli t1, TESTNUM, 1; ori t1, t1, 1; sw t1, 0(t0); 2: j 2b;

/* a0 = v1 OP v2 */
#define TEST_RR(n, inst, exp, v1, v2) \
	li TESTNUM, n; li a1, v1; li a2, v2; inst a0, a1, a2; li t6, exp; bne a0, t6, fail;
/* a0 = v1 OP imm */
#define TEST_RI(n, inst, exp, v1, imm) \
	li TESTNUM, n; li a1, v1; inst a0, a1, imm; li t6, exp; bne a0, t6, fail;
/* rd = rs1 = rs2 */
#define TEST_RR_SAME(n, inst, exp, v1) \
	li TESTNUM, n; li a0, v1; inst a0, a0, a0; li t6, exp; bne a0, t6, fail;
/* rd = rs1 */
#define TEST_RI_SAME(n, inst, exp, v1, imm) \
	li TESTNUM, n; li a0, v1; inst a0, a0, imm; li t6, exp; bne a0, t6, fail;
/* a register against a value */
#define TEST_EQ(n, reg, exp) \
	li TESTNUM, n; li t6, exp; bne reg, t6, fail;
/* a branch on v1, v2 that must (not) be taken */
#define TEST_BR_TAKEN(n, inst, v1, v2) \
	li TESTNUM, n; li a1, v1; li a2, v2; inst a1, a2, 1f; j fail; 1:
#define TEST_BR_NOT(n, inst, v1, v2) \
	li TESTNUM, n; li a1, v1; li a2, v2; inst a1, a2, fail;
/* a load of width inst at base + off, expected exp */
#define TEST_LD(n, inst, exp, base, off) \
	li TESTNUM, n; la a1, base; inst a0, off(a1); li t6, exp; bne a0, t6, fail;

/*
 * insn... must trap with mcause `cause` and mepc at insn: the trap lands
 * on the next label (mtvec set for it), mcause and mepc checked, mtval
 * left in t2 for the caller; mtvec back to unexpected_trap.
 */
#define EXPECT_TRAP(n, cause, ...) \
	li TESTNUM, n; la t0, 1f; csrw mtvec, t0; \
	2: __VA_ARGS__; j fail; \
	.balign 4; 1: csrr t1, mcause; li t6, cause; bne t1, t6, fail; \
	csrr t1, mepc; la t6, 2b; bne t1, t6, fail; csrr t2, mtval; \
	la t0, unexpected_trap; csrw mtvec, t0;

/*
 * a table of count checks (for the M extension's long lists): check base + i
 * is a0 = v1 OP v2 with row i of ops ({v1, v2}, two words a row) and word i
 * of exp (the expected value); one operand table serves every instruction
 */
#define TEST_TABLE(base, inst, ops, exp, count) \
	li TESTNUM, base; la s0, ops; la s2, exp; li s1, count; \
	1: lw a1, 0(s0); lw a2, 4(s0); lw t6, 0(s2); inst a0, a1, a2; bne a0, t6, fail; \
	addi s0, s0, 8; addi s2, s2, 4; addi TESTNUM, TESTNUM, 1; addi s1, s1, -1; bnez s1, 1b;
