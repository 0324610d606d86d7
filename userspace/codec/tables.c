// SPDX-License-Identifier: MIT
/*
 * Constant tables shared by the implementations, built by the compiler.
 */
#include "codec_internal.h"

#define R4(f, n)	f(n), f((n) + 1), f((n) + 2), f((n) + 3)
#define R16(f, n)	R4(f, n), R4(f, (n) + 4), R4(f, (n) + 8), R4(f, (n) + 12)
#define R64(f, n)	R16(f, n), R16(f, (n) + 16), R16(f, (n) + 32), \
			R16(f, (n) + 48)
#define R256(f)		R64(f, 0), R64(f, 64), R64(f, 128), R64(f, 192)

#define SPREAD(x)	(((x) & 1) | ((x) & 2) << 1 | ((x) & 4) << 2 | \
			 ((x) & 8) << 3 | ((x) & 16) << 4 | ((x) & 32) << 5 | \
			 ((x) & 64) << 6 | ((x) & 128) << 7)
const uint16_t inc_spread8[256] = { R256(SPREAD) };

/* payload bytes of a 2-bit tag: 0, 1, 2, 4 */
#define TB(t)		((t) == 3 ? 4 : (t))
#define TAGB(x)		(TB((x) & 3) + TB((x) >> 2 & 3) + TB((x) >> 4 & 3) + \
			 TB((x) >> 6 & 3))
const uint8_t inc_tagbyte_bytes[256] = { R256(TAGB) };
