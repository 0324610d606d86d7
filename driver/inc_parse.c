// SPDX-License-Identifier: GPL-2.0
/*
 * The one Ethernet/VLAN/IP parser of the driver (inc_parse.h). It reads
 * through skb_header_pointer(), so frames need not be linear.
 */
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ipv6.h>

#include "inc_parse.h"

bool inc_parse_l3(const struct sk_buff *skb, unsigned int off, __be16 type,
		  struct inc_l3 *l3)
{
	int i;

	l3->vlan = false;
	for (i = 0; i < 2 && eth_type_vlan(type); i++) {
		struct vlan_hdr _vh;
		const struct vlan_hdr *vh;

		vh = skb_header_pointer(skb, off, sizeof(_vh), &_vh);
		if (!vh)
			return false;
		type = vh->h_vlan_encapsulated_proto;
		off += VLAN_HLEN;
		l3->vlan = true;
	}
	l3->l3_off = off;
	if (type == htons(ETH_P_IP)) {
		struct iphdr _iph;
		const struct iphdr *iph;
		unsigned int hl, tot;

		iph = skb_header_pointer(skb, off, sizeof(_iph), &_iph);
		if (!iph || iph->version != 4 || iph->ihl < 5 ||
		    ip_is_fragment(iph))
			return false;
		hl = iph->ihl * 4;
		tot = ntohs(iph->tot_len);
		if (tot < hl || off + tot > skb->len)
			return false;
		l3->l4_off = off + hl;
		l3->l4_len = tot - hl;
		l3->proto = iph->protocol;
		l3->v4 = true;
		ipv6_addr_set_v4mapped(iph->saddr, &l3->saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &l3->daddr);
		return true;
	}
	if (type == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ip6h;
		const struct ipv6hdr *ip6h;

		ip6h = skb_header_pointer(skb, off, sizeof(_ip6h), &_ip6h);
		if (!ip6h || ip6h->version != 6)
			return false;
		l3->l4_off = off + sizeof(*ip6h);
		l3->l4_len = ntohs(ip6h->payload_len);
		if (l3->l4_off + l3->l4_len > skb->len)
			return false;
		l3->proto = ip6h->nexthdr;
		l3->v4 = false;
		l3->saddr = ip6h->saddr;
		l3->daddr = ip6h->daddr;
		return true;
	}
	return false;
}
