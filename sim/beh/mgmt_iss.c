// SPDX-License-Identifier: MIT
/*
 * The management core's instruction-set simulator: see mgmt_iss.h.
 *
 * One instruction at a time, decoded from its word by a switch (no cache:
 * a store into IMEM is seen by the next fetch), at its fetch clock F (the
 * RTL's WB of the instruction before, or FETCH). The RTL's states give the
 * clocks: IWAIT F+1, DECODE F+2, EXEC F+3 (CSRs read, mcycle there), MEM
 * F+4 (the access: timer, test registers, register bus), MWAIT F+5, CSR
 * F+4 (CSRs written), WFI from F+4, WB F+cost (the next fetch), TRAP then
 * FETCH after a trap. Interrupts are looked at where the RTL takes them:
 * at the next fetch clock (WB), with mip as the RTL's registers hold it
 * then: MEIP one clock after the line (the register bus's or test_irq's
 * write lands the clock after its access), MTIP three clocks after
 * mtime >= mtimecmp (the timer's registered compare, its irq register,
 * mip). Each source keeps its last change (the clock, the state before),
 * enough to answer mip at any clock from the last access on: two changes
 * of a source are always more clocks apart than the latency.
 */
#include <stdlib.h>
#include <string.h>

#include "mgmt_iss.h"

#define IMEM_WORDS	(MGMT_ISS_IMEM_BYTES / 4)
#define DMEM_WORDS	(MGMT_ISS_DMEM_BYTES / 4)
#define NEVER		MGMT_ISS_NEVER

/* regions: address bits 31:28 */
#define R_IMEM		0x0
#define R_DMEM		0x1
#define R_TIMER		0x2
#define R_TEST		0x3
#define R_REG		0x4

/* mcause */
#define C_IMISALIGN	0u
#define C_IFAULT	1u
#define C_ILLEGAL	2u
#define C_BREAK		3u
#define C_LMISALIGN	4u
#define C_LFAULT	5u
#define C_SMISALIGN	6u
#define C_SFAULT	7u
#define C_ECALL_M	11u
#define C_IRQ_TIMER	0x80000007u
#define C_IRQ_EXT	0x8000000bu

#define MIP_MTIP	(1u << 7)
#define MIP_MEIP	(1u << 11)
#define MISA		0x40001100u

/* clocks: an instruction from its fetch to the next fetch (the handler's) */
#define T_ALU		4
#define T_CSR		5
#define T_LS		6
#define T_MUL		11
#define T_DIV		37
#define T_TRAP_EXEC	5	/* illegal, ECALL, EBREAK: EXEC, TRAP, FETCH */
#define T_TRAP_MEM	6	/* misaligned load/store: MEM, TRAP, FETCH */
#define T_TRAP_BUS	7	/* access fault: MEM, MWAIT, TRAP, FETCH */
#define T_TRAP_CSR	6	/* illegal CSR access: CSR, TRAP, FETCH */
#define T_TRAP_WB	6	/* misaligned jump target: WB, TRAP, FETCH */
#define T_TRAP_FETCH	3	/* fetch fault: IWAIT, TRAP, FETCH */
#define T_IRQ		3	/* WB to the handler's fetch: FETCH, TRAP, FETCH */
#define D_EXEC		3	/* EXEC's clock after the fetch */
#define D_MEM		4	/* MEM's and CSR's */
#define D_WFI		4	/* WFI's first */
#define L_MTIP		3	/* mip.MTIP after mtime >= mtimecmp */
#define L_MEIP		1	/* mip.MEIP after the line */

struct mgmt_iss {
	uint32_t x[32];
	uint32_t pc;
	uint64_t clk;		/* the clock reached: the next fetch's when running */
	int halted;
	int wfi;		/* waiting in WFI since wfi_from */
	uint64_t wfi_from;
	int stop;		/* the test hook asked to stop */
	uint64_t acc_clk;	/* in an access callback: the clock after it */
	int in_acc;

