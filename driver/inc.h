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

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>

#include <hw/inc_nic_desc.h>
#include <hw/inc_nic_regs.h>

#define INC_DRV_NAME		"inceptionn"
/* the driver's version: MODULE_VERSION, and the DKMS package's (dkms.conf) */
#define INC_DRV_VERSION		"0.2.0"
#define INC_VERSION_SPOKEN	1	/* register map major version */

#define INC_RING_DEFAULT	256
#define INC_RING_MIN		(1 << INC_Q_LOG2_MIN)
#define INC_RING_MAX		(1 << INC_Q_LOG2_MAX)

struct inc_priv;
struct inc_peers;

struct inc_transport {
	const char *name;
	u32 (*read)(struct inc_priv *p, u32 off);
	void (*write)(struct inc_priv *p, u32 off, u32 val);
	/*
	 * Bus mastering on or off (the PCI command register, and whatever
	 * the transport needs besides). Off: true when, from its return on,
	 * the NIC can no longer read or write host memory. Process context.
	 */
	bool (*set_master)(struct inc_priv *p, bool on);
	/*
	 * Reset the NIC (a function-level reset): 0 once it is at its reset
	 * state and nothing it started before can reach memory; an errno
	 * when it could not be done (then the NIC stays as it was). Process
	 * context; bus mastering is off.
	 */
	int (*reset)(struct inc_priv *p);
	/*
	 * The NIC's own time in ns, from its clock (NULL: the kernel's
	 * clock, as on the board): the firmware's timeouts count it
	 * (inc_fw.c). A simulated NIC's clock keeps no fixed pace with the
	 * wall clock.
	 */
	u64 (*nic_time_ns)(struct inc_priv *p);
};

struct inc_tx_slot {
	struct sk_buff *skb;
	dma_addr_t dma;
	unsigned int len;
};

struct inc_rx_slot {
	struct page *page;	/* from the rings' page pool, DMA-mapped */
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
 * Everything one configuration of the queues owns (sizes, MTU). A new one
 * is built completely before it replaces the running one, so a change that
 * cannot get its memory leaves the interface as it was.
 */
struct inc_rings {
	struct inc_ring tx, rx;
	struct page_pool *pool;		/* RX buffers */
	unsigned int buf_len;		/* largest frame = MAX_FRAME */
	unsigned int buf_size;		/* bytes of one RX buffer */
	unsigned int buf_order;		/* its pages: PAGE_SIZE << buf_order */
};

/*
 * Counters the driver keeps, besides the NIC's own: one set written by the
 * xmit path, one by NAPI, each with its own writer.
 */
struct inc_sw_stats {
	u64 tx_packets, tx_bytes, tx_errors, tx_dropped;
	u64 tx_marked, tx_marked_bytes, tx_compressed, tx_plain_peer;
	u64 tx_plain_retrans, tx_plain_feature;
	u64 rx_packets, rx_bytes, rx_dropped, rx_errors, rx_restored;
	struct u64_stats_sync syncp;
};

#define INC_SW_STATS_N	(offsetof(struct inc_sw_stats, syncp) / sizeof(u64))

/* a fault injection point (debugfs, docs/lab-hosts.md) */
struct inc_fault {
	atomic_t every;		/* fail every Nth call; 0: never */
	atomic_t times;		/* failures still to inject; -1: no limit */
	atomic_t calls;
	atomic_t injected;
};

/* the management firmware's state (inc_fw.c) */
enum inc_fw_state {
	INC_FW_NONE,		/* not loaded: the core is halted */
	INC_FW_BOOTING,		/* loaded and started, not READY yet */
	INC_FW_RUNNING,		/* READY, its heartbeat moving */
	INC_FW_DEAD,		/* its heartbeat stopped: the core halted */
};

/* inc_priv.state bits */
enum {
	INC_S_DMA_OFF,		/* bus mastering off: the NIC needs a reset */
	INC_S_DMA_CUT,		/* ... and it can no longer reach memory */
	INC_S_FROZEN,		/* PCI error: no register answers, no DMA */
};

struct inc_priv {
	struct net_device *ndev;
	struct pci_dev *pdev;
	const struct inc_transport *tp;
	void *tp_priv;		/* the transport's own state */

