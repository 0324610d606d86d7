// SPDX-License-Identifier: MIT
/*
 * gen_vectors: test vectors for the codec's RTL leaf modules, computed by
 * the C library (the golden model, userspace/codec).
 *
 * usage: gen_vectors DIR [N [SEED]]
 *
 * Writes into DIR (which must exist):
 *   quant.hex    inc_quant:        value k -> tag word        (inc_classify)
 *   dequant.hex  inc_dequant:      tag payload k -> float     (inc_dequantize)
 *   offsets.hex  inc_tag_offsets:  all 65536 tag words -> sizes, offsets
 *   pack.hex     inc_group_pack / inc_group_unpack: groups of 8 values
 *
 * Every file starts with one line holding the number of vectors (hex), then
 * one vector per line, fields in hex separated by single spaces (the formats
 * are documented in the testbench that reads each file, tests/rtl/icarus/
 * tb_*.v). Vectors wider than 32 bits are written as one hex number, most
 * significant digit first: lane or byte i sits at bits [32i+31:32i] or
 * [8i+7:8i], i.e. lane 0 / byte 0 is at the right-hand end.
 *
 * N (default 200000) is the number of quant.hex vectors; dequant.hex and
 * pack.hex scale with it. The output is a pure function of N and SEED.
 *
 * Every pack.hex group is also encoded with inc_chunk_encode() as an
 * 8-value paper-mode chunk by every implementation this CPU runs; the body
 * must be the tag word then exactly the expected payload, and decoding it
 * with inc_chunk_decode() must give the per-lane inc_dequantize() results.
 * Any difference aborts the program (exit status 1).
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inccodec.h"

/* ---- helpers ----------------------------------------------------------- */

static uint64_t rng_state;

/* splitmix64 */
static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd32(void)
{
	return (uint32_t)(rnd64() >> 32);
}

/* uniform in 0..n-1 (n > 0; the bias is irrelevant here) */
static uint32_t rndn(uint32_t n)
{
	return (uint32_t)(((rnd64() >> 32) * n) >> 32);
}

