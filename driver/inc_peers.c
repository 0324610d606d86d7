// SPDX-License-Identifier: GPL-2.0
/*
 * Peers that cannot restore compressed frames (inc_peers.h): per netdev, a
 * small hash of addresses (IPv4 as v4-mapped IPv6), RCU for the xmit-side
 * lookup, a spinlock for the writers, entries expiring after a TTL and
 * evicted least recently used first.
 *
 * The "sent" filter remembers the last destinations of marked frames: a
 * keyed hash picks one of 64 sets, each holding the tags of the four most
 * recent destinations that fell into it. An ICMP error about a destination
 * this device did not recently send marked frames to teaches nothing: a
 * forger who does not see the traffic cannot fill the table with made-up
 * peers.
 */
#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/route.h>

#include "inc_peers.h"

#define INC_IPPROTO_SHIM	253	/* docs/wire-format.md */
#define INC_PEERS_SENT_SETS	64	/* sets of the sent filter */
#define INC_PEERS_SENT_WAYS	4	/* destinations a set remembers */

enum inc_peer_why { INC_PEER_ICMP, INC_PEER_RETRANS };

struct inc_peer {
	struct hlist_node node;
	struct rcu_head rcu;
	struct in6_addr addr;
	unsigned long expires;	/* jiffies */
	unsigned long used;	/* last transmit that found it */
	u8 why;			/* enum inc_peer_why */
};

struct inc_peers {
	struct net_device *ndev;
	spinlock_t lock;	/* writers of tab and n */
	DECLARE_HASHTABLE(tab, 6);
	unsigned int n;
	u32 max;		/* debugfs peers_max, 1..INC_PEERS_MAX */
	u32 seed;
	u32 sent[INC_PEERS_SENT_SETS][INC_PEERS_SENT_WAYS];
	/* what happened to the ICMP errors and entries (debugfs) */
	atomic_t learned, suspected, evicted, expired;
	atomic_t rej_quote, rej_local, rej_unsent;
};

static u32 inc_peer_hash(const struct inc_peers *t, const struct in6_addr *a)
{
	return jhash2((const u32 *)a->s6_addr32, 4, t->seed);
}

static struct inc_peer *inc_peer_find(struct inc_peers *t,
				      const struct in6_addr *a)
{
	struct inc_peer *e;

	hash_for_each_possible_rcu(t->tab, e, node, inc_peer_hash(t, a))
		if (ipv6_addr_equal(&e->addr, a))
			return e;
	return NULL;
}

static void inc_peer_drop(struct inc_peers *t, struct inc_peer *e)
{
	hash_del_rcu(&e->node);
	kfree_rcu(e, rcu);
	t->n--;
}

/* Expired entries go, then the least recently used until at most keep remain. */
static void inc_peers_trim(struct inc_peers *t, unsigned int keep)
{
	struct inc_peer *e, *lru;
	struct hlist_node *tmp;
	unsigned int b;

	if (t->n <= keep)
		return;
	hash_for_each_safe(t->tab, b, tmp, e, node) {
		if (time_after(jiffies, READ_ONCE(e->expires))) {
			inc_peer_drop(t, e);
			atomic_inc(&t->expired);
		}
	}
	while (t->n > keep) {
		lru = NULL;
		hash_for_each(t->tab, b, e, node)
			if (!lru || time_before(READ_ONCE(e->used),
						READ_ONCE(lru->used)))
				lru = e;
		inc_peer_drop(t, lru);
		atomic_inc(&t->evicted);
	}
}

static void inc_peer_add(struct inc_peers *t, const struct in6_addr *a,
			 enum inc_peer_why why)
{
	unsigned long ttl = why == INC_PEER_ICMP ? INC_PEER_TTL
						 : INC_PEER_TTL_RETRANS;
	struct inc_peer *e;

	spin_lock_bh(&t->lock);
	e = inc_peer_find(t, a);
	if (e) {
		/* an ICMP answer outranks a guess from retransmissions */
		if (why == INC_PEER_ICMP)
			WRITE_ONCE(e->why, why);
		WRITE_ONCE(e->expires, jiffies + ttl);
		goto out;
	}
	inc_peers_trim(t, READ_ONCE(t->max) - 1);
	e = kzalloc(sizeof(*e), GFP_ATOMIC);
	if (!e)
		goto out;
	e->addr = *a;
	e->why = why;
	e->expires = jiffies + ttl;
	e->used = jiffies;
	hash_add_rcu(t->tab, &e->node, inc_peer_hash(t, a));
	t->n++;
	if (!net_ratelimit())
		goto out;
	if (why == INC_PEER_RETRANS)
		netdev_info(t->ndev, "%pI6c: marked TCP segments retransmitted again and again (no inceptionn NIC there, and its ICMP errors filtered?): sending to it uncompressed for %u s\n",
			    a, INC_PEER_TTL_RETRANS / HZ);
	else if (ipv6_addr_v4mapped(a))
		netdev_info(t->ndev, "%pI4 has no inceptionn NIC (protocol unreachable): sending it uncompressed\n",
			    &a->s6_addr32[3]);
	else
		netdev_info(t->ndev, "%pI6c has no inceptionn NIC (unrecognized next header): sending it uncompressed\n",
			    a);
out:
	spin_unlock_bh(&t->lock);
}

