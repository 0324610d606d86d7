// SPDX-License-Identifier: MIT
/*
 * Width mode (mode 3, docs/codec.md section 12): the golden model, one
 * value at a time, exactly as the spec states it. Groups of 16 values,
 * segments of 8 groups with a mask byte of the groups present; a present
 * group is a bit string (LSB first) padded to whole bytes: width w (4
 * bits), dense bit, RAW bit, [mask of coded values], [RAW mask], sign + w
 * bits per coded value; then its RAW values, 4 bytes each.
 *
 * The scalar implementation uses it; the SIMD paths (chunk_width_avx2.c,
 * chunk_width_avx512.c) must give its bytes and its verdicts, and the tests
 * compare them with it. The encoding is unique, and the decoder rejects
 * every other one.
 */
#include "codec_internal.h"

#define WG		INC_WIDTH_GROUP_VALUES
#define WSEG		(INC_SEGMENT_GROUPS * WG)

/* bits of x: 0 for 0 */
static unsigned int bit_width(uint32_t x)
{
	return x ? 32 - (unsigned int)__builtin_clz(x) : 0;
}

/* ---- bits, LSB first, within one group ---- */

/* bits go into acc above the nacc already there; whole bytes leave it */
struct bitw {
	uint8_t *p;		/* the next byte to write */
	uint64_t acc;
	unsigned int nacc;	/* bits in acc, < 8 between calls */
};

/* v's low n bits (n <= 16, v < 2^n) */
static void put_bits(struct bitw *w, uint32_t v, unsigned int n)
{
	w->acc |= (uint64_t)v << w->nacc;
	w->nacc += n;
	while (w->nacc >= 8) {
		*w->p++ = (uint8_t)w->acc;
		w->acc >>= 8;
		w->nacc -= 8;
	}
}

/* the last byte, its high bits 0 */
static void put_pad(struct bitw *w)
{
	if (w->nacc)
		*w->p++ = (uint8_t)w->acc;
	w->acc = 0;
	w->nacc = 0;
}

struct bitr {
	const uint8_t *p;
	size_t avail;		/* bytes readable at p */
	unsigned int pos;	/* bits read */
};

/* n bits (n <= 16) at the read position; -1 past the available bytes */
static int64_t get_bits(struct bitr *r, unsigned int n)
{
	unsigned int at = r->pos / 8, sh = r->pos % 8, i;
	uint32_t v = 0;

	if ((size_t)(r->pos + n + 7) / 8 > r->avail)
		return -1;
	for (i = 0; i * 8 < sh + n; i++)	/* the bytes the bits touch */
		v |= (uint32_t)r->p[at + i] << (8 * i);
	r->pos += n;
	return (v >> sh) & ((1u << n) - 1);
}

/* the group's coded fields, from its values */
struct wgroup {
	unsigned int w, dense, nraw, cnt;
	uint16_t coded, raw;		/* masks: coded in mask form; RAW */
	uint32_t mag[WG], bits[WG];
	unsigned int neg[WG];
};

static void classify_group(const uint8_t *in, unsigned int cnt,
			   unsigned int k, struct wgroup *g)
{
	uint32_t maxmag = 0;
	unsigned int i, nz = 0, nnr, cbits;

	memset(g, 0, sizeof(*g));
	g->cnt = cnt;
	for (i = 0; i < cnt; i++) {
		uint32_t bits = inc_get32(in + 4 * i);
		int32_t q;
		enum inc_class c = inc_classify_inline(bits, k, &q);

		g->bits[i] = bits;
		if (c == INC_CLASS_RAW) {
			g->raw |= (uint16_t)(1u << i);
			g->nraw++;
			continue;
		}
		g->mag[i] = (uint32_t)(q < 0 ? -q : q);
		g->neg[i] = q < 0;
		if (q) {
			g->coded |= (uint16_t)(1u << i);
			nz++;
			if (g->mag[i] > maxmag)
				maxmag = g->mag[i];
		}
	}
	g->w = bit_width(maxmag);
	/* dense when its value bits are fewer than the mask and the nonzero
	 * values' (a tie: the mask form) */
	nnr = cnt - g->nraw;
	cbits = 1 + g->w;
	g->dense = nnr * cbits < WG + nz * cbits;
}

