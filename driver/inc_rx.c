// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: receive. Every RX slot always holds a page-pool buffer
 * (INC_RX_HEADROOM, then up to buf_len bytes of frame, then room for the
 * skb_shared_info); a received frame becomes an skb around its page
 * (napi_build_skb, recycled to the pool), and its slot gets a new page. No
 * page: the frame is dropped and the old page posted again.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/page_pool.h>

#include "inc.h"
#include "inc_peers.h"

int inc_rx_fill(struct inc_priv *p, struct inc_rings *r,
		unsigned int i, gfp_t gfp)
{
	struct page *page;

	if (inc_fault_hit(&p->fail_alloc))
		return -ENOMEM;
	page = page_pool_alloc_pages(r->pool, gfp | __GFP_NOWARN);
	if (!page)
		return -ENOMEM;
	r->rx.rx[i].page = page;
	return 0;
}

/* (Re)post RX slot i with the buffer it holds. */
void inc_rx_post(struct inc_rings *r, unsigned int i)
{
	struct inc_rxd *d = &r->rx.rxd[i];

	d->addr = cpu_to_le64(page_pool_get_dma_addr(r->rx.rx[i].page) +
			      INC_RX_HEADROOM);
	d->buf_len = cpu_to_le16(r->buf_len);
	d->len = 0;
	d->status = 0;
}

int inc_rx(struct inc_priv *p, int budget)
{
	struct inc_rings *rs = &p->r;
	struct inc_ring *r = &rs->rx;
	struct inc_sw_stats *st = &p->napi_stats;
	int done = 0;

	while (done < budget) {
		unsigned int i = r->clean & (r->size - 1);
		struct inc_rxd *d = &r->rxd[i];
		u32 status = le32_to_cpu(READ_ONCE(d->status));
		struct page *page = r->rx[i].page;
		struct sk_buff *skb;
		unsigned int len;

		if (!(status & INC_DESC_DONE))
			break;
		dma_rmb();
		len = le16_to_cpu(d->len);
		if (len < ETH_HLEN || len > rs->buf_len) {
			/* the NIC broke its promise: drop, keep the buffer */
			inc_stat_inc(st, &st->rx_errors);
		} else if (inc_rx_fill(p, rs, i, GFP_ATOMIC)) {
			/* no memory: this frame is lost, the buffer reused */
			inc_stat_inc(st, &st->rx_dropped);
		} else {
			dma_sync_single_range_for_cpu(inc_dma(p),
						      page_pool_get_dma_addr(page),
						      INC_RX_HEADROOM, len,
						      DMA_FROM_DEVICE);
			skb = napi_build_skb(page_address(page),
					     PAGE_SIZE << rs->buf_order);
			if (unlikely(!skb)) {
				page_pool_recycle_direct(rs->pool, page);
				inc_stat_inc(st, &st->rx_dropped);
				goto repost;
			}
			skb_mark_for_recycle(skb);
			skb_reserve(skb, INC_RX_HEADROOM);
			skb_put(skb, len);
			skb->protocol = eth_type_trans(skb, p->ndev);
			inc_peers_learn(p->peers, skb);
			u64_stats_update_begin(&st->syncp);
			st->rx_packets++;
			st->rx_bytes += len;
			if (status & INC_RXS_RESTORED)
				st->rx_restored++;
			u64_stats_update_end(&st->syncp);
			napi_gro_receive(&p->napi, skb);
		}
repost:
		inc_rx_post(rs, i);
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
