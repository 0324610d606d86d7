// SPDX-License-Identifier: MIT
/*
 * inc_nic_regs.vh: the NIC's register offsets, bits, descriptor layouts
 * and counter indices (docs/regmap.md), for the RTL. Made from
 * include/hw/inc_nic_regs.h by rtl/scripts/gen-regs-vh.py: do not edit;
 * change the C header and run the script (make check compares them).
 *
 * Included inside a module body: `include "inc_nic_regs.vh"
 */

/* verilator lint_off UNUSEDPARAM */

// ---- PCI identity of the FPGA board (docs/regmap.md, "PCI") ----
localparam [31:0] INC_PCI_VENDOR = 32'h000010ee;   // Xilinx
localparam [31:0] INC_PCI_DEVICE = 32'h00004943;   // the inceptionn bitstream
localparam [31:0] INC_BAR0_SIZE = 32'h00010000;   // CSR space: 16-bit addresses

// ---- 0x0000 ID block (read-only) ----
localparam [31:0] INC_MAGIC = 32'h00000000;
localparam [31:0] INC_VERSION = 32'h00000004;
localparam [31:0] INC_FEATURES = 32'h00000008;
localparam [31:0] INC_CONFIG = 32'h0000000c;
localparam [31:0] INC_SCRATCH = 32'h00000010;
localparam [31:0] INC_BUILD = 32'h00000014;
localparam [31:0] INC_MAGIC_VALUE = 32'h31434e49;   // "INC1"
localparam [31:0] INC_FEAT_TX_COMP = 32'h00000001;
localparam integer INC_FEAT_TX_COMP_BIT = 0;
localparam [31:0] INC_FEAT_RX_DECOMP = 32'h00000002;
localparam integer INC_FEAT_RX_DECOMP_BIT = 1;
localparam [31:0] INC_FEAT_MODE_PAPER = 32'h00000004;
localparam integer INC_FEAT_MODE_PAPER_BIT = 2;
localparam [31:0] INC_FEAT_MODE_SPARSE = 32'h00000008;
localparam integer INC_FEAT_MODE_SPARSE_BIT = 3;
localparam [31:0] INC_FEAT_IPV6 = 32'h00000010;
localparam integer INC_FEAT_IPV6_BIT = 4;
localparam [31:0] INC_FEAT_VLAN = 32'h00000020;
localparam integer INC_FEAT_VLAN_BIT = 5;
localparam [31:0] INC_FEAT_LOOPBACK = 32'h00000040;
localparam integer INC_FEAT_LOOPBACK_BIT = 6;
localparam [31:0] INC_FEAT_IRQ_COAL = 32'h00000080;
localparam integer INC_FEAT_IRQ_COAL_BIT = 7;
localparam [31:0] INC_FEAT_JUMBO = 32'h00000100;
localparam integer INC_FEAT_JUMBO_BIT = 8;
localparam [31:0] INC_FEAT_STATS64 = 32'h00000200;
localparam integer INC_FEAT_STATS64_BIT = 9;
localparam [31:0] INC_FEAT_LINK_SPEED = 32'h00000400;   // LINK_SPEED is valid (v1.1)
localparam integer INC_FEAT_LINK_SPEED_BIT = 10;
localparam [31:0] INC_FEAT_QFLUSH = 32'h00000800;   // QFLUSH is valid (v1.2)
localparam integer INC_FEAT_QFLUSH_BIT = 11;
localparam [31:0] INC_FEAT_MODE_WIDTH = 32'h00001000;   // mode 3 (width), v1.3, 16 lanes
localparam integer INC_FEAT_MODE_WIDTH_BIT = 12;
localparam [31:0] INC_FEAT_MGMT = 32'h00002000;   // 0x0500 management block, v1.4
localparam integer INC_FEAT_MGMT_BIT = 13;
localparam [31:0] INC_FEAT_TPORT = 32'h00004000;   // engine test port 0x0540, v1.5
localparam integer INC_FEAT_TPORT_BIT = 14;

