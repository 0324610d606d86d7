// SPDX-License-Identifier: MIT
/*
 * Transports: how one operation's floats become bytes on a link and back.
 *
 *   none  the floats, exact.
 *   nic   Q(floats) (inc_quantize), written while the socket is marked:
 *         the NIC compresses them losslessly (they are on the codec's grid)
 *         and the peer NIC restores them, so the receiver gets Q(floats)
 *         bit for bit however the stream is cut into frames.
 *   sw    the codec's chunks: for every 2048 floats an 8-byte chunk header
 *         (docs/codec.md section 6) and the body; the receiver decodes
 *         them, which gives Q(floats) bit for bit.
 *
 * Exact operations (OP_SEND_RAW, or a call with INCCL_EXACT) are the
 * floats themselves in every transport. Error feedback happens here too:
 * an op whose source is this rank's input adds the residual (and clears
 * it); an op that quantizes this rank's contribution records the new one.
 */
#include <string.h>

#include "inccl_int.h"
#include "inccodec.h"

/* a chunk's largest header + body, in any mode (paper's is below sparse's) */
static size_t chunk_wire_max(void)
{
	size_t s = inc_chunk_bound(INCCL_CHUNK_FLOATS * 4, INC_MODE_SPARSE);
	size_t w = inc_chunk_bound(INCCL_CHUNK_FLOATS * 4, INC_MODE_WIDTH);

	return INC_CHUNK_HDR_BYTES + (s > w ? s : w);
}

size_t ic_wire_bound(unsigned int floats)
{
	size_t chunks = (floats + INCCL_CHUNK_FLOATS - 1) / INCCL_CHUNK_FLOATS;

	/* + slack: the encoder may store 32 bytes past the last body */
	return chunks * chunk_wire_max() + 64;
}

static int coded(const struct inccl_comm *c, const struct call *call)
{
	return c->cfg.transport == INCCL_SW && !call->exact;
}

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* encode n floats at v into l->txbuf as chunk header + body records */
static size_t encode(struct inccl_comm *c, struct inccl_link *l,
		     const float *v, uint32_t n)
{
	uint8_t *out = l->txbuf;
	uint32_t i;

	for (i = 0; i < n; i += INCCL_CHUNK_FLOATS) {
		uint32_t m = n - i < INCCL_CHUNK_FLOATS ? n - i :
			     INCCL_CHUNK_FLOATS;
		struct inc_chunk_hdr h = {
			.mode = (uint8_t)c->cfg.mode, .k = (uint8_t)c->cfg.k,
			.raw_len = (uint16_t)(4 * m),
		};
		size_t blen = 0;
		uint8_t *body = out + INC_CHUNK_HDR_BYTES;

		/* the buffer is sized for the bound: this cannot fail */
		inc_chunk_encode(v + i, 4 * m, c->cfg.k, c->cfg.mode, body,
				 chunk_wire_max() + 64, &blen);
		if (blen >= 4 * m) {
			/* the stored rule (docs/codec.md), storing Q(v): the
			 * receiver gets Q whatever the chunk's encoding */
			float q[INCCL_CHUNK_FLOATS];

			inc_quantize(v + i, q, m, c->cfg.k);
			h.mode = INC_MODE_STORED;
			blen = 4 * m;
			memcpy(body, q, blen);
		}
		h.body_len = (uint16_t)blen;
		inc_chunk_hdr_pack(&h, out);
		out += INC_CHUNK_HDR_BYTES + blen;
	}
	return (size_t)(out - l->txbuf);
}

int ic_stage_send(struct inccl_comm *c, struct inccl_link *l,
		  const struct call *call, const struct op *op)
{
	float *r = call->ef ? call->ef->r + op->ef_off : NULL;
	float *tmp = l->txf, *qv = l->txf + c->slice;
	const float *v = op->src;
	uint32_t n = op->n, i;
	int grid = op->kind == OP_SEND_GRID && !call->exact &&
		   c->cfg.transport != INCCL_NONE;
	uint64_t t0 = 0;

	c->st.tx_float_bytes += 4 * (uint64_t)n;
	if (r && (op->flags & OPF_EFIN)) {
		for (i = 0; i < n; i++) {
			tmp[i] = v[i] + r[i];
			r[i] = 0;
		}
		v = tmp;
	}
	if (grid)
		t0 = ic_cpu_ns();
	/* sw encodes v itself: Q only when its values are kept somewhere */
	if (grid && !(op->flags & OPF_ONGRID) &&
	    (!coded(c, call) || op->buf || (r && (op->flags & OPF_EFREC)))) {
		if (r && (op->flags & OPF_EFREC)) {
			inc_quantize(v, qv, n, c->cfg.k);
			for (i = 0; i < n; i++)
				r[i] = f2u(v[i]) == f2u(qv[i]) ? 0 : v[i] - qv[i];
			if (op->buf)
				memcpy(op->buf, qv, 4 * (size_t)n);
			v = qv;
		} else if (op->buf) {
			inc_quantize(v, op->buf, n, c->cfg.k);
			v = op->buf;
		} else {
			inc_quantize(v, qv, n, c->cfg.k);
			v = qv;
		}
	}
	if (grid && coded(c, call)) {
		l->tx_left = encode(c, l, v, n);
		l->tx_ptr = l->txbuf;
	} else {
		l->tx_left = 4 * (size_t)n;
		l->tx_ptr = (const uint8_t *)v;
	}
	if (grid)
		if (t0)
		c->st.codec_ns += ic_cpu_ns() - t0;
	return 0;
}

