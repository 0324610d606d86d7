/* SPDX-License-Identifier: MIT */
/*
 * Received floats against the original: the codec's guarantee is
 * |x - x'| <= 2^-k for every finite value (exact, real arithmetic) and
 * bit-exact Inf and NaN; this counts what misses it.
 */
#ifndef INCGRAD_VERIFY_H
#define INCGRAD_VERIFY_H

#include <stddef.h>
#include <stdint.h>

struct ig_vstats {
	uint64_t values;	/* float32 values compared */
	uint64_t not_exact;	/* bits differ (e.g. quantized, -0 -> +0) */
	uint64_t over_bound;	/* both finite, |x - x'| > 2^-k */
	uint64_t nonfinite_bad;	/* Inf/NaN on either side, bits differ */
	double max_abs_err;	/* largest |x - x'| over finite pairs */
};

/* Add len bytes (a multiple of 4) of values, error bound 2^-k. */
void ig_verify(struct ig_vstats *s, const uint8_t *orig, const uint8_t *got,
	       size_t len, unsigned int k);
static inline int ig_within_bound(const struct ig_vstats *s)
{
	return !s->over_bound && !s->nonfinite_bad;
}

/* Every value of the codec: the bits a value decodes to (the NIC's
 * effect, for --emulate-nic). */
void ig_codec_apply(uint8_t *buf, size_t len, unsigned int k);

#endif
