// SPDX-License-Identifier: MIT
/*
 * Builds the SIMD paths' shuffle tables once, at first use.
 */
#include <pthread.h>

#include "simd_tables.h"

struct inc_simd_tables inc_simd;
static pthread_once_t simd_once = PTHREAD_ONCE_INIT;

static void build(void)
{
	unsigned int tb, j, b;

	for (tb = 0; tb < 256; tb++) {
		unsigned int o = 0;

		memset(inc_simd.compact[tb], 0x80, 16);
		memset(inc_simd.expand_hi[tb], 0x80, 16);
		inc_simd.keep[tb] = 0;
		for (j = 0; j < 4; j++) {
			unsigned int c = tb >> (2 * j) & 3;
			unsigned int s = inc_class_bytes[c];

			for (b = 0; b < s; b++) {
				inc_simd.compact[tb][o + b] = (uint8_t)(4 * j + b);
				inc_simd.expand_hi[tb][4 * j + 4 - s + b] =
					(uint8_t)(o + b);
				inc_simd.keep[tb] |= (uint16_t)(1u << (4 * j + b));
			}
			o += s;
			inc_simd.expand_ctl[tb][j] =
				c == INC_CLASS_RAW ? 0x80000000u :
				c == INC_CLASS_ZERO ? 0 : 32 - 8 * s;
		}
	}
}

void inc_simd_tables_init(void)
{
	pthread_once(&simd_once, build);
}
