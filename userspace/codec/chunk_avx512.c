// SPDX-License-Identifier: MIT
/*
 * AVX-512 implementation (F, BW, VL, VBMI2, and BMI2): two groups per
 * 512-bit register. The quantizer is the AVX2 path's with mask registers;
 * vpcompressb packs the payloads of both groups in one step (they are
 * adjacent in a segment's payload area), vpexpandb unpacks them. Compiled
 * with those -m flags; only called when the CPU has all of them.
 */
#include <immintrin.h>

#include "quant_avx512.h"
#include "simd_offsets.h"
#include "simd_tables.h"

/*
 * Quantize 16 values: the payload word of each lane (q, or the raw bits)
 * in *v, the byte-keep mask of the packed payloads, and the two tag words.
 */
static inline uint32_t quantize16(__m512i x, const struct kq *kq, __m512i *v,
				  __mmask64 *keep)
{
	const __m512i one = _mm512_set1_epi32(1);
	__m512i mag;
	__mmask16 raw = quant16(x, kq, &mag);
	__mmask16 nz = _mm512_test_epi32_mask(mag, mag);
	__mmask16 big = _mm512_cmpgt_epi32_mask(mag, _mm512_set1_epi32(127));
	__mmask16 neg = _mm512_movepi32_mask(x);
	unsigned int b0 = (unsigned int)(raw | (nz & ~big));
	unsigned int b1 = (unsigned int)(raw | big);
	/* payload bytes per lane: 1 if nz, 2 if big, 4 if raw */
	__m512i sz = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(
			_mm512_maskz_mov_epi32(nz, one), big,
			_mm512_set1_epi32(2)), raw, _mm512_set1_epi32(4));
	__m512i q = _mm512_mask_sub_epi32(mag, neg, _mm512_setzero_si512(), mag);

	*v = _mm512_mask_mov_epi32(q, raw, x);
	/* byte b of a lane is kept when b < size */
	*keep = _mm512_cmpgt_epu8_mask(
		_mm512_shuffle_epi8(sz, _mm512_set4_epi32(0x0c0c0c0c, 0x08080808,
							  0x04040404, 0)),
		_mm512_set1_epi32(0x03020100));
	return _pdep_u32(b0, 0x55555555u) | _pdep_u32(b1, 0xaaaaaaaau);
}

static inline unsigned int group_encode(const uint8_t *in,
					const struct kq *kq, uint8_t *pay,
					unsigned int *size)
{
	__m512i v;
	__mmask64 keep;
	uint32_t tw = quantize16(_mm512_castsi256_si512(
			_mm256_loadu_si256((const __m256i *)in)), kq, &v, &keep);

	keep &= 0xffffffffu;	/* the upper lanes are not ours */
	_mm256_storeu_si256((__m256i *)pay, _mm512_castsi512_si256(
				_mm512_maskz_compress_epi8(keep, v)));
	*size = (unsigned int)__builtin_popcountll(keep);
	return tw & 0xffff;
}

static inline uint32_t group_encode2(const uint8_t *a, const uint8_t *b,
				     const struct kq *kq, uint8_t *pay,
				     unsigned int *size)
{
	__m512i x = _mm512_inserti64x4(_mm512_castsi256_si512(
			_mm256_loadu_si256((const __m256i *)a)),
			_mm256_loadu_si256((const __m256i *)b), 1);
	__m512i v;
	__mmask64 keep;
	uint32_t tw = quantize16(x, kq, &v, &keep);

	_mm512_storeu_si512(pay, _mm512_maskz_compress_epi8(keep, v));
	*size = (unsigned int)__builtin_popcountll(keep);
	return tw;
}

/* ZERO is exactly |v| < 2^-k, i.e. an exponent field below 127 - k. */
static inline unsigned int segment_present(const uint8_t *in,
					   const struct kq *kq)
{
	const __m512i absmask = _mm512_set1_epi32(0x7fffffff);
	unsigned int present = 0, j;

	for (j = 0; j < INC_SEGMENT_GROUPS / 2; j++) {
		__m512i x = _mm512_loadu_si512(in + 64 * j);
		__mmask16 nz = _mm512_cmpge_epi32_mask(
				_mm512_and_si512(x, absmask), kq->zeroexp);

		present |= (unsigned int)((nz & 0xff) != 0) << (2 * j) |
			   (unsigned int)((nz >> 8) != 0) << (2 * j + 1);
	}
	return present;
}

/*
 * Unpack the payloads of 16 lanes (tags tw2, 2 bits each) that start at
 * pay, and dequantize them.
 */
