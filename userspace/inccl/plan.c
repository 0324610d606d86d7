// SPDX-License-Identifier: MIT
/*
 * Plans: each collective, for each algorithm, compiled into the operations
 * of every link of this rank, in the order they travel on that link. Every
 * rank computes the same schedule, so a receiver knows what each slice is
 * and where it goes; docs/inccl.md draws them.
 *
 * An operation is one slice (at most c->slice floats) of one segment. A
 * send may depend on a receive (forwarding what was received) and a
 * receive on a send (its destination is a FIFO slot still being sent) or
 * on another receive (the fixed summation order of the aggregator).
 */
#include <stdlib.h>
#include <string.h>

#include "inccl_int.h"

struct op *ic_op_add(struct oplist *l)
{
	struct op *o;

	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 64;
		struct op *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	o = &l->v[l->n++];
	memset(o, 0, sizeof(*o));
	o->dep[0].link = o->dep[1].link = -1;
	return o;
}

struct planner {
	struct inccl_comm *c;
	const struct call *call;
	int oom;
};

static struct op *add(struct planner *p, int link, int dir, int kind,
		      uint32_t n)
{
	struct inccl_link *l = &p->c->links[link];
	struct op *o = ic_op_add(dir == DIR_SEND ? &l->sendq : &l->recvq);

	if (!o) {
		p->oom = 1;
		return NULL;
	}
	o->kind = (uint8_t)kind;
	o->n = n;
	return o;
}

static void dep(struct op *o, int i, int link, int dir, uint32_t idx)
{
	if (!o)
		return;
	o->dep[i].link = (int16_t)link;
	o->dep[i].dir = (uint8_t)dir;
	o->dep[i].idx = idx;
}

static uint32_t nsend(const struct inccl_comm *c, int link)
{
	return c->links[link].sendq.n;
}

static uint32_t nrecv(const struct inccl_comm *c, int link)
{
	return c->links[link].recvq.n;
}

/* segment g of an all-reduce of count values: sizes differ by at most 1 */
static void ar_seg(uint64_t count, int N, int g, size_t *off, size_t *len)
{
	size_t base = (size_t)(count / (uint64_t)N);
	size_t rem = (size_t)(count % (uint64_t)N);

	*off = (size_t)g * base + ((size_t)g < rem ? (size_t)g : rem);
	*len = base + ((size_t)g < rem);
}

static size_t nslices(const struct inccl_comm *c, size_t len)
{
	return (len + c->slice - 1) / c->slice;
}

static uint32_t slice_len(const struct inccl_comm *c, size_t len, size_t s)
{
	size_t left = len - s * c->slice;

	return (uint32_t)(left < c->slice ? left : c->slice);
}

static int md(int a, int N)
{
	return ((a % N) + N) % N;
}

/* send kind of data this rank contributes, and of forwarded data */
static int grid_kind(const struct planner *p)
{
	return p->call->exact ? OP_SEND_RAW : OP_SEND_GRID;
}

/*
 * Ring all-reduce in W (= recvbuf, holding this rank's input): 2(N-1)
 * steps; at step i < N-1 (reduce-scatter) send segment r-i-1 and add the
 * received segment r-i-2 into W; at step N-1+t (all-gather) send segment
 * r-t (t = 0: the one this rank finished, quantized in place) and copy
 * the received segment r-t-1. What is sent at step i+1 is what was
 * received at step i.
 */
