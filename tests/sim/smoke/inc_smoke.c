// SPDX-License-Identifier: GPL-2.0
/*
 * inc_smoke: smoke test of incsim (docs/sim.md) from inside a QEMU guest.
 *
 * A minimal stand-in for the driver's sim transport: it binds QEMU's
 * ivshmem-doorbell devices (1af4:1110) whose BAR2 is an incsim shim window
 * (include/uapi/inceptionn/incsim.h), reaches the NIC's registers
 * (docs/regmap.md) through the shim's command ring, and checks, on module
 * load, that registers, DMA, MSI-X and the link work. Results are TAP lines
 * in the kernel log ("inc_smoke: ok 1 - ..."); the test script takes them
 * from dmesg. The plan line "1..N" comes last.
 *
 * mode=loopback (default), per NIC:
 *   the ID block; SCRATCH write/read; one frame TX -> RX in loopback (DMA
 *   both ways); the RX MSI-X vector on a second frame.
 * mode=pair (two NICs whose incsims are linked to each other):
 *   the ID block of each; a frame each way, NIC 0 -> NIC 1 and back.
 * mode=icmp (NIC 0's link peer is a guest configured as 10.0.0.2):
 *   the ID block; an ICMP echo request from 10.0.0.1 (answering the peer's
 *   ARP requests for 10.0.0.1) and its echo reply.
 *
 * It will be replaced by the driver's own transport (driver/).
 */
#define pr_fmt(fmt) "inc_smoke: " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/icmp.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ip.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <net/checksum.h>
#include <asm/unaligned.h>

#include <hw/inc_nic_desc.h>
#include <hw/inc_nic_regs.h>
#include <inceptionn/incsim.h>

/* ivshmem BAR0: the doorbell register */
#define IVSHMEM_DOORBELL	12

#define RING_LOG2	4
#define RING_N		(1 << RING_LOG2)
#define BUF_SIZE	2048
#define FRAME_LEN	100
#define POISON		0xcc

static char *mode = "loopback";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "loopback (default), pair or icmp");
static char *peer_mac;
module_param(peer_mac, charp, 0444);
MODULE_PARM_DESC(peer_mac,
		 "mode=icmp: the echo request's destination MAC (default broadcast)");
static unsigned int mmio_timeout_ms = 5000;
module_param(mmio_timeout_ms, uint, 0444);
MODULE_PARM_DESC(mmio_timeout_ms, "how long a register read waits for incsim");
static unsigned int dma_timeout_ms = 30000;
module_param(dma_timeout_ms, uint, 0444);
MODULE_PARM_DESC(dma_timeout_ms,
		 "how long a frame may take (DMA, link, interrupt)");
static unsigned int icmp_timeout_s = 60;
module_param(icmp_timeout_s, uint, 0444);
MODULE_PARM_DESC(icmp_timeout_s,
		 "mode=icmp: how long to wait for the echo reply");

struct smoke_nic {
	struct list_head node;
	struct pci_dev *pdev;
	const char *name;		/* PCI address */
	void __iomem *bar0;		/* ivshmem registers */
	void __iomem *shm;		/* BAR2: the shim window */
	struct incsim_cmd __iomem *ring;
	u32 entries;
	u32 prod;			/* commands posted */
	bool dead;			/* a read timed out: stop talking */
	spinlock_t lock;		/* serializes the command ring */

	int irq[2];
	atomic_t irq_count[2];
	struct completion rx_irq;

	u8 mac[ETH_ALEN];
	struct inc_txd *tx_ring;
	struct inc_rxd *rx_ring;
	dma_addr_t tx_ring_dma, rx_ring_dma;
	u8 *tx_buf, *rx_buf;		/* RING_N buffers of BUF_SIZE */
	dma_addr_t tx_buf_dma, rx_buf_dma;
	u16 tx_prod, tx_cons, rx_prod, rx_cons;
};

static LIST_HEAD(smoke_nics);
static DEFINE_MUTEX(smoke_lock);
static unsigned int tap_n;

/* ------------------------------------------------------------------ */
/* TAP                                                                  */

