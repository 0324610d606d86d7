/* SPDX-License-Identifier: MIT */
/*
 * Register access for the firmware: the NIC's registers by their offsets
 * in include/hw/inc_nic_regs.h (the one definition of the map, shared with
 * the driver and the RTL), through two functions whose implementation is
 * chosen at link time:
 *
 *   mmio.c                   the core: a load or store at 0x4000_0000 + off
 *                            (mgmt_soc's register bus)
 *   tests/host/fake_regs.c   host unit tests: an array
 *
 * The command handlers and the self-test (cmd.c, selftest.c) use only
 * these, so the same sources build for the core and natively.
 */
#ifndef FW_REGS_H
#define FW_REGS_H

#include <stdint.h>
#include "hw/inc_nic_regs.h"

/* the core's addresses (rtl/mgmt/mgmt_soc.v, docs/firmware.md) */
#define FW_REGBUS_BASE		0x40000000u
#define FW_TIMER_BASE		0x20000000u
#define FW_MTIME_LO		(FW_TIMER_BASE + 0x0)
#define FW_MTIME_HI		(FW_TIMER_BASE + 0x4)
#define FW_MTIMECMP_LO		(FW_TIMER_BASE + 0x8)
#define FW_MTIMECMP_HI		(FW_TIMER_BASE + 0xc)

uint32_t fw_rd(uint32_t off);
void fw_wr(uint32_t off, uint32_t val);

#endif /* FW_REGS_H */
