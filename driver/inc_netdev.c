// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the network device: open and stop, interrupts and NAPI,
 * reconfiguration, recovery, link state. One TX and one RX queue: the
 * rings are inc_rings.c's, transmit inc_tx.c's, receive inc_rx.c's.
 *
 * Stopping the NIC. Before any memory the NIC was given goes back (close,
 * a new MTU or ring size, recovery), the NIC must be unable to reach it:
 * the queues are disabled and the NIC must report idle; if it does not
 * within INC_IDLE_US, bus mastering goes off and the NIC is reset, and only
 * then is the memory freed. When no reset is possible the memory is left
 * allocated (leaked, loudly), never handed back while the NIC may write it.
 *
 * Changing the configuration. The new rings, buffers included, are
 * allocated (GFP_KERNEL) before the running ones are touched; if that
 * fails, the interface keeps running as it was and the change fails.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <net/page_pool.h>

#include "inc.h"
#include "inc_mark.h"
#include "inc_peers.h"

#define INC_IDLE_US	200000	/* how long a stop waits for the NIC to drain */

/* ---- statistics ---- */

void inc_sw_stats_sum(struct inc_priv *p, struct inc_sw_stats *sum)
{
	const struct inc_sw_stats *src[] = { &p->xmit_stats, &p->napi_stats };
	unsigned int i, k, start;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < ARRAY_SIZE(src); i++) {
		u64 v[INC_SW_STATS_N];

		do {
			start = u64_stats_fetch_begin(&src[i]->syncp);
			memcpy(v, src[i], sizeof(v));
		} while (u64_stats_fetch_retry(&src[i]->syncp, start));
		for (k = 0; k < INC_SW_STATS_N; k++)
			((u64 *)sum)[k] += v[k];
	}
}

static void inc_get_stats64(struct net_device *ndev,
			    struct rtnl_link_stats64 *s)
{
	struct inc_priv *p = netdev_priv(ndev);
	struct inc_sw_stats sum;

	inc_sw_stats_sum(p, &sum);
	s->tx_packets = sum.tx_packets;
	s->tx_bytes = sum.tx_bytes;
	s->tx_errors = sum.tx_errors;
	s->tx_dropped = sum.tx_dropped;
	s->rx_packets = sum.rx_packets;
	s->rx_bytes = sum.rx_bytes;
	s->rx_errors = sum.rx_errors;
	/* frames the NIC dropped (no buffer, malformed, MAC errors) */
	s->rx_dropped = sum.rx_dropped + READ_ONCE(p->hw_rx_drops);
}

void inc_write_mac_addr(struct inc_priv *p, const u8 *mac)
{
	inc_wr(p, INC_MAC_LO, mac[0] | mac[1] << 8 | mac[2] << 16 |
	       (u32)mac[3] << 24);
	inc_wr(p, INC_MAC_HI, mac[4] | mac[5] << 8);
}

void inc_write_mac(struct inc_priv *p)
{
	inc_write_mac_addr(p, p->ndev->dev_addr);
}

/* ---- interrupts ---- */

/*
 * IRQ_ENABLE: the queues' two bits while NAPI runs (irq_q_on), vector 2's
 * while the firmware's mailbox uses it (irq_fw_bit). One register, and a
 * write sets every bit, so every writer writes both under irq_lock. The
 * NIC clears a vector's bit when it sends its message: a queue bit set
 * while NAPI polls costs at most one more poll. Any context.
 */
void inc_irq_unmask(struct inc_priv *p)
{
	unsigned long flags;

	spin_lock_irqsave(&p->irq_lock, flags);
	inc_wr(p, INC_IRQ_ENABLE, p->irq_fw_bit |
	       (p->irq_q_on ? BIT(INC_IRQ_TX) | BIT(INC_IRQ_RX) : 0));
	spin_unlock_irqrestore(&p->irq_lock, flags);
}

/* the queues' vectors on or off; vector 2 as it is */
void inc_irq_queues(struct inc_priv *p, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&p->irq_lock, flags);
	p->irq_q_on = on;
	inc_wr(p, INC_IRQ_ENABLE, p->irq_fw_bit |
	       (on ? BIT(INC_IRQ_TX) | BIT(INC_IRQ_RX) : 0));
	spin_unlock_irqrestore(&p->irq_lock, flags);
}