// ---- 0x0100 control ----
localparam [31:0] INC_CTRL = 32'h00000100;
localparam [31:0] INC_STATUS = 32'h00000104;
localparam [31:0] INC_MAC_LO = 32'h00000108;
localparam [31:0] INC_MAC_HI = 32'h0000010c;
localparam [31:0] INC_MAX_FRAME = 32'h00000110;
localparam [31:0] INC_LINK_SPEED = 32'h00000114;   // RO, Mbit/s of the link; 0 unknown
localparam [31:0] INC_QFLUSH = 32'h00000118;   // W1S: flush a queue; RO: in progress
localparam [31:0] INC_CTRL_TX_EN = 32'h00000001;
localparam integer INC_CTRL_TX_EN_BIT = 0;
localparam [31:0] INC_CTRL_RX_EN = 32'h00000002;
localparam integer INC_CTRL_RX_EN_BIT = 1;
localparam [31:0] INC_CTRL_LOOPBACK = 32'h00000004;
localparam integer INC_CTRL_LOOPBACK_BIT = 2;
localparam [31:0] INC_QFLUSH_TX = 32'h00000001;
localparam integer INC_QFLUSH_TX_BIT = 0;
localparam [31:0] INC_QFLUSH_RX = 32'h00000002;
localparam integer INC_QFLUSH_RX_BIT = 1;
localparam [31:0] INC_STATUS_LINK = 32'h00000001;
localparam integer INC_STATUS_LINK_BIT = 0;
localparam [31:0] INC_STATUS_TX_IDLE = 32'h00000002;
localparam integer INC_STATUS_TX_IDLE_BIT = 1;
localparam [31:0] INC_STATUS_RX_IDLE = 32'h00000004;
localparam integer INC_STATUS_RX_IDLE_BIT = 2;
localparam [31:0] INC_MIN_FRAME = 32'h0000003c;   // MAX_FRAME's lower limit
localparam [31:0] INC_MAX_FRAME_DEFAULT = 32'h000005ee;   // MAX_FRAME after reset

// ---- 0x0200 TX queue, 0x0300 RX queue ----
localparam [31:0] INC_TXQ = 32'h00000200;
localparam [31:0] INC_RXQ = 32'h00000300;
localparam [31:0] INC_Q_BASE_LO = 32'h00000000;
localparam [31:0] INC_Q_BASE_HI = 32'h00000004;
localparam [31:0] INC_Q_SIZE = 32'h00000008;
localparam [31:0] INC_Q_PROD = 32'h0000000c;
localparam [31:0] INC_Q_CONS = 32'h00000010;
localparam [31:0] INC_Q_LOG2_MIN = 32'h00000004;
localparam [31:0] INC_Q_LOG2_MAX = 32'h0000000c;

// ---- 0x0400 interrupts ----
localparam [31:0] INC_IRQ_STATUS = 32'h00000400;
localparam [31:0] INC_IRQ_ENABLE = 32'h00000404;
localparam [31:0] INC_IRQ_COAL_TX = 32'h00000408;
localparam [31:0] INC_IRQ_COAL_RX = 32'h0000040c;
localparam [31:0] INC_IRQ_TX = 32'h00000000;   // vectors, and bits of STATUS/ENABLE
localparam [31:0] INC_IRQ_RX = 32'h00000001;