	/* CSRs */
	uint32_t st_mie, st_mpie;	/* mstatus.MIE, MPIE (0 or 1) */
	uint32_t mie;			/* MTIE, MEIE in place */
	uint32_t mtvec, mscratch, mepc, mcause, mtval;
	uint64_t cyc_base;		/* mcycle at clock t: t - cyc_base */
	uint64_t minstret;
	uint64_t instret;		/* statistics */

	/* timer: mtime at t = t / ps + off; from tm_clk on, before it the old state */
	uint64_t ps;
	uint64_t tm_off, tm_cmp, tm_clk, tm_off_old, tm_cmp_old;
	uint64_t tm_first;	/* the first clock >= tm_clk with mtime >= mtimecmp */

	/* the external interrupt line (input | test_irq): line from line_clk on */
	int ext, test_irq;
	int line, line_old;
	uint64_t line_clk;

	uint32_t tohost;
	int (*hook)(void *ctx, uint32_t tohost);
	void *hook_ctx;

	struct mgmt_bus bus;
	uint32_t imem[IMEM_WORDS];
	uint32_t dmem[DMEM_WORDS];
};

/* ---- the timer and the interrupt lines ---- */

/* the first clock >= s with t / ps + off >= cmp (mtime counts up) */
static uint64_t tm_first_from(uint64_t ps, uint64_t s, uint64_t off, uint64_t cmp)
{
	uint64_t q = s / ps, mt = q + off, d;

	if (mt >= cmp)
		return s;
	d = cmp - mt;
	/* (with room for the latency added to it) */
	if (d > UINT64_MAX / ps - q - 8)
		return NEVER;
	return (q + d) * ps;
}

static uint64_t mtime_at(const struct mgmt_iss *c, uint64_t t)
{
	return t / c->ps + (t >= c->tm_clk ? c->tm_off : c->tm_off_old);
}

/* mip.MTIP at clock t: the compare L_MTIP clocks earlier */
static int mtip_at(const struct mgmt_iss *c, uint64_t t)
{
	uint64_t s;

	if (t < L_MTIP)
		return 0;
	s = t - L_MTIP;
	if (s >= c->tm_clk)
		return s >= c->tm_first;
	return s / c->ps + c->tm_off_old >= c->tm_cmp_old;
}

static int meip_at(const struct mgmt_iss *c, uint64_t t)
{
	return t >= c->line_clk + L_MEIP ? c->line : c->line_old;
}

static uint32_t mip_at(const struct mgmt_iss *c, uint64_t t)
{
	return (meip_at(c, t) ? MIP_MEIP : 0) | (mtip_at(c, t) ? MIP_MTIP : 0);
}

static uint64_t mtip_first(const struct mgmt_iss *c, uint64_t t0)
{
	uint64_t t;

	for (t = t0; t < c->tm_clk + L_MTIP; t++)
		if (mtip_at(c, t))
			return t;
	if (c->tm_first == NEVER)
		return NEVER;
	return t > c->tm_first + L_MTIP ? t : c->tm_first + L_MTIP;
}

static uint64_t meip_first(const struct mgmt_iss *c, uint64_t t0)
{
	uint64_t t1 = c->line_clk + L_MEIP;

	if (t0 < t1 && c->line_old)
		return t0;
	if (!c->line)
		return NEVER;
	return t0 > t1 ? t0 : t1;
}

/* the first clock >= t0 at which an interrupt of `mask` (mie's bits) is pending */
static uint64_t irq_first(const struct mgmt_iss *c, uint64_t t0, uint32_t mask)
{
	uint64_t t = NEVER, e;

	if (mask & MIP_MTIP)
		t = mtip_first(c, t0);
	if (mask & MIP_MEIP) {
		e = meip_first(c, t0);
		if (e < t)
			t = e;
	}
	return t;
}

