/* SPDX-License-Identifier: MIT */
/*
 * Definitions shared by the codec's implementations. Not installed.
 */
#ifndef INC_CODEC_INTERNAL_H
#define INC_CODEC_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "inccodec.h"

/*
 * Encoders may store 32 bytes at the start of any group's payload, even a
 * short last group's, so their buffer is this much over the bound.
 */
#define INC_ENC_SLACK		32
/* Groups of the largest chunk, and the largest encoded chunk body. */
#define INC_CHUNK_MAX_GROUPS	((INC_CHUNK_MAX_VALUES + INC_GROUP_VALUES - 1) / \
				 INC_GROUP_VALUES)
#define INC_CHUNK_BOUND_MAX	(2 * INC_CHUNK_MAX_GROUPS + INC_CHUNK_MAX_BYTES + \
				 (INC_CHUNK_MAX_GROUPS + INC_SEGMENT_GROUPS - 1) / \
				 INC_SEGMENT_GROUPS)

#define INC_MIN(a, b)		((a) < (b) ? (a) : (b))

static inline uint16_t inc_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline void inc_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline uint32_t inc_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void inc_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t inc_get64(const uint8_t *p)
{
	return (uint64_t)inc_get32(p) | (uint64_t)inc_get32(p + 4) << 32;
}

static inline void inc_put64(uint8_t *p, uint64_t v)
{
	inc_put32(p, (uint32_t)v);
	inc_put32(p + 4, (uint32_t)(v >> 32));
}

/* Payload bytes of each class. */
static const uint8_t inc_class_bytes[4] = { 0, 1, 2, 4 };

/*
 * The quantizer, bit-exact with rtl/ (docs/codec.md, "Quantizer").
 * |v| = m * 2^(e-150) with m the 24-bit significand, so
 * t = |v| * 2^(k-1) = m * 2^-sh with sh = 151 - k - e, and
 * q = floor(t + 1/2) = (m + 2^(sh-1)) >> sh.
 */
static inline enum inc_class inc_classify_inline(uint32_t bits, unsigned int k,
						 int32_t *q)
{
	uint32_t e = (bits >> 23) & 0xff;
	uint32_t m = (bits & 0x7fffff) | 0x800000;
	uint32_t sh, mag;

	*q = 0;
	if (e + k >= 143)	/* sh <= 8: |q| >= 2^15, Inf and NaN too */
		return INC_CLASS_RAW;
	sh = 151 - k - e;	/* 9 .. 150 */
	mag = sh >= 32 ? 0 : (m + (1u << (sh - 1))) >> sh;
	if (mag > 32767)
		return INC_CLASS_RAW;
	if (!mag)
		return INC_CLASS_ZERO;
	*q = (bits >> 31) ? -(int32_t)mag : (int32_t)mag;
	return mag <= 127 ? INC_CLASS_Q8 : INC_CLASS_Q16;
}

static inline float inc_scale(unsigned int k)
{
	union { uint32_t u; float f; } s = { .u = (uint32_t)(128 - k) << 23 };

	return s.f;	/* 2^(1-k) */
}

static inline uint32_t inc_f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/*
 * Payload bytes of a tag word's eight values: tags 1, 2, 3 take 1, 2, 4
 * bytes, i.e. (low bit) + 2 * (high bit) + (both bits).
 */
static inline unsigned int inc_tagword_bytes(unsigned int tw)
{
	return (unsigned int)(__builtin_popcount(tw & 0x5555) +
			      2 * __builtin_popcount(tw & 0xaaaa) +
			      __builtin_popcount(tw & tw >> 1 & 0x5555));
}

/*
 * An implementation encodes and decodes the values of one chunk (the tail
 * bytes are handled by the caller). See codec_loops.h.
 *
 * encode: n values at raw (4n bytes), dst has inc_chunk_bound() +
 * INC_ENC_SLACK bytes; returns the bytes written.
 * decode: exactly body_len bytes into n values at dst (4n bytes); *used
 * receives the bytes consumed; hist (optional) counts classes.
 * quantize: n values at src to the values they decode to, at dst (4n
 * bytes each; src == dst allowed), docs/codec.md section 2.
 * width_encode, width_decode: width mode (docs/codec.md section 12), as
 * inc_width_encode and inc_width_decode below, which they must match.
 */
struct inc_impl {
	const char *name;
	int (*usable)(void);
	size_t (*encode)(const uint8_t *raw, size_t n, unsigned int k,
			 int sparse, uint8_t *dst);
	int (*decode)(const uint8_t *body, size_t body_len, size_t n,
		      unsigned int k, int sparse, uint8_t *dst, size_t *used,
		      struct inc_hist *hist);
	void (*quantize)(const uint8_t *src, size_t n, unsigned int k,
			 uint8_t *dst);
	size_t (*width_encode)(const uint8_t *raw, size_t n, unsigned int k,
			       uint8_t *dst);
	int (*width_decode)(const uint8_t *body, size_t body_len, size_t n,
			    unsigned int k, uint8_t *dst, size_t *used,
			    struct inc_hist *hist);
};

/*
 * Width mode (chunk_width.c): the golden model, the scalar implementation's
 * and the reference of the SIMD paths (chunk_width_avx2.c,
 * chunk_width_avx512.c). encode: n values at raw to dst
 * (inc_width_bound(n) + INC_ENC_SLACK bytes); returns the bytes written.
 * decode: as struct inc_impl's.
 */
size_t inc_width_bound(size_t n);
#define INC_WIDTH_DECLARE(x)						\
	size_t x##_encode(const uint8_t *raw, size_t n, unsigned int k,	\
			  uint8_t *dst);				\
	int x##_decode(const uint8_t *body, size_t body_len, size_t n,	\
		       unsigned int k, uint8_t *dst, size_t *used,	\
		       struct inc_hist *hist)
INC_WIDTH_DECLARE(inc_width);
INC_WIDTH_DECLARE(inc_avx2_width);
INC_WIDTH_DECLARE(inc_avx512_width);

extern const struct inc_impl inc_scalar_impl;
extern const struct inc_impl inc_avx2_impl;
extern const struct inc_impl inc_avx512_impl;

const struct inc_impl *inc_impl_current(void);

/* Lookup tables shared by the SIMD paths (tables.c). */
extern const uint16_t inc_spread8[256];	/* bit i -> bit 2i */
extern const uint8_t inc_tagbyte_bytes[256];	/* payload bytes, 4 tags */

#endif /* INC_CODEC_INTERNAL_H */
