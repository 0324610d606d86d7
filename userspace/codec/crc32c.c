// SPDX-License-Identifier: MIT
/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI
 * and ext4: init ~0, final xor ~0. The file format checks each header and
 * chunk with it. SSE4.2 has an instruction for it; a table does the rest.
 */
#include <pthread.h>

#include "codec_internal.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static int have_sse42;

static void crc_init(void)
{
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = c & 1 ? c >> 1 ^ 0x82f63b78u : c >> 1;
		table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			table[j][i] = table[j - 1][i] >> 8 ^
				      table[0][table[j - 1][i] & 0xff];
#if defined(__x86_64__)
	have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
}

static uint32_t crc_table(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len >= 8) {
		uint32_t lo = inc_get32(p) ^ crc, hi = inc_get32(p + 4);

		crc = table[7][lo & 0xff] ^ table[6][lo >> 8 & 0xff] ^
		      table[5][lo >> 16 & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][hi >> 8 & 0xff] ^
		      table[1][hi >> 16 & 0xff] ^ table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc >> 8 ^ table[0][(crc ^ *p++) & 0xff];
	return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc, v;

	while (len >= 8) {
		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
		p += 8;
		len -= 8;
	}
	crc = (uint32_t)c;
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}
#endif

uint32_t inc_crc32c(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&table_once, crc_init);
	crc = ~crc;
#if defined(__x86_64__)
	if (have_sse42)
		return ~crc_sse42(crc, buf, len);
#endif
	return ~crc_table(crc, buf, len);
}