	/* the ID block */
	u32 version, features, config, build;
	unsigned int max_frame_hw;	/* CONFIG's largest frame */

	int nvec;		/* 2: a vector per queue; 1: one for both */
	bool irq_shared;	/* INTx: the handler checks IRQ_STATUS */
	bool irq_mgmt_vec;	/* vector 2 allocated (the mailbox's) */
	char irq_name[2][IFNAMSIZ + 4];
	/*
	 * IRQ_ENABLE holds the three vectors' bits and a write sets them
	 * all: every write goes through inc_irq_unmask() under irq_lock
	 */
	spinlock_t irq_lock;
	bool irq_q_on;		/* the queues' vectors (NAPI running) */
	u32 irq_fw_bit;		/* BIT(INC_IRQ_MGMT) while the mailbox uses it */
	struct napi_struct napi;
	struct inc_rings r;		/* while the interface is up */
	unsigned int tx_size, rx_size;	/* ring sizes for the next open */
	u32 coal_tx, coal_rx;		/* IRQ_COAL_* values */

	unsigned long state;		/* INC_S_* */
	struct delayed_work watch;	/* link state and drop counters */
	struct work_struct reset_task;	/* TX timeout: flush TX or reset */
	u64 hw_rx_drops;		/* from the NIC's counters */
	struct mutex stats_lock;	/* a counter's two halves, read in pairs */
	unsigned int resets;		/* NIC resets since probe */
	unsigned int tx_timeouts;
	unsigned int tx_flushes;	/* TX queue flushes (QFLUSH) */
	bool tx_flushed;		/* the last recovery was a flush ... */
	u64 tx_done_at_flush;		/* ... and inc_tx_done() after it */
	bool was_running;		/* up when a PCI reset began */

	struct devlink *devlink;
	struct devlink_health_reporter *tx_reporter;
	struct inc_peers *peers;	/* peers without the NIC (inc_peers.c) */
	struct dentry *debugfs;
	struct inc_fault fail_alloc;	/* ring and RX buffer allocations */

