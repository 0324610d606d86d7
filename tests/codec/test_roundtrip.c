// SPDX-License-Identifier: MIT
/*
 * Randomized round trips: every k, every mode, chunk lengths 0..9000 bytes
 * (multiples of 4 or not), value mixes that reach every class. Each
 * implementation's body must equal the independent reference encoder's,
 * decode back identically, and hold the bound. Then the same through the
 * file API with assorted chunk sizes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inccodec.h"
#include "testlib.h"

#define ITERS_PER_K	300

static float make_value(struct rng *r, unsigned int k, int dist)
{
	double eb = ldexp(1.0, -(int)k);
	uint32_t b;
	float f;

	switch (dist) {
	case 0:		/* mostly below the bound, like real gradients */
		return (float)(rng_gauss(r) * eb * 0.3);
	case 1:		/* around the Q8 range */
		return (float)(rng_gauss(r) * eb * 60);
	case 2:		/* around the Q16 range */
		return (float)(rng_gauss(r) * eb * 20000);
	case 3:		/* any bit pattern: NaN, Inf, subnormals, huge */
		b = (uint32_t)rng_next(r);
		memcpy(&f, &b, 4);
		return f;
	case 4:		/* exact ties between quantizer steps */
		return (float)(((double)rng_below(r, 70000) - 35000 + 0.5) * 2 * eb);
	default:	/* a wide log-uniform spread */
		return (float)((rng_next(r) & 1 ? -1 : 1) *
			       ldexp(rng_unit(r) + 1, (int)rng_below(r, 60) - 40));
	}
}

static void fill(struct rng *r, uint8_t *buf, size_t len, unsigned int k)
{
	size_t i;
	int dist = (int)rng_below(r, 7);

	for (i = 0; i + 4 <= len; i += 4) {
		/* dist 6: a mix, with runs of zeros for the sparse mask */
		int d = dist == 6 ? (int)rng_below(r, 6) : dist;
		float f = make_value(r, k, d);

		if (dist == 6 && (i / 32) % 3 == 0)
			f = 0;
		memcpy(buf + i, &f, 4);
	}
	for (; i < len; i++)
		buf[i] = (uint8_t)rng_next(r);
}

static int chunk_case(const char *const *impls, struct rng *r, unsigned int k,
		      int mode, size_t len, uint8_t *raw)
{
	uint8_t ref[10000], body[10000], dec[9100], dec0[9100];
	size_t ref_len, body_len, i;
	int bad = 0;

	fill(r, raw, len, k);
	ref_len = ref_encode_body(raw, len, k, mode, ref);
	if (ref_len > inc_chunk_bound(len, mode))
		bad |= 1;
	for (i = 0; impls[i]; i++) {
		inc_impl_select(impls[i]);
		memset(body, 0xa5, sizeof(body));
		if (inc_chunk_encode(raw, len, k, mode, body, sizeof(body),
				     &body_len) ||
		    body_len != ref_len || memcmp(body, ref, ref_len))
			bad |= 2;
		memset(dec, 0x5a, sizeof(dec));
		if (inc_chunk_decode(ref, ref_len, len, k, mode, dec, len))
			bad |= 4;
		if (i == 0)
			memcpy(dec0, dec, len);
		else if (memcmp(dec, dec0, len))
			bad |= 8;
		if (dec[len] != 0x5a)
			bad |= 16;	/* wrote past raw_len */
	}
	if (t_check_bound(raw, dec0, len, k, NULL))
		bad |= 32;
	return bad;
}

static void file_case(const char *const *impls, struct rng *r, unsigned int k,
		      int mode, size_t len, unsigned int cb)
{
	uint8_t *raw = malloc(len + 1), *dec = malloc(len + 1), *f0 = NULL;
	size_t cap = inc_compress_bound(len, cb), flen, f0len = 0, dlen, i;
	uint8_t *f = malloc(cap);
	struct inc_params p = { .k = k, .mode = mode, .chunk_bytes = cb };
	int bad = 0;

	fill(r, raw, len, k);
	for (i = 0; impls[i]; i++) {
		inc_impl_select(impls[i]);
		if (inc_compress(raw, len, &p, f, cap, &flen) || flen > cap) {
			bad |= 1;
			continue;
		}
		if (!f0) {
			f0 = malloc(flen);
			memcpy(f0, f, flen);
			f0len = flen;
		} else if (flen != f0len || memcmp(f, f0, flen)) {
			bad |= 2;
		}
		if (inc_decompress(f, flen, dec, len, &dlen) || dlen != len ||
		    t_check_bound(raw, dec, len, k, NULL))
			bad |= 4;
	}
	t_ok(!bad, "file k=%u mode=%d len=%zu chunk=%u (%zu bytes, flags %#x)",
	     k, mode, len, cb, f0len, bad);
	free(raw);
	free(dec);
	free(f);
	free(f0);
}

int main(void)
{
	const char *const *impls = inc_impl_list();
	struct rng r = { 12345 };
	uint8_t raw[9100];
	unsigned int k;
	int mode, i;

	for (i = 0; impls[i]; i++)
		t_diag("implementation: %s", impls[i]);
	for (k = INC_K_MIN; k <= INC_K_MAX; k++) {
		for (mode = INC_MODE_PAPER; mode <= INC_MODE_WIDTH; mode++) {
			int fails = 0, flags = 0, it;

			for (it = 0; it < ITERS_PER_K; it++) {
				size_t len = it < 10 ? (size_t)it :
					     it < 20 ? INC_CHUNK_MAX_BYTES - (it - 10) :
					     rng_below(&r, INC_CHUNK_MAX_BYTES + 1);
				int b = chunk_case(impls, &r, k, mode, len, raw);

				fails += b != 0;
				flags |= b;
			}
			t_ok(!fails, "chunks k=%u mode=%s: %d of %d failed (flags %#x)",
			     k, mode == 1 ? "paper" : mode == 2 ? "sparse" : "width", fails,
			     ITERS_PER_K, flags);
		}
	}
	for (i = 0; i < 40; i++) {
		static const unsigned int cbs[] = { 0, 4, 36, 1000, 8192, 9000 };
		size_t len = i < 3 ? (size_t)i * 3 :
			     rng_below(&r, i < 20 ? 20000 : 300000);

		file_case(impls, &r, 1 + rng_below(&r, INC_K_MAX),
			  1 + (int)rng_below(&r, 3), len, cbs[i % 6]);
	}
	return t_done();
}
