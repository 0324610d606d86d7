// SPDX-License-Identifier: MIT
/*
 * test_mgmt_iss: the management core's instruction-set simulator
 * (sim/beh/mgmt_iss.c) against what the RTL core does.
 *
 * 1. The ISA programs of firmware/tests/isa (ELFs built by the Makefile
 *    as tests/rtl/mgmt/run-isa.sh builds them) and tests/sim/beh/corners.S
 *    on the ISS with the SoC of tests/rtl/mgmt/tb_mgmt_soc.v: DMEM filled
 *    with 0xa5a5a5a5 first, the timer's prescaler 1 (7 for two runs), a
 *    register bus of 16 scratch words (0x00-0x3c; other offsets below
 *    0x100 read 0, 0x100 and up answer an error). A program passes when
 *    it writes 1 to tohost; fail.S must report check 3; corners.S writes
 *    a signature of the values it saw. mcycle, minstret, mcause and mepc
 *    at the tohost write against the RTL's (tb_mgmt_soc under Icarus;
 *    the cycles are docs/firmware.md's CPI table): equal, except where
 *    the testbench's register bus answers after random delays (trap.S,
 *    regbus.S: the instructions equal, the RTL 1 to 8 clocks more a bus
 *    access).
 * 2. The real firmware image (build/firmware/inceptionn-fw.bin) on the ISS
 *    with a fake of the NIC's registers (register map 1.4: no engine test
 *    port, so the self-test runs nothing): boot to READY, FW_VERSION, the
 *    heartbeat (+N in N ms, the sleeping core woken exactly at the timer's
 *    clock), GET_VERSION, GET_LINK, an unknown opcode, a link event,
 *    DEBUG_HANG, a reload, DEBUG_FAULT; the same run cut into runs of
 *    different lengths gives the same bus accesses at the same clocks.
 *    Then speed: wall time to READY and instructions a second.
 *
 * usage: test_mgmt_iss [ISA_DIR [FW_DIR]]  (default $BUILD/mgmt-iss/isa,
 * $BUILD/firmware; BUILD defaults to build)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/inc_nic_regs.h"
#include "fw_version.h"
#include "mgmt_iss.h"
#include "testlib.h"

#define NIC_PRESCALE	250u		/* 250 MHz, mtime in microseconds */
#define MS		(1000ull * NIC_PRESCALE)
#define ISA_TIMEOUT	200000u		/* clocks, as run-isa.sh */

static char isa_dir[512], fw_dir[512];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* ---- ISA programs ---- */

struct isa_env {
	struct mgmt_iss *c;
	uint32_t scratch[16];
	unsigned int nbus;
	int done;
	uint32_t tohost;
	uint64_t cycles, instret;
	uint32_t mcause, mepc;
};

static int isa_rd(void *ctx, uint32_t off, uint32_t *val)
{
	struct isa_env *e = ctx;

	e->nbus++;
	if (off >= 0x100)
		return -1;
	*val = off < 0x40 ? e->scratch[off / 4] : 0;
	return 0;
}

static int isa_wr(void *ctx, uint32_t off, uint32_t val, unsigned int strb)
{
	struct isa_env *e = ctx;
	unsigned int b;

	e->nbus++;
	if (off >= 0x100)
		return -1;
	if (off < 0x40)
		for (b = 0; b < 4; b++)
			if (strb & (1u << b))
				e->scratch[off / 4] = (e->scratch[off / 4] & ~(0xffu << 8 * b)) |
						      (val & (0xffu << 8 * b));
	return 0;
}

static int isa_hook(void *ctx, uint32_t v)
{
	struct isa_env *e = ctx;

	/* as tb_mgmt_soc prints them: the clock tohost_valid is seen */
	e->done = 1;
	e->tohost = v;
	e->cycles = mgmt_iss_mcycle(e->c);
	e->instret = mgmt_iss_minstret(e->c);
	e->mcause = mgmt_iss_csr(e->c, 0x342);
	e->mepc = mgmt_iss_csr(e->c, 0x341);
	return 1;
}

/*
 * An ELF's loadable bytes as elf2hex.py places them: an image of each
 * memory from its word 0 to the last byte loaded, zeros between. Returns
 * the words of IMEM and DMEM, or -1.
 */