/* the line (input | test_irq) as of clock `at` */
static void line_update(struct mgmt_iss *c, uint64_t at)
{
	int l = c->ext | c->test_irq;

	if (l == c->line)
		return;
	if (at != c->line_clk)
		c->line_old = c->line;
	c->line = l;
	c->line_clk = at;
}

/* the clock an input changes at: after the access inside a callback */
static uint64_t input_clk(const struct mgmt_iss *c)
{
	return c->in_acc ? c->acc_clk : c->clk;
}

static uint32_t merge(uint32_t old, uint32_t val, unsigned int strb)
{
	uint32_t m = 0;
	unsigned int b;

	for (b = 0; b < 4; b++)
		if (strb & (1u << b))
			m |= 0xffu << (8 * b);
	return (old & ~m) | (val & m);
}

/* a timer access in clock m (MEM); the write lands at m + 1 */
static uint32_t timer_access(struct mgmt_iss *c, uint64_t m, uint32_t addr, int we,
			     uint32_t wdata, unsigned int strb)
{
	unsigned int w = (addr >> 2) & 3;
	uint64_t mt = mtime_at(c, m), next, v;
	uint32_t r;

	r = w == 0 ? (uint32_t)mt : w == 1 ? (uint32_t)(mt >> 32) :
	    w == 2 ? (uint32_t)c->tm_cmp : (uint32_t)(c->tm_cmp >> 32);
	if (!we)
		return r;
	c->tm_off_old = c->tm_off;
	c->tm_cmp_old = c->tm_cmp;
	c->tm_clk = m + 1;
	if (w < 2) {
		/* the write replaces its half; the other one ticks on */
		next = mtime_at(c, m + 1);
		if (w == 0)
			v = (next & 0xffffffff00000000ull) | merge((uint32_t)mt, wdata, strb);
		else
			v = (uint64_t)merge((uint32_t)(mt >> 32), wdata, strb) << 32 |
			    (uint32_t)next;
		c->tm_off = v - (m + 1) / c->ps;
	} else if (w == 2) {
		c->tm_cmp = (c->tm_cmp & 0xffffffff00000000ull) |
			    merge((uint32_t)c->tm_cmp, wdata, strb);
	} else {
		c->tm_cmp = (uint64_t)merge((uint32_t)(c->tm_cmp >> 32), wdata, strb) << 32 |
			    (uint32_t)c->tm_cmp;
	}
	c->tm_first = tm_first_from(c->ps, m + 1, c->tm_off, c->tm_cmp);
	return r;
}

/* ---- life cycle, inputs ---- */

static void core_reset(struct mgmt_iss *c)
{
	c->pc = 0;
	c->wfi = 0;
	c->st_mie = c->st_mpie = 0;
	c->mie = 0;
	c->mtvec = c->mepc = c->mcause = c->mtval = 0;
	c->cyc_base = c->clk;
	c->minstret = 0;
}

struct mgmt_iss *mgmt_iss_new(const struct mgmt_bus *bus, unsigned int timer_prescale)
{
	struct mgmt_iss *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (bus)
		c->bus = *bus;
	c->ps = timer_prescale ? timer_prescale : 1;
	c->tm_cmp = c->tm_cmp_old = UINT64_MAX;
	c->tm_first = tm_first_from(c->ps, 0, 0, UINT64_MAX);
	c->halted = 1;
	core_reset(c);
	return c;
}

void mgmt_iss_free(struct mgmt_iss *c)
{
	free(c);
}

void mgmt_iss_set_halt(struct mgmt_iss *c, int halt)
{
	halt = !!halt;
	if (halt == c->halted)
		return;
	if (c->in_acc && c->clk < c->acc_clk)
		c->clk = c->acc_clk;
	c->halted = halt;
	core_reset(c);
}

void mgmt_iss_load(struct mgmt_iss *c, uint32_t addr, uint32_t word)
{
	if (!c->halted)
		return;
	if (addr >> 28 == R_IMEM)
		c->imem[(addr >> 2) % IMEM_WORDS] = word;
	else if (addr >> 28 == R_DMEM)
		c->dmem[(addr >> 2) % DMEM_WORDS] = word;
}