static irqreturn_t inc_irq(int irq, void *data)
{
	struct inc_priv *p = data;

	/* a line shared with others: is it ours? */
	if (p->irq_shared) {
		u32 st = inc_rd(p, INC_IRQ_STATUS);

		if (!st || st == ~0u)
			return IRQ_NONE;
		inc_wr(p, INC_IRQ_STATUS, st);
	}
	napi_schedule_irqoff(&p->napi);
	return IRQ_HANDLED;
}

/* At open, so that /proc/interrupts names the interface. */
static int inc_request_irqs(struct inc_priv *p)
{
	static const char *const what[] = { "tx", "rx" };
	int i, err;

	for (i = 0; i < p->nvec; i++) {
		if (p->nvec == 1)
			strscpy(p->irq_name[i], p->ndev->name,
				sizeof(p->irq_name[i]));
		else
			snprintf(p->irq_name[i], sizeof(p->irq_name[i]),
				 "%s-%s", p->ndev->name, what[i]);
		err = request_irq(pci_irq_vector(p->pdev, i), inc_irq,
				  p->irq_shared ? IRQF_SHARED : 0,
				  p->irq_name[i], p);
		if (err)
			goto err_free;
	}
	return 0;

err_free:
	netdev_err(p->ndev, "requesting interrupt %d: %d\n", i, err);
	while (--i >= 0)
		free_irq(pci_irq_vector(p->pdev, i), p);
	return err;
}

static void inc_free_irqs(struct inc_priv *p)
{
	int i;

	for (i = 0; i < p->nvec; i++)
		free_irq(pci_irq_vector(p->pdev, i), p);
}

static void inc_sync_irqs(struct inc_priv *p)
{
	int i;

	for (i = 0; i < p->nvec; i++)
		synchronize_irq(pci_irq_vector(p->pdev, i));
	/* vector 2's handler may update the carrier (a link event) */
	if (p->irq_fw_bit)
		synchronize_irq(pci_irq_vector(p->pdev, INC_IRQ_MGMT));
}

/* ---- starting and stopping the NIC ---- */

static bool inc_idle(struct inc_priv *p)
{
	const u32 both = INC_STATUS_TX_IDLE | INC_STATUS_RX_IDLE;
	u32 st;

	return !read_poll_timeout(inc_rd, st, st != ~0u && (st & both) == both,
				  1000, INC_IDLE_US, false, p, INC_STATUS);
}

/*
 * Cut the NIC off from memory and reset it. 0: it is at its reset state
 * with bus mastering on again. Otherwise bus mastering stays off (if the
 * transport could turn it off) and INC_S_DMA_OFF says the NIC needs a
 * reset before it is used again.
 */
static int inc_reset_nic(struct inc_priv *p)
{
	int err;

	set_bit(INC_S_DMA_OFF, &p->state);
	if (p->tp->set_master(p, false))
		set_bit(INC_S_DMA_CUT, &p->state);
	else
		clear_bit(INC_S_DMA_CUT, &p->state);
	err = p->tp->reset ? p->tp->reset(p) : -EOPNOTSUPP;
	if (!err && !inc_idle(p))
		err = -ETIMEDOUT;
	if (err) {
		netdev_err(p->ndev, "NIC reset failed (%d): it stays cut off from memory until a reset works\n",
			   err);
		return err;
	}
	/* a known state before it may reach memory again */
	inc_irq_queues(p, false);
	inc_wr(p, INC_CTRL, 0);
	p->tp->set_master(p, true);
	clear_bit(INC_S_DMA_OFF, &p->state);
	clear_bit(INC_S_DMA_CUT, &p->state);
	p->resets++;
	netdev_info(p->ndev, "NIC reset (%u since probe)\n", p->resets);
	/* the reset halted the management core: its firmware again */
	inc_fw_reset_done(p);
	return 0;
}

/*
 * Stop the NIC: no interrupt, no NAPI, no xmit, queues off. true when the
 * NIC can no longer touch the rings (it went idle, or it was cut off from
 * memory); false only when it could be neither stopped nor cut off.
 * reset: reset the NIC even if it goes idle (recovery).
 */
