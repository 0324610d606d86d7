/* SPDX-License-Identifier: MIT */
/*
 * Builds Ethernet frames of every kind the NIC meets, with correct
 * checksums computed independently of userspace/wire, and checks them.
 */
#ifndef INC_TEST_FRAMES_H
#define INC_TEST_FRAMES_H

#include <stddef.h>
#include <stdint.h>

struct fspec {
	int vlans;		/* 0..2 */
	int ipv;		/* 4, 6, or 0 for a non-IP frame */
	int proto;		/* 6 TCP, 17 UDP, or another IP protocol */
	int tcp_opts;		/* TCP option bytes, multiple of 4, <= 40 */
	int ip4_opts;		/* IPv4 option bytes, multiple of 4, <= 40 */
	int fragment;		/* IPv4: set MF */
	int udp_nocsum;		/* IPv4 UDP: checksum 0 */
	size_t trailer;		/* zero bytes after the IP packet */
};

/* Headers + payload + trailer into out; returns the frame length. The L4
 * payload is pay_len bytes from pay. */
size_t frame_build(const struct fspec *s, const uint8_t *pay, size_t pay_len,
		   uint8_t *out);
/* Offset of the L4 payload in a frame built from s. */
size_t frame_payload_off(const struct fspec *s);
/* 1 if the IPv4 header checksum (if any) and the TCP/UDP checksum (if any)
 * of frame f are right; ignores non-IP frames. */
int frame_csums_ok(const uint8_t *f, size_t len);

#endif
