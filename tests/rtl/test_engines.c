// SPDX-License-Identifier: MIT
/*
 * The RTL engines against the C library, through their Verilator models:
 * compressor and decompressor, 8 and 16 lanes, every mode, every k.
 * Width mode (3) is built at 16 lanes: in the compressor, and in its own
 * decompressor (inc_width_decompressor.v). Its chunks are in the
 * compressor's sets at 16 lanes and go to the width decompressor; the
 * other decompressor gets the rest; the 8-lane sets have none.
 *
 * - random chunks (lengths 0..9000, every value class, NaN payloads,
 *   runs of zeros) with random backpressure on both ports: the compressor's
 *   bodies equal inc_chunk_encode()'s byte for byte, the decompressor's
 *   output equals inc_chunk_decode()'s;
 * - special values and chunk-length edge cases;
 * - the real gradients in ../shared/gradients, 8 KiB chunks;
 * - line rate: with no backpressure the compressor takes a raw beat every
 *   clock and the decompressor emits one every clock, across back-to-back
 *   chunks of every kind;
 * - malformed input: garbage, truncated and over-long bodies, bad
 *   parameters, interleaved with good chunks: the decompressor flags exactly
 *   the chunks the C decoder rejects, never emits more than raw_len bytes,
 *   and decodes the next good chunk; bad parameters flag compressor chunks.
 *
 * usage: test_engines [-l LANES] [-q]   (-q: fewer random chunks)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_stream.h"
#include "inccodec.h"
#include "testlib.h"

#define HANG	20000
/* bytes past a good body in the "far too long" malformed chunks: past the
 * 16384 at which the decompressor's count of body bytes saturates */
#define FAR_TOO_LONG	16384

static int quick;
/* modes the sets cycle through: 1..nmodes (3 where width mode is built) */
static int nmodes = 2;

struct chunk {
	uint8_t *raw;
	size_t len;
	unsigned int k;
	int mode;
	uint8_t *body;		/* library encoding */
	size_t body_len;
};

struct set {
	struct chunk *c;
	size_t n;
	const char *name;
};

static float rand_value(struct rng *r, unsigned int k, int dist)
{
	double eb = ldexp(1.0, -(int)k);
	uint32_t b;
	float f;

	switch (dist) {
	case 0:
		return (float)(rng_gauss(r) * eb * 0.3);
	case 1:
		return (float)(rng_gauss(r) * eb * 60);
	case 2:
		return (float)(rng_gauss(r) * eb * 20000);
	case 3:
		b = (uint32_t)rng_next(r);
		memcpy(&f, &b, 4);
		return f;
	case 4:
		return (float)(((double)rng_below(r, 70000) - 35000 + 0.5) * 2 * eb);
	default:
		return (float)((rng_next(r) & 1 ? -1 : 1) *
			       ldexp(rng_unit(r) + 1, (int)rng_below(r, 60) - 40));
	}
}

static void encode(struct chunk *c)
{
	c->body = malloc(inc_chunk_bound(c->len, c->mode) + 64);
	if (inc_chunk_encode(c->raw, c->len, c->k, c->mode, c->body,
			     inc_chunk_bound(c->len, c->mode) + 64, &c->body_len)) {
		fprintf(stderr, "library encode failed\n");
		exit(2);
	}
}

static void add(struct set *s, const uint8_t *raw, size_t len, unsigned int k,
		int mode)
{
	struct chunk *c;

	s->c = realloc(s->c, (s->n + 1) * sizeof(*s->c));
	c = &s->c[s->n++];
	c->raw = malloc(len + 1);
	if (len)
		memcpy(c->raw, raw, len);
	c->len = len;
	c->k = k;
	c->mode = mode;
	encode(c);
}