static int elf_images(const char *path, uint32_t *im, unsigned int *ni, uint32_t *dm,
		      unsigned int *nd)
{
	uint8_t *f, img[2][16384];
	size_t len, end[2] = { 0, 0 };
	uint32_t phoff;
	unsigned int i, k, phnum, phsz;

	f = t_read_file(path, &len);
	if (!f)
		return -1;
	if (len < 52 || memcmp(f, "\177ELF\1\1", 6) || le16(f + 18) != 243) {
		free(f);
		return -1;
	}
	memset(img, 0, sizeof(img));
	phoff = le32(f + 28);
	phsz = le16(f + 42);
	phnum = le16(f + 44);
	for (i = 0; i < phnum; i++) {
		const uint8_t *ph = f + phoff + (size_t)i * phsz;
		uint32_t off = le32(ph + 4), pa = le32(ph + 12), fsz = le32(ph + 16);

		if ((size_t)phoff + (size_t)(i + 1) * phsz > len)
			break;
		if (le32(ph) != 1 || fsz == 0)
			continue;
		k = pa >> 28;
		if (k > 1 || (pa & 0x0fffffffu) + fsz > 16384 || (size_t)off + fsz > len) {
			free(f);
			return -1;
		}
		memcpy(img[k] + (pa & 0x0fffffffu), f + off, fsz);
		if ((pa & 0x0fffffffu) + fsz > end[k])
			end[k] = (pa & 0x0fffffffu) + fsz;
	}
	free(f);
	*ni = (unsigned int)(end[0] + 3) / 4;
	*nd = (unsigned int)(end[1] + 3) / 4;
	for (i = 0; i < *ni; i++)
		im[i] = le32(img[0] + 4 * i);
	for (i = 0; i < *nd; i++)
		dm[i] = le32(img[1] + 4 * i);
	return 0;
}

/*
 * The RTL's figures, as tests/sim/beh/rtl-figures.sh prints them:
 * tb_mgmt_soc's RESULT line under Icarus (mcycle, minstret, mcause, mepc
 * at the tohost write; the cycles and instructions are docs/firmware.md's
 * CPI table) with TIMER_PRESCALE 1, and 7 (a defparam) for irq.S (its
 * check 16 then fails: mtime's carry takes 16 ticks) and corners.S.
 * bus: the testbench's register bus answers after random delays.
 */
static const struct {
	const char *name, *src;
	unsigned int prescale;
	uint32_t tohost;
	uint64_t cycles, instret;
	uint32_t mcause, mepc;
	int bus;
} isa_progs[] = {
	{ "alu", "alu.S", 1, 1, 878, 218, 0, 0, 0 },
	{ "shift", "shift.S", 1, 1, 726, 180, 0, 0, 0 },
	{ "compare", "compare.S", 1, 1, 634, 157, 0, 0, 0 },
	{ "branch", "branch.S", 1, 1, 626, 155, 0, 0, 0 },
	{ "jump", "jump.S", 1, 1, 242, 59, 0, 0, 0 },
	{ "upper", "upper.S", 1, 1, 234, 57, 0, 0, 0 },
	{ "loadstore", "loadstore.S", 1, 1, 1216, 275, 0, 0, 0 },
	{ "mul", "mul.S", 1, 1, 25274, 4776, 0, 0, 0 },
	{ "div", "div.S", 1, 1, 38453, 4874, 0, 0, 0 },
	{ "csr", "csr.S", 1, 1, 4294967929ull, 4294967400ull, 2, 0x520, 0 },
	{ "trap", "trap.S", 1, 1, 2816, 608, 11, 0xa44, 1 },
	{ "irq", "irq.S", 1, 1, 1626, 304, 0x80000007u, 0x220, 0 },
	{ "irq", "irq.S (prescale 7)", 7, (16u << 1) | 1, 4592, 598, 0x80000007u, 0x220, 0 },
	{ "regbus", "regbus.S", 1, 1, 1535, 269, 0, 0, 1 },
	{ "cprog", "cprog.c", 1, 1, 30053, 6458, 0, 0, 0 },
	{ "fail", "fail.S", 1, (3u << 1) | 1, 114, 27, 0, 0, 0 },
	/* tests/sim/beh/corners.S: tohost is its signature */
	{ "corners", "corners.S (prescale 7)", 7, 0x26ece341u, 8589937215ull, 581, 2, 0x4c8, 0 },
	{ "corners", "corners.S", 1, 0xe787ca45u, 8589937201ull, 581, 2, 0x4c8, 0 },
};

