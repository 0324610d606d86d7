/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's one parser of Ethernet, VLAN and IP headers: the marking
 * path (inc_mark.c) reads frames about to be sent with it, peer learning
 * (inc_peers.c) frames received and the destinations of frames sent.
 */
#ifndef INC_PARSE_H
#define INC_PARSE_H

#include <linux/in6.h>
#include <linux/skbuff.h>
#include <linux/types.h>

struct inc_l3 {
	unsigned int l3_off;	/* the IP header, from skb->data */
	unsigned int l4_off;	/* what follows it */
	unsigned int l4_len;	/* bytes of IP payload (from the IP header) */
	u8 proto;		/* IPv4 protocol or IPv6 next header */
	bool v4;		/* IPv4, else IPv6 */
	bool vlan;		/* one or two VLAN tags before it */
	struct in6_addr saddr;	/* IPv4 as v4-mapped IPv6 */
	struct in6_addr daddr;
};

/*
 * Parse the headers at skb->data + off, where the EtherType `type` was the
 * last thing read (off = ETH_HLEN with the Ethernet header's type for a
 * frame about to be sent; off = 0 with skb->protocol for a received one):
 * up to two VLAN tags, then IPv4 (not a fragment, header length and total
 * length checked against the skb) or IPv6 (payload length checked). true
 * with *l3 filled; false for anything else or anything truncated.
 */
bool inc_parse_l3(const struct sk_buff *skb, unsigned int off, __be16 type,
		  struct inc_l3 *l3);

#endif /* INC_PARSE_H */
