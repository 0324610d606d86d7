/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Peers that cannot restore compressed frames, one table per netdev:
 * hosts that answered a compressed frame with an ICMP "protocol
 * unreachable" (IPv4) or "unrecognized next header" (IPv6) because they
 * have no inceptionn NIC, and hosts whose marked TCP segments needed
 * retransmission after retransmission (their ICMP may be filtered). Frames
 * to them are sent uncompressed for a while, so a marked flow toward them
 * still delivers exact data (its first frames are lost and retransmitted,
 * for TCP).
 *
 * An ICMP error teaches the table only when it is consistent with a frame
 * this device really sent compressed: its sender is the address it quotes
 * as the destination, the quoted source is one of this host's addresses,
 * and this device recently sent marked frames to that destination. The
 * table holds at most INC_PEERS_MAX entries (debugfs peers_max lowers it);
 * when full, the entry least recently used by the transmit path goes.
 */
#ifndef INC_PEERS_H
#define INC_PEERS_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "inc_parse.h"

#define INC_PEER_TTL		(300 * HZ)	/* learned from ICMP */
#define INC_PEER_TTL_RETRANS	(60 * HZ)	/* from retransmissions */
#define INC_PEERS_MAX		256

struct inc_peers;
struct dentry;

struct inc_peers *inc_peers_create(struct net_device *ndev);
/* After the netdev stopped transmitting and receiving. */
void inc_peers_destroy(struct inc_peers *t);
void inc_peers_debugfs(struct inc_peers *t, struct dentry *dir);

/*
 * RX, NAPI: look at a received frame (skb->data at the network header,
 * skb->protocol set) and learn from it; true when it taught the table.
 */
bool inc_peers_learn(struct inc_peers *t, const struct sk_buff *skb);
/* TX: is the frame's destination known not to restore compressed frames? */
bool inc_peers_plain(struct inc_peers *t, const struct inc_l3 *l3);
/* TX: a marked frame goes to l3's destination. */
void inc_peers_sent(struct inc_peers *t, const struct inc_l3 *l3);
/* TX: marked frames to l3's destination keep being retransmitted. */
void inc_peers_suspect(struct inc_peers *t, const struct inc_l3 *l3);

#endif /* INC_PEERS_H */
