/* SPDX-License-Identifier: MIT */
/*
 * Width mode's chunk loops for the SIMD paths (docs/codec.md section 12),
 * shared by chunk_width_avx2.c and chunk_width_avx512.c. They must give the
 * golden model's (chunk_width.c) bytes and verdicts exactly. The bit fields
 * move with BMI2: a group's coded fields all have 1 + w bits, so pext packs
 * up to eight of them at once from 8-bit lanes (up to four from 16-bit
 * ones when they are wider), and pdep unpacks them straight into their
 * lanes. An implementation file defines struct kq,
 * kq_init() and these, then includes this file:
 *
 *   unsigned int wsegment_present(const uint8_t *in, const struct kq *kq);
 *	For the 8 groups of 16 values at in (512 bytes): bit j set when
 *	group j has a value that is not ZERO.
 *
 *   unsigned int wgroup_fields(const uint8_t *in, const struct kq *kq,
 *                              uint16_t *f, unsigned int *raw);
 *	Quantize the 16 values at in (64 bytes): f[i] = |q| << 1 | sign for
 *	a value that is neither RAW nor ZERO, else 0; *raw = the mask of
 *	the RAW values; returns the mask of the f[i] != 0.
 *
 *   unsigned int wgroup_values(__m256i f, unsigned int w,
 *                              const struct kq *kq, uint8_t *out,
 *                              unsigned int *bad);
 *	The inverse: 16 fields |q| << 1 | sign (value i in 16-bit lane i of
 *	f) to the floats they code, at out (64 bytes; +0.0
 *	where |q| = 0); returns the mask of the fields with |q| != 0; sets
 *	*bad when a field is a -0 (sign 1, |q| 0), or when w > 0 and no |q|
 *	has bit w - 1 set.
 */
#ifndef INC_WLOOPS_IMPL
#error "define INC_WLOOPS_IMPL before including width_loops.h"
#endif

#define WG		INC_WIDTH_GROUP_VALUES
#define WSEG		(INC_SEGMENT_GROUPS * WG)
#define WGROUP_BYTES	(4 * WG)
/* Largest segment: the mask, 8 groups of 3 header bytes and 16 RAW values. */
#define WSEG_MAX	(1 + INC_SEGMENT_GROUPS * (3 + WGROUP_BYTES))
/* Bytes a group's decode may read past its start, whatever its size. */
#define WOVERREAD	64

static inline uint64_t wload64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);	/* x86: little-endian */
	return v;
}

/* bits of x: 0 for 0 */
static inline unsigned int wbit_width(uint32_t x)
{
	return x ? 32 - (unsigned int)__builtin_clz(x) : 0;
}

/*
 * Fields of cb bits go L at a time between lanes of lb bits and the 56
 * bits a 64-bit load or store moves at any bit offset: 8 lanes of 8 bits
 * for cb <= 7, 4 of 16 for cb <= 14, 2 of 16 for 15 and 16 (WFIELDS).
 */
#define WFIELDS(cb, fn, ...)						\
	do {								\
		if ((cb) <= 7)						\
			fn(__VA_ARGS__, 8, 8);				\
		else if ((cb) <= 14)					\
			fn(__VA_ARGS__, 4, 16);				\
		else							\
			fn(__VA_ARGS__, 2, 16);				\
	} while (0)

/* low cb bits of each lane of lb bits whose bit is set in sub */
static inline uint64_t wfield_mask(unsigned int sub, unsigned int cb,
				   unsigned int lb)
{
	return _pdep_u64(sub, lb == 8 ? 0x0101010101010101ull :
					0x0001000100010001ull) *
	       ((1ull << cb) - 1);
}

/* ---- encode ----------------------------------------------------------- */

/* bits LSB first to p, 8 bytes stored at a time; acc holds n < 8 bits */
struct wbits {
	uint8_t *p;
	uint64_t acc;
	unsigned int n;
};

/* v's low nb bits (nb <= 56, v < 2^nb) */
static inline void wput(struct wbits *b, uint64_t v, unsigned int nb)
{
	b->acc |= v << b->n;
	memcpy(b->p, &b->acc, 8);
	b->n += nb;
	b->p += b->n >> 3;
	b->acc >>= b->n & ~7u;
	b->n &= 7;
}

/* the coded lanes' fields, cb bits each, from 16-bit lanes f (8-bit lanes
 * f8 when lb is 8), L lanes a step */
static inline __attribute__((always_inline)) void
wput_fields(struct wbits *b, const uint16_t *f, const uint8_t *f8,
	    unsigned int coded, unsigned int cb, unsigned int L,
	    unsigned int lb)
{
	unsigned int i;

#pragma GCC unroll 8	/* all of it: a loop here costs a third of the speed */
	for (i = 0; i < WG; i += L) {
		unsigned int sub = coded >> i & ((1u << L) - 1);
		uint64_t lanes = 0;

		memcpy(&lanes, lb == 8 ? f8 + i : (const uint8_t *)(f + i),
		       L * lb / 8);
		wput(b, _pext_u64(lanes, wfield_mask(sub, cb, lb)),
		     (unsigned int)__builtin_popcount(sub) * cb);
	}
}

