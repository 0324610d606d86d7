// SPDX-License-Identifier: MIT
/*
 * Decoder robustness: the file and chunk decoders must validate everything
 * they read, report the right error, and never read or write outside the
 * buffers they are given (this test also runs under ASan + UBSan).
 *
 *  - every truncation of small valid files is -INC_ETRUNC;
 *  - every single-bit flip is an error (EMAGIC, EUNSUPP or ECHECKSUM by
 *    where it lands);
 *  - structural corruption with the CRCs recomputed (reseal()), so that
 *    only the structure is wrong: chunk header fields, bodies, masks, tag
 *    words, trailing bytes, file header fields;
 *  - output capacity (ENOSPC, guard bytes) for inc_decompress,
 *    inc_compress and inc_chunk_encode, and inc_compress_bound;
 *  - argument errors of the chunk API, inc_strerror.
 *
 * Every decode runs with each implementation of inc_impl_list(), which must
 * all return the same code (and inc_file_hist the same code too).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inccodec.h"
#include "testlib.h"

#define GUARD		64
#define GUARD_BYTE	0xa5
#define MAXF		16384		/* largest fixture file */
#define DEC_CAP		(1u << 20)	/* decode buffer when raw_bytes is absurd */

static const char *const *impls;

/* ---- little helpers ---------------------------------------------------- */

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static unsigned int get16(const uint8_t *p)
{
	return (unsigned int)p[0] | (unsigned int)p[1] << 8;
}

static const char *ename(int rc)
{
	static char other[8][24];
	static unsigned int slot;

	switch (rc) {
	case 0: return "OK";
	case -INC_EINVAL: return "EINVAL";
	case -INC_ENOSPC: return "ENOSPC";
	case -INC_ETRUNC: return "ETRUNC";
	case -INC_ECORRUPT: return "ECORRUPT";
	case -INC_ECHECKSUM: return "ECHECKSUM";
	case -INC_EMAGIC: return "EMAGIC";
	case -INC_EUNSUPP: return "EUNSUPP";
	}
	slot = (slot + 1) % 8;
	snprintf(other[slot], sizeof(other[slot]), "rc=%d", rc);
	return other[slot];
}

static int guard_ok(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != GUARD_BYTE)
			return 0;
	return 1;
}

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Recompute the header CRC and the CRC of every record that fits. */
static void reseal(uint8_t *f, size_t len)
{
	size_t off = INC_FILE_HDR_BYTES;

	if (len < INC_FILE_HDR_BYTES)
		return;
	put32(f + 28, inc_crc32c(0, f, 28));
	while (len - off >= INC_CHUNK_HDR_BYTES) {
		size_t bl = get16(f + off + 4);

		if (len - off - INC_CHUNK_HDR_BYTES < bl + INC_FILE_CRC_BYTES)
			break;
		put32(f + off + INC_CHUNK_HDR_BYTES + bl,
		      inc_crc32c(0, f + off, INC_CHUNK_HDR_BYTES + bl));
		off += INC_CHUNK_HDR_BYTES + bl + INC_FILE_CRC_BYTES;
	}
}

/* Offset of record idx (walking body_len fields), or 0 if absent. */
static size_t rec_at(const uint8_t *f, size_t len, unsigned int idx)
{
	size_t off = INC_FILE_HDR_BYTES;

	while (len - off >= INC_CHUNK_HDR_BYTES) {
		size_t bl = get16(f + off + 4);

		if (!idx--)
			return off;
		if (len - off - INC_CHUNK_HDR_BYTES < bl + INC_FILE_CRC_BYTES)
			break;
		off += INC_CHUNK_HDR_BYTES + bl + INC_FILE_CRC_BYTES;
	}
	return 0;
}

/* Replace del bytes at pos by ins_len bytes of ins (NULL: zeros). */
static void splice(uint8_t *f, size_t *len, size_t pos, size_t del,
		   const uint8_t *ins, size_t ins_len)
{
	memmove(f + pos + ins_len, f + pos + del, *len - pos - del);
	if (ins)
		memcpy(f + pos, ins, ins_len);
	else
		memset(f + pos, 0, ins_len);
	*len = *len - del + ins_len;
}

/* Change a record's body length field and its actual body (at the end,
 * before the CRC) by delta bytes; new bytes are zeros. */
static void body_resize(uint8_t *f, size_t *len, size_t rec, long delta)
{
	size_t bl = get16(f + rec + 4);
	size_t end = rec + INC_CHUNK_HDR_BYTES + bl;

	if (delta >= 0)
		splice(f, len, end, 0, NULL, (size_t)delta);
	else
		splice(f, len, end - (size_t)-delta, (size_t)-delta, NULL, 0);
	put16(f + rec + 4, (unsigned int)((long)bl + delta));
}

/* ---- building files from hand-made bodies ------------------------------ */

struct fb {
	uint8_t b[MAXF];
	size_t len;
};

static void fb_header(struct fb *f, unsigned int mode, unsigned int k,
		      uint64_t raw_bytes, uint32_t cb)
{
	memset(f->b, 0, INC_FILE_HDR_BYTES);
	put32(f->b, INC_FILE_MAGIC);
	f->b[4] = INC_FILE_VERSION;
	f->b[5] = (uint8_t)mode;
	f->b[6] = (uint8_t)k;
	f->b[7] = (uint8_t)(raw_bytes & 3);
	put64(f->b + 8, raw_bytes / 4);
	put32(f->b + 16, cb);
	put32(f->b + 28, inc_crc32c(0, f->b, 28));
	f->len = INC_FILE_HDR_BYTES;
}

static void fb_chunk(struct fb *f, unsigned int mode, unsigned int k,
		     unsigned int raw_len, const uint8_t *body, size_t body_len)
{
	uint8_t *r = f->b + f->len;

	r[0] = (uint8_t)mode;
	r[1] = (uint8_t)k;
	put16(r + 2, raw_len);
	put16(r + 4, (unsigned int)body_len);
	put16(r + 6, 0);
	memcpy(r + INC_CHUNK_HDR_BYTES, body, body_len);
	put32(r + INC_CHUNK_HDR_BYTES + body_len,
	      inc_crc32c(0, r, INC_CHUNK_HDR_BYTES + body_len));
	f->len += INC_CHUNK_HDR_BYTES + body_len + INC_FILE_CRC_BYTES;
}

/* A one-chunk file of raw_len bytes whose body is given. */
static void fb_one(struct fb *f, unsigned int mode, unsigned int k,
		   unsigned int raw_len, const uint8_t *body, size_t body_len)
{
	fb_header(f, mode, k, raw_len, raw_len < 4 ? 4 : (raw_len + 3) & ~3u);
	fb_chunk(f, mode, k, raw_len, body, body_len);
}

/* ---- the checks ---------------------------------------------------------- */

static uint8_t dec_buf[DEC_CAP + GUARD];

/*
 * Decompress with every implementation: all must return want, none may
 * write past the capacity (raw_bytes when the header gives a sane one);
 * inc_file_hist must return want too (it never says ENOSPC). Returns 1 if
 * all is well; *why describes what was not.
 */
static int check_file(const uint8_t *f, size_t len, int want, char *why,
		      size_t whylen)
{
	struct inc_file_info fi;
	struct inc_hist h;
	size_t cap = DEC_CAP, i;
	int ok = 1, rc;

	why[0] = 0;
	if (!inc_file_info(f, len, &fi) && fi.raw_bytes <= DEC_CAP)
		cap = (size_t)fi.raw_bytes;
	for (i = 0; impls[i]; i++) {
		size_t dlen = 0;

		inc_impl_select(impls[i]);
		memset(dec_buf, GUARD_BYTE, cap + GUARD);
		rc = inc_decompress(f, len, dec_buf, cap, &dlen);
		if (rc != want) {
			ok = 0;
			snprintf(why + strlen(why), whylen - strlen(why),
				 " %s:%s", impls[i], ename(rc));
		}
		if (!guard_ok(dec_buf + cap, GUARD)) {
			ok = 0;
			snprintf(why + strlen(why), whylen - strlen(why),
				 " %s:wrote-past-cap", impls[i]);
		}
		if (!rc && dlen != cap) {
			ok = 0;
			snprintf(why + strlen(why), whylen - strlen(why),
				 " %s:dst_len=%zu", impls[i], dlen);
		}
	}
	inc_impl_select("auto");
	memset(&h, 0, sizeof(h));
	rc = inc_file_hist(f, len, &h);
	if (want != -INC_ENOSPC && rc != want) {
		ok = 0;
		snprintf(why + strlen(why), whylen - strlen(why), " hist:%s",
			 ename(rc));
	}
	return ok;
}

