/* SPDX-License-Identifier: MIT */
/*
 * The AVX2 quantizer (docs/codec.md section 2, the bit-level form), 8
 * values a register: shared by the paper/sparse path (chunk_avx2.c) and the
 * width path (chunk_width_avx2.c). Needs AVX2.
 */
#ifndef INC_QUANT_AVX2_H
#define INC_QUANT_AVX2_H

#include <immintrin.h>

#include "codec_internal.h"

struct kq {
	__m256i zeroexp;	/* (127 - k) << 23: |bits| below is ZERO */
	__m256i shbase;		/* 151 - k */
	__m256i rawexp;		/* 142 - k: exponents above are RAW */
	__m256 scale;		/* 2^(1-k) */
};

static inline void kq_init(struct kq *kq, unsigned int k)
{
	kq->zeroexp = _mm256_set1_epi32((127 - (int)k) << 23);
	kq->shbase = _mm256_set1_epi32(151 - (int)k);
	kq->rawexp = _mm256_set1_epi32(142 - (int)k);
	kq->scale = _mm256_set1_ps(inc_scale(k));
}

/* |q| of the 8 values x in *mag (meaningless on RAW lanes); returns the
 * RAW lanes, all ones */
static inline __m256i quant8(__m256i x, const struct kq *kq, __m256i *mag)
{
	const __m256i one = _mm256_set1_epi32(1);
	__m256i e = _mm256_and_si256(_mm256_srli_epi32(x, 23),
				     _mm256_set1_epi32(0xff));
	__m256i m = _mm256_or_si256(_mm256_and_si256(x,
					_mm256_set1_epi32(0x7fffff)),
				    _mm256_set1_epi32(0x800000));
	__m256i sh = _mm256_sub_epi32(kq->shbase, e);
	/* shift counts outside 0..31 give 0, as the reference's sh >= 32 */
	__m256i half = _mm256_sllv_epi32(one, _mm256_sub_epi32(sh, one));

	*mag = _mm256_srlv_epi32(_mm256_add_epi32(m, half), sh);
	return _mm256_or_si256(_mm256_cmpgt_epi32(e, kq->rawexp),
			       _mm256_cmpgt_epi32(*mag,
						  _mm256_set1_epi32(32767)));
}

#endif /* INC_QUANT_AVX2_H */
