// SPDX-License-Identifier: MIT
/*
 * AVX-512 implementation (F, BW, VL, VBMI2): the quantizer of the AVX2 path
 * with mask registers, and vpcompressb / vpexpandb to pack and unpack the
 * payload bytes instead of shuffle tables. Compiled with those -m flags;
 * only called when the CPU has all of them.
 */
#include <immintrin.h>

#include "simd_tables.h"

struct kq {
	__m256i shbase;		/* 151 - k */
	__m256i rawexp;		/* 142 - k: exponents above are RAW */
	__m256 scale;		/* 2^(1-k) */
};

static inline void kq_init(struct kq *kq, unsigned int k)
{
	kq->shbase = _mm256_set1_epi32(151 - (int)k);
	kq->rawexp = _mm256_set1_epi32(142 - (int)k);
	kq->scale = _mm256_set1_ps(inc_scale(k));
}

static inline unsigned int group_encode(const uint8_t *in,
					const struct kq *kq, uint8_t *dst,
					unsigned int *size)
{
	const __m256i one = _mm256_set1_epi32(1);
	__m256i x = _mm256_loadu_si256((const __m256i *)in);
	__m256i e = _mm256_and_si256(_mm256_srli_epi32(x, 23),
				     _mm256_set1_epi32(0xff));
	__m256i m = _mm256_ternarylogic_epi32(x, _mm256_set1_epi32(0x7fffff),
					      _mm256_set1_epi32(0x800000),
					      0xea);	/* (a & b) | c */
	__m256i sh = _mm256_sub_epi32(kq->shbase, e);
	__m256i half = _mm256_sllv_epi32(one, _mm256_sub_epi32(sh, one));
	__m256i mag = _mm256_srlv_epi32(_mm256_add_epi32(m, half), sh);
	__mmask8 raw = _mm256_cmpgt_epi32_mask(e, kq->rawexp) |
		       _mm256_cmpgt_epi32_mask(mag, _mm256_set1_epi32(32767));
	__mmask8 nz = _mm256_test_epi32_mask(mag, mag);
	__mmask8 big = _mm256_cmpgt_epi32_mask(mag, _mm256_set1_epi32(127));
	unsigned int b0 = (unsigned int)(raw | (nz & ~big)) & 0xff;
	unsigned int b1 = (unsigned int)(raw | big) & 0xff;
	unsigned int tw = inc_spread8[b0] | (unsigned int)inc_spread8[b1] << 1;
	__mmask32 keep = inc_simd.keep[tw & 0xff] |
			 (__mmask32)inc_simd.keep[tw >> 8] << 16;
	__m256i pay = _mm256_mask_mov_epi32(_mm256_sign_epi32(mag, x), raw, x);

	inc_put16(dst, (uint16_t)tw);
	_mm256_storeu_si256((__m256i *)(dst + 2),
			    _mm256_maskz_compress_epi8(keep, pay));
	*size = 2 + (unsigned int)__builtin_popcount(keep);
	return tw;
}

static inline void group_decode(unsigned int tw, const uint8_t *pl,
				const struct kq *kq, uint8_t *out)
{
	unsigned int tb0 = tw & 0xff, tb1 = tw >> 8;
	__mmask32 keep = inc_simd.keep[tb0] | (__mmask32)inc_simd.keep[tb1] << 16;
	__m256i x = _mm256_maskz_expand_epi8(keep,
			_mm256_loadu_si256((const __m256i *)pl));
	__m256i ctl = _mm256_inserti128_si256(_mm256_castsi128_si256(
			_mm_loadu_si128((const __m128i *)inc_simd.expand_ctl[tb0])),
			_mm_loadu_si128((const __m128i *)inc_simd.expand_ctl[tb1]), 1);
	/* move Q8/Q16 payloads to the top of the lane, then sign-extend */
	__m256i qi = _mm256_srav_epi32(_mm256_sllv_epi32(x, ctl), ctl);
	__m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(qi), kq->scale);

	_mm256_storeu_ps((float *)out,
			 _mm256_blendv_ps(f, _mm256_castsi256_ps(x),
					  _mm256_castsi256_ps(ctl)));
}

static int inc_avx512_usable(void)
{
	if (!__builtin_cpu_supports("avx512f") ||
	    !__builtin_cpu_supports("avx512bw") ||
	    !__builtin_cpu_supports("avx512vl") ||
	    !__builtin_cpu_supports("avx512vbmi2"))
		return 0;
	inc_simd_tables_init();
	return 1;
}

#define INC_LOOPS_IMPL(x)	inc_avx512_##x
#define INC_LOOPS_NAME		"avx512"
#include "codec_loops.h"
