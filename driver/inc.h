/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inceptionn NIC driver: what its files share. The register map is
 * include/hw/inc_nic_regs.h (docs/regmap.md).
 *
 * Two transports carry register accesses to the NIC: the FPGA board's BAR0
 * (inc_pci.c) and incsim's command ring in QEMU's ivshmem device
 * (inc_sim.c). Everything above struct inc_transport is the same code.
 */
#ifndef INC_H
#define INC_H

#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>

#include <hw/inc_nic_desc.h>
#include <hw/inc_nic_regs.h>

#define INC_DRV_NAME		"inceptionn"
/* the driver's version: MODULE_VERSION, and the DKMS package's (dkms.conf) */
#define INC_DRV_VERSION		"0.1.0"
#define INC_VERSION_SPOKEN	1	/* register map major version */

#define INC_RING_DEFAULT	256
#define INC_RING_MIN		(1 << INC_Q_LOG2_MIN)
#define INC_RING_MAX		(1 << INC_Q_LOG2_MAX)

struct inc_priv;

struct inc_transport {
	const char *name;
	u32 (*read)(struct inc_priv *p, u32 off);
	void (*write)(struct inc_priv *p, u32 off, u32 val);
};

struct inc_tx_slot {
	struct sk_buff *skb;
	dma_addr_t dma;
	unsigned int len;
	bool marked;
};

struct inc_rx_slot {
	struct sk_buff *skb;
	dma_addr_t dma;
};

struct inc_ring {
	union {			/* descriptors, in coherent DMA memory */
		struct inc_txd *txd;
		struct inc_rxd *rxd;
	};
	dma_addr_t desc_dma;
	unsigned int size;	/* entries, a power of 2 */
	u16 prod;		/* next slot the driver fills */
	u16 clean;		/* next slot the driver reaps */
	union {
		struct inc_tx_slot *tx;
		struct inc_rx_slot *rx;
	};
};

/*
 * Counters the driver keeps, besides the NIC's own: one set written by the
 * xmit path, one by NAPI, each with its own writer.
 */
struct inc_sw_stats {
	u64 tx_packets, tx_bytes, tx_errors, tx_dropped;
	u64 tx_marked, tx_marked_bytes, tx_compressed, tx_plain_peer;
	u64 rx_packets, rx_bytes, rx_dropped, rx_errors, rx_restored;
	struct u64_stats_sync syncp;
};

#define INC_SW_STATS_N	(offsetof(struct inc_sw_stats, syncp) / sizeof(u64))

struct inc_priv {
	struct net_device *ndev;
	struct pci_dev *pdev;
	const struct inc_transport *tp;
	void *tp_priv;		/* the transport's own state */
	bool dead;		/* the device stopped answering */

	/* the ID block */
	u32 version, features, config, build;
	unsigned int max_frame_hw;	/* CONFIG's largest frame */

	int nvec;		/* 2: a vector per queue; 1: one for both */
	struct napi_struct napi;
	struct inc_ring tx, rx;
	unsigned int tx_size, rx_size;	/* ring sizes for the next open */
	unsigned int rx_buf_len;	/* = MAX_FRAME */
	u32 coal_tx, coal_rx;		/* IRQ_COAL_* values */

	struct delayed_work watch;	/* link state and drop counters */
	u64 hw_rx_drops;		/* from the NIC's counters */

	struct inc_sw_stats xmit_stats;
	struct inc_sw_stats napi_stats;
};

static inline u32 inc_rd(struct inc_priv *p, u32 off)
{
	return p->tp->read(p, off);
}

static inline void inc_wr(struct inc_priv *p, u32 off, u32 val)
{
	p->tp->write(p, off, val);
}

u64 inc_read_stat(struct inc_priv *p, unsigned int n);
void inc_sw_stats_sum(struct inc_priv *p, struct inc_sw_stats *sum);

/* inc_dev.c: what both transports call */
int inc_probe(struct pci_dev *pdev, const struct inc_transport *tp,
	      void *tp_priv, int nvec);
void inc_remove(struct pci_dev *pdev);

/* inc_netdev.c */
extern const struct net_device_ops inc_netdev_ops;
int inc_up(struct inc_priv *p);
void inc_down(struct inc_priv *p);
irqreturn_t inc_irq(int irq, void *data);
int inc_poll(struct napi_struct *napi, int budget);
void inc_watch(struct work_struct *work);

/* inc_ethtool.c */
extern const struct ethtool_ops inc_ethtool_ops;

/* the transports' PCI drivers (inc_pci.c, inc_sim.c) */
extern struct pci_driver inc_pci_driver;
extern struct pci_driver inc_sim_driver;

/* module parameters (inc_main.c) */
extern unsigned int inc_param_ring_size;
extern bool inc_param_sim;
extern bool inc_param_board;

#endif /* INC_H */