static unsigned int rnd_k(void)
{
	return INC_K_MIN + rndn(INC_K_MAX - INC_K_MIN + 1);
}

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static void put32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gen_vectors: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static FILE *open_out(const char *dir, const char *name, char *path,
		      size_t cap)
{
	FILE *f;

	if ((size_t)snprintf(path, cap, "%s/%s", dir, name) >= cap)
		die("path too long: %s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("cannot create %s", path);
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (ferror(f) || fclose(f) != 0)
		die("write error on %s", path);
}

/* Writes the count line; the caller knows the count before it writes. */
static void put_count(FILE *f, unsigned long n)
{
	fprintf(f, "%08lx\n", n);
}

/* The word inc_quant gives for a value: q, raw bits or 0. */
static uint32_t quant_word(enum inc_class c, int32_t q, uint32_t bits)
{
	switch (c) {
	case INC_CLASS_Q8:
	case INC_CLASS_Q16:
		return (uint32_t)q;
	case INC_CLASS_RAW:
		return bits;
	default:
		return 0;
	}
}

/* ---- values ------------------------------------------------------------ */

/* A float from sign, exponent field and 23-bit fraction. */
static uint32_t mkf(uint32_t s, uint32_t e, uint32_t m)
{
	return s << 31 | (e & 0xff) << 23 | (m & 0x7fffff);
}

static const uint32_t specials[] = {
	0x00000000, 0x80000000,			/* +-0 */
	0x00000001, 0x80000001, 0x007fffff, 0x807fffff,	/* subnormals */
	0x00400000, 0x80400000, 0x00012345, 0x80654321,
	0x00800000, 0x80800000,			/* smallest normals */
	0x7f7fffff, 0xff7fffff,			/* largest normals */
	0x7f800000, 0xff800000,			/* +-Inf */
	0x7fc00000, 0xffc00000,			/* quiet NaNs */
	0x7f800001, 0xff800001,			/* signalling NaNs */
	0x7fbfffff, 0x7fffffff, 0xffffffff,	/* NaN payloads */
	0x7fc12345, 0xffa5a5a5, 0x7f812345,
	0x3f800000, 0xbf800000,			/* +-1 */
};
#define N_SPECIALS (sizeof(specials) / sizeof(specials[0]))

/* Structured quant cases for one k: class boundaries and specials. */
static size_t boundary_values(unsigned int k, uint32_t *out)
{
	static const int ties[] = { 0, 1, 126, 127, 128, 32766, 32767 };
	static const int exact[] = { 1, 127, 128, 32767, 32768 };
	size_t n = 0, i;
	int s, e, j;

	for (i = 0; i < N_SPECIALS; i++)
		out[n++] = specials[i];
	for (s = 0; s < 2; s++) {
		float sg = s ? -1.0f : 1.0f;
		float eb = sg * ldexpf(1.0f, -(int)k);

		out[n++] = f2u(eb);		/* +-eb: the n = 0 tie */
		out[n++] = f2u(nextafterf(eb, 0.0f));
		out[n++] = f2u(nextafterf(eb, sg * INFINITY));
		for (i = 0; i < sizeof(ties) / sizeof(ties[0]); i++) {
			/* (n + 1/2) * 2^(1-k) = (2n + 1) * 2^-k, exact */
			float t = sg * ldexpf((float)(2 * ties[i] + 1), -(int)k);

			out[n++] = f2u(t);
			out[n++] = f2u(nextafterf(t, 0.0f));
			out[n++] = f2u(nextafterf(t, sg * INFINITY));
		}
		for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++) {
			float t = sg * ldexpf((float)exact[i], 1 - (int)k);

			out[n++] = f2u(t);
			out[n++] = f2u(nextafterf(t, 0.0f));
			out[n++] = f2u(nextafterf(t, sg * INFINITY));
		}
		/* exponents around the ZERO and RAW thresholds (127-k, 143-k) */
		for (e = 124 - (int)k; e <= 145 - (int)k; e++) {
			static const uint32_t ms[] = { 0, 1, 0x400000, 0x7fffff,
						       0x7fff00, 0x0000ff };

			for (j = 0; j < (int)(sizeof(ms) / sizeof(ms[0])); j++)
				out[n++] = mkf((uint32_t)s, (uint32_t)e, ms[j]);
			out[n++] = mkf((uint32_t)s, (uint32_t)e, rnd32());
		}
	}
	return n;
}
#define MAX_BOUNDARY 512	/* 414 used */

/* A random value whose exponent is near the interesting range for k. */
static uint32_t focused_value(unsigned int k)
{
	int e = 124 - (int)k + (int)rndn(22);	/* 124-k .. 145-k */

	return mkf(rnd32() & 1, (uint32_t)e, rnd32());
}

/* A random value: one of several distributions. */
static uint32_t random_value(unsigned int k)
{
	switch (rndn(8)) {
	case 0:
	case 1:
	case 2:
		return rnd32();			/* any bit pattern */
	case 3:
		return specials[rndn(N_SPECIALS)];
	case 4: {				/* gradient-like: 1e-9 .. 1e2 */
		float m = ldexpf(1.0f + (float)rndn(1u << 23) / 8388608.0f,
				 -30 + (int)rndn(37));

		return f2u((rnd32() & 1) ? -m : m);
	}
	default:
		return focused_value(k);
	}
}

