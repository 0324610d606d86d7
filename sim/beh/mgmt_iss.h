/* SPDX-License-Identifier: MIT */
/*
 * mgmt_iss: an instruction-set simulator of the NIC's management core and
 * its SoC (rtl/mgmt/mgmt_cpu.v, mgmt_soc.v, mgmt_timer.v; docs/firmware.md
 * "The core", "Memory map") for the behavioral NIC model: RV32IM in
 * machine mode with the RTL core's CSRs, traps (causes, mtval), interrupt
 * priority and WFI, 16 KiB IMEM at 0x0000_0000, 16 KiB DMEM at
 * 0x1000_0000, the timer at 0x2000_0000, the test registers (tohost,
 * test_irq) at 0x3000_0000 and the NIC's register bus at 0x4000_0000.
 *
 * Time: one clock is the NIC's (and the core's) clock, counted from
 * mgmt_iss_new(). Each instruction is charged the clocks the RTL core
 * takes with memories (and the register bus) answering the clock after a
 * request: 4 ALU, branch, jump, FENCE, MRET; 5 CSR; 6 load, store; 11 MUL
 * family; 37 DIV family; a trapping instruction its clocks to the
 * handler's fetch; an interrupt 3 more before the handler's fetch. mcycle,
 * minstret, mtime (clocks / prescale, the prescaler free-running from
 * mgmt_iss_new(), mtime writable) and the timer interrupt's latency (mip
 * follows mtime >= mtimecmp three clocks late, as the RTL's registered
 * compare and mip) follow the RTL clock by clock at instruction
 * boundaries.
 *
 * Inputs (mgmt_iss_set_halt, mgmt_iss_set_irq) take effect at the clock
 * the model has reached (the last mgmt_iss_run()'s return value; from a
 * bus callback, the clock after the access): call mgmt_iss_run(c, now)
 * first.
 */
#ifndef MGMT_ISS_H
#define MGMT_ISS_H

#include <stdint.h>

#define MGMT_ISS_IMEM_BYTES	16384u
#define MGMT_ISS_DMEM_BYTES	16384u
#define MGMT_ISS_NEVER		UINT64_MAX

/* the NIC register bus, the core's window 0x4000_0000 + off (off = addr bits 23:0) */
struct mgmt_bus {
	void *ctx;
	/* 0: OK (val filled), -1: the bus answered an error (the core takes a load access fault) */
	int (*rd)(void *ctx, uint32_t off, uint32_t *val);
	/* strb: byte strobes of the 32-bit word (the NIC refuses writes of less than a word with an error) */
	int (*wr)(void *ctx, uint32_t off, uint32_t val, unsigned int strb);
};

struct mgmt_iss;

struct mgmt_iss *mgmt_iss_new(const struct mgmt_bus *bus, unsigned int timer_prescale);
void mgmt_iss_free(struct mgmt_iss *c);
/*
 * HALT (MGMT_CTRL bit 0): 1 holds the core in reset (pc 0, the CSRs the
 * RTL resets: mstatus, mie, mip, mtvec, mepc, mcause, mtval, mcycle,
 * minstret; as in the RTL the register file and mscratch keep their
 * values), 0 releases it. The memories keep their contents; the timer and
 * the test registers keep running (they are reset with the NIC only).
 * After new: halted.
 */
void mgmt_iss_set_halt(struct mgmt_iss *c, int halt);
/* The loader (while halted; ignored otherwise): one word at a core address in IMEM or DMEM (others dropped). */
void mgmt_iss_load(struct mgmt_iss *c, uint32_t addr, uint32_t word);
/* The external interrupt input level (MEIP; the mailbox doorbell, set until the firmware ACKs). */
void mgmt_iss_set_irq(struct mgmt_iss *c, int level);
/*
 * Runs the core until the NIC clock reaches `until` or it sleeps (WFI with
 * no enabled interrupt pending, or halted: then the clock goes on to
 * `until`). An instruction started before `until` completes, so the clock
 * returned may pass `until` by an instruction's clocks. Returns the clock
 * reached.
 */
uint64_t mgmt_iss_run(struct mgmt_iss *c, uint64_t until);
/*
 * Asleep (WFI with nothing pending) or halted: the clock at which
 * something of its own wakes it (the WFI retires: mtime reaching mtimecmp
 * with MTIE enabled, or an external interrupt already on its way), or
 * MGMT_ISS_NEVER: only an input (irq, halt) can. Awake: the clock reached.
 */
uint64_t mgmt_iss_next_wake(const struct mgmt_iss *c);
int mgmt_iss_asleep(const struct mgmt_iss *c);	/* halted counts as asleep */
uint64_t mgmt_iss_mtime(const struct mgmt_iss *c);
/* Instructions retired since mgmt_iss_new(), for statistics (minstret's writes aside) */
uint64_t mgmt_iss_instret(const struct mgmt_iss *c);

/* ---- additions: tests, traces ---- */
/* The clock reached (the next instruction's fetch clock when running; in a callback, the clock after the access). */
uint64_t mgmt_iss_clock(const struct mgmt_iss *c);
/*
 * The CSRs mcycle and minstret as the RTL holds them at the current clock;
 * inside a test-register hook or a bus callback, at the clock after the
 * access (when the SoC's tohost_valid is seen), the accessing instruction
 * not yet retired.
 */
uint64_t mgmt_iss_mcycle(const struct mgmt_iss *c);
uint64_t mgmt_iss_minstret(const struct mgmt_iss *c);
uint32_t mgmt_iss_pc(const struct mgmt_iss *c);
uint32_t mgmt_iss_reg(const struct mgmt_iss *c, unsigned int n);
/* mcause, mepc, mtval, mstatus, mie, mip... by CSR number; 0 for an unknown one */
uint32_t mgmt_iss_csr(const struct mgmt_iss *c, unsigned int csr);
/*
 * The test registers' write to tohost (0x3000_0000): fn(ctx, value) is
 * called at each write; a non-zero return stops mgmt_iss_run() after the
 * instruction. NULL: no hook (the register still holds the value).
 */
void mgmt_iss_set_test_hook(struct mgmt_iss *c, int (*fn)(void *ctx, uint32_t tohost), void *ctx);
uint32_t mgmt_iss_tohost(const struct mgmt_iss *c);

#endif /* MGMT_ISS_H */
