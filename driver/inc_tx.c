// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: transmit. One descriptor per linear frame; for a frame of
 * a marked socket, the byte range the NIC compresses (inc_mark.c), unless
 * the NIC lacks the feature (a mode it does not advertise, such as width
 * on an 8-lane NIC) or the peer cannot restore it (inc_peers.c). Each marked
 * frame sent plain is counted by why (drv_tx_plain_*).
 *
 * Ownership of the ring: prod is written only by inc_xmit(), clean only by
 * NAPI (inc_tx_clean()); a slot is complete before prod moves past it
 * (release/acquire), and its DONE status is cleared when it is reaped.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "inc.h"
#include "inc_mark.h"
#include "inc_peers.h"

#define INC_TX_WAKE	8	/* free TX slots before a stopped queue wakes */
/* a marked TCP segment retransmitted this often goes out uncompressed */
#define INC_PLAIN_RETRANS	2

/*
 * Free TX slots. prod is written only by the xmit path, clean only by
 * NAPI; each reads the other's index with READ_ONCE.
 */
static unsigned int inc_tx_space(const struct inc_ring *r)
{
	return r->size - (u16)(READ_ONCE(r->prod) - READ_ONCE(r->clean));
}

/* Unmap and free the frames the TX ring still holds; how many. */
unsigned int inc_tx_drop_all(struct inc_priv *p, struct inc_ring *r)
{
	unsigned int n = 0;

	for (; r->tx && r->clean != r->prod; r->clean++, n++) {
		struct inc_tx_slot *slot = &r->tx[r->clean & (r->size - 1)];

		dma_unmap_single(inc_dma(p), slot->dma, slot->len,
				 DMA_TO_DEVICE);
		dev_kfree_skb_any(slot->skb);
		slot->skb = NULL;
	}
	return n;
}

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
	if (m->mode == INC_MODE_WIDTH && !(f & INC_FEAT_MODE_WIDTH))
		return false;
	if (!m->l3.v4 && !(f & INC_FEAT_IPV6))
		return false;
	if (m->l3.vlan && !(f & INC_FEAT_VLAN))
		return false;
	return true;
}

netdev_tx_t inc_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct inc_priv *p = netdev_priv(ndev);
	struct inc_ring *r = &p->r.tx;
	struct inc_sw_stats *st = &p->xmit_stats;
	struct inc_tx_slot *slot;
	struct inc_txd *d;
	struct inc_mark m;
	unsigned int i;
	dma_addr_t dma;
	bool marked;
	u16 prod;

	if (skb_put_padto(skb, ETH_ZLEN))
		goto dropped;	/* freed */
	if (skb_linearize(skb) || skb->len > p->r.buf_len) {
		dev_kfree_skb_any(skb);
		goto dropped;
	}
	marked = inc_mark_frame(skb, &m);
	if (marked && !inc_can_compress(p, skb, &m)) {
		/* the NIC lacks what it needs (its mode, IPv6, VLAN) */
		marked = false;
		inc_stat_inc(st, &st->tx_plain_feature);
	} else if (marked && inc_peers_plain(p->peers, &m.l3)) {
		/* the peer cannot restore it: send it as it is */
		marked = false;
		inc_stat_inc(st, &st->tx_plain_peer);
	} else if (marked && m.retrans >= INC_PLAIN_RETRANS) {
		/*
		 * Retransmitted again and again: maybe no inceptionn NIC
		 * there and its ICMP errors filtered. Send it plain, and
		 * the peer's next frames too for a while.
		 */
		marked = false;
		inc_peers_suspect(p->peers, &m.l3);
		inc_stat_inc(st, &st->tx_plain_retrans);
	}
	dma = dma_map_single(inc_dma(p), skb->data, skb->len, DMA_TO_DEVICE);
	if (dma_mapping_error(inc_dma(p), dma)) {
		dev_kfree_skb_any(skb);
		goto dropped;
	}

	prod = r->prod;
	i = prod & (r->size - 1);
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
	/* the slot is complete before NAPI can see it (inc_tx_clean) */
	smp_store_release(&r->prod, (u16)(prod + 1));
	if (marked) {
		inc_peers_sent(p->peers, &m.l3);
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
	inc_stat_inc(st, &st->tx_dropped);
	/* the last of a batch: the doorbell for those queued before it */
	if (!netdev_xmit_more()) {
		dma_wmb();
		inc_wr(p, INC_TXQ + INC_Q_PROD, r->prod);
	}
	return NETDEV_TX_OK;
}

void inc_tx_clean(struct inc_priv *p, int budget)
{
	struct inc_ring *r = &p->r.tx;
	struct inc_sw_stats *st = &p->napi_stats;
	unsigned int pkts = 0, bytes = 0;
	/* pairs with the release in inc_xmit(): the slots up to prod */
	u16 prod = smp_load_acquire(&r->prod);
	u16 clean = r->clean;

	while (clean != prod) {
		unsigned int i = clean & (r->size - 1);
		struct inc_tx_slot *slot = &r->tx[i];
		struct inc_txd *d = &r->txd[i];
		u32 status = le32_to_cpu(READ_ONCE(d->status));

		if (!(status & INC_DESC_DONE))
			break;
		dma_rmb();	/* the status before anything else of it */
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
		/* the slot's DONE belongs to this use only */
		WRITE_ONCE(d->status, 0);
		clean++;
	}
	if (!pkts)
		return;
	WRITE_ONCE(r->clean, clean);
	netdev_completed_queue(p->ndev, pkts, bytes);
	/* pairs with the barrier in inc_xmit() */
	smp_mb();
	if (netif_queue_stopped(p->ndev) && inc_tx_space(r) >= INC_TX_WAKE)
		netif_wake_queue(p->ndev);
}
