// SPDX-License-Identifier: GPL-2.0
/*
 * Peers that cannot restore compressed frames (inc_peers.h). A small hash
 * of addresses (IPv4 as v4-mapped IPv6), RCU for the xmit-side lookup, a
 * spinlock for the NAPI-side writers, entries expiring after INC_PEER_TTL.
 */
#include <linux/hashtable.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jiffies.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/ipv6.h>

#include "inc_peers.h"

#define INC_IPPROTO_SHIM	253	/* docs/wire-format.md */

struct inc_peer {
	struct hlist_node node;
	struct rcu_head rcu;
	struct in6_addr addr;
	unsigned long expires;	/* jiffies */
};

static DEFINE_HASHTABLE(inc_peers, 6);
static DEFINE_SPINLOCK(inc_peers_lock);
static unsigned int inc_peers_n;

static u32 inc_peer_hash(const struct in6_addr *a)
{
	return ipv6_addr_hash(a);
}

static struct inc_peer *inc_peer_find(const struct in6_addr *a)
{
	struct inc_peer *p;

	hash_for_each_possible_rcu(inc_peers, p, node, inc_peer_hash(a))
		if (ipv6_addr_equal(&p->addr, a))
			return p;
	return NULL;
}

static void inc_peer_drop(struct inc_peer *p)
{
	hash_del_rcu(&p->node);
	kfree_rcu(p, rcu);
	WRITE_ONCE(inc_peers_n, inc_peers_n - 1);
}

static void inc_peer_add(const struct in6_addr *a)
{
	struct inc_peer *p, *old;
	struct hlist_node *tmp;
	unsigned int b;

	spin_lock_bh(&inc_peers_lock);
	p = inc_peer_find(a);
	if (p) {
		WRITE_ONCE(p->expires, jiffies + INC_PEER_TTL);
		goto out;
	}
	if (inc_peers_n >= INC_PEERS_MAX) {
		hash_for_each_safe(inc_peers, b, tmp, old, node)
			if (time_after(jiffies, READ_ONCE(old->expires)))
				inc_peer_drop(old);
		if (inc_peers_n >= INC_PEERS_MAX)
			goto out;	/* full of live entries: not learned */
	}
	p = kzalloc(sizeof(*p), GFP_ATOMIC);
	if (!p)
		goto out;
	p->addr = *a;
	p->expires = jiffies + INC_PEER_TTL;
	hash_add_rcu(inc_peers, &p->node, inc_peer_hash(a));
	WRITE_ONCE(inc_peers_n, inc_peers_n + 1);
	if (ipv6_addr_v4mapped(a))
		pr_info_ratelimited("inceptionn: %pI4 has no inceptionn NIC (protocol unreachable): sending it uncompressed\n",
				    &a->s6_addr32[3]);
	else
		pr_info_ratelimited("inceptionn: %pI6c has no inceptionn NIC (unrecognized next header): sending it uncompressed\n",
				    a);
out:
	spin_unlock_bh(&inc_peers_lock);
}

/*
 * Skip up to two VLAN tags at data + *off, with *proto the EtherType before
 * them; false when the buffer's linear part ends inside them.
 */
static bool inc_peers_skip_vlan(const struct sk_buff *skb, unsigned int *off,
				__be16 *proto)
{
	int i;

	for (i = 0; i < 2 && eth_type_vlan(*proto); i++) {
		if (skb_headlen(skb) < *off + VLAN_HLEN)
			return false;
		*proto = ((const struct vlan_hdr *)(skb->data + *off))->h_vlan_encapsulated_proto;
		*off += VLAN_HLEN;
	}
	return true;
}

bool inc_peers_learn(const struct sk_buff *skb)
{
	__be16 proto = skb->protocol;
	unsigned int off = 0;
	struct in6_addr a;

	/* without VLAN offload, tagged frames come with their tags */
	if (!inc_peers_skip_vlan(skb, &off, &proto))
		return false;
	if (proto == htons(ETH_P_IP)) {
		const struct iphdr *ip = (const struct iphdr *)(skb->data + off);
		const struct icmphdr *ic;
		const struct iphdr *inner;
		unsigned int hl;

		if (skb_headlen(skb) < off + sizeof(*ip) || ip->protocol != IPPROTO_ICMP)
			return false;
		hl = ip->ihl * 4;
		if (hl < sizeof(*ip) ||
		    skb_headlen(skb) < off + hl + sizeof(*ic) + sizeof(*inner))
			return false;
		ic = (const struct icmphdr *)((const u8 *)ip + hl);
		inner = (const struct iphdr *)(ic + 1);
		if (ic->type != ICMP_DEST_UNREACH || ic->code != ICMP_PROT_UNREACH ||
		    inner->protocol != INC_IPPROTO_SHIM)
			return false;
		ipv6_addr_set_v4mapped(inner->daddr, &a);
	} else if (proto == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip = (const struct ipv6hdr *)(skb->data + off);
		const struct icmp6hdr *ic;
		const struct ipv6hdr *inner;

		if (skb_headlen(skb) < off + sizeof(*ip) + sizeof(*ic) + sizeof(*inner) ||
		    ip->nexthdr != IPPROTO_ICMPV6)
			return false;
		ic = (const struct icmp6hdr *)(ip + 1);
		inner = (const struct ipv6hdr *)(ic + 1);
		if (ic->icmp6_type != ICMPV6_PARAMPROB ||
		    ic->icmp6_code != ICMPV6_UNK_NEXTHDR ||
		    inner->nexthdr != INC_IPPROTO_SHIM)
			return false;
		a = inner->daddr;
	} else {
		return false;
	}
	inc_peer_add(&a);
	return true;
}

bool inc_peers_plain(const struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	__be16 proto = eth->h_proto;
	unsigned int off = ETH_HLEN;
	struct in6_addr a;
	struct inc_peer *p;
	bool plain;

	if (!READ_ONCE(inc_peers_n) || !inc_peers_skip_vlan(skb, &off, &proto))
		return false;
	if (proto == htons(ETH_P_IP) &&
	    skb_headlen(skb) >= off + sizeof(struct iphdr))
		ipv6_addr_set_v4mapped(((const struct iphdr *)(skb->data + off))->daddr,
				       &a);
	else if (proto == htons(ETH_P_IPV6) &&
		 skb_headlen(skb) >= off + sizeof(struct ipv6hdr))
		a = ((const struct ipv6hdr *)(skb->data + off))->daddr;
	else
		return false;
	rcu_read_lock();
	p = inc_peer_find(&a);
	plain = p && time_before(jiffies, READ_ONCE(p->expires));
	rcu_read_unlock();
	return plain;
}

void inc_peers_flush(void)
{
	struct inc_peer *p;
	struct hlist_node *tmp;
	unsigned int b;

	spin_lock_bh(&inc_peers_lock);
	hash_for_each_safe(inc_peers, b, tmp, p, node)
		inc_peer_drop(p);
	spin_unlock_bh(&inc_peers_lock);
	/* kfree_rcu callbacks must finish before the module text goes */
	rcu_barrier();
}
