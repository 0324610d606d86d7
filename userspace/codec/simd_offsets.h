/* SPDX-License-Identifier: MIT */
/*
 * segment_offsets() for the SIMD paths (needs SSSE3; both SIMD files are
 * built with AVX2): the payload offsets of a segment's present groups from
 * its tag words, all at once. See codec_loops.h for the contract.
 */
#ifndef INC_SIMD_OFFSETS_H
#define INC_SIMD_OFFSETS_H

#include <immintrin.h>
#include <stdint.h>

static inline unsigned int segment_offsets(const uint8_t *tags,
					   unsigned int cnt, uint16_t *off)
{
	/* payload bytes of a nibble: two tags, a in bits 1:0, b in 3:2 */
	const __m128i nibble_bytes = _mm_setr_epi8(0, 1, 2, 4, 1, 2, 3, 5,
						   2, 3, 4, 6, 4, 5, 6, 8);
	const __m128i low4 = _mm_set1_epi8(0x0f);
	__m128i valid = _mm_cmpgt_epi16(_mm_set1_epi16((short)cnt),
					_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7));
	__m128i t = _mm_loadu_si128((const __m128i *)tags);
	__m128i tv = _mm_and_si128(t, valid);
	__m128i s = _mm_add_epi8(
		_mm_shuffle_epi8(nibble_bytes, _mm_and_si128(tv, low4)),
		_mm_shuffle_epi8(nibble_bytes,
				 _mm_and_si128(_mm_srli_epi16(tv, 4), low4)));
	/* bytes per tag word, then their inclusive prefix sum */
	__m128i w = _mm_maddubs_epi16(s, _mm_set1_epi8(1));

	w = _mm_add_epi16(w, _mm_slli_si128(w, 2));
	w = _mm_add_epi16(w, _mm_slli_si128(w, 4));
	w = _mm_add_epi16(w, _mm_slli_si128(w, 8));
	off[0] = 0;
	_mm_storeu_si128((__m128i *)(off + 1), w);
	/* present tag words that are 0 */
	return (unsigned int)_mm_movemask_epi8(_mm_and_si128(
			_mm_cmpeq_epi16(t, _mm_setzero_si128()), valid));
}

#endif /* INC_SIMD_OFFSETS_H */