/* One present group of cnt values at in (64 bytes readable) to p; returns
 * the end of its bytes (it stores up to 8 bytes past them). */
static inline uint8_t *wgroup_put(const uint8_t *in, unsigned int cnt,
				  const struct kq *kq, uint8_t *p)
{
	uint16_t f[WG];
	uint8_t f8[WG];
	unsigned int raw, nzm = wgroup_fields(in, kq, f, &raw);
	unsigned int full = (1u << cnt) - 1, w, cb, dense, coded, h;
	uint64_t any = wload64((uint8_t *)f) | wload64((uint8_t *)(f + 4)) |
		       wload64((uint8_t *)(f + 8)) | wload64((uint8_t *)(f + 12));
	struct wbits b = { p, 0, 0 };

	/* w: the bits of the largest |q|, that of the OR of them all */
	any |= any >> 32;
	any |= any >> 16;
	w = wbit_width((uint32_t)(any & 0xffff) >> 1);
	cb = 1 + w;
	/* the form with fewer bits, the mask form on a tie */
	dense = (cnt - (unsigned int)__builtin_popcount(raw)) * cb <
		WG + (unsigned int)__builtin_popcount(nzm) * cb;
	coded = dense ? full & ~raw : nzm;
	/* w, D, R, [coded mask], [RAW mask] */
	h = dense ? 6 : 22;
	wput(&b, w | dense << 4 | (unsigned int)(raw != 0) << 5 |
		 (uint64_t)(dense ? 0 : coded) << 6 | (uint64_t)raw << h,
	     raw ? h + 16 : h);
	h += raw ? 16 : 0;
	if (cb <= 7)	/* the fields to bytes (exact: below 2^8) */
		_mm_storeu_si128((__m128i *)f8, _mm_packus_epi16(
			_mm_loadu_si128((const __m128i *)f),
			_mm_loadu_si128((const __m128i *)(f + 8))));
	WFIELDS(cb, wput_fields, &b, f, f8, coded, cb);
	p += (h + (unsigned int)__builtin_popcount(coded) * cb + 7) / 8;
	while (raw) {
		unsigned int i = (unsigned int)__builtin_ctz(raw);

		raw &= raw - 1;
		memcpy(p, in + 4 * i, 4);
		p += 4;
	}
	return p;
}

size_t INC_WLOOPS_IMPL(encode)(const uint8_t *raw, size_t n, unsigned int k,
			       uint8_t *dst)
{
	uint8_t pad[4 * WSEG], *p = dst;
	struct kq kq;
	size_t v0;

	kq_init(&kq, k);
	for (v0 = 0; v0 < n; v0 += WSEG) {
		const uint8_t *in = raw + 4 * v0;
		size_t vals = INC_MIN(n - v0, (size_t)WSEG);
		unsigned int present;

		if (vals < WSEG) {
			/* +0.0 pads the short segment: ZERO, absent */
			memset(pad, 0, sizeof(pad));
			memcpy(pad, in, 4 * vals);
			in = pad;
		}
		present = wsegment_present(in, &kq);
		*p++ = (uint8_t)present;
		while (present) {
			unsigned int j = (unsigned int)__builtin_ctz(present);
			unsigned int cnt = (unsigned int)INC_MIN(vals - (size_t)j * WG,
								 (size_t)WG);

			present &= present - 1;
			p = wgroup_put(in + WGROUP_BYTES * j, cnt, &kq, p);
		}
	}
	return (size_t)(p - dst);
}

/* ---- decode ----------------------------------------------------------- */

/* the fields of the coded lanes, cb bits each from bit off of p, into
 * their lanes of lb bits (the others 0) in *fv as 16-bit lanes, L lanes
 * a step */
static inline __attribute__((always_inline)) void
wget_fields(const uint8_t *p, unsigned int off, unsigned int coded,
	    unsigned int cb, __m256i *fv, unsigned int L, unsigned int lb)
{
	uint64_t f[4] = { 0, 0, 0, 0 };
	unsigned int i;

#pragma GCC unroll 8	/* all of it: a loop here costs a third of the speed */
	for (i = 0; i < WG; i += L) {
		unsigned int sub = coded >> i & ((1u << L) - 1);
		uint64_t bits = wload64(p + off / 8) >> (off % 8);

		f[i * lb / 64] |= _pdep_u64(bits, wfield_mask(sub, cb, lb)) <<
				  (i * lb % 64);
		off += (unsigned int)__builtin_popcount(sub) * cb;
	}
	if (lb == 8)
		*fv = _mm256_cvtepu8_epi16(_mm_set_epi64x((long long)f[1],
							  (long long)f[0]));
	else
		*fv = _mm256_set_epi64x((long long)f[3], (long long)f[2],
					(long long)f[1], (long long)f[0]);
}

/*
 * One present group of cnt values at p (avail bytes, and WOVERREAD bytes
 * readable whatever avail says) to out (64 bytes); *len = its bytes. The
 * golden model's checks (group_get in chunk_width.c), all of them
 * INC_ECORRUPT, in another order.
 */
