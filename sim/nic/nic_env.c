// SPDX-License-Identifier: MIT
/*
 * The environment around the NIC model: see nic_env.h.
 *
 * Each clock: every service drives its inputs from its state, the model
 * settles, the services look at the outputs (handshakes happen where
 * valid and ready are both high), the clock rises, and the services move
 * on. Nothing a service drives depends on the model's outputs of the same
 * clock, so the order of the services does not matter.
 */
#include <stdarg.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic_env.h"

#define DMA_MAX_LEN	16384u
#define RESET_CLOCKS	8

struct rd_op {
	uint64_t addr;
	uint32_t len;
	uint8_t *data;		/* the bytes, taken when the request was */
	uint64_t start_at;	/* first clock it may send a beat */
};

struct wr_op {
	uint64_t addr;
	uint32_t len;		/* from the request */
	int have_req, data_done, scheduled;
	uint8_t *data;
	uint32_t got, cap;
	uint64_t last_beat;	/* clock of its last data beat */
	uint64_t done_at;
};

struct rx_item {
	uint8_t *data;
	size_t len;
	int tuser;
	unsigned int idle_before;
};

/* an output channel of the model, for the stability check */
struct hold {
	int pending;		/* valid and not ready on the last clock */
	uint8_t snap[VL_NIC_BEAT_MAX + 16];
	size_t n;
};

struct csr_op {
	int active, write, done;
	uint16_t addr;
	uint32_t data;
	uint64_t aw_at, w_at;
	int aw_done, w_done, ar_done;
	int resp;
	uint32_t rdata;
};

struct nic_env {
	struct nic_env_cfg cfg;
	struct vl_nic *nic;
	struct vl_nic_io io;
	unsigned int beat;		/* bytes per beat of the model */
	uint64_t now, rng;
	unsigned int logged;
	struct nic_env_errors err;
	struct nic_env_counts cnt;

	uint8_t *mem;
	uint64_t alloc_next;
	void (*on_write)(void *, uint64_t, const uint8_t *, size_t);
	void *on_write_ctx;
	void (*on_irq)(void *, int, uint64_t);
	void *on_irq_ctx;

	/* DMA read: rd[rd_head .. rd_n) in flight; the head is answering */
	struct rd_op *rd;
	size_t rd_head, rd_n, rd_cap;
	uint32_t rd_pos, rd_beat;	/* bytes sent of the head; of the held beat */
	int rd_hold;

	/* DMA write: wr[0 .. wr_n) not yet done, in order; wr_req and
	 * wr_data index the ones the next request / data beat belong to */
	struct wr_op *wr;
	size_t wr_n, wr_cap, wr_req, wr_data;
	uint64_t wr_last_done;

	/* bus mastering off: DMA answered without host memory */
	int dma_off;
	/* fault: the DMA bridge hangs after stall_after TX frames (0: never) */
	uint64_t stall_after;
	int stalled;

	/* MAC line rate: bytes the wire may still carry now (TX, RX) */
	double tx_credit, rx_credit;
	int tx_hold;

	/* MAC TX */
	uint8_t *tx_cur;
	size_t tx_cur_len, tx_cur_cap;
	struct nic_frame *tx;
	size_t tx_n, tx_cap;

	/* MAC RX */
	struct rx_item *rx;
	size_t rx_head, rx_n, rx_cap;
	size_t rx_pos;
	uint32_t rx_beat;
	int rx_hold, rx_started;
	int rx_pause;		/* the MAC sends nothing (nic_env_set_rx_pause) */
	uint64_t rx_idle;

	/* interrupts */
	struct nic_irq *irq;
	size_t irq_n, irq_cap;

	struct csr_op csr;

	struct hold h_rdreq, h_wrreq, h_wr, h_irq, h_tx, h_b, h_r;
};

/* ---- small things ---- */

