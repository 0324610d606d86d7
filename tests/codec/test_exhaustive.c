// SPDX-License-Identifier: MIT
/*
 * Every one of the 2^32 float bit patterns, for k = 10 (or -k K), through
 * every implementation in every mode: the body must equal the independent
 * reference encoder's byte for byte (so each value's class and payload are
 * as docs/codec.md specifies), and decoding must give exactly the value the
 * spec defines, within 2^-k of the original (Inf and NaN bit-exact).
 * inc_quantize() must give those same values, be idempotent, and encoding
 * its output must give the same body as encoding the original.
 *
 * usage: test_exhaustive [-k K] [-f FRACTION_SHIFT]
 *   -f S tests only every 2^S-th block (for the sanitizer build).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inccodec.h"
#include "testlib.h"

#define BLOCK_VALUES	2048u		/* one 8 KiB chunk */
#define N_BLOCKS	(1u << 21)	/* 2^32 / BLOCK_VALUES */
#define N_THREADS	2

static unsigned int k = 10, stride_shift;
static const char *const *impls;

struct result {
	uint64_t values, bound_bad, body_bad, dec_bad, err;
	uint64_t quant_bad, idem_bad, requant_body_bad, width_values;
	uint64_t cls[4];
	double maxerr;
};

static void run_block(uint32_t blk, struct result *res)
{
	_Alignas(32) uint8_t raw[4 * BLOCK_VALUES];
	uint8_t ref[10000], body[10000];
	uint8_t dec[4 * BLOCK_VALUES];
	_Alignas(32) uint8_t want[4 * BLOCK_VALUES];
	float qv[BLOCK_VALUES];
	uint8_t cls[BLOCK_VALUES];
	int32_t q[BLOCK_VALUES];
	size_t i, ref_len, body_len;
	int mode, j;
	double maxerr;

	for (i = 0; i < BLOCK_VALUES; i++) {
		uint32_t b = blk * BLOCK_VALUES + (uint32_t)i;

		memcpy(raw + 4 * i, &b, 4);
	}
	ref_classify(raw, BLOCK_VALUES, k, cls, q);
	for (i = 0; i < BLOCK_VALUES; i++) {
		/* the decoded value the spec defines for each class */
		float d = (float)((double)q[i] / (double)(1u << (k - 1)));

		res->cls[cls[i]]++;
		if (cls[i] == 0)
			d = 0;
		if (cls[i] == 3)
			memcpy(&d, &q[i], 4);
		memcpy(want + 4 * i, &d, 4);
	}
	res->values += BLOCK_VALUES;
	res->bound_bad += t_check_bound(raw, want, sizeof(raw), k, &maxerr);
	if (maxerr > res->maxerr)
		res->maxerr = maxerr;
	for (j = 0; impls[j]; j++) {
		inc_impl_select(impls[j]);
		if (inc_quantize((const float *)raw, qv, BLOCK_VALUES, k)) {
			res->err++;
			continue;
		}
		res->quant_bad += memcmp(qv, want, sizeof(want)) != 0;
		inc_quantize(qv, qv, BLOCK_VALUES, k);	/* in place */
		res->idem_bad += memcmp(qv, want, sizeof(want)) != 0;
	}
	for (mode = INC_MODE_PAPER; mode <= INC_MODE_WIDTH; mode++) {
		if (mode == INC_MODE_WIDTH) {
			res->width_values += BLOCK_VALUES;
			ref_len = ref_encode_width(raw, sizeof(raw), cls, q, ref);
		} else {
			ref_len = ref_encode_classified(raw, sizeof(raw), cls, q,
							mode, ref);
		}
		for (j = 0; impls[j]; j++) {
			inc_impl_select(impls[j]);	/* this thread only */
			if (inc_chunk_encode(raw, sizeof(raw), k, mode, body,
					     sizeof(body), &body_len) ||
			    inc_chunk_decode(ref, ref_len, sizeof(raw), k, mode,
					     dec, sizeof(dec))) {
				res->err++;
				continue;
			}
			res->body_bad += body_len != ref_len ||
					 memcmp(body, ref, ref_len);
			res->dec_bad += memcmp(dec, want, sizeof(dec)) != 0;
			/* the decoded values encode to the same body */
			if (inc_chunk_encode(want, sizeof(want), k, mode, body,
					     sizeof(body), &body_len)) {
				res->err++;
				continue;
			}
			res->requant_body_bad += body_len != ref_len ||
						 memcmp(body, ref, ref_len);
		}
	}
}