static bool inc_hw_stop(struct inc_priv *p, bool reset)
{
	/*
	 * NAPI first: a poll wakes the TX queue when it reaps; stopped
	 * before NAPI, the queue could wake again and xmit fill the rings
	 * while they are swapped and reprogrammed
	 */
	napi_disable(&p->napi);
	netif_tx_disable(p->ndev);
	/* after NAPI: a poll re-enables interrupts when it completes */
	inc_irq_queues(p, false);
	inc_sync_irqs(p);
	inc_wr(p, INC_CTRL, 0);
	if (test_bit(INC_S_FROZEN, &p->state))
		return true;	/* the link is down: the NIC cannot reach memory */
	if (!reset && !test_bit(INC_S_DMA_OFF, &p->state) && inc_idle(p))
		return true;
	if (!reset)
		netdev_warn(p->ndev, "NIC not idle %u ms after its queues were disabled (STATUS 0x%08x): resetting it\n",
			    INC_IDLE_US / 1000, inc_rd(p, INC_STATUS));
	inc_reset_nic(p);
	return !test_bit(INC_S_DMA_OFF, &p->state) ||
	       test_bit(INC_S_DMA_CUT, &p->state);
}

/* CTRL for a running NIC with netdev features f */
static u32 inc_ctrl(const struct inc_priv *p, netdev_features_t f)
{
	return INC_CTRL_TX_EN | INC_CTRL_RX_EN |
	       (f & NETIF_F_LOOPBACK ? INC_CTRL_LOOPBACK : 0);
}

/* Point the NIC at p->r (every RX slot holds a buffer) and start it. */
static void inc_hw_start(struct inc_priv *p)
{
	struct inc_rings *r = &p->r;
	unsigned int i;

	inc_wr(p, INC_CTRL, 0);
	inc_irq_queues(p, false);
	r->tx.prod = inc_program_queue(p, INC_TXQ, &r->tx);
	r->tx.clean = r->tx.prod;
	r->rx.clean = inc_program_queue(p, INC_RXQ, &r->rx);
	for (i = 0; i < r->rx.size; i++)
		inc_rx_post(r, (r->rx.clean + i) & (r->rx.size - 1));
	/* every RX slot is posted, always: PROD = clean + size */
	r->rx.prod = r->rx.clean + r->rx.size;
	dma_wmb();
	inc_wr(p, INC_RXQ + INC_Q_PROD, r->rx.prod);

	inc_wr(p, INC_MAX_FRAME, r->buf_len);
	inc_write_mac(p);
	inc_wr(p, INC_IRQ_COAL_TX, p->coal_tx);
	inc_wr(p, INC_IRQ_COAL_RX, p->coal_rx);
	inc_wr(p, INC_IRQ_STATUS, BIT(INC_IRQ_TX) | BIT(INC_IRQ_RX));

	netdev_reset_queue(p->ndev);
	napi_enable(&p->napi);
	inc_irq_queues(p, true);
	inc_wr(p, INC_CTRL, inc_ctrl(p, p->ndev->features));
	netif_tx_wake_all_queues(p->ndev);
}

static int inc_open(struct net_device *ndev)
{
	struct inc_priv *p = netdev_priv(ndev);
	int err;

	if (test_bit(INC_S_DMA_OFF, &p->state) && inc_reset_nic(p))
		return -EIO;
	err = inc_rings_alloc(p, &p->r, p->tx_size, p->rx_size, ndev->mtu);
	if (err)
		return err;
	err = inc_request_irqs(p);
	if (err)
		goto err_rings;
	inc_hw_start(p);
	schedule_delayed_work(&p->watch, 0);
	return 0;

err_rings:
	inc_rings_free(p, &p->r);
	return err;
}

static int inc_stop(struct net_device *ndev)
{
	struct inc_priv *p = netdev_priv(ndev);
	bool safe;

	cancel_delayed_work_sync(&p->watch);
	safe = inc_hw_stop(p, false);
	netif_carrier_off(ndev);
	inc_free_irqs(p);
	inc_rings_release(p, &p->r, safe);
	return 0;
}

/*
 * New ring sizes or MTU (under RTNL). Running: the new rings first, then
 * the swap; on -ENOMEM the running configuration is kept.
 */