int ic_op_coded(const struct inccl_comm *c, const struct call *call,
		const struct op *op)
{
	return coded(c, call) && (op->flags & OPF_FROMGRID);
}

/* COPY ops without dependencies land in place; the rest in l->rxf */
static float *rx_dst(struct inccl_link *l, const struct op *op)
{
	if (op->kind == OP_RECV_COPY && op->dep[0].link < 0 &&
	    op->dep[1].link < 0)
		return op->buf;
	return l->rxf;
}

/*
 * Take what the read-ahead buffer holds of op into its destination.
 * 0 (op complete when l->rx_got == 4 * op->n; else more bytes needed) or
 * a negative error.
 */
int ic_recv_fill(struct inccl_comm *c, struct inccl_link *l,
		 const struct call *call, const struct op *op)
{
	uint8_t *dst = (uint8_t *)rx_dst(l, op);
	size_t want = 4 * (size_t)op->n;
	uint64_t t0;

	if (!ic_op_coded(c, call, op)) {
		size_t avail = l->rx_wr - l->rx_rd, m = want - l->rx_got;

		if (m > avail)
			m = avail;
		memcpy(dst + l->rx_got, l->rxbuf + l->rx_rd, m);
		l->rx_rd += m;
		l->rx_got += m;
		return 0;
	}
	t0 = 0;
	while (l->rx_got < want) {
		size_t avail = l->rx_wr - l->rx_rd, raw = want - l->rx_got;
		const uint8_t *p = l->rxbuf + l->rx_rd;
		struct inc_chunk_hdr h;
		int r;

		if (raw > 4 * INCCL_CHUNK_FLOATS)
			raw = 4 * INCCL_CHUNK_FLOATS;
		if (avail < INC_CHUNK_HDR_BYTES)
			break;
		r = inc_chunk_hdr_parse(p, &h);
		if (r)
			return ic_fail(c, INCCL_EPROTO,
				       "%s sent a malformed chunk header in call #%u: %s",
				       c->names[l->peer], c->seq, inc_strerror(r));
		if (h.raw_len != raw || h.k != c->cfg.k ||
		    (h.mode != c->cfg.mode && h.mode != INC_MODE_STORED))
			return ic_fail(c, INCCL_EPROTO,
				       "%s sent an unexpected chunk in call #%u: mode %u k %u raw_len %u (expected mode %u k %u raw_len %zu)",
				       c->names[l->peer], c->seq, h.mode, h.k,
				       h.raw_len, c->cfg.mode, c->cfg.k, raw);
		if (avail < INC_CHUNK_HDR_BYTES + (size_t)h.body_len)
			break;
		if (!t0)
			t0 = ic_cpu_ns();
		r = inc_chunk_decode(p + INC_CHUNK_HDR_BYTES, h.body_len, raw,
				     h.k, (enum inc_mode)h.mode, dst + l->rx_got, raw);
		if (r)
			return ic_fail(c, INCCL_EPROTO,
				       "%s sent a chunk that does not decode in call #%u: %s",
				       c->names[l->peer], c->seq, inc_strerror(r));
		l->rx_rd += INC_CHUNK_HDR_BYTES + h.body_len;
		l->rx_got += raw;
	}
	if (t0)
		c->st.codec_ns += ic_cpu_ns() - t0;
	return 0;
}

/* The sums, in blocks of 8 that -ftree-vectorize turns into vector adds. */
static void add_in(float *restrict d, const float *restrict a, uint32_t n)
{
	uint32_t i = 0, j;

	for (; i + 8 <= n; i += 8)
		for (j = 0; j < 8; j++)
			d[i + j] = d[i + j] + a[i + j];
	for (; i < n; i++)
		d[i] = d[i] + a[i];
}

static void add_to(float *restrict d, const float *restrict a,
		   const float *restrict b, uint32_t n)
{
	uint32_t i = 0, j;

	for (; i + 8 <= n; i += 8)
		for (j = 0; j < 8; j++)
			d[i + j] = a[i + j] + b[i + j];
	for (; i < n; i++)
		d[i] = a[i] + b[i];
}

void ic_apply(struct inccl_comm *c, struct inccl_link *l,
	      const struct call *call, const struct op *op)
{
	const float *restrict in = rx_dst(l, op);
	const float *restrict src = op->src;
	float *restrict buf = op->buf, *restrict r;
	uint32_t n = op->n, i;
	uint64_t t0 = ic_cpu_ns();

	switch (op->kind) {
	case OP_RECV_COPY:
		if (in != buf)
			memcpy(buf, in, 4 * (size_t)n);
		break;
	case OP_RECV_ACCUM:
		add_in(buf, in, n);
		break;
	case OP_RECV_ACCUM_FROM:
		r = call->ef && (op->flags & OPF_EFIN) ? call->ef->r + op->ef_off :
		    NULL;
		if (r) {
			for (i = 0; i < n; i++) {
				buf[i] = (src[i] + r[i]) + in[i];
				r[i] = 0;
			}
		} else {
			add_to(buf, src, in, n);
		}
		break;
	}
	c->st.reduce_ns += ic_cpu_ns() - t0;
}