static void ring_allreduce(struct planner *p, float *W)
{
	struct inccl_comm *c = p->c;
	int N = c->world, r = c->rank, i, steps = 2 * (N - 1);
	uint32_t prev_base = 0;

	for (i = 0; i < steps; i++) {
		int ag = i >= N - 1, t = i - (N - 1);
		int sseg = ag ? md(r - t, N) : md(r - i - 1, N);
		int rseg = ag ? md(r - t - 1, N) : md(r - i - 2, N);
		size_t off, len, s;
		uint32_t base = nrecv(c, c->prev);

		ar_seg(p->call->count, N, sseg, &off, &len);
		for (s = 0; s < nslices(c, len); s++) {
			size_t o = off + s * c->slice;
			struct op *op = add(p, c->next, DIR_SEND, grid_kind(p),
					    slice_len(c, len, s));

			if (!op)
				return;
			op->src = W + o;
			op->ef_off = o;
			if (!ag) {
				/* this rank's own quantization of a partial sum */
				op->flags = OPF_EFREC;
			} else if (t == 0) {
				/* of the total: everyone must end with Q of it */
				op->buf = W + o;
				op->flags = OPF_EFREC;
			} else {
				op->flags = OPF_ONGRID;
			}
			if (i)
				dep(op, 0, c->prev, DIR_RECV, prev_base + (uint32_t)s);
		}
		ar_seg(p->call->count, N, rseg, &off, &len);
		for (s = 0; s < nslices(c, len); s++) {
			struct op *op = add(p, c->prev, DIR_RECV,
					    ag ? OP_RECV_COPY : OP_RECV_ACCUM,
					    slice_len(c, len, s));

			if (!op)
				return;
			op->buf = W + off + s * c->slice;
			op->flags = OPF_FROMGRID;
		}
		prev_base = base;
	}
}

/*
 * Ring reduce-scatter of blocks of cnt values: N-1 steps; step 0 sends
 * block r-1 from sendbuf, step i sends what step i-1 received plus this
 * rank's block; partial sums wait in a FIFO of INCCL_FIFO_SLICES slices,
 * the last step's sum goes to recvbuf (block r).
 */
static void ring_reducescatter(struct planner *p, const float *in, float *out)
{
	struct inccl_comm *c = p->c;
	int N = c->world, r = c->rank, i;
	size_t cnt = (size_t)p->call->count, ns = nslices(c, cnt), s;
	uint32_t prev_base = 0, j = 0;
	/* the send op that consumes each FIFO use, for slot reuse */
	uint32_t *consumer = NULL;
	size_t fifo_uses = (size_t)(N > 2 ? N - 2 : 0) * ns;

	if (fifo_uses) {
		consumer = malloc(fifo_uses * sizeof(*consumer));
		if (!consumer) {
			p->oom = 1;
			return;
		}
	}
	for (i = 0; i < N - 1; i++) {
		int sseg = md(r - i - 1, N), rseg = md(r - i - 2, N);
		uint32_t base = nrecv(c, c->prev);

		for (s = 0; s < ns; s++) {
			uint32_t n = slice_len(c, cnt, s);
			struct op *op = add(p, c->next, DIR_SEND, grid_kind(p), n);

			if (!op)
				goto out;
			op->flags = OPF_EFREC;
			if (i == 0) {
				op->src = in + (size_t)sseg * cnt + s * c->slice;
				op->ef_off = (size_t)sseg * cnt + s * c->slice;
				op->flags |= OPF_EFIN;
			} else {
				/* FIFO use (i - 1) * ns + s, received at step i-1 */
				size_t u = (size_t)(i - 1) * ns + s;
				float *slot = c->fifo + (u % INCCL_FIFO_SLICES) * c->slice;

				op->src = slot;
				op->ef_off = (size_t)sseg * cnt + s * c->slice;
				consumer[u] = nsend(c, c->next) - 1;
				dep(op, 0, c->prev, DIR_RECV, prev_base + (uint32_t)s);
			}
		}
		for (s = 0; s < ns; s++) {
			uint32_t n = slice_len(c, cnt, s);
			struct op *op = add(p, c->prev, DIR_RECV,
					    OP_RECV_ACCUM_FROM, n);

			if (!op)
				goto out;
			op->src = in + (size_t)rseg * cnt + s * c->slice;
			op->ef_off = (size_t)rseg * cnt + s * c->slice;
			op->flags = OPF_EFIN | OPF_FROMGRID;
			if (i == N - 2) {
				op->buf = out + s * c->slice;
			} else {
				op->buf = c->fifo + (j % INCCL_FIFO_SLICES) * c->slice;
				/* its consumers are planned one step later: the
				 * slot's previous use was consumed by then */
				j++;
			}
		}
		prev_base = base;
	}
	/* slot reuse: FIFO use u waits for the send of use u - FIFO_SLICES */
	if (fifo_uses > INCCL_FIFO_SLICES) {
		struct oplist *rq = &c->links[c->prev].recvq;
		size_t u;

		for (u = INCCL_FIFO_SLICES; u < fifo_uses; u++) {
			/* use u is recv op u (steps 0..N-3 come first) */
			dep(&rq->v[u], 0, c->next, DIR_SEND,
			    consumer[u - INCCL_FIFO_SLICES]);
		}
	}
out:
	free(consumer);
}

