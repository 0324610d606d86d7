/* SPDX-License-Identifier: MIT */
/*
 * The collectives' reference model: what docs/inccl.md says every rank
 * receives, computed in one process from every rank's input, with the
 * quantizations and fp32 additions in the documented places and order.
 * incbench and tests/inccl check the library against it bit for bit.
 */
#ifndef INCCL_MODEL_H
#define INCCL_MODEL_H

#include <stddef.h>
#include <stdint.h>

struct im_params {
	int world;
	int algo;		/* INCCL_RING, INCCL_WA */
	int transport;		/* INCCL_NONE: no quantization */
	unsigned int k;
	unsigned int flags;	/* INCCL_AVG, INCCL_EXACT */
	int root;		/* broadcast */
};

/*
 * in[r]: rank r's input (all-reduce: count values; reduce-scatter:
 * world * count; all-gather: count; broadcast: count, root only).
 * ef[r]: rank r's residuals (same size as its input), or ef == NULL:
 * consumed and updated as the library does. out: the result every rank
 * holds (reduce-scatter: world * count, block b is rank b's; all-gather:
 * world * count). coll is enum inccl_coll.
 */
int im_run(const struct im_params *p, int coll, const float *const *in,
	   float *const *ef, float *out, size_t count);

/*
 * Gradient-like test data, the same on every rank for (seed, rank, i):
 * magnitudes 2^-20 .. 2^3 with random signs, 1 in 16 exactly zero, 1 in
 * 256 around 2^9 (so every class of the codec appears at k = 10).
 */
float im_gen(uint64_t seed, int rank, size_t i);

#endif