/* the group's bytes at p (bound: 3 + 33 + 64); returns them */
static size_t group_put(const struct wgroup *g, uint8_t *p)
{
	struct bitw w = { p, 0, 0 };
	size_t len;
	unsigned int i;

	put_bits(&w, g->w, 4);
	put_bits(&w, g->dense, 1);
	put_bits(&w, g->nraw != 0, 1);
	if (!g->dense)
		put_bits(&w, g->coded, WG);
	if (g->nraw)
		put_bits(&w, g->raw, WG);
	for (i = 0; i < g->cnt; i++) {
		if (g->raw >> i & 1)
			continue;
		if (!g->dense && !(g->coded >> i & 1))
			continue;
		put_bits(&w, g->neg[i], 1);
		put_bits(&w, g->mag[i], g->w);
	}
	put_pad(&w);
	len = (size_t)(w.p - p);
	for (i = 0; i < g->cnt; i++)
		if (g->raw >> i & 1) {
			inc_put32(p + len, g->bits[i]);
			len += 4;
		}
	return len;
}

size_t inc_width_encode(const uint8_t *raw, size_t n, unsigned int k,
			uint8_t *dst)
{
	uint8_t *p = dst;
	size_t v0;

	for (v0 = 0; v0 < n; v0 += WSEG) {
		size_t vals = INC_MIN(n - v0, (size_t)WSEG);
		unsigned int groups = (unsigned int)((vals + WG - 1) / WG), j;
		uint8_t *mask = p++;

		*mask = 0;
		for (j = 0; j < groups; j++) {
			unsigned int cnt = (unsigned int)INC_MIN(vals - (size_t)j * WG,
								 (size_t)WG);
			struct wgroup g;

			classify_group(raw + 4 * (v0 + (size_t)j * WG), cnt, k, &g);
			if (!g.coded && !g.nraw)
				continue;	/* all ZERO: absent */
			*mask = (uint8_t)(*mask | 1u << j);
			p += group_put(&g, p);
		}
	}
	return (size_t)(p - dst);
}

size_t inc_width_bound(size_t n)
{
	size_t groups = (n + WG - 1) / WG;

	/* a group: at most 3 bytes of header and masks beside 4 bytes a
	 * value (all RAW); one mask byte a segment */
	return 4 * n + 3 * groups + (groups + INC_SEGMENT_GROUPS - 1) /
	       INC_SEGMENT_GROUPS;
}

