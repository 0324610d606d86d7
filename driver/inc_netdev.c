// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the network device. One TX and one RX descriptor ring in
 * coherent DMA memory, NAPI for both, and for each frame of a marked socket
 * the byte range the NIC compresses (inc_mark.c).
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "inc.h"
#include "inc_mark.h"
#include "inc_peers.h"

#define INC_TX_WAKE	8	/* free TX slots before a stopped queue wakes */
#define INC_IDLE_US	200000	/* how long a stop waits for the NIC to drain */

static struct device *inc_dma(struct inc_priv *p)
{
	return &p->pdev->dev;
}

static unsigned int inc_tx_space(const struct inc_ring *r)
{
	return r->size - (u16)(r->prod - r->clean);
}

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

/* ---- rings ---- */

static int inc_alloc_rings(struct inc_priv *p)
{
	struct device *dev = inc_dma(p);

	p->tx.size = p->tx_size;
	p->rx.size = p->rx_size;
	p->tx.txd = dma_alloc_coherent(dev, p->tx.size * INC_TXD_BYTES,
				       &p->tx.desc_dma, GFP_KERNEL);
	p->rx.rxd = dma_alloc_coherent(dev, p->rx.size * INC_RXD_BYTES,
				       &p->rx.desc_dma, GFP_KERNEL);
	p->tx.tx = kcalloc(p->tx.size, sizeof(*p->tx.tx), GFP_KERNEL);
	p->rx.rx = kcalloc(p->rx.size, sizeof(*p->rx.rx), GFP_KERNEL);
	if (!p->tx.txd || !p->rx.rxd || !p->tx.tx || !p->rx.rx)
		return -ENOMEM;
	return 0;
}

static void inc_free_rings(struct inc_priv *p)
{
	struct device *dev = inc_dma(p);

	kfree(p->tx.tx);
	kfree(p->rx.rx);
	if (p->tx.txd)
		dma_free_coherent(dev, p->tx.size * INC_TXD_BYTES, p->tx.txd,
				  p->tx.desc_dma);
	if (p->rx.rxd)
		dma_free_coherent(dev, p->rx.size * INC_RXD_BYTES, p->rx.rxd,
				  p->rx.desc_dma);
	memset(&p->tx, 0, sizeof(p->tx));
	memset(&p->rx, 0, sizeof(p->rx));
}

/* Give RX slot i a fresh buffer; 0 or -ENOMEM. */
static int inc_rx_alloc(struct inc_priv *p, unsigned int i)
{
	struct inc_rx_slot *slot = &p->rx.rx[i];
	struct sk_buff *skb;
	dma_addr_t dma;

	skb = netdev_alloc_skb_ip_align(p->ndev, p->rx_buf_len);
	if (!skb)
		return -ENOMEM;
	dma = dma_map_single(inc_dma(p), skb->data, p->rx_buf_len,
			     DMA_FROM_DEVICE);
	if (dma_mapping_error(inc_dma(p), dma)) {
		dev_kfree_skb_any(skb);
		return -ENOMEM;
	}
	slot->skb = skb;
	slot->dma = dma;
	return 0;
}

/* (Re)post RX slot i with the buffer it holds. */
static void inc_rx_post(struct inc_priv *p, unsigned int i)
{
	struct inc_rxd *d = &p->rx.rxd[i];

	d->addr = cpu_to_le64(p->rx.rx[i].dma);
	d->buf_len = cpu_to_le16(p->rx_buf_len);
	d->len = 0;
	d->status = 0;
}

static void inc_rx_free_all(struct inc_priv *p)
{
	unsigned int i;

	for (i = 0; p->rx.rx && i < p->rx.size; i++) {
		struct inc_rx_slot *slot = &p->rx.rx[i];

		if (!slot->skb)
			continue;
		dma_unmap_single(inc_dma(p), slot->dma, p->rx_buf_len,
				 DMA_FROM_DEVICE);
		dev_kfree_skb_any(slot->skb);
		slot->skb = NULL;
	}
}