static __printf(2, 3) bool tap(bool ok, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("%s %u - %pV\n", ok ? "ok" : "not ok", ++tap_n, &vaf);
	va_end(args);
	return ok;
}

#define diag(fmt, ...) pr_info("# " fmt "\n", ##__VA_ARGS__)

/* ------------------------------------------------------------------ */
/* NIC registers through the shim's command ring                       */

static u32 shm_read(struct smoke_nic *n, unsigned int off)
{
	return ioread32(n->shm + off);
}

/* Wait until cons has reached @until (free-running). Called with n->lock. */
static bool shim_wait_cons(struct smoke_nic *n, u32 until)
{
	ktime_t end = ktime_add_ms(ktime_get(), mmio_timeout_ms);

	while ((s32)(shm_read(n, INCSIM_OFF_CONS) - until) < 0) {
		if (ktime_after(ktime_get(), end)) {
			if (!n->dead)
				dev_err(&n->pdev->dev,
					"incsim did not answer in %u ms (prod %u cons %u state %#x)\n",
					mmio_timeout_ms, n->prod,
					shm_read(n, INCSIM_OFF_CONS),
					shm_read(n, INCSIM_OFF_STATE));
			n->dead = true;
			return false;
		}
		cpu_relax();
	}
	return true;
}

/*
 * Post one command, number @i; false if its ring entry stayed busy.
 * Called with n->lock.
 */
static bool shim_post(struct smoke_nic *n, u32 op, u32 addr, u32 value, u32 *i)
{
	struct incsim_cmd __iomem *c;

	*i = n->prod;
	c = &n->ring[*i % n->entries];
	/* the entry must be free: at most `entries` commands outstanding */
	if (!shim_wait_cons(n, *i + 1 - n->entries))
		return false;
	iowrite32(op, &c->op);
	iowrite32(addr, &c->addr);
	iowrite32(value, &c->value);
	iowrite32(0, &c->rsvd);
	wmb();	/* the entry before prod */
	n->prod = *i + 1;
	iowrite32(n->prod, n->shm + INCSIM_OFF_PROD);
	iowrite32((0 << 16) | INCSIM_DOORBELL_VECTOR,
		  n->bar0 + IVSHMEM_DOORBELL);
	return true;
}

static void nic_write(struct smoke_nic *n, u32 addr, u32 value)
{
	u32 i;

	spin_lock(&n->lock);
	if (!n->dead)
		shim_post(n, INCSIM_OP_WRITE, addr, value, &i);
	spin_unlock(&n->lock);
}

static u32 nic_read(struct smoke_nic *n, u32 addr)
{
	u32 i, v = ~0u;

	spin_lock(&n->lock);
	if (!n->dead && shim_post(n, INCSIM_OP_READ, addr, 0, &i)) {
		if (shim_wait_cons(n, i + 1)) {
			rmb();	/* cons before the value */
			v = ioread32(&n->ring[i % n->entries].value);
		}
	}
	spin_unlock(&n->lock);
	return v;
}

/* ------------------------------------------------------------------ */
/* rings                                                               */

static void nic_start(struct smoke_nic *n, u32 ctrl)
{
	u64 tx = n->tx_ring_dma, rx = n->rx_ring_dma;

	nic_write(n, INC_CTRL, 0);
	nic_write(n, INC_IRQ_ENABLE, 0);
	nic_write(n, INC_TXQ + INC_Q_BASE_LO, lower_32_bits(tx));
	nic_write(n, INC_TXQ + INC_Q_BASE_HI, upper_32_bits(tx));
	nic_write(n, INC_TXQ + INC_Q_SIZE, RING_LOG2);
	n->tx_prod = n->tx_cons = nic_read(n, INC_TXQ + INC_Q_CONS);
	nic_write(n, INC_TXQ + INC_Q_PROD, n->tx_prod);
	nic_write(n, INC_RXQ + INC_Q_BASE_LO, lower_32_bits(rx));
	nic_write(n, INC_RXQ + INC_Q_BASE_HI, upper_32_bits(rx));
	nic_write(n, INC_RXQ + INC_Q_SIZE, RING_LOG2);
	n->rx_prod = n->rx_cons = nic_read(n, INC_RXQ + INC_Q_CONS);
	nic_write(n, INC_RXQ + INC_Q_PROD, n->rx_prod);
	memset(n->tx_ring, 0, RING_N * sizeof(*n->tx_ring));
	memset(n->rx_ring, 0, RING_N * sizeof(*n->rx_ring));
	nic_write(n, INC_CTRL, ctrl);
}

