// SPDX-License-Identifier: MIT
/*
 * Width mode (mode 3, docs/codec.md section 12): the worked example's exact
 * bytes; the decoded floats the same as sparse mode's for every value (both
 * quantize alike) on random data and on the real gradients; the ratio on
 * the real gradients, never below sparse mode's; the encoding is unique
 * (any body the decoder accepts re-encodes to itself, so every mutation of
 * a valid body is either rejected or a different valid chunk); every
 * truncation rejected; the statistics the same as sparse mode's. Every
 * implementation the CPU has against the golden model (the scalar one,
 * chunk_width.c): the same bodies, and on every body, valid, mutated or
 * cut, the same verdict, error code and decoded bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inccodec.h"
#include "testlib.h"

static const char *const *impls;	/* usable ones; "scalar" is golden */

static void put_f(uint8_t *p, float f)
{
	memcpy(p, &f, 4);
}

/*
 * Encode raw (len bytes) with every implementation: 0 and the golden
 * model's body in body, *blen, when all write the same bytes, else -1.
 */
static int encode_all(const uint8_t *raw, size_t len, unsigned int k,
		      uint8_t *body, size_t cap, size_t *blen)
{
	uint8_t b[10000];
	size_t bl, i;
	int bad = 0;

	inc_impl_select("scalar");
	if (inc_chunk_encode(raw, len, k, INC_MODE_WIDTH, body, cap, blen))
		return -1;
	for (i = 0; impls[i]; i++) {
		inc_impl_select(impls[i]);
		bad |= inc_chunk_encode(raw, len, k, INC_MODE_WIDTH, b, sizeof(b),
					&bl) || bl != *blen || memcmp(b, body, bl);
	}
	inc_impl_select("auto");
	return bad ? -1 : 0;
}

/*
 * Decode body with every implementation: the golden model's code (its
 * output in dec); *differ counts the implementations whose code, or
 * decoded bytes when it succeeds, are not the golden model's, or that
 * write past raw_len.
 */
static int decode_all(const uint8_t *body, size_t blen, size_t len,
		      unsigned int k, uint8_t *dec, unsigned int *differ)
{
	uint8_t d[9100 + 64];
	size_t i;
	int rc0, rc;

	inc_impl_select("scalar");
	rc0 = inc_chunk_decode(body, blen, len, k, INC_MODE_WIDTH, dec, len);
	for (i = 0; impls[i]; i++) {
		inc_impl_select(impls[i]);
		memset(d, 0xa5, len + 64);
		rc = inc_chunk_decode(body, blen, len, k, INC_MODE_WIDTH, d, len);
		*differ += rc != rc0 || (!rc && memcmp(d, dec, len)) ||
			   d[len] != 0xa5;
	}
	inc_impl_select("auto");
	return rc0;
}

static void worked_example(void)
{
	static const uint8_t want[] = {
		0x01,					/* group 0 present */
		0xa8, 0xd1, 0x00, 0x0c, 0x80, 0x80,	/* w 8, R, masks, */
		0x9a, 0x0a, 0x04, 0x14, 0x00,		/* 5 values, 9 bits */
		0x00, 0x00, 0xc8, 0x42,			/* 100.0 */
		0x00, 0x00, 0xc0, 0x7f,			/* NaN */
	};
	float v[16] = { 0.0f, 0.0009765625f, -0.3f, 1e-5f, 100.0f, 0, 0.01f,
			-0.0f, 0.002f, -0.004f, 0, 0, 0, 0, 0, 0 };
	uint8_t raw[64], body[200], dec[64];
	uint32_t nan = 0x7fc00000;
	size_t len = 0;
	unsigned int differ = 0;
	int i, ok;

	for (i = 0; i < 16; i++)
		put_f(raw + 4 * i, v[i]);
	memcpy(raw + 20, &nan, 4);
	ok = !encode_all(raw, 64, 10, body, sizeof(body), &len) &&
	     len == sizeof(want) && !memcmp(body, want, len);
	if (!ok)
		for (i = 0; i < (int)len; i++)
			t_diag("byte %d: %02x", i, body[i]);
	t_ok(ok, "worked example: the 20 bytes of docs/codec.md section 12 (%zu), every implementation",
	     len);
	ok = !decode_all(want, sizeof(want), 64, 10, dec, &differ) && !differ &&
	     !t_check_bound(raw, dec, 64, 10, NULL);
	t_ok(ok, "worked example: decodes within 2^-10, RAW bit-exact");
}