static void expect_file(const uint8_t *f, size_t len, int want,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void expect_file(const uint8_t *f, size_t len, int want,
			const char *fmt, ...)
{
	char desc[200], why[300];
	va_list ap;
	int ok;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	ok = check_file(f, len, want, why, sizeof(why));
	t_ok(ok, "%s -> %s%s%s", desc, ename(want), ok ? "" : "; got",
	     why);
}

/* inc_chunk_decode of one body with every implementation. */
static void expect_chunk(const uint8_t *body, size_t body_len,
			 size_t raw_len, unsigned int k, enum inc_mode mode,
			 int want, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
static void expect_chunk(const uint8_t *body, size_t body_len,
			 size_t raw_len, unsigned int k, enum inc_mode mode,
			 int want, const char *fmt, ...)
{
	uint8_t out[INC_CHUNK_MAX_BYTES + GUARD];
	char desc[200], why[300] = "";
	va_list ap;
	size_t i;
	int ok = 1, rc;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	for (i = 0; impls[i]; i++) {
		inc_impl_select(impls[i]);
		memset(out, GUARD_BYTE, raw_len + GUARD);
		rc = inc_chunk_decode(body, body_len, raw_len, k, mode, out,
				      raw_len);
		if (rc != want || !guard_ok(out + raw_len, GUARD)) {
			ok = 0;
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " %s:%s%s", impls[i], ename(rc),
				 guard_ok(out + raw_len, GUARD) ? "" :
				 "+wrote-past-raw_len");
		}
	}
	inc_impl_select("auto");
	t_ok(ok, "chunk: %s -> %s%s%s", desc, ename(want), ok ? "" : "; got",
	     why);
}

/* ---- fixtures ------------------------------------------------------------ */

struct fixture {
	const char *name;
	uint8_t raw[4096];
	size_t raw_len;
	struct inc_params p;
	uint8_t f[MAXF];
	size_t len;
};

/* kind 0: small values (ZERO/Q8/Q16), 1: RAW-class values, 2: zeros */
static void fill(struct rng *r, uint8_t *dst, size_t n_bytes, unsigned int k,
		 int kind)
{
	double eb = ldexp(1.0, -(int)k);
	size_t i;

	for (i = 0; i + 4 <= n_bytes; i += 4) {
		float v;

		if (kind == 0) {
			/* every third group all zero, for the sparse masks */
			v = (i / 32) % 3 == 1 ? 0.0f :
			    (float)(rng_gauss(r) * eb *
				    (rng_below(r, 4) == 0 ? 3000 : 20));
		} else if (kind == 1) {
			v = (float)(ldexp(1.0 + rng_unit(r), 20) *
				    (rng_next(r) & 1 ? -1 : 1));
		} else {
			v = 0.0f;
		}
		memcpy(dst + i, &v, 4);
	}
	for (; i < n_bytes; i++)
		dst[i] = (uint8_t)rng_next(r);
}

/* Append a segment of the given kind to a fixture's raw data. */
static void seg(struct fixture *fx, struct rng *r, size_t n_bytes, int kind)
{
	fill(r, fx->raw + fx->raw_len, n_bytes, fx->p.k, kind);
	fx->raw_len += n_bytes;
}

static int fixture_finish(struct fixture *fx)
{
	return inc_compress(fx->raw, fx->raw_len, &fx->p, fx->f, sizeof(fx->f),
			    &fx->len);
}

/* Chunk modes of a valid file's records, as a string such as "1 0 1". */
static void modes_of(const uint8_t *f, size_t len, char *s, size_t n)
{
	size_t off;
	unsigned int i;

	s[0] = 0;
	for (i = 0; (off = rec_at(f, len, i)) != 0; i++)
		snprintf(s + strlen(s), n - strlen(s), "%s%u", i ? " " : "",
			 f[off]);
}

enum { FX_A_PAPER, FX_A_SPARSE, FX_B_SPARSE, FX_EMPTY, FX_TINY, FX_N };
static struct fixture fx[FX_N];

static void make_fixtures(void)
{
	struct rng r = { 777 };
	char modes[64];
	int i;

	/* A: cb 64; chunk 0 compresses, chunk 1 is RAW values (stored),
	 * chunk 2 is 5 values + 2 tail bytes (short last group) */
	for (i = FX_A_PAPER; i <= FX_A_SPARSE; i++) {
		struct rng ra = { 4242 };

		fx[i].name = i == FX_A_PAPER ? "A/paper" : "A/sparse";
		fx[i].p.k = 8;
		fx[i].p.mode = i == FX_A_PAPER ? INC_MODE_PAPER :
						 INC_MODE_SPARSE;
		fx[i].p.chunk_bytes = 64;
		seg(&fx[i], &ra, 64, 0);
		seg(&fx[i], &ra, 64, 1);
		seg(&fx[i], &ra, 22, 0);
	}
	/* B: sparse, cb 512 (16 groups = two segments); compressed, stored,
	 * then 37 values + 3 tail bytes (5 groups, the last short) */
	fx[FX_B_SPARSE].name = "B/sparse";
	fx[FX_B_SPARSE].p.k = 12;
	fx[FX_B_SPARSE].p.mode = INC_MODE_SPARSE;
	fx[FX_B_SPARSE].p.chunk_bytes = 512;
	seg(&fx[FX_B_SPARSE], &r, 512, 0);
	seg(&fx[FX_B_SPARSE], &r, 512, 1);
	seg(&fx[FX_B_SPARSE], &r, 151, 0);
	/* empty input: the header alone */
	fx[FX_EMPTY].name = "empty/paper";
	fx[FX_EMPTY].p.k = 10;
	fx[FX_EMPTY].p.mode = INC_MODE_PAPER;
	/* 3 bytes: no values, one stored chunk of tail bytes */
	fx[FX_TINY].name = "tiny/sparse";
	fx[FX_TINY].p.k = 5;
	fx[FX_TINY].p.mode = INC_MODE_SPARSE;
	seg(&fx[FX_TINY], &r, 3, 0);

	for (i = 0; i < FX_N; i++) {
		int rc = fixture_finish(&fx[i]);
		uint8_t *dec = malloc(fx[i].raw_len + 1);
		size_t dlen = 0;
		int drc = rc ? rc : inc_decompress(fx[i].f, fx[i].len, dec,
						   fx[i].raw_len, &dlen);

		modes_of(fx[i].f, fx[i].len, modes, sizeof(modes));
		t_ok(!rc && !drc && dlen == fx[i].raw_len &&
		     !t_check_bound(fx[i].raw, dec, dlen, fx[i].p.k, NULL),
		     "fixture %s: %zu raw bytes -> %zu byte file, chunk modes [%s], round trip ok",
		     fx[i].name, fx[i].raw_len, fx[i].len, modes);
		free(dec);
	}
	t_ok(!strcmp((modes_of(fx[FX_A_PAPER].f, fx[FX_A_PAPER].len, modes,
			       sizeof(modes)), modes), "1 0 1"),
	     "fixture A/paper has records paper, stored, paper");
	t_ok(!strcmp((modes_of(fx[FX_A_SPARSE].f, fx[FX_A_SPARSE].len, modes,
			       sizeof(modes)), modes), "2 0 2"),
	     "fixture A/sparse has records sparse, stored, sparse");
	t_ok(!strcmp((modes_of(fx[FX_B_SPARSE].f, fx[FX_B_SPARSE].len, modes,
			       sizeof(modes)), modes), "2 0 2"),
	     "fixture B/sparse has records sparse, stored, sparse");
	t_ok(!strcmp((modes_of(fx[FX_TINY].f, fx[FX_TINY].len, modes,
			       sizeof(modes)), modes), "0"),
	     "fixture tiny/sparse is one stored chunk");
}

/* A work copy of a fixture. */
static struct fb w;

static void work(int i)
{
	memcpy(w.b, fx[i].f, fx[i].len);
	w.len = fx[i].len;
}

/* ---- 1: truncation --------------------------------------------------------- */

static void test_truncation(void)
{
	char why[300];
	int i;

	for (i = 0; i < FX_N; i++) {
		size_t l, bad = 0, first_bad = 0;
		uint8_t *cp = malloc(fx[i].len);
		char first_why[300] = "";

		for (l = 0; l < fx[i].len; l++) {
			/* an exact-size copy: ASan sees reads past the end */
			memcpy(cp, fx[i].f, l);
			if (!check_file(cp, l, -INC_ETRUNC, why, sizeof(why))) {
				if (!bad++) {
					first_bad = l;
					snprintf(first_why, sizeof(first_why),
						 "%s", why);
				}
			}
		}
		free(cp);
		if (bad)
			t_diag("%s: first wrong truncation at %zu bytes:%s",
			       fx[i].name, first_bad, first_why);
		t_ok(!bad, "%s: all %zu truncations (0..%zu bytes) -> ETRUNC in every impl and hist (%zu wrong)",
		     fx[i].name, fx[i].len, fx[i].len - 1, bad);
	}
	/* the header alone: inc_file_info needs all 32 bytes */
	{
		struct inc_file_info fi;
		size_t l, bad = 0;

		for (l = 0; l < INC_FILE_HDR_BYTES; l++)
			bad += inc_file_info(fx[FX_A_PAPER].f, l, &fi) !=
			       -INC_ETRUNC;
		t_ok(!bad && !inc_file_info(fx[FX_A_PAPER].f,
					    INC_FILE_HDR_BYTES, &fi),
		     "inc_file_info: header truncated to 0..31 bytes -> ETRUNC, 32 bytes -> OK");
	}
}

/* ---- 2: single-bit flips ----------------------------------------------------- */

enum region { R_MAGIC, R_VERSION, R_HDR, R_CHDR, R_CBODY, R_N };
static const char *const region_name[R_N] = {
	"magic", "version byte", "rest of the file header (incl. CRC)",
	"chunk headers", "chunk bodies and CRCs",
};

/* Region of a byte of a valid file; for a chunk header, *rec and *roff
 * receive the record's index and offset. */
static enum region region_of(const uint8_t *f, size_t len, size_t byte,
			     unsigned int *rec, size_t *roff)
{
	size_t off;
	unsigned int i;

	if (byte < 4)
		return R_MAGIC;
	if (byte == 4)
		return R_VERSION;
	if (byte < INC_FILE_HDR_BYTES)
		return R_HDR;
	for (i = 0; (off = rec_at(f, len, i)) != 0; i++) {
		if (byte >= off && byte < off + INC_CHUNK_HDR_BYTES) {
			*rec = i;
			*roff = off;
			return R_CHDR;
		}
	}
	return R_CBODY;
}

/*
 * The code docs/codec.md section 8 requires for a file whose record idx (at
 * off) has a changed chunk header and is otherwise intact: the record length
 * (from body_len) is checked first, then the CRC, which the change breaks.
 */
static int spec_chunk_hdr_code(const uint8_t *f, size_t len, size_t off)
{
	size_t bl = get16(f + off + 4);

	if (len - off - INC_CHUNK_HDR_BYTES < bl + INC_FILE_CRC_BYTES)
		return -INC_ETRUNC;
	return -INC_ECHECKSUM;
}

static void test_bitflips(int fi_idx)
{
	const struct fixture *x = &fx[fi_idx];
	size_t n[R_N] = { 0 }, bad[R_N] = { 0 }, succ = 0, bit;
	/* codes seen for chunk-header flips, by -rc */
	size_t seen[9] = { 0 };
	char why[300], first[R_N][400];
	int r;

	memset(first, 0, sizeof(first));
	for (bit = 0; bit < 8 * x->len; bit++) {
		unsigned int rec = 0;
		size_t roff = 0;
		enum region reg = region_of(x->f, x->len, bit / 8, &rec, &roff);
		int want, rc;
		size_t dlen;

		work(fi_idx);
		w.b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		n[reg]++;
		rc = inc_decompress(w.b, w.len, dec_buf, DEC_CAP, &dlen);
		if (!rc)
			succ++;
		switch (reg) {
		case R_MAGIC: want = -INC_EMAGIC; break;
		case R_VERSION: want = -INC_EUNSUPP; break;
		case R_CHDR:
			/*
			 * The record's length and CRC are checked before its
			 * header fields (docs/codec.md section 8), so a flip
			 * there is ECHECKSUM, or ETRUNC when it grows body_len
			 * past the end of the file.
			 */
			want = spec_chunk_hdr_code(w.b, w.len, roff);
			if (rc <= 0 && -rc < 9)
				seen[-rc]++;
			break;
		default: want = -INC_ECHECKSUM; break;
		}
		if (!check_file(w.b, w.len, want, why, sizeof(why)) ||
		    rc != want) {
			if (!bad[reg]++)
				snprintf(first[reg], sizeof(first[reg]),
					 "bit %zu: %s%s", bit, ename(rc), why);
		}
	}
	t_ok(!succ, "%s: none of %zu single-bit flips decodes successfully (%zu did)",
	     x->name, 8 * x->len, succ);
	for (r = 0; r < R_N; r++) {
		const char *wantname = r == R_MAGIC ? "EMAGIC" :
				       r == R_VERSION ? "EUNSUPP" :
				       r == R_CHDR ? "ECHECKSUM, or ETRUNC past the end" :
				       "ECHECKSUM";

		t_ok(!bad[r], "%s: %zu flips in the %s -> %s, same in every impl and hist (%zu wrong%s%s)",
		     x->name, n[r], region_name[r], wantname, bad[r],
		     bad[r] ? "; first " : "", first[r]);
	}
	t_diag("%s: chunk-header flips gave ECHECKSUM %zu, ECORRUPT %zu, EUNSUPP %zu, ETRUNC %zu",
	       x->name, seen[INC_ECHECKSUM], seen[INC_ECORRUPT],
	       seen[INC_EUNSUPP], seen[INC_ETRUNC]);
}

/* ---- 3: structural corruption, CRCs resealed ------------------------------ */

static void test_reseal_identity(void)
{
	int i, ok = 1;

	for (i = 0; i < FX_N; i++) {
		work(i);
		reseal(w.b, w.len);
		ok &= w.len == fx[i].len && !memcmp(w.b, fx[i].f, w.len);
		ok &= check_file(w.b, w.len, 0, (char[300]){ 0 }, 300);
	}
	t_ok(ok, "reseal() leaves valid files unchanged and they decode");
}

static void test_chunk_header_fields(void)
{
	static const int fis[] = { FX_A_PAPER, FX_A_SPARSE, FX_B_SPARSE };
	size_t j;

	for (j = 0; j < sizeof(fis) / sizeof(fis[0]); j++) {
		int fi_idx = fis[j];
		const char *nm = fx[fi_idx].name;
		unsigned int k = fx[fi_idx].p.k, fmode = fx[fi_idx].p.mode;
		unsigned int rec;
		size_t o;

		for (rec = 0; rec < 3; rec++) {
			unsigned int raw_len;

			work(fi_idx);
			o = rec_at(w.b, w.len, rec);
			raw_len = get16(w.b + o + 2);

			put16(w.b + o + 2, raw_len - 4);
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec %u: raw_len %u instead of %u", nm,
				    rec, raw_len - 4, raw_len);
			work(fi_idx);
			put16(w.b + o + 2, raw_len + 4);
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec %u: raw_len %u instead of %u", nm,
				    rec, raw_len + 4, raw_len);
			work(fi_idx);
			put16(w.b + o + 2, 9001);
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec %u: raw_len 9001", nm, rec);

			work(fi_idx);
			w.b[o + 1] = (uint8_t)(k == 24 ? 23 : k + 1);
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec %u: chunk k %u, file k %u", nm, rec,
				    w.b[o + 1], k);

			work(fi_idx);
			w.b[o + 1] = 0;
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_EUNSUPP,
				    "%s rec %u: chunk k 0", nm, rec);
			work(fi_idx);
			w.b[o + 1] = 25;
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_EUNSUPP,
				    "%s rec %u: chunk k 25", nm, rec);
			work(fi_idx);
			w.b[o] = 4;
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_EUNSUPP,
				    "%s rec %u: chunk mode 4", nm, rec);
			work(fi_idx);
			w.b[o] = 0xff;
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_EUNSUPP,
				    "%s rec %u: chunk mode 255", nm, rec);

			work(fi_idx);
			w.b[o + 6] = 1;
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec %u: chunk reserved byte 6 = 1", nm,
				    rec);
			work(fi_idx);
			w.b[o + 7] = 0x80;
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec %u: chunk reserved byte 7 = 0x80",
				    nm, rec);
		}

		/* record 0 is compressed in the file's mode */
		work(fi_idx);
		o = rec_at(w.b, w.len, 0);
		w.b[o] = (uint8_t)(fmode == INC_MODE_PAPER ? INC_MODE_SPARSE :
							     INC_MODE_PAPER);
		reseal(w.b, w.len);
		expect_file(w.b, w.len, -INC_ECORRUPT,
			    "%s rec 0: chunk mode %u in a mode %u file", nm,
			    w.b[o], fmode);
		/* a compressed chunk relabelled stored */
		work(fi_idx);
		w.b[o] = INC_MODE_STORED;
		reseal(w.b, w.len);
		expect_file(w.b, w.len, -INC_ECORRUPT,
			    "%s rec 0: compressed body labelled stored (body_len %u != raw_len %u)",
			    nm, get16(w.b + o + 4), get16(w.b + o + 2));
		/* body_len one over the bound, body grown to match */
		work(fi_idx);
		{
			unsigned int raw_len = get16(w.b + o + 2);
			size_t bound = inc_chunk_bound(raw_len, fmode);

			body_resize(w.b, &w.len, o, (long)(bound + 1) -
				    (long)get16(w.b + o + 4));
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec 0: body_len %zu > bound %zu", nm,
				    bound + 1, bound);
		}
		/* body_len at the bound: passes the header check, then the
		 * body (padded with zero bytes) has bytes the groups do not
		 * account for */
		work(fi_idx);
		{
			unsigned int raw_len = get16(w.b + o + 2);
			size_t bound = inc_chunk_bound(raw_len, fmode);

			body_resize(w.b, &w.len, o, (long)bound -
				    (long)get16(w.b + o + 4));
			reseal(w.b, w.len);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s rec 0: body padded with zeros to the bound %zu",
				    nm, bound);
		}

		/* record 1 is stored */
		work(fi_idx);
		o = rec_at(w.b, w.len, 1);
		body_resize(w.b, &w.len, o, -1);
		reseal(w.b, w.len);
		expect_file(w.b, w.len, -INC_ECORRUPT,
			    "%s rec 1: stored chunk with body_len = raw_len - 1",
			    nm);
		work(fi_idx);
		o = rec_at(w.b, w.len, 1);
		body_resize(w.b, &w.len, o, 1);
		reseal(w.b, w.len);
		expect_file(w.b, w.len, -INC_ECORRUPT,
			    "%s rec 1: stored chunk with body_len = raw_len + 1",
			    nm);
		/* a stored chunk relabelled in the file's mode: raw RAW-class
		 * floats do not parse as groups */
		work(fi_idx);
		o = rec_at(w.b, w.len, 1);
		w.b[o] = (uint8_t)fmode;
		reseal(w.b, w.len);
		expect_file(w.b, w.len, -INC_ECORRUPT,
			    "%s rec 1: stored body relabelled mode %u", nm,
			    fmode);

		/* bodies one byte too long / too short (rec 0 and rec 2,
		 * which has tail bytes) */
		{
			unsigned int rr;

			for (rr = 0; rr <= 2; rr += 2) {
				work(fi_idx);
				o = rec_at(w.b, w.len, rr);
				body_resize(w.b, &w.len, o, 1);
				reseal(w.b, w.len);
				expect_file(w.b, w.len, -INC_ECORRUPT,
					    "%s rec %u: one extra zero byte at the end of the body",
					    nm, rr);
				work(fi_idx);
				o = rec_at(w.b, w.len, rr);
				/* before the raw_len % 4 tail bytes */
				splice(w.b, &w.len, o + INC_CHUNK_HDR_BYTES +
				       get16(w.b + o + 4) -
				       (get16(w.b + o + 2) & 3),
				       0, (const uint8_t *)"\x7f", 1);
				put16(w.b + o + 4, get16(w.b + o + 4) + 1);
				reseal(w.b, w.len);
				expect_file(w.b, w.len, -INC_ECORRUPT,
					    "%s rec %u: one extra byte after the groups (before the tail)",
					    nm, rr);
				work(fi_idx);
				o = rec_at(w.b, w.len, rr);
				body_resize(w.b, &w.len, o, -1);
				reseal(w.b, w.len);
				expect_file(w.b, w.len, -INC_ECORRUPT,
					    "%s rec %u: body one byte short", nm,
					    rr);
			}
		}

		/* bytes after the last chunk */
		{
			static const size_t extra[] = { 1, 4, 12, 64 };
			size_t e;

			for (e = 0; e < 4; e++) {
				work(fi_idx);
				splice(w.b, &w.len, w.len, 0, NULL, extra[e]);
				expect_file(w.b, w.len, -INC_ECORRUPT,
					    "%s: %zu zero bytes after the last chunk",
					    nm, extra[e]);
			}
			/* a whole valid-looking extra record */
			work(fi_idx);
			o = rec_at(w.b, w.len, 2);
			splice(w.b, &w.len, w.len, 0, w.b + o, w.len - o);
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s: last record repeated", nm);
			/* the records swapped: raw_len does not match */
			work(fi_idx);
			{
				size_t o1 = rec_at(w.b, w.len, 1);
				size_t o2 = rec_at(w.b, w.len, 2);
				uint8_t tmp[MAXF];
				size_t l1 = o2 - o1, l2 = w.len - o2;

				memcpy(tmp, w.b + o1, l1 + l2);
				memcpy(w.b + o1, tmp + l1, l2);
				memcpy(w.b + o1 + l2, tmp, l1);
			}
			expect_file(w.b, w.len, -INC_ECORRUPT,
				    "%s: records 1 and 2 swapped", nm);
		}
	}
	/* the empty file with trailing bytes */
	work(FX_EMPTY);
	splice(w.b, &w.len, w.len, 0, NULL, 12);
	expect_file(w.b, w.len, -INC_ECORRUPT,
		    "empty file followed by 12 zero bytes");
	work(FX_EMPTY);
	splice(w.b, &w.len, w.len, 0, fx[FX_TINY].f + INC_FILE_HDR_BYTES,
	       fx[FX_TINY].len - INC_FILE_HDR_BYTES);
	expect_file(w.b, w.len, -INC_ECORRUPT,
		    "empty file followed by a valid-looking chunk record");
}

