// SPDX-License-Identifier: MIT
/*
 * bnic: the register file (nic_csr), the management block (nic_mgmt) with
 * its core, the interrupts (nic_irq, nic_irq_port) and the reset: see
 * bnic.h. The RTL module each part follows is named where it is; the
 * behaviour at the registers is theirs, access by access.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bnic_priv.h"

/* inc_nic's MAC_ADDR: 02:00:00:00:00:01 */
static const uint8_t reset_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

void bnic_msg(struct bnic *b, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (b->cfg.log)
		b->cfg.log(b->cfg.ctx, buf);
	else
		fprintf(stderr, "bnic: %s\n", buf);
}

void bnic_stat_add(struct bnic *b, int n, uint64_t v)
{
	b->stats[n] += v;
}

unsigned int bnic_modes(const struct bnic *b)
{
	return b->cfg.width ? INCW_MODES_ALL : INCW_MODES_BASE;
}

static uint32_t features(const struct bnic *b)
{
	return INC_FEAT_TX_COMP | INC_FEAT_RX_DECOMP | INC_FEAT_MODE_PAPER |
	       INC_FEAT_MODE_SPARSE | INC_FEAT_IPV6 | INC_FEAT_VLAN |
	       INC_FEAT_LOOPBACK | INC_FEAT_IRQ_COAL | INC_FEAT_JUMBO |
	       INC_FEAT_STATS64 | INC_FEAT_LINK_SPEED | INC_FEAT_QFLUSH |
	       (b->cfg.width ? INC_FEAT_MODE_WIDTH : 0) | INC_FEAT_MGMT |
	       INC_FEAT_TPORT;
}

/* ---- interrupts (nic_irq per vector, nic_irq_port) ---- */

static uint64_t coal_deadline(const struct bnic *b, int v)
{
	uint32_t usecs = v < 2 ? b->coal[v] >> 16 : 0;

	if (!usecs || !b->vec[v].pending || !(b->irq_enable & (1u << v)))
		return UINT64_MAX;
	return b->vec[v].first + (uint64_t)usecs * BNIC_CLK_MHZ;
}

static int vec_ready(const struct bnic *b, int v)
{
	const struct bnic_vec *x = &b->vec[v];
	uint32_t frames = v < 2 ? b->coal[v] & 0xffff : 0;
	uint32_t usecs = v < 2 ? b->coal[v] >> 16 : 0;

	if (!(b->irq_enable & (1u << v)) || !x->pending)
		return 0;
	if (!frames && !usecs)
		return 1;
	if (frames && x->pending >= frames)
		return 1;
	return usecs && b->now >= coal_deadline(b, v);
}

void bnic_event(struct bnic *b, int v)
{
	struct bnic_vec *x = &b->vec[v];

	if (!x->pending)
		x->first = b->now;
	if (x->pending != 0xffff)
		x->pending++;
	if (v == INC_IRQ_MGMT)	/* IRQ_STATUS bit 2: the event itself */
		b->irq_status |= 1u << v;
	bnic_irq_check(b);
}

/* Messages for the vectors whose condition holds, in vector order. */
void bnic_irq_check(struct bnic *b)
{
	int v;

	for (v = 0; v < 3; v++) {
		if (!vec_ready(b, v))
			continue;
		b->vec[v].pending = 0;
		b->irq_status |= 1u << v;
		b->irq_enable &= ~(1u << v);	/* auto-mask */
		b->cnt.irqs++;
		if (b->cfg.trace)
			bnic_msg(b, "MSI-X vector %d", v);
		if (b->cfg.irq)
			b->cfg.irq(b->cfg.ctx, v);
	}
}

/* ---- the management core ---- */

static void core_irq(struct bnic *b)
{
	if (b->core)
		mgmt_iss_set_irq(b->core, b->meip);
}

/* The core up to the present, before anything looks at what it wrote. */
static void core_catch_up(struct bnic *b)
{
	if (b->core && !b->in_core) {
		b->in_core = 1;
		mgmt_iss_run(b->core, b->now);
		b->in_core = 0;
	}
}

