// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the memory of one configuration of the queues (struct
 * inc_rings): descriptor rings in coherent DMA memory, slot arrays, a page
 * pool with a buffer in every RX slot. Built whole (GFP_KERNEL) before it
 * replaces a running one; freed only once the NIC cannot reach it, else
 * leaked. The allocations go through the fault injection point
 * fail_alloc (debugfs), since Debian's kernel has no failslab.
 */
#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/page_pool.h>

#include "inc.h"

bool inc_fault_hit(struct inc_fault *f)
{
	int every = atomic_read(&f->every);

	if (!every || atomic_inc_return(&f->calls) % every)
		return false;
	if (atomic_read(&f->times) >= 0 &&
	    atomic_dec_if_positive(&f->times) < 0)
		return false;
	atomic_inc(&f->injected);
	return true;
}

void inc_rings_free(struct inc_priv *p, struct inc_rings *r)
{
	struct device *dev = inc_dma(p);
	unsigned int i;

	inc_tx_drop_all(p, &r->tx);
	for (i = 0; r->rx.rx && i < r->rx.size; i++)
		if (r->rx.rx[i].page)
			page_pool_put_full_page(r->pool, r->rx.rx[i].page, false);
	/* pages still in skbs return to the pool's deferred release */
	if (r->pool)
		page_pool_destroy(r->pool);
	kfree(r->tx.tx);
	kfree(r->rx.rx);
	if (r->tx.txd)
		dma_free_coherent(dev, r->tx.size * INC_TXD_BYTES, r->tx.txd,
				  r->tx.desc_dma);
	if (r->rx.rxd)
		dma_free_coherent(dev, r->rx.size * INC_RXD_BYTES, r->rx.rxd,
				  r->rx.desc_dma);
	memset(r, 0, sizeof(*r));
}

/*
 * A whole configuration: descriptor rings, slot arrays, a page pool and a
 * buffer in every RX slot. Process context (GFP_KERNEL): 0 or -ENOMEM
 * with nothing left allocated.
 */
int inc_rings_alloc(struct inc_priv *p, struct inc_rings *r,
		    unsigned int tx_size, unsigned int rx_size,
		    unsigned int mtu)
{
	struct device *dev = inc_dma(p);
	struct page_pool_params pp = {
		.flags		= PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size	= rx_size,
		.nid		= dev_to_node(dev),
		.dev		= dev,
		.dma_dir	= DMA_FROM_DEVICE,
		.offset		= INC_RX_HEADROOM,
	};
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->buf_len = mtu + ETH_HLEN + VLAN_HLEN;
	r->buf_size = SKB_DATA_ALIGN(INC_RX_HEADROOM + r->buf_len) +
		      SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	r->tx.size = tx_size;
	r->rx.size = rx_size;
	if (inc_fault_hit(&p->fail_alloc))
		goto err;
	r->tx.txd = dma_alloc_coherent(dev, tx_size * INC_TXD_BYTES,
				       &r->tx.desc_dma, GFP_KERNEL);
	r->rx.rxd = dma_alloc_coherent(dev, rx_size * INC_RXD_BYTES,
				       &r->rx.desc_dma, GFP_KERNEL);
	r->tx.tx = kcalloc(tx_size, sizeof(*r->tx.tx), GFP_KERNEL);
	r->rx.rx = kcalloc(rx_size, sizeof(*r->rx.rx), GFP_KERNEL);
	if (!r->tx.txd || !r->rx.rxd || !r->tx.tx || !r->rx.rx)
		goto err;
	r->buf_order = get_order(r->buf_size);
	pp.order = r->buf_order;
	pp.max_len = r->buf_len;
	r->pool = page_pool_create(&pp);
	if (IS_ERR(r->pool)) {
		r->pool = NULL;
		goto err;
	}
	for (i = 0; i < rx_size; i++)
		if (inc_rx_fill(p, r, i, GFP_KERNEL))
			goto err;
	return 0;

err:
	inc_rings_free(p, r);
	return -ENOMEM;
}

/*
 * Memory the NIC may still write: never freed. Only when the NIC neither
 * stopped nor could be cut off from memory (no transport reset, bus
 * mastering still on).
 */
static void inc_rings_leak(struct inc_priv *p, struct inc_rings *r)
{
	netdev_crit(p->ndev, "the NIC may still write its rings: leaking %lu KiB of DMA memory rather than freeing it\n",
		    (r->tx.size * INC_TXD_BYTES + r->rx.size * INC_RXD_BYTES +
		     r->rx.size * (PAGE_SIZE << r->buf_order)) >> 10);
	memset(r, 0, sizeof(*r));
}

/* Program queue base (INC_TXQ or INC_RXQ) with ring r; returns CONS. */
u16 inc_program_queue(struct inc_priv *p, u32 base,
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

/* Free rings the NIC was using, or leak them if it may still write them. */
void inc_rings_release(struct inc_priv *p, struct inc_rings *r,
		       bool safe)
{
	if (safe)
		inc_rings_free(p, r);
	else
		inc_rings_leak(p, r);
}