static void test_file_header_fields(void)
{
	static const struct { int off, size; uint64_t val; int want;
			      const char *what; } cases[] = {
		{ 7, 1, 4, -INC_ECORRUPT, "tail 4" },
		{ 7, 1, 255, -INC_ECORRUPT, "tail 255" },
		{ 16, 4, 0, -INC_ECORRUPT, "chunk_bytes 0" },
		{ 16, 4, 2, -INC_ECORRUPT, "chunk_bytes 2" },
		{ 16, 4, 9004, -INC_ECORRUPT, "chunk_bytes 9004" },
		{ 16, 4, 4098, -INC_ECORRUPT, "chunk_bytes 4098 (not a multiple of 4)" },
		{ 16, 4, 65, -INC_ECORRUPT, "chunk_bytes 65 (not a multiple of 4)" },
		{ 16, 4, 0x40, -INC_ECORRUPT, "chunk_bytes 0x40 wrong for the records" },
		{ 20, 4, 1, -INC_ECORRUPT, "reserved word 20 = 1" },
		{ 24, 4, 0x80000000u, -INC_ECORRUPT, "reserved word 24 = 0x80000000" },
		{ 8, 8, 0x4000000000000000ull, -INC_ECORRUPT, "values 2^62 (raw_bytes overflows)" },
		{ 8, 8, ~0ull, -INC_ECORRUPT, "values 2^64-1" },
		{ 5, 1, 0, -INC_EUNSUPP, "mode 0" },
		{ 5, 1, 4, -INC_EUNSUPP, "mode 4" },
		{ 5, 1, 255, -INC_EUNSUPP, "mode 255" },
		{ 6, 1, 0, -INC_EUNSUPP, "k 0" },
		{ 6, 1, 25, -INC_EUNSUPP, "k 25" },
		{ 6, 1, 255, -INC_EUNSUPP, "k 255" },
		{ 4, 1, 0, -INC_EUNSUPP, "version 0" },
		{ 4, 1, 2, -INC_EUNSUPP, "version 2" },
		{ 4, 1, 255, -INC_EUNSUPP, "version 255" },
	};
	static const int fis[] = { FX_B_SPARSE, FX_EMPTY };
	size_t c, j;

	for (j = 0; j < 2; j++) {
		for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			struct inc_file_info fi;
			int rc;

			work(fis[j]);
			if (cases[c].off == 16 && cases[c].val == 0x40 &&
			    fis[j] == FX_EMPTY)
				continue;	/* an empty file has no records */
			if (cases[c].size == 1)
				w.b[cases[c].off] = (uint8_t)cases[c].val;
			else if (cases[c].size == 4)
				put32(w.b + cases[c].off,
				      (uint32_t)cases[c].val);
			else
				put64(w.b + cases[c].off, cases[c].val);
			reseal(w.b, w.len);
			rc = inc_file_info(w.b, w.len, &fi);
			expect_file(w.b, w.len, cases[c].want,
				    "%s: header %s (CRC resealed; info says %s)",
				    fx[fis[j]].name, cases[c].what, ename(rc));
		}
	}
	/* version is checked before the CRC: no reseal needed */
	work(FX_A_PAPER);
	w.b[4] = 2;
	expect_file(w.b, w.len, -INC_EUNSUPP,
		    "A/paper: header version 2, CRC not resealed");
	/* wrong header CRC */
	work(FX_A_PAPER);
	w.b[28] ^= 1;
	expect_file(w.b, w.len, -INC_ECHECKSUM, "A/paper: header CRC off by one bit");
	/* a header CRC computed over 32 bytes / with a different seed */
	work(FX_A_PAPER);
	put32(w.b + 28, inc_crc32c(1, w.b, 28));
	expect_file(w.b, w.len, -INC_ECHECKSUM, "A/paper: header CRC with seed 1");
	/* a chunk CRC not covering the chunk header */
	work(FX_A_PAPER);
	{
		size_t o = rec_at(w.b, w.len, 0), bl = get16(w.b + o + 4);

		put32(w.b + o + INC_CHUNK_HDR_BYTES + bl,
		      inc_crc32c(0, w.b + o + INC_CHUNK_HDR_BYTES, bl));
	}
	expect_file(w.b, w.len, -INC_ECHECKSUM,
		    "A/paper rec 0: CRC over the body only");
}