void mgmt_iss_set_irq(struct mgmt_iss *c, int level)
{
	c->ext = !!level;
	line_update(c, input_clk(c));
}

void mgmt_iss_set_test_hook(struct mgmt_iss *c, int (*fn)(void *ctx, uint32_t tohost), void *ctx)
{
	c->hook = fn;
	c->hook_ctx = ctx;
}

/* ---- CSRs ---- */

/* the CSR's value read in EXEC (clock e); -1: no such CSR */
static int csr_read(const struct mgmt_iss *c, unsigned int csr, uint64_t e, uint32_t *v)
{
	uint64_t cyc = e - c->cyc_base;

	switch (csr) {
	case 0x300: *v = 3u << 11 | c->st_mpie << 7 | c->st_mie << 3; break;
	case 0x301: *v = MISA; break;
	case 0x304: *v = c->mie; break;
	case 0x305: *v = c->mtvec; break;
	case 0x310: *v = 0; break;
	case 0x340: *v = c->mscratch; break;
	case 0x341: *v = c->mepc; break;
	case 0x342: *v = c->mcause; break;
	case 0x343: *v = c->mtval; break;
	case 0x344: *v = mip_at(c, e); break;
	case 0xb00: case 0xc00: *v = (uint32_t)cyc; break;
	case 0xb02: case 0xc02: *v = (uint32_t)c->minstret; break;
	case 0xb80: case 0xc80: *v = (uint32_t)(cyc >> 32); break;
	case 0xb82: case 0xc82: *v = (uint32_t)(c->minstret >> 32); break;
	case 0xf11: case 0xf12: case 0xf13: case 0xf14: case 0xf15: *v = 0; break;
	default: return -1;
	}
	return 0;
}

/* the write in the CSR state (clock w); returns 1 if minstret was written */
static int csr_write(struct mgmt_iss *c, unsigned int csr, uint32_t v, uint64_t w)
{
	uint64_t cyc;

	switch (csr) {
	case 0x300:
		c->st_mie = (v >> 3) & 1;
		c->st_mpie = (v >> 7) & 1;
		break;
	case 0x304: c->mie = v & (MIP_MTIP | MIP_MEIP); break;
	case 0x305: c->mtvec = v & ~3u; break;
	case 0x340: c->mscratch = v; break;
	case 0x341: c->mepc = v & ~3u; break;
	case 0x342: c->mcause = v; break;
	case 0x343: c->mtval = v; break;
	case 0xb00:
	case 0xb80:
		/* the half written replaces that of the clock's increment */
		cyc = w + 1 - c->cyc_base;
		if (csr == 0xb00)
			cyc = (cyc & 0xffffffff00000000ull) | v;
		else
			cyc = (uint64_t)v << 32 | (uint32_t)cyc;
		c->cyc_base = w + 1 - cyc;
		break;
	case 0xb02:
		c->minstret = (c->minstret & 0xffffffff00000000ull) | v;
		return 1;
	case 0xb82:
		c->minstret = (uint64_t)v << 32 | (uint32_t)c->minstret;
		return 1;
	default:
		break;		/* misa, mstatush, mip: ignored */
	}
	return 0;
}

/* ---- execution ---- */

static void trap(struct mgmt_iss *c, uint32_t cause, uint32_t tval, uint64_t fetch)
{
	c->mepc = c->pc;
	c->mcause = cause;
	c->mtval = tval;
	c->st_mpie = c->st_mie;
	c->st_mie = 0;
	c->pc = c->mtvec;
	c->clk = fetch;
}

static void retire(struct mgmt_iss *c, uint32_t npc, uint64_t fetch)
{
	c->pc = npc;
	c->clk = fetch;
	c->minstret++;
	c->instret++;
}