// ---- 0x0500 management core and firmware (v1.4, docs/firmware.md) ----
localparam [31:0] INC_IRQ_MGMT = 32'h00000002;   // vector: mailbox completion, events
localparam [31:0] INC_MGMT_CTRL = 32'h00000500;   // host RW, fw RO
localparam [31:0] INC_MGMT_LOAD_ADDR = 32'h00000504;   // host RW: next loader address
localparam [31:0] INC_MGMT_LOAD_DATA = 32'h00000508;   // host WO: a word at LOAD_ADDR, +4
localparam [31:0] INC_FW_STATUS = 32'h00000510;   // host RO, fw RW
localparam [31:0] INC_FW_VERSION = 32'h00000514;   // host RO, fw RW
localparam [31:0] INC_FW_HEARTBEAT = 32'h00000518;   // host RO, fw RW: +1 a millisecond
localparam [31:0] INC_FW_SELFTEST = 32'h0000051c;   // host RO, fw RW
localparam [31:0] INC_MBOX_DOORBELL = 32'h00000520;   // host WO: 1 posts MBOX_CMD
localparam [31:0] INC_MBOX_STATUS = 32'h00000524;   // host RO (BUSY), fw W (ACK, DONE)
localparam [31:0] INC_MGMT_EVENT = 32'h00000528;   // host RO W1C, fw W1S
localparam [31:0] INC_STATS_SNAP = 32'h0000052c;   // fw W: snapshot (and clear)
localparam [31:0] INC_MBOX_CMD = 32'h00000600;   // 16 words, host RW, fw RO
localparam [31:0] INC_MBOX_CMD_WORDS = 32'h00000010;
localparam [31:0] INC_MBOX_RSP = 32'h00000700;   // 64 words, host RO, fw RW
localparam [31:0] INC_MBOX_RSP_WORDS = 32'h00000040;
localparam [31:0] INC_STATS_SNAP_BANK = 32'h00001800;   // RO: counter n at + 8n, as 0x1000
localparam [31:0] INC_MGMT_CTRL_HALT = 32'h00000001;
localparam integer INC_MGMT_CTRL_HALT_BIT = 0;
localparam [31:0] INC_FW_STATUS_READY = 32'h00000001;
localparam integer INC_FW_STATUS_READY_BIT = 0;
localparam [31:0] INC_FW_STATUS_ST_DONE = 32'h00000002;
localparam integer INC_FW_STATUS_ST_DONE_BIT = 1;
localparam [31:0] INC_FW_STATUS_ST_PASS = 32'h00000004;
localparam integer INC_FW_STATUS_ST_PASS_BIT = 2;
localparam [31:0] INC_FW_STATUS_BOOT_ERROR = 32'h00000008;
localparam integer INC_FW_STATUS_BOOT_ERROR_BIT = 3;
localparam [31:0] INC_FW_STATUS_ERR_SHIFT = 32'h00000010;   // [31:16]: boot error code
localparam [31:0] INC_FW_ERR_TRAP = 32'h00000100;   // + mcause: the firmware took an exception
localparam [31:0] INC_FW_CRASH_RSP = 32'h0000003d;   // MBOX_RSP words 61..63: mcause, mepc, mtval
localparam [31:0] INC_FW_SELFTEST_RUN_SHIFT = 32'h00000008;   // bits 8..13: the sets run
localparam [31:0] INC_FW_ST_SETS = 32'h00000006;   // paper, sparse, width x comp, decomp
localparam [31:0] INC_MBOX_STATUS_BUSY = 32'h00000001;   // host reads
localparam integer INC_MBOX_STATUS_BUSY_BIT = 0;
localparam [31:0] INC_MBOX_STATUS_ACK = 32'h00000001;   // fw writes: drop MEIP
localparam integer INC_MBOX_STATUS_ACK_BIT = 0;
localparam [31:0] INC_MBOX_STATUS_DONE = 32'h00000002;   // fw writes: complete
localparam integer INC_MBOX_STATUS_DONE_BIT = 1;
localparam [31:0] INC_MGMT_EVENT_LINK = 32'h00000001;
localparam integer INC_MGMT_EVENT_LINK_BIT = 0;
localparam [31:0] INC_MGMT_EVENT_SELFTEST = 32'h00000002;
localparam integer INC_MGMT_EVENT_SELFTEST_BIT = 1;
localparam [31:0] INC_MGMT_EVENT_FAULT = 32'h00000004;
localparam integer INC_MGMT_EVENT_FAULT_BIT = 2;
localparam [31:0] INC_STATS_SNAP_TAKE = 32'h00000001;   // every counter to the bank, one clock
localparam integer INC_STATS_SNAP_TAKE_BIT = 0;
localparam [31:0] INC_STATS_SNAP_CLEAR = 32'h00000002;   // and restart them in that clock
localparam integer INC_STATS_SNAP_CLEAR_BIT = 1;
localparam [31:0] INC_MBOX_OP_GET_VERSION = 32'h00000001;
localparam [31:0] INC_MBOX_OP_GET_SELFTEST = 32'h00000002;
localparam [31:0] INC_MBOX_OP_RUN_SELFTEST = 32'h00000003;
localparam [31:0] INC_MBOX_OP_SET_MAC = 32'h00000004;
localparam [31:0] INC_MBOX_OP_STATS_SNAPSHOT = 32'h00000005;
localparam [31:0] INC_MBOX_OP_GET_LINK = 32'h00000006;
localparam [31:0] INC_MBOX_OP_RUN_VECTOR = 32'h00000007;   // one self-test vector (tests)
localparam [31:0] INC_MBOX_OP_DEBUG_HANG = 32'h000000f0;
localparam [31:0] INC_MBOX_OP_DEBUG_FAULT = 32'h000000f1;
localparam [31:0] INC_MBOX_ST_OK = 32'h00000000;
localparam [31:0] INC_MBOX_ST_EIO = 32'h00000005;
localparam [31:0] INC_MBOX_ST_EBUSY = 32'h00000010;
localparam [31:0] INC_MBOX_ST_EINVAL = 32'h00000016;
localparam [31:0] INC_MBOX_ST_EOPNOTSUPP = 32'h0000005f;
localparam [31:0] INC_FW_CAP_SELFTEST = 32'h00000001;
localparam integer INC_FW_CAP_SELFTEST_BIT = 0;
localparam [31:0] INC_FW_CAP_STATS = 32'h00000002;
localparam integer INC_FW_CAP_STATS_BIT = 1;
localparam [31:0] INC_FW_CAP_SET_MAC = 32'h00000004;
localparam integer INC_FW_CAP_SET_MAC_BIT = 2;
localparam [31:0] INC_FW_CAP_LINK_EVENTS = 32'h00000008;
localparam integer INC_FW_CAP_LINK_EVENTS_BIT = 3;
localparam [31:0] INC_FWIMG_MAGIC = 32'h57464e49;   // "INFW" little-endian
localparam [31:0] INC_FWIMG_HDR_VERSION = 32'h00000001;
localparam [31:0] INC_FWIMG_HDR_BYTES = 32'h00000020;
localparam [31:0] INC_FWIMG_IMEM_BYTES = 32'h00004000;   // the payload's limit (mgmt_soc IMEM)