/*
 * The overflow edge of the header: values = (2^64 - 4) / 4 with tail 3
 * gives raw_bytes = 2^64 - 1, which inc_file_info accepts. The file
 * declares that many bytes but has no chunk records, so it is truncated.
 */
static void test_huge_raw_bytes(void)
{
	static const uint64_t vals[] = {
		(UINT64_MAX - 3) / 4, (UINT64_MAX - 3) / 4 - 1000,
		(UINT64_MAX - 3) / 4 - 2249, (UINT64_MAX - 3) / 4 - 2250,
		1ull << 40,
	};
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		struct inc_file_info fi;
		uint64_t want_chunks;
		int rc;

		work(FX_EMPTY);
		put64(w.b + 8, vals[i]);
		w.b[7] = 3;
		put32(w.b + 16, INC_CHUNK_MAX_BYTES);
		reseal(w.b, w.len);
		rc = inc_file_info(w.b, w.len, &fi);
		/* ceil((4v + 3) / 9000) without overflow */
		want_chunks = vals[i] / 2250 + 1;
		t_ok(!rc && fi.raw_bytes == 4 * vals[i] + 3 &&
		     fi.chunks == want_chunks,
		     "header values=%#llx tail=3 chunk_bytes=9000: info ok, raw_bytes %#llx, chunks %llu (got rc %s, chunks %llu)",
		     (unsigned long long)vals[i],
		     (unsigned long long)(4 * vals[i] + 3),
		     (unsigned long long)want_chunks, ename(rc),
		     (unsigned long long)fi.chunks);
		expect_file(w.b, w.len, -INC_ENOSPC,
			    "header-only file declaring %#llx bytes, 1 MiB output",
			    (unsigned long long)(4 * vals[i] + 3));
		{
			struct inc_hist h;

			memset(&h, 0, sizeof(h));
			rc = inc_file_hist(w.b, w.len, &h);
			t_ok(rc == -INC_ETRUNC,
			     "inc_file_hist: header-only file declaring %#llx bytes -> ETRUNC (got %s)",
			     (unsigned long long)(4 * vals[i] + 3), ename(rc));
		}
	}
}