static void random_set(struct set *s, struct rng *r, size_t n)
{
	uint8_t raw[INC_CHUNK_MAX_BYTES];
	size_t i, j;

	for (i = 0; i < n; i++) {
		unsigned int k = 1 + rng_below(r, INC_K_MAX);
		int dist = (int)rng_below(r, 7);
		size_t len = i < 12 ? (size_t)i * 7 % 70 :
			     i < 20 ? INC_CHUNK_MAX_BYTES - (i - 12) :
			     rng_below(r, INC_CHUNK_MAX_BYTES + 1);

		for (j = 0; j + 4 <= len; j += 4) {
			int d = dist == 6 ? (int)rng_below(r, 6) : dist;
			float f = rand_value(r, k, d);

			if (dist == 6 && (j / 32) % 3 == 0)
				f = 0;
			memcpy(raw + j, &f, 4);
		}
		for (; j < len; j++)
			raw[j] = (uint8_t)rng_next(r);
		add(s, raw, len, k, 1 + (int)(i % (size_t)nmodes));
	}
}

static void special_set(struct set *s)
{
	static const uint32_t sp[] = {
		0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000,
		0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
		0x7fc12345, 0x7f800001, 0xffbfffff, 0x3a800000, 0xba800000,
	};
	uint8_t raw[4 * 300];
	unsigned int k;
	size_t i, len;

	for (k = 1; k <= INC_K_MAX; k++) {
		double step = ldexp(1.0, 1 - (int)k);

		for (i = 0; i < 300; i++) {
			uint32_t b = sp[i % (sizeof(sp) / 4)];
			float f;

			if (i % 4 == 1) {	/* class edges and ties */
				static const double at[] = { 0.5, 127.5, 32767.5 };
				f = (float)(at[i / 4 % 3] * step);
				if (i / 12 % 2)
					f = nextafterf(f, 0);
				if (i / 24 % 2)
					f = -f;
				memcpy(&b, &f, 4);
			}
			memcpy(raw + 4 * i, &b, 4);
		}
		/* every length 0..70 once, then the whole block */
		len = k < 24 ? k * 3 : sizeof(raw);
		add(s, raw, len, k, 1 + (int)(k % (unsigned int)nmodes));
		add(s, raw, sizeof(raw) - k, k,
		    1 + (int)((k + 1) % (unsigned int)nmodes));
	}
	/* all-zero chunks: sparse and width elide everything */
	memset(raw, 0, sizeof(raw));
	add(s, raw, sizeof(raw), 10, 2);
	add(s, raw, 256, 10, 2);
	add(s, raw, 257, 10, 1);
	if (nmodes > 2) {
		add(s, raw, sizeof(raw), 10, 3);
		add(s, raw, 64, 10, 3);
		add(s, raw, 67, 10, 3);
	}
}

static void gradient_set(struct set *s, size_t max_chunks)
{
	static const unsigned int ks[] = { 6, 10, 14 };
	char **paths;
	size_t n = t_gradient_files(&paths), i, off, cnt = 0;

	for (i = 0; i < n; i++) {
		size_t len;
		uint8_t *g = t_read_file(paths[i], &len);

		for (off = 0; g && off < len && cnt < max_chunks; off += 8192) {
			size_t l = len - off < 8192 ? len - off : 8192;

			add(s, g + off, l, ks[cnt % 3],
			    1 + (int)(cnt / 3 % (size_t)nmodes));
			cnt++;
		}
		free(g);
		free(paths[i]);
	}
	free(paths);
}

static uint32_t comp_user(const struct chunk *c)
{
	return (uint32_t)(c->mode << 5 | c->k);
}

static uint32_t decomp_user(const struct chunk *c)
{
	return (uint32_t)(c->len << 7 | (size_t)c->mode << 5 | c->k);
}

/* the chunks of s a decompressor takes: inc_decompressor modes 1 and 2,
 * inc_width_decompressor mode 3. A view: the chunks are still s's */
static struct set decomp_view(const struct set *s, int width)
{
	struct set v = { calloc(s->n + 1, sizeof(*s->c)), 0, s->name };
	size_t i;

	for (i = 0; i < s->n; i++)
		if ((s->c[i].mode == INC_MODE_WIDTH) == width)
			v.c[v.n++] = s->c[i];
	return v;
}

static const char *ename(enum vl_kind ek)
{
	return ek == VL_WIDTH_DECOMPRESSOR ? "width decompressor" : "decompressor";
}

/* ---- compressor --------------------------------------------------------- */