// ---- 0x0540 engine test port (v1.5, FEATURES bit 14; docs/regmap.md) ----
localparam [31:0] INC_TP_CTRL = 32'h00000540;   // core RW: START, CANCEL, direction, mode, k
localparam [31:0] INC_TP_LEN = 32'h00000544;   // core RW: [15:0] input bytes, [29:16] raw length
localparam [31:0] INC_TP_STATUS = 32'h00000548;   // RO: BUSY, DONE, errors; [31:16] output bytes
localparam [31:0] INC_TP_INFO = 32'h0000054c;   // RO: [15:0] input buffer, [31:16] output buffer bytes
localparam [31:0] INC_TP_IN = 32'h00002000;   // core WO: the input bytes, little-endian words
localparam [31:0] INC_TP_IN_BYTES = 32'h00000100;
localparam [31:0] INC_TP_OUT = 32'h00002800;   // RO: the engine's output bytes
localparam [31:0] INC_TP_OUT_BYTES = 32'h00000100;
localparam [31:0] INC_TP_CTRL_START = 32'h00000001;   // write 1: run (reads 0)
localparam integer INC_TP_CTRL_START_BIT = 0;
localparam [31:0] INC_TP_CTRL_DECOMP = 32'h00000002;   // 0 compressor, 1 decompressor
localparam integer INC_TP_CTRL_DECOMP_BIT = 1;
localparam [31:0] INC_TP_CTRL_MODE_SHIFT = 32'h00000002;   // [3:2] mode (INC_MODE_*)
localparam [31:0] INC_TP_CTRL_K_SHIFT = 32'h00000004;   // [8:4] k
localparam [31:0] INC_TP_CTRL_CANCEL = 32'h80000000;   // write 1: withdraw a request not yet granted
localparam integer INC_TP_CTRL_CANCEL_BIT = 31;
localparam [31:0] INC_TP_LEN_RAW_SHIFT = 32'h00000010;   // TP_LEN [29:16]: raw_len (decompress)
localparam [31:0] INC_TP_ST_BUSY = 32'h00000001;   // a run is in progress
localparam integer INC_TP_ST_BUSY_BIT = 0;
localparam [31:0] INC_TP_ST_DONE = 32'h00000002;   // the last run ended (the bits below are its)
localparam integer INC_TP_ST_DONE_BIT = 1;
localparam [31:0] INC_TP_ST_ERROR = 32'h00000004;   // the engine flagged the chunk (malformed)
localparam integer INC_TP_ST_ERROR_BIT = 2;
localparam [31:0] INC_TP_ST_OVERFLOW = 32'h00000008;   // more output than TP_OUT holds
localparam integer INC_TP_ST_OVERFLOW_BIT = 3;
localparam [31:0] INC_TP_ST_REFUSED = 32'h00000010;   // bad parameters: nothing ran
localparam integer INC_TP_ST_REFUSED_BIT = 4;
localparam [31:0] INC_TP_ST_CANCELLED = 32'h00000020;   // cancelled or cut by a reset: not run
localparam integer INC_TP_ST_CANCELLED_BIT = 5;
localparam [31:0] INC_TP_ST_OUT_SHIFT = 32'h00000010;   // [31:16] output bytes