/* ---- the sent filter ---- */

/*
 * The set from the hash's top bits, the tag from all of it (bit 0 set: an
 * empty way, 0, matches nothing). Writers race without a lock: a lost or
 * doubled tag only makes the filter forget a destination early.
 */
static u32 *inc_peers_set(struct inc_peers *t, const struct in6_addr *a,
			  u32 *tag)
{
	u32 h = inc_peer_hash(t, a);

	*tag = h | 1;
	return t->sent[h >> (32 - ilog2(INC_PEERS_SENT_SETS))];
}

static int inc_peers_way(const u32 *set, u32 tag)
{
	int w;

	for (w = 0; w < INC_PEERS_SENT_WAYS; w++)
		if (READ_ONCE(set[w]) == tag)
			return w;
	return -1;
}

void inc_peers_sent(struct inc_peers *t, const struct inc_l3 *l3)
{
	u32 tag, *set = inc_peers_set(t, &l3->daddr, &tag);
	int w;

	/* the common case, a destination already here, only reads */
	if (inc_peers_way(set, tag) >= 0)
		return;
	/* newest first: the tag stored longest ago falls out */
	for (w = INC_PEERS_SENT_WAYS - 1; w > 0; w--)
		WRITE_ONCE(set[w], READ_ONCE(set[w - 1]));
	WRITE_ONCE(set[0], tag);
}

static bool inc_peers_was_sent(struct inc_peers *t, const struct in6_addr *a)
{
	u32 tag, *set = inc_peers_set(t, a, &tag);

	return inc_peers_way(set, tag) >= 0;
}

/* ---- learning ---- */

/* Is a one of this host's addresses in the device's namespace? */
static bool inc_peers_local(struct inc_peers *t, const struct in6_addr *a)
{
	struct net *net = dev_net(t->ndev);

	if (ipv6_addr_v4mapped(a))
		return inet_addr_type(net, a->s6_addr32[3]) == RTN_LOCAL;
	return ipv6_chk_addr(net, a, NULL, 0);
}

/*
 * The quoted packet of an ICMP error about a compressed frame: its source,
 * destination and protocol; false if it is none.
 */
static bool inc_peers_quote(const struct sk_buff *skb, const struct inc_l3 *o,
			    struct in6_addr *src, struct in6_addr *dst)
{
	if (o->v4) {
		struct {
			struct icmphdr ic;
			struct iphdr ip;
		} _q;
		const typeof(_q) *q;

		if (o->proto != IPPROTO_ICMP)
			return false;
		q = skb_header_pointer(skb, o->l4_off, sizeof(_q), &_q);
		if (!q || q->ic.type != ICMP_DEST_UNREACH ||
		    q->ic.code != ICMP_PROT_UNREACH || q->ip.version != 4 ||
		    q->ip.ihl < 5 || q->ip.protocol != INC_IPPROTO_SHIM)
			return false;
		ipv6_addr_set_v4mapped(q->ip.saddr, src);
		ipv6_addr_set_v4mapped(q->ip.daddr, dst);
	} else {
		struct {
			struct icmp6hdr ic;
			struct ipv6hdr ip;
		} _q;
		const typeof(_q) *q;

		if (o->proto != IPPROTO_ICMPV6)
			return false;
		q = skb_header_pointer(skb, o->l4_off, sizeof(_q), &_q);
		if (!q || q->ic.icmp6_type != ICMPV6_PARAMPROB ||
		    q->ic.icmp6_code != ICMPV6_UNK_NEXTHDR ||
		    q->ip.version != 6 || q->ip.nexthdr != INC_IPPROTO_SHIM)
			return false;
		*src = q->ip.saddr;
		*dst = q->ip.daddr;
	}
	return true;
}