static void run_compressor(int lanes, const struct set *s, double idle,
			   double stall, int line_rate)
{
	struct vl_engine *e = vl_engine_new(VL_COMPRESSOR, lanes);
	struct es_packet *in = calloc(s->n, sizeof(*in));
	struct es_result *out = calloc(s->n, sizeof(*out));
	struct es_config cfg = { idle, stall, 7 + (uint64_t)lanes, HANG };
	struct es_stats st;
	size_t i, bad = 0, values = 0;
	int rc;

	for (i = 0; i < s->n; i++) {
		in[i].data = s->c[i].raw;
		in[i].len = s->c[i].len;
		in[i].user = comp_user(&s->c[i]);
		values += s->c[i].len / 4;
	}
	vl_engine_reset(e);
	rc = es_run(e, in, s->n, out, &cfg, &st);
	for (i = 0; !rc && i < s->n; i++) {
		const struct chunk *c = &s->c[i];

		if (out[i].len != c->body_len || memcmp(out[i].data, c->body, c->body_len) ||
		    out[i].user != comp_user(c)) {
			if (bad++ < 3) {
				size_t at = 0;

				while (at < c->body_len && at < out[i].len &&
				       out[i].data[at] == c->body[at])
					at++;
				t_diag("chunk %zu (len %zu k %u mode %d): body %zu bytes, library %zu, user %#x; first difference at byte %zu: %02x, library %02x",
				       i, c->len, c->k, c->mode, out[i].len,
				       c->body_len, out[i].user, at,
				       at < out[i].len ? out[i].data[at] : 0,
				       at < c->body_len ? c->body[at] : 0);
			}
		}
	}
	t_ok(!rc && !bad && !st.bad_keep,
	     "compressor x%d %s: %zu chunks, %zu values, bodies equal the library's (%zu differ), idle %.0f%% stall %.0f%%, %llu cycles",
	     lanes, s->name, s->n, values, bad, idle * 100, stall * 100,
	     (unsigned long long)st.cycles);
	if (line_rate)
		t_ok(!rc && st.in_blocked == 0,
		     "compressor x%d %s: line rate, a raw beat every clock: %llu beats, %llu clocks blocked",
		     lanes, s->name, (unsigned long long)st.in_beats,
		     (unsigned long long)st.in_blocked);
	es_free(out, s->n);
	free(out);
	free(in);
	vl_engine_free(e);
}

/* ---- decompressor ------------------------------------------------------- */

static void run_decompressor(int lanes, enum vl_kind ek, const struct set *s,
			     double idle, double stall, int line_rate)
{
	struct vl_engine *e = vl_engine_new(ek, lanes);
	struct es_packet *in = calloc(s->n, sizeof(*in));
	struct es_result *out = calloc(s->n, sizeof(*out));
	struct es_config cfg = { idle, stall, 11 + (uint64_t)lanes, HANG };
	struct es_stats st;
	uint8_t want[INC_CHUNK_MAX_BYTES];
	size_t i, bad = 0;
	int rc;

	for (i = 0; i < s->n; i++) {
		in[i].data = s->c[i].body;
		in[i].len = s->c[i].body_len;
		in[i].user = decomp_user(&s->c[i]);
	}
	vl_engine_reset(e);
	rc = es_run(e, in, s->n, out, &cfg, &st);
	for (i = 0; !rc && i < s->n; i++) {
		const struct chunk *c = &s->c[i];

		inc_chunk_decode(c->body, c->body_len, c->len, c->k, c->mode,
				 want, sizeof(want));
		if (out[i].len != c->len || memcmp(out[i].data, want, c->len) ||
		    out[i].user != 0) {
			if (bad++ < 3)
				t_diag("chunk %zu (len %zu k %u mode %d): %zu bytes out, error %u",
				       i, c->len, c->k, c->mode, out[i].len,
				       out[i].user);
		}
	}
	t_ok(!rc && !bad && !st.bad_keep && st.status_errors == 0,
	     "%s x%d %s: %zu chunks equal the library's decoding (%zu differ), idle %.0f%% stall %.0f%%, %llu cycles",
	     ename(ek), lanes, s->name, s->n, bad, idle * 100, stall * 100,
	     (unsigned long long)st.cycles);
	if (line_rate)
		t_ok(!rc && st.out_gaps == 0,
		     "%s x%d %s: line rate, a raw beat every clock: %llu beats in %llu clocks",
		     ename(ek), lanes, s->name, (unsigned long long)st.out_beats,
		     (unsigned long long)(st.last_out - st.first_out + 1));
	es_free(out, s->n);
	free(out);
	free(in);
	vl_engine_free(e);
}