static void set_halt(struct bnic *b, int halt)
{
	b->halt = halt;
	if (halt) {
		b->fw_status = 0;
		b->fw_version = 0;
		b->mbox_busy = 0;
		b->meip = 0;
		core_irq(b);
	}
	if (b->core)
		mgmt_iss_set_halt(b->core, halt);
}

/* is_tp / is_mg of nic_csr */
static int is_tp(uint16_t a)
{
	return (a >> 4) == 0x054 || (a >> 12) == 0x2;
}

static int is_mg(uint16_t a)
{
	return (a >> 11) == 0 && (((a >> 8) & 7) == 5 || ((a >> 9) & 3) == 3) &&
	       (a >> 4) != 0x054;
}

static uint32_t mg_read(const struct bnic *b, uint16_t a)
{
	a &= 0x7ff;
	if ((a >> 8) == 7)
		return b->mbox_rsp[(a >> 2) & 63];
	if ((a >> 6) == 0x18)
		return b->mbox_cmd[(a >> 2) & 15];
	switch (a) {
	case INC_MGMT_CTRL:	return (uint32_t)b->halt;
	case INC_MGMT_LOAD_ADDR: return b->load_addr;
	case INC_FW_STATUS:	return b->fw_status;
	case INC_FW_VERSION:	return b->fw_version;
	case INC_FW_HEARTBEAT:	return b->fw_heartbeat;
	case INC_FW_SELFTEST:	return b->fw_selftest;
	case INC_MBOX_STATUS:	return (uint32_t)b->mbox_busy;
	case INC_MGMT_EVENT:	return b->event;
	default:		return 0;
	}
}

static uint32_t merge(uint32_t old, uint32_t val, unsigned int strb)
{
	int i;

	for (i = 0; i < 4; i++)
		if (strb & (1u << i))
			old = (old & ~(0xffu << 8 * i)) | (val & (0xffu << 8 * i));
	return old;
}

/* The host's writes to the management block (nic_mgmt's h_w). */
static void mg_host_write(struct bnic *b, uint16_t a, uint32_t v,
			  unsigned int strb)
{
	if ((a >> 6) == (INC_MBOX_CMD >> 6)) {
		b->mbox_cmd[(a >> 2) & 15] = merge(b->mbox_cmd[(a >> 2) & 15], v, strb);
		return;
	}
	switch (a) {
	case INC_MGMT_CTRL:
		if (strb & 1)
			set_halt(b, v & INC_MGMT_CTRL_HALT);
		break;
	case INC_MGMT_LOAD_ADDR:
		b->load_addr = merge(b->load_addr, v, strb);
		break;
	case INC_MGMT_LOAD_DATA:
		if (b->halt) {
			if (b->core)
				mgmt_iss_load(b->core, b->load_addr, v);
			b->load_addr += 4;
		}
		break;
	case INC_MBOX_DOORBELL:
		if ((strb & 1) && (v & 1)) {
			b->mbox_busy = 1;
			b->meip = 1;
			core_irq(b);
		}
		break;
	case INC_MGMT_EVENT:
		if (strb & 1)
			b->event &= ~(v & 7);
		break;
	default:
		break;
	}
}

/* The core's writes to the management block (nic_mgmt's c_w). */
static void mg_core_write(struct bnic *b, uint16_t a, uint32_t v)
{
	if ((a >> 8) == (INC_MBOX_RSP >> 8)) {
		b->mbox_rsp[(a >> 2) & 63] = v;
		return;
	}
	switch (a) {
	case INC_FW_STATUS:	b->fw_status = v; break;
	case INC_FW_VERSION:	b->fw_version = v; break;
	case INC_FW_HEARTBEAT:	b->fw_heartbeat = v; break;
	case INC_FW_SELFTEST:	b->fw_selftest = v; break;
	case INC_MBOX_STATUS:
		if (v & INC_MBOX_STATUS_ACK) {
			b->meip = 0;
			core_irq(b);
		}
		if (v & INC_MBOX_STATUS_DONE) {
			b->mbox_busy = 0;
			bnic_event(b, INC_IRQ_MGMT);
		}
		break;
	case INC_MGMT_EVENT:
		b->event |= v & 7;
		if (v & 7)
			bnic_event(b, INC_IRQ_MGMT);
		break;
	default:
		break;
	}
}