/* Hand-made bodies: tag words, padding slots, masks. */
static void test_bodies(void)
{
	struct fb f;
	uint8_t b[64];

	/* 13 values (two groups, the second of 5), paper, all zero:
	 * tw 0000, tw 0000 */
	memset(b, 0, sizeof(b));
	fb_one(&f, INC_MODE_PAPER, 10, 52, b, 4);
	expect_file(f.b, f.len, 0, "paper 13 values: two zero tag words");
	/* slot 4 of the short group (value 12): valid */
	put16(b + 2, 1u << 8);
	b[4] = 5;
	fb_one(&f, INC_MODE_PAPER, 10, 52, b, 5);
	expect_file(f.b, f.len, 0, "paper 13 values: Q8 on slot 4 of the 5-value group");
	{
		size_t dlen;
		float v;

		inc_decompress(f.b, f.len, dec_buf, 52, &dlen);
		memcpy(&v, dec_buf + 48, 4);
		t_ok(f2u(v) == f2u(5 * 0x1p-9f),
		     "  ... and value 12 decodes to 5 * 2^-9 (%a)", (double)v);
	}
	/* slot 5..7 of the short group: padding */
	put16(b + 2, 1u << 10);
	fb_one(&f, INC_MODE_PAPER, 10, 52, b, 5);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 13 values: Q8 tag on padding slot 5");
	put16(b + 2, 2u << 14);
	b[5] = 0;
	fb_one(&f, INC_MODE_PAPER, 10, 52, b, 6);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 13 values: Q16 tag on padding slot 7");
	put16(b + 2, 3u << 12 | 1u << 8);
	memset(b + 5, 0x11, 5);
	fb_one(&f, INC_MODE_PAPER, 10, 52, b, 9);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 13 values: RAW tag on padding slot 6 next to a valid slot 4");
	/* 9 values + 2 tail bytes: short group of 1, tag on slot 1 */
	memset(b, 0, sizeof(b));
	put16(b + 2, 1u << 2);
	b[4] = 1;
	b[5] = 0xaa;
	b[6] = 0xbb;
	fb_one(&f, INC_MODE_PAPER, 3, 38, b, 7);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 9 values + 2 tail: Q8 tag on padding slot 1");
	put16(b + 2, 1u);
	fb_one(&f, INC_MODE_PAPER, 3, 38, b, 7);
	expect_file(f.b, f.len, 0,
		    "paper 9 values + 2 tail: Q8 tag on slot 0 (control)");
	expect_chunk(b, 7, 38, 3, INC_MODE_PAPER, 0,
		     "paper 9 values + 2 tail, Q8 on slot 0 (control)");
	put16(b + 2, 1u << 2);
	expect_chunk(b, 7, 38, 3, INC_MODE_PAPER, -INC_ECORRUPT,
		     "paper 9 values + 2 tail, Q8 on padding slot 1");

	/* sparse, 13 values (2 groups in one segment) */
	memset(b, 0, sizeof(b));
	fb_one(&f, INC_MODE_SPARSE, 10, 52, b, 1);
	expect_file(f.b, f.len, 0, "sparse 13 values: mask 0 (control)");
	b[0] = 0x02;
	put16(b + 1, 1u);
	b[3] = 0x7f;
	fb_one(&f, INC_MODE_SPARSE, 10, 52, b, 4);
	expect_file(f.b, f.len, 0, "sparse 13 values: mask 0x02, group 1 Q8 (control)");
	{
		static const uint8_t masks[] = { 0x04, 0x06, 0x80, 0xff };
		size_t m;

		for (m = 0; m < sizeof(masks); m++) {
			b[0] = masks[m];
			fb_one(&f, INC_MODE_SPARSE, 10, 52, b, 4);
			expect_file(f.b, f.len, -INC_ECORRUPT,
				    "sparse 13 values (2 groups): mask %#x has bits past the last group",
				    masks[m]);
			expect_chunk(b, 4, 52, 10, INC_MODE_SPARSE,
				     -INC_ECORRUPT,
				     "sparse 2 groups, mask %#x", masks[m]);
		}
	}
	/* sparse, 80 values: segments of 8 and 2 groups; second mask 0x04 */
	{
		uint8_t big[64];

		memset(big, 0, sizeof(big));
		fb_one(&f, INC_MODE_SPARSE, 10, 320, big, 2);
		expect_file(f.b, f.len, 0, "sparse 80 values: masks 0, 0 (control)");
		big[1] = 0x04;
		fb_one(&f, INC_MODE_SPARSE, 10, 320, big, 2);
		expect_file(f.b, f.len, -INC_ECORRUPT,
			    "sparse 80 values: second segment (2 groups) mask 0x04");
		big[1] = 0;
		fb_one(&f, INC_MODE_SPARSE, 10, 320, big, 1);
		expect_file(f.b, f.len, -INC_ECORRUPT,
			    "sparse 80 values: second mask byte missing");
	}
	/* present group with tag word 0 */
	memset(b, 0, sizeof(b));
	b[0] = 0x01;
	fb_one(&f, INC_MODE_SPARSE, 10, 52, b, 3);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "sparse 13 values: group 0 present with tag word 0");
	/* segment layout: mask, the present groups' tag words, payloads */
	b[0] = 0x03;
	put16(b + 1, 1u);
	put16(b + 3, 1u);
	b[5] = 5;
	b[6] = 0xfa;
	fb_one(&f, INC_MODE_SPARSE, 10, 52, b, 7);
	expect_file(f.b, f.len, 0,
		    "sparse 13 values: mask 0x03, tag words 0x0001 0x0001, payloads 05 fa (control)");
	{
		size_t dlen;
		float v0, v8;

		inc_decompress(f.b, f.len, dec_buf, 52, &dlen);
		memcpy(&v0, dec_buf, 4);
		memcpy(&v8, dec_buf + 32, 4);
		t_ok(f2u(v0) == f2u(5 * 0x1p-9f) && f2u(v8) == f2u(-6 * 0x1p-9f),
		     "  ... values 0 and 8 decode to 5 and -6 times 2^-9 (%a, %a)",
		     (double)v0, (double)v8);
	}
	b[0] = 0x03;
	put16(b + 1, 1u);
	put16(b + 3, 0);
	b[5] = 1;
	fb_one(&f, INC_MODE_SPARSE, 10, 52, b, 6);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "sparse 13 values: group 1 present with tag word 0");
	expect_chunk(b, 6, 52, 10, INC_MODE_SPARSE, -INC_ECORRUPT,
		     "sparse group 1 present with tag word 0");
	/* the same bytes are fine in paper mode (no mask) */
	memset(b, 0, sizeof(b));
	expect_chunk(b, 4, 52, 10, INC_MODE_PAPER, 0,
		     "paper, two zero tag words (control)");

	/* bodies longer than the groups need */
	memset(b, 0, sizeof(b));
	fb_one(&f, INC_MODE_PAPER, 10, 52, b, 5);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 13 values: zero tag words + 1 extra byte");
	fb_one(&f, INC_MODE_SPARSE, 10, 52, b, 2);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "sparse 13 values: mask 0 + 1 extra byte");
	fb_one(&f, INC_MODE_PAPER, 10, 54, b, 7);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 13 values + 2 tail: 1 extra byte before the tail");

	/* bodies shorter than the tags need */
	memset(b, 0, sizeof(b));
	put16(b, 0xffff);
	fb_one(&f, INC_MODE_PAPER, 10, 32, b, 33);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 8 values: tag word all RAW, 31 of 32 payload bytes");
	expect_chunk(b, 33, 32, 10, INC_MODE_PAPER, -INC_ECORRUPT,
		     "paper 8 values: all RAW, 31 of 32 payload bytes");
	fb_one(&f, INC_MODE_PAPER, 10, 32, b, 1);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 8 values: body of 1 byte (half a tag word)");
	fb_one(&f, INC_MODE_PAPER, 10, 32, b, 0);
	expect_file(f.b, f.len, -INC_ECORRUPT, "paper 8 values: empty body");
	fb_one(&f, INC_MODE_SPARSE, 10, 32, b, 0);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "sparse 8 values: empty body (no mask byte)");
	b[0] = 1;
	fb_one(&f, INC_MODE_SPARSE, 10, 32, b, 2);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "sparse 8 values: mask 1 and half a tag word");
	fb_one(&f, INC_MODE_PAPER, 10, 7, b, 2);
	expect_file(f.b, f.len, -INC_ECORRUPT,
		    "paper 1 value + 3 tail: body of 2 bytes (less than the tail + tags)");
	expect_chunk(b, 2, 7, 10, INC_MODE_PAPER, -INC_ECORRUPT,
		     "paper 1 value + 3 tail: body of 2 bytes");
	/* a zero-value compressed chunk: body is the tail only */
	memcpy(b, "xyz", 3);
	expect_chunk(b, 3, 3, 10, INC_MODE_PAPER, 0,
		     "paper 0 values + 3 tail: body is the tail (control)");
	expect_chunk(b, 2, 3, 10, INC_MODE_SPARSE, -INC_ECORRUPT,
		     "sparse 0 values + 3 tail: body of 2 bytes");
	expect_chunk(b, 0, 0, 10, INC_MODE_SPARSE, 0,
		     "sparse 0 bytes: empty body (control)");
	expect_chunk(b, 1, 0, 10, INC_MODE_SPARSE, -INC_ECORRUPT,
		     "sparse 0 bytes: body of 1 byte");
	expect_chunk(b, 3, 3, 10, INC_MODE_STORED, 0, "stored 3 bytes (control)");
	expect_chunk(b, 2, 3, 10, INC_MODE_STORED, -INC_ECORRUPT,
		     "stored 3 bytes, body of 2");
	expect_chunk(b, 4, 3, 10, INC_MODE_STORED, -INC_ECORRUPT,
		     "stored 3 bytes, body of 4");
}