/* runs one program; 0 when it wrote tohost (e filled), -1 not loaded, 1 timeout */
static int isa_run(const char *name, unsigned int prescale, struct isa_env *e)
{
	static uint32_t im[4096], dm[4096];
	struct mgmt_bus bus = { e, isa_rd, isa_wr };
	char path[600];
	unsigned int ni, nd, i;
	uint64_t rel;
	int r = 1;

	snprintf(path, sizeof(path), "%s/%s.elf", isa_dir, name);
	memset(e, 0, sizeof(*e));
	bus.ctx = e;
	if (elf_images(path, im, &ni, dm, &nd))
		return -1;
	e->c = mgmt_iss_new(&bus, prescale);
	if (!e->c)
		return -1;
	mgmt_iss_set_test_hook(e->c, isa_hook, e);
	/*
	 * as tb_mgmt_soc: DMEM's pattern, then the images, one word a clock;
	 * the core's first clock (FETCH) is the timer's 4098 + words (the
	 * clock of the un-HALT: two more, the loader's first and last)
	 */
	for (i = 0; i < 4096; i++)
		mgmt_iss_load(e->c, 0x10000000u + 4 * i, 0xa5a5a5a5u);
	for (i = 0; i < ni; i++)
		mgmt_iss_load(e->c, 4 * i, im[i]);
	for (i = 0; i < nd; i++)
		mgmt_iss_load(e->c, 0x10000000u + 4 * i, dm[i]);
	rel = mgmt_iss_run(e->c, 4098 + ni + nd);
	mgmt_iss_set_halt(e->c, 0);
	while (!e->done && mgmt_iss_clock(e->c) < rel + ISA_TIMEOUT) {
		mgmt_iss_run(e->c, rel + ISA_TIMEOUT);
		if (mgmt_iss_asleep(e->c) && mgmt_iss_next_wake(e->c) == MGMT_ISS_NEVER)
			break;
	}
	if (e->done)
		r = 0;
	else
		t_diag("%s: no tohost write: pc 0x%08x mcause 0x%08x mepc 0x%08x", name,
		       mgmt_iss_pc(e->c), mgmt_iss_csr(e->c, 0x342), mgmt_iss_csr(e->c, 0x341));
	mgmt_iss_free(e->c);
	e->c = NULL;
	return r;
}

static void test_isa(void)
{
	struct isa_env e;
	unsigned int i;
	int r;

	for (i = 0; i < sizeof(isa_progs) / sizeof(isa_progs[0]); i++) {
		const char *src = isa_progs[i].src;
		uint32_t want = isa_progs[i].tohost;

		r = isa_run(isa_progs[i].name, isa_progs[i].prescale, &e);
		if (r < 0) {
			t_ok(0, "%s: %s/%s.elf loads", src, isa_dir, isa_progs[i].name);
			continue;
		}
		if (isa_progs[i].name[0] == 'c' && !strcmp(isa_progs[i].name, "corners"))
			t_ok(r == 0 && e.tohost == want, "%s: signature 0x%08x as on the RTL (0x%08x)",
			     src, e.tohost, want);
		else if (want == 1)
			t_ok(r == 0 && e.tohost == 1, "%s passes on the ISS (tohost 0x%08x%s)", src,
			     e.tohost, r ? ", timeout" : "");
		else
			t_ok(r == 0 && e.tohost == want, "%s reports check %u failed, as on the RTL (tohost 0x%08x%s)",
			     src, want >> 1, e.tohost, r ? ", timeout" : "");
		if (r)
			continue;
		t_diag("%-20s %10llu cycles %10llu instructions CPI %.2f; RTL %10llu %10llu",
		       src, (unsigned long long)e.cycles, (unsigned long long)e.instret,
		       (double)e.cycles / (double)e.instret,
		       (unsigned long long)isa_progs[i].cycles,
		       (unsigned long long)isa_progs[i].instret);
		if (!isa_progs[i].bus) {
			t_ok(e.cycles == isa_progs[i].cycles && e.instret == isa_progs[i].instret &&
			     e.mcause == isa_progs[i].mcause && e.mepc == isa_progs[i].mepc,
			     "%s: mcycle %llu minstret %llu mcause 0x%x mepc 0x%x as the RTL's (%llu %llu 0x%x 0x%x)",
			     src, (unsigned long long)e.cycles, (unsigned long long)e.instret, e.mcause,
			     e.mepc, (unsigned long long)isa_progs[i].cycles,
			     (unsigned long long)isa_progs[i].instret, isa_progs[i].mcause,
			     isa_progs[i].mepc);
		} else {
			/* the testbench's bus: 1 + 0..3 clocks a response, waits for ready */
			uint64_t lo = e.cycles + e.nbus, hi = e.cycles + 8ull * e.nbus;

			t_ok(e.instret == isa_progs[i].instret && e.mcause == isa_progs[i].mcause &&
			     e.mepc == isa_progs[i].mepc && isa_progs[i].cycles >= lo &&
			     isa_progs[i].cycles <= hi,
			     "%s: minstret %llu mcause 0x%x mepc 0x%x as the RTL's, mcycle %llu with %u bus accesses: the RTL's %llu in [%llu, %llu] (its bus answers 1 to 8 clocks later)",
			     src, (unsigned long long)e.instret, e.mcause, e.mepc,
			     (unsigned long long)e.cycles, e.nbus,
			     (unsigned long long)isa_progs[i].cycles, (unsigned long long)lo,
			     (unsigned long long)hi);
		}
	}
}