/*
 * Ring all-gather (blocks of cnt) and the barrier: N-1 steps; step t sends
 * block r-t (t = 0: this rank's, quantized in place) and copies block
 * r-t-1 from the previous rank.
 */
static void ring_allgather(struct planner *p, float *W)
{
	struct inccl_comm *c = p->c;
	int N = c->world, r = c->rank, t;
	size_t cnt = (size_t)p->call->count, ns = nslices(c, cnt), s;
	uint32_t prev_base = 0;

	for (t = 0; t < N - 1; t++) {
		int sseg = md(r - t, N), rseg = md(r - t - 1, N);
		uint32_t base = nrecv(c, c->prev);

		for (s = 0; s < ns; s++) {
			struct op *op = add(p, c->next, DIR_SEND, grid_kind(p),
					    slice_len(c, cnt, s));

			if (!op)
				return;
			op->src = W + (size_t)sseg * cnt + s * c->slice;
			op->ef_off = s * c->slice;
			if (t == 0) {
				op->buf = W + (size_t)sseg * cnt + s * c->slice;
				op->flags = OPF_EFREC;
			} else {
				op->flags = OPF_ONGRID;
				dep(op, 0, c->prev, DIR_RECV, prev_base + (uint32_t)s);
			}
		}
		for (s = 0; s < ns; s++) {
			struct op *op = add(p, c->prev, DIR_RECV, OP_RECV_COPY,
					    slice_len(c, cnt, s));

			if (!op)
				return;
			op->buf = W + (size_t)rseg * cnt + s * c->slice;
			op->flags = OPF_FROMGRID;
		}
		prev_base = base;
	}
}

/* Ring broadcast: a chain from the root around the ring, slice by slice. */
static void ring_broadcast(struct planner *p, float *W)
{
	struct inccl_comm *c = p->c;
	int N = c->world, d = md(c->rank - p->call->root, N);
	size_t cnt = (size_t)p->call->count, ns = nslices(c, cnt), s;

	for (s = 0; s < ns; s++) {
		uint32_t n = slice_len(c, cnt, s);
		float *w = W + s * c->slice;
		struct op *op;

		if (d > 0) {
			op = add(p, c->prev, DIR_RECV, OP_RECV_COPY, n);
			if (!op)
				return;
			op->buf = w;
			op->flags = OPF_FROMGRID;
		}
		if (d < N - 1) {
			op = add(p, c->next, DIR_SEND, grid_kind(p), n);
			if (!op)
				return;
			op->src = w;
			if (d == 0) {
				op->buf = w;	/* the root keeps Q too */
			} else {
				op->flags = OPF_ONGRID;
				dep(op, 0, c->prev, DIR_RECV, (uint32_t)s);
			}
		}
	}
}

/*
 * Worker-aggregator all-reduce: every worker sends its input (quantized)
 * to rank 0; rank 0 adds them in rank order into its own input and sends
 * the sum back, exact.
 */
