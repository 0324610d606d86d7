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
					const struct kq *kq, uint8_t *dst,
					unsigned int *size)
{
	uint8_t *p = dst + 2;
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
	inc_put16(dst, (uint16_t)tw);
	*size = (unsigned int)(p - dst);
	return tw;
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

static int inc_scalar_usable(void)
{
	return 1;
}

#define INC_LOOPS_IMPL(x)	inc_scalar_##x
#define INC_LOOPS_NAME		"scalar"
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