/* A value of class c for k (for groups with a given tag word). */
static uint32_t value_of_class(enum inc_class c, unsigned int k)
{
	int32_t q;
	int tries;

	for (tries = 0; tries < 64; tries++) {
		uint32_t v;

		switch (c) {
		case INC_CLASS_ZERO:
			switch (rndn(4)) {
			case 0:
				v = specials[rndn(10)];	/* zeros, subnormals */
				break;
			case 1:		/* |v| < 2^-k, just below eb */
				v = mkf(rnd32() & 1, 126 - k, rnd32());
				break;
			default:
				v = mkf(rnd32() & 1, rndn(127 - k), rnd32());
				break;
			}
			break;
		case INC_CLASS_Q8:
		case INC_CLASS_Q16: {
			uint32_t lo = c == INC_CLASS_Q8 ? 1 : 128;
			uint32_t hi = c == INC_CLASS_Q8 ? 127 : 32767;
			uint32_t qq = lo + rndn(hi - lo + 1);
			/* q + d, d in [-1/2, 1/2), scaled by 2^(1-k) */
			double d = (double)rndn(1u << 20) / 1048576.0 - 0.5;
			float f = (float)ldexp((double)qq + d, 1 - (int)k);

			if (rndn(8) == 0)	/* exact multiples and ties too */
				f = ldexpf((float)(2 * qq - (rndn(2))), -(int)k);
			v = f2u((rnd32() & 1) ? -f : f);
			break;
		}
		default:
			switch (rndn(4)) {
			case 0:
				v = specials[14 + rndn(12)];	/* Inf, NaN */
				break;
			case 1:		/* mag > 32767 with e + k = 142 */
				v = mkf(rnd32() & 1, 142 - k,
					0x7fff00 | (rnd32() & 0xff));
				break;
			default:
				v = mkf(rnd32() & 1, 143 - k + rndn(113 + k),
					rnd32());
				break;
			}
			break;
		}
		if (inc_classify(v, k, &q) == c)
			return v;
	}
	/* exact multiples are always of their class */
	switch (c) {
	case INC_CLASS_ZERO:
		return 0;
	case INC_CLASS_Q8:
		return f2u(ldexpf(1.0f + (float)rndn(127), 1 - (int)k));
	case INC_CLASS_Q16:
		return f2u(ldexpf(128.0f + (float)rndn(32640), 1 - (int)k));
	default:
		return 0x7f800000;
	}
}

/* ---- quant.hex --------------------------------------------------------- */

static void quant_line(FILE *f, uint32_t v, unsigned int k)
{
	int32_t q;
	enum inc_class c = inc_classify(v, k, &q);

	fprintf(f, "%08" PRIx32 " %02x %x %08" PRIx32 "\n", v, k, (unsigned)c,
		quant_word(c, q, v));
}

static void gen_quant(const char *dir, unsigned long n)
{
	char path[4096];
	FILE *f = open_out(dir, "quant.hex", path, sizeof(path));
	uint32_t b[MAX_BOUNDARY];
	unsigned long done = 0, structured = 0;
	unsigned int k;
	size_t i, nb;

	/* count the structured cases first (they do not use the RNG order) */
	for (k = INC_K_MIN; k <= INC_K_MAX; k++) {
		uint64_t save = rng_state;

		nb = boundary_values(k, b);
		if (nb > MAX_BOUNDARY)
			die("internal: too many boundary values");
		structured += nb;
		rng_state = save;
	}
	if (n < structured)
		n = structured;
	put_count(f, n);
	for (k = INC_K_MIN; k <= INC_K_MAX; k++) {
		nb = boundary_values(k, b);
		for (i = 0; i < nb; i++, done++)
			quant_line(f, b[i], k);
	}
	for (; done < n; done++) {
		k = rnd_k();
		quant_line(f, random_value(k), k);
	}
	close_out(f, path);
	printf("%s: %lu vectors (%lu structured)\n", path, n, structured);
}

/* ---- dequant.hex ------------------------------------------------------- */