/* ---- malformed input ------------------------------------------------------ */

struct mal {
	uint8_t *body;
	size_t len;
	uint32_t user;
	int c_err;		/* the C decoder rejects it */
	uint8_t want[INC_CHUNK_MAX_BYTES];
	size_t raw_len;
};

/*
 * Structural errors that keep every length consistent, so that only one
 * decoder check can catch each (docs/codec.md, section 8): a present
 * sparse group whose tag word is 0 (its payload removed), a sparse mask bit
 * for a group past the end (with a tag word for it), a tag on a padding
 * slot of the short last group (with a payload byte for it). Returns the
 * new body length, or 0 if the chunk has no place for that error.
 */
enum craft { CRAFT_TW_ZERO, CRAFT_PHANTOM, CRAFT_PAD_TAG, CRAFT_N };

static size_t craft(const struct chunk *c, enum craft how, struct rng *r,
		    uint8_t *out)
{
	size_t n = c->len / 4, groups = (n + 7) / 8, seg, p = 0, len = c->body_len;
	int sparse = c->mode == INC_MODE_SPARSE;

	memcpy(out, c->body, c->body_len);
	for (seg = 0; seg * 8 < groups; seg++) {
		size_t sg = groups - seg * 8 < 8 ? groups - seg * 8 : 8;
		unsigned int mask = sparse ? c->body[p] : (1u << sg) - 1, cnt, i;
		size_t mask_at = p, tags, pay, off = 0, last_seg = (seg + 1) * 8 >= groups;

		p += (size_t)sparse;
		cnt = (unsigned int)__builtin_popcount(mask);
		tags = p;
		pay = p + 2 * cnt;
		for (i = 0; i < cnt; i++) {
			unsigned int tw = c->body[tags + 2 * i] | c->body[tags + 2 * i + 1] << 8;
			unsigned int sz = 0, t;
			int gi = -1, b;

			for (t = 0; t < 8; t++)
				sz += (unsigned int)"\0\1\2\4"[tw >> (2 * t) & 3];
			for (b = 0, t = 0; b < 8; b++)	/* group index of the i-th present */
				if (mask >> b & 1 && t++ == i)
					gi = b;
			if (how == CRAFT_TW_ZERO && sparse && rng_below(r, cnt) == 0) {
				out[tags + 2 * i] = out[tags + 2 * i + 1] = 0;
				memmove(out + pay + off, out + pay + off + sz,
					len - (pay + off + sz));
				return len - sz;
			}
			if (how == CRAFT_PAD_TAG && last_seg && (size_t)gi == sg - 1 &&
			    n % 8 && i == cnt - 1) {
				unsigned int slot = (unsigned int)(n % 8) +
						    rng_below(r, 8 - (unsigned int)(n % 8));

				tw |= 1u << (2 * slot);	/* Q8 on a padding slot */
				out[tags + 2 * i] = (uint8_t)tw;
				out[tags + 2 * i + 1] = (uint8_t)(tw >> 8);
				memmove(out + pay + off + sz + 1, out + pay + off + sz,
					len - (pay + off + sz));
				out[pay + off + sz] = (uint8_t)rng_next(r);
				return len + 1;
			}
			off += sz;
		}
		if (how == CRAFT_PHANTOM && sparse && last_seg && sg < 8) {
			out[mask_at] |= (uint8_t)(1u << sg);
			memmove(out + pay + 2, out + pay, len - pay);
			out[pay] = 1;	/* a plausible tag word */
			out[pay + 1] = 0;
			return len + 2;
		}
		p = pay + off;
	}
	return 0;
}