static void inc_tx_free_all(struct inc_priv *p)
{
	struct inc_ring *r = &p->tx;

	for (; r->tx && r->clean != r->prod; r->clean++) {
		struct inc_tx_slot *slot = &r->tx[r->clean & (r->size - 1)];

		dma_unmap_single(inc_dma(p), slot->dma, slot->len,
				 DMA_TO_DEVICE);
		dev_kfree_skb_any(slot->skb);
		slot->skb = NULL;
	}
}

/* Program queue base (INC_TXQ or INC_RXQ) with ring r; returns CONS. */
static u16 inc_program_queue(struct inc_priv *p, u32 base,
			     const struct inc_ring *r)
{
	u16 cons;

	inc_wr(p, base + INC_Q_BASE_LO, lower_32_bits(r->desc_dma));
	inc_wr(p, base + INC_Q_BASE_HI, upper_32_bits(r->desc_dma));
	inc_wr(p, base + INC_Q_SIZE, ilog2(r->size));
	cons = inc_rd(p, base + INC_Q_CONS);
	inc_wr(p, base + INC_Q_PROD, cons);
	return cons;
}

/* ---- up and down ---- */

int inc_up(struct inc_priv *p)
{
	struct net_device *ndev = p->ndev;
	const u8 *mac = ndev->dev_addr;
	unsigned int i;
	int err;

	p->rx_buf_len = ndev->mtu + ETH_HLEN + VLAN_HLEN;
	err = inc_alloc_rings(p);
	if (err)
		goto err_free;
	for (i = 0; i < p->rx.size; i++) {
		err = inc_rx_alloc(p, i);
		if (err)
			goto err_free;
	}

	inc_wr(p, INC_CTRL, 0);
	inc_wr(p, INC_IRQ_ENABLE, 0);
	p->tx.prod = inc_program_queue(p, INC_TXQ, &p->tx);
	p->tx.clean = p->tx.prod;
	p->rx.clean = inc_program_queue(p, INC_RXQ, &p->rx);
	for (i = 0; i < p->rx.size; i++)
		inc_rx_post(p, (p->rx.clean + i) & (p->rx.size - 1));
	/* every RX slot is posted, always: PROD = clean + size */
	p->rx.prod = p->rx.clean + p->rx.size;
	dma_wmb();
	inc_wr(p, INC_RXQ + INC_Q_PROD, p->rx.prod);

	inc_wr(p, INC_MAX_FRAME, p->rx_buf_len);
	inc_wr(p, INC_MAC_LO, mac[0] | mac[1] << 8 | mac[2] << 16 |
	       (u32)mac[3] << 24);
	inc_wr(p, INC_MAC_HI, mac[4] | mac[5] << 8);
	inc_wr(p, INC_IRQ_COAL_TX, p->coal_tx);
	inc_wr(p, INC_IRQ_COAL_RX, p->coal_rx);
	inc_wr(p, INC_IRQ_STATUS, BIT(INC_IRQ_TX) | BIT(INC_IRQ_RX));

	netdev_reset_queue(ndev);
	napi_enable(&p->napi);
	inc_wr(p, INC_IRQ_ENABLE, BIT(INC_IRQ_TX) | BIT(INC_IRQ_RX));
	inc_wr(p, INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	netif_start_queue(ndev);
	schedule_delayed_work(&p->watch, 0);
	return 0;

err_free:
	inc_rx_free_all(p);
	inc_free_rings(p);
	return err;
}

void inc_down(struct inc_priv *p)
{
	u32 st;

	netif_tx_disable(p->ndev);
	cancel_delayed_work_sync(&p->watch);
	inc_wr(p, INC_CTRL, 0);
	/* let a frame in flight finish its DMA before the buffers go */
	if (read_poll_timeout(inc_rd, st, (st & (INC_STATUS_TX_IDLE |
		INC_STATUS_RX_IDLE)) == (INC_STATUS_TX_IDLE | INC_STATUS_RX_IDLE),
		1000, INC_IDLE_US, false, p, INC_STATUS))
		netdev_warn(p->ndev, "NIC not idle after %u ms (STATUS 0x%08x)\n",
			    INC_IDLE_US / 1000, st);
	inc_wr(p, INC_IRQ_ENABLE, 0);
	napi_disable(&p->napi);
	netif_carrier_off(p->ndev);
	inc_tx_free_all(p);
	inc_rx_free_all(p);
	inc_free_rings(p);
	netdev_reset_queue(p->ndev);
}

static int inc_open(struct net_device *ndev)
{
	return inc_up(netdev_priv(ndev));
}

static int inc_stop(struct net_device *ndev)
{
	inc_down(netdev_priv(ndev));
	return 0;
}

/* ---- transmit ---- */

/* Can the NIC compress frame skb with mark m? Feature bits decide. */
static bool inc_can_compress(const struct inc_priv *p,
			     const struct sk_buff *skb,
			     const struct inc_mark *m)
{
	u32 f = p->features;

	if (!(f & INC_FEAT_TX_COMP))
		return false;
	if (m->mode == INC_MODE_PAPER && !(f & INC_FEAT_MODE_PAPER))
		return false;
	if (m->mode == INC_MODE_SPARSE && !(f & INC_FEAT_MODE_SPARSE))
		return false;
	if (!m->v4 && !(f & INC_FEAT_IPV6))
		return false;
	if (eth_type_vlan(skb->protocol) && !(f & INC_FEAT_VLAN))
		return false;
	return true;
}

static netdev_tx_t inc_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct inc_priv *p = netdev_priv(ndev);
	struct inc_ring *r = &p->tx;
	struct inc_sw_stats *st = &p->xmit_stats;
	struct inc_tx_slot *slot;
	struct inc_txd *d;
	struct inc_mark m;
	unsigned int i;
	dma_addr_t dma;
	bool marked;

	if (skb_put_padto(skb, ETH_ZLEN))
		goto dropped;	/* freed */
	if (skb_linearize(skb) || skb->len > p->rx_buf_len) {
		dev_kfree_skb_any(skb);
		goto dropped;
	}
	marked = inc_mark_frame(skb, &m) && inc_can_compress(p, skb, &m);
	if (marked && inc_peers_plain(skb)) {
		/* the peer cannot restore it: send it as it is */
		marked = false;
		u64_stats_update_begin(&st->syncp);
		st->tx_plain_peer++;
		u64_stats_update_end(&st->syncp);
	}
	dma = dma_map_single(inc_dma(p), skb->data, skb->len, DMA_TO_DEVICE);
	if (dma_mapping_error(inc_dma(p), dma)) {
		dev_kfree_skb_any(skb);
		goto dropped;
	}

	i = r->prod & (r->size - 1);
	slot = &r->tx[i];
	slot->skb = skb;
	slot->dma = dma;
	slot->len = skb->len;
	d = &r->txd[i];
	d->addr = cpu_to_le64(dma);
	d->len = cpu_to_le16(skb->len);
	d->flags = cpu_to_le16(marked ? INC_TXD_COMPRESS : 0);
	d->k = marked ? m.k : 0;
	d->mode = marked ? m.mode : 0;
	d->range_off = cpu_to_le16(marked ? m.range_off : 0);
	d->range_len = cpu_to_le16(marked ? m.range_len : 0);
	d->status = 0;
	netdev_sent_queue(ndev, skb->len);
	r->prod++;
	if (marked) {
		u64_stats_update_begin(&st->syncp);
		st->tx_marked++;
		st->tx_marked_bytes += m.range_len;
		u64_stats_update_end(&st->syncp);
	}

	if (unlikely(inc_tx_space(r) == 0)) {
		netif_stop_queue(ndev);
		/* pairs with the barrier in inc_tx_clean() */
		smp_mb();
		if (inc_tx_space(r) >= INC_TX_WAKE)
			netif_start_queue(ndev);
	}
	if (!netdev_xmit_more() || netif_queue_stopped(ndev)) {
		dma_wmb();	/* descriptors before the doorbell */
		inc_wr(p, INC_TXQ + INC_Q_PROD, r->prod);
	}
	return NETDEV_TX_OK;

dropped:
	u64_stats_update_begin(&st->syncp);
	st->tx_dropped++;
	u64_stats_update_end(&st->syncp);
	/* the last of a batch: the doorbell for those queued before it */
	if (!netdev_xmit_more()) {
		dma_wmb();
		inc_wr(p, INC_TXQ + INC_Q_PROD, r->prod);
	}
	return NETDEV_TX_OK;
}