static void dequant_line(FILE *f, enum inc_class c, uint32_t payload,
			 unsigned int k)
{
	int32_t q = 0;
	uint32_t raw = 0;

	if (c == INC_CLASS_Q8)
		q = (int8_t)(uint8_t)payload;
	else if (c == INC_CLASS_Q16)
		q = (int16_t)(uint16_t)payload;
	else if (c == INC_CLASS_RAW)
		raw = payload;
	fprintf(f, "%x %08" PRIx32 " %02x %08" PRIx32 "\n", (unsigned)c,
		payload, k, inc_dequantize(c, q, raw, k));
}

static void gen_dequant(const char *dir, unsigned long n_rand)
{
	static const unsigned int full_k[] = { 1, 10, 24 };
	char path[4096];
	FILE *f = open_out(dir, "dequant.hex", path, sizeof(path));
	unsigned long n, i;
	unsigned int k, j, p;

	n = 24 + 24ul * 256 + 3ul * 65536 + 24ul * 256 + 24ul * N_SPECIALS +
	    n_rand;
	put_count(f, n);
	for (k = INC_K_MIN; k <= INC_K_MAX; k++)
		dequant_line(f, INC_CLASS_ZERO, 0, k);
	for (k = INC_K_MIN; k <= INC_K_MAX; k++)	/* every Q8 payload */
		for (p = 0; p < 256; p++)
			dequant_line(f, INC_CLASS_Q8, p, k);
	for (j = 0; j < 3; j++)				/* every Q16 payload */
		for (p = 0; p < 65536; p++)
			dequant_line(f, INC_CLASS_Q16, p, full_k[j]);
	for (k = INC_K_MIN; k <= INC_K_MAX; k++)	/* Q16 extremes */
		for (p = 0; p < 256; p++) {
			static const uint32_t ext[4] = { 0x7fff, 0x8000,
							 0x8001, 0xffff };
			uint32_t pl = p < 4 ? ext[p] : rnd32() & 0xffff;

			dequant_line(f, INC_CLASS_Q16, pl, k);
		}
	for (k = INC_K_MIN; k <= INC_K_MAX; k++)	/* RAW specials */
		for (i = 0; i < N_SPECIALS; i++)
			dequant_line(f, INC_CLASS_RAW, specials[i], k);
	for (i = 0; i < n_rand; i++) {
		enum inc_class c = (enum inc_class)rndn(4);
		uint32_t pl = rnd32();

		k = rnd_k();
		if (c == INC_CLASS_ZERO)
			pl = 0;
		else if (c == INC_CLASS_Q8)
			pl &= 0xff;
		else if (c == INC_CLASS_Q16)
			pl &= 0xffff;
		dequant_line(f, c, pl, k);
	}
	close_out(f, path);
	printf("%s: %lu vectors\n", path, n);
}

/* ---- offsets.hex ------------------------------------------------------- */

static void gen_offsets(const char *dir)
{
	char path[4096];
	FILE *f = open_out(dir, "offsets.hex", path, sizeof(path));
	unsigned int tw;

	put_count(f, 65536);
	for (tw = 0; tw < 65536; tw++) {
		/* docs/codec.md section 4: sizes 0, 1, 2, 4 for tags 0..3 */
		static const unsigned int size_of[4] = { 0, 1, 2, 4 };
		uint32_t sizes = 0;
		uint64_t offs = 0;
		unsigned int i, off = 0;

		for (i = 0; i < 8; i++) {
			unsigned int sz = size_of[(tw >> (2 * i)) & 3];

			sizes |= (uint32_t)sz << (4 * i);
			offs |= (uint64_t)off << (8 * i);
			off += sz;
		}
		fprintf(f, "%04x %08" PRIx32 " %016" PRIx64 " %02x\n", tw, sizes,
			offs, off);
	}
	close_out(f, path);
	printf("%s: 65536 vectors\n", path);
}

/* ---- pack.hex ---------------------------------------------------------- */

struct group {
	unsigned int k;
	uint32_t v[8];		/* float bits */
	unsigned int tw;
	uint32_t w[8];		/* inc_quant words */
	uint8_t pay[32];	/* payload, zero padded */
	unsigned int size;
	uint32_t dec[8];	/* decoded float bits */
};