static u8 *rx_buf(struct smoke_nic *n, u16 i)
{
	return n->rx_buf + (i % RING_N) * BUF_SIZE;
}

/* Give the NIC the next RX buffer, poisoned. */
static void rx_post(struct smoke_nic *n)
{
	u16 i = n->rx_prod;
	struct inc_rxd *d = &n->rx_ring[i % RING_N];

	memset(rx_buf(n, i), POISON, BUF_SIZE);
	d->addr = cpu_to_le64(n->rx_buf_dma + (i % RING_N) * BUF_SIZE);
	d->buf_len = cpu_to_le16(BUF_SIZE);
	d->len = 0;
	d->status = 0;
	dma_wmb();
	n->rx_prod = i + 1;
	nic_write(n, INC_RXQ + INC_Q_PROD, n->rx_prod);
}

/* The next RX descriptor if the NIC is done with it, else NULL. */
static struct inc_rxd *rx_done(struct smoke_nic *n)
{
	struct inc_rxd *d = &n->rx_ring[n->rx_cons % RING_N];

	if (n->rx_cons == n->rx_prod ||
	    !(le32_to_cpu(READ_ONCE(d->status)) & INC_DESC_DONE))
		return NULL;
	dma_rmb();	/* status before length and data */
	return d;
}

static struct inc_rxd *rx_wait(struct smoke_nic *n, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	struct inc_rxd *d;

	while (!(d = rx_done(n))) {
		if (time_after(jiffies, end) || n->dead)
			return NULL;
		usleep_range(200, 1000);
	}
	return d;
}

/* Queue one frame (copied into the slot's buffer) and kick PROD. */
static struct inc_txd *tx_send(struct smoke_nic *n, const void *f,
				   unsigned int len)
{
	u16 i = n->tx_prod;
	struct inc_txd *d = &n->tx_ring[i % RING_N];

	/* reclaim what the NIC is done with; keep one slot free */
	while (n->tx_cons != n->tx_prod &&
	       le32_to_cpu(READ_ONCE(n->tx_ring[n->tx_cons % RING_N].status)) &
	       INC_DESC_DONE)
		n->tx_cons++;
	if ((u16)(n->tx_prod - n->tx_cons) >= RING_N - 1)
		return NULL;
	memcpy(n->tx_buf + (i % RING_N) * BUF_SIZE, f, len);
	memset(d, 0, sizeof(*d));
	d->addr = cpu_to_le64(n->tx_buf_dma + (i % RING_N) * BUF_SIZE);
	d->len = cpu_to_le16(len);
	dma_wmb();
	n->tx_prod = i + 1;
	nic_write(n, INC_TXQ + INC_Q_PROD, n->tx_prod);
	return d;
}

