/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Gradient marking: the socket option (include/uapi/inceptionn/inceptionn.h)
 * and, for each frame the netdev sends, the byte range the NIC may
 * compress.
 */
#ifndef INC_MARK_H
#define INC_MARK_H

#include <linux/skbuff.h>
#include <linux/types.h>

#include "inc_parse.h"

struct inc_mark {
	u8 k;		/* error bound 2^-k */
	u8 mode;	/* INC_MODE_PAPER, _SPARSE or _WIDTH */
	u16 range_off;	/* the range's offset in the L4 payload */
	u16 range_len;	/* its length, a multiple of 4 */
	u8 retrans;	/* TCP: RTO retransmissions without progress */
	struct inc_l3 l3;	/* the frame's headers */
};

/*
 * Register the socket options; 0 or a negative errno (then the NIC driver
 * runs without them: nothing is marked, setsockopt says ENOPROTOOPT).
 */
int inc_mark_init(void);
/* Unregister them and free every socket's state. */
void inc_mark_exit(void);

/*
 * For a frame about to be sent (skb->data at the Ethernet header): true,
 * with *m filled, when the frame carries gradient bytes of a marked
 * socket. The range holds only bytes the application wrote with the mark
 * on, whole float32 values counted from the first marked byte, at least
 * INC_MARK_MIN_LEN bytes; when several marked runs share the frame, the
 * longest. Safe in any context the xmit path runs in.
 */
bool inc_mark_frame(const struct sk_buff *skb, struct inc_mark *m);

#define INC_MARK_MIN_LEN	32

#endif /* INC_MARK_H */