/* random values of every class, with runs of zeros */
static void fill(struct rng *r, uint8_t *buf, size_t len, unsigned int k)
{
	double eb = ldexp(1.0, -(int)k);
	int dist = (int)rng_below(r, 5);
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		double s = dist == 0 ? 0.3 : dist == 1 ? 3 : dist == 2 ? 60 :
			   dist == 3 ? 20000 : ldexp(1, (int)rng_below(r, 16));
		float f = (float)(rng_gauss(r) * eb * s);
		uint32_t b;

		if ((i / 64) % 4 == 0)
			f = 0;
		if (rng_below(r, 500) == 0) {
			b = (uint32_t)rng_next(r);
			memcpy(&f, &b, 4);	/* NaN, Inf, huge, tiny */
		}
		memcpy(buf + i, &f, 4);
	}
	for (; i < len; i++)
		buf[i] = (uint8_t)rng_next(r);
}

/* decode width and sparse bodies of raw; 0 when both decode to the same
 * (every implementation: the golden model's width body and floats) */
static int same_as_sparse(const uint8_t *raw, size_t len, unsigned int k,
			  size_t *wlen, size_t *slen)
{
	uint8_t wb[10000], sb[10000], wd[9100], sd[9100];
	unsigned int differ = 0;

	if (encode_all(raw, len, k, wb, sizeof(wb), wlen) ||
	    inc_chunk_encode(raw, len, k, INC_MODE_SPARSE, sb, sizeof(sb), slen) ||
	    decode_all(wb, *wlen, len, k, wd, &differ) || differ ||
	    inc_chunk_decode(sb, *slen, len, k, INC_MODE_SPARSE, sd, len))
		return -1;
	return memcmp(wd, sd, len) != 0;
}

static void random_same(struct rng *r)
{
	uint8_t raw[9100];
	int bad = 0, it;

	for (it = 0; it < 2000; it++) {
		unsigned int k = 1 + rng_below(r, INC_K_MAX);
		size_t len = rng_below(r, INC_CHUNK_MAX_BYTES + 1), wl, sl;

		fill(r, raw, len, k);
		bad += same_as_sparse(raw, len, k, &wl, &sl) != 0;
	}
	t_ok(!bad, "random chunks: width mode decodes to sparse mode's floats, every implementation the golden model's bytes (%d of 2000 differ)",
	     bad);
}

/* the real gradients in 9000-byte chunks at k: the same floats, the sizes */
static void gradients(unsigned int k)
{
	char **paths;
	size_t nf = t_gradient_files(&paths), f, tw = 0, ts = 0;
	double worst = 1e9;
	const char *worst_f = "";
	int bad = 0;

	if (!nf) {
		t_skip("no gradient files in %s", t_gradient_dir());
		return;
	}
	for (f = 0; f < nf; f++) {
		size_t len, off, fw = 0, fs = 0;
		uint8_t *data = t_read_file(paths[f], &len);

		for (off = 0; off < len; off += INC_CHUNK_MAX_BYTES) {
			size_t n = len - off < INC_CHUNK_MAX_BYTES ?
				   len - off : INC_CHUNK_MAX_BYTES, wl, sl;

			bad += same_as_sparse(data + off, n, k, &wl, &sl) != 0;
			fw += 8 + wl;		/* chunk headers counted */
			fs += 8 + sl;
		}
		if ((double)fs / (double)fw < worst) {
			worst = (double)fs / (double)fw;
			worst_f = strrchr(paths[f], '/') ? strrchr(paths[f], '/') + 1 :
							   paths[f];
		}
		tw += fw;
		ts += fs;
		free(data);
	}
	t_ok(!bad, "gradients k=%u: width mode decodes to sparse mode's floats, every implementation the golden model's bytes (%d chunks differ)",
	     k, bad);
	t_ok(worst >= 1.0, "gradients k=%u: never below sparse mode on a file (least: %s, %.2fx sparse)",
	     k, worst_f, worst);
	t_diag("gradients k=%u: %zu files, width %zu bytes, sparse %zu: %.2fx sparse's ratio",
	       k, nf, tw, ts, (double)ts / (double)tw);
	for (f = 0; f < nf; f++)
		free(paths[f]);
	free(paths);
}

/*
 * Mutations of valid bodies: a bit flipped, a byte changed, bytes cut or
 * added. The decoder either rejects the result, or accepts a chunk whose
 * encoding is exactly those bytes (the encoding is unique). Every
 * implementation gives the golden model's verdict, code and bytes. One
 * chunk in 4 is up to 2250 values (bodies long enough for the SIMD
 * paths' loop before its copy of the body's last bytes).
 */