/* a data access in clock m: 0, or the access fault's cause */
static int data_access(struct mgmt_iss *c, uint64_t m, uint32_t addr, int we,
		       uint32_t wdata, unsigned int strb, uint32_t *rdata)
{
	uint32_t *p, off;
	int r;

	switch (addr >> 28) {
	case R_IMEM:
		p = &c->imem[(addr >> 2) % IMEM_WORDS];
		goto ram;
	case R_DMEM:
		p = &c->dmem[(addr >> 2) % DMEM_WORDS];
ram:
		if (we)
			*p = merge(*p, wdata, strb);
		else
			*rdata = *p;
		return 0;
	case R_TIMER:
		*rdata = timer_access(c, m, addr, we, wdata, strb);
		return 0;
	case R_TEST:
		c->in_acc = 1;
		c->acc_clk = m + 1;
		if (!(addr & 4)) {
			*rdata = c->tohost;
			if (we) {
				c->tohost = wdata;
				if (c->hook && c->hook(c->hook_ctx, wdata))
					c->stop = 1;
			}
		} else {
			*rdata = (uint32_t)c->test_irq;
			if (we && (strb & 1)) {
				c->test_irq = wdata & 1;
				line_update(c, m + 1);
			}
		}
		c->in_acc = 0;
		return 0;
	case R_REG:
		off = addr & 0x00fffffcu;
		c->in_acc = 1;
		c->acc_clk = m + 1;
		if (we)
			r = c->bus.wr ? c->bus.wr(c->bus.ctx, off, wdata, strb) : -1;
		else
			r = c->bus.rd ? c->bus.rd(c->bus.ctx, off, rdata) : -1;
		c->in_acc = 0;
		return r ? (we ? C_SFAULT : C_LFAULT) : 0;
	default:
		return we ? C_SFAULT : C_LFAULT;
	}
}

/* the WFI retires at the clock after the first WFI clock an enabled interrupt is pending */
static uint64_t wfi_done(const struct mgmt_iss *c)
{
	uint64_t w = irq_first(c, c->wfi_from, c->mie);

	return w == NEVER ? NEVER : w + 1;
}

/* MULH family on 64-bit products */
static uint32_t muldiv(unsigned int f3, uint32_t a, uint32_t b)
{
	int64_t sa = (int32_t)a, sb = (int32_t)b;

	switch (f3) {
	case 0: return a * b;
	case 1: return (uint32_t)((uint64_t)(sa * sb) >> 32);
	case 2: return (uint32_t)((uint64_t)(sa * (int64_t)(uint64_t)b) >> 32);
	case 3: return (uint32_t)(((uint64_t)a * b) >> 32);
	case 4:
		if (!b)
			return UINT32_MAX;
		if (a == 0x80000000u && b == UINT32_MAX)
			return a;
		return (uint32_t)((int32_t)a / (int32_t)b);
	case 5: return b ? a / b : UINT32_MAX;
	case 6:
		if (!b)
			return a;
		if (a == 0x80000000u && b == UINT32_MAX)
			return 0;
		return (uint32_t)((int32_t)a % (int32_t)b);
	default: return b ? a % b : a;
	}
}

