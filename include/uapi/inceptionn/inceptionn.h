/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The gradient socket option: an application marks its own TCP or UDP
 * socket (IPv4 or IPv6) as a gradient flow, and frames of that flow leave
 * through an inceptionn NIC with the gradient bytes compressed within the
 * error bound 2^-k (docs/socket-option.md).
 *
 *	struct inc_gradient g = { .enable = 1, .k = 10,
 *				  .mode = INC_GRAD_MODE_SPARSE };
 *	setsockopt(fd, IPPROTO_IP, INC_SO_GRADIENT, &g, sizeof(g));
 *
 * (IPPROTO_IPV6 for an IPv6 socket.) For TCP, exactly the bytes written
 * while the mark is on are gradient bytes, taken as consecutive float32
 * values from the first of them; for UDP, the datagrams sent while it is
 * on, each payload taken as float32 values from its first byte. Bytes
 * written with the mark off are never altered.
 */
#ifndef _UAPI_INCEPTIONN_INCEPTIONN_H
#define _UAPI_INCEPTIONN_INCEPTIONN_H

#include <linux/types.h>

/* at SOL_IP (IPPROTO_IP) and SOL_IPV6 (IPPROTO_IPV6) */
#define INC_SO_GRADIENT		0x4947	/* "IG" */

#define INC_GRAD_MODE_PAPER	1	/* the MICRO 2018 layout */
#define INC_GRAD_MODE_SPARSE	2	/* zero-group mask (docs/codec.md) */
#define INC_GRAD_MODE_WIDTH	3	/* per-group bit width (docs/codec.md 12) */

#define INC_GRAD_K_MIN		1
#define INC_GRAD_K_MAX		24

struct inc_gradient {
	__u32 enable;	/* 1: mark on, 0: off (k and mode then ignored) */
	__u32 k;	/* error bound 2^-k, INC_GRAD_K_MIN..INC_GRAD_K_MAX */
	__u32 mode;	/* INC_GRAD_MODE_* */
	__u32 flags;	/* 0 */
};

#endif /* _UAPI_INCEPTIONN_INCEPTIONN_H */
