/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The NIC's register map and descriptor formats (docs/regmap.md): the one
 * C definition the driver, the simulator and the tests include, and the
 * source of the RTL's (rtl/nic/inc_nic_regs.vh, made from this file by
 * rtl/scripts/gen-regs-vh.py; make check compares them). A change here
 * changes docs/regmap.md and the RTL together.
 *
 * Plain integer constants only, so that both the kernel and C11 userspace
 * can include it.
 */
#ifndef INC_NIC_REGS_H
#define INC_NIC_REGS_H

/* ---- PCI identity of the FPGA board (docs/regmap.md, "PCI") ---- */
#define INC_PCI_VENDOR		0x10ee	/* Xilinx */
#define INC_PCI_DEVICE		0x4943	/* the inceptionn bitstream */
#define INC_BAR0_SIZE		0x10000	/* CSR space: 16-bit addresses */

/* ---- 0x0000 ID block (read-only) ---- */
#define INC_MAGIC		0x00
#define INC_VERSION		0x04
#define INC_FEATURES		0x08
#define INC_CONFIG		0x0c
#define INC_SCRATCH		0x10
#define INC_BUILD		0x14

#define INC_MAGIC_VALUE		0x31434e49	/* "INC1" */
#define INC_VERSION_MAJOR(v)	(((v) >> 16) & 0xffff)
#define INC_VERSION_MINOR(v)	(((v) >> 8) & 0xff)
#define INC_VERSION_PATCH(v)	((v) & 0xff)

#define INC_FEAT_TX_COMP	(1u << 0)
#define INC_FEAT_RX_DECOMP	(1u << 1)
#define INC_FEAT_MODE_PAPER	(1u << 2)
#define INC_FEAT_MODE_SPARSE	(1u << 3)
#define INC_FEAT_IPV6		(1u << 4)
#define INC_FEAT_VLAN		(1u << 5)
#define INC_FEAT_LOOPBACK	(1u << 6)
#define INC_FEAT_IRQ_COAL	(1u << 7)
#define INC_FEAT_JUMBO		(1u << 8)
#define INC_FEAT_STATS64	(1u << 9)
#define INC_FEAT_LINK_SPEED	(1u << 10)	/* LINK_SPEED is valid (v1.1) */
#define INC_FEAT_QFLUSH		(1u << 11)	/* QFLUSH is valid (v1.2) */
#define INC_FEAT_MODE_WIDTH	(1u << 12)	/* mode 3 (width), v1.3, 16 lanes */
#define INC_FEAT_MGMT		(1u << 13)	/* 0x0500 management block, v1.4 */
#define INC_FEAT_TPORT		(1u << 14)	/* engine test port 0x0540, v1.5 */

#define INC_CONFIG_LANES(c)	((c) & 0xff)
#define INC_CONFIG_QUEUES(c)	(((c) >> 8) & 0xff)
#define INC_CONFIG_MAX_FRAME(c)	(((c) >> 16) & 0xffff)

/* ---- 0x0100 control ---- */
#define INC_CTRL		0x100
#define INC_STATUS		0x104
#define INC_MAC_LO		0x108
#define INC_MAC_HI		0x10c
#define INC_MAX_FRAME		0x110
#define INC_LINK_SPEED		0x114	/* RO, Mbit/s of the link; 0 unknown */
#define INC_QFLUSH		0x118	/* W1S: flush a queue; RO: in progress */

#define INC_CTRL_TX_EN		(1u << 0)
#define INC_CTRL_RX_EN		(1u << 1)
#define INC_CTRL_LOOPBACK	(1u << 2)

#define INC_QFLUSH_TX		(1u << 0)
#define INC_QFLUSH_RX		(1u << 1)

#define INC_STATUS_LINK		(1u << 0)
#define INC_STATUS_TX_IDLE	(1u << 1)
#define INC_STATUS_RX_IDLE	(1u << 2)

#define INC_MIN_FRAME		60	/* MAX_FRAME's lower limit */
#define INC_MAX_FRAME_DEFAULT	1518	/* MAX_FRAME after reset */

