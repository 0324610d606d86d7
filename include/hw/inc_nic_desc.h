/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The NIC's TX and RX descriptors as kernel structs, for the driver and the
 * smoke-test module: the layout is docs/regmap.md, its offsets are those of
 * <hw/inc_nic_regs.h>, and the asserts below tie the two together.
 */
#ifndef INC_NIC_DESC_H
#define INC_NIC_DESC_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include <hw/inc_nic_regs.h>

/* Descriptors as the NIC reads and writes them (docs/regmap.md). */
struct inc_txd {
	__le64 addr;
	__le16 len;
	__le16 flags;
	u8 k;
	u8 mode;
	__le16 range_off;
	__le16 range_len;
	u8 rsvd[6];
	__le32 status;
	__le32 rsvd2;
};

struct inc_rxd {
	__le64 addr;
	__le16 buf_len;
	__le16 len;
	__le32 status;
};

static_assert(sizeof(struct inc_txd) == INC_TXD_BYTES);
static_assert(offsetof(struct inc_txd, len) == INC_TXD_LEN);
static_assert(offsetof(struct inc_txd, flags) == INC_TXD_FLAGS);
static_assert(offsetof(struct inc_txd, k) == INC_TXD_K);
static_assert(offsetof(struct inc_txd, mode) == INC_TXD_MODE);
static_assert(offsetof(struct inc_txd, range_off) == INC_TXD_RANGE_OFF);
static_assert(offsetof(struct inc_txd, range_len) == INC_TXD_RANGE_LEN);
static_assert(offsetof(struct inc_txd, status) == INC_TXD_STATUS);
static_assert(sizeof(struct inc_rxd) == INC_RXD_BYTES);
static_assert(offsetof(struct inc_rxd, buf_len) == INC_RXD_BUF_LEN);
static_assert(offsetof(struct inc_rxd, len) == INC_RXD_LEN);
static_assert(offsetof(struct inc_rxd, status) == INC_RXD_STATUS);

#endif /* INC_NIC_DESC_H */