/* ---- the register file (nic_csr) ---- */

static uint32_t ctrl_word(const struct bnic *b)
{
	return (b->tx_en ? INC_CTRL_TX_EN : 0) | (b->rx_en ? INC_CTRL_RX_EN : 0) |
	       (b->loopback ? INC_CTRL_LOOPBACK : 0);
}

static uint32_t status_word(const struct bnic *b)
{
	return (b->link_up ? INC_STATUS_LINK : 0) |
	       (bnic_tx_work(b) ? 0 : INC_STATUS_TX_IDLE) |
	       (b->rx_n ? 0 : INC_STATUS_RX_IDLE);
}

static uint32_t mac_lo(const struct bnic *b)
{
	return bn_get(b->mac, 4);
}

static uint32_t mac_hi(const struct bnic *b)
{
	return bn_get(b->mac + 4, 2);
}

/* The register at a, as read; *hi: the high word of a counter (latched). */
static uint32_t reg_read(struct bnic *b, uint16_t a, uint32_t *latch)
{
	const struct bnic_queue *q;

	if (a >= INC_STATS_SNAP_BANK && a < INC_STATS_SNAP_BANK + 8 * INC_ST_N) {
		uint64_t v = b->snap[(a - INC_STATS_SNAP_BANK) >> 3];

		return (uint32_t)(a & 4 ? v >> 32 : v);
	}
	if (a >= INC_STATS && a < INC_STATS + 8 * INC_ST_N) {
		uint64_t v = b->stats[(a - INC_STATS) >> 3];

		if (a & 4)
			return *latch;
		*latch = (uint32_t)(v >> 32);
		return (uint32_t)v;
	}
	if (is_tp(a))
		return bnic_tp_read(b, a);
	if (is_mg(a))
		return mg_read(b, a);
	if ((a & ~0xffu) == INC_TXQ || (a & ~0xffu) == INC_RXQ) {
		q = (a & ~0xffu) == INC_TXQ ? &b->txq : &b->rxq;
		switch (a & 0xff) {
		case INC_Q_BASE_LO:	return (uint32_t)q->base;
		case INC_Q_BASE_HI:	return (uint32_t)(q->base >> 32);
		case INC_Q_SIZE:	return q->size;
		case INC_Q_PROD:	return q->prod;
		case INC_Q_CONS:	return q->cons;
		default:		return 0;
		}
	}
	switch (a) {
	case INC_MAGIC:		return INC_MAGIC_VALUE;
	case INC_VERSION:	return BNIC_VERSION;
	case INC_FEATURES:	return features(b);
	case INC_CONFIG:	return BNIC_MAX_FRAME_HW << 16 | 1u << 8 | b->cfg.lanes;
	case INC_SCRATCH:	return b->scratch;
	case INC_BUILD:		return BNIC_BUILD_ID;
	case INC_CTRL:		return ctrl_word(b);
	case INC_STATUS:	return status_word(b);
	case INC_MAC_LO:	return mac_lo(b);
	case INC_MAC_HI:	return mac_hi(b);
	case INC_MAX_FRAME:	return b->max_frame;
	case INC_LINK_SPEED:	return b->cfg.link_speed;
	case INC_QFLUSH:	return 0;	/* a flush ends in its write */
	case INC_IRQ_STATUS:	return b->irq_status;
	case INC_IRQ_ENABLE:	return b->irq_enable;
	case INC_IRQ_COAL_TX:	return b->coal[0];
	case INC_IRQ_COAL_RX:	return b->coal[1];
	default:		return 0;
	}
}

