// SPDX-License-Identifier: MIT
/*
 * AVX2 implementation: one group (eight values, one 256-bit register) per
 * step. Quantizes with the same integer arithmetic as the reference (the
 * per-lane variable shifts make it exact), packs payloads with pshufb.
 * Compiled with -mavx2; only called when the CPU has AVX2 and BMI2 (width
 * mode's path, chunk_width_avx2.c, needs both).
 */
#include <immintrin.h>

#include "quant_avx2.h"
#include "simd_offsets.h"
#include "simd_tables.h"

static inline __m256i load2x128(const void *lo, const void *hi)
{
	return _mm256_inserti128_si256(
		_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
		_mm_loadu_si128((const __m128i *)hi), 1);
}

static inline unsigned int group_encode(const uint8_t *in,
					const struct kq *kq, uint8_t *pay,
					unsigned int *size)
{
	__m256i x = _mm256_loadu_si256((const __m256i *)in), mag;
	__m256i raw = quant8(x, kq, &mag);
	__m256i nz = _mm256_cmpgt_epi32(mag, _mm256_setzero_si256());
	__m256i big = _mm256_cmpgt_epi32(mag, _mm256_set1_epi32(127));
	__m256i bit0 = _mm256_or_si256(raw, _mm256_andnot_si256(big, nz));
	__m256i bit1 = _mm256_or_si256(raw, big);
	unsigned int lo = (unsigned int)_mm256_movemask_ps(
				_mm256_castsi256_ps(bit0));
	unsigned int hi = (unsigned int)_mm256_movemask_ps(
				_mm256_castsi256_ps(bit1));
	unsigned int tw = inc_spread8[lo] | (unsigned int)inc_spread8[hi] << 1;
	unsigned int tb0 = tw & 0xff, tb1 = tw >> 8, s0 = inc_tagbyte_bytes[tb0];
	/* q = sign(v) * mag; RAW lanes carry the original bits */
	__m256i q = _mm256_sign_epi32(mag, x);
	__m256i v = _mm256_blendv_epi8(q, x, raw);
	__m256i c = _mm256_shuffle_epi8(v,
			load2x128(inc_simd.compact[tb0], inc_simd.compact[tb1]));

	_mm_storeu_si128((__m128i *)pay, _mm256_castsi256_si128(c));
	_mm_storeu_si128((__m128i *)(pay + s0),
			 _mm256_extracti128_si256(c, 1));
	*size = s0 + inc_tagbyte_bytes[tb1];
	return tw;
}

/* ZERO is exactly |v| < 2^-k, i.e. an exponent field below 127 - k. */
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
	const __m256i absmask = _mm256_set1_epi32(0x7fffffff);
	const __m256i thr = _mm256_sub_epi32(kq->zeroexp, _mm256_set1_epi32(1));
	unsigned int present = 0, j;

	for (j = 0; j < INC_SEGMENT_GROUPS; j++) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(in + 32 * j));
		__m256i nz = _mm256_cmpgt_epi32(_mm256_and_si256(x, absmask),
						thr);

		present |= (unsigned int)!_mm256_testz_si256(nz, nz) << j;
	}
	return present;
}

static inline void group_decode(unsigned int tw, const uint8_t *pl,
				const struct kq *kq, uint8_t *out)
{
	unsigned int tb0 = tw & 0xff, tb1 = tw >> 8;
	__m256i v = load2x128(pl, pl + inc_tagbyte_bytes[tb0]);
	__m256i x = _mm256_shuffle_epi8(v, load2x128(inc_simd.expand_hi[tb0],
						     inc_simd.expand_hi[tb1]));
	__m256i ctl = load2x128(inc_simd.expand_ctl[tb0],
				inc_simd.expand_ctl[tb1]);
	__m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srav_epi32(x, ctl)),
				 kq->scale);

	_mm256_storeu_ps((float *)out,
			 _mm256_blendv_ps(f, _mm256_castsi256_ps(x),
					  _mm256_castsi256_ps(ctl)));
}

static inline void group_decode2(uint32_t tw2, const uint8_t *pay,
				 const struct kq *kq, uint8_t *oa, uint8_t *ob)
{
	group_decode(tw2 & 0xffff, pay, kq, oa);
	group_decode(tw2 >> 16, pay + inc_tagword_bytes(tw2 & 0xffff), kq, ob);
}

/* The group quantizer of group_encode without the packing: the values
 * each lane decodes to (+0.0 for ZERO, the bits themselves for RAW). */
static void inc_avx2_quantize(const uint8_t *src, size_t n, unsigned int k,
			      uint8_t *dst)
{
	const __m256i sign = _mm256_set1_epi32((int)0x80000000u);
	struct kq kq;
	size_t i;

	kq_init(&kq, k);
	for (i = 0; i + INC_GROUP_VALUES <= n; i += INC_GROUP_VALUES) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(src + 4 * i));
		__m256i mag, raw = quant8(x, &kq, &mag);
		/* mag * 2^(1-k) is exact; the sign only where mag != 0 */
		__m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(mag), kq.scale);
		__m256i s = _mm256_andnot_si256(
			_mm256_cmpeq_epi32(mag, _mm256_setzero_si256()),
			_mm256_and_si256(x, sign));
		__m256i v = _mm256_or_si256(_mm256_castps_si256(f), s);

		_mm256_storeu_si256((__m256i *)(dst + 4 * i),
				    _mm256_blendv_epi8(v, x, raw));
	}
	for (; i < n; i++) {
		uint32_t bits = inc_get32(src + 4 * i);
		int32_t q;
		enum inc_class c = inc_classify(bits, k, &q);

		inc_put32(dst + 4 * i, inc_dequantize(c, q, bits, k));
	}
}

static int inc_avx2_usable(void)
{
	/* BMI2 for width mode's bit fields (chunk_width_avx2.c) */
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi2"))
		return 0;
	inc_simd_tables_init();
	return 1;
}

#define INC_LOOPS_IMPL(x)	inc_avx2_##x
#define INC_LOOPS_NAME		"avx2"
#define INC_LOOPS_WIDTH(x)	inc_avx2_width_##x	/* chunk_width_avx2.c */
#include "codec_loops.h"