static inline int wgroup_get(const uint8_t *p, size_t avail, unsigned int cnt,
			     unsigned int k, const struct kq *kq, uint8_t *out,
			     size_t *len)
{
	uint64_t hdr = wload64(p);
	__m256i fv;
	unsigned int w = hdr & 15, dense = hdr >> 4 & 1, hasraw = hdr >> 5 & 1;
	unsigned int h = dense ? 6 : 22, full = (1u << cnt) - 1, cb = 1 + w;
	unsigned int coded = dense ? 0 : (unsigned int)(hdr >> 6) & 0xffff;
	unsigned int raw = hasraw ? (unsigned int)(hdr >> h) & 0xffff : 0;
	unsigned int bad, nzm, nz, bits, bytes, i;

	/* mask bits past cnt, a value both coded and RAW, an empty RAW mask */
	bad = ((coded | raw) & ~full) | (coded & raw) | (hasraw && !raw);
	h += hasraw ? 16 : 0;
	if (dense)
		coded = full & ~raw;
	bits = h + (unsigned int)__builtin_popcount(coded) * cb;
	bytes = (bits + 7) / 8;
	*len = bytes + 4 * (size_t)__builtin_popcount(raw);
	if (bad || *len > avail)
		return -INC_ECORRUPT;
	WFIELDS(cb, wget_fields, p, h, coded, cb, &fv);
	nzm = wgroup_values(fv, w, kq, out, &bad);
	nz = (unsigned int)__builtin_popcount(nzm);
	/* a coded 0 in the mask form; the form the rule does not pick; a
	 * group with nothing in it; a padding bit set */
	bad |= (!dense && nzm != coded) |
	       (dense != ((cnt - (unsigned int)__builtin_popcount(raw)) * cb <
			  WG + nz * cb)) |
	       (!nz && !raw) |
	       (p[(bits - 1) / 8] >> ((bits - 1) % 8 + 1) != 0);
	if (bad)
		return -INC_ECORRUPT;
	for (i = bytes; raw; i += 4) {
		unsigned int j = (unsigned int)__builtin_ctz(raw);
		uint32_t v = inc_get32(p + i);
		int32_t q;

		raw &= raw - 1;
		if (inc_classify_inline(v, k, &q) != INC_CLASS_RAW)
			return -INC_ECORRUPT;	/* not a value RAW holds */
		memcpy(out + 4 * j, &v, 4);
	}
	return 0;
}

int INC_WLOOPS_IMPL(decode)(const uint8_t *body, size_t body_len, size_t n,
			    unsigned int k, uint8_t *dst, size_t *used,
			    struct inc_hist *hist)
{
	const uint8_t *p = body, *end = body + body_len;
	/* the last bytes of the body, with room to read past them */
	uint8_t tail[WSEG_MAX + 2 * WOVERREAD], tmp[WGROUP_BYTES];
	size_t v0, done = 0;	/* body bytes before the tail copy */
	int in_tail = 0;
	struct kq kq;

	if (hist)	/* statistics: the golden model counts them */
		return inc_width_decode(body, body_len, n, k, dst, used, hist);
	kq_init(&kq, k);
	for (v0 = 0; v0 < n; v0 += WSEG) {
		size_t vals = INC_MIN(n - v0, (size_t)WSEG);
		unsigned int groups = (unsigned int)((vals + WG - 1) / WG), j;
		unsigned int present;
		uint8_t *out = dst + 4 * v0;

		if (!in_tail && (size_t)(end - p) < WSEG_MAX + WOVERREAD) {
			/* from here on, a zero-padded copy: every group may
			 * be read WOVERREAD bytes past its start */
			done = (size_t)(p - body);
			memset(tail, 0, sizeof(tail));
			if (end != p)
				memcpy(tail, p, (size_t)(end - p));
			end = tail + (end - p);
			p = tail;
			in_tail = 1;
		}
		if (p == end)
			return -INC_ECORRUPT;
		present = *p++;
		if (present >> groups)
			return -INC_ECORRUPT;	/* bits past the last group */
		for (j = 0; j < groups; j++) {
			unsigned int cnt = (unsigned int)INC_MIN(vals - (size_t)j * WG,
								 (size_t)WG);
			uint8_t *o = out + WGROUP_BYTES * j;
			size_t len;
			int err;

			if (!(present >> j & 1)) {
				if (cnt == WG)
					memset(o, 0, WGROUP_BYTES);
				else
					memset(o, 0, 4 * (size_t)cnt);
				continue;
			}
			if (cnt == WG) {
				err = wgroup_get(p, (size_t)(end - p), cnt, k,
						 &kq, o, &len);
			} else {
				/* the short last group: through a copy */
				err = wgroup_get(p, (size_t)(end - p), cnt, k,
						 &kq, tmp, &len);
				memcpy(o, tmp, 4 * (size_t)cnt);
			}
			if (err)
				return err;
			p += len;
		}
	}
	*used = in_tail ? done + (size_t)(p - tail) : (size_t)(p - body);
	return 0;
}

#undef WG
#undef WSEG
#undef WGROUP_BYTES
#undef WSEG_MAX
#undef WOVERREAD
