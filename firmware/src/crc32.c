// SPDX-License-Identifier: MIT
/* CRC-32 (IEEE 802.3, reflected 0xedb88320; zlib's crc32), a table a byte. */
#include "fw.h"

static uint32_t crc_table[256];

void fw_crc32_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int b = 0; b < 8; b++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

uint32_t fw_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
