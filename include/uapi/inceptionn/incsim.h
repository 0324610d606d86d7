/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The virtual PCIe shim between incsim (sim/incsim) and the driver's sim
 * transport (driver/): how NIC register accesses travel through the shared
 * BAR2 window of QEMU's ivshmem-doorbell device. docs/sim.md explains it;
 * this header is the one definition both sides include.
 *
 * BAR2 (INCSIM_BAR2_SIZE bytes, little-endian):
 *
 *   0x000  u64  magic    INCSIM_MAGIC, written by incsim before QEMU starts
 *   0x008  u32  version  INCSIM_VERSION
 *   0x00c  u32  state    INCSIM_STATE_*, written by incsim
 *   0x010  u32  bar0     size of the NIC's register space (bytes)
 *   0x014  u32  entries  command ring entries (INCSIM_RING_ENTRIES)
 *   0x018  u32  vectors  MSI-X vectors incsim raises
 *   0x01c  u32  features INCSIM_FEAT_*: the command ops incsim executes
 *                        beyond read and write (0 in older incsims)
 *   0x020  u64  clocks   the NIC's clock cycles so far, at INCSIM_CLK_MHZ:
 *                        its time (simulated, and skipped while its
 *                        management core sleeps: docs/sim.md)
 *   0x040  u32  prod     commands written, by the guest (own cache line)
 *   0x080  u32  cons     commands done, by incsim (own cache line)
 *   0x100  struct incsim_cmd ring[entries]
 *
 * The guest writes ring[prod % entries], then (release) prod + 1, then
 * rings the doorbell (ivshmem BAR0 DOORBELL = peer 0, vector 0). incsim
 * executes commands in ring order on the NIC's CSR port, writes a read's
 * result into its entry's value, then (release) advances cons. A read is
 * complete when cons has passed its index. Commands are ordered: a read
 * returns after every earlier write has taken effect.
 *
 * Two more ops, each used only when its features bit is set; their addr is
 * ignored, and they are executed in ring order like the others:
 *
 *   INCSIM_OP_RESET   (INCSIM_FEAT_RESET) a function-level reset of the
 *       NIC: every DMA request in flight is dropped (none of it reaches
 *       guest memory afterwards), the NIC's registers return to their reset
 *       values, and incsim writes the MAC address into MAC_LO/MAC_HI again,
 *       as the board's firmware does. Bus mastering is not changed. A
 *       command after it sees the reset NIC.
 *   INCSIM_OP_MASTER  (INCSIM_FEAT_MASTER) value 1 or 0: bus mastering on
 *       or off, the PCI command register's bit; on when incsim starts.
 *       While off, the NIC's DMA requests are answered without guest
 *       memory (reads return zeros, writes are dropped) and its MSI-X
 *       messages are not sent. Another value is a bad command.
 */
#ifndef _UAPI_INCEPTIONN_INCSIM_H
#define _UAPI_INCEPTIONN_INCSIM_H

#include <linux/types.h>

#define INCSIM_MAGIC		0x31304d4953434e49ULL	/* "INCSIM01" */
#define INCSIM_VERSION		1
#define INCSIM_BAR2_SIZE	8192

#define INCSIM_OFF_MAGIC	0x000
#define INCSIM_OFF_VERSION	0x008
#define INCSIM_OFF_STATE	0x00c
#define INCSIM_OFF_BAR0		0x010
#define INCSIM_OFF_ENTRIES	0x014
#define INCSIM_OFF_VECTORS	0x018
#define INCSIM_OFF_FEATURES	0x01c
#define INCSIM_OFF_CLOCKS	0x020	/* u64: the NIC's clocks so far */
#define INCSIM_CLK_MHZ		250	/* ... at the NIC's nominal clock */
#define INCSIM_OFF_PROD		0x040
#define INCSIM_OFF_CONS		0x080
#define INCSIM_OFF_RING		0x100
#define INCSIM_RING_ENTRIES	256

#define INCSIM_STATE_ATTACHED	(1u << 0)	/* incsim serves this window */

#define INCSIM_OP_WRITE		1
#define INCSIM_OP_READ		2
#define INCSIM_OP_RESET		3
#define INCSIM_OP_MASTER	4

#define INCSIM_FEAT_RESET	(1u << 0)	/* INCSIM_OP_RESET */
#define INCSIM_FEAT_MASTER	(1u << 1)	/* INCSIM_OP_MASTER */

struct incsim_cmd {
	__u32 op;	/* INCSIM_OP_* */
	__u32 addr;	/* NIC register offset (BAR0 of the real board) */
	__u32 value;	/* the value written, or the value read */
	__u32 rsvd;
};

/* the doorbell vector the guest rings (incsim's eventfd) */
#define INCSIM_DOORBELL_VECTOR	0

#endif /* _UAPI_INCEPTIONN_INCSIM_H */