static inline __m512 dequantize16(uint32_t tw2, __m512i packed,
				  const struct kq *kq)
{
	/* per tag: payload bytes, and the shift that sign-extends a
	 * payload aligned to the low end of the lane */
	const __m512i bytesv = _mm512_setr_epi32(0, 1, 2, 4, 0, 0, 0, 0,
						 0, 0, 0, 0, 0, 0, 0, 0);
	const __m512i ctlv = _mm512_setr_epi32(0, 24, 16, 0, 0, 0, 0, 0,
					       0, 0, 0, 0, 0, 0, 0, 0);
	__m512i tags = _mm512_and_si512(_mm512_srlv_epi32(
			_mm512_set1_epi32((int)tw2),
			_mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
					  22, 24, 26, 28, 30)),
			_mm512_set1_epi32(3));
	__mmask16 raw = _mm512_cmpeq_epi32_mask(tags, _mm512_set1_epi32(3));
	__m512i ctl = _mm512_permutexvar_epi32(tags, ctlv);
	/* byte b of a lane is filled when b < its payload bytes */
	__mmask64 keep = _mm512_cmpgt_epu8_mask(_mm512_shuffle_epi8(
			_mm512_permutexvar_epi32(tags, bytesv),
			_mm512_set4_epi32(0x0c0c0c0c, 0x08080808, 0x04040404, 0)),
			_mm512_set1_epi32(0x03020100));
	__m512i x, qi;
	__m512 f;

	/*
	 * Keep the load out of vpexpandb: its memory-source form is
	 * microcoded (slow) on some CPUs (AMD Zen 4), the register form is not.
	 */
	__asm__("" : "+v"(packed));
	x = _mm512_maskz_expand_epi8(keep, packed);
	qi = _mm512_srav_epi32(_mm512_sllv_epi32(x, ctl), ctl);
	f = _mm512_mul_ps(_mm512_cvtepi32_ps(qi), kq->scale);
	return _mm512_mask_mov_ps(f, raw, _mm512_castsi512_ps(x));
}

static inline void group_decode(unsigned int tw, const uint8_t *pay,
				const struct kq *kq, uint8_t *out)
{
	__m512 f = dequantize16(tw, _mm512_castsi256_si512(
			_mm256_loadu_si256((const __m256i *)pay)), kq);

	_mm256_storeu_ps((float *)out, _mm512_castps512_ps256(f));
}

static inline void group_decode2(uint32_t tw2, const uint8_t *pay,
				 const struct kq *kq, uint8_t *oa, uint8_t *ob)
{
	__m512 f = dequantize16(tw2, _mm512_loadu_si512(pay), kq);

	if (ob == oa + 32) {	/* known when inlined: adjacent groups */
		_mm512_storeu_ps(oa, f);
		return;
	}
	_mm256_storeu_ps((float *)oa, _mm512_castps512_ps256(f));
	_mm256_storeu_ps((float *)ob, _mm256_castpd_ps(
			 _mm512_extractf64x4_pd(_mm512_castps_pd(f), 1)));
}

/* The quantizer of quantize16 without the packing, 16 values a step: the
 * values each lane decodes to (+0.0 for ZERO, the bits for RAW). */
static void inc_avx512_quantize(const uint8_t *src, size_t n, unsigned int k,
				uint8_t *dst)
{
	const __m512i sign = _mm512_set1_epi32((int)0x80000000u);
	struct kq kq;
	size_t i;

	kq_init(&kq, k);
	for (i = 0; i + 16 <= n; i += 16) {
		__m512i x = _mm512_loadu_si512(src + 4 * i), mag;
		__mmask16 raw = quant16(x, &kq, &mag);
		__mmask16 nz = _mm512_test_epi32_mask(mag, mag);
		/* mag * 2^(1-k) is exact; the sign only where mag != 0 */
		__m512i v = _mm512_castps_si512(_mm512_mul_ps(
				_mm512_cvtepi32_ps(mag), kq.scale));

		v = _mm512_mask_or_epi32(v, nz, v, _mm512_and_si512(x, sign));
		_mm512_storeu_si512(dst + 4 * i, _mm512_mask_mov_epi32(v, raw, x));
	}
	for (; i < n; i++) {
		uint32_t bits = inc_get32(src + 4 * i);
		int32_t q;
		enum inc_class c = inc_classify(bits, k, &q);

		inc_put32(dst + 4 * i, inc_dequantize(c, q, bits, k));
	}
}

static int inc_avx512_usable(void)
{
	if (!__builtin_cpu_supports("avx512f") ||
	    !__builtin_cpu_supports("avx512bw") ||
	    !__builtin_cpu_supports("avx512vl") ||
	    !__builtin_cpu_supports("avx512dq") ||
	    !__builtin_cpu_supports("avx512vbmi2") ||
	    !__builtin_cpu_supports("bmi2"))
		return 0;
	inc_simd_tables_init();
	return 1;
}

#define INC_LOOPS_IMPL(x)	inc_avx512_##x
#define INC_LOOPS_NAME		"avx512"
#define INC_LOOPS_WIDTH(x)	inc_avx512_width_##x	/* chunk_width_avx512.c */
#include "codec_loops.h"