	/* the management firmware (inc_fw.c) */
	struct mutex fw_lock;		/* the mailbox, the loader, fw_* */
	struct delayed_work fw_work;	/* heartbeat watchdog, reload */
	enum inc_fw_state fw_state;
	u8 *fw_image;			/* the checked image, for reloads */
	bool fw_reload;			/* the NIC was reset: boot again */
	u32 fw_version, fw_build, fw_caps;
	u32 fw_hb;			/* FW_HEARTBEAT last seen ... */
	unsigned long fw_hb_at;		/* ... changing, in jiffies */
	u64 fw_hb_ns;			/* ... and in NIC time (inc_fw_mark) */
	u32 fw_seq;			/* mailbox sequence numbers */
	u32 fw_deaths;			/* heartbeats that stopped */
	struct completion fw_done;	/* vector 2 came (a completion?) */
	bool fw_fault;			/* EVENT: firmware fault, not handled yet */
	char fw_irq_name[32];
	u32 fw_irqs;			/* vector 2's interrupts handled */
	u32 fw_cmds, fw_cmd_errors;	/* commands answered 0, failed */
	u32 fw_snapshots;		/* ethtool -S from STATS_SNAPSHOT */
	u32 fw_link_events;		/* EVENT bit 0 seen */
	struct mutex link_lock;		/* carrier updates (watch, events) */
	struct devlink_health_reporter *fw_reporter;

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

/* headroom of an RX buffer before the frame */
#define INC_RX_HEADROOM		(NET_SKB_PAD + NET_IP_ALIGN)

static inline struct device *inc_dma(struct inc_priv *p)
{
	return &p->pdev->dev;
}

/* one counter of a set, by its one writer */
static inline void inc_stat_inc(struct inc_sw_stats *st, u64 *counter)
{
	u64_stats_update_begin(&st->syncp);
	(*counter)++;
	u64_stats_update_end(&st->syncp);
}

u64 inc_read_stat(struct inc_priv *p, unsigned int n);
void inc_irq_unmask(struct inc_priv *p);
void inc_irq_queues(struct inc_priv *p, bool on);
void inc_link_update(struct inc_priv *p);
void inc_write_mac_addr(struct inc_priv *p, const u8 *mac);
void inc_sw_stats_sum(struct inc_priv *p, struct inc_sw_stats *sum);
void inc_write_mac(struct inc_priv *p);
bool inc_fault_hit(struct inc_fault *f);

/* inc_dev.c: what both transports call */
extern struct dentry *inc_debugfs_root;
int inc_probe(struct pci_dev *pdev, const struct inc_transport *tp,
	      void *tp_priv, int nvec);
void inc_remove(struct pci_dev *pdev);
void inc_shutdown(struct pci_dev *pdev);
extern const struct pci_error_handlers inc_err_handlers;

/* inc_netdev.c */
extern const struct net_device_ops inc_netdev_ops;
int inc_reconfigure(struct inc_priv *p, unsigned int tx_size,
		    unsigned int rx_size, unsigned int mtu);
int inc_recover(struct inc_priv *p);
int inc_reset_locked(struct inc_priv *p);
void inc_detach(struct inc_priv *p);
void inc_reset_task(struct work_struct *work);
int inc_poll(struct napi_struct *napi, int budget);
void inc_watch(struct work_struct *work);

/* inc_rings.c: the memory of a queue configuration */
int inc_rings_alloc(struct inc_priv *p, struct inc_rings *r,
		    unsigned int tx_size, unsigned int rx_size, unsigned int mtu);
void inc_rings_free(struct inc_priv *p, struct inc_rings *r);
void inc_rings_release(struct inc_priv *p, struct inc_rings *r, bool safe);
u16 inc_program_queue(struct inc_priv *p, u32 base, const struct inc_ring *r);

/* inc_tx.c */
netdev_tx_t inc_xmit(struct sk_buff *skb, struct net_device *ndev);
void inc_tx_clean(struct inc_priv *p, int budget);
unsigned int inc_tx_drop_all(struct inc_priv *p, struct inc_ring *r);

/* inc_rx.c */
int inc_rx_fill(struct inc_priv *p, struct inc_rings *r, unsigned int i,
		gfp_t gfp);
void inc_rx_post(struct inc_rings *r, unsigned int i);
int inc_rx(struct inc_priv *p, int budget);

/* inc_devlink.c */
int inc_devlink_register(struct inc_priv *p);
void inc_devlink_unregister(struct inc_priv *p);
void inc_devlink_report_tx(struct inc_priv *p, const char *msg);
void inc_devlink_report_fw(struct inc_priv *p, const char *msg);

/* inc_fw.c: the management firmware */
void inc_fw_init(struct inc_priv *p);
void inc_fw_fini(struct inc_priv *p);
void inc_fw_reset_done(struct inc_priv *p);
void inc_fw_inject_halt(struct inc_priv *p);
int inc_fw_inject(struct inc_priv *p, u16 op);
int inc_fw_restart(struct inc_priv *p);
bool inc_fw_running(struct inc_priv *p);
int inc_fw_cmd(struct inc_priv *p, u16 op, const u32 *args, unsigned int nargs,
	       u32 *res, unsigned int nres);
int inc_fw_set_mac(struct inc_priv *p, const u8 *mac);
int inc_fw_stats(struct inc_priv *p, u64 *hw);
void inc_fw_version_str(struct inc_priv *p, char *buf, size_t len);
#define INC_FW_TESTS	3	/* ethtool -t results */
int inc_fw_selftest(struct inc_priv *p, u64 *data);

/* inc_ethtool.c */
extern const struct ethtool_ops inc_ethtool_ops;

/* the transports' PCI drivers (inc_pci.c, inc_sim.c) */
extern struct pci_driver inc_pci_driver;
extern struct pci_driver inc_sim_driver;

/* module parameters (inc_main.c) */
extern bool inc_param_sim;
extern bool inc_param_board;

#endif /* INC_H */