int inc_reconfigure(struct inc_priv *p, unsigned int tx_size,
		    unsigned int rx_size, unsigned int mtu)
{
	struct net_device *ndev = p->ndev;
	struct inc_rings new, old;
	bool safe;
	int err;

	ASSERT_RTNL();
	if (!netif_running(ndev)) {
		p->tx_size = tx_size;
		p->rx_size = rx_size;
		ndev->mtu = mtu;
		return 0;
	}
	err = inc_rings_alloc(p, &new, tx_size, rx_size, mtu);
	if (err) {
		netdev_warn(ndev, "no memory for %u/%u descriptors at MTU %u: keeping %u/%u at MTU %u\n",
			    tx_size, rx_size, mtu, p->r.tx.size, p->r.rx.size,
			    ndev->mtu);
		return err;
	}
	safe = inc_hw_stop(p, false);
	old = p->r;
	p->r = new;
	p->tx_size = tx_size;
	p->rx_size = rx_size;
	ndev->mtu = mtu;
	inc_hw_start(p);
	inc_rings_release(p, &old, safe);
	return 0;
}

/*
 * Reset the NIC and start it again on the same rings: the frames waiting
 * to be sent are dropped, the RX buffers are posted again (under RTNL).
 */
static int inc_recover_locked(struct inc_priv *p)
{
	unsigned int dropped;

	ASSERT_RTNL();
	if (!netif_running(p->ndev))
		return 0;
	inc_hw_stop(p, true);
	if (test_bit(INC_S_DMA_OFF, &p->state)) {
		/* still cut off: try again at the next timeout or recover */
		netif_tx_wake_all_queues(p->ndev);
		napi_enable(&p->napi);
		return -EIO;
	}
	dropped = inc_tx_drop_all(p, &p->r.tx);
	u64_stats_update_begin(&p->napi_stats.syncp);
	p->napi_stats.tx_dropped += dropped;
	u64_stats_update_end(&p->napi_stats.syncp);
	inc_hw_start(p);
	netdev_info(p->ndev, "NIC running again (%u frames waiting to be sent were dropped)\n",
		    dropped);
	return 0;
}

/*
 * Flush the TX queue alone (QFLUSH, register map 1.2) and start it again on
 * the same ring while RX runs on: the frames whose completions the NIC
 * wrote are reaped, the others dropped. Under RTNL, running. 0;
 * -EOPNOTSUPP: the NIC has no QFLUSH; -EIO: it needs a reset or does not
 * answer; -ETIMEDOUT: the flush did not end within INC_IDLE_US (its DMA
 * is not answered: a hung bridge). On error the queue is left stopped for
 * the reset that follows.
 */
static int inc_tx_flush_locked(struct inc_priv *p)
{
	struct inc_ring *r = &p->r.tx;
	unsigned int dropped;
	u32 v;
	int err;

	if (!(p->features & INC_FEAT_QFLUSH))
		return -EOPNOTSUPP;
	if (test_bit(INC_S_DMA_OFF, &p->state) ||
	    test_bit(INC_S_FROZEN, &p->state))
		return -EIO;
	/* NAPI reaps the ring: off while the ring is reset */
	napi_disable(&p->napi);
	netif_tx_disable(p->ndev);
	inc_wr(p, INC_CTRL, inc_ctrl(p, p->ndev->features) & ~INC_CTRL_TX_EN);
	inc_wr(p, INC_QFLUSH, INC_QFLUSH_TX);
	err = read_poll_timeout(inc_rd, v, v == ~0u || !(v & INC_QFLUSH_TX),
				1000, INC_IDLE_US, false, p, INC_QFLUSH);
	if (!err && v == ~0u)
		err = -EIO;
	if (err) {
		napi_enable(&p->napi);
		return err;
	}
	/* what was sent before the flush counts as sent */
	inc_tx_clean(p, 0);
	/* the clean may have woken the queue: no xmit past this point */
	netif_tx_disable(p->ndev);
	dropped = inc_tx_drop_all(p, r);
	memset(r->txd, 0, r->size * INC_TXD_BYTES);
	r->prod = 0;
	r->clean = 0;
	/* PROD = CONS = 0 already, unless an xmit rang before the disable */
	inc_wr(p, INC_TXQ + INC_Q_PROD, 0);
	u64_stats_update_begin(&p->napi_stats.syncp);
	p->napi_stats.tx_dropped += dropped;
	u64_stats_update_end(&p->napi_stats.syncp);
	netdev_reset_queue(p->ndev);
	inc_wr(p, INC_CTRL, inc_ctrl(p, p->ndev->features));
	napi_enable(&p->napi);
	/* a vector masked while NAPI was off: a poll unmasks it */
	local_bh_disable();
	napi_schedule(&p->napi);
	local_bh_enable();
	netif_tx_wake_all_queues(p->ndev);
	p->tx_flushes++;
	netdev_info(p->ndev, "TX queue flushed (%u since probe): %u frames waiting to be sent were dropped, RX ran on\n",
		    p->tx_flushes, dropped);
	return 0;
}