static void print_group(const struct group *g)
{
	int i;

	fprintf(stderr, "  k=%u values:", g->k);
	for (i = 0; i < 8; i++)
		fprintf(stderr, " %08" PRIx32, g->v[i]);
	fprintf(stderr, "\n  tw=%04x size=%u payload:", g->tw, g->size);
	for (i = 0; i < (int)g->size; i++)
		fprintf(stderr, " %02x", g->pay[i]);
	fputc('\n', stderr);
}

/* Expected outputs from inc_classify / inc_dequantize, cross-checked. */
static void group_compute(struct group *g)
{
	static const char *const *impls;
	uint8_t raw[32], body[64], dec[32];
	unsigned int i, off = 0;
	size_t blen;
	int r;

	g->tw = 0;
	memset(g->pay, 0, sizeof(g->pay));
	for (i = 0; i < 8; i++) {
		int32_t q;
		enum inc_class c = inc_classify(g->v[i], g->k, &q);

		g->tw |= (unsigned int)c << (2 * i);
		g->w[i] = quant_word(c, q, g->v[i]);
		g->dec[i] = inc_dequantize(c, q, g->v[i], g->k);
		switch (c) {
		case INC_CLASS_ZERO:
			break;
		case INC_CLASS_Q8:
			g->pay[off++] = (uint8_t)q;
			break;
		case INC_CLASS_Q16:
			g->pay[off++] = (uint8_t)q;
			g->pay[off++] = (uint8_t)((uint32_t)q >> 8);
			break;
		case INC_CLASS_RAW:
			put32le(g->pay + off, g->v[i]);
			off += 4;
			break;
		}
		put32le(raw + 4 * i, g->v[i]);
	}
	g->size = off;

	/* the library's own encoder and decoder, every implementation */
	if (!impls)
		impls = inc_impl_list();
	for (i = 0; impls[i]; i++) {
		if (inc_impl_select(impls[i]) != 0)
			die("cannot select implementation %s", impls[i]);
		memset(body, 0xa5, sizeof(body));
		r = inc_chunk_encode(raw, 32, g->k, INC_MODE_PAPER, body,
				     sizeof(body), &blen);
		if (r != 0)
			die("inc_chunk_encode (%s): %s", impls[i],
			    inc_strerror(r));
		if (blen != 2 + g->size || body[0] != (g->tw & 0xff) ||
		    body[1] != g->tw >> 8 ||
		    memcmp(body + 2, g->pay, g->size) != 0) {
			print_group(g);
			fprintf(stderr, "  inc_chunk_encode (%s) body:",
				impls[i]);
			for (off = 0; off < blen; off++)
				fprintf(stderr, " %02x", body[off]);
			fputc('\n', stderr);
			die("expected payload differs from inc_chunk_encode");
		}
		r = inc_chunk_decode(body, blen, 32, g->k, INC_MODE_PAPER, dec,
				     sizeof(dec));
		if (r != 0)
			die("inc_chunk_decode (%s): %s", impls[i],
			    inc_strerror(r));
		for (off = 0; off < 8; off++)
			if (get32le(dec + 4 * off) != g->dec[off]) {
				print_group(g);
				die("inc_chunk_decode (%s) value %u: %08" PRIx32
				    ", inc_dequantize: %08" PRIx32, impls[i],
				    off, get32le(dec + 4 * off), g->dec[off]);
			}
	}
	if (inc_impl_select("scalar") != 0)
		die("cannot select the scalar implementation");
}

static void put_lanes(FILE *f, const uint32_t *w)
{
	int i;

	for (i = 7; i >= 0; i--)
		fprintf(f, "%08" PRIx32, w[i]);
}