static void wa_allreduce(struct planner *p, float *W)
{
	struct inccl_comm *c = p->c;
	int N = c->world, w;
	size_t cnt = (size_t)p->call->count, ns = nslices(c, cnt), s;

	for (s = 0; s < ns; s++) {
		uint32_t n = slice_len(c, cnt, s);
		float *x = W + s * c->slice;
		struct op *op;

		if (c->rank) {
			op = add(p, 0, DIR_SEND, grid_kind(p), n);
			if (!op)
				return;
			op->src = x;
			op->ef_off = s * c->slice;
			op->flags = OPF_EFREC;
			op = add(p, 0, DIR_RECV, OP_RECV_COPY, n);
			if (!op)
				return;
			op->buf = x;
			continue;
		}
		for (w = 1; w < N; w++) {
			op = add(p, w - 1, DIR_RECV, OP_RECV_ACCUM, n);
			if (!op)
				return;
			op->buf = x;
			op->flags = OPF_FROMGRID;
			if (w > 1)
				dep(op, 0, w - 2, DIR_RECV, (uint32_t)s);
		}
		for (w = 1; w < N; w++) {
			op = add(p, w - 1, DIR_SEND, OP_SEND_RAW, n);
			if (!op)
				return;
			op->src = x;
			dep(op, 0, N - 2, DIR_RECV, (uint32_t)s);
		}
	}
}

/* Worker-aggregator reduce-scatter: like all-reduce, block b back to b. */
static void wa_reducescatter(struct planner *p, const float *in, float *out)
{
	struct inccl_comm *c = p->c;
	int N = c->world, w, b;
	size_t cnt = (size_t)p->call->count, ns = nslices(c, cnt), s;
	uint32_t j = 0, u = 0;
	/* FIFO slot -> the send op (link, index) that last used it */
	int slot_link[INCCL_FIFO_SLICES];
	uint32_t slot_idx[INCCL_FIFO_SLICES];

	for (s = 0; s < INCCL_FIFO_SLICES; s++)
		slot_link[s] = -1;
	for (b = 0; b < N; b++) {
		for (s = 0; s < ns; s++, j++) {
			uint32_t n = slice_len(c, cnt, s);
			size_t o = (size_t)b * cnt + s * c->slice;
			struct op *op;
			float *t;

			if (c->rank) {
				op = add(p, 0, DIR_SEND, grid_kind(p), n);
				if (!op)
					return;
				op->src = in + o;
				op->ef_off = o;
				op->flags = OPF_EFIN | OPF_EFREC;
				if (b == c->rank) {
					op = add(p, 0, DIR_RECV, OP_RECV_COPY, n);
					if (!op)
						return;
					op->buf = out + s * c->slice;
				}
				continue;
			}
			if (b == 0) {
				t = out + s * c->slice;
			} else {
				t = c->fifo + (u % INCCL_FIFO_SLICES) * c->slice;
			}
			for (w = 1; w < N; w++) {
				op = add(p, w - 1, DIR_RECV,
					 w == 1 ? OP_RECV_ACCUM_FROM : OP_RECV_ACCUM, n);
				if (!op)
					return;
				op->buf = t;
				op->flags = OPF_FROMGRID;
				if (w == 1) {
					op->src = in + o;
					op->ef_off = o;
					op->flags |= OPF_EFIN;
					if (b && slot_link[u % INCCL_FIFO_SLICES] >= 0)
						dep(op, 0, slot_link[u % INCCL_FIFO_SLICES],
						    DIR_SEND, slot_idx[u % INCCL_FIFO_SLICES]);
				} else {
					dep(op, 0, w - 2, DIR_RECV, j);
				}
			}
			if (b) {
				op = add(p, b - 1, DIR_SEND, OP_SEND_RAW, n);
				if (!op)
					return;
				op->src = t;
				dep(op, 0, N - 2, DIR_RECV, j);
				slot_link[u % INCCL_FIFO_SLICES] = b - 1;
				slot_idx[u % INCCL_FIFO_SLICES] = nsend(c, b - 1) - 1;
				u++;
			}
		}
	}
}

/*
 * Worker-aggregator all-gather: each worker sends its block (quantized in
 * place) to rank 0, which sends every worker the blocks it lacks, exact.
 */
