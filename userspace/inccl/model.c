// SPDX-License-Identifier: MIT
/*
 * The reference model of docs/inccl.md ("What every rank receives"),
 * deliberately simple: one element at a time, every rank's view in one
 * process. Q is the codec's quantizer (inc_quantize, the golden model's).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inccl.h"
#include "inccodec.h"
#include "model.h"

struct m {
	const struct im_params *p;
	int lossy;
	float *const *ef;
};

static uint32_t bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* rank r's input element i, with its residual added (and consumed) */
static float take(struct m *m, const float *const *in, int r, size_t i)
{
	float x = in[r][i];

	if (m->ef) {
		x = x + m->ef[r][i];
		m->ef[r][i] = 0;
	}
	return x;
}

/* Q(v) as rank r sends it, recording r's residual at element i */
static float quant(struct m *m, int r, size_t i, float v)
{
	float q;

	if (!m->lossy)
		return v;
	inc_quantize(&v, &q, 1, m->p->k);
	if (m->ef)
		m->ef[r][i] = bits(v) == bits(q) ? 0 : v - q;
	return q;
}

static void seg(size_t count, int N, int g, size_t *off, size_t *len)
{
	size_t base = count / (size_t)N, rem = count % (size_t)N;

	*off = (size_t)g * base + ((size_t)g < rem ? (size_t)g : rem);
	*len = base + ((size_t)g < rem);
}

/*
 * Ring reduction of element i (index i of every rank's input) owned by
 * rank g: ranks g+1, g+2, ..., g add in that order; every sender
 * quantizes its partial sum; the owner quantizes the total when final_q.
 */
static float ring_sum(struct m *m, const float *const *in, int g, size_t i,
		      int final_q)
{
	int N = m->p->world, j, o = (g + 1) % N;
	float acc = take(m, in, o, i);

	for (j = 1; j < N; j++) {
		float q = quant(m, o, i, acc);

		o = (g + 1 + j) % N;
		acc = take(m, in, o, i) + q;
	}
	return final_q ? quant(m, g, i, acc) : acc;
}

/* worker-aggregator: rank 0's input, then Q of each worker's in order */
static float wa_sum(struct m *m, const float *const *in, size_t i)
{
	float acc = take(m, in, 0, i);
	int w;

	for (w = 1; w < m->p->world; w++)
		acc = acc + quant(m, w, i, take(m, in, w, i));
	return acc;
}

int im_run(const struct im_params *p, int coll, const float *const *in,
	   float *const *ef, float *out, size_t count)
{
	struct m m = { .p = p, .ef = ef };
	int N = p->world, ring = p->algo == INCCL_RING, g, r;
	size_t i, off, len, total = count;

	m.lossy = p->transport != INCCL_NONE && !(p->flags & INCCL_EXACT);
	switch (coll) {
	case INCCL_COLL_ALLREDUCE:
		for (g = 0; g < N; g++) {
			seg(count, N, g, &off, &len);
			for (i = off; i < off + len; i++)
				out[i] = ring ? ring_sum(&m, in, g, i, 1) :
					 wa_sum(&m, in, i);
		}
		break;
	case INCCL_COLL_REDUCESCATTER:
		total = (size_t)N * count;
		for (g = 0; g < N; g++)
			for (i = (size_t)g * count; i < (size_t)(g + 1) * count; i++)
				out[i] = ring ? ring_sum(&m, in, g, i, 0) :
					 wa_sum(&m, in, i);
		break;
	case INCCL_COLL_ALLGATHER:
		total = (size_t)N * count;
		for (r = 0; r < N; r++) {
			for (i = 0; i < count; i++) {
				float x = take(&m, in, r, i);

				/* wa: rank 0's block never travels up */
				out[(size_t)r * count + i] =
					!ring && r == 0 ? x : quant(&m, r, i, x);
			}
		}
		break;
	case INCCL_COLL_BROADCAST:
		for (i = 0; i < count; i++) {
			float x = in[p->root][i];

			if (ring || p->root != 0)
				inc_quantize(&x, &x, m.lossy ? 1 : 0, p->k);
			out[i] = x;
		}
		break;
	default:
		return -1;
	}
	if ((p->flags & INCCL_AVG) &&
	    (coll == INCCL_COLL_ALLREDUCE || coll == INCCL_COLL_REDUCESCATTER))
		for (i = 0; i < total; i++)
			out[i] = out[i] / (float)N;
	return 0;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

float im_gen(uint64_t seed, int rank, size_t i)
{
	uint64_t h = mix(seed * 0x100000001b3ull ^ ((uint64_t)rank << 48) ^ i);
	int e = (int)(h % 23) - 20;
	float m = 1.0f + (float)((h >> 8) & 0xffff) / 65536.0f;
	float v = ldexpf(m, e);

	if (((h >> 32) & 15) == 0)
		v = 0;
	if (((h >> 36) & 255) == 0)
		v = ldexpf(m, 9);
	return (h >> 63) ? -v : v;
}
