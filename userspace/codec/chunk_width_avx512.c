// SPDX-License-Identifier: MIT
/*
 * Width mode (docs/codec.md section 12) with AVX-512 (F, BW, VL) and BMI2:
 * one group of 16 values a 512-bit register. The quantizer is the
 * paper/sparse path's (quant_avx512.h); mask registers give the group's
 * RAW, coded and decoder-check masks directly. The loops and the bit
 * fields are width_loops.h's. Compiled with those -m flags; only called
 * when the CPU has all of them (inc_avx512_usable).
 */
#include <immintrin.h>

#include "quant_avx512.h"

static inline unsigned int wsegment_present(const uint8_t *in,
					    const struct kq *kq)
{
	const __m512i absmask = _mm512_set1_epi32(0x7fffffff);
	unsigned int present = 0, j;

	/* ZERO is exactly an exponent field below 127 - k */
	for (j = 0; j < INC_SEGMENT_GROUPS; j++) {
		__m512i x = _mm512_loadu_si512(in + 64 * j);

		present |= (unsigned int)(_mm512_cmpge_epi32_mask(
				_mm512_and_si512(x, absmask), kq->zeroexp) != 0) << j;
	}
	return present;
}

static inline unsigned int wgroup_fields(const uint8_t *in,
					 const struct kq *kq, uint16_t *f,
					 unsigned int *raw)
{
	__m512i x = _mm512_loadu_si512(in), mag;
	__mmask16 r = quant16(x, kq, &mag);
	__mmask16 nz = _mm512_mask_test_epi32_mask((__mmask16)~r, mag, mag);
	/* |q| << 1 | sign where q != 0 and not RAW */
	__m512i fv = _mm512_maskz_or_epi32(nz, _mm512_slli_epi32(mag, 1),
					   _mm512_srli_epi32(x, 31));

	_mm256_storeu_si256((__m256i *)f, _mm512_cvtepi32_epi16(fv));
	*raw = r;
	return nz;
}

static inline unsigned int wgroup_values(__m256i fv, unsigned int w,
					 const struct kq *kq, uint8_t *out,
					 unsigned int *bad)
{
	const __m256i one16 = _mm256_set1_epi16(1);
	__mmask16 minus0 = _mm256_cmpeq_epi16_mask(fv, one16);
	__mmask16 nzm = _mm256_cmpgt_epu16_mask(fv, one16);
	/* |q| >= 2^(w-1), i.e. a field at or above 2^w */
	__mmask16 top = _mm256_test_epi16_mask(fv,
			_mm256_set1_epi16((short)(uint16_t)(0xffffu << w)));
	__m512i v = _mm512_cvtepu16_epi32(fv);
	__m512i mag = _mm512_srli_epi32(v, 1);
	__m512i q = _mm512_mask_sub_epi32(mag, _mm512_test_epi32_mask(v,
				_mm512_set1_epi32(1)), _mm512_setzero_si512(), mag);

	_mm512_storeu_ps(out, _mm512_mul_ps(_mm512_cvtepi32_ps(q), kq->scale));
	*bad |= minus0 || (w && !top);
	return nzm;
}

#define INC_WLOOPS_IMPL(x)	inc_avx512_width_##x
#include "width_loops.h"