static void malformed(int lanes, enum vl_kind ek, const struct set *good,
		      struct rng *r, size_t n)
{
	struct vl_engine *e = vl_engine_new(ek, lanes);
	int width = ek == VL_WIDTH_DECOMPRESSOR;
	struct mal *m = calloc(n, sizeof(*m));
	struct es_packet *in = calloc(n, sizeof(*in));
	struct es_result *out = calloc(n, sizeof(*out));
	struct es_config cfg = { 0.1, 0.3, 99, HANG };
	struct es_stats st;
	size_t i, wrong = 0, over = 0, nerr = 0, kinds[7] = { 0 }, crafted_ok = 0;
	int rc;

	for (i = 0; i < n; i++) {
		const struct chunk *c = &good->c[rng_below(r, (uint32_t)good->n)];
		unsigned int kind = i % 50 == 7 ? 6 : i % 2 ? rng_below(r, 5) : 5;
		size_t raw_len = c->len, len = c->body_len, j;
		unsigned int k = c->k, mode = (unsigned int)c->mode;

		m[i].body = malloc((c->body_len > 700 ? c->body_len : 700) +
				   FAR_TOO_LONG + 3000 + 64);
		memcpy(m[i].body, c->body, c->body_len);
		switch (kind) {
		case 0:	/* garbage */
			len = rng_below(r, 700);
			for (j = 0; j < len; j++)
				m[i].body[j] = (uint8_t)rng_next(r);
			raw_len = rng_below(r, 2) ? rng_below(r, 2500) : c->len;
			break;
		case 1:	/* truncated */
			len = c->body_len ? rng_below(r, (uint32_t)c->body_len) : 0;
			break;
		case 2:	/* too long */
			for (j = 0, len += 1 + rng_below(r, 40); j < len - c->body_len; j++)
				m[i].body[c->body_len + j] = (uint8_t)rng_next(r);
			break;
		case 6:	/* far too long: the engine's body count saturates */
			for (j = 0, len += FAR_TOO_LONG + rng_below(r, 3000);
			     j < len - c->body_len; j++)
				m[i].body[c->body_len + j] = (uint8_t)rng_next(r);
			break;
		case 4:	/* one structural error, lengths consistent */
			if (width) {
				/* width: a bit of a group's first bytes */
				if (len > 1)
					m[i].body[1 + rng_below(r, (uint32_t)(len - 1 < 6 ? len - 1 : 6))] ^=
						(uint8_t)(1u << rng_below(r, 8));
				break;
			}
			len = craft(c, (enum craft)rng_below(r, CRAFT_N), r, m[i].body);
			if (!len) {
				len = c->body_len;	/* no place for it: good */
				kind = 5;
			}
			break;
		case 3:	/* bad parameters or a flipped byte */
			if (rng_below(r, 2) && len) {
				m[i].body[rng_below(r, (uint32_t)len)] ^=
					(uint8_t)(1u << rng_below(r, 8));
			} else {
				static const unsigned int bad_k[] = { 0, 25, 31 };

				if (rng_below(r, 2))
					k = bad_k[rng_below(r, 3)];
				else if (width)
					mode = rng_below(r, 3);
				else
					mode = rng_below(r, 2) ? 0 : 3;
				if (rng_below(r, 4) == 0)
					raw_len = 9001 + rng_below(r, 7000);
			}
			break;
		default:	/* a good chunk */
			break;
		}
		kinds[kind]++;
		m[i].len = len;
		m[i].raw_len = raw_len;
		m[i].user = (uint32_t)(raw_len << 7 | mode << 5 | k);
		m[i].c_err = raw_len > INC_CHUNK_MAX_BYTES || !k || k > INC_K_MAX ||
			     (width ? mode != 3 : !mode || mode > 2) ||
			     inc_chunk_decode(m[i].body, len, raw_len, k,
					      (enum inc_mode)mode, m[i].want,
					      sizeof(m[i].want)) != 0;
		nerr += m[i].c_err != 0;
		crafted_ok += kind == 4 && m[i].c_err;
		in[i].data = m[i].body;
		in[i].len = len;
		in[i].user = m[i].user;
	}
	vl_engine_reset(e);
	rc = es_run(e, in, n, out, &cfg, &st);
	for (i = 0; !rc && i < n; i++) {
		int rtl_err = out[i].user & 1;

		if (out[i].len > m[i].raw_len)
			over++;
		if (rtl_err != m[i].c_err ||
		    (!rtl_err && (out[i].len != m[i].raw_len ||
				  memcmp(out[i].data, m[i].want, m[i].raw_len)))) {
			if (wrong++ < 5)
				t_diag("chunk %zu: body %zu bytes, raw_len %zu, user %#x: C %s, RTL %s (%zu bytes out)",
				       i, m[i].len, m[i].raw_len, m[i].user,
				       m[i].c_err ? "rejects" : "accepts",
				       rtl_err ? "flags" : "passes", out[i].len);
		}
	}
	t_ok(!rc && kinds[6] > 0, "%s x%d malformed: never hangs (%zu chunks: %zu garbage, %zu truncated, %zu too long, %zu over 16384 bytes, %zu bad parameters or a flipped byte, %zu single structural errors, %zu good)",
	     ename(ek), lanes, n, kinds[0], kinds[1], kinds[2], kinds[6], kinds[3], kinds[4], kinds[5]);
	t_ok(!rc && !wrong && st.status_errors == nerr && st.status_chunks == n,
	     "%s x%d malformed: flags exactly the %zu chunks the C decoder rejects (and stored chunks, which engines do not take), decodes the rest (%zu disagree; status %llu of %llu)",
	     ename(ek), lanes, nerr, wrong, (unsigned long long)st.status_errors,
	     (unsigned long long)st.status_chunks);
	if (!width)
		t_ok(kinds[4] > 0 && crafted_ok == kinds[4],
		     "decompressor x%d malformed: the C decoder rejects all %zu single structural errors (%zu)",
		     lanes, kinds[4], crafted_ok);
	t_ok(!rc && !over && !st.bad_keep,
	     "%s x%d malformed: never more than raw_len bytes (%zu over)",
	     ename(ek), lanes, over);
	for (i = 0; i < n; i++)
		free(m[i].body);
	es_free(out, n);
	free(m);
	free(in);
	free(out);
	vl_engine_free(e);
}