/* ---- 0x0200 TX queue, 0x0300 RX queue ---- */
#define INC_TXQ			0x200
#define INC_RXQ			0x300
#define INC_Q_BASE_LO		0x00
#define INC_Q_BASE_HI		0x04
#define INC_Q_SIZE		0x08
#define INC_Q_PROD		0x0c
#define INC_Q_CONS		0x10
#define INC_Q_LOG2_MIN		4
#define INC_Q_LOG2_MAX		12

/* ---- 0x0400 interrupts ---- */
#define INC_IRQ_STATUS		0x400
#define INC_IRQ_ENABLE		0x404
#define INC_IRQ_COAL_TX		0x408
#define INC_IRQ_COAL_RX		0x40c
#define INC_IRQ_TX		0	/* vectors, and bits of STATUS/ENABLE */
#define INC_IRQ_RX		1
#define INC_COAL(frames, usecs)	(((usecs) & 0xffff) << 16 | ((frames) & 0xffff))

/* ---- 0x0500 management core and firmware (v1.4, docs/firmware.md) ---- */
/* The core reaches these (and the rest of the map) at 0x4000_0000 + offset. */
#define INC_IRQ_MGMT		2	/* vector: mailbox completion, events */
#define INC_MGMT_CTRL		0x500	/* host RW, fw RO */
#define INC_MGMT_LOAD_ADDR	0x504	/* host RW: next loader address */
#define INC_MGMT_LOAD_DATA	0x508	/* host WO: a word at LOAD_ADDR, +4 */
#define INC_FW_STATUS		0x510	/* host RO, fw RW */
#define INC_FW_VERSION		0x514	/* host RO, fw RW */
#define INC_FW_HEARTBEAT	0x518	/* host RO, fw RW: +1 a millisecond */
#define INC_FW_SELFTEST		0x51c	/* host RO, fw RW */
#define INC_MBOX_DOORBELL	0x520	/* host WO: 1 posts MBOX_CMD */
#define INC_MBOX_STATUS		0x524	/* host RO (BUSY), fw W (ACK, DONE) */
#define INC_MGMT_EVENT		0x528	/* host RO W1C, fw W1S */
#define INC_STATS_SNAP		0x52c	/* fw W: snapshot (and clear) */
#define INC_MBOX_CMD		0x600	/* 16 words, host RW, fw RO */
#define INC_MBOX_CMD_WORDS	16
#define INC_MBOX_RSP		0x700	/* 64 words, host RO, fw RW */
#define INC_MBOX_RSP_WORDS	64
#define INC_STATS_SNAP_BANK	0x1800	/* RO: counter n at + 8n, as 0x1000 */

#define INC_MGMT_CTRL_HALT	(1u << 0)
#define INC_FW_STATUS_READY	(1u << 0)
#define INC_FW_STATUS_ST_DONE	(1u << 1)
#define INC_FW_STATUS_ST_PASS	(1u << 2)
#define INC_FW_STATUS_BOOT_ERROR	(1u << 3)
#define INC_FW_STATUS_ERR_SHIFT	16	/* [31:16]: boot error code */
#define INC_FW_ERR_TRAP		0x100	/* + mcause: the firmware took an exception */
#define INC_FW_CRASH_RSP	61	/* MBOX_RSP words 61..63: mcause, mepc, mtval */
#define INC_FW_SELFTEST_RUN_SHIFT	8	/* bits 8..13: the sets run */
#define INC_FW_ST_SETS		6	/* paper, sparse, width x comp, decomp */
#define INC_MBOX_STATUS_BUSY	(1u << 0)	/* host reads */
#define INC_MBOX_STATUS_ACK	(1u << 0)	/* fw writes: drop MEIP */
#define INC_MBOX_STATUS_DONE	(1u << 1)	/* fw writes: complete */
#define INC_MGMT_EVENT_LINK	(1u << 0)
#define INC_MGMT_EVENT_SELFTEST	(1u << 1)
#define INC_MGMT_EVENT_FAULT	(1u << 2)
#define INC_STATS_SNAP_TAKE	(1u << 0)	/* every counter to the bank, one clock */
#define INC_STATS_SNAP_CLEAR	(1u << 1)	/* and restart them in that clock */

