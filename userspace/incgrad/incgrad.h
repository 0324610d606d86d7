/* SPDX-License-Identifier: MIT */
/*
 * incgrad: an iperf3-like gradient transfer tool. The client sends a
 * float32 file over a TCP or UDP socket marked with INC_SO_GRADIENT, each
 * message behind a small exact header; the server checks every header,
 * reassembles the floats and verifies them (PROTOCOL.md).
 */
#ifndef INCGRAD_H
#define INCGRAD_H

#include <stdint.h>

#include "proto.h"

/* exit status of every subcommand */
#define IG_EXIT_OK	0	/* transfer verified / passed */
#define IG_EXIT_FAIL	1	/* verification failed */
#define IG_EXIT_USAGE	2	/* bad command line */
#define IG_EXIT_ERROR	3	/* file, network or protocol error */

enum ig_mark_policy {
	IG_MARK_TRY = 0,	/* mark; if the kernel lacks it, send unmarked */
	IG_MARK_REQUIRE,	/* --mark: fail if the kernel lacks it */
	IG_MARK_NEVER,		/* --no-mark */
	IG_MARK_EMULATE,	/* --emulate-nic: software codec, unmarked */
};

struct ig_client_opts {
	const char *host;
	const char *file;
	unsigned int port;
	int family;		/* AF_UNSPEC, AF_INET, AF_INET6 */
	int udp;
	unsigned int k;
	unsigned int mode;	/* IG_MODE_PAPER or IG_MODE_SPARSE */
	enum ig_mark_policy mark;
	uint32_t msg;		/* payload bytes per message, 0: default */
	int mtu;		/* UDP: 0 default (1500), -1 auto */
	uint64_t rate;		/* UDP pacing, bit/s; 0 unlimited */
	uint32_t repeat;
	int json;
	int timeout_ms;
	/* test aids (PROTOCOL.md, "Test aids") */
	uint32_t test_drop;	/* UDP: do not send every Nth datagram */
	uint32_t test_mispair;	/* UDP: every Nth payload and the next header */
	int test_swap;		/* UDP: send messages in swapped pairs */
	uint32_t test_corrupt;	/* flip a bit in every Nth message's payload */
	uint64_t test_stop;	/* 1 + messages to send before quitting */
	int test_late_ms;	/* UDP: the last message this long after the end */
};

struct ig_server_opts {
	const char *bind;
	unsigned int port;
	int family;
	int udp;
	int once;
	const char *verify;	/* the original file, or NULL */
	const char *save;	/* write the last received round here */
	int json;
	int timeout_ms;
	uint64_t max_bytes;
	int allow_loss;
	int udp_wait_ms;
};

int ig_client(const struct ig_client_opts *o);
int ig_server(const struct ig_server_opts *o);

static inline const char *ig_mode_str(unsigned int mode)
{
	return mode == IG_MODE_PAPER ? "paper" :
	       mode == IG_MODE_SPARSE ? "sparse" :
	       mode == IG_MODE_WIDTH ? "width" : "?";
}

#endif