static void pack_line(FILE *f, struct group *g)
{
	int i;

	group_compute(g);
	fprintf(f, "%02x ", g->k);
	put_lanes(f, g->v);
	fprintf(f, " %04x ", g->tw);	/* the tags input */
	put_lanes(f, g->w);
	fprintf(f, " %04x ", g->tw);	/* the expected tag word */
	for (i = 31; i >= 0; i--)
		fprintf(f, "%02x", g->pay[i]);
	fprintf(f, " %02x ", g->size);
	put_lanes(f, g->dec);
	fputc('\n', f);
}

static void gen_pack(const char *dir, unsigned long n_rand)
{
	/* docs/codec.md section 4, worked example (k = 10) */
	static const uint32_t example[8] = {
		0x00000000, 0x3a800000, 0xbe99999a, 0x3727c5ac,
		0x42c80000, 0x7fc00000, 0x3c23d70a, 0x80000000,
	};
	static const uint8_t example_pay[12] = {
		0x01, 0x66, 0xff, 0x00, 0x00, 0xc8, 0x42, 0x00, 0x00, 0xc0,
		0x7f, 0x05,
	};
	char path[4096];
	FILE *f = open_out(dir, "pack.hex", path, sizeof(path));
	struct group g;
	unsigned long n = 1 + 4 * 24 + 65536 + n_rand, i;
	unsigned int c, k, j;

	put_count(f, n);

	g.k = 10;
	memcpy(g.v, example, sizeof(example));
	group_compute(&g);
	if (g.tw != 0x1f24 || g.size != 12 ||
	    memcmp(g.pay, example_pay, 12) != 0) {
		print_group(&g);
		die("the worked example of docs/codec.md does not code as documented");
	}
	pack_line(f, &g);

	/* whole groups of one class, every k */
	for (c = 0; c < 4; c++)
		for (k = INC_K_MIN; k <= INC_K_MAX; k++) {
			g.k = k;
			for (j = 0; j < 8; j++)
				g.v[j] = value_of_class((enum inc_class)c, k);
			pack_line(f, &g);
		}

	/* every tag word, values of the wanted classes */
	for (i = 0; i < 65536; i++) {
		g.k = rnd_k();
		for (j = 0; j < 8; j++)
			g.v[j] = value_of_class(
				(enum inc_class)((i >> (2 * j)) & 3), g.k);
		pack_line(f, &g);
		if (g.tw != i)
			die("internal: group for tag word %04lx has %04x", i,
			    g.tw);
	}

	/* random groups, several distributions */
	for (i = 0; i < n_rand; i++) {
		unsigned int mode = rndn(4);

		g.k = rnd_k();
		for (j = 0; j < 8; j++) {
			switch (mode) {
			case 0:		/* gradient-like, mostly ZERO/Q8 */
			case 1:
				g.v[j] = random_value(g.k);
				break;
			case 2:
				g.v[j] = focused_value(g.k);
				break;
			default:
				g.v[j] = value_of_class(
					(enum inc_class)rndn(4), g.k);
				break;
			}
		}
		pack_line(f, &g);
	}
	close_out(f, path);
	printf("%s: %lu vectors (every tag word; cross-checked with inc_chunk_encode/decode)\n",
	       path, n);
}

int main(int argc, char **argv)
{
	unsigned long n = 200000;
	char *end;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: gen_vectors DIR [N [SEED]]\n");
		return 2;
	}
	if (argc >= 3) {
		n = strtoul(argv[2], &end, 0);
		if (*end || n == 0 || n > 100000000ul)
			die("bad N: %s", argv[2]);
	}
	rng_state = 0x1ce97100c0dec5ull;
	if (argc >= 4) {
		rng_state = strtoull(argv[3], &end, 0);
		if (*end)
			die("bad SEED: %s", argv[3]);
	}
	if (inc_impl_select("scalar") != 0)
		die("cannot select the scalar implementation");

	gen_quant(argv[1], n);
	gen_dequant(argv[1], n / 2);
	gen_offsets(argv[1]);
	gen_pack(argv[1], n / 10);
	return 0;
}