// ---- 0x1000 statistics: counter n at 0x1000 + 8n (low), +4 (high) ----
localparam [31:0] INC_STATS = 32'h00001000;
localparam [31:0] INC_ST_TX_FRAMES = 32'h00000000;
localparam [31:0] INC_ST_TX_BYTES = 32'h00000001;
localparam [31:0] INC_ST_TX_COMP_FRAMES = 32'h00000002;
localparam [31:0] INC_ST_TX_COMP_IN_BYTES = 32'h00000003;
localparam [31:0] INC_ST_TX_COMP_OUT_BYTES = 32'h00000004;
localparam [31:0] INC_ST_TX_BYTES_SAVED = 32'h00000005;
localparam [31:0] INC_ST_TX_COMP_SKIPPED = 32'h00000006;
localparam [31:0] INC_ST_TX_DESC_ERRORS = 32'h00000007;
localparam [31:0] INC_ST_RX_FRAMES = 32'h00000008;
localparam [31:0] INC_ST_RX_BYTES = 32'h00000009;
localparam [31:0] INC_ST_RX_DECOMP_FRAMES = 32'h0000000a;
localparam [31:0] INC_ST_RX_DECOMP_IN_BYTES = 32'h0000000b;
localparam [31:0] INC_ST_RX_DECOMP_OUT_BYTES = 32'h0000000c;
localparam [31:0] INC_ST_RX_DROP_MALFORMED = 32'h0000000d;
localparam [31:0] INC_ST_RX_DROP_NO_BUFFER = 32'h0000000e;
localparam [31:0] INC_ST_RX_DROP_MAC = 32'h0000000f;
localparam [31:0] INC_ST_RX_DELIVERED = 32'h00000010;
localparam [31:0] INC_ST_RX_DELIVERED_BYTES = 32'h00000011;
localparam [31:0] INC_ST_N = 32'h00000012;

// ---- descriptors (little-endian) ----
localparam [31:0] INC_TXD_BYTES = 32'h00000020;
localparam [31:0] INC_TXD_ADDR = 32'h00000000;   // u64
localparam [31:0] INC_TXD_LEN = 32'h00000008;   // u16
localparam [31:0] INC_TXD_FLAGS = 32'h0000000a;   // u16
localparam [31:0] INC_TXD_K = 32'h0000000c;   // u8
localparam [31:0] INC_TXD_MODE = 32'h0000000d;   // u8
localparam [31:0] INC_TXD_RANGE_OFF = 32'h0000000e;   // u16
localparam [31:0] INC_TXD_RANGE_LEN = 32'h00000010;   // u16
localparam [31:0] INC_TXD_STATUS = 32'h00000018;   // u32, written by the NIC
localparam [31:0] INC_TXD_COMPRESS = 32'h00000001;   // flags
localparam integer INC_TXD_COMPRESS_BIT = 0;
localparam [31:0] INC_MODE_PAPER = 32'h00000001;
localparam [31:0] INC_MODE_SPARSE = 32'h00000002;
localparam [31:0] INC_MODE_WIDTH = 32'h00000003;
localparam [31:0] INC_RXD_BYTES = 32'h00000010;
localparam [31:0] INC_RXD_ADDR = 32'h00000000;   // u64
localparam [31:0] INC_RXD_BUF_LEN = 32'h00000008;   // u16
localparam [31:0] INC_RXD_LEN = 32'h0000000a;   // u16, written by the NIC
localparam [31:0] INC_RXD_STATUS = 32'h0000000c;   // u32, written by the NIC
localparam [31:0] INC_DESC_DONE = 32'h80000000;   // status, both rings
localparam integer INC_DESC_DONE_BIT = 31;
localparam [31:0] INC_TXS_COMPRESSED = 32'h40000000;
localparam integer INC_TXS_COMPRESSED_BIT = 30;
localparam [31:0] INC_TXS_ERROR = 32'h20000000;
localparam integer INC_TXS_ERROR_BIT = 29;
localparam [31:0] INC_TXS_OUTCOME_SHIFT = 32'h00000010;   // status[23:16]: the outcome
localparam [31:0] INC_RXS_RESTORED = 32'h40000000;
localparam integer INC_RXS_RESTORED_BIT = 30;

/* verilator lint_on UNUSEDPARAM */