static void inc_tx_clean(struct inc_priv *p, int budget)
{
	struct inc_ring *r = &p->tx;
	struct inc_sw_stats *st = &p->napi_stats;
	unsigned int pkts = 0, bytes = 0;

	while (r->clean != r->prod) {
		unsigned int i = r->clean & (r->size - 1);
		struct inc_tx_slot *slot = &r->tx[i];
		u32 status = le32_to_cpu(READ_ONCE(r->txd[i].status));

		if (!(status & INC_DESC_DONE))
			break;
		dma_rmb();
		dma_unmap_single(inc_dma(p), slot->dma, slot->len,
				 DMA_TO_DEVICE);
		u64_stats_update_begin(&st->syncp);
		if (status & INC_TXS_ERROR) {
			st->tx_errors++;
		} else {
			st->tx_packets++;
			st->tx_bytes += slot->len;
		}
		if (status & INC_TXS_COMPRESSED)
			st->tx_compressed++;
		u64_stats_update_end(&st->syncp);
		pkts++;
		bytes += slot->len;
		napi_consume_skb(slot->skb, budget);
		slot->skb = NULL;
		r->clean++;
	}
	if (!pkts)
		return;
	netdev_completed_queue(p->ndev, pkts, bytes);
	/* pairs with the barrier in inc_xmit() */
	smp_mb();
	if (netif_queue_stopped(p->ndev) && inc_tx_space(r) >= INC_TX_WAKE)
		netif_wake_queue(p->ndev);
}

