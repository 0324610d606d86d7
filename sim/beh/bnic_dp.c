// SPDX-License-Identifier: MIT
/*
 * bnic's datapath: the TX engine (nic_tx), the RX engine (nic_rx), the
 * MAC side with loopback (inc_nic) and DMA into host memory. Each frame is
 * the wire reference's: incw_tx() builds what the NIC sends for a TX
 * descriptor, incw_rx() what it delivers for a received frame; the
 * counters, descriptor statuses and drops follow nic_tx and nic_rx
 * (docs/regmap.md).
 */
#include <stdlib.h>
#include <string.h>

#include "bnic_priv.h"

/* ---- DMA ---- */

static uint8_t *host(struct bnic *b, uint64_t addr, size_t len)
{
	if (addr < b->cfg.mem_base || len > b->cfg.mem_size ||
	    addr - b->cfg.mem_base > b->cfg.mem_size - len)
		return NULL;
	return b->cfg.mem + (addr - b->cfg.mem_base);
}

int bnic_dma_read(struct bnic *b, uint64_t addr, void *dst, size_t len)
{
	uint8_t *p = host(b, addr, len);

	b->cnt.dma_rd++;
	b->cnt.dma_rd_bytes += len;
	if (!p) {
		if (b->cnt.dma_range++ < 5)
			bnic_msg(b, "DMA read outside host memory: %zu bytes at 0x%llx",
				 len, (unsigned long long)addr);
		memset(dst, 0, len);
		return -1;
	}
	if (!b->dma_on) {	/* bus mastering off: zeros */
		b->cnt.dma_blocked++;
		memset(dst, 0, len);
		return 0;
	}
	memcpy(dst, p, len);
	return 0;
}

int bnic_dma_write(struct bnic *b, uint64_t addr, const void *src, size_t len)
{
	uint8_t *p = host(b, addr, len);

	b->cnt.dma_wr++;
	b->cnt.dma_wr_bytes += len;
	if (!p) {
		if (b->cnt.dma_range++ < 5)
			bnic_msg(b, "DMA write outside host memory: %zu bytes at 0x%llx",
				 len, (unsigned long long)addr);
		return -1;
	}
	if (!b->dma_on) {	/* bus mastering off: dropped */
		b->cnt.dma_blocked++;
		return 0;
	}
	memcpy(p, src, len);
	return 0;
}

/* ---- a faulty engine (dbg_engine_fault) ---- */

void bnic_fault_flip(uint8_t *p, size_t n, size_t beat)
{
	size_t i;

	for (i = 0; i < n; i += beat)
		p[i] ^= 1;
}

/*
 * Flip the engine's output bytes f[off, off + n) as the faulty engine
 * does, and follow them in the checksum at f[csum] whose sum starts at
 * f[start] (RFC 1624: HC' = ~(~HC + ~m + m')), as the RTL sums the engine's
 * output as it comes out.
 */
static void fault_in_frame(uint8_t *f, size_t off, size_t n, size_t beat,
			   size_t csum, size_t start)
{
	uint32_t hc = (uint32_t)f[csum] << 8 | f[csum + 1];
	uint32_t sum = ~hc & 0xffff;
	size_t i;

	for (i = 0; i < n; i += beat) {
		unsigned int sh = ((off + i - start) & 1) ? 0 : 8;
		uint32_t m = (uint32_t)f[off + i] << sh;

		f[off + i] ^= 1;
		sum += (~m & 0xffff) + ((uint32_t)f[off + i] << sh);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
	}
	hc = ~sum & 0xffff;
	f[csum] = (uint8_t)(hc >> 8);
	f[csum + 1] = (uint8_t)hc;
}

/* ---- TX (nic_tx) ---- */

int bnic_tx_work(const struct bnic *b)
{
	return b->tx_en && b->txq.prod != b->txq.cons && !b->tx_hold &&
	       !b->stalled &&
	       /* looped back, a frame waits for room in the RX queue */
	       !(b->loopback && b->rx_en && b->rx_n == BNIC_RX_FRAMES);
}

/* The chunk header's fields of an encapsulated frame (after the shim). */
static int chunk_of(const uint8_t *f, size_t len, unsigned int *shim,
		    unsigned int *raw, unsigned int *body)
{
	struct incw_frame fr;

	incw_parse(f, len, &fr);
	if (!fr.ip_version || fr.proto != INCW_PROTO ||
	    fr.l3_off + fr.ip_hlen + INCW_SHIM_BYTES > len)
		return -1;
	*shim = fr.l3_off + fr.ip_hlen;
	*raw = bn_get(f + *shim + 10, 2);
	*body = bn_get(f + *shim + 12, 2);
	return 0;
}