/* Executes the instruction at pc, fetched at clock F = c->clk. */
static void step(struct mgmt_iss *c, uint64_t until)
{
	const uint64_t F = c->clk;
	uint32_t ir, rd, rs1v, rs2v, f3, f7, imm, v, a, npc;
	int cause;

	if (c->pc >> 28 != R_IMEM) {
		trap(c, C_IFAULT, c->pc, F + T_TRAP_FETCH);
		return;
	}
	ir = c->imem[(c->pc >> 2) % IMEM_WORDS];
	rd = (ir >> 7) & 31;
	f3 = (ir >> 12) & 7;
	f7 = ir >> 25;
	rs1v = c->x[(ir >> 15) & 31];
	rs2v = c->x[(ir >> 20) & 31];
	imm = (uint32_t)((int32_t)ir >> 20);		/* I-type */

	switch (ir & 0x7f) {
	case 0x37:	/* LUI */
		v = ir & 0xfffff000u;
		goto wb;
	case 0x17:	/* AUIPC */
		v = c->pc + (ir & 0xfffff000u);
		goto wb;
	case 0x6f:	/* JAL */
		imm = (uint32_t)((int32_t)(ir & 0x80000000u) >> 11) | (ir & 0xff000u) |
		      ((ir >> 9) & 0x800u) | ((ir >> 20) & 0x7feu);
		npc = c->pc + imm;
		if (npc == c->pc && rd == 0) {
			/* j .: spins until an interrupt, nothing else changes */
			uint64_t n = until > F ? (until - F) / T_ALU + ((until - F) % T_ALU != 0) : 1, t;

			/* (the clock stays below NEVER) */
			if (n > (NEVER - 1 - F) / T_ALU)
				n = (NEVER - 1 - F) / T_ALU;
			if (c->st_mie && c->mie) {
				t = irq_first(c, F + T_ALU, c->mie);
				if (t != NEVER && (t - F) / T_ALU + ((t - F) % T_ALU != 0) < n)
					n = (t - F) / T_ALU + ((t - F) % T_ALU != 0);
			}
			c->clk = F + n * T_ALU;
			c->minstret += n;
			c->instret += n;
			return;
		}
		v = c->pc + 4;
		goto jump;
	case 0x67:	/* JALR */
		if (f3)
			goto illegal;
		npc = (rs1v + imm) & ~1u;
		v = c->pc + 4;
jump:
		if (npc & 2) {
			trap(c, C_IMISALIGN, npc, F + T_TRAP_WB);
			return;
		}
		c->x[rd] = v;
		c->x[0] = 0;
		retire(c, npc, F + T_ALU);
		return;
	case 0x63: {	/* branches */
		int take;

		switch (f3) {
		case 0: take = rs1v == rs2v; break;
		case 1: take = rs1v != rs2v; break;
		case 4: take = (int32_t)rs1v < (int32_t)rs2v; break;
		case 5: take = (int32_t)rs1v >= (int32_t)rs2v; break;
		case 6: take = rs1v < rs2v; break;
		case 7: take = rs1v >= rs2v; break;
		default: goto illegal;
		}
		if (!take) {
			retire(c, c->pc + 4, F + T_ALU);
			return;
		}
		imm = (uint32_t)((int32_t)(ir & 0x80000000u) >> 19) | ((ir << 4) & 0x800u) |
		      ((ir >> 20) & 0x7e0u) | ((ir >> 7) & 0x1eu);
		npc = c->pc + imm;
		if (npc & 2) {
			trap(c, C_IMISALIGN, npc, F + T_TRAP_WB);
			return;
		}
		retire(c, npc, F + T_ALU);
		return;
	}
	case 0x03:	/* loads */
		if (f3 == 3 || f3 >= 6)
			goto illegal;
		a = rs1v + imm;
		if (((f3 & 3) == 2 && (a & 3)) || ((f3 & 3) == 1 && (a & 1))) {
			trap(c, C_LMISALIGN, a, F + T_TRAP_MEM);
			return;
		}
		if (a >> 28 == R_DMEM) {
			v = c->dmem[(a >> 2) % DMEM_WORDS];
		} else {
			cause = data_access(c, F + D_MEM, a, 0, 0,
					    (f3 & 3) == 0 ? 1u << (a & 3) :
					    (f3 & 3) == 1 ? 3u << (a & 2) : 15u, &v);
			if (cause) {
				trap(c, (uint32_t)cause, a, F + T_TRAP_BUS);
				return;
			}
		}
		v >>= 8 * (a & 3);
		switch (f3) {
		case 0: v = (uint32_t)(int32_t)(int8_t)v; break;
		case 1: v = (uint32_t)(int32_t)(int16_t)v; break;
		case 4: v &= 0xff; break;
		case 5: v &= 0xffff; break;
		default: break;
		}
		c->x[rd] = v;
		c->x[0] = 0;
		retire(c, c->pc + 4, F + T_LS);
		return;
	case 0x23: {	/* stores */
		unsigned int strb;

		if (f3 >= 3)
			goto illegal;
		a = rs1v + (((uint32_t)((int32_t)ir >> 20) & ~31u) | rd);
		if ((f3 == 2 && (a & 3)) || (f3 == 1 && (a & 1))) {
			trap(c, C_SMISALIGN, a, F + T_TRAP_MEM);
			return;
		}
		if (f3 == 0) {
			strb = 1u << (a & 3);
			v = (rs2v & 0xff) * 0x01010101u;
		} else if (f3 == 1) {
			strb = 3u << (a & 2);
			v = (rs2v & 0xffff) * 0x00010001u;
		} else {
			strb = 15;
			v = rs2v;
		}
		if (a >> 28 == R_DMEM && strb == 15) {
			c->dmem[(a >> 2) % DMEM_WORDS] = v;
		} else {
			cause = data_access(c, F + D_MEM, a, 1, v, strb, &v);
			if (cause) {
				trap(c, (uint32_t)cause, a, F + T_TRAP_BUS);
				return;
			}
		}
		retire(c, c->pc + 4, F + T_LS);
		return;
	}
	case 0x13:	/* OP-IMM */
		switch (f3) {
		case 0: v = rs1v + imm; break;
		case 1:
			if (f7)
				goto illegal;
			v = rs1v << (imm & 31);
			break;
		case 2: v = (int32_t)rs1v < (int32_t)imm; break;
		case 3: v = rs1v < imm; break;
		case 4: v = rs1v ^ imm; break;
		case 5:
			if (f7 == 0)
				v = rs1v >> (imm & 31);
			else if (f7 == 0x20)
				v = (uint32_t)((int32_t)rs1v >> (imm & 31));
			else
				goto illegal;
			break;
		case 6: v = rs1v | imm; break;
		default: v = rs1v & imm; break;
		}
		goto wb;
	case 0x33:	/* OP, M */
		if (f7 == 1) {
			c->x[rd] = muldiv(f3, rs1v, rs2v);
			c->x[0] = 0;
			retire(c, c->pc + 4, F + (f3 & 4 ? T_DIV : T_MUL));
			return;
		}
		if (f7 == 0x20) {
			if (f3 == 0)
				v = rs1v - rs2v;
			else if (f3 == 5)
				v = (uint32_t)((int32_t)rs1v >> (rs2v & 31));
			else
				goto illegal;
			goto wb;
		}
		if (f7)
			goto illegal;
		switch (f3) {
		case 0: v = rs1v + rs2v; break;
		case 1: v = rs1v << (rs2v & 31); break;
		case 2: v = (int32_t)rs1v < (int32_t)rs2v; break;
		case 3: v = rs1v < rs2v; break;
		case 4: v = rs1v ^ rs2v; break;
		case 5: v = rs1v >> (rs2v & 31); break;
		case 6: v = rs1v | rs2v; break;
		default: v = rs1v & rs2v; break;
		}
		goto wb;
	case 0x0f:	/* FENCE, FENCE.I: no-ops */
		if (f3 >= 2)
			goto illegal;
		retire(c, c->pc + 4, F + T_ALU);
		return;
	case 0x73:	/* SYSTEM */
		if (f3 & 3) {
			unsigned int csr = ir >> 20, zimm = (ir >> 15) & 31;
			int wr = (f3 & 3) == 1 || zimm != 0;
			uint32_t old, src = f3 & 4 ? zimm : rs1v;

			if (csr_read(c, csr, F + D_EXEC, &old) ||
			    ((csr >> 10) == 3 && wr)) {
				trap(c, C_ILLEGAL, ir, F + T_TRAP_CSR);
				return;
			}
			if (wr) {
				v = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;
				if (csr_write(c, csr, v, F + D_MEM)) {
					/* minstret written: this one does not count */
					c->x[rd] = old;
					c->x[0] = 0;
					c->pc += 4;
					c->clk = F + T_CSR;
					c->instret++;
					return;
				}
			}
			c->x[rd] = old;
			c->x[0] = 0;
			retire(c, c->pc + 4, F + T_CSR);
			return;
		}
		switch (ir) {
		case 0x00000073:	/* ECALL */
			trap(c, C_ECALL_M, 0, F + T_TRAP_EXEC);
			return;
		case 0x00100073:	/* EBREAK */
			trap(c, C_BREAK, c->pc, F + T_TRAP_EXEC);
			return;
		case 0x30200073:	/* MRET */
			c->st_mie = c->st_mpie;
			c->st_mpie = 1;
			retire(c, c->mepc, F + T_ALU);
			return;
		case 0x10500073:	/* WFI */
			c->wfi = 1;
			c->wfi_from = F + D_WFI;
			c->clk = c->wfi_from;
			return;
		default:
			goto illegal;
		}
	default:
		goto illegal;
	}

wb:
	c->x[rd] = v;
	c->x[0] = 0;
	retire(c, c->pc + 4, F + T_ALU);
	return;
illegal:
	trap(c, C_ILLEGAL, ir, F + T_TRAP_EXEC);
}