/* ---- the firmware on a fake NIC ---- */

struct nic {
	struct mgmt_iss *c;
	uint32_t fw_status, fw_version, heartbeat, fw_selftest, event;
	int busy, irq;
	uint32_t cmd[INC_MBOX_CMD_WORDS], rsp[INC_MBOX_RSP_WORDS];
	uint32_t status, mac_lo, mac_hi, link_speed;
	uint64_t done_clk, hb_clk, ack_clk;
	unsigned int bus_err;
	uint32_t err_off;
	uint64_t hash;		/* every access: clock, offset, value */
	unsigned int naccess;
};

static void nic_hash(struct nic *n, uint32_t off, uint32_t v, int we)
{
	uint64_t x = mgmt_iss_clock(n->c) * 0x9e3779b97f4a7c15ull ^
		     ((uint64_t)off << 33 | (uint64_t)we << 32 | v);

	n->hash = (n->hash ^ x) * 0x100000001b3ull;
	n->naccess++;
}

static int nic_rd(void *ctx, uint32_t off, uint32_t *val)
{
	struct nic *n = ctx;
	uint32_t v;

	switch (off) {
	case INC_VERSION: v = 1u << 16 | 4u << 8; break;
	case INC_FEATURES: v = 0x3fff; break;		/* 1.4: no engine test port */
	case INC_STATUS: v = n->status; break;
	case INC_MAC_LO: v = n->mac_lo; break;
	case INC_MAC_HI: v = n->mac_hi; break;
	case INC_LINK_SPEED: v = n->link_speed; break;
	case INC_MGMT_CTRL: v = 0; break;
	case INC_FW_STATUS: v = n->fw_status; break;
	case INC_FW_VERSION: v = n->fw_version; break;
	case INC_FW_HEARTBEAT: v = n->heartbeat; break;
	case INC_FW_SELFTEST: v = n->fw_selftest; break;
	case INC_MBOX_STATUS: v = (uint32_t)n->busy; break;
	case INC_MGMT_EVENT: v = n->event; break;
	default:
		if (off >= INC_MBOX_CMD && off < INC_MBOX_CMD + 4 * INC_MBOX_CMD_WORDS) {
			v = n->cmd[(off - INC_MBOX_CMD) / 4];
		} else if (off >= INC_MBOX_RSP && off < INC_MBOX_RSP + 4 * INC_MBOX_RSP_WORDS) {
			v = n->rsp[(off - INC_MBOX_RSP) / 4];
		} else if (off >= INC_STATS_SNAP_BANK && off < INC_STATS_SNAP_BANK + 8 * INC_ST_N) {
			v = 1000 * ((off - INC_STATS_SNAP_BANK) / 8) + (off & 4 ? 0 : 7);
		} else {
			n->bus_err++;
			n->err_off = off;
			return -1;
		}
	}
	nic_hash(n, off, v, 0);
	*val = v;
	return 0;
}

static int nic_wr(void *ctx, uint32_t off, uint32_t val, unsigned int strb)
{
	struct nic *n = ctx;

	if (strb != 0xf)
		goto err;
	switch (off) {
	case INC_MAC_LO: n->mac_lo = val; break;
	case INC_MAC_HI: n->mac_hi = val; break;
	case INC_FW_STATUS: n->fw_status = val; break;
	case INC_FW_VERSION: n->fw_version = val; break;
	case INC_FW_HEARTBEAT:
		n->heartbeat = val;
		n->hb_clk = mgmt_iss_clock(n->c);
		break;
	case INC_FW_SELFTEST: n->fw_selftest = val; break;
	case INC_MBOX_STATUS:
		if (val & INC_MBOX_STATUS_ACK) {
			n->irq = 0;
			n->ack_clk = mgmt_iss_clock(n->c);
			mgmt_iss_set_irq(n->c, 0);
		}
		if (val & INC_MBOX_STATUS_DONE) {
			n->busy = 0;
			n->done_clk = mgmt_iss_clock(n->c);
		}
		break;
	case INC_MGMT_EVENT: n->event |= val; break;
	case INC_STATS_SNAP: break;
	default:
		if (off >= INC_MBOX_RSP && off < INC_MBOX_RSP + 4 * INC_MBOX_RSP_WORDS) {
			n->rsp[(off - INC_MBOX_RSP) / 4] = val;
			break;
		}
		goto err;
	}
	nic_hash(n, off, val, 1);
	return 0;
err:
	n->bus_err++;
	n->err_off = off;
	return -1;
}

