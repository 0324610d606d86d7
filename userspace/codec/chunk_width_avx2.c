// SPDX-License-Identifier: MIT
/*
 * Width mode (docs/codec.md section 12) with AVX2 and BMI2: one group of
 * 16 values in two 256-bit registers. The quantizer is the paper/sparse
 * path's (quant_avx2.h); the loops and the bit fields are width_loops.h's.
 * Compiled with -mavx2 -mbmi2; only called when the CPU has both
 * (inc_avx2_usable).
 */
#include <immintrin.h>

#include "quant_avx2.h"

static inline unsigned int wsegment_present(const uint8_t *in,
					    const struct kq *kq)
{
	const __m256i absmask = _mm256_set1_epi32(0x7fffffff);
	const __m256i thr = _mm256_sub_epi32(kq->zeroexp, _mm256_set1_epi32(1));
	unsigned int present = 0, j;

	/* ZERO is exactly an exponent field below 127 - k */
	for (j = 0; j < INC_SEGMENT_GROUPS; j++) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(in + 64 * j));
		__m256i b = _mm256_loadu_si256((const __m256i *)(in + 64 * j + 32));
		__m256i nz = _mm256_or_si256(
			_mm256_cmpgt_epi32(_mm256_and_si256(a, absmask), thr),
			_mm256_cmpgt_epi32(_mm256_and_si256(b, absmask), thr));

		present |= (unsigned int)!_mm256_testz_si256(nz, nz) << j;
	}
	return present;
}

/* 8 values: |q| << 1 | sign where q != 0 and not RAW, else 0 */
static inline __m256i fields8(const uint8_t *in, const struct kq *kq,
			      unsigned int *raw, unsigned int *nzm)
{
	__m256i x = _mm256_loadu_si256((const __m256i *)in), mag;
	__m256i r = quant8(x, kq, &mag);
	__m256i nz = _mm256_andnot_si256(r, _mm256_cmpgt_epi32(mag,
						_mm256_setzero_si256()));

	*raw = (unsigned int)_mm256_movemask_ps(_mm256_castsi256_ps(r));
	*nzm = (unsigned int)_mm256_movemask_ps(_mm256_castsi256_ps(nz));
	return _mm256_and_si256(nz, _mm256_or_si256(_mm256_slli_epi32(mag, 1),
						    _mm256_srli_epi32(x, 31)));
}

static inline unsigned int wgroup_fields(const uint8_t *in,
					 const struct kq *kq, uint16_t *f,
					 unsigned int *raw)
{
	unsigned int r0, r1, n0, n1;
	__m256i a = fields8(in, kq, &r0, &n0);
	__m256i b = fields8(in + 32, kq, &r1, &n1);

	/* to 16 bits (exact: fields are below 2^16), lanes back in order */
	_mm256_storeu_si256((__m256i *)f, _mm256_permute4x64_epi64(
			_mm256_packus_epi32(a, b), 0xd8));
	*raw = r0 | r1 << 8;
	return n0 | n1 << 8;
}

/* 8 fields (16 bits each) to the floats they code */
static inline __m256 values8(__m128i f, const struct kq *kq)
{
	const __m256i one = _mm256_set1_epi32(1);
	__m256i v = _mm256_cvtepu16_epi32(f);
	/* the sign bit to the top, and 1 so that +|q| keeps its sign */
	__m256i q = _mm256_sign_epi32(_mm256_srli_epi32(v, 1),
			_mm256_or_si256(_mm256_slli_epi32(v, 31), one));

	return _mm256_mul_ps(_mm256_cvtepi32_ps(q), kq->scale);
}

static inline unsigned int wgroup_values(__m256i fv, unsigned int w,
					 const struct kq *kq, uint8_t *out,
					 unsigned int *bad)
{
	__m256i minus0 = _mm256_cmpeq_epi16(fv, _mm256_set1_epi16(1));
	/* |q| = 0: the field is 0 or 1 */
	__m256i zero = _mm256_cmpeq_epi16(_mm256_and_si256(fv,
				_mm256_set1_epi16((short)0xfffe)),
				_mm256_setzero_si256());
	/* |q| >= 2^(w-1), i.e. a field at or above 2^w */
	__m256i topbits = _mm256_set1_epi16((short)(uint16_t)(0xffffu << w));

	_mm256_storeu_ps((float *)out,
			 values8(_mm256_castsi256_si128(fv), kq));
	_mm256_storeu_ps((float *)(out + 32),
			 values8(_mm256_extracti128_si256(fv, 1), kq));
	*bad |= !_mm256_testz_si256(minus0, minus0) ||
		(w && _mm256_testz_si256(fv, topbits));
	return ~_pext_u32((uint32_t)_mm256_movemask_epi8(zero), 0x55555555u) &
	       0xffff;
}

#define INC_WLOOPS_IMPL(x)	inc_avx2_width_##x
#include "width_loops.h"
