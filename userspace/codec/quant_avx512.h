/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 quantizer (docs/codec.md section 2, the bit-level form), 16
 * values a register: shared by the paper/sparse path (chunk_avx512.c) and
 * the width path (chunk_width_avx512.c). Needs AVX-512 F.
 */
#ifndef INC_QUANT_AVX512_H
#define INC_QUANT_AVX512_H

#include <immintrin.h>

#include "codec_internal.h"

struct kq {
	__m512i zeroexp;	/* (127 - k) << 23: |bits| below is ZERO */
	__m512i shbase;		/* 151 - k */
	__m512i rawexp;		/* 142 - k: exponents above are RAW */
	__m512 scale;		/* 2^(1-k) */
};

static inline void kq_init(struct kq *kq, unsigned int k)
{
	kq->zeroexp = _mm512_set1_epi32((127 - (int)k) << 23);
	kq->shbase = _mm512_set1_epi32(151 - (int)k);
	kq->rawexp = _mm512_set1_epi32(142 - (int)k);
	kq->scale = _mm512_set1_ps(inc_scale(k));
}

/* |q| of the 16 values x in *mag (meaningless on RAW lanes); returns the
 * RAW lanes */
static inline __mmask16 quant16(__m512i x, const struct kq *kq, __m512i *mag)
{
	const __m512i one = _mm512_set1_epi32(1);
	__m512i e = _mm512_and_si512(_mm512_srli_epi32(x, 23),
				     _mm512_set1_epi32(0xff));
	__m512i m = _mm512_ternarylogic_epi32(x, _mm512_set1_epi32(0x7fffff),
					      _mm512_set1_epi32(0x800000),
					      0xea);	/* (a & b) | c */
	__m512i sh = _mm512_sub_epi32(kq->shbase, e);
	/* shift counts outside 0..31 give 0, as the reference's sh >= 32 */
	__m512i half = _mm512_sllv_epi32(one, _mm512_sub_epi32(sh, one));

	*mag = _mm512_srlv_epi32(_mm512_add_epi32(m, half), sh);
	return _mm512_cmpgt_epi32_mask(e, kq->rawexp) |
	       _mm512_cmpgt_epi32_mask(*mag, _mm512_set1_epi32(32767));
}

#endif /* INC_QUANT_AVX512_H */