static void bad_compressor_params(int lanes)
{
	static const struct {
		uint32_t user;
		size_t len;
		int hole;
		const char *what;
	} cases[] = {
		{ 0 << 5 | 10, 100, 0, "mode 0" },
		{ 3u << 5 | 10, 100, 0, "mode 3 (width: good at 16 lanes)" },
		{ 1 << 5 | 0, 100, 0, "k 0" },
		{ 2 << 5 | 25, 100, 0, "k 25" },
		{ 0x80 | 1 << 5 | 10, 100, 0, "tuser[7] set" },
		{ 2 << 5 | 10, 9004, 0, "9004 bytes" },
		{ 1 << 5 | 10, 100, 2, "tkeep with a hole" },
		{ 2 << 5 | 10, 9000, 0, "9000 bytes (good)" },
		{ 1 << 5 | 24, 0, 0, "0 bytes (good)" },
		{ 1 << 5 | 10, 100, 0, "100 bytes (good)" },
	};
	enum { NCASES = sizeof(cases) / sizeof(cases[0]), NBAD = 7 };
	struct vl_engine *e = vl_engine_new(VL_COMPRESSOR, lanes);
	struct es_packet in[NCASES];
	struct es_result out[NCASES];
	struct es_config cfg = { 0, 0, 1, HANG };
	struct es_stats st;
	uint8_t *raw = calloc(1, 9004);
	size_t i, bad = 0;
	int rc;

	for (i = 0; i < NCASES; i++) {
		in[i].data = raw;
		in[i].len = cases[i].len;
		in[i].user = cases[i].user;
		in[i].hole = cases[i].hole;
	}
	vl_engine_reset(e);
	rc = es_run(e, in, NCASES, out, &cfg, &st);
	for (i = 0; !rc && i < NCASES; i++) {
		int want = i < NBAD && !(i == 1 && lanes == 16);

		if ((out[i].user >> 7 & 1) != (uint32_t)want) {
			bad++;
			t_diag("compressor x%d: %s: error bit %u", lanes,
			       cases[i].what, out[i].user >> 7 & 1);
		}
	}
	t_ok(!rc && !bad, "compressor x%d flags bad mode, k, tuser[7], chunks over 9000 bytes and a tkeep with a hole, not good ones (mode 3 %s)",
	     lanes, lanes == 16 ? "good" : "bad");
	es_free(out, NCASES);
	free(raw);
	vl_engine_free(e);
}