/* The MAC side: to the wire, or looped back into RX. */
static void mac_send(struct bnic *b, const uint8_t *f, size_t len)
{
	if (b->loopback) {
		bnic_rx_enqueue(b, f, len, 0);
		return;
	}
	if (b->cfg.trace)
		bnic_msg(b, "frame out: %zu bytes", len);
	if (b->cfg.tx)
		b->cfg.tx(b->cfg.ctx, f, len);
}

static void tx_one(struct bnic *b)
{
	struct bnic_queue *q = &b->txq;
	uint64_t da = q->base + (uint64_t)(q->cons & ((1u << q->size) - 1)) * INC_TXD_BYTES;
	uint8_t d[INC_TXD_BYTES];
	struct incw_tx_req req;
	uint32_t status, len;
	unsigned int shim, raw, body;
	size_t out_len = 0;
	int r;

	bnic_dma_read(b, da & ~(uint64_t)(INC_TXD_BYTES - 1), d, sizeof(d));
	len = bn_get(d + INC_TXD_LEN, 2);
	if ((len >> 14) || len < 14 || len > b->max_frame) {
		bnic_stat_add(b, INC_ST_TX_DESC_ERRORS, 1);
		status = INC_DESC_DONE | INC_TXS_ERROR;
		goto done;
	}
	bnic_dma_read(b, ((uint64_t)bn_get(d + INC_TXD_ADDR + 4, 4) << 32) |
		      bn_get(d + INC_TXD_ADDR, 4), b->frame, len);
	memset(&req, 0, sizeof(req));
	req.compress = bn_get(d + INC_TXD_FLAGS, 2) & INC_TXD_COMPRESS;
	req.k = d[INC_TXD_K];
	req.mode = (enum inc_mode)d[INC_TXD_MODE];
	req.off = bn_get(d + INC_TXD_RANGE_OFF, 2);
	req.len = bn_get(d + INC_TXD_RANGE_LEN, 2);
	req.modes = bnic_modes(b);
	r = incw_tx(b->frame, len, &req, b->out, &out_len);
	status = INC_DESC_DONE | (uint32_t)r << INC_TXS_OUTCOME_SHIFT |
		 (uint32_t)(out_len & 0xffff);
	if (r == INCW_TX_COMPRESSED && !chunk_of(b->out, out_len, &shim, &raw, &body)) {
		status |= INC_TXS_COMPRESSED;
		if (b->cfg.engine_fault & BNIC_FAULT_TX)
			fault_in_frame(b->out, shim + INCW_SHIM_BYTES +
				       b->out[shim + 3] + req.off, body,
				       8u * b->cfg.lanes, shim + 6, shim);
		bnic_stat_add(b, INC_ST_TX_COMP_FRAMES, 1);
		bnic_stat_add(b, INC_ST_TX_COMP_IN_BYTES, req.len);
		bnic_stat_add(b, INC_ST_TX_COMP_OUT_BYTES, body);
		bnic_stat_add(b, INC_ST_TX_BYTES_SAVED, len - out_len);
	} else if (req.compress) {
		bnic_stat_add(b, INC_ST_TX_COMP_SKIPPED, 1);
	}
#ifdef BNIC_MUTANT
	/* a deliberately wrong model, built only for tests/sim/beh's
	 * diff-models, which must tell it from the RTL: one bit of the third
	 * compressed frame */
	if (r == INCW_TX_COMPRESSED && ++b->mutant == 3)
		b->out[out_len - 1] ^= 0x10;
#endif
	bnic_stat_add(b, INC_ST_TX_FRAMES, 1);
	bnic_stat_add(b, INC_ST_TX_BYTES, out_len);
	mac_send(b, b->out, out_len);
	b->tx_sent++;
	/* the bridge hangs at the next request (incsim reports it) */
	if (b->stall_after && b->tx_sent >= b->stall_after)
		b->stalled = 1;
done:
	bn_put(d + INC_TXD_STATUS, status, 4);
	bnic_dma_write(b, da + INC_TXD_STATUS, d + INC_TXD_STATUS, 4);
	q->cons++;
	bnic_event(b, INC_IRQ_TX);
}

int bnic_tx_run(struct bnic *b)
{
	int n = 0;

	while (bnic_tx_work(b) && n < 64) {
		tx_one(b);
		n++;
	}
	return n;
}

/* ---- RX (nic_rx) ---- */

int bnic_rx_work(const struct bnic *b)
{
	return b->rx_n && !b->stalled;
}

void bnic_rx_flush(struct bnic *b)
{
	while (b->rx_n) {
		free(b->rxf[b->rx_head].data);
		b->rxf[b->rx_head].data = NULL;
		b->rx_head = (b->rx_head + 1) % BNIC_RX_FRAMES;
		b->rx_n--;
	}
	b->rx_queued = 0;
}

/* ingress: counted, dropped (MAC error, too long; RX off, no room) or
 * queued for the engine */