uint64_t mgmt_iss_run(struct mgmt_iss *c, uint64_t until)
{
	uint32_t p;

	c->stop = 0;
	for (;;) {
		if (c->halted)
			break;
		if (c->wfi) {
			uint64_t w = wfi_done(c);

			if (w > until)
				break;
			/* (an input changes at the clock reached, so never earlier) */
			if (w < c->clk)
				w = c->clk;
			c->wfi = 0;
			retire(c, c->pc + 4, w);
		}
		if (c->clk >= until || c->stop)
			return c->clk;
		/* an enabled pending interrupt is taken before the fetch */
		if (c->st_mie && c->mie) {
			p = mip_at(c, c->clk) & c->mie;
			if (p) {
				trap(c, p & MIP_MEIP ? C_IRQ_EXT : C_IRQ_TIMER, 0, c->clk + T_IRQ);
				continue;
			}
		}
		step(c, until);
		/* halted by a bus callback: the instruction did not complete */
		if (c->halted)
			core_reset(c);
	}
	/* asleep: time goes on */
	if (c->clk < until)
		c->clk = until;
	return c->clk;
}

uint64_t mgmt_iss_next_wake(const struct mgmt_iss *c)
{
	if (c->halted)
		return NEVER;
	if (c->wfi)
		return wfi_done(c);
	return c->clk;
}