static uint8_t *fw_img;
static size_t fw_len;

static void nic_init(struct nic *n)
{
	struct mgmt_bus bus = { n, nic_rd, nic_wr };

	memset(n, 0, sizeof(*n));
	n->status = INC_STATUS_LINK;
	n->link_speed = 100000;
	n->c = mgmt_iss_new(&bus, NIC_PRESCALE);
}

/* the driver's load: HALT, every payload word, un-HALT (FW_STATUS, FW_VERSION, BUSY cleared by HALT) */
static void nic_load(struct nic *n)
{
	uint32_t words = le32(fw_img + 12) / 4, i;

	mgmt_iss_set_halt(n->c, 1);
	n->fw_status = n->fw_version = 0;
	n->busy = 0;
	n->irq = 0;
	mgmt_iss_set_irq(n->c, 0);
	for (i = 0; i < words; i++)
		mgmt_iss_load(n->c, le32(fw_img + 16) + 4 * i, le32(fw_img + 32 + 4 * i));
	mgmt_iss_set_halt(n->c, 0);
}

static void advance(struct nic *n, uint64_t t)
{
	while (mgmt_iss_clock(n->c) < t)
		mgmt_iss_run(n->c, t);
}

/* clocks from un-HALT to READY (or BOOT_ERROR), 0 if not within limit */
static uint64_t nic_boot(struct nic *n, uint64_t limit)
{
	uint64_t t0 = mgmt_iss_clock(n->c), t = t0;

	while (t < t0 + limit) {
		t += 250;
		advance(n, t);
		if (n->fw_status & (INC_FW_STATUS_READY | INC_FW_STATUS_BOOT_ERROR))
			return mgmt_iss_clock(n->c) - t0;
	}
	return 0;
}

/* rings a command; the clocks to DONE, 0 if none within limit */
static uint64_t nic_cmd(struct nic *n, uint32_t word0, const uint32_t *args, unsigned int nargs,
		       uint64_t limit)
{
	uint64_t t0 = mgmt_iss_clock(n->c), t = t0;
	unsigned int i;

	memset(n->cmd, 0, sizeof(n->cmd));
	n->cmd[0] = word0;
	for (i = 0; i < nargs; i++)
		n->cmd[1 + i] = args[i];
	n->busy = 1;
	n->irq = 1;
	n->ack_clk = 0;
	mgmt_iss_set_irq(n->c, 1);
	while (t < t0 + limit) {
		t += 25;
		advance(n, t);
		if (!n->busy)
			return n->done_clk - t0;
	}
	return 0;
}

