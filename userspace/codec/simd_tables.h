/* SPDX-License-Identifier: MIT */
/*
 * Byte-shuffle tables of the SIMD paths, indexed by a tag byte (the tags of
 * four values, i.e. one 128-bit lane of eight).
 */
#ifndef INC_SIMD_TABLES_H
#define INC_SIMD_TABLES_H

#include "codec_internal.h"

struct inc_simd_tables {
	/* pshufb: four 4-byte payload words -> their payload bytes packed */
	uint8_t compact[256][16];
	/* pshufb: packed payload bytes -> Q8 in byte 3, Q16 in bytes 2-3,
	 * RAW in bytes 0-3 of each 32-bit lane, zero elsewhere */
	uint8_t expand_hi[256][16];
	/* per lane: 32 - payload bits (24 for Q8, 16 for Q16, 0 for ZERO),
	 * the shift that sign-extends a payload at the top of the lane; RAW
	 * lanes have bit 31 set instead (a blendv selector) */
	uint32_t expand_ctl[256][4];
	/* byte-keep mask of the four 4-byte lanes (bit 4j+b: lane j byte b) */
	uint16_t keep[256];
};

extern struct inc_simd_tables inc_simd;
void inc_simd_tables_init(void);

#endif /* INC_SIMD_TABLES_H */