/* frames the NIC completed since the interface came up */
static u64 inc_tx_done(struct inc_priv *p)
{
	const struct inc_sw_stats *st = &p->napi_stats;
	unsigned int start;
	u64 n;

	do {
		start = u64_stats_fetch_begin(&st->syncp);
		n = st->tx_packets + st->tx_errors;
	} while (u64_stats_fetch_retry(&st->syncp, start));
	return n;
}

/*
 * Recovery from a TX timeout: a flush of the TX queue alone when the NIC
 * has QFLUSH; a reset of the NIC if it has not, if the flush does not end,
 * or if no frame was completed since the last flush (a flush that did not
 * help is not tried again).
 */
int inc_recover(struct inc_priv *p)
{
	int err = 0;

	rtnl_lock();
	if (!netif_running(p->ndev))
		goto out;
	if (p->tx_flushed && inc_tx_done(p) == p->tx_done_at_flush) {
		netdev_warn(p->ndev, "no frame sent since the last TX queue flush: resetting the NIC\n");
		err = -EAGAIN;
	} else {
		err = inc_tx_flush_locked(p);
		if (err && err != -EOPNOTSUPP)
			netdev_warn(p->ndev, "TX queue flush failed (%d): resetting the NIC\n",
				    err);
	}
	if (!err) {
		p->tx_flushed = true;
		p->tx_done_at_flush = inc_tx_done(p);
	} else {
		p->tx_flushed = false;
		err = inc_recover_locked(p);
	}
out:
	rtnl_unlock();
	return err;
}

/* the watchdog's TX timeout, in process context */
void inc_reset_task(struct work_struct *work)
{
	struct inc_priv *p = container_of(work, struct inc_priv, reset_task);

	netdev_warn(p->ndev, "TX stalled: driver prod %u clean %u, NIC CONS %u, STATUS 0x%08x: recovering\n",
		    READ_ONCE(p->r.tx.prod), READ_ONCE(p->r.tx.clean),
		    inc_rd(p, INC_TXQ + INC_Q_CONS), inc_rd(p, INC_STATUS));
	if (p->tx_reporter)
		inc_devlink_report_tx(p, "TX timeout: the NIC stopped completing transmissions");
	else
		inc_recover(p);
}

/* The device goes away (PCI error, shutdown): close it. Under RTNL. */
void inc_detach(struct inc_priv *p)
{
	ASSERT_RTNL();
	netif_device_detach(p->ndev);
	if (netif_running(p->ndev))
		dev_close(p->ndev);
}

/* ---- NAPI ---- */

int inc_poll(struct napi_struct *napi, int budget)
{
	struct inc_priv *p = container_of(napi, struct inc_priv, napi);
	int done;

	inc_tx_clean(p, budget);
	done = inc_rx(p, budget);
	/* the NIC masks a vector when it fires: unmask once idle */
	if (done < budget && napi_complete_done(napi, done))
		inc_irq_unmask(p);
	return done;
}

/* ---- link state and the NIC's drop counters, once a second ---- */

/*
 * The carrier from STATUS.LINK: once a second (inc_watch), and at once on
 * the firmware's link event (vector 2). The NIC's STATUS, read under
 * link_lock so that each change is logged once.
 */
