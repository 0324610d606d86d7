// SPDX-License-Identifier: MIT
/*
 * The fake register file behind regs.h for the host tests: words at their
 * offsets, EVENT as write-1-to-set, STATS_SNAP copying the live counters
 * (0x1000) into the bank (0x1800) and clearing them when asked.
 */
#include <string.h>

#include "fake_regs.h"
#include "regs.h"

uint32_t fake_reg[FAKE_WORDS];
uint32_t fake_log[4096];
unsigned int fake_nlog;

void fake_reset(void)
{
	memset(fake_reg, 0, sizeof(fake_reg));
	fake_nlog = 0;
}

void fake_counter(unsigned int n, uint64_t v)
{
	fake_reg[(INC_STATS + 8 * n) / 4] = (uint32_t)v;
	fake_reg[(INC_STATS + 8 * n + 4) / 4] = (uint32_t)(v >> 32);
}

uint32_t fw_rd(uint32_t off)
{
	return off < sizeof(fake_reg) ? fake_reg[off / 4] : 0xdeadbeef;
}

void fw_wr(uint32_t off, uint32_t val)
{
	if (fake_nlog < 4096)
		fake_log[fake_nlog++] = off;
	if (off >= sizeof(fake_reg))
		return;
	if (off == INC_MGMT_EVENT) {
		fake_reg[off / 4] |= val;
	} else if (off == INC_STATS_SNAP) {
		if (val & INC_STATS_SNAP_TAKE) {
			memcpy(&fake_reg[INC_STATS_SNAP_BANK / 4], &fake_reg[INC_STATS / 4],
			       8 * INC_ST_N);
			if (val & INC_STATS_SNAP_CLEAR)
				memset(&fake_reg[INC_STATS / 4], 0, 8 * INC_ST_N);
		}
	} else {
		fake_reg[off / 4] = val;
	}
}