void bnic_rx_enqueue(struct bnic *b, const uint8_t *f, size_t len, int bad)
{
	size_t beat = 4u * b->cfg.lanes, words = (len + beat - 1) / beat;
	struct bnic_rxf *x;

	bnic_stat_add(b, INC_ST_RX_FRAMES, 1);
	bnic_stat_add(b, INC_ST_RX_BYTES, len > 0x3fff ? 0x3fff : len);
	if (bad || !len || len > b->max_frame) {
		bnic_stat_add(b, INC_ST_RX_DROP_MAC, 1);
		return;
	}
	if (!b->rx_en || b->rx_n == BNIC_RX_FRAMES ||
	    (b->rx_queued + words + 1) * beat > BNIC_RX_RING) {
		bnic_stat_add(b, INC_ST_RX_DROP_NO_BUFFER, 1);
		return;
	}
	x = &b->rxf[(b->rx_head + b->rx_n) % BNIC_RX_FRAMES];
	x->data = malloc(len);
	if (!x->data) {
		bnic_stat_add(b, INC_ST_RX_DROP_NO_BUFFER, 1);
		return;
	}
	memcpy(x->data, f, len);
	x->len = len;
	b->rx_n++;
	b->rx_queued += words;
}

/* The head frame through the engine: dropped or delivered. */
static void rx_one(struct bnic *b)
{
	struct bnic_rxf *x = &b->rxf[b->rx_head];
	size_t beat = 4u * b->cfg.lanes;
	struct bnic_queue *q = &b->rxq;
	unsigned int shim = 0, raw = 0, body = 0;
	uint8_t d[INC_RXD_BYTES];
	size_t out_len = 0;
	uint64_t da;
	int r, restored;

	r = incw_rx(x->data, x->len, bnic_modes(b), b->out, &out_len);
	restored = r == INCW_RX_RESTORED;
	if (restored)
		chunk_of(x->data, x->len, &shim, &raw, &body);
	if (r != INCW_RX_PASS && !restored) {
		bnic_stat_add(b, INC_ST_RX_DROP_MALFORMED, 1);
		goto next;
	}
	/* no buffer posted, or bus mastering off (nic_rx: no descriptor is
	 * read then, and a frame takes none) */
	if (!b->rx_en || !b->dma_on || q->prod == q->cons) {
		bnic_stat_add(b, INC_ST_RX_DROP_NO_BUFFER, 1);
		goto next;
	}
	da = q->base + (uint64_t)(q->cons & ((1u << q->size) - 1)) * INC_RXD_BYTES;
	bnic_dma_read(b, da, d, sizeof(d));
	if (bn_get(d + INC_RXD_BUF_LEN, 2) < out_len) {
		/* too small: not used */
		bnic_stat_add(b, INC_ST_RX_DROP_NO_BUFFER, 1);
		goto next;
	}
	if (restored && (b->cfg.engine_fault & BNIC_FAULT_RX)) {
		struct incw_frame fr;
		size_t roff = (size_t)x->data[shim + 4] << 8 | x->data[shim + 5];

		incw_parse(b->out, out_len, &fr);
		if (fr.pay_off + roff + raw <= out_len) {
			size_t csum = fr.l4_off + (fr.proto == 6 ? 16 : 6);

			if (b->out[csum] || b->out[csum + 1])
				fault_in_frame(b->out, fr.pay_off + roff, raw, beat,
					       csum, fr.l4_off);
		}
	}
	bnic_dma_write(b, ((uint64_t)bn_get(d + 4, 4) << 32) | bn_get(d, 4),
		       b->out, out_len);
	bn_put(d + INC_RXD_LEN, (uint32_t)out_len, 2);
	bn_put(d + INC_RXD_STATUS, INC_DESC_DONE | (restored ? INC_RXS_RESTORED : 0), 4);
	bnic_dma_write(b, da + INC_RXD_BUF_LEN, d + INC_RXD_BUF_LEN, 8);
	q->cons++;
	bnic_stat_add(b, INC_ST_RX_DELIVERED, 1);
	bnic_stat_add(b, INC_ST_RX_DELIVERED_BYTES, out_len);
	if (restored) {
		bnic_stat_add(b, INC_ST_RX_DECOMP_FRAMES, 1);
		bnic_stat_add(b, INC_ST_RX_DECOMP_IN_BYTES, body);
		bnic_stat_add(b, INC_ST_RX_DECOMP_OUT_BYTES, raw);
	}
	bnic_event(b, INC_IRQ_RX);
next:
	b->rx_queued -= (x->len + beat - 1) / beat;
	free(x->data);
	x->data = NULL;
	b->rx_head = (b->rx_head + 1) % BNIC_RX_FRAMES;
	b->rx_n--;
}

int bnic_rx_run(struct bnic *b)
{
	int n = 0;

	while (bnic_rx_work(b) && n < 64) {
		rx_one(b);
		n++;
	}
	return n;
}
