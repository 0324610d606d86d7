// SPDX-License-Identifier: MIT
/* The core's register backend (regs.h): mgmt_soc's register bus. */
#include "regs.h"

uint32_t fw_rd(uint32_t off)
{
	return *(volatile uint32_t *)(FW_REGBUS_BASE + off);
}

void fw_wr(uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)(FW_REGBUS_BASE + off) = val;
}