/* one group from r; its values (cnt of them) to out; 0 or -INC_ECORRUPT */
static int group_get(struct bitr *r, unsigned int cnt, unsigned int k,
		     uint8_t *out, size_t *len, struct inc_hist *hist)
{
	float scale = inc_scale(k);
	unsigned int w, dense, hasraw, i, nz = 0, nnr, cbits;
	uint32_t coded = 0, rawm = 0, maxmag = 0;
	uint32_t full = cnt == WG ? 0xffff : (1u << cnt) - 1;
	int64_t v;
	size_t hdr, off;

	if ((v = get_bits(r, 6)) < 0)
		return -INC_ECORRUPT;
	w = (unsigned int)v & 15;
	dense = (unsigned int)v >> 4 & 1;
	hasraw = (unsigned int)v >> 5 & 1;
	if (!dense && (v = get_bits(r, WG)) >= 0)
		coded = (uint32_t)v;
	if (v < 0)
		return -INC_ECORRUPT;
	if (hasraw && (v = get_bits(r, WG)) >= 0)
		rawm = (uint32_t)v;
	if (v < 0)
		return -INC_ECORRUPT;
	if ((coded | rawm) & ~full || coded & rawm || (hasraw && !rawm))
		return -INC_ECORRUPT;	/* padding, both, an empty RAW mask */
	if (dense)
		coded = full & ~rawm;
	for (i = 0; i < cnt; i++) {
		uint32_t out_bits = 0;

		if (coded >> i & 1) {
			int64_t s = get_bits(r, 1), m = get_bits(r, w);

			if (s < 0 || m < 0)
				return -INC_ECORRUPT;
			if (!m && (s || !dense))
				return -INC_ECORRUPT;	/* -0, or a coded 0 */
			if ((uint32_t)m > maxmag)
				maxmag = (uint32_t)m;
			if (m) {
				nz++;
				out_bits = inc_f2u((float)(s ? -m : m) * scale);
			}
			if (hist)
				hist->cls[!m ? INC_CLASS_ZERO : m <= 127 ?
					  INC_CLASS_Q8 : INC_CLASS_Q16]++;
		} else if (!(rawm >> i & 1) && hist) {
			hist->cls[INC_CLASS_ZERO]++;
		}
		inc_put32(out + 4 * i, out_bits);
	}
	/* the encoding is unique: exact width, the form the rule picks, zero
	 * padding bits, a group that has something */
	nnr = cnt - (unsigned int)__builtin_popcount(rawm);
	cbits = 1 + w;
	if (bit_width(maxmag) != w || dense != (nnr * cbits < WG + nz * cbits) ||
	    (!nz && !rawm))
		return -INC_ECORRUPT;
	if (r->pos % 8 && get_bits(r, 8 - r->pos % 8) != 0)
		return -INC_ECORRUPT;
	hdr = r->pos / 8;
	off = hdr;
	for (i = 0; i < cnt; i++) {
		uint32_t bits;
		int32_t q;

		if (!(rawm >> i & 1))
			continue;
		if (off + 4 > r->avail)
			return -INC_ECORRUPT;
		bits = inc_get32(r->p + off);
		if (inc_classify_inline(bits, k, &q) != INC_CLASS_RAW)
			return -INC_ECORRUPT;	/* not a value RAW holds */
		inc_put32(out + 4 * i, bits);
		off += 4;
		if (hist)
			hist->cls[INC_CLASS_RAW]++;
	}
	*len = off;
	return 0;
}

int inc_width_decode(const uint8_t *body, size_t body_len, size_t n,
		     unsigned int k, uint8_t *dst, size_t *used,
		     struct inc_hist *hist)
{
	const uint8_t *p = body, *end = body + body_len;
	size_t v0;

	for (v0 = 0; v0 < n; v0 += WSEG) {
		size_t vals = INC_MIN(n - v0, (size_t)WSEG);
		unsigned int groups = (unsigned int)((vals + WG - 1) / WG), j;
		unsigned int present;

		if (p == end)
			return -INC_ECORRUPT;
		present = *p++;
		if (present >> groups)
			return -INC_ECORRUPT;	/* bits past the last group */
		for (j = 0; j < groups; j++) {
			unsigned int cnt = (unsigned int)INC_MIN(vals - (size_t)j * WG,
								 (size_t)WG);
			uint8_t *o = dst + 4 * (v0 + (size_t)j * WG);
			struct bitr r = { p, (size_t)(end - p), 0 };
			size_t len;
			int err;

			if (hist)
				hist->groups++;
			if (!(present >> j & 1)) {
				memset(o, 0, 4 * (size_t)cnt);
				if (hist) {
					hist->cls[INC_CLASS_ZERO] += cnt;
					hist->zero_groups++;
				}
				continue;
			}
			err = group_get(&r, cnt, k, o, &len, hist);
			if (err)
				return err;
			p += len;
		}
	}
	*used = (size_t)(p - body);
	return 0;
}