static void test_not_inccodec(void)
{
	char **paths;
	size_t n = t_gradient_files(&paths), i, len = 0;
	uint8_t *g = n ? t_read_file(paths[0], &len) : NULL;
	uint8_t zeros[64] = { 0 };

	if (g && len >= 64) {
		expect_file(g, len, -INC_EMAGIC, "gradient file %s", paths[0]);
		expect_file(g, 64, -INC_EMAGIC, "first 64 bytes of %s",
			    paths[0]);
	} else {
		float v[16];

		for (i = 0; i < 16; i++)
			v[i] = (float)i * 1e-3f;
		t_diag("no gradient files under %s; using synthetic floats",
		       t_gradient_dir());
		expect_file((const uint8_t *)v, sizeof(v), -INC_EMAGIC,
			    "a float array");
	}
	free(g);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	expect_file((const uint8_t *)"hello", 5, -INC_EMAGIC, "\"hello\"");
	expect_file((const uint8_t *)"h", 1, -INC_EMAGIC, "\"h\"");
	expect_file((const uint8_t *)"GCNI\x01\x01\x0a", 7, -INC_EMAGIC,
		    "byte-swapped magic");
	expect_file(zeros, sizeof(zeros), -INC_EMAGIC, "64 zero bytes");
	expect_file((const uint8_t *)"INCGhello", 9, -INC_EUNSUPP,
		    "\"INCGhello\" (magic, then version 'h')");
	expect_file((const uint8_t *)"IN", 2, -INC_ETRUNC,
		    "\"IN\" (a prefix of the magic)");
	expect_file(NULL, 0, -INC_ETRUNC, "NULL, 0 bytes");
}

/* ---- 4: output capacity ------------------------------------------------------- */

static void test_decompress_capacity(void)
{
	int i;

	for (i = 0; i < FX_N; i++) {
		const struct fixture *x = &fx[i];
		size_t need = x->raw_len, cap, dlen, bad = 0, j;
		uint8_t *buf = malloc(need + GUARD);
		int rc;

		for (j = 0; impls[j]; j++) {
			inc_impl_select(impls[j]);
			for (cap = 0; cap < need; cap++) {
				memset(buf, GUARD_BYTE, need + GUARD);
				dlen = 12345;
				rc = inc_decompress(x->f, x->len, buf, cap,
						    &dlen);
				bad += rc != -INC_ENOSPC || dlen != 12345 ||
				       !guard_ok(buf + cap, need + GUARD - cap);
			}
		}
		inc_impl_select("auto");
		if (need)
			t_ok(!bad, "%s: every dst_cap 0..%zu (< %zu) -> ENOSPC in every impl, nothing written past dst_cap (%zu wrong)",
			     x->name, need - 1, need, bad);
		if (need) {
			memset(buf, GUARD_BYTE, need + GUARD);
			rc = inc_decompress(x->f, x->len, buf, need - 1, &dlen);
			t_ok(rc == -INC_ENOSPC && guard_ok(buf + need - 1, GUARD + 1),
			     "%s: dst_cap one less than raw_bytes (%zu) -> ENOSPC, guard intact (got %s)",
			     x->name, need - 1, ename(rc));
		}
		memset(buf, GUARD_BYTE, need + GUARD);
		dlen = 0;
		rc = inc_decompress(x->f, x->len, buf, need, &dlen);
		t_ok(!rc && dlen == need && guard_ok(buf + need, GUARD) &&
		     !t_check_bound(x->raw, buf, need, x->p.k, NULL),
		     "%s: exact dst_cap %zu works, guard intact (got %s)",
		     x->name, need, ename(rc));
		free(buf);
	}
	{
		size_t dlen = 7;
		int rc = inc_decompress(fx[FX_EMPTY].f, fx[FX_EMPTY].len, NULL,
					0, &dlen);

		t_ok(!rc && dlen == 0, "empty file into (NULL, 0) -> OK, dst_len 0 (got %s)",
		     ename(rc));
		rc = inc_decompress(fx[FX_A_PAPER].f, fx[FX_A_PAPER].len, NULL,
				    1000, &dlen);
		t_ok(rc == -INC_EINVAL, "inc_decompress dst NULL with dst_cap 1000 -> EINVAL (got %s)",
		     ename(rc));
		rc = inc_decompress(fx[FX_A_PAPER].f, fx[FX_A_PAPER].len,
				    dec_buf, DEC_CAP, NULL);
		t_ok(rc == -INC_EINVAL, "inc_decompress dst_len NULL -> EINVAL (got %s)",
		     ename(rc));
		rc = inc_decompress(NULL, 100, dec_buf, DEC_CAP, &dlen);
		t_ok(rc == -INC_EINVAL, "inc_decompress src NULL with src_len 100 -> EINVAL (got %s)",
		     ename(rc));
		rc = inc_file_hist(fx[FX_A_PAPER].f, fx[FX_A_PAPER].len, NULL);
		t_ok(rc == -INC_EINVAL, "inc_file_hist hist NULL -> EINVAL (got %s)",
		     ename(rc));
		rc = inc_file_info(fx[FX_A_PAPER].f, fx[FX_A_PAPER].len, NULL);
		t_ok(rc == -INC_EINVAL, "inc_file_info fi NULL -> EINVAL (got %s)",
		     ename(rc));
	}
}

/* inc_compress into every too-small capacity; ENOSPC and no stray writes */
static size_t compress_small_caps(const uint8_t *raw, size_t raw_len,
				  const struct inc_params *p, size_t step,
				  size_t *flen_out)
{
	size_t bound = inc_compress_bound(raw_len, p->chunk_bytes);
	uint8_t *full = malloc(bound), *buf;
	size_t flen = 0, cap, bad = 0, dl;
	int rc = inc_compress(raw, raw_len, p, full, bound, &flen);

	*flen_out = flen;
	if (rc) {
		free(full);
		return 1;
	}
	buf = malloc(flen + GUARD);
	for (cap = 0; cap < flen; cap += step) {
		memset(buf, GUARD_BYTE, flen + GUARD);
		dl = 12345;
		rc = inc_compress(raw, raw_len, p, buf, cap, &dl);
		bad += rc != -INC_ENOSPC || dl != 12345 ||
		       !guard_ok(buf + cap, flen + GUARD - cap);
	}
	/* the capacities just below the exact size, always */
	for (cap = flen > 40 ? flen - 40 : 0; cap < flen; cap++) {
		memset(buf, GUARD_BYTE, flen + GUARD);
		dl = 12345;
		rc = inc_compress(raw, raw_len, p, buf, cap, &dl);
		bad += rc != -INC_ENOSPC || dl != 12345 ||
		       !guard_ok(buf + cap, flen + GUARD - cap);
	}
	/* and the exact size works, with the same bytes */
	memset(buf, GUARD_BYTE, flen + GUARD);
	dl = 12345;
	rc = inc_compress(raw, raw_len, p, buf, flen, &dl);
	bad += rc || dl != flen || memcmp(buf, full, flen) ||
	       !guard_ok(buf + flen, GUARD);
	free(buf);
	free(full);
	return bad;
}