static u32 tx_wait(struct inc_txd *d, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	u32 s;

	while (!((s = le32_to_cpu(READ_ONCE(d->status))) & INC_DESC_DONE)) {
		if (time_after(jiffies, end))
			break;
		usleep_range(200, 1000);
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* checks                                                              */

static void make_frame(u8 *f, const u8 *src, unsigned int len, u8 seed)
{
	unsigned int i;

	eth_broadcast_addr(f);
	ether_addr_copy(f + ETH_ALEN, src);
	f[12] = 0x88;	/* local experimental ethertype 0x88b5 */
	f[13] = 0xb5;
	for (i = 14; i < len; i++)
		f[i] = (u8)(i * 7 + seed);
}

/* Is what RX descriptor @d of @n describes exactly frame @f? */
static bool rx_matches(struct smoke_nic *n, struct inc_rxd *d,
		       const u8 *f, unsigned int len)
{
	const u8 *b = rx_buf(n, n->rx_cons);
	unsigned int got = le16_to_cpu(d->len), i;

	if (got != len) {
		diag("%s: RX length %u, sent %u (status %#x)", n->name, got,
		     len, le32_to_cpu(d->status));
		return false;
	}
	for (i = 0; i < len; i++) {
		if (b[i] != f[i]) {
			diag("%s: RX byte %u is %#04x, sent %#04x", n->name, i,
			     b[i], f[i]);
			return false;
		}
	}
	for (; i < BUF_SIZE; i++) {
		if (b[i] != POISON) {
			diag("%s: RX buffer byte %u written past the frame",
			     n->name, i);
			return false;
		}
	}
	return true;
}

static bool check_id(struct smoke_nic *n)
{
	u32 magic = nic_read(n, INC_MAGIC), ver = nic_read(n, INC_VERSION);

	return tap(magic == INC_MAGIC_VALUE && ver >> 16 == 1,
		   "%s: MAGIC %#010x, VERSION %u.%u.%u", n->name, magic,
		   ver >> 16, (ver >> 8) & 0xff, ver & 0xff);
}

static void check_scratch(struct smoke_nic *n)
{
	static const u32 pat[] = { 0, 0xffffffff, 0xa5a5a5a5, 0x5a5a5a5a,
				   0x12345678, 0x80000001 };
	unsigned int i, bad = 0;
	u32 v;

	for (i = 0; i < ARRAY_SIZE(pat); i++) {
		nic_write(n, INC_SCRATCH, pat[i]);
		v = nic_read(n, INC_SCRATCH);
		if (v != pat[i]) {
			diag("%s: SCRATCH wrote %#010x, read %#010x", n->name,
			     pat[i], v);
			bad++;
		}
	}
	/* posted writes, then one read: it sees the last */
	for (i = 0; i < 100; i++)
		nic_write(n, INC_SCRATCH, 0x1000 + i);
	v = nic_read(n, INC_SCRATCH);
	if (v != 0x1000 + 99) {
		diag("%s: after 100 writes SCRATCH reads %#x", n->name, v);
		bad++;
	}
	tap(!bad, "%s: SCRATCH write/read back (%zu patterns, 100 posted writes)",
	    n->name, ARRAY_SIZE(pat));
}

/* Send one frame from @a, receive it on @b (the same NIC in loopback). */
static bool send_recv(struct smoke_nic *a, struct smoke_nic *b, u8 seed)
{
	u8 f[FRAME_LEN];
	struct inc_txd *t;
	struct inc_rxd *r;
	bool ok = true;
	u32 s;

	make_frame(f, a->mac, sizeof(f), seed);
	rx_post(b);
	t = tx_send(a, f, sizeof(f));
	if (!t) {
		diag("%s: TX ring full", a->name);
		return false;
	}
	s = tx_wait(t, dma_timeout_ms);
	if (!(s & INC_DESC_DONE) || (s & INC_TXS_ERROR) ||
	    (s & 0xffff) != sizeof(f)) {
		diag("%s: TX descriptor status %#010x (want DONE, %zu bytes sent)",
		     a->name, s, sizeof(f));
		ok = false;
	}
	r = rx_wait(b, dma_timeout_ms);
	if (!r) {
		diag("%s: no RX descriptor DONE in %u ms (RX CONS %#x, STATUS %#x)",
		     b->name, dma_timeout_ms,
		     nic_read(b, INC_RXQ + INC_Q_CONS),
		     nic_read(b, INC_STATUS));
		return false;
	}
	if (!rx_matches(b, r, f, sizeof(f)))
		ok = false;
	b->rx_cons++;
	return ok;
}

static void check_loopback(struct smoke_nic *n)
{
	nic_start(n, INC_CTRL_TX_EN | INC_CTRL_RX_EN | INC_CTRL_LOOPBACK);
	tap(send_recv(n, n, 1),
	    "%s: DMA in loopback: a %u-byte frame TX -> RX bit-exact, TX DONE",
	    n->name, FRAME_LEN);
}

static void check_irq(struct smoke_nic *n)
{
	unsigned long to = msecs_to_jiffies(dma_timeout_ms);
	int before;
	bool ok;
	u32 st, en;

	/* the RX completion of the loopback check, masked until now */
	nic_write(n, INC_IRQ_STATUS, 3);
	reinit_completion(&n->rx_irq);
	nic_write(n, INC_IRQ_ENABLE, BIT(INC_IRQ_RX));
	if (wait_for_completion_timeout(&n->rx_irq, msecs_to_jiffies(5000)))
		diag("%s: the masked RX completion was signalled on enable",
		     n->name);

	nic_write(n, INC_IRQ_STATUS, 3);
	reinit_completion(&n->rx_irq);
	before = atomic_read(&n->irq_count[1]);
	nic_write(n, INC_IRQ_ENABLE, BIT(INC_IRQ_RX));
	ok = send_recv(n, n, 2);
	if (!wait_for_completion_timeout(&n->rx_irq, to)) {
		diag("%s: no RX interrupt in %u ms", n->name, dma_timeout_ms);
		ok = false;
	}
	st = nic_read(n, INC_IRQ_STATUS);
	en = nic_read(n, INC_IRQ_ENABLE);
	if (!(st & BIT(INC_IRQ_RX)) || (en & BIT(INC_IRQ_RX))) {
		diag("%s: IRQ_STATUS %#x (want bit 1), IRQ_ENABLE %#x (want bit 1 auto-masked)",
		     n->name, st, en);
		ok = false;
	}
	tap(ok, "%s: MSI-X vector 1 on RX completion (%d handler runs; vector 0: %d)",
	    n->name, atomic_read(&n->irq_count[1]) - before,
	    atomic_read(&n->irq_count[0]));
	nic_write(n, INC_IRQ_STATUS, 3);
	nic_write(n, INC_CTRL, 0);
}

static bool wait_link(struct smoke_nic *n)
{
	unsigned long end = jiffies + msecs_to_jiffies(dma_timeout_ms);

	while (!(nic_read(n, INC_STATUS) & INC_STATUS_LINK)) {
		if (time_after(jiffies, end) || n->dead) {
			diag("%s: link still down after %u ms", n->name,
			     dma_timeout_ms);
			return false;
		}
		msleep(20);
	}
	return true;
}

static void check_pair(struct smoke_nic *a, struct smoke_nic *b)
{
	nic_start(a, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	nic_start(b, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	wait_link(a);
	wait_link(b);
	tap(send_recv(a, b, 3),
	    "%s -> %s: a %u-byte frame over the link, bit-exact",
	    a->name, b->name, FRAME_LEN);
	tap(send_recv(b, a, 4),
	    "%s -> %s: a %u-byte frame over the link, bit-exact",
	    b->name, a->name, FRAME_LEN);
	nic_write(a, INC_CTRL, 0);
	nic_write(b, INC_CTRL, 0);
}

/* ICMP echo between 10.0.0.1 (this NIC) and 10.0.0.2 (the link peer) */
#define ICMP_ID		0x1ac5
#define ICMP_DATA	56
#define ICMP_LEN	(ETH_HLEN + sizeof(struct iphdr) + \
			 sizeof(struct icmphdr) + ICMP_DATA)

struct arp_eth {
	struct arphdr h;
	u8 sha[ETH_ALEN];
	__be32 sip;
	u8 tha[ETH_ALEN];
	__be32 tip;
} __packed;

static void make_echo(struct smoke_nic *n, u8 *f, const u8 *dst, u16 seq)
{
	struct iphdr *ip = (struct iphdr *)(f + ETH_HLEN);
	struct icmphdr *ic = (struct icmphdr *)(ip + 1);
	u8 *data = (u8 *)(ic + 1);
	unsigned int i;

	memset(f, 0, ICMP_LEN);
	ether_addr_copy(f, dst);
	ether_addr_copy(f + ETH_ALEN, n->mac);
	put_unaligned_be16(ETH_P_IP, f + 12);
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(ICMP_LEN - ETH_HLEN);
	ip->id = htons(seq);
	ip->ttl = 64;
	ip->protocol = IPPROTO_ICMP;
	ip->saddr = htonl(0x0a000001);
	ip->daddr = htonl(0x0a000002);
	ip->check = ip_fast_csum(ip, ip->ihl);
	ic->type = ICMP_ECHO;
	ic->un.echo.id = htons(ICMP_ID);
	ic->un.echo.sequence = htons(seq);
	for (i = 0; i < ICMP_DATA; i++)
		data[i] = (u8)(i + 0x20);
	ic->checksum = ip_compute_csum(ic, sizeof(*ic) + ICMP_DATA);
}

/* Answer an ARP request for 10.0.0.1; true if @f was one. */
static bool answer_arp(struct smoke_nic *n, const u8 *f, unsigned int len)
{
	const struct arp_eth *q = (const void *)(f + ETH_HLEN);
	struct arp_eth *r;
	u8 out[ETH_ZLEN] = { 0 };

	if (len < ETH_HLEN + sizeof(*q) ||
	    get_unaligned_be16(f + 12) != ETH_P_ARP ||
	    q->h.ar_hrd != htons(ARPHRD_ETHER) ||
	    q->h.ar_pro != htons(ETH_P_IP) ||
	    q->h.ar_op != htons(ARPOP_REQUEST) ||
	    get_unaligned(&q->tip) != htonl(0x0a000001))
		return false;
	ether_addr_copy(out, q->sha);
	ether_addr_copy(out + ETH_ALEN, n->mac);
	put_unaligned_be16(ETH_P_ARP, out + 12);
	r = (struct arp_eth *)(out + ETH_HLEN);
	r->h = q->h;
	r->h.ar_op = htons(ARPOP_REPLY);
	ether_addr_copy(r->sha, n->mac);
	put_unaligned(htonl(0x0a000001), &r->sip);
	ether_addr_copy(r->tha, q->sha);
	put_unaligned(get_unaligned(&q->sip), &r->tip);
	if (!tx_send(n, out, sizeof(out)))
		diag("%s: TX ring full for the ARP reply", n->name);
	return true;
}

/* Is @f the echo reply to @req (any sequence number), checksums right? */
static bool is_reply(const u8 *f, unsigned int len, const u8 *req)
{
	const struct iphdr *ip = (const void *)(f + ETH_HLEN);
	const struct icmphdr *ic = (const void *)(ip + 1);
	const struct icmphdr *qc = (const void *)(req + ETH_HLEN + sizeof(*ip));

	if (len < ICMP_LEN || get_unaligned_be16(f + 12) != ETH_P_IP ||
	    ip->version != 4 || ip->ihl != 5 || ip->protocol != IPPROTO_ICMP ||
	    ip->saddr != htonl(0x0a000002) || ip->daddr != htonl(0x0a000001))
		return false;
	if (ip_fast_csum(ip, ip->ihl)) {
		diag("echo reply? bad IP header checksum");
		return false;
	}
	if (ic->type != ICMP_ECHOREPLY || ic->un.echo.id != htons(ICMP_ID))
		return false;
	if (ip_compute_csum(ic, sizeof(*ic) + ICMP_DATA)) {
		diag("echo reply with a bad ICMP checksum");
		return false;
	}
	if (memcmp(ic + 1, qc + 1, ICMP_DATA)) {
		diag("echo reply with other data than the request");
		return false;
	}
	return true;
}

static void check_icmp(struct smoke_nic *n)
{
	unsigned long end = jiffies + icmp_timeout_s * HZ, next = jiffies;
	u8 dst[ETH_ALEN], req[ICMP_LEN];
	unsigned int sent = 0, arps = 0, other = 0, i, len;
	struct inc_rxd *d;
	bool ok = false;

	eth_broadcast_addr(dst);
	if (peer_mac && !mac_pton(peer_mac, dst))
		diag("peer_mac=%s is not a MAC address; using broadcast",
		     peer_mac);
	nic_start(n, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	for (i = 0; i < RING_N - 1; i++)
		rx_post(n);
	wait_link(n);
	make_echo(n, req, dst, 0);

	while (!ok && time_before(jiffies, end) && !n->dead) {
		/* one request a second until the peer is up */
		if (time_after_eq(jiffies, next)) {
			make_echo(n, req, dst, ++sent);
			if (!tx_send(n, req, sizeof(req)))
				diag("%s: TX ring full", n->name);
			next = jiffies + HZ;
		}
		d = rx_done(n);
		if (!d) {
			usleep_range(500, 2000);
			continue;
		}
		len = le16_to_cpu(d->len);
		if (is_reply(rx_buf(n, n->rx_cons), len, req))
			ok = true;
		else if (answer_arp(n, rx_buf(n, n->rx_cons), len))
			arps++;
		else
			other++;
		n->rx_cons++;
		rx_post(n);
	}
	tap(ok, "%s: ICMP echo 10.0.0.1 -> 10.0.0.2 answered (%u requests, %u ARP requests answered, %u other frames)",
	    n->name, sent, arps, other);
	nic_write(n, INC_CTRL, 0);
}

/* ------------------------------------------------------------------ */
/* PCI                                                                 */

static irqreturn_t smoke_irq(int irq, void *data)
{
	struct smoke_nic *n = data;
	int v = irq == n->irq[1];

	atomic_inc(&n->irq_count[v]);
	if (v == 1)
		complete(&n->rx_irq);
	return IRQ_HANDLED;
}

static int smoke_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct smoke_nic *n;
	u64 magic;
	u32 lo, hi;
	int err, v;

	err = pcim_enable_device(pdev);
	if (err)
		return err;
	if (pci_resource_len(pdev, 2) < INCSIM_BAR2_SIZE)
		return -ENODEV;
	err = pcim_iomap_regions(pdev, BIT(0) | BIT(2), "inc_smoke");
	if (err)
		return err;
	n = devm_kzalloc(dev, sizeof(*n), GFP_KERNEL);
	if (!n)
		return -ENOMEM;
	n->pdev = pdev;
	n->name = pci_name(pdev);
	n->bar0 = pcim_iomap_table(pdev)[0];
	n->shm = pcim_iomap_table(pdev)[2];

	/* only an incsim window: never claim another ivshmem device */
	magic = ioread32(n->shm + INCSIM_OFF_MAGIC) |
		(u64)ioread32(n->shm + INCSIM_OFF_MAGIC + 4) << 32;
	if (magic != INCSIM_MAGIC ||
	    shm_read(n, INCSIM_OFF_VERSION) != INCSIM_VERSION) {
		dev_info(dev, "not an incsim window (magic %#llx version %u)\n",
			 magic, shm_read(n, INCSIM_OFF_VERSION));
		return -ENODEV;
	}
	n->entries = shm_read(n, INCSIM_OFF_ENTRIES);
	if (!n->entries || n->entries > (INCSIM_BAR2_SIZE - INCSIM_OFF_RING) /
					sizeof(struct incsim_cmd)) {
		dev_err(dev, "bad command ring size %u\n", n->entries);
		return -ENODEV;
	}
	n->ring = n->shm + INCSIM_OFF_RING;
	n->prod = shm_read(n, INCSIM_OFF_PROD);
	spin_lock_init(&n->lock);
	init_completion(&n->rx_irq);

	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (err)
		return err;
	n->tx_ring = dmam_alloc_coherent(dev, RING_N * sizeof(*n->tx_ring),
					 &n->tx_ring_dma, GFP_KERNEL);
	n->rx_ring = dmam_alloc_coherent(dev, RING_N * sizeof(*n->rx_ring),
					 &n->rx_ring_dma, GFP_KERNEL);
	n->tx_buf = dmam_alloc_coherent(dev, RING_N * BUF_SIZE,
					&n->tx_buf_dma, GFP_KERNEL);
	n->rx_buf = dmam_alloc_coherent(dev, RING_N * BUF_SIZE,
					&n->rx_buf_dma, GFP_KERNEL);
	if (!n->tx_ring || !n->rx_ring || !n->tx_buf || !n->rx_buf)
		return -ENOMEM;

	/* QEMU delivers MSI-X only from a bus master */
	pci_set_master(pdev);
	err = pci_alloc_irq_vectors(pdev, 2, 2, PCI_IRQ_MSIX);
	if (err < 0)
		return err;
	for (v = 0; v < 2; v++) {
		n->irq[v] = pci_irq_vector(pdev, v);
		err = devm_request_irq(dev, n->irq[v], smoke_irq, 0,
				       "inc_smoke", n);
		if (err)
			return err;
	}

	lo = nic_read(n, INC_MAC_LO);
	hi = nic_read(n, INC_MAC_HI);
	put_unaligned_le32(lo, n->mac);
	put_unaligned_le16(hi, n->mac + 4);
	dev_info(dev, "incsim NIC, %u-entry ring, state %#x, MAC %pM\n",
		 n->entries, shm_read(n, INCSIM_OFF_STATE), n->mac);

	pci_set_drvdata(pdev, n);
	mutex_lock(&smoke_lock);
	list_add_tail(&n->node, &smoke_nics);
	mutex_unlock(&smoke_lock);
	return 0;
}

static void smoke_remove(struct pci_dev *pdev)
{
	struct smoke_nic *n = pci_get_drvdata(pdev);

	/* stop the NIC before its rings and buffers are freed */
	nic_write(n, INC_CTRL, 0);
	nic_write(n, INC_IRQ_ENABLE, 0);
	nic_read(n, INC_CTRL);
	mutex_lock(&smoke_lock);
	list_del(&n->node);
	mutex_unlock(&smoke_lock);
}

static const struct pci_device_id smoke_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1110) },
	{ }
};
MODULE_DEVICE_TABLE(pci, smoke_ids);