static void free_set(struct set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->c[i].raw);
		free(s->c[i].body);
	}
	free(s->c);
}

int main(int argc, char **argv)
{
	int lanes_list[2] = { 8, 16 }, nl = 2, li, opt;

	while ((opt = getopt(argc, argv, "l:q")) != -1) {
		if (opt == 'l') {
			lanes_list[0] = atoi(optarg);
			nl = 1;
		} else if (opt == 'q') {
			quick = 1;
		} else {
			return 2;
		}
	}
	inc_impl_select("scalar");	/* the golden model */
	for (li = 0; li < nl; li++) {
		int lanes = lanes_list[li];
		struct rng r = { 1000 + (uint64_t)lanes };
		struct set rnd = { NULL, 0, "random" };
		struct set spc = { NULL, 0, "special values" };
		struct set grd = { NULL, 0, "real gradients" };
		struct set drnd, dspc, dgrd, wrnd, wspc, wgrd;

		if (!vl_engine_new(VL_COMPRESSOR, lanes)) {
			t_ok(0, "no %d-lane models in this build", lanes);
			continue;
		}
		nmodes = lanes == 16 ? 3 : 2;
		random_set(&rnd, &r, (quick ? 100 : 750) * (size_t)nmodes);
		special_set(&spc);
		gradient_set(&grd, quick ? 200 * (size_t)nmodes : 100000);
		drnd = decomp_view(&rnd, 0);
		dspc = decomp_view(&spc, 0);
		dgrd = decomp_view(&grd, 0);
		wrnd = decomp_view(&rnd, 1);
		wspc = decomp_view(&spc, 1);
		wgrd = decomp_view(&grd, 1);

		run_compressor(lanes, &rnd, 0.2, 0.3, 0);
		run_compressor(lanes, &spc, 0.5, 0.5, 0);
		run_compressor(lanes, &rnd, 0, 0, 1);
		run_decompressor(lanes, VL_DECOMPRESSOR, &drnd, 0.2, 0.3, 0);
		run_decompressor(lanes, VL_DECOMPRESSOR, &dspc, 0.5, 0.5, 0);
		run_decompressor(lanes, VL_DECOMPRESSOR, &drnd, 0, 0, 1);
		if (wrnd.n) {
			run_decompressor(lanes, VL_WIDTH_DECOMPRESSOR, &wrnd, 0.2, 0.3, 0);
			run_decompressor(lanes, VL_WIDTH_DECOMPRESSOR, &wspc, 0.5, 0.5, 0);
			run_decompressor(lanes, VL_WIDTH_DECOMPRESSOR, &wrnd, 0, 0, 1);
		}
		if (grd.n) {
			run_compressor(lanes, &grd, 0.05, 0.05, 0);
			run_compressor(lanes, &grd, 0, 0, 1);
			run_decompressor(lanes, VL_DECOMPRESSOR, &dgrd, 0, 0, 1);
			if (wgrd.n)
				run_decompressor(lanes, VL_WIDTH_DECOMPRESSOR, &wgrd, 0, 0, 1);
		} else {
			t_skip("no gradient files in %s", t_gradient_dir());
		}
		malformed(lanes, VL_DECOMPRESSOR, &drnd, &r, quick ? 300 : 2000);
		if (wrnd.n)
			malformed(lanes, VL_WIDTH_DECOMPRESSOR, &wrnd, &r, quick ? 300 : 2000);
		bad_compressor_params(lanes);
		free(drnd.c);
		free(dspc.c);
		free(dgrd.c);
		free(wrnd.c);
		free(wspc.c);
		free(wgrd.c);
		free_set(&rnd);
		free_set(&spc);
		free_set(&grd);
	}
	return t_done();
}