/* The register at a before a write, for byte strobes (nic_csr's cur). */
static uint32_t reg_cur(struct bnic *b, uint16_t a)
{
	uint32_t latch = 0;

	switch (a) {
	case INC_SCRATCH: case INC_CTRL: case INC_MAC_LO: case INC_MAC_HI:
	case INC_MAX_FRAME: case INC_IRQ_ENABLE: case INC_IRQ_COAL_TX:
	case INC_IRQ_COAL_RX:
	case INC_TXQ + INC_Q_BASE_LO: case INC_TXQ + INC_Q_BASE_HI:
	case INC_TXQ + INC_Q_SIZE: case INC_TXQ + INC_Q_PROD:
	case INC_RXQ + INC_Q_BASE_LO: case INC_RXQ + INC_Q_BASE_HI:
	case INC_RXQ + INC_Q_SIZE: case INC_RXQ + INC_Q_PROD:
		return reg_read(b, a, &latch);
	default:
		return 0;
	}
}

static uint32_t clamp(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * QFLUSH: the queue ends empty at once (PROD = CONS = 0). The RTL's flush
 * also cancels a test-port run inside that engine; here a run has always
 * ended within the write that started it, so there is none to cancel.
 */
static void qflush(struct bnic *b, uint32_t bits)
{
	if (bits & INC_QFLUSH_TX) {
		b->txq.prod = 0;
		b->txq.cons = 0;
	}
	if (bits & INC_QFLUSH_RX) {
		bnic_rx_flush(b);
		b->rxq.prod = 0;
		b->rxq.cons = 0;
	}
}

static void reg_write(struct bnic *b, uint16_t a, uint32_t val,
		      unsigned int strb)
{
	uint32_t v = merge(reg_cur(b, a), val, strb);
	struct bnic_queue *q;

	if (is_mg(a)) {
		mg_host_write(b, a, val, strb);
		return;
	}
	if ((a & ~0xffu) == INC_TXQ || (a & ~0xffu) == INC_RXQ) {
		q = (a & ~0xffu) == INC_TXQ ? &b->txq : &b->rxq;
		switch (a & 0xff) {
		case INC_Q_BASE_LO:
			q->base = (q->base & ~0xffffffffull) | v;
			break;
		case INC_Q_BASE_HI:
			q->base = (q->base & 0xffffffffull) | (uint64_t)v << 32;
			break;
		case INC_Q_SIZE:
			q->size = clamp(v & 0xf, INC_Q_LOG2_MIN, INC_Q_LOG2_MAX);
			break;
		case INC_Q_PROD:
			q->prod = (uint16_t)v;
			break;
		default:
			break;
		}
		return;
	}
	switch (a) {
	case INC_SCRATCH:
		b->scratch = v;
		break;
	case INC_CTRL:
		b->tx_en = !!(v & INC_CTRL_TX_EN);
		b->rx_en = !!(v & INC_CTRL_RX_EN);
		b->loopback = !!(v & INC_CTRL_LOOPBACK);
		break;
	case INC_MAC_LO:
		bn_put(b->mac, v, 4);
		break;
	case INC_MAC_HI:
		bn_put(b->mac + 4, v, 2);
		break;
	case INC_MAX_FRAME:
		b->max_frame = (v >> 14) || (v & 0x3fff) > BNIC_MAX_FRAME_HW ?
			       BNIC_MAX_FRAME_HW : clamp(v & 0x3fff, INC_MIN_FRAME,
							 BNIC_MAX_FRAME_HW);
		break;
	case INC_QFLUSH:
		if (strb & 1)
			qflush(b, val & 3);
		break;
	case INC_IRQ_STATUS:
		b->irq_status &= ~(v & 7);
		break;
	case INC_IRQ_ENABLE:
		b->irq_enable = v & 7;
		break;
	case INC_IRQ_COAL_TX:
		b->coal[0] = v;
		break;
	case INC_IRQ_COAL_RX:
		b->coal[1] = v;
		break;
	default:
		break;
	}
}

int bnic_csr_write(struct bnic *b, uint64_t now, uint16_t addr, uint32_t val,
		   unsigned int strb)
{
	bnic_run(b, now);
	if (b->cfg.trace)
		bnic_msg(b, "write 0x%04x = 0x%08x", addr, val);
	reg_write(b, addr & ~3u, val, strb & 0xf);
	bnic_run(b, now);
	return 0;
}

int bnic_csr_read(struct bnic *b, uint64_t now, uint16_t addr, uint32_t *val)
{
	bnic_run(b, now);
	*val = reg_read(b, addr & ~3u, &b->hi_latch);
	return 0;
}

/* ---- the core's register bus (nic_csr's c_* side and its rights) ---- */

static int core_rd(void *ctx, uint32_t off, uint32_t *val)
{
	struct bnic *b = ctx;

	*val = 0;
	if (off >> 16)
		return -1;
	*val = reg_read(b, (uint16_t)(off & ~3u), &b->c_hi_latch);
	return 0;
}

static int core_w_ok(uint16_t a)
{
	return a == INC_FW_STATUS || a == INC_FW_VERSION ||
	       a == INC_FW_HEARTBEAT || a == INC_FW_SELFTEST ||
	       a == INC_MBOX_STATUS || a == INC_MGMT_EVENT ||
	       (a >= INC_MBOX_RSP && a < INC_MBOX_RSP + 4 * INC_MBOX_RSP_WORDS) ||
	       a == INC_TP_CTRL || a == INC_TP_LEN ||
	       (a >= INC_TP_IN && a < INC_TP_IN + INC_TP_IN_BYTES) ||
	       a == INC_MAC_LO || a == INC_MAC_HI || a == INC_STATS_SNAP;
}

static void stats_snap(struct bnic *b, uint32_t v)
{
	if (!(v & INC_STATS_SNAP_TAKE))
		return;
	memcpy(b->snap, b->stats, sizeof(b->snap));
	if (v & INC_STATS_SNAP_CLEAR)
		memset(b->stats, 0, sizeof(b->stats));
}

static int core_wr(void *ctx, uint32_t off, uint32_t val, unsigned int strb)
{
	struct bnic *b = ctx;
	uint16_t a = (uint16_t)(off & ~3u);

	if ((off >> 16) || strb != 0xf || !core_w_ok(a))
		return -1;
	if (a == INC_MAC_LO)
		bn_put(b->mac, val, 4);
	else if (a == INC_MAC_HI)
		bn_put(b->mac + 4, val, 2);
	else if (a == INC_STATS_SNAP)
		stats_snap(b, val);
	else if (is_tp(a))
		bnic_tp_write(b, a, val);
	else
		mg_core_write(b, a, val);
	return 0;
}

/* ---- the model ---- */

struct bnic *bnic_new(const struct bnic_cfg *cfg)
{
	struct bnic *b = calloc(1, sizeof(*b));
	struct mgmt_bus bus;

	if (!b)
		return NULL;
	b->cfg = *cfg;
	if (b->cfg.lanes != 8)
		b->cfg.lanes = 16;
	if (b->cfg.lanes != 16)
		b->cfg.width = 0;
	b->dma_on = 1;
	bus.ctx = b;
	bus.rd = core_rd;
	bus.wr = core_wr;
	b->core = mgmt_iss_new(&bus, BNIC_CLK_MHZ);
	if (!b->core) {
		free(b);
		return NULL;
	}
	bnic_reset(b, 0);
	return b;
}

void bnic_free(struct bnic *b)
{
	if (!b)
		return;
	bnic_rx_flush(b);
	mgmt_iss_free(b->core);
	free(b);
}

void bnic_reset(struct bnic *b, uint64_t now)
{
	if (now > b->now)
		b->now = now;
	core_catch_up(b);
	b->scratch = 0;
	b->tx_en = b->rx_en = b->loopback = 0;
	memcpy(b->mac, reset_mac, sizeof(b->mac));
	b->max_frame = INC_MAX_FRAME_DEFAULT;
	memset(&b->txq, 0, sizeof(b->txq));
	memset(&b->rxq, 0, sizeof(b->rxq));
	b->txq.size = b->rxq.size = INC_Q_LOG2_MIN;
	b->irq_status = b->irq_enable = 0;
	b->coal[0] = b->coal[1] = 0;
	memset(b->vec, 0, sizeof(b->vec));
	memset(b->stats, 0, sizeof(b->stats));
	memset(b->snap, 0, sizeof(b->snap));
	b->hi_latch = b->c_hi_latch = 0;
	b->stall_after = 0;
	b->stalled = 0;
	b->tx_sent = 0;
	b->load_addr = 0;
	b->fw_heartbeat = 0;
	b->fw_selftest = 0;
	b->event = 0;
	memset(b->mbox_cmd, 0, sizeof(b->mbox_cmd));
	memset(b->mbox_rsp, 0, sizeof(b->mbox_rsp));
	set_halt(b, 1);
	b->tp_ctrl = b->tp_len = b->tp_status = 0;
	memset(b->tp_out, 0, sizeof(b->tp_out));
	bnic_rx_flush(b);
}

void bnic_set_link(struct bnic *b, int up)
{
	b->link_up = !!up;
}

void bnic_set_dma_enable(struct bnic *b, int on)
{
	b->dma_on = !!on;
}

void bnic_set_tx_hold(struct bnic *b, int hold)
{
	b->tx_hold = !!hold;
}

void bnic_stall_dma_after(struct bnic *b, uint64_t n)
{
	b->stall_after = n;
	b->tx_sent = 0;
	b->stalled = 0;
}

int bnic_dma_stalled(const struct bnic *b)
{
	return b->stalled;
}

void bnic_set_engine_fault(struct bnic *b, int fault)
{
	b->cfg.engine_fault = fault;
}

int bnic_run(struct bnic *b, uint64_t now)
{
	int did = 0, n;

	if (now > b->now)
		b->now = now;
	core_catch_up(b);
	do {
		n = bnic_tx_run(b) + bnic_rx_run(b);
		did |= n;
	} while (n);
	bnic_irq_check(b);
	if (b->core)
		b->cnt.core_instret = mgmt_iss_instret(b->core);
	return did;
}

int bnic_busy(const struct bnic *b)
{
	int v;

	if (bnic_tx_work(b) || bnic_rx_work(b))
		return 1;
	for (v = 0; v < 3; v++)
		if (vec_ready(b, v))
			return 1;
	return b->core && !mgmt_iss_asleep(b->core);
}

uint64_t bnic_next_event(const struct bnic *b)
{
	uint64_t t = UINT64_MAX, c;
	int v;

	for (v = 0; v < 2; v++) {
		c = coal_deadline(b, v);
		if (c < t)
			t = c;
	}
	if (b->core) {
		c = mgmt_iss_asleep(b->core) ? mgmt_iss_next_wake(b->core) : b->now;
		if (c < t)
			t = c;
	}
	return t;
}

uint64_t bnic_stat(const struct bnic *b, int n)
{
	return n >= 0 && n < INC_ST_N ? b->stats[n] : 0;
}

const struct bnic_counts *bnic_counts(const struct bnic *b)
{
	return &b->cnt;
}

uint64_t bnic_mtime(const struct bnic *b)
{
	return b->core ? mgmt_iss_mtime(b->core) : 0;
}

unsigned int bnic_rx_pending(const struct bnic *b)
{
	return b->rx_n;
}

void bnic_rx_frame(struct bnic *b, uint64_t now, const uint8_t *f, size_t len,
		   int bad)
{
	if (now > b->now)
		b->now = now;
	if (b->loopback)	/* looped back, the MAC's frames are not taken */
		return;
	bnic_rx_enqueue(b, f, len, bad);
	bnic_run(b, now);
}
