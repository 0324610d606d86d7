// SPDX-License-Identifier: MIT
/*
 * The collectives: argument checks, the input copy (with error feedback's
 * residual), the plan, the engine, the average.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inccl_int.h"

static int begin(inccl_comm *c, const char *name)
{
	if (!c)
		return ic_err(INCCL_EINVAL, "%s: NULL communicator", name);
	if (c->failed)
		return ic_err(INCCL_EABORTED, "%s: the communicator failed earlier: %s",
			      name, c->failmsg);
	return 0;
}

static int overlaps(const float *a, size_t na, const float *b, size_t nb)
{
	return na && nb && a < b + nb && b < a + na;
}

/* dst = src (+ residual, cleared), n values */
static void take_input(const float *src, float *dst, size_t n, inccl_ef *ef,
		       size_t ef_off)
{
	float *r = ef ? ef->r + ef_off : NULL;
	size_t i;

	if (r) {
		for (i = 0; i < n; i++) {
			dst[i] = src[i] + r[i];
			r[i] = 0;
		}
	} else if (src != dst && n) {
		memcpy(dst, src, n * sizeof(float));
	}
}

static int run(inccl_comm *c, struct call *call, const float *sendbuf,
	       float *recvbuf)
{
	int r;

	c->seq++;
	r = ic_plan(c, call, sendbuf, recvbuf);
	if (r)
		return r;	/* nothing sent yet: the communicator is fine */
	r = ic_run(c, call);
	if (!r)
		c->st.calls++;
	return r;
}

static void average(float *v, size_t n, int world)
{
	float w = (float)world;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = v[i] / w;
}

static int check_ef(const char *name, const inccl_ef *ef, size_t want)
{
	if (ef && ef->count != want)
		return ic_err(INCCL_EINVAL, "%s: the error-feedback state has %zu values, the input %zu",
			      name, ef->count, want);
	return 0;
}

static int check_flags(const char *name, unsigned int flags, unsigned int ok)
{
	if (flags & ~ok)
		return ic_err(INCCL_EINVAL, "%s: unknown or unsupported flags 0x%x",
			      name, flags & ~ok);
	return 0;
}

static int check_count(const char *name, const inccl_comm *c, size_t count,
		       size_t mult)
{
	if (count > ((size_t)1 << 40) / mult / (size_t)c->world)
		return ic_err(INCCL_EINVAL, "%s: count %zu is too large", name, count);
	return 0;
}

int inccl_allreduce(inccl_comm *c, const float *sendbuf, float *recvbuf,
		    size_t count, unsigned int flags, inccl_ef *ef)
{
	struct call call = { .coll = INCCL_COLL_ALLREDUCE };
	int r = begin(c, "allreduce");

	if (r)
		return r;
	if ((r = check_flags("allreduce", flags, INCCL_AVG | INCCL_EXACT)) ||
	    (r = check_ef("allreduce", ef, count)) ||
	    (r = check_count("allreduce", c, count, 1)))
		return r;
	if (count && (!sendbuf || !recvbuf))
		return ic_err(INCCL_EINVAL, "allreduce: NULL buffer");
	if (sendbuf != recvbuf && overlaps(sendbuf, count, recvbuf, count))
		return ic_err(INCCL_EINVAL, "allreduce: the buffers overlap (in place needs sendbuf == recvbuf)");
	call.flags = (uint8_t)flags;
	call.count = count;
	call.exact = (flags & INCCL_EXACT) || c->cfg.transport == INCCL_NONE;
	call.ef = ef;
	take_input(sendbuf, recvbuf, count, ef, 0);
	r = run(c, &call, sendbuf, recvbuf);
	if (!r && (flags & INCCL_AVG))
		average(recvbuf, count, c->world);
	return r;
}

int inccl_reducescatter(inccl_comm *c, const float *sendbuf, float *recvbuf,
			size_t recvcount, unsigned int flags, inccl_ef *ef)
{
	struct call call = { .coll = INCCL_COLL_REDUCESCATTER };
	int r = begin(c, "reducescatter");

	if (r)
		return r;
	if ((r = check_flags("reducescatter", flags, INCCL_AVG | INCCL_EXACT)) ||
	    (r = check_count("reducescatter", c, recvcount, (size_t)c->world)))
		return r;
	if ((r = check_ef("reducescatter", ef, recvcount * (size_t)c->world)))
		return r;
	if (recvcount && (!sendbuf || !recvbuf))
		return ic_err(INCCL_EINVAL, "reducescatter: NULL buffer");
	if (overlaps(sendbuf, recvcount * (size_t)c->world, recvbuf, recvcount))
		return ic_err(INCCL_EINVAL, "reducescatter: the buffers overlap");
	call.flags = (uint8_t)flags;
	call.count = recvcount;
	call.exact = (flags & INCCL_EXACT) || c->cfg.transport == INCCL_NONE;
	call.ef = ef;
	r = run(c, &call, sendbuf, recvbuf);
	if (!r && (flags & INCCL_AVG))
		average(recvbuf, recvcount, c->world);
	return r;
}