static void test_firmware(void)
{
	char path[600], line[128];
	struct nic n, m;
	uint64_t boot, t, w, w2, d, hb_t, clk0;
	uint32_t hb, ins, mepc;
	uint32_t fw_build = 0;
	unsigned int i, wakes, calls;
	double t0, dt;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/inceptionn-fw.bin", fw_dir);
	fw_img = t_read_file(path, &fw_len);
	t_ok(fw_img && fw_len > 32 && le32(fw_img) == 0x57464e49u && le32(fw_img + 12) + 32 == fw_len,
	     "the firmware image %s: header and payload (%zu bytes)", path, fw_len);
	if (!fw_img || fw_len <= 32 || le32(fw_img + 12) + 32 != fw_len)
		return;
	snprintf(path, sizeof(path), "%s/fw_build_id.h", fw_dir);
	f = fopen(path, "r");
	if (f) {
		if (fgets(line, sizeof(line), f))
			sscanf(line, "#define FW_BUILD_ID %x", &fw_build);
		fclose(f);
	}

	/* boot */
	nic_init(&n);
	t_ok(n.c && mgmt_iss_asleep(n.c) && mgmt_iss_next_wake(n.c) == MGMT_ISS_NEVER,
	     "a new ISS is halted, asleep, with no wake of its own");
	advance(&n, 12345);
	nic_load(&n);
	clk0 = mgmt_iss_clock(n.c);
	t0 = now_s();
	boot = nic_boot(&n, 250 * MS);
	dt = now_s() - t0;
	t_ok(boot && n.fw_status == (INC_FW_STATUS_READY | INC_FW_STATUS_ST_DONE) && !n.bus_err,
	     "boot: FW_STATUS 0x%08x (READY, SELFTEST_DONE, no PASS on a 1.4 NIC) in %llu clocks (%.2f ms at 250 MHz), %u bus errors",
	     n.fw_status, (unsigned long long)boot, boot / 250e3, n.bus_err);
	t_diag("boot to READY: %llu clocks, %llu instructions, %.3f ms of wall time",
	       (unsigned long long)boot, (unsigned long long)mgmt_iss_instret(n.c), dt * 1e3);
	t_ok(n.fw_version == FW_VERSION_WORD && n.fw_version == le32(fw_img + 8) && n.fw_selftest == 0,
	     "FW_VERSION 0x%08x (fw_version.h's and the header's), FW_SELFTEST 0x%x (nothing run)",
	     n.fw_version, n.fw_selftest);
	t_ok(mgmt_iss_mtime(n.c) == mgmt_iss_clock(n.c) / NIC_PRESCALE,
	     "mtime %llu: the clock %llu / 250", (unsigned long long)mgmt_iss_mtime(n.c),
	     (unsigned long long)mgmt_iss_clock(n.c));

	/* asleep between ticks, woken exactly at the timer's clock */
	advance(&n, mgmt_iss_clock(n.c) + 2 * MS);
	w = mgmt_iss_next_wake(n.c);
	ins = (uint32_t)mgmt_iss_instret(n.c);
	hb = n.heartbeat;
	t_ok(mgmt_iss_asleep(n.c) && w != MGMT_ISS_NEVER && w > mgmt_iss_clock(n.c) &&
	     w - mgmt_iss_clock(n.c) <= MS,
	     "idle: asleep in WFI, the next wake at %llu (%llu clocks ahead)", (unsigned long long)w,
	     (unsigned long long)(w - mgmt_iss_clock(n.c)));
	/* mtime reaches mtimecmp at a multiple of 250 clocks; mip 3 clocks later, WB the next */
	t_ok((w - 4) % NIC_PRESCALE == 0, "the wake clock is the tick's clock + 3 (mip) + 1 (WFI to WB): (%llu - 4) %% 250 = %llu",
	     (unsigned long long)w, (unsigned long long)((w - 4) % NIC_PRESCALE));
	advance(&n, w - 1);
	t_ok(mgmt_iss_asleep(n.c) && mgmt_iss_instret(n.c) == ins && n.heartbeat == hb,
	     "at the wake clock - 1: still asleep, nothing retired");
	advance(&n, w);
	t_ok(!mgmt_iss_asleep(n.c) && mgmt_iss_instret(n.c) == ins + 1ull,
	     "at the wake clock: awake, the WFI retired (instret +%llu)",
	     (unsigned long long)(mgmt_iss_instret(n.c) - ins));
	advance(&n, w + 5000);
	w2 = mgmt_iss_next_wake(n.c);
	t_ok(n.heartbeat == hb + 1 && mgmt_iss_asleep(n.c) && w2 - w == MS,
	     "the tick served: FW_HEARTBEAT %u -> %u, asleep again, next wake %llu clocks later",
	     hb, n.heartbeat, (unsigned long long)(w2 - w));

	/* the heartbeat, as the behavioral NIC drives it: run, sleep to the next wake */
	hb = n.heartbeat;
	t = mgmt_iss_clock(n.c);
	hb_t = t + 10 * MS;
	ins = (uint32_t)mgmt_iss_instret(n.c);
	wakes = calls = 0;
	while (mgmt_iss_clock(n.c) < hb_t) {
		uint64_t to = mgmt_iss_clock(n.c) + 2500;

		calls++;
		if (mgmt_iss_asleep(n.c)) {
			to = mgmt_iss_next_wake(n.c);
			wakes++;
		}
		mgmt_iss_run(n.c, to < hb_t ? to : hb_t);
	}
	t_ok(n.heartbeat - hb == 10, "FW_HEARTBEAT +%u in 10 ms of NIC time (%u run calls, %u wakes, %llu instructions)",
	     n.heartbeat - hb, calls, wakes, (unsigned long long)(mgmt_iss_instret(n.c) - ins));

	/* GET_VERSION through the mailbox */
	d = nic_cmd(&n, 0x1234u << 16 | INC_MBOX_OP_GET_VERSION, NULL, 0, 100 * MS);
	t_ok(d && n.rsp[0] == 0x1234u << 16 && n.rsp[1] == FW_VERSION_WORD &&
	     n.rsp[2] == fw_build && n.rsp[3] == 0xf && n.rsp[4] == le32(fw_img + 24) &&
	     n.rsp[5] == le32(fw_img + 12),
	     "GET_VERSION in %llu clocks: status/seq 0x%08x, version 0x%x, build 0x%08x (fw_build_id.h 0x%08x), caps 0x%x, image CRC 0x%08x (header 0x%08x), %u bytes",
	     (unsigned long long)d, n.rsp[0], n.rsp[1], n.rsp[2], fw_build, n.rsp[3], n.rsp[4],
	     le32(fw_img + 24), n.rsp[5]);
	t_ok(n.ack_clk && !n.irq && !n.busy && !n.bus_err, "the doorbell acknowledged (MEIP dropped) %llu clocks before DONE",
	     (unsigned long long)(n.done_clk - n.ack_clk));

	/* GET_LINK, an unknown opcode */
	d = nic_cmd(&n, 0x0002u << 16 | INC_MBOX_OP_GET_LINK, NULL, 0, 100 * MS);
	t_ok(d && n.rsp[0] == 0x0002u << 16 && n.rsp[1] == 1 && n.rsp[2] == 100000,
	     "GET_LINK: status 0x%08x link %u speed %u", n.rsp[0], n.rsp[1], n.rsp[2]);
	d = nic_cmd(&n, 0x0003u << 16 | 0x77, NULL, 0, 100 * MS);
	t_ok(d && n.rsp[0] == (0x0003u << 16 | INC_MBOX_ST_EOPNOTSUPP), "opcode 0x77: EOPNOTSUPP (0x%08x)",
	     n.rsp[0]);

	/* a link change: EVENT bit 0 from the next tick */
	n.status = 0;
	advance(&n, mgmt_iss_clock(n.c) + 2 * MS);
	t_ok(n.event == INC_MGMT_EVENT_LINK, "link down: EVENT 0x%x within 2 ms", n.event);
	n.event = 0;

	/* DEBUG_HANG: acknowledged, never answered, no heartbeat */
	d = nic_cmd(&n, 0x0004u << 16 | INC_MBOX_OP_DEBUG_HANG, NULL, 0, 5 * MS);
	hb = n.heartbeat;
	ins = (uint32_t)mgmt_iss_instret(n.c);
	t = mgmt_iss_clock(n.c);
	t0 = now_s();
	advance(&n, t + 100 * MS);
	dt = now_s() - t0;
	t_ok(!d && n.busy && n.ack_clk && !n.irq && n.heartbeat == hb && !mgmt_iss_asleep(n.c),
	     "DEBUG_HANG: acknowledged, no DONE (BUSY set), FW_HEARTBEAT stays %u for 100 ms, the core spinning (not asleep)",
	     n.heartbeat);
	t_ok(mgmt_iss_instret(n.c) - ins >= (100 * MS) / 4 - 10,
	     "the spin retires an instruction every 4 clocks: %llu in 100 ms (%.3f ms of wall time)",
	     (unsigned long long)(mgmt_iss_instret(n.c) - ins), dt * 1e3);

	/* reload: the firmware back */
	nic_load(&n);
	boot = nic_boot(&n, 250 * MS);
	d = nic_cmd(&n, 0x0005u << 16 | INC_MBOX_OP_GET_VERSION, NULL, 0, 100 * MS);
	t_ok(boot && (n.fw_status & INC_FW_STATUS_READY) && d && n.rsp[0] == 0x0005u << 16,
	     "reloaded: READY in %llu clocks, GET_VERSION answered", (unsigned long long)boot);

	/* DEBUG_FAULT: EBREAK, the fault record, the heartbeat stops */
	d = nic_cmd(&n, 0x0006u << 16 | INC_MBOX_OP_DEBUG_FAULT, NULL, 0, 2 * MS);
	hb = n.heartbeat;
	advance(&n, mgmt_iss_clock(n.c) + 10 * MS);
	mepc = n.rsp[INC_FW_CRASH_RSP + 1];
	t_ok(!d && n.fw_status == (INC_FW_STATUS_BOOT_ERROR | 0x0103u << 16) &&
	     (n.event & INC_MGMT_EVENT_FAULT),
	     "DEBUG_FAULT: FW_STATUS 0x%08x (BOOT_ERROR, code 0x0103), EVENT 0x%x", n.fw_status, n.event);
	t_ok(n.rsp[INC_FW_CRASH_RSP] == 3 && mepc + 4 <= le32(fw_img + 12) && !(mepc & 3) &&
	     le32(fw_img + 32 + mepc) == 0x00100073u && n.rsp[INC_FW_CRASH_RSP + 2] == mepc,
	     "the record: mcause %u, mepc 0x%x (an EBREAK in the image), mtval 0x%x (the pc)",
	     n.rsp[INC_FW_CRASH_RSP], mepc, n.rsp[INC_FW_CRASH_RSP + 2]);
	t_ok(n.heartbeat == hb && n.busy && mgmt_iss_asleep(n.c) &&
	     mgmt_iss_next_wake(n.c) == MGMT_ISS_NEVER,
	     "then the heartbeat stopped (%u for 10 ms), BUSY left, the core asleep for good", n.heartbeat);
	mgmt_iss_free(n.c);

	/*
	 * The same boot, 3 ms and a GET_VERSION rung at a fixed clock, cut
	 * differently: one run() a clock, runs of random lengths, and as few
	 * calls as can be: the same accesses at the same clocks.
	 */
	{
		uint64_t hash[3], inst[3], ring = clk0 + 2 * MS + 777, end = clk0 + 3 * MS;
		unsigned int nacc[3], k, at_ring = 0;
		struct rng r = { 0x5eed };

		for (k = 0; k < 3; k++) {
			nic_init(&m);
			advance(&m, 12345);
			nic_load(&m);
			for (i = 0; i < 2; i++) {
				uint64_t to = i ? end : ring;

				if (k == 0) {
					for (t = mgmt_iss_clock(m.c) + 1; t <= to; t++)
						advance(&m, t);
				} else if (k == 1) {
					for (t = mgmt_iss_clock(m.c); t < to;) {
						t += 1 + rng_below(&r, 3000);
						advance(&m, t < to ? t : to);
					}
				} else {
					advance(&m, to);
				}
				if (!i) {
					/* asleep by then: the clock is the ring's exactly */
					at_ring += mgmt_iss_clock(m.c) == ring;
					m.cmd[0] = 0x0042u << 16 | INC_MBOX_OP_GET_VERSION;
					m.busy = 1;
					mgmt_iss_set_irq(m.c, 1);
					/* mip.MEIP the clock after, the WFI's WB the next */
					at_ring += mgmt_iss_asleep(m.c) &&
						   mgmt_iss_next_wake(m.c) == ring + 2;
				}
			}
			hash[k] = m.hash;
			nacc[k] = m.naccess;
			inst[k] = mgmt_iss_instret(m.c);
			ok = !m.busy && m.rsp[0] == 0x0042u << 16;
			mgmt_iss_free(m.c);
			if (!ok)
				break;
		}
		ok = ok && at_ring == 6 && hash[0] == hash[1] && hash[1] == hash[2] &&
		     inst[0] == inst[1] && inst[1] == inst[2] && nacc[0] == nacc[2];
		t_ok(ok, "boot, 3 ms and a GET_VERSION (asleep at the doorbell, woken 2 clocks later) run a clock at a time, in random runs and at once: the same %u register accesses at the same clocks, %llu instructions",
		     nacc[2], (unsigned long long)inst[2]);
	}

	/* speed: boots back to back (the CRC over the image, register accesses) */
	{
		uint64_t ninst = 0;
		unsigned int boots = 0;

		t0 = now_s();
		do {
			nic_init(&m);
			nic_load(&m);
			ok = nic_boot(&m, 250 * MS) != 0;
			ninst += mgmt_iss_instret(m.c);
			mgmt_iss_free(m.c);
			boots++;
		} while (ok && now_s() - t0 < 1.0);
		dt = now_s() - t0;
		t_ok(ok, "%u boots to READY", boots);
		t_diag("speed: %llu instructions in %.3f s: %.1f M instructions/s (%.2f ms of wall time a boot)",
		       (unsigned long long)ninst, dt, ninst / dt / 1e6, dt / boots * 1e3);
	}
	free(fw_img);
}

int main(int argc, char **argv)
{
	const char *b = getenv("BUILD");

	if (!b || !*b)
		b = "build";
	snprintf(isa_dir, sizeof(isa_dir), "%s", argc > 1 ? argv[1] : "");
	if (argc <= 1)
		snprintf(isa_dir, sizeof(isa_dir), "%s/mgmt-iss/isa", b);
	if (argc > 2)
		snprintf(fw_dir, sizeof(fw_dir), "%s", argv[2]);
	else
		snprintf(fw_dir, sizeof(fw_dir), "%s/firmware", b);
	test_isa();
	test_firmware();
	return t_done();
}