static uint64_t rnd(struct nic_env *e)
{
	uint64_t z = (e->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int chance(struct nic_env *e, double p)
{
	return p > 0 && (double)(rnd(e) >> 11) * 0x1p-53 < p;
}

static uint64_t upto(struct nic_env *e, unsigned int max)
{
	return max ? rnd(e) % ((uint64_t)max + 1) : 0;
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (c < need)
		c *= 2;
	p = realloc(p, c * elem);
	if (!p) {
		fprintf(stderr, "nic_env: out of memory\n");
		abort();
	}
	*cap = c;
	return p;
}

__attribute__((format(printf, 3, 4)))
static void env_err(struct nic_env *e, uint64_t *counter, const char *fmt, ...)
{
	char msg[256];
	int n;
	va_list ap;

	(*counter)++;
	if (e->logged >= e->cfg.log_max)
		return;
	e->logged++;
	n = snprintf(msg, sizeof(msg), "clock %llu: ", (unsigned long long)e->now);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	if (e->cfg.log)
		e->cfg.log(e->cfg.log_ctx, msg);
	else
		fprintf(stderr, "nic_env: %s\n", msg);
}

__attribute__((format(printf, 2, 3)))
static void trace(const struct nic_env *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->cfg.trace)
		return;
	fprintf(stderr, "[%llu] ", (unsigned long long)e->now);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* bytes of a keep mask that is contiguous from byte 0; -1 if it is not */
static int keep_bytes(uint64_t keep)
{
	int n = 0;

	while (n < 64 && (keep >> n & 1))
		n++;
	if (n < 64 && keep >> n)
		return -1;
	return n;
}

static uint64_t keep_mask(uint32_t n)
{
	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

static int in_mem(const struct nic_env *e, uint64_t addr, uint64_t len)
{
	return addr >= e->cfg.mem_base && len <= e->cfg.mem_size &&
	       addr - e->cfg.mem_base <= e->cfg.mem_size - len;
}

/*
 * AXI rule: once valid is high, it stays high with the same payload until
 * ready. Called after the model settled, with this clock's values.
 */
static void hold_check(struct nic_env *e, struct hold *h, const char *name,
		       int valid, int ready, const void *payload, size_t n)
{
	assert(n <= sizeof(h->snap));
	if (h->pending && (!valid || n != h->n || memcmp(payload, h->snap, n))) {
		char was[40] = "", now[40] = "";
		size_t i;

		for (i = 0; i < n && i < 12; i++) {
			sprintf(was + 3 * i, "%02x ", h->snap[i]);
			sprintf(now + 3 * i, "%02x ", ((const uint8_t *)payload)[i]);
		}
		if (valid)
			env_err(e, &e->err.stability,
				"%s: payload changed before its handshake: %s-> %s",
				name, was, now);
		else
			env_err(e, &e->err.stability,
				"%s: valid dropped before its handshake (payload %s)",
				name, was);
	}
	h->pending = valid && !ready;
	if (h->pending) {
		memcpy(h->snap, payload, n);
		h->n = n;
	}
}

/* ---- configuration ---- */

void nic_env_cfg_default(struct nic_env_cfg *c, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->seed = seed;
	c->mem_base = 0x1000000;
	c->mem_size = 16u << 20;
	c->link_up = 1;
	c->link_speed = 10000;
	c->rd_req_stall = 0.2;
	c->rd_lat_max = 24;
	c->rd_gap = 0.15;
	c->rd_max_outstanding = 8;
	c->wr_req_stall = 0.2;
	c->wr_data_stall = 0.15;
	c->wr_done_max = 16;
	c->tx_stall = 0.2;
	c->rx_gap = 0.1;
	c->rx_ifg_max = 12;
	c->irq_stall = 0.3;
	c->csr_skew_max = 2;
	c->csr_stall = 0.2;
	c->csr_timeout = 2000;
	c->log_max = 20;
}

void nic_env_cfg_nobp(struct nic_env_cfg *c)
{
	c->rd_req_stall = 0;
	c->rd_lat_max = 0;
	c->rd_gap = 0;
	c->rd_max_outstanding = 0;
	c->wr_req_stall = 0;
	c->wr_data_stall = 0;
	c->wr_done_max = 0;
	c->tx_stall = 0;
	c->rx_gap = 0;
	c->rx_ifg_max = 0;
	c->irq_stall = 0;
	c->csr_skew_max = 0;
	c->csr_stall = 0;
}

/* ---- life ---- */

static void clear_services(struct nic_env *e, int keep_mac_rx)
{
	size_t i;

	for (i = e->rd_head; i < e->rd_n; i++)
		free(e->rd[i].data);
	e->rd_head = e->rd_n = 0;
	e->rd_pos = e->rd_beat = 0;
	e->rd_hold = 0;
	for (i = 0; i < e->wr_n; i++)
		free(e->wr[i].data);
	e->wr_n = e->wr_req = e->wr_data = 0;
	e->wr_last_done = 0;
	e->tx_cur_len = 0;
	nic_env_tx_clear(e);
	if (!keep_mac_rx) {
		for (i = e->rx_head; i < e->rx_n; i++)
			free(e->rx[i].data);
		e->rx_head = e->rx_n = 0;
		e->rx_pos = 0;
		e->rx_started = 0;
		e->rx_idle = 0;
		e->rx_credit = 0;
		e->rx_pause = 0;
	}
	/* a beat offered and not yet taken is offered again after reset */
	e->rx_hold = 0;
	e->tx_credit = 0;
	e->irq_n = 0;
	e->stall_after = 0;
	e->stalled = 0;
	memset(&e->csr, 0, sizeof(e->csr));
	memset(&e->h_rdreq, 0, sizeof(e->h_rdreq));
	memset(&e->h_wrreq, 0, sizeof(e->h_wrreq));
	memset(&e->h_wr, 0, sizeof(e->h_wr));
	memset(&e->h_irq, 0, sizeof(e->h_irq));
	memset(&e->h_tx, 0, sizeof(e->h_tx));
	memset(&e->h_b, 0, sizeof(e->h_b));
	memset(&e->h_r, 0, sizeof(e->h_r));
	memset(&e->io, 0, sizeof(e->io));
	memset(&e->err, 0, sizeof(e->err));
	memset(&e->cnt, 0, sizeof(e->cnt));
	e->logged = 0;
}

struct nic_env *nic_env_new(const struct nic_env_cfg *cfg)
{
	struct nic_env *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->cfg = *cfg;
	e->rng = cfg->seed;
	e->mem = cfg->mem_ext ? cfg->mem_ext : calloc(1, cfg->mem_size);
	e->nic = vl_nic_new();
	e->beat = vl_nic_beat();
	if (!e->mem || !e->nic) {
		nic_env_free(e);
		return NULL;
	}
	e->alloc_next = cfg->mem_base;
	nic_env_reset(e);
	return e;
}

void nic_env_free(struct nic_env *e)
{
	if (!e)
		return;
	clear_services(e, 0);
	if (e->nic)
		vl_nic_free(e->nic);
	free(e->rd);
	free(e->wr);
	free(e->tx_cur);
	free(e->tx);
	free(e->rx);
	free(e->irq);
	if (!e->cfg.mem_ext)
		free(e->mem);
	free(e);
}

void nic_env_reset(struct nic_env *e)
{
	clear_services(e, 0);
	vl_nic_reset(e->nic, RESET_CLOCKS, e->cfg.link_up);
	e->now += RESET_CLOCKS;
}

void nic_env_reset_nic(struct nic_env *e)
{
	clear_services(e, 1);
	vl_nic_reset(e->nic, RESET_CLOCKS, e->cfg.link_up);
	e->now += RESET_CLOCKS;
}

void nic_env_set_cfg(struct nic_env *e, const struct nic_env_cfg *cfg)
{
	uint64_t base = e->cfg.mem_base;
	size_t size = e->cfg.mem_size;
	uint8_t *ext = e->cfg.mem_ext;

	e->cfg = *cfg;
	e->cfg.mem_base = base;
	e->cfg.mem_size = size;
	e->cfg.mem_ext = ext;
}

const struct nic_env_cfg *nic_env_get_cfg(const struct nic_env *e)
{
	return &e->cfg;
}

struct vl_nic *nic_env_model(struct nic_env *e)
{
	return e->nic;
}

void nic_env_set_tx_hold(struct nic_env *e, int hold)
{
	e->tx_hold = hold;
}

void nic_env_set_link(struct nic_env *e, int up)
{
	e->cfg.link_up = up;
}

void nic_env_set_engine_fault(struct nic_env *e, int fault)
{
	e->cfg.engine_fault = fault & (NIC_FAULT_TX | NIC_FAULT_RX);
}

void nic_env_set_dma_enable(struct nic_env *e, int on)
{
	e->dma_off = !on;
}

void nic_env_stall_dma_after(struct nic_env *e, uint64_t tx_frames)
{
	e->stall_after = tx_frames;
	e->stalled = 0;
}

int nic_env_dma_stalled(const struct nic_env *e)
{
	return e->stalled;
}

uint64_t nic_env_clock(const struct nic_env *e)
{
	return e->now;
}

const struct nic_env_errors *nic_env_errors(const struct nic_env *e)
{
	return &e->err;
}

uint64_t nic_env_error_total(const struct nic_env *e)
{
	const struct nic_env_errors *r = &e->err;

	return r->dma_range + r->dma_proto + r->axis_proto + r->tx_gap + r->stability +
	       r->irq_vector + r->csr_proto +
	       r->csr_timeout + r->csr_resp;
}

const struct nic_env_counts *nic_env_counts(const struct nic_env *e)
{
	return &e->cnt;
}

/* ---- host memory ---- */

uint8_t *nic_env_mem(struct nic_env *e, uint64_t addr, size_t len)
{
	if (!in_mem(e, addr, len))
		return NULL;
	return e->mem + (addr - e->cfg.mem_base);
}

uint64_t nic_env_alloc(struct nic_env *e, size_t len, size_t align)
{
	uint64_t a = (e->alloc_next + align - 1) & ~((uint64_t)align - 1);

	if (!in_mem(e, a, len))
		return 0;
	e->alloc_next = a + len;
	return a;
}

void nic_env_free_all(struct nic_env *e)
{
	e->alloc_next = e->cfg.mem_base;
}

void nic_env_on_write(struct nic_env *e,
		      void (*fn)(void *, uint64_t, const uint8_t *, size_t),
		      void *ctx)
{
	e->on_write = fn;
	e->on_write_ctx = ctx;
}

void nic_env_on_irq(struct nic_env *e, void (*fn)(void *, int, uint64_t),
		    void *ctx)
{
	e->on_irq = fn;
	e->on_irq_ctx = ctx;
}

/* ---- MAC and IRQ queues ---- */

void nic_env_rx_inject(struct nic_env *e, const uint8_t *data, size_t len,
		       int tuser, unsigned int idle_before)
{
	struct rx_item *it;

	if (e->rx_head >= 64 && 2 * e->rx_head >= e->rx_n) {
		memmove(e->rx, e->rx + e->rx_head,
			(e->rx_n - e->rx_head) * sizeof(*e->rx));
		e->rx_n -= e->rx_head;
		e->rx_head = 0;
	}
	e->rx = grow(e->rx, &e->rx_cap, e->rx_n + 1, sizeof(*e->rx));
	it = &e->rx[e->rx_n++];
	it->data = malloc(len ? len : 1);
	memcpy(it->data, data, len);
	it->len = len;
	it->tuser = tuser;
	it->idle_before = idle_before;
}

size_t nic_env_rx_pending(const struct nic_env *e)
{
	return e->rx_n - e->rx_head;
}

const struct vl_nic_io *nic_env_io(const struct nic_env *e)
{
	return &e->io;
}

void nic_env_set_rx_pause(struct nic_env *e, int pause)
{
	e->rx_pause = pause;
}

size_t nic_env_rx_partial(const struct nic_env *e)
{
	return e->rx_head < e->rx_n ? e->rx_pos : 0;
}

size_t nic_env_tx_partial(const struct nic_env *e)
{
	return e->tx_cur_len;
}

size_t nic_env_tx_count(const struct nic_env *e)
{
	return e->tx_n;
}

const struct nic_frame *nic_env_tx_frame(const struct nic_env *e, size_t i)
{
	return i < e->tx_n ? &e->tx[i] : NULL;
}

void nic_env_tx_clear(struct nic_env *e)
{
	size_t i;

	for (i = 0; i < e->tx_n; i++)
		free(e->tx[i].data);
	e->tx_n = 0;
}

size_t nic_env_irq_count(const struct nic_env *e)
{
	return e->irq_n;
}

const struct nic_irq *nic_env_irq(const struct nic_env *e, size_t i)
{
	return i < e->irq_n ? &e->irq[i] : NULL;
}

void nic_env_irq_clear(struct nic_env *e)
{
	e->irq_n = 0;
}

int nic_env_quiet(const struct nic_env *e)
{
	return e->rd_head == e->rd_n && e->wr_n == 0 &&
	       e->rx_head == e->rx_n && e->tx_cur_len == 0 &&
	       !e->io.m_irq_valid;
}

int nic_env_idle(const struct nic_env *e)
{
	return nic_env_quiet(e) && e->io.idle;
}

int nic_env_sleep(const struct nic_env *e)
{
	return nic_env_quiet(e) && e->io.sleep;
}

uint64_t nic_env_sleep_limit(const struct nic_env *e)
{
	return vl_nic_sleep_limit(e->nic);
}

/* The wire's credit after n clocks of wire_tick(). */
static void wire_skip(const struct nic_env *e, double *credit, uint64_t n)
{
	if (*credit + (double)n * e->cfg.wire_bytes_per_clk >= e->beat)
		*credit = e->beat;
	else
		*credit += (double)n * e->cfg.wire_bytes_per_clk;
}

void nic_env_skip(struct nic_env *e, uint64_t n)
{
	vl_nic_skip(e->nic, n);
	if (e->cfg.wire_bytes_per_clk > 0) {
		wire_skip(e, &e->tx_credit, n);
		wire_skip(e, &e->rx_credit, n);
	}
	e->now += n;
}

int nic_env_dma_busy(const struct nic_env *e)
{
	return e->rd_head != e->rd_n || e->wr_n || e->io.m_dma_rd_req_valid ||
	       e->io.m_dma_wr_req_valid || e->io.m_dma_wr_valid;
}

/* ---- one clock ---- */

static void drive_csr(struct nic_env *e)
{
	struct vl_nic_io *io = &e->io;
	const struct csr_op *c = &e->csr;
	int w = c->active && c->write, r = c->active && !c->write;

	io->s_axil_awaddr = w ? c->addr : 0;
	io->s_axil_awvalid = w && !c->aw_done && e->now >= c->aw_at;
	io->s_axil_wdata = w ? c->data : 0;
	io->s_axil_wstrb = w ? 0xf : 0;
	io->s_axil_wvalid = w && !c->w_done && e->now >= c->w_at;
	io->s_axil_bready = !chance(e, e->cfg.csr_stall);
	io->s_axil_araddr = r ? c->addr : 0;
	io->s_axil_arvalid = r && !c->ar_done;
	io->s_axil_rready = !chance(e, e->cfg.csr_stall);
}

static void drive_rd(struct nic_env *e)
{
	struct vl_nic_io *io = &e->io;
	size_t inflight = e->rd_n - e->rd_head;

	io->m_dma_rd_req_ready = !e->stalled &&
				 !(e->cfg.rd_max_outstanding &&
				   inflight >= e->cfg.rd_max_outstanding) &&
				 !chance(e, e->cfg.rd_req_stall);
	if (!e->rd_hold && inflight && e->now >= e->rd[e->rd_head].start_at &&
	    !chance(e, e->cfg.rd_gap)) {
		const struct rd_op *op = &e->rd[e->rd_head];
		uint32_t n = op->len - e->rd_pos;

		if (n > e->beat)
			n = e->beat;
		memset(io->s_dma_rd_data, 0, sizeof(io->s_dma_rd_data));
		memcpy(io->s_dma_rd_data, op->data + e->rd_pos, n);
		io->s_dma_rd_keep = keep_mask(n);
		io->s_dma_rd_last = e->rd_pos + n == op->len;
		e->rd_beat = n;
		e->rd_hold = 1;
	}
	io->s_dma_rd_valid = e->rd_hold;
	if (!e->rd_hold) {
		io->s_dma_rd_keep = 0;
		io->s_dma_rd_last = 0;
	}
}

static void wr_pop_done(struct nic_env *e)
{
	struct wr_op *op = &e->wr[0];

	trace(e, "DMA write done 0x%llx +%u%s", (unsigned long long)op->addr,
	      op->len, e->dma_off ? " (DMA disabled: dropped)" : "");
	if (e->dma_off) {
		e->cnt.dma_blocked++;
	} else {
		if (e->on_write)
			e->on_write(e->on_write_ctx, op->addr, op->data, op->len);
		if (in_mem(e, op->addr, op->len))
			memcpy(e->mem + (op->addr - e->cfg.mem_base), op->data,
			       op->len);
	}
	free(op->data);
	memmove(e->wr, e->wr + 1, (e->wr_n - 1) * sizeof(*e->wr));
	e->wr_n--;
	e->wr_req--;
	e->wr_data--;
	e->cnt.wr_dones++;
}

static void drive_wr(struct nic_env *e)
{
	struct vl_nic_io *io = &e->io;

	io->m_dma_wr_req_ready = !e->stalled && !chance(e, e->cfg.wr_req_stall);
	io->m_dma_wr_ready = !chance(e, e->cfg.wr_data_stall);
	io->s_dma_wr_done = 0;
	if (e->wr_n && e->wr[0].scheduled && e->wr[0].done_at <= e->now) {
		/* the bytes land, then the NIC hears of it */
		wr_pop_done(e);
		io->s_dma_wr_done = 1;
	}
}

static void drive_rx(struct nic_env *e)
{
	struct vl_nic_io *io = &e->io;

	if (!e->rx_hold && !e->rx_pause && e->rx_head < e->rx_n) {
		const struct rx_item *it = &e->rx[e->rx_head];

		if (!e->rx_started) {
			e->rx_started = 1;
			e->rx_idle = it->idle_before + upto(e, e->cfg.rx_ifg_max);
		}
		if (e->rx_idle) {
			e->rx_idle--;
		} else if (e->cfg.wire_bytes_per_clk > 0 && e->rx_credit < 0) {
			/* the wire has not delivered the next beat yet */
		} else if (!(e->rx_pos && chance(e, e->cfg.rx_gap))) {
			size_t n = it->len - e->rx_pos;

			if (n > e->beat)
				n = e->beat;
			memset(io->s_axis_rx_tdata, 0, sizeof(io->s_axis_rx_tdata));
			memcpy(io->s_axis_rx_tdata, it->data + e->rx_pos, n);
			io->s_axis_rx_tkeep = keep_mask((uint32_t)n);
			io->s_axis_rx_tlast = e->rx_pos + n == it->len;
			io->s_axis_rx_tuser = io->s_axis_rx_tlast && it->tuser;
			e->rx_beat = (uint32_t)n;
			e->rx_hold = 1;
		}
	}
	io->s_axis_rx_tvalid = e->rx_hold;
	if (!e->rx_hold) {
		io->s_axis_rx_tkeep = 0;
		io->s_axis_rx_tlast = 0;
		io->s_axis_rx_tuser = 0;
	}
}

/* The wire's credit grows by its rate each clock, up to one beat. */
static void wire_tick(const struct nic_env *e, double *credit)
{
	*credit += e->cfg.wire_bytes_per_clk;
	if (*credit > e->beat)
		*credit = e->beat;
}

static void drive(struct nic_env *e)
{
	struct vl_nic_io *io = &e->io;
	int paced = e->cfg.wire_bytes_per_clk > 0;

	if (paced) {
		wire_tick(e, &e->tx_credit);
		wire_tick(e, &e->rx_credit);
	}
	io->rst = 0;
	io->link_up = e->cfg.link_up;
	io->dma_enable = !e->dma_off;
	io->link_speed = e->cfg.link_speed;
	io->dbg_engine_fault = e->cfg.engine_fault;
	drive_csr(e);
	drive_rd(e);
	drive_wr(e);
	io->m_irq_ready = !chance(e, e->cfg.irq_stall);
	io->m_axis_tx_tready = !chance(e, e->cfg.tx_stall) && !e->tx_hold &&
			       !(paced && e->tx_credit < 0);
	drive_rx(e);
}

static void sample_csr(struct nic_env *e)
{
	const struct vl_nic_io *io = &e->io;
	struct csr_op *c = &e->csr;
	int aw = c->aw_done, w = c->w_done, ar = c->ar_done;
	uint8_t p[8];

	p[0] = (uint8_t)io->s_axil_bresp;
	hold_check(e, &e->h_b, "s_axil_b", io->s_axil_bvalid,
		   io->s_axil_bready, p, 1);
	memcpy(p, &io->s_axil_rdata, 4);
	p[4] = (uint8_t)io->s_axil_rresp;
	hold_check(e, &e->h_r, "s_axil_r", io->s_axil_rvalid,
		   io->s_axil_rready, p, 5);

	if (io->s_axil_awvalid && io->s_axil_awready)
		c->aw_done = 1;
	if (io->s_axil_wvalid && io->s_axil_wready)
		c->w_done = 1;
	if (io->s_axil_arvalid && io->s_axil_arready)
		c->ar_done = 1;
	if (io->s_axil_bvalid && io->s_axil_bready) {
		if (!(c->active && c->write && aw && w && !c->done))
			env_err(e, &e->err.csr_proto,
				"AXI-Lite write response without a write");
		else {
			c->resp = io->s_axil_bresp;
			c->done = 1;
		}
	}
	if (io->s_axil_rvalid && io->s_axil_rready) {
		if (!(c->active && !c->write && ar && !c->done))
			env_err(e, &e->err.csr_proto,
				"AXI-Lite read data without a read");
		else {
			c->resp = io->s_axil_rresp;
			c->rdata = io->s_axil_rdata;
			c->done = 1;
		}
	}
}

static void sample_rd(struct nic_env *e)
{
	const struct vl_nic_io *io = &e->io;
	uint8_t p[10];

	memcpy(p, &io->m_dma_rd_req_addr, 8);
	memcpy(p + 8, &io->m_dma_rd_req_len, 2);
	hold_check(e, &e->h_rdreq, "m_dma_rd_req", io->m_dma_rd_req_valid,
		   io->m_dma_rd_req_ready, p, sizeof(p));
	/* the fault: this request may still be taken, none after it */
	if (e->stall_after && !e->stalled && io->m_dma_rd_req_valid &&
	    e->cnt.tx_frames >= e->stall_after) {
		e->stalled = 1;
		trace(e, "DMA bridge stalled (fault)");
	}
	if (io->m_dma_rd_req_valid && io->m_dma_rd_req_ready) {
		struct rd_op *op;
		uint32_t len = io->m_dma_rd_req_len;

		if (e->rd_head >= 64 && 2 * e->rd_head >= e->rd_n) {
			memmove(e->rd, e->rd + e->rd_head,
				(e->rd_n - e->rd_head) * sizeof(*e->rd));
			e->rd_n -= e->rd_head;
			e->rd_head = 0;
		}
		e->rd = grow(e->rd, &e->rd_cap, e->rd_n + 1, sizeof(*e->rd));
		op = &e->rd[e->rd_n++];
		op->addr = io->m_dma_rd_req_addr;
		op->len = len;
		op->data = calloc(1, len ? len : 1);
		if (!len || len > DMA_MAX_LEN)
			env_err(e, &e->err.dma_range, "DMA read of %u bytes at 0x%llx",
				len, (unsigned long long)op->addr);
		else if (!in_mem(e, op->addr, len))
			env_err(e, &e->err.dma_range,
				"DMA read outside host memory: %u bytes at 0x%llx",
				len, (unsigned long long)op->addr);
		else if (e->dma_off)
			e->cnt.dma_blocked++;	/* answered with zeros */
		else
			memcpy(op->data, e->mem + (op->addr - e->cfg.mem_base), len);
		op->start_at = e->now + 1 + e->cfg.rd_lat_min + upto(e, e->cfg.rd_lat_max);
		trace(e, "DMA read 0x%llx +%u", (unsigned long long)op->addr, len);
		e->cnt.rd_reqs++;
		e->cnt.rd_bytes += len;
		if (!len) {	/* nothing to answer: drop it */
			free(op->data);
			e->rd_n--;
		}
	}
	if (e->rd_hold && io->s_dma_rd_ready) {
		struct rd_op *op = &e->rd[e->rd_head];

		e->rd_pos += e->rd_beat;
		e->rd_hold = 0;
		e->cnt.rd_beats++;
		if (e->rd_pos == op->len) {
			trace(e, "DMA read answered 0x%llx +%u",
			      (unsigned long long)op->addr, op->len);
			free(op->data);
			e->rd_head++;
			e->rd_pos = 0;
		}
	}
}

/* a write's request and data are both in: schedule its done pulse */
static void wr_finish(struct nic_env *e, struct wr_op *op)
{
	uint64_t t;

	if (op->got != op->len)
		env_err(e, &e->err.dma_proto,
			"DMA write at 0x%llx: request of %u bytes, %u bytes of data",
			(unsigned long long)op->addr, op->len, op->got);
	if (op->len > op->got) {	/* apply what came */
		op->data = realloc(op->data, op->len);
		memset(op->data + op->got, 0, op->len - op->got);
	}
	t = op->last_beat + 1 + e->cfg.wr_done_min + upto(e, e->cfg.wr_done_max);
	if (t <= e->wr_last_done)
		t = e->wr_last_done + 1;
	op->done_at = e->wr_last_done = t;
	op->scheduled = 1;
}

static struct wr_op *wr_get(struct nic_env *e, size_t i)
{
	if (i >= e->wr_n) {
		e->wr = grow(e->wr, &e->wr_cap, i + 1, sizeof(*e->wr));
		memset(e->wr + e->wr_n, 0, (i + 1 - e->wr_n) * sizeof(*e->wr));
		e->wr_n = i + 1;
	}
	return &e->wr[i];
}

static void sample_wr(struct nic_env *e)
{
	const struct vl_nic_io *io = &e->io;
	uint8_t p[VL_NIC_BEAT_MAX + 9];

	memcpy(p, &io->m_dma_wr_req_addr, 8);
	memcpy(p + 8, &io->m_dma_wr_req_len, 2);
	hold_check(e, &e->h_wrreq, "m_dma_wr_req", io->m_dma_wr_req_valid,
		   io->m_dma_wr_req_ready, p, 10);
	memset(p, 0, sizeof(p));
	{
		int n = keep_bytes(io->m_dma_wr_keep);

		memcpy(p, io->m_dma_wr_data, n < 0 ? e->beat : (size_t)n);
	}
	memcpy(p + VL_NIC_BEAT_MAX, &io->m_dma_wr_keep, 8);
	p[VL_NIC_BEAT_MAX + 8] = (uint8_t)io->m_dma_wr_last;
	hold_check(e, &e->h_wr, "m_dma_wr", io->m_dma_wr_valid,
		   io->m_dma_wr_ready, p, sizeof(p));

	if (io->m_dma_wr_req_valid && io->m_dma_wr_req_ready) {
		struct wr_op *op = wr_get(e, e->wr_req++);
		uint32_t len = io->m_dma_wr_req_len;

		op->addr = io->m_dma_wr_req_addr;
		op->len = len;
		op->have_req = 1;
		if (!len || len > DMA_MAX_LEN)
			env_err(e, &e->err.dma_range, "DMA write of %u bytes at 0x%llx",
				len, (unsigned long long)op->addr);
		else if (!in_mem(e, op->addr, len))
			env_err(e, &e->err.dma_range,
				"DMA write outside host memory: %u bytes at 0x%llx",
				len, (unsigned long long)op->addr);
		e->cnt.wr_reqs++;
		e->cnt.wr_bytes += len;
		trace(e, "DMA write request 0x%llx +%u", (unsigned long long)op->addr, len);
		if (op->data_done)
			wr_finish(e, op);
	}
	if (io->m_dma_wr_valid && io->m_dma_wr_ready) {
		struct wr_op *op = wr_get(e, e->wr_data);
		int n = keep_bytes(io->m_dma_wr_keep);

		if (n <= 0 || (!io->m_dma_wr_last && n != (int)e->beat)) {
			env_err(e, &e->err.dma_proto,
				"DMA write beat with keep 0x%llx%s",
				(unsigned long long)io->m_dma_wr_keep,
				io->m_dma_wr_last ? " (last)" : "");
			if (n < 0)
				n = 0;
		}
		/* (the bridge takes requests ahead of their data, not
		 * data ahead of its request: docs/regmap.md) */
		if (!op->have_req && !op->got)
			env_err(e, &e->err.dma_proto,
				"DMA write data before its request");
		if (op->have_req && op->got + (uint32_t)n > op->len)
			env_err(e, &e->err.dma_proto,
				"DMA write at 0x%llx: data past its %u bytes",
				(unsigned long long)op->addr, op->len);
		if (op->got + (uint32_t)n > op->cap) {
			op->cap = op->got + (uint32_t)n + 1024;
			op->data = realloc(op->data, op->cap);
		}
		memcpy(op->data + op->got, io->m_dma_wr_data, (size_t)n);
		op->got += (uint32_t)n;
		e->cnt.wr_beats++;
		if (io->m_dma_wr_last) {
			trace(e, "DMA write data end, %u bytes", op->got);
			op->data_done = 1;
			op->last_beat = e->now;
			e->wr_data++;
			if (op->have_req)
				wr_finish(e, op);
		}
	}
}

static void sample_irq(struct nic_env *e)
{
	const struct vl_nic_io *io = &e->io;
	uint8_t p = (uint8_t)io->m_irq_vector;

	hold_check(e, &e->h_irq, "m_irq", io->m_irq_valid, io->m_irq_ready, &p, 1);
	if (io->m_irq_valid && io->m_irq_ready) {
		struct nic_irq *q;

		if (io->m_irq_vector > 2)	/* 0 TX, 1 RX, 2 management */
			env_err(e, &e->err.irq_vector, "MSI-X vector %d",
				io->m_irq_vector);
		e->irq = grow(e->irq, &e->irq_cap, e->irq_n + 1, sizeof(*e->irq));
		q = &e->irq[e->irq_n++];
		q->vector = io->m_irq_vector;
		q->clock = e->now;
		e->cnt.irqs++;
		trace(e, "MSI-X vector %d", q->vector);
		if (e->on_irq)
			e->on_irq(e->on_irq_ctx, q->vector, q->clock);
	}
}

static void sample_tx(struct nic_env *e)
{
	const struct vl_nic_io *io = &e->io;
	uint8_t p[VL_NIC_BEAT_MAX + 9];
	int n = keep_bytes(io->m_axis_tx_tkeep);

	memset(p, 0, sizeof(p));
	memcpy(p, io->m_axis_tx_tdata, n < 0 ? e->beat : (size_t)n);
	memcpy(p + VL_NIC_BEAT_MAX, &io->m_axis_tx_tkeep, 8);
	p[VL_NIC_BEAT_MAX + 8] = (uint8_t)io->m_axis_tx_tlast;
	hold_check(e, &e->h_tx, "m_axis_tx", io->m_axis_tx_tvalid,
		   io->m_axis_tx_tready, p, sizeof(p));
	/* a MAC sends a frame as it comes: a gap inside one is an underrun */
	if (!io->m_axis_tx_tvalid && e->tx_cur_len)
		env_err(e, &e->err.tx_gap,
			"MAC TX underrun: tvalid low inside a frame, after %zu bytes",
			e->tx_cur_len);
	if (io->m_axis_tx_tvalid && !io->m_axis_tx_tready)
		e->cnt.tx_stall_clocks++;
	if (!(io->m_axis_tx_tvalid && io->m_axis_tx_tready))
		return;
	if (n <= 0 || (!io->m_axis_tx_tlast && n != (int)e->beat)) {
		env_err(e, &e->err.axis_proto, "MAC TX beat with tkeep 0x%llx%s",
			(unsigned long long)io->m_axis_tx_tkeep,
			io->m_axis_tx_tlast ? " (tlast)" : "");
		if (n < 0)
			n = 0;
	}
	e->tx_cur = grow(e->tx_cur, &e->tx_cur_cap, e->tx_cur_len + (size_t)n + 1, 1);
	memcpy(e->tx_cur + e->tx_cur_len, io->m_axis_tx_tdata, (size_t)n);
	e->tx_cur_len += (size_t)n;
	e->cnt.tx_beats++;
	if (e->cfg.wire_bytes_per_clk > 0)
		e->tx_credit -= n + (io->m_axis_tx_tlast ? NIC_WIRE_OVERHEAD : 0);
	if (io->m_axis_tx_tlast) {
		struct nic_frame *f;

		e->tx = grow(e->tx, &e->tx_cap, e->tx_n + 1, sizeof(*e->tx));
		f = &e->tx[e->tx_n++];
		f->data = malloc(e->tx_cur_len + 1);
		memcpy(f->data, e->tx_cur, e->tx_cur_len);
		f->len = e->tx_cur_len;
		f->clock = e->now;
		e->cnt.tx_frames++;
		e->cnt.tx_bytes += e->tx_cur_len;
		trace(e, "MAC TX frame %zu bytes", e->tx_cur_len);
		e->tx_cur_len = 0;
	}
}

/* the beat presented is taken: the NIC has no tready (a MAC cannot be
 * held) */
static void sample_rx(struct nic_env *e)
{
	if (!e->rx_hold)
		return;
	e->rx_pos += e->rx_beat;
	e->rx_hold = 0;
	e->cnt.rx_beats++;
	if (e->cfg.wire_bytes_per_clk > 0)
		e->rx_credit -= e->rx_beat +
			(e->rx_pos == e->rx[e->rx_head].len ? NIC_WIRE_OVERHEAD : 0);
	if (e->rx_pos == e->rx[e->rx_head].len) {
		trace(e, "MAC RX frame %zu bytes%s", e->rx_pos,
		      e->rx[e->rx_head].tuser ? " (tuser)" : "");
		e->cnt.rx_frames++;
		e->cnt.rx_bytes += e->rx_pos;
		free(e->rx[e->rx_head].data);
		e->rx_head++;
		e->rx_pos = 0;
		e->rx_started = 0;
		if (e->rx_head == e->rx_n)
			e->rx_head = e->rx_n = 0;
	}
}

static void clock_once(struct nic_env *e)
{
	drive(e);
	vl_nic_eval(e->nic, &e->io);
	sample_csr(e);
	sample_rd(e);
	sample_wr(e);
	sample_irq(e);
	sample_tx(e);
	sample_rx(e);
	vl_nic_tick(e->nic);
	e->now++;
}

void nic_env_step(struct nic_env *e, uint64_t n)
{
	while (n--)
		clock_once(e);
}

int nic_env_run_until(struct nic_env *e, int (*pred)(struct nic_env *, void *),
		      void *ctx, uint64_t timeout)
{
	uint64_t i;

	for (i = 0; i <= timeout; i++) {
		if (pred(e, ctx))
			return 0;
		if (i < timeout)
			clock_once(e);
	}
	return -1;
}

/* ---- CSR ---- */

static int csr_run(struct nic_env *e, int write, uint16_t addr, uint32_t val,
		   uint32_t *out, int *resp)
{
	struct csr_op *c = &e->csr;
	uint64_t t;

	memset(c, 0, sizeof(*c));
	c->active = 1;
	c->write = write;
	c->addr = addr;
	c->data = val;
	c->aw_at = e->now + upto(e, e->cfg.csr_skew_max);
	c->w_at = e->now + upto(e, e->cfg.csr_skew_max);
	for (t = 0; !c->done; t++) {
		if (t >= e->cfg.csr_timeout) {
			env_err(e, &e->err.csr_timeout, "CSR %s at 0x%04x timed out",
				write ? "write" : "read", addr);
			c->active = 0;
			return -1;
		}
		clock_once(e);
	}
	c->active = 0;
	trace(e, "CSR %s 0x%04x %s0x%08x resp %d", write ? "write" : "read",
	      addr, write ? "" : "-> ", write ? val : c->rdata, c->resp);
	if (write)
		e->cnt.csr_writes++;
	else
		e->cnt.csr_reads++;
	if (out)
		*out = c->rdata;
	if (resp)
		*resp = c->resp;
	return 0;
}

int nic_csr_write_resp(struct nic_env *e, uint16_t addr, uint32_t val, int *resp)
{
	return csr_run(e, 1, addr, val, NULL, resp);
}

int nic_csr_read_resp(struct nic_env *e, uint16_t addr, uint32_t *val, int *resp)
{
	return csr_run(e, 0, addr, 0, val, resp);
}

int nic_csr_write(struct nic_env *e, uint16_t addr, uint32_t val)
{
	int resp;

	if (csr_run(e, 1, addr, val, NULL, &resp))
		return -1;
	if (resp)
		env_err(e, &e->err.csr_resp, "CSR write 0x%04x: bresp %d", addr, resp);
	return 0;
}

uint32_t nic_csr_read(struct nic_env *e, uint16_t addr)
{
	uint32_t v;
	int resp;

	if (csr_run(e, 0, addr, 0, &v, &resp))
		return 0xffffffffu;
	if (resp)
		env_err(e, &e->err.csr_resp, "CSR read 0x%04x: rresp %d", addr, resp);
	return v;
}

uint64_t nic_stat(struct nic_env *e, int n)
{
	uint64_t lo = nic_csr_read(e, (uint16_t)(INC_STATS + 8 * n));
	uint64_t hi = nic_csr_read(e, (uint16_t)(INC_STATS + 8 * n + 4));

	return hi << 32 | lo;
}

const char *nic_stat_name(int n)
{
#define NAME(n, name) [n] = #name,
	static const char *const names[INC_ST_N] = { INC_STATS_LIST(NAME) };
#undef NAME

	return n >= 0 && n < INC_ST_N ? names[n] : "?";
}

/* ---- driver ---- */

static void put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#define BUF_SLACK	64	/* room to misalign buffers */

static uint64_t tx_buf_addr(const struct nic_drv *d, unsigned int slot)
{
	return d->tx_bufs + (uint64_t)slot * (d->buf_size + BUF_SLACK) +
	       ((slot * 13u) & 63u);
}

static uint64_t rx_buf_addr(const struct nic_drv *d, unsigned int slot)
{
	return d->rx_bufs + (uint64_t)slot * (d->buf_size + BUF_SLACK) +
	       ((slot * 7u + 2u) & 63u);
}

/* is free-running index i (mod 2^16) in [lo, hi)? */
static int idx_in(uint16_t i, uint16_t lo, uint16_t hi)
{
	return (uint16_t)(i - lo) < (uint16_t)(hi - lo);
}

/* the index in [lo, hi) of ring slot s, or -1 */
static int slot_index(uint16_t lo, uint16_t hi, unsigned int log2,
		      unsigned int s)
{
	uint16_t i = (uint16_t)(lo + ((s - lo) & ((1u << log2) - 1)));

	return idx_in(i, lo, hi) ? i : -1;
}

/* byte a of host memory as it will be once the write (addr, data, len)
 * has landed */
static unsigned int desc_byte(struct nic_env *e, uint64_t addr,
			      const uint8_t *data, size_t len, uint64_t a)
{
	const uint8_t *m;

	if (a >= addr && a < addr + len)
		return data[a - addr];
	m = nic_env_mem(e, a, 1);
	return m ? *m : 0;
}

/* the write callback: the ordering and ownership checks */
static void drv_on_write(void *ctx, uint64_t addr, const uint8_t *data,
			 size_t len)
{
	struct nic_drv *d = ctx;
	struct nic_env *e = d->env;
	uint64_t end = addr + len;
	uint64_t tx_end = d->tx_ring + ((uint64_t)INC_TXD_BYTES << d->tx_log2);
	uint64_t rx_end = d->rx_ring + ((uint64_t)INC_RXD_BYTES << d->rx_log2);
	uint64_t stride = d->buf_size + BUF_SLACK;
	uint64_t rxb_end = d->rx_bufs + (stride << d->rx_log2);
	const uint8_t *old = nic_env_mem(e, addr, len);

	if (!old)
		return;		/* the environment counted it */
	if (addr >= d->tx_ring && end <= tx_end) {
		uint64_t a;

		for (a = addr; a < end; a++) {
			unsigned int off = (unsigned int)((a - d->tx_ring) % INC_TXD_BYTES);
			unsigned int slot = (unsigned int)((a - d->tx_ring) / INC_TXD_BYTES);

			if (off < 24 && data[a - addr] != old[a - addr]) {
				d->err.desc_clobber++;
				break;
			}
			if (off == 27 && (data[a - addr] & 0x80) &&
			    slot_index(d->tx_clean, d->tx_kicked, d->tx_log2, slot) < 0)
				d->err.done_unposted++;
		}
		return;
	}
	if (addr >= d->rx_ring && end <= rx_end) {
		uint64_t a;

		for (a = addr; a < end; a++) {
			unsigned int off = (unsigned int)((a - d->rx_ring) % INC_RXD_BYTES);
			unsigned int slot = (unsigned int)((a - d->rx_ring) / INC_RXD_BYTES);

			if (off < 10 && data[a - addr] != old[a - addr]) {
				d->err.desc_clobber++;
				break;
			}
			if (off == 15 && (data[a - addr] & 0x80)) {
				/* DONE: the frame must be in place */
				unsigned int flen = desc_byte(e, addr, data, len, a - 5) |
						    desc_byte(e, addr, data, len, a - 4) << 8;

				if (slot_index(d->rx_clean, d->rx_kicked, d->rx_log2, slot) < 0)
					d->err.done_unposted++;
				else if (d->rx_written[slot] < flen)
					d->err.rx_done_before_data++;
			}
		}
		return;
	}
	if (addr >= d->rx_bufs && end <= rxb_end) {
		unsigned int slot = (unsigned int)((addr - d->rx_bufs) / stride);
		uint64_t b = rx_buf_addr(d, slot);

		if (slot_index(d->rx_clean, d->rx_kicked, d->rx_log2, slot) < 0 ||
		    addr < b || end > b + d->rx_buf_len[slot])
			d->err.rx_overrun++;
		else
			d->rx_written[slot] += (uint32_t)len;
		return;
	}
	d->err.stray_write++;
}

int nic_drv_init(struct nic_drv *d, struct nic_env *e, unsigned int tx_log2,
		 unsigned int rx_log2, size_t buf_size)
{
	uint64_t stride = buf_size + BUF_SLACK;
	uint16_t cons;

	memset(d, 0, sizeof(*d));
	d->env = e;
	d->tx_log2 = tx_log2;
	d->rx_log2 = rx_log2;
	d->buf_size = buf_size;
	d->tx_ring = nic_env_alloc(e, (size_t)INC_TXD_BYTES << tx_log2, INC_TXD_BYTES);
	d->rx_ring = nic_env_alloc(e, (size_t)INC_RXD_BYTES << rx_log2, INC_RXD_BYTES);
	d->tx_bufs = nic_env_alloc(e, (size_t)(stride << tx_log2), 64);
	d->rx_bufs = nic_env_alloc(e, (size_t)(stride << rx_log2), 64);
	if (!d->tx_ring || !d->rx_ring || !d->tx_bufs || !d->rx_bufs)
		return -1;
	memset(nic_env_mem(e, d->tx_ring, (size_t)INC_TXD_BYTES << tx_log2), 0,
	       (size_t)INC_TXD_BYTES << tx_log2);
	memset(nic_env_mem(e, d->rx_ring, (size_t)INC_RXD_BYTES << rx_log2), 0,
	       (size_t)INC_RXD_BYTES << rx_log2);
	d->rx_written = calloc((size_t)1 << rx_log2, sizeof(*d->rx_written));
	d->rx_buf_len = calloc((size_t)1 << rx_log2, sizeof(*d->rx_buf_len));
	if (!d->rx_written || !d->rx_buf_len)
		return -1;

	cons = (uint16_t)nic_csr_read(e, INC_TXQ + INC_Q_CONS);
	if (nic_csr_write(e, INC_TXQ + INC_Q_BASE_LO, (uint32_t)d->tx_ring) ||
	    nic_csr_write(e, INC_TXQ + INC_Q_BASE_HI, (uint32_t)(d->tx_ring >> 32)) ||
	    nic_csr_write(e, INC_TXQ + INC_Q_SIZE, tx_log2) ||
	    nic_csr_write(e, INC_TXQ + INC_Q_PROD, cons))
		return -1;
	d->tx_prod = d->tx_clean = d->tx_kicked = cons;
	cons = (uint16_t)nic_csr_read(e, INC_RXQ + INC_Q_CONS);
	if (nic_csr_write(e, INC_RXQ + INC_Q_BASE_LO, (uint32_t)d->rx_ring) ||
	    nic_csr_write(e, INC_RXQ + INC_Q_BASE_HI, (uint32_t)(d->rx_ring >> 32)) ||
	    nic_csr_write(e, INC_RXQ + INC_Q_SIZE, rx_log2) ||
	    nic_csr_write(e, INC_RXQ + INC_Q_PROD, cons))
		return -1;
	d->rx_prod = d->rx_clean = d->rx_kicked = cons;
	nic_env_on_write(e, drv_on_write, d);
	return 0;
}

int nic_drv_tx_reset(struct nic_drv *d)
{
	uint16_t cons = (uint16_t)nic_csr_read(d->env, INC_TXQ + INC_Q_CONS);

	memset(nic_env_mem(d->env, d->tx_ring, (size_t)INC_TXD_BYTES << d->tx_log2), 0,
	       (size_t)INC_TXD_BYTES << d->tx_log2);
	if (nic_csr_write(d->env, INC_TXQ + INC_Q_PROD, cons))
		return -1;
	d->tx_prod = d->tx_clean = d->tx_kicked = cons;
	return 0;
}

int nic_drv_rx_reset(struct nic_drv *d)
{
	uint16_t cons = (uint16_t)nic_csr_read(d->env, INC_RXQ + INC_Q_CONS);
	size_t n = (size_t)1 << d->rx_log2;

	memset(nic_env_mem(d->env, d->rx_ring, (size_t)INC_RXD_BYTES << d->rx_log2), 0,
	       (size_t)INC_RXD_BYTES << d->rx_log2);
	memset(d->rx_written, 0, n * sizeof(*d->rx_written));
	memset(d->rx_buf_len, 0, n * sizeof(*d->rx_buf_len));
	if (nic_csr_write(d->env, INC_RXQ + INC_Q_PROD, cons))
		return -1;
	d->rx_prod = d->rx_clean = d->rx_kicked = cons;
	return 0;
}

void nic_drv_fini(struct nic_drv *d)
{
	if (d->env)
		nic_env_on_write(d->env, NULL, NULL);
	d->env = NULL;
	free(d->rx_written);
	free(d->rx_buf_len);
	d->rx_written = NULL;
	d->rx_buf_len = NULL;
}

unsigned int nic_drv_tx_space(const struct nic_drv *d)
{
	return (1u << d->tx_log2) - (uint16_t)(d->tx_prod - d->tx_clean);
}

int nic_drv_tx_post_desc(struct nic_drv *d, const uint8_t *f, size_t copy,
			 uint16_t len_field, const struct nic_tx_opts *o)
{
	unsigned int slot = d->tx_prod & ((1u << d->tx_log2) - 1);
	uint64_t buf = tx_buf_addr(d, slot);
	uint8_t *desc = nic_env_mem(d->env, d->tx_ring + (uint64_t)slot * INC_TXD_BYTES,
				    INC_TXD_BYTES);

	if (!nic_drv_tx_space(d) || copy > d->buf_size)
		return -1;
	memcpy(nic_env_mem(d->env, buf, copy), f, copy);
	memset(desc, 0, INC_TXD_BYTES);
	put_le(desc, buf, 8);
	put_le(desc + 8, len_field, 2);
	if (o) {
		put_le(desc + 10, o->compress ? INC_TXD_COMPRESS : 0, 2);
		desc[12] = (uint8_t)o->k;
		desc[13] = (uint8_t)o->mode;
		put_le(desc + 14, o->range_off, 2);
		put_le(desc + 16, o->range_len, 2);
	}
	d->tx_prod++;
	return (int)slot;
}

int nic_drv_tx_post(struct nic_drv *d, const uint8_t *f, size_t len,
		    const struct nic_tx_opts *o)
{
	return nic_drv_tx_post_desc(d, f, len, (uint16_t)len, o);
}

int nic_drv_tx_kick(struct nic_drv *d)
{
	d->tx_kicked = d->tx_prod;
	return nic_csr_write(d->env, INC_TXQ + INC_Q_PROD, d->tx_prod);
}

int nic_drv_tx_reap(struct nic_drv *d, struct nic_tx_done *out)
{
	unsigned int slot = d->tx_clean & ((1u << d->tx_log2) - 1);
	uint8_t *desc = nic_env_mem(d->env, d->tx_ring + (uint64_t)slot * INC_TXD_BYTES,
				    INC_TXD_BYTES);
	uint32_t st;

	if (d->tx_clean == d->tx_prod)
		return 0;
	st = (uint32_t)get_le(desc + 24, 4);
	if (!(st & INC_DESC_DONE))
		return 0;
	out->slot = slot;
	out->status = st;
	put_le(desc + 24, 0, 4);
	d->tx_clean++;
	return 1;
}

unsigned int nic_drv_rx_space(const struct nic_drv *d)
{
	return (1u << d->rx_log2) - (uint16_t)(d->rx_prod - d->rx_clean);
}

int nic_drv_rx_post(struct nic_drv *d, uint16_t buf_len)
{
	unsigned int slot = d->rx_prod & ((1u << d->rx_log2) - 1);
	uint8_t *desc = nic_env_mem(d->env, d->rx_ring + (uint64_t)slot * INC_RXD_BYTES,
				    INC_RXD_BYTES);

	if (!nic_drv_rx_space(d) || buf_len > d->buf_size)
		return -1;
	memset(desc, 0, INC_RXD_BYTES);
	put_le(desc, rx_buf_addr(d, slot), 8);
	put_le(desc + 8, buf_len, 2);
	d->rx_written[slot] = 0;
	d->rx_buf_len[slot] = buf_len;
	d->rx_prod++;
	return (int)slot;
}

int nic_drv_rx_kick(struct nic_drv *d)
{
	d->rx_kicked = d->rx_prod;
	return nic_csr_write(d->env, INC_RXQ + INC_Q_PROD, d->rx_prod);
}

int nic_drv_rx_reap(struct nic_drv *d, struct nic_rx_done *out)
{
	unsigned int slot = d->rx_clean & ((1u << d->rx_log2) - 1);
	uint8_t *desc = nic_env_mem(d->env, d->rx_ring + (uint64_t)slot * INC_RXD_BYTES,
				    INC_RXD_BYTES);
	uint32_t st;

	if (d->rx_clean == d->rx_prod)
		return 0;
	st = (uint32_t)get_le(desc + 12, 4);
	if (!(st & INC_DESC_DONE))
		return 0;
	out->slot = slot;
	out->status = st;
	out->len = (unsigned int)get_le(desc + 10, 2);
	out->buf_len = (unsigned int)get_le(desc + 8, 2);
	out->data = nic_env_mem(d->env, rx_buf_addr(d, slot),
				out->len <= d->buf_size ? out->len : d->buf_size);
	put_le(desc + 12, 0, 4);
	d->rx_clean++;
	return 1;
}

static uint16_t cons_check(struct nic_drv *d, uint16_t q, uint16_t clean,
			   uint16_t kicked, uint64_t ring, unsigned int dsize,
			   unsigned int log2, unsigned int st_off)
{
	uint16_t cons = (uint16_t)nic_csr_read(d->env, (uint16_t)(q + INC_Q_CONS)), i;

	if ((uint16_t)(cons - clean) > (uint16_t)(kicked - clean)) {
		d->err.cons_ahead++;
		return cons;
	}
	for (i = clean; i != cons; i++) {
		unsigned int slot = i & ((1u << log2) - 1);
		const uint8_t *desc = nic_env_mem(d->env, ring + (uint64_t)slot * dsize,
						  dsize);

		if (!(get_le(desc + st_off, 4) & INC_DESC_DONE)) {
			d->err.cons_ahead++;
			break;
		}
	}
	return cons;
}

uint16_t nic_drv_tx_cons(struct nic_drv *d)
{
	return cons_check(d, INC_TXQ, d->tx_clean, d->tx_kicked, d->tx_ring,
			  INC_TXD_BYTES, d->tx_log2, 24);
}

uint16_t nic_drv_rx_cons(struct nic_drv *d)
{
	return cons_check(d, INC_RXQ, d->rx_clean, d->rx_kicked, d->rx_ring,
			  INC_RXD_BYTES, d->rx_log2, 12);
}

static unsigned int done_pending(const struct nic_drv *d, uint64_t ring,
				 unsigned int dsize, unsigned int log2,
				 unsigned int st_off, uint16_t clean,
				 uint16_t prod)
{
	unsigned int n = 0;
	uint16_t i;

	for (i = clean; i != prod; i++) {
		unsigned int slot = i & ((1u << log2) - 1);
		const uint8_t *desc = nic_env_mem(d->env, ring + (uint64_t)slot * dsize,
						  dsize);

		n += (get_le(desc + st_off, 4) & INC_DESC_DONE) != 0;
	}
	return n;
}

unsigned int nic_drv_tx_done_pending(const struct nic_drv *d)
{
	return done_pending(d, d->tx_ring, INC_TXD_BYTES, d->tx_log2, 24,
			    d->tx_clean, d->tx_prod);
}

unsigned int nic_drv_rx_done_pending(const struct nic_drv *d)
{
	return done_pending(d, d->rx_ring, INC_RXD_BYTES, d->rx_log2, 12,
			    d->rx_clean, d->rx_prod);
}

uint64_t nic_drv_error_total(const struct nic_drv *d)
{
	const struct nic_drv_errors *r = &d->err;

	return r->rx_done_before_data + r->desc_clobber + r->stray_write +
	       r->rx_overrun + r->cons_ahead + r->done_unposted;
}
