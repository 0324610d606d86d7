/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet link of a simulated NIC: a UNIX stream socket carrying
 * frames as QEMU's -netdev stream does (a 4-byte big-endian length, then
 * the frame), so the peer is another incsim or a QEMU guest's NIC.
 *
 * One side listens (and accepts a new peer when the old one goes away),
 * the other connects (and retries every second until it succeeds).
 */
#ifndef INCSIM_LINK_H
#define INCSIM_LINK_H

#include <stddef.h>
#include <stdint.h>
#include <poll.h>

#define LINK_MAX_FRAME	65535
#define LINK_RETRY_MS	1000

struct link_stats {
	uint64_t tx_frames, tx_bytes, rx_frames, rx_bytes;
	uint64_t tx_dropped_down;	/* sent with no peer */
	uint64_t tx_dropped_full;	/* the peer did not keep up */
	uint64_t malformed;		/* bad lengths: connection closed */
	uint64_t connects, disconnects;
};

struct link {
	int listen_fd;		/* --link-listen, or -1 */
	int fd;			/* the peer, or -1 */
	char *path;
	int connect_mode;
	int64_t retry_at_ms;	/* connect mode: next attempt */
	/* received bytes not yet a whole frame */
	uint8_t *in;
	size_t in_len;
	/* bytes waiting to go out */
	uint8_t *out;
	size_t out_head, out_len, out_cap;
	void (*msg)(void *ctx, const char *fmt, ...);
	void *msg_ctx;
	struct link_stats st;
};

/* Listen on (connect == 0) or connect to (connect == 1) path. 0, or -1
 * with a message in err. */
int link_open(struct link *l, const char *path, int connect,
	      void (*msg)(void *ctx, const char *fmt, ...), void *ctx,
	      char *err, size_t errlen);
void link_close(struct link *l);
int link_up(const struct link *l);
/* Fill up to two pollfds with what the link waits for and return how
 * many; *timeout_ms is lowered to the next reconnect attempt. want_rx: the
 * NIC can take frames now (else the peer's frames wait in the socket). */
int link_pollfds(const struct link *l, int want_rx, struct pollfd *p,
		 int64_t now_ms, int *timeout_ms);
/* Do what is possible now: accept, connect, read, write. For each whole
 * frame received, call rx(ctx, frame, len) while want_rx allows (it is
 * re-checked through more()). */
void link_service(struct link *l, int64_t now_ms,
		  void (*rx)(void *ctx, const uint8_t *f, size_t len),
		  int (*more)(void *ctx), void *ctx);
/* Queue a frame; dropped (and counted) with no peer or a full queue. */
void link_send(struct link *l, const uint8_t *f, size_t len);
/* Bytes queued for the peer. */
size_t link_queued(const struct link *l);
/* Write what the socket takes now. */
void link_flush(struct link *l);

#endif