static u32 inc_link_check(struct inc_priv *p)
{
	u32 st;
	bool up;

	mutex_lock(&p->link_lock);
	st = inc_rd(p, INC_STATUS);
	up = st != ~0u && (st & INC_STATUS_LINK);
	if (up && !netif_carrier_ok(p->ndev)) {
		netif_carrier_on(p->ndev);
		netdev_info(p->ndev, "link up\n");
	} else if (!up && netif_carrier_ok(p->ndev)) {
		netif_carrier_off(p->ndev);
		netdev_info(p->ndev, "link down%s\n",
			    st == ~0u ? " (the NIC does not answer)" : "");
	}
	mutex_unlock(&p->link_lock);
	return st;
}

void inc_link_update(struct inc_priv *p)
{
	inc_link_check(p);
}

void inc_watch(struct work_struct *work)
{
	struct inc_priv *p = container_of(to_delayed_work(work),
					  struct inc_priv, watch);
	u32 st = inc_link_check(p);

	if (st != ~0u)
		WRITE_ONCE(p->hw_rx_drops,
			   inc_read_stat(p, INC_ST_RX_DROP_NO_BUFFER) +
			   inc_read_stat(p, INC_ST_RX_DROP_MALFORMED) +
			   inc_read_stat(p, INC_ST_RX_DROP_MAC));
	schedule_delayed_work(&p->watch, HZ);
}

/* ---- configuration ---- */

static int inc_change_mtu(struct net_device *ndev, int mtu)
{
	struct inc_priv *p = netdev_priv(ndev);

	return inc_reconfigure(p, p->tx_size, p->rx_size, mtu);
}

/*
 * IFF_LIVE_ADDR_CHANGE: the NIC takes a new address at any time. Through
 * the firmware (SET_MAC) while it runs; its registers written directly
 * when it does not, or when its mailbox fails (a hung firmware must not
 * keep the address from changing). An address the firmware refuses is
 * refused.
 */
static int inc_set_mac(struct net_device *ndev, void *addr)
{
	struct inc_priv *p = netdev_priv(ndev);
	struct sockaddr *sa = addr;
	int err;

	err = eth_prepare_mac_addr_change(ndev, addr);
	if (err)
		return err;
	if (netif_device_present(ndev)) {
		err = inc_fw_set_mac(p, sa->sa_data);
		if (err == -EINVAL) {
			netdev_err(ndev, "firmware refused MAC address %pM (SET_MAC: EINVAL)\n",
				   sa->sa_data);
			return err;
		}
		if (err && err != -ENODEV)
			netdev_warn(ndev, "SET_MAC through the firmware failed (%d): MAC registers written directly\n",
				    err);
		if (err)
			inc_write_mac_addr(p, sa->sa_data);
	}
	eth_commit_mac_addr_change(ndev, addr);
	return 0;
}

/*
 * ethtool --reset: the NIC itself (its reset halts the management core:
 * the firmware boots again), its queues started again when up. Under RTNL.
 */
int inc_reset_locked(struct inc_priv *p)
{
	ASSERT_RTNL();
	if (!netif_device_present(p->ndev))
		return -ENODEV;
	if (netif_running(p->ndev))
		return inc_recover_locked(p);
	return inc_reset_nic(p);
}

/* the watchdog's timer: registers are read in the reset task */
/* NETIF_F_LOOPBACK: the NIC turns TX frames back to RX (CTRL.LOOPBACK) */
static int inc_set_features(struct net_device *ndev, netdev_features_t f)
{
	struct inc_priv *p = netdev_priv(ndev);

	if (((ndev->features ^ f) & NETIF_F_LOOPBACK) && netif_running(ndev))
		inc_wr(p, INC_CTRL, inc_ctrl(p, f));
	return 0;
}

static void inc_tx_timeout(struct net_device *ndev, unsigned int txq)
{
	struct inc_priv *p = netdev_priv(ndev);

	p->tx_timeouts++;
	schedule_work(&p->reset_task);
}

const struct net_device_ops inc_netdev_ops = {
	.ndo_open		= inc_open,
	.ndo_stop		= inc_stop,
	.ndo_start_xmit		= inc_xmit,
	.ndo_get_stats64	= inc_get_stats64,
	.ndo_change_mtu		= inc_change_mtu,
	.ndo_set_mac_address	= inc_set_mac,
	.ndo_set_features	= inc_set_features,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_tx_timeout		= inc_tx_timeout,
};