/* admin commands: MBOX_CMD word 0 [15:0]; [31:16] the sequence number */
#define INC_MBOX_OP_GET_VERSION		0x0001
#define INC_MBOX_OP_GET_SELFTEST	0x0002
#define INC_MBOX_OP_RUN_SELFTEST	0x0003
#define INC_MBOX_OP_SET_MAC		0x0004
#define INC_MBOX_OP_STATS_SNAPSHOT	0x0005
#define INC_MBOX_OP_GET_LINK		0x0006
#define INC_MBOX_OP_RUN_VECTOR		0x0007	/* one self-test vector (tests) */
/* test commands (firmware 1.1, docs/firmware.md): the core hangs; it faults */
#define INC_MBOX_OP_DEBUG_HANG		0x00f0
#define INC_MBOX_OP_DEBUG_FAULT		0x00f1
/* MBOX_RSP word 0 [15:0]: status (errno values) */
#define INC_MBOX_ST_OK		0
#define INC_MBOX_ST_EIO		5
#define INC_MBOX_ST_EBUSY	16
#define INC_MBOX_ST_EINVAL	22
#define INC_MBOX_ST_EOPNOTSUPP	95
/* GET_VERSION word 3: capabilities */
#define INC_FW_CAP_SELFTEST	(1u << 0)
#define INC_FW_CAP_STATS	(1u << 1)
#define INC_FW_CAP_SET_MAC	(1u << 2)
#define INC_FW_CAP_LINK_EVENTS	(1u << 3)

/* firmware image (inceptionn-fw.bin): a 32-byte header, then the payload */
#define INC_FWIMG_MAGIC		0x57464e49	/* "INFW" little-endian */
#define INC_FWIMG_HDR_VERSION	1
#define INC_FWIMG_HDR_BYTES	32
#define INC_FWIMG_IMEM_BYTES	16384	/* the payload's limit (mgmt_soc IMEM) */

/* ---- 0x0540 engine test port (v1.5, FEATURES bit 14; docs/regmap.md) ---- */
/*
 * The firmware feeds one chunk through the datapath's own codec engine (TX
 * compressor, RX decompressor, the width decompressor at 16 lanes) between
 * frames and reads what comes out. Host RO; core RW (TP_IN: core WO).
 */
#define INC_TP_CTRL		0x540	/* core RW: START, CANCEL, direction, mode, k */
#define INC_TP_LEN		0x544	/* core RW: [15:0] input bytes, [29:16] raw length */
#define INC_TP_STATUS		0x548	/* RO: BUSY, DONE, errors; [31:16] output bytes */
#define INC_TP_INFO		0x54c	/* RO: [15:0] input buffer, [31:16] output buffer bytes */
#define INC_TP_IN		0x2000	/* core WO: the input bytes, little-endian words */
#define INC_TP_IN_BYTES		0x100
#define INC_TP_OUT		0x2800	/* RO: the engine's output bytes */
#define INC_TP_OUT_BYTES	0x100

#define INC_TP_CTRL_START	(1u << 0)	/* write 1: run (reads 0) */
#define INC_TP_CTRL_DECOMP	(1u << 1)	/* 0 compressor, 1 decompressor */
#define INC_TP_CTRL_MODE_SHIFT	2		/* [3:2] mode (INC_MODE_*) */
#define INC_TP_CTRL_K_SHIFT	4		/* [8:4] k */
#define INC_TP_CTRL_CANCEL	(1u << 31)	/* write 1: withdraw a request not yet granted */
#define INC_TP_LEN_RAW_SHIFT	16		/* TP_LEN [29:16]: raw_len (decompress) */
#define INC_TP_ST_BUSY		(1u << 0)	/* a run is in progress */
#define INC_TP_ST_DONE		(1u << 1)	/* the last run ended (the bits below are its) */
#define INC_TP_ST_ERROR		(1u << 2)	/* the engine flagged the chunk (malformed) */
#define INC_TP_ST_OVERFLOW	(1u << 3)	/* more output than TP_OUT holds */
#define INC_TP_ST_REFUSED	(1u << 4)	/* bad parameters: nothing ran */
#define INC_TP_ST_CANCELLED	(1u << 5)	/* cancelled or cut by a reset: not run */
#define INC_TP_ST_OUT_SHIFT	16		/* [31:16] output bytes */