int mgmt_iss_asleep(const struct mgmt_iss *c)
{
	return c->halted || (c->wfi && wfi_done(c) > c->clk);
}

uint64_t mgmt_iss_mtime(const struct mgmt_iss *c)
{
	return mtime_at(c, input_clk(c));
}

uint64_t mgmt_iss_instret(const struct mgmt_iss *c)
{
	return c->instret;
}

uint64_t mgmt_iss_clock(const struct mgmt_iss *c)
{
	return input_clk(c);
}

uint64_t mgmt_iss_mcycle(const struct mgmt_iss *c)
{
	return c->halted ? 0 : input_clk(c) - c->cyc_base;
}

uint64_t mgmt_iss_minstret(const struct mgmt_iss *c)
{
	return c->minstret;
}

uint32_t mgmt_iss_pc(const struct mgmt_iss *c)
{
	return c->pc;
}

uint32_t mgmt_iss_reg(const struct mgmt_iss *c, unsigned int n)
{
	return n < 32 ? c->x[n] : 0;
}

uint32_t mgmt_iss_csr(const struct mgmt_iss *c, unsigned int csr)
{
	uint32_t v;

	if (csr_read(c, csr, c->clk, &v))
		return 0;
	return v;
}

uint32_t mgmt_iss_tohost(const struct mgmt_iss *c)
{
	return c->tohost;
}