static void wa_allgather(struct planner *p, float *W)
{
	struct inccl_comm *c = p->c;
	int N = c->world, w, b;
	size_t cnt = (size_t)p->call->count, ns = nslices(c, cnt), s;

	if (c->rank) {
		for (s = 0; s < ns; s++) {
			size_t o = (size_t)c->rank * cnt + s * c->slice;
			struct op *op = add(p, 0, DIR_SEND, grid_kind(p),
					    slice_len(c, cnt, s));

			if (!op)
				return;
			op->src = W + o;
			op->buf = W + o;
			op->ef_off = s * c->slice;
			op->flags = OPF_EFREC;
		}
		for (b = 0; b < N; b++) {
			if (b == c->rank)
				continue;
			for (s = 0; s < ns; s++) {
				struct op *op = add(p, 0, DIR_RECV, OP_RECV_COPY,
						    slice_len(c, cnt, s));

				if (!op)
					return;
				op->buf = W + (size_t)b * cnt + s * c->slice;
			}
		}
		return;
	}
	for (w = 1; w < N; w++) {
		for (s = 0; s < ns; s++) {
			struct op *op = add(p, w - 1, DIR_RECV, OP_RECV_COPY,
					    slice_len(c, cnt, s));

			if (!op)
				return;
			op->buf = W + (size_t)w * cnt + s * c->slice;
			op->flags = OPF_FROMGRID;
		}
	}
	for (w = 1; w < N; w++) {
		for (b = 0; b < N; b++) {
			if (b == w)
				continue;
			for (s = 0; s < ns; s++) {
				struct op *op = add(p, w - 1, DIR_SEND, OP_SEND_RAW,
						    slice_len(c, cnt, s));

				if (!op)
					return;
				op->src = W + (size_t)b * cnt + s * c->slice;
				if (b)
					dep(op, 0, b - 1, DIR_RECV, (uint32_t)s);
			}
		}
	}
}

/* Worker-aggregator broadcast: root -> rank 0 (quantized), 0 -> all exact. */
static void wa_broadcast(struct planner *p, float *W)
{
	struct inccl_comm *c = p->c;
	int N = c->world, R = p->call->root, w;
	size_t cnt = (size_t)p->call->count, ns = nslices(c, cnt), s;

	for (s = 0; s < ns; s++) {
		uint32_t n = slice_len(c, cnt, s);
		float *x = W + s * c->slice;
		struct op *op;

		if (c->rank == 0) {
			if (R) {
				op = add(p, R - 1, DIR_RECV, OP_RECV_COPY, n);
				if (!op)
					return;
				op->buf = x;
				op->flags = OPF_FROMGRID;
			}
			for (w = 1; w < N; w++) {
				if (w == R)
					continue;
				op = add(p, w - 1, DIR_SEND, OP_SEND_RAW, n);
				if (!op)
					return;
				op->src = x;
				if (R)
					dep(op, 0, R - 1, DIR_RECV, (uint32_t)s);
			}
		} else if (c->rank == R) {
			op = add(p, 0, DIR_SEND, grid_kind(p), n);
			if (!op)
				return;
			op->src = x;
			op->buf = x;
		} else {
			op = add(p, 0, DIR_RECV, OP_RECV_COPY, n);
			if (!op)
				return;
			op->buf = x;
		}
	}
}

int ic_plan(struct inccl_comm *c, struct call *call, const float *sendbuf,
	    float *recvbuf)
{
	struct planner p = { .c = c, .call = call };
	int ring = c->cfg.algo == INCCL_RING, i;

	for (i = 0; i < c->nlinks; i++) {
		c->links[i].sendq.n = 0;
		c->links[i].recvq.n = 0;
	}
	switch (call->coll) {
	case INCCL_COLL_ALLREDUCE:
		ring ? ring_allreduce(&p, recvbuf) : wa_allreduce(&p, recvbuf);
		break;
	case INCCL_COLL_REDUCESCATTER:
		ring ? ring_reducescatter(&p, sendbuf, recvbuf) :
		       wa_reducescatter(&p, sendbuf, recvbuf);
		break;
	case INCCL_COLL_ALLGATHER:
	case INCCL_COLL_BARRIER:
		ring ? ring_allgather(&p, recvbuf) : wa_allgather(&p, recvbuf);
		break;
	case INCCL_COLL_BROADCAST:
		ring ? ring_broadcast(&p, recvbuf) : wa_broadcast(&p, recvbuf);
		break;
	}
	return p.oom ? ic_err(INCCL_ENOMEM, "out of memory (plan)") : 0;
}