struct worker {
	pthread_t th;
	unsigned int id;
	struct result res;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint32_t blk;

	for (blk = w->id << stride_shift; blk < N_BLOCKS;
	     blk += N_THREADS << stride_shift)
		run_block(blk, &w->res);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[N_THREADS];
	struct result t = { 0 };
	unsigned int i, c;
	int opt;

	while ((opt = getopt(argc, argv, "k:f:")) != -1) {
		if (opt == 'k')
			k = (unsigned int)atoi(optarg);
		else if (opt == 'f')
			stride_shift = (unsigned int)atoi(optarg);
		else
			return 2;
	}
	impls = inc_impl_list();
	for (i = 0; impls[i]; i++)
		t_diag("implementation: %s", impls[i]);
	t_diag("k=%u, %u blocks of %u values, 1 in %u blocks", k, N_BLOCKS,
	       BLOCK_VALUES, 1u << stride_shift);
	for (i = 0; i < N_THREADS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].id = i;
		pthread_create(&w[i].th, NULL, work, &w[i]);
	}
	for (i = 0; i < N_THREADS; i++) {
		pthread_join(w[i].th, NULL);
		t.values += w[i].res.values;
		t.bound_bad += w[i].res.bound_bad;
		t.body_bad += w[i].res.body_bad;
		t.dec_bad += w[i].res.dec_bad;
		t.err += w[i].res.err;
		t.quant_bad += w[i].res.quant_bad;
		t.idem_bad += w[i].res.idem_bad;
		t.requant_body_bad += w[i].res.requant_body_bad;
		t.width_values += w[i].res.width_values;
		for (c = 0; c < 4; c++)
			t.cls[c] += w[i].res.cls[c];
		if (w[i].res.maxerr > t.maxerr)
			t.maxerr = w[i].res.maxerr;
	}
	t_diag("values %llu: zero %llu, q8 %llu, q16 %llu, raw %llu",
	       (unsigned long long)t.values, (unsigned long long)t.cls[0],
	       (unsigned long long)t.cls[1], (unsigned long long)t.cls[2],
	       (unsigned long long)t.cls[3]);
	t_ok(t.values == (uint64_t)BLOCK_VALUES * N_BLOCKS >> stride_shift,
	     "covered %llu bit patterns", (unsigned long long)t.values);
	t_ok(t.width_values == t.values,
	     "width mode: covered all %llu of them", (unsigned long long)t.width_values);
	t_ok(!t.bound_bad, "decoded values within 2^-%u (max error %.9g), Inf/NaN exact: %llu violations",
	     k, t.maxerr, (unsigned long long)t.bound_bad);
	t_ok(t.maxerr <= ldexp(1.0, -(int)k), "max error %.9g <= %.9g",
	     t.maxerr, ldexp(1.0, -(int)k));
	t_ok(!t.err, "no codec errors (%llu)", (unsigned long long)t.err);
	t_ok(!t.body_bad, "bodies equal the reference in every implementation and mode: %llu differ",
	     (unsigned long long)t.body_bad);
	t_ok(!t.dec_bad, "decoded bits equal the specified values: %llu blocks differ",
	     (unsigned long long)t.dec_bad);
	t_ok(!t.quant_bad, "inc_quantize gives the specified values in every implementation: %llu blocks differ",
	     (unsigned long long)t.quant_bad);
	t_ok(!t.idem_bad, "inc_quantize is idempotent (in place): %llu blocks differ",
	     (unsigned long long)t.idem_bad);
	t_ok(!t.requant_body_bad, "encoding the decoded values gives the same body: %llu differ",
	     (unsigned long long)t.requant_body_bad);
	return t_done();
}