static struct pci_driver smoke_driver = {
	.name = "inc_smoke",
	.id_table = smoke_ids,
	.probe = smoke_probe,
	.remove = smoke_remove,
};

static int __init smoke_init(void)
{
	struct smoke_nic *n, *a = NULL, *b = NULL;
	unsigned int count = 0;
	int err;

	err = pci_register_driver(&smoke_driver);
	if (err)
		return err;

	mutex_lock(&smoke_lock);
	list_for_each_entry(n, &smoke_nics, node) {
		count++;
		if (!a)
			a = n;
		else if (!b)
			b = n;
	}
	diag("mode=%s, %u incsim NIC(s)", mode, count);
	if (!a) {
		tap(false, "an incsim NIC (1af4:1110 with an incsim BAR2)");
	} else if (!strcmp(mode, "loopback")) {
		list_for_each_entry(n, &smoke_nics, node) {
			if (!check_id(n))
				continue;
			check_scratch(n);
			check_loopback(n);
			check_irq(n);
		}
	} else if (!strcmp(mode, "pair")) {
		if (!b) {
			tap(false, "two incsim NICs for mode=pair");
		} else {
			bool ok_a = check_id(a), ok_b = check_id(b);

			if (ok_a && ok_b)
				check_pair(a, b);
		}
	} else if (!strcmp(mode, "icmp")) {
		if (check_id(a))
			check_icmp(a);
	} else {
		tap(false, "mode=%s: loopback, pair or icmp expected", mode);
	}
	mutex_unlock(&smoke_lock);
	pr_info("1..%u\n", tap_n);
	/*
	 * Loaded even when a check failed or no NIC was found: the TAP lines
	 * say so (and busybox's insmod would load a failing module twice).
	 */
	return 0;
}

static void __exit smoke_exit(void)
{
	pci_unregister_driver(&smoke_driver);
}

module_init(smoke_init);
module_exit(smoke_exit);

MODULE_DESCRIPTION("smoke test of incsim, the inceptionn NIC simulator");
MODULE_LICENSE("GPL");