static void test_compress_capacity(void)
{
	struct rng r = { 99 };
	char **paths;
	size_t n = t_gradient_files(&paths), i, j, flen, bad;

	for (i = 0; i < FX_N; i++) {
		for (j = 0; impls[j]; j++) {
			inc_impl_select(impls[j]);
			bad = compress_small_caps(fx[i].raw, fx[i].raw_len,
						  &fx[i].p, 1, &flen);
			t_ok(!bad, "inc_compress %s [%s]: every dst_cap 0..%zu -> ENOSPC with guard intact, %zu works (%zu wrong)",
			     fx[i].name, impls[j], flen ? flen - 1 : 0, flen,
			     bad);
		}
	}
	inc_impl_select("auto");
	/* a real gradient slice, default chunk size, sampled capacities */
	if (n) {
		size_t len;
		uint8_t *g = t_read_file(paths[n - 1], &len);

		if (g && len >= 40000) {
			for (j = 0; impls[j]; j++) {
				struct inc_params p = { 10, INC_MODE_SPARSE, 0 };

				inc_impl_select(impls[j]);
				bad = compress_small_caps(g + 1000, 40000 - 3,
							  &p, 97, &flen);
				t_ok(!bad, "inc_compress %s slice of 39997 bytes [%s]: dst_cap 0..%zu (step 97 + last 40) -> ENOSPC, exact works (%zu wrong)",
				     paths[n - 1], impls[j], flen, bad);
			}
			inc_impl_select("auto");
		}
		free(g);
	}
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);

	/* inc_compress_bound is never exceeded; all-RAW data meets it */
	{
		static const unsigned int cbs[] = { 0, 4, 8, 36, 100, 4096,
						    8192, 9000 };
		size_t fails = 0, raw_eq = 0, raw_n = 0, it;

		for (it = 0; it < 400; it++) {
			size_t len = it < 10 ? it : rng_below(&r, 40000);
			unsigned int cb = cbs[rng_below(&r, 8)];
			struct inc_params p = { 1 + rng_below(&r, 24),
						1 + (int)rng_below(&r, 3), cb };
			size_t bound = inc_compress_bound(len, cb), dl = 0, x;
			uint8_t *raw = malloc(len + 1), *buf = malloc(bound + GUARD);
			int all_raw = it % 2, rc;

			for (x = 0; x < len; x++)
				raw[x] = (uint8_t)rng_next(&r);
			if (all_raw)	/* exponent 0xff: Inf/NaN, all RAW */
				for (x = 3; x < len; x += 4)
					raw[x] |= 0x7f;
			if (all_raw)
				for (x = 2; x < len; x += 4)
					raw[x] |= 0x80;
			for (j = 0; impls[j]; j++) {
				inc_impl_select(impls[j]);
				memset(buf, GUARD_BYTE, bound + GUARD);
				rc = inc_compress(raw, len, &p, buf, bound, &dl);
				if (rc || dl > bound || !guard_ok(buf + bound, GUARD))
					fails++;
				/* and it decodes within the bound */
				if (!rc && len <= DEC_CAP) {
					size_t dd = 0;

					if (inc_decompress(buf, dl, dec_buf, len, &dd) ||
					    dd != len ||
					    t_check_bound(raw, dec_buf, len, p.k, NULL))
						fails++;
				}
				if (all_raw && j == 0) {
					raw_n++;
					raw_eq += dl == bound;
				}
			}
			free(raw);
			free(buf);
		}
		inc_impl_select("auto");
		t_ok(!fails, "inc_compress of 400 random inputs (random bits, all-RAW) into exactly inc_compress_bound: never exceeds it, decodes within 2^-k (%zu failures)",
		     fails);
		t_ok(raw_eq == raw_n, "all-RAW inputs (every chunk stored) reach inc_compress_bound exactly (%zu of %zu)",
		     raw_eq, raw_n);
	}

	/* inc_chunk_encode: bound and too-small dst */
	{
		size_t fails = 0, nospc = 0, it;

		for (it = 0; it < 300; it++) {
			size_t len = it < 20 ? it : rng_below(&r, INC_CHUNK_MAX_BYTES + 1);
			unsigned int k = 1 + rng_below(&r, 24);
			enum inc_mode mode = 1 + (int)rng_below(&r, 3);
			size_t bound = inc_chunk_bound(len, mode), bl = 0, cap, x;
			uint8_t raw[INC_CHUNK_MAX_BYTES], *buf = malloc(bound + 64 + GUARD);
			int rc;

			for (x = 0; x < len; x++)
				raw[x] = (uint8_t)rng_next(&r);
			if (it % 3 == 0)
				for (x = 3; x < len; x += 4)
					raw[x] |= 0x7f;
			for (j = 0; impls[j]; j++) {
				size_t need;

				inc_impl_select(impls[j]);
				memset(buf, GUARD_BYTE, bound + 64 + GUARD);
				rc = inc_chunk_encode(raw, len, k, mode, buf, bound, &bl);
				if (rc || bl > bound || !guard_ok(buf + bound, 64 + GUARD))
					fails++;
				need = bl;
				/* a few capacities below what it needs */
				for (cap = need > 70 ? need - 70 : 0; cap < need; cap++) {
					size_t bl2 = 54321;

					memset(buf, GUARD_BYTE, bound + 64 + GUARD);
					rc = inc_chunk_encode(raw, len, k, mode, buf, cap, &bl2);
					nospc += rc != -INC_ENOSPC || bl2 != 54321 ||
						 !guard_ok(buf + cap, bound + 64 + GUARD - cap);
				}
			}
			free(buf);
		}
		inc_impl_select("auto");
		t_ok(!fails, "inc_chunk_encode of 300 random chunks into exactly inc_chunk_bound: fits, no write past it (%zu failures)",
		     fails);
		t_ok(!nospc, "inc_chunk_encode with dst_cap below the body size -> ENOSPC, nothing written past dst_cap (%zu failures)",
		     nospc);
	}
}

/* ---- 5: argument errors, strerror -------------------------------------------- */

static void test_args(void)
{
	uint8_t raw[64] = { 0 }, body[128], out[64 + GUARD];
	struct inc_params p = { 10, INC_MODE_PAPER, 0 };
	struct inc_hist h;
	size_t bl = 0, dl = 0;
	int rc;

#define EXPECT(call, want, what)					\
	do {								\
		rc = (call);						\
		t_ok(rc == (want), "%s -> %s (got %s)", what,		\
		     ename(want), ename(rc));				\
	} while (0)

	EXPECT(inc_chunk_encode(raw, 64, 0, INC_MODE_PAPER, body, 128, &bl),
	       -INC_EINVAL, "inc_chunk_encode k 0");
	EXPECT(inc_chunk_encode(raw, 64, 25, INC_MODE_PAPER, body, 128, &bl),
	       -INC_EINVAL, "inc_chunk_encode k 25");
	EXPECT(inc_chunk_encode(raw, 64, 10, (enum inc_mode)7, body, 128, &bl),
	       -INC_EINVAL, "inc_chunk_encode mode 7");
	EXPECT(inc_chunk_encode(raw, 64, 10, (enum inc_mode)4, body, 128, &bl),
	       -INC_EINVAL, "inc_chunk_encode mode 4");
	EXPECT(inc_chunk_encode(raw, 9001, 10, INC_MODE_PAPER, body, 128, &bl),
	       -INC_EINVAL, "inc_chunk_encode raw_len 9001");
	EXPECT(inc_chunk_encode(NULL, 64, 10, INC_MODE_PAPER, body, 128, &bl),
	       -INC_EINVAL, "inc_chunk_encode raw NULL");
	EXPECT(inc_chunk_encode(raw, 64, 10, INC_MODE_PAPER, NULL, 128, &bl),
	       -INC_EINVAL, "inc_chunk_encode dst NULL");
	EXPECT(inc_chunk_encode(raw, 64, 10, INC_MODE_PAPER, body, 128, NULL),
	       -INC_EINVAL, "inc_chunk_encode body_len NULL");

	inc_chunk_encode(raw, 64, 10, INC_MODE_PAPER, body, 128, &bl);
	EXPECT(inc_chunk_decode(body, bl, 64, 0, INC_MODE_PAPER, out, 64),
	       -INC_EINVAL, "inc_chunk_decode k 0");
	EXPECT(inc_chunk_decode(body, bl, 64, 25, INC_MODE_PAPER, out, 64),
	       -INC_EINVAL, "inc_chunk_decode k 25");
	EXPECT(inc_chunk_decode(body, bl, 64, 10, (enum inc_mode)7, out, 64),
	       -INC_EINVAL, "inc_chunk_decode mode 7");
	EXPECT(inc_chunk_decode(body, bl, 64, 10, (enum inc_mode)4, out, 64),
	       -INC_EINVAL, "inc_chunk_decode mode 4");
	EXPECT(inc_chunk_decode(body, bl, 9001, 10, INC_MODE_PAPER, dec_buf,
				DEC_CAP),
	       -INC_EINVAL, "inc_chunk_decode raw_len 9001");
	EXPECT(inc_chunk_decode(NULL, bl, 64, 10, INC_MODE_PAPER, out, 64),
	       -INC_EINVAL, "inc_chunk_decode body NULL");
	EXPECT(inc_chunk_decode(body, bl, 64, 10, INC_MODE_PAPER, NULL, 64),
	       -INC_EINVAL, "inc_chunk_decode dst NULL");
	memset(out, GUARD_BYTE, sizeof(out));
	EXPECT(inc_chunk_decode(body, bl, 64, 10, INC_MODE_PAPER, out, 63),
	       -INC_ENOSPC, "inc_chunk_decode dst_cap 63 < raw_len 64");
	t_ok(guard_ok(out, sizeof(out)), "  ... and dst untouched");
	EXPECT(inc_chunk_decode(body, bl, 64, 10, INC_MODE_PAPER, out, 0),
	       -INC_ENOSPC, "inc_chunk_decode dst_cap 0 < raw_len 64");
	EXPECT(inc_chunk_decode(body, bl, 64, 10, INC_MODE_PAPER, out, 64),
	       0, "inc_chunk_decode dst_cap = raw_len (control)");

	EXPECT(inc_chunk_hist(body, bl, 64, 10, INC_MODE_PAPER, NULL),
	       -INC_EINVAL, "inc_chunk_hist hist NULL");
	EXPECT(inc_chunk_hist(body, bl, 64, 10, (enum inc_mode)7, &h),
	       -INC_EINVAL, "inc_chunk_hist mode 7");
	EXPECT(inc_chunk_hist(body, bl, 9001, 10, INC_MODE_PAPER, &h),
	       -INC_EINVAL, "inc_chunk_hist raw_len 9001");
	EXPECT(inc_chunk_hist(body, bl, 64, 25, INC_MODE_PAPER, &h),
	       -INC_EINVAL, "inc_chunk_hist k 25");

	EXPECT(inc_compress(raw, 64, NULL, body, 128, &dl), -INC_EINVAL,
	       "inc_compress params NULL");
	p.k = 0;
	EXPECT(inc_compress(raw, 64, &p, body, 128, &dl), -INC_EINVAL,
	       "inc_compress k 0");
	p.k = 25;
	EXPECT(inc_compress(raw, 64, &p, body, 128, &dl), -INC_EINVAL,
	       "inc_compress k 25");
	p.k = 10;
	p.mode = INC_MODE_STORED;
	EXPECT(inc_compress(raw, 64, &p, body, 128, &dl), -INC_EINVAL,
	       "inc_compress mode 0 (stored)");
	p.mode = INC_MODE_PAPER;
	p.chunk_bytes = 9004;
	EXPECT(inc_compress(raw, 64, &p, body, 128, &dl), -INC_EINVAL,
	       "inc_compress chunk_bytes 9004");
	p.chunk_bytes = 6;
	EXPECT(inc_compress(raw, 64, &p, body, 128, &dl), -INC_EINVAL,
	       "inc_compress chunk_bytes 6");
	t_ok(inc_compress_bound(64, 6) == 0 && inc_compress_bound(64, 9004) == 0,
	     "inc_compress_bound of an invalid chunk size is 0");
	p.chunk_bytes = 0;
	EXPECT(inc_compress(NULL, 64, &p, body, 128, &dl), -INC_EINVAL,
	       "inc_compress src NULL");
	EXPECT(inc_compress(raw, 64, &p, NULL, 128, &dl), -INC_EINVAL,
	       "inc_compress dst NULL");
	EXPECT(inc_compress(raw, 64, &p, body, 128, NULL), -INC_EINVAL,
	       "inc_compress dst_len NULL");

	EXPECT(inc_impl_select(NULL), -INC_EINVAL, "inc_impl_select(NULL)");
	EXPECT(inc_impl_select("nonesuch"), -INC_EUNSUPP,
	       "inc_impl_select(\"nonesuch\")");
	inc_impl_select("auto");
#undef EXPECT
}

