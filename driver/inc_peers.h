/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Peers that cannot restore compressed frames: hosts that answered one with
 * an ICMP "protocol unreachable" (IPv4) or "unrecognized next header"
 * (IPv6) because they have no inceptionn NIC. Frames to them are sent
 * uncompressed for a while, so a marked flow toward them still delivers
 * exact data (its first frames are lost and retransmitted, for TCP).
 */
#ifndef INC_PEERS_H
#define INC_PEERS_H

#include <linux/skbuff.h>

#define INC_PEER_TTL		(300 * HZ)
#define INC_PEERS_MAX		256

/*
 * RX, NAPI: look at a received frame (skb->data at the network header,
 * skb->protocol set) and learn from it; true when it was such an ICMP.
 */
bool inc_peers_learn(const struct sk_buff *skb);
/*
 * TX: is the frame's destination (skb->data at the Ethernet header) known
 * not to restore compressed frames?
 */
bool inc_peers_plain(const struct sk_buff *skb);
/* Forget every peer (module exit). */
void inc_peers_flush(void);

#endif /* INC_PEERS_H */