static void mutations(struct rng *r)
{
	uint8_t raw[9100], body[10000], m[10100], dec[9100], re[10000];
	unsigned int rejected = 0, accepted = 0, wrong = 0, differ = 0, it;

	for (it = 0; it < 20000; it++) {
		unsigned int k = 1 + rng_below(r, INC_K_MAX);
		size_t len = 4 * rng_below(r, it % 4 ? 200 : 2251), blen, mlen,
		       rlen, at;

		fill(r, raw, len, k);
		if (encode_all(raw, len, k, body, sizeof(body), &blen)) {
			wrong++;
			continue;
		}
		memcpy(m, body, blen);
		mlen = blen;
		at = blen ? rng_below(r, (uint32_t)blen) : 0;
		switch (rng_below(r, 4)) {
		case 0:
			if (blen)
				m[at] ^= (uint8_t)(1u << rng_below(r, 8));
			break;
		case 1:
			if (blen)
				m[at] = (uint8_t)rng_next(r);
			break;
		case 2:
			mlen = blen ? at : 0;	/* cut */
			break;
		default:
			m[mlen++] = (uint8_t)rng_next(r);	/* one more */
			break;
		}
		if (decode_all(m, mlen, len, k, dec, &differ)) {
			rejected++;
			continue;
		}
		accepted++;
		if (encode_all(dec, len, k, re, sizeof(re), &rlen) ||
		    rlen != mlen || memcmp(re, m, mlen))
			wrong++;
	}
	t_ok(!wrong && rejected > 10000,
	     "20000 mutated bodies: %u rejected, %u accepted and each re-encodes to itself (%u not)",
	     rejected, accepted, wrong);
	t_ok(!differ, "20000 mutated bodies: every implementation the golden model's code and bytes (%u differ)",
	     differ);
}

/* every proper prefix of a valid body, and the body with a byte more, fail,
 * in every implementation with the golden model's code */
static void truncations(struct rng *r)
{
	uint8_t raw[9100], body[10000], dec[9100];
	size_t len = 4 * 2250, blen, cut;
	unsigned int k = 10, bad = 0, differ = 0, tries = 0;

	do {	/* a body of some length: not the mostly-zero mixes */
		fill(r, raw, len, k);
		if (encode_all(raw, len, k, body, sizeof(body), &blen)) {
			t_ok(0, "truncations: encode");
			return;
		}
	} while (blen < 2000 && ++tries < 100);
	for (cut = 0; cut < blen; cut++)
		bad += decode_all(body, cut, len, k, dec, &differ) != -INC_ECORRUPT;
	body[blen] = 0;
	bad += decode_all(body, blen + 1, len, k, dec, &differ) != -INC_ECORRUPT;
	t_ok(!bad && !differ,
	     "a %zu-byte body: all %zu shorter ones and one longer rejected, every implementation alike (%u accepted, %u differ)",
	     blen, blen, bad, differ);
}

/* statistics: the classes of the decoded values, as sparse mode counts them */
static void statistics(struct rng *r)
{
	uint8_t raw[9100], wb[10000], sb[10000];
	unsigned int bad = 0, it;

	for (it = 0; it < 300; it++) {
		unsigned int k = 1 + rng_below(r, INC_K_MAX);
		size_t len = rng_below(r, INC_CHUNK_MAX_BYTES + 1), wl, sl;
		struct inc_hist hw, hs;

		memset(&hw, 0, sizeof(hw));
		memset(&hs, 0, sizeof(hs));
		fill(r, raw, len, k);
		if (inc_chunk_encode(raw, len, k, INC_MODE_WIDTH, wb, sizeof(wb), &wl) ||
		    inc_chunk_encode(raw, len, k, INC_MODE_SPARSE, sb, sizeof(sb), &sl) ||
		    inc_chunk_hist(wb, wl, len, k, INC_MODE_WIDTH, &hw) ||
		    inc_chunk_hist(sb, sl, len, k, INC_MODE_SPARSE, &hs) ||
		    memcmp(hw.cls, hs.cls, sizeof(hw.cls)) ||
		    hw.groups != (len / 4 + 15) / 16)
			bad++;
	}
	t_ok(!bad, "statistics: classes as sparse mode counts them, groups of 16 (%u of 300 differ)",
	     bad);
}

int main(void)
{
	struct rng r = { 20261205 };
	uint8_t b[16];
	size_t len, i;

	impls = inc_impl_list();
	for (i = 0; impls[i]; i++)
		t_diag("implementation: %s", impls[i]);
	worked_example();
	t_ok(inc_chunk_bound(9000, INC_MODE_WIDTH) == 9000 + 3 * 141 + 18 &&
	     inc_chunk_bound(0, INC_MODE_WIDTH) == 0 &&
	     inc_chunk_bound(7, INC_MODE_WIDTH) == 4 + 3 + 1 + 3,
	     "bound: 4 bytes a value, 3 a group, 1 a segment, the tail");
	t_ok(inc_chunk_encode(b, 0, 10, INC_MODE_WIDTH, b, sizeof(b), &len) == 0 &&
	     len == 0, "an empty chunk has an empty body");
	random_same(&r);
	gradients(10);
	gradients(8);
	mutations(&r);
	truncations(&r);
	statistics(&r);
	return t_done();
}