/*
 * (NULL, 0) buffers, which the API accepts. Last, because a library that
 * passes NULL to memcpy here stops a -fno-sanitize-recover build.
 */
static void test_null_empty(void)
{
	struct inc_params p = { 10, INC_MODE_SPARSE, 0 };
	uint8_t body[64], f[64];
	size_t bl = 0, dl = 0;
	int rc;

	rc = inc_compress(NULL, 0, &p, f, sizeof(f), &dl);
	t_ok(!rc && dl == INC_FILE_HDR_BYTES,
	     "inc_compress src NULL with src_len 0 -> OK, header only (got %s)",
	     ename(rc));
	rc = inc_chunk_encode(NULL, 0, 10, INC_MODE_SPARSE, body, sizeof(body),
			      &bl);
	t_ok(!rc && bl == 0,
	     "inc_chunk_encode raw NULL with raw_len 0 -> OK, empty body (got %s)",
	     ename(rc));
	rc = inc_chunk_decode(NULL, 0, 0, 10, INC_MODE_SPARSE, NULL, 0);
	t_ok(!rc, "inc_chunk_decode of nothing with NULL buffers -> OK (got %s)",
	     ename(rc));
}

static void test_strerror(void)
{
	const char *s[INC_EUNSUPP + 1];
	int i, j, ok = 1;

	for (i = 0; i <= INC_EUNSUPP; i++) {
		s[i] = inc_strerror(-i);
		if (!s[i] || !*s[i] || inc_strerror(i) != s[i] ||
		    strcmp(inc_strerror(i), s[i]))
			ok = 0;
		for (j = 0; ok && j < i; j++)
			if (!strcmp(s[i], s[j]))
				ok = 0;
	}
	t_ok(ok, "inc_strerror: distinct non-empty strings for codes 0..%d (negated or not)",
	     INC_EUNSUPP);
	for (i = 0; i <= INC_EUNSUPP; i++)
		t_diag("  %s: %s", ename(-i), s[i] ? s[i] : "(null)");
	{
		const char *u = inc_strerror(-99);

		ok = u && *u;
		for (i = 0; ok && i <= INC_EUNSUPP; i++)
			ok = strcmp(u, s[i]) != 0;
		t_ok(ok, "inc_strerror(-99) is non-empty and not a known code's string (\"%s\")",
		     u ? u : "(null)");
	}
}

/* ---- 6: random bodies: the implementations agree ------------------------ */

static void test_random_bodies(void)
{
	struct rng r = { 31337 };
	size_t it, disagree = 0, ok_n = 0, hist_bad = 0;

	for (it = 0; it < 20000; it++) {
		uint8_t body[2048], out0[INC_CHUNK_MAX_BYTES + GUARD],
			out[INC_CHUNK_MAX_BYTES + GUARD];
		size_t raw_len = rng_below(&r, 600), body_len = rng_below(&r, 700), x, j;
		unsigned int k = 1 + rng_below(&r, 24);
		enum inc_mode mode = (int)rng_below(&r, 3);
		int rc0 = 0, rc;
		struct inc_hist h;

		/* mostly-valid bodies: tag words with few classes */
		for (x = 0; x < body_len; x++)
			body[x] = (uint8_t)(rng_below(&r, 4) ? rng_next(&r) & 0x55 &
							   rng_next(&r) : rng_next(&r));
		if (it % 2 && mode) {
			/* a real body, then perhaps damaged */
			uint8_t raw[600];

			for (x = 0; x < raw_len; x++)
				raw[x] = (uint8_t)rng_next(&r);
			for (x = 3; x < raw_len; x += 4)
				raw[x] = (uint8_t)(0x30 + rng_below(&r, 16));
			body_len = ref_encode_body(raw, raw_len, k, mode, dec_buf);
			memcpy(body, dec_buf, body_len);
			if (it % 4 == 1 && body_len)
				body[rng_below(&r, (uint32_t)body_len)] ^=
					(uint8_t)(1u << rng_below(&r, 8));
		}
		for (j = 0; impls[j]; j++) {
			uint8_t *o = j ? out : out0;

			inc_impl_select(impls[j]);
			memset(o, GUARD_BYTE, raw_len + GUARD);
			rc = inc_chunk_decode(body, body_len, raw_len, k, mode, o,
					      raw_len);
			if (!j)
				rc0 = rc;
			else if (rc != rc0 || (!rc && memcmp(o, out0, raw_len)))
				disagree++;
			if (!guard_ok(o + raw_len, GUARD))
				disagree++;
		}
		memset(&h, 0, sizeof(h));
		if (inc_chunk_hist(body, body_len, raw_len, k, mode, &h) != rc0)
			hist_bad++;
		ok_n += !rc0;
	}
	inc_impl_select("auto");
	t_ok(!disagree, "20000 random chunk bodies (%zu valid): every impl returns the same code and bytes, none writes past raw_len (%zu disagreements)",
	     ok_n, disagree);
	t_ok(!hist_bad, "inc_chunk_hist accepts and rejects exactly the bodies inc_chunk_decode does (%zu differ)",
	     hist_bad);
}

int main(void)
{
	size_t i;

	impls = inc_impl_list();
	for (i = 0; impls[i]; i++)
		t_diag("implementation: %s", impls[i]);
	make_fixtures();
	test_truncation();
	test_bitflips(FX_A_PAPER);
	test_bitflips(FX_A_SPARSE);
	test_bitflips(FX_B_SPARSE);
	test_bitflips(FX_TINY);
	test_reseal_identity();
	test_chunk_header_fields();
	test_file_header_fields();
	test_huge_raw_bytes();
	test_bodies();
	test_not_inccodec();
	test_decompress_capacity();
	test_compress_capacity();
	test_args();
	test_strerror();
	test_random_bodies();
	test_null_empty();
	return t_done();
}