bool inc_peers_learn(struct inc_peers *t, const struct sk_buff *skb)
{
	struct in6_addr src, dst;
	struct inc_l3 o;

	if (!inc_parse_l3(skb, 0, skb->protocol, &o) ||
	    !inc_peers_quote(skb, &o, &src, &dst))
		return false;
	/* "protocol unreachable" comes from the destination itself */
	if (!ipv6_addr_equal(&o.saddr, &dst)) {
		atomic_inc(&t->rej_quote);
		return false;
	}
	if (!inc_peers_was_sent(t, &dst)) {
		atomic_inc(&t->rej_unsent);
		return false;
	}
	if (!inc_peers_local(t, &src)) {
		atomic_inc(&t->rej_local);
		return false;
	}
	atomic_inc(&t->learned);
	inc_peer_add(t, &dst, INC_PEER_ICMP);
	return true;
}

void inc_peers_suspect(struct inc_peers *t, const struct inc_l3 *l3)
{
	if (inc_peers_plain(t, l3))
		return;
	atomic_inc(&t->suspected);
	inc_peer_add(t, &l3->daddr, INC_PEER_RETRANS);
}

bool inc_peers_plain(struct inc_peers *t, const struct inc_l3 *l3)
{
	struct inc_peer *e;
	bool plain = false;

	if (!READ_ONCE(t->n))
		return false;
	rcu_read_lock();
	e = inc_peer_find(t, &l3->daddr);
	if (e && time_before(jiffies, READ_ONCE(e->expires))) {
		unsigned long now = jiffies;

		plain = true;
		/* written at most once a tick: the line stays shared */
		if (time_after(now, READ_ONCE(e->used)))
			WRITE_ONCE(e->used, now);
	}
	rcu_read_unlock();
	return plain;
}

/* ---- life ---- */

struct inc_peers *inc_peers_create(struct net_device *ndev)
{
	struct inc_peers *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->ndev = ndev;
	spin_lock_init(&t->lock);
	hash_init(t->tab);
	t->max = INC_PEERS_MAX;
	t->seed = get_random_u32();
	return t;
}

void inc_peers_destroy(struct inc_peers *t)
{
	struct inc_peer *e;
	struct hlist_node *tmp;
	unsigned int b;

	if (!t)
		return;
	spin_lock_bh(&t->lock);
	hash_for_each_safe(t->tab, b, tmp, e, node)
		inc_peer_drop(t, e);
	spin_unlock_bh(&t->lock);
	/* kfree_rcu callbacks must finish before the module text goes */
	rcu_barrier();
	kfree(t);
}

/* ---- debugfs: peers (the table), peers_max, peers_stats ---- */

static int inc_peers_show(struct seq_file *m, void *v)
{
	struct inc_peers *t = m->private;
	struct inc_peer *e;
	unsigned int b;

	rcu_read_lock();
	hash_for_each_rcu(t->tab, b, e, node) {
		long left = (long)(READ_ONCE(e->expires) - jiffies);

		if (left <= 0)
			continue;
		seq_printf(m, "%pI6c %s expires %ld idle %lu\n", &e->addr,
			   e->why == INC_PEER_ICMP ? "icmp" : "retrans",
			   left / HZ, (jiffies - READ_ONCE(e->used)) / HZ);
	}
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(inc_peers);

static int inc_peers_stats_show(struct seq_file *m, void *v)
{
	struct inc_peers *t = m->private;

	seq_printf(m, "entries %u\nmax %u\nlearned %d\nsuspected %d\nevicted %d\nexpired %d\n",
		   READ_ONCE(t->n), READ_ONCE(t->max), atomic_read(&t->learned),
		   atomic_read(&t->suspected), atomic_read(&t->evicted),
		   atomic_read(&t->expired));
	seq_printf(m, "rejected_quote %d\nrejected_not_local %d\nrejected_not_sent %d\n",
		   atomic_read(&t->rej_quote), atomic_read(&t->rej_local),
		   atomic_read(&t->rej_unsent));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(inc_peers_stats);

static int inc_peers_max_set(void *data, u64 val)
{
	struct inc_peers *t = data;

	if (val < 1 || val > INC_PEERS_MAX)
		return -EINVAL;
	spin_lock_bh(&t->lock);
	WRITE_ONCE(t->max, val);
	inc_peers_trim(t, val);
	spin_unlock_bh(&t->lock);
	return 0;
}

static int inc_peers_max_get(void *data, u64 *val)
{
	*val = READ_ONCE(((struct inc_peers *)data)->max);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(inc_peers_max_fops, inc_peers_max_get,
			 inc_peers_max_set, "%llu\n");

void inc_peers_debugfs(struct inc_peers *t, struct dentry *dir)
{
	debugfs_create_file("peers", 0444, dir, t, &inc_peers_fops);
	debugfs_create_file("peers_stats", 0444, dir, t, &inc_peers_stats_fops);
	debugfs_create_file_unsafe("peers_max", 0644, dir, t,
				   &inc_peers_max_fops);
}