/* ---- receive ---- */

static int inc_rx(struct inc_priv *p, int budget)
{
	struct inc_ring *r = &p->rx;
	struct inc_sw_stats *st = &p->napi_stats;
	int done = 0;

	while (done < budget) {
		unsigned int i = r->clean & (r->size - 1);
		struct inc_rx_slot *slot = &r->rx[i];
		struct inc_rxd *d = &r->rxd[i];
		u32 status = le32_to_cpu(READ_ONCE(d->status));
		unsigned int len;
		struct sk_buff *skb;
		dma_addr_t dma;

		if (!(status & INC_DESC_DONE))
			break;
		dma_rmb();
		len = le16_to_cpu(d->len);
		skb = slot->skb;
		dma = slot->dma;
		if (len < ETH_HLEN || len > p->rx_buf_len) {
			/* the NIC broke its promise: drop, keep the buffer */
			u64_stats_update_begin(&st->syncp);
			st->rx_errors++;
			u64_stats_update_end(&st->syncp);
		} else if (inc_rx_alloc(p, i)) {
			/* no memory: this frame is lost, the buffer reused */
			u64_stats_update_begin(&st->syncp);
			st->rx_dropped++;
			u64_stats_update_end(&st->syncp);
		} else {
			dma_unmap_single(inc_dma(p), dma, p->rx_buf_len,
					 DMA_FROM_DEVICE);
			skb_put(skb, len);
			skb->protocol = eth_type_trans(skb, p->ndev);
			inc_peers_learn(skb);
			u64_stats_update_begin(&st->syncp);
			st->rx_packets++;
			st->rx_bytes += len;
			if (status & INC_RXS_RESTORED)
				st->rx_restored++;
			u64_stats_update_end(&st->syncp);
			napi_gro_receive(&p->napi, skb);
		}
		inc_rx_post(p, i);
		r->clean++;
		r->prod++;
		done++;
	}
	if (done) {
		dma_wmb();	/* descriptors before the doorbell */
		inc_wr(p, INC_RXQ + INC_Q_PROD, r->prod);
	}
	return done;
}