int inccl_allgather(inccl_comm *c, const float *sendbuf, float *recvbuf,
		    size_t sendcount, unsigned int flags, inccl_ef *ef)
{
	struct call call = { .coll = INCCL_COLL_ALLGATHER };
	float *own;
	int r = begin(c, "allgather");

	if (r)
		return r;
	if ((r = check_flags("allgather", flags, INCCL_EXACT)) ||
	    (r = check_ef("allgather", ef, sendcount)) ||
	    (r = check_count("allgather", c, sendcount, 1)))
		return r;
	if (sendcount && (!sendbuf || !recvbuf))
		return ic_err(INCCL_EINVAL, "allgather: NULL buffer");
	own = recvbuf + (size_t)c->rank * sendcount;
	if (sendbuf != own &&
	    overlaps(sendbuf, sendcount, recvbuf, sendcount * (size_t)c->world))
		return ic_err(INCCL_EINVAL, "allgather: the buffers overlap (in place needs sendbuf == this rank's block of recvbuf)");
	call.flags = (uint8_t)flags;
	call.count = sendcount;
	call.exact = (flags & INCCL_EXACT) || c->cfg.transport == INCCL_NONE;
	call.ef = ef;
	take_input(sendbuf, own, sendcount, ef, 0);
	return run(c, &call, sendbuf, recvbuf);
}

int inccl_broadcast(inccl_comm *c, const float *sendbuf, float *recvbuf,
		    size_t count, int root, unsigned int flags)
{
	struct call call = { .coll = INCCL_COLL_BROADCAST };
	int r = begin(c, "broadcast");

	if (r)
		return r;
	if ((r = check_flags("broadcast", flags, INCCL_EXACT)) ||
	    (r = check_count("broadcast", c, count, 1)))
		return r;
	if (root < 0 || root >= c->world)
		return ic_err(INCCL_EINVAL, "broadcast: root %d is not a rank (0..%d)",
			      root, c->world - 1);
	if (count && (!recvbuf || (c->rank == root && !sendbuf)))
		return ic_err(INCCL_EINVAL, "broadcast: NULL buffer");
	if (c->rank == root && sendbuf != recvbuf &&
	    overlaps(sendbuf, count, recvbuf, count))
		return ic_err(INCCL_EINVAL, "broadcast: the buffers overlap (in place needs sendbuf == recvbuf)");
	call.flags = (uint8_t)flags;
	call.count = count;
	call.root = root;
	call.exact = (flags & INCCL_EXACT) || c->cfg.transport == INCCL_NONE;
	if (c->rank == root)
		take_input(sendbuf, recvbuf, count, NULL, 0);
	return run(c, &call, sendbuf, recvbuf);
}

int inccl_barrier(inccl_comm *c)
{
	struct call call = { .coll = INCCL_COLL_BARRIER, .count = 1, .exact = 1 };
	float tok[INCCL_WORLD_MAX] = { 0 };
	int r = begin(c, "barrier");

	if (r)
		return r;
	return run(c, &call, tok, tok);
}

/*
 * docs/inccl.md, "Error bound": with eb = 2^-k (0 when exact), u = 2^-24,
 * g(n) = n u / (1 - n u), a reduction over N ranks with q quantizations
 * on the way of each element is off the exact sum by at most
 *
 *	q eb + g(N - 1) (sum_abs + (N - 1) eb)
 *
 * and an average adds u |result| after dividing that by N.
 */
double inccl_bound(const inccl_comm *c, int coll, unsigned int flags,
		   double sum_abs, double result_abs)
{
	int N = c->world, ring = c->cfg.algo == INCCL_RING;
	int exact = (flags & INCCL_EXACT) || c->cfg.transport == INCCL_NONE;
	double eb = exact ? 0 : ldexp(1.0, -(int)c->cfg.k);
	double u = ldexp(1.0, -24), g = (N - 1) * u / (1 - (N - 1) * u);
	double q, b;

	switch (coll) {
	case INCCL_COLL_ALLREDUCE:
		q = ring ? N : N - 1;
		break;
	case INCCL_COLL_REDUCESCATTER:
		q = N - 1;
		break;
	case INCCL_COLL_ALLGATHER:
	case INCCL_COLL_BROADCAST:
		return eb;	/* one quantization, no sum */
	default:
		return 0;
	}
	b = q * eb + g * (sum_abs + (N - 1) * eb);
	if (flags & INCCL_AVG)
		b = b / N + u * result_abs;
	return b;
}