/* ---- 0x1000 statistics: counter n at 0x1000 + 8n (low), +4 (high) ---- */
#define INC_STATS		0x1000

/* X(index, name): the counters in order, for enums and name tables */
#define INC_STATS_LIST(X)				\
	X(0, tx_frames)					\
	X(1, tx_bytes)					\
	X(2, tx_comp_frames)				\
	X(3, tx_comp_in_bytes)				\
	X(4, tx_comp_out_bytes)				\
	X(5, tx_bytes_saved)				\
	X(6, tx_comp_skipped)				\
	X(7, tx_desc_errors)				\
	X(8, rx_frames)					\
	X(9, rx_bytes)					\
	X(10, rx_decomp_frames)				\
	X(11, rx_decomp_in_bytes)			\
	X(12, rx_decomp_out_bytes)			\
	X(13, rx_drop_malformed)			\
	X(14, rx_drop_no_buffer)			\
	X(15, rx_drop_mac)				\
	X(16, rx_delivered)				\
	X(17, rx_delivered_bytes)

#define INC_ST_TX_FRAMES		0
#define INC_ST_TX_BYTES			1
#define INC_ST_TX_COMP_FRAMES		2
#define INC_ST_TX_COMP_IN_BYTES		3
#define INC_ST_TX_COMP_OUT_BYTES	4
#define INC_ST_TX_BYTES_SAVED		5
#define INC_ST_TX_COMP_SKIPPED		6
#define INC_ST_TX_DESC_ERRORS		7
#define INC_ST_RX_FRAMES		8
#define INC_ST_RX_BYTES			9
#define INC_ST_RX_DECOMP_FRAMES		10
#define INC_ST_RX_DECOMP_IN_BYTES	11
#define INC_ST_RX_DECOMP_OUT_BYTES	12
#define INC_ST_RX_DROP_MALFORMED	13
#define INC_ST_RX_DROP_NO_BUFFER	14
#define INC_ST_RX_DROP_MAC		15
#define INC_ST_RX_DELIVERED		16
#define INC_ST_RX_DELIVERED_BYTES	17
#define INC_ST_N			18

/* ---- descriptors (little-endian) ---- */
#define INC_TXD_BYTES		32
#define INC_TXD_ADDR		0	/* u64 */
#define INC_TXD_LEN		8	/* u16 */
#define INC_TXD_FLAGS		10	/* u16 */
#define INC_TXD_K		12	/* u8 */
#define INC_TXD_MODE		13	/* u8 */
#define INC_TXD_RANGE_OFF	14	/* u16 */
#define INC_TXD_RANGE_LEN	16	/* u16 */
#define INC_TXD_STATUS		24	/* u32, written by the NIC */
#define INC_TXD_COMPRESS	(1u << 0)	/* flags */
#define INC_MODE_PAPER		1
#define INC_MODE_SPARSE		2
#define INC_MODE_WIDTH		3

#define INC_RXD_BYTES		16
#define INC_RXD_ADDR		0	/* u64 */
#define INC_RXD_BUF_LEN		8	/* u16 */
#define INC_RXD_LEN		10	/* u16, written by the NIC */
#define INC_RXD_STATUS		12	/* u32, written by the NIC */

#define INC_DESC_DONE		(1u << 31)	/* status, both rings */
#define INC_TXS_COMPRESSED	(1u << 30)
#define INC_TXS_ERROR		(1u << 29)
#define INC_TXS_OUTCOME_SHIFT	16		/* status[23:16]: the outcome */
#define INC_TXS_OUTCOME(s)	(((s) >> INC_TXS_OUTCOME_SHIFT) & 0xff)
#define INC_TXS_BYTES(s)	((s) & 0xffff)
#define INC_RXS_RESTORED	(1u << 30)

#endif /* INC_NIC_REGS_H */