/* ---- interrupts and NAPI ---- */

irqreturn_t inc_irq(int irq, void *data)
{
	struct inc_priv *p = data;

	/* a line shared with others: is it ours? */
	if (p->nvec == 1 && !p->pdev->msi_enabled && !p->pdev->msix_enabled) {
		u32 st = inc_rd(p, INC_IRQ_STATUS);

		if (!st || st == ~0u)
			return IRQ_NONE;
		inc_wr(p, INC_IRQ_STATUS, st);
	}
	napi_schedule_irqoff(&p->napi);
	return IRQ_HANDLED;
}

int inc_poll(struct napi_struct *napi, int budget)
{
	struct inc_priv *p = container_of(napi, struct inc_priv, napi);
	int done;

	inc_tx_clean(p, budget);
	done = inc_rx(p, budget);
	/* the NIC masks a vector when it fires: unmask once idle */
	if (done < budget && napi_complete_done(napi, done))
		inc_wr(p, INC_IRQ_ENABLE, BIT(INC_IRQ_TX) | BIT(INC_IRQ_RX));
	return done;
}

/* ---- link state and the NIC's drop counters, once a second ---- */

void inc_watch(struct work_struct *work)
{
	struct inc_priv *p = container_of(to_delayed_work(work),
					  struct inc_priv, watch);
	u32 st = inc_rd(p, INC_STATUS);
	bool up = st != ~0u && (st & INC_STATUS_LINK);

	if (up && !netif_carrier_ok(p->ndev)) {
		netif_carrier_on(p->ndev);
		netdev_info(p->ndev, "link up\n");
	} else if (!up && netif_carrier_ok(p->ndev)) {
		netif_carrier_off(p->ndev);
		netdev_info(p->ndev, "link down%s\n",
			    st == ~0u ? " (the NIC does not answer)" : "");
	}
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

	if (!netif_running(ndev)) {
		ndev->mtu = mtu;
		return 0;
	}
	inc_down(p);
	ndev->mtu = mtu;
	return inc_up(p);
}

static int inc_set_mac(struct net_device *ndev, void *addr)
{
	struct inc_priv *p = netdev_priv(ndev);
	const u8 *mac;
	int err;

	err = eth_mac_addr(ndev, addr);
	if (err)
		return err;
	mac = ndev->dev_addr;
	inc_wr(p, INC_MAC_LO, mac[0] | mac[1] << 8 | mac[2] << 16 |
	       (u32)mac[3] << 24);
	inc_wr(p, INC_MAC_HI, mac[4] | mac[5] << 8);
	return 0;
}

static void inc_tx_timeout(struct net_device *ndev, unsigned int txq)
{
	struct inc_priv *p = netdev_priv(ndev);

	netdev_warn(ndev, "TX stalled: driver prod %u clean %u, NIC CONS %u, STATUS 0x%08x\n",
		    p->tx.prod, p->tx.clean, inc_rd(p, INC_TXQ + INC_Q_CONS),
		    inc_rd(p, INC_STATUS));
}

const struct net_device_ops inc_netdev_ops = {
	.ndo_open		= inc_open,
	.ndo_stop		= inc_stop,
	.ndo_start_xmit		= inc_xmit,
	.ndo_get_stats64	= inc_get_stats64,
	.ndo_change_mtu		= inc_change_mtu,
	.ndo_set_mac_address	= inc_set_mac,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_tx_timeout		= inc_tx_timeout,
};
