// SPDX-License-Identifier: MIT
/*
 * The scalar reference implementation: the golden model that the SIMD paths
 * and the RTL engines are checked against. Written for clarity, one value at
 * a time, exactly as docs/codec.md states it.
 */
#include "codec_internal.h"

struct kq {
	unsigned int k;
	float scale;	/* 2^(1-k), the quantizer step */
};

static inline void kq_init(struct kq *kq, unsigned int k)
{
	kq->k = k;
	kq->scale = inc_scale(k);
}

static inline unsigned int group_encode(const uint8_t *in,
					const struct kq *kq, uint8_t *pay,
					unsigned int *size)
{
	uint8_t *p = pay;
	unsigned int tw = 0, i;

	for (i = 0; i < INC_GROUP_VALUES; i++) {
		uint32_t bits = inc_get32(in + 4 * i);
		int32_t q;
		enum inc_class c = inc_classify_inline(bits, kq->k, &q);

		tw |= (unsigned int)c << (2 * i);
		switch (c) {
		case INC_CLASS_ZERO:
			break;
		case INC_CLASS_Q8:
			*p++ = (uint8_t)q;
			break;
		case INC_CLASS_Q16:
			inc_put16(p, (uint16_t)q);
			p += 2;
			break;
		case INC_CLASS_RAW:
			inc_put32(p, bits);
			p += 4;
			break;
		}
	}
	*size = (unsigned int)(p - pay);
	return tw;
}

static inline uint32_t group_encode2(const uint8_t *a, const uint8_t *b,
				     const struct kq *kq, uint8_t *pay,
				     unsigned int *size)
{
	unsigned int sa, sb, ta = group_encode(a, kq, pay, &sa);
	unsigned int tb = group_encode(b, kq, pay + sa, &sb);

	*size = sa + sb;
	return ta | tb << 16;
}

static inline unsigned int segment_present(const uint8_t *in,
					   const struct kq *kq)
{
	unsigned int present = 0, i;
	int32_t q;

	for (i = 0; i < INC_SEGMENT_GROUPS * INC_GROUP_VALUES; i++)
		if (inc_classify_inline(inc_get32(in + 4 * i), kq->k, &q) !=
		    INC_CLASS_ZERO)
			present |= 1u << (i / INC_GROUP_VALUES);
	return present;
}

static inline uint32_t dequant(enum inc_class c, int32_t q, uint32_t raw,
			       float scale)
{
	switch (c) {
	case INC_CLASS_ZERO:
		return 0;
	case INC_CLASS_RAW:
		return raw;
	default:
		return inc_f2u((float)q * scale);	/* exact: |q| < 2^15 */
	}
}

static inline void group_decode(unsigned int tw, const uint8_t *pl,
				const struct kq *kq, uint8_t *out)
{
	unsigned int i;

	for (i = 0; i < INC_GROUP_VALUES; i++) {
		enum inc_class c = (enum inc_class)((tw >> (2 * i)) & 3);
		int32_t q = 0;
		uint32_t raw = 0;

		if (c == INC_CLASS_Q8)
			q = (int8_t)pl[0];
		else if (c == INC_CLASS_Q16)
			q = (int16_t)inc_get16(pl);
		else if (c == INC_CLASS_RAW)
			raw = inc_get32(pl);
		pl += inc_class_bytes[c];
		inc_put32(out + 4 * i, dequant(c, q, raw, kq->scale));
	}
}

static inline void group_decode2(uint32_t tw2, const uint8_t *pay,
				 const struct kq *kq, uint8_t *oa, uint8_t *ob)
{
	group_decode(tw2 & 0xffff, pay, kq, oa);
	group_decode(tw2 >> 16, pay + inc_tagword_bytes(tw2 & 0xffff), kq, ob);
}

static inline unsigned int segment_offsets(const uint8_t *tags,
					   unsigned int cnt, uint16_t *off)
{
	unsigned int i, nul = 0;

	off[0] = 0;
	for (i = 0; i < cnt; i++) {
		unsigned int tw = inc_get16(tags + 2 * i);

		nul |= !tw;
		off[i + 1] = (uint16_t)(off[i] + inc_tagword_bytes(tw));
	}
	return nul;
}

static void inc_scalar_quantize(const uint8_t *src, size_t n, unsigned int k,
				uint8_t *dst)
{
	float scale = inc_scale(k);
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t bits = inc_get32(src + 4 * i);
		int32_t q;
		enum inc_class c = inc_classify_inline(bits, k, &q);

		inc_put32(dst + 4 * i, dequant(c, q, bits, scale));
	}
}

static int inc_scalar_usable(void)
{
	return 1;
}

#define INC_LOOPS_IMPL(x)	inc_scalar_##x
#define INC_LOOPS_NAME		"scalar"
#define INC_LOOPS_WIDTH(x)	inc_width_##x	/* the golden model */
#include "codec_loops.h"

enum inc_class inc_classify(uint32_t bits, unsigned int k, int32_t *q)
{
	return inc_classify_inline(bits, k, q);
}

uint32_t inc_dequantize(enum inc_class cls, int32_t q, uint32_t raw,
			unsigned int k)
{
	return dequant(cls, q, raw, inc_scale(k));
}
