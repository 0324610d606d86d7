// SPDX-License-Identifier: MIT
/*
 * The engine: runs one call's operations on every link of this rank, in
 * one thread, with non-blocking sockets and poll(). Each pass moves what
 * it can: writes the staged bytes of each link's current send operation
 * (staging the next one once its dependency is met: quantize, encode),
 * reads what has arrived into each link's read-ahead buffer, decodes it,
 * and applies completed receive operations (copy or sum) once theirs is.
 * So sending, receiving, reducing and the codec overlap slice by slice, as
 * in NCCL's ring, without a thread per peer; the kernel's socket buffers
 * keep the wire busy while this thread computes.
 *
 * Every call starts on each sending link with a header that the receiver
 * checks against its own (same collective, count, flags, root, call
 * number), so ranks that call different things fail with a message
 * instead of exchanging garbage. A peer that closes its connection, or
 * with which no byte moves for the timeout, fails the call, and the
 * communicator closes every link so the failure reaches all ranks.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "inc_mark_socket.h"
#include "inccl_int.h"

static const char *coll_name(unsigned int coll)
{
	switch (coll) {
	case INCCL_COLL_ALLREDUCE: return "allreduce";
	case INCCL_COLL_REDUCESCATTER: return "reducescatter";
	case INCCL_COLL_ALLGATHER: return "allgather";
	case INCCL_COLL_BROADCAST: return "broadcast";
	case INCCL_COLL_BARRIER: return "barrier";
	}
	return "?";
}

/*
 * Call header, 24 bytes little-endian: magic, call number, collective,
 * flags, k (0: exact), mode, root, reserved, count.
 */
void ic_call_hdr_pack(const struct call *call, uint32_t seq,
		      uint8_t out[INCCL_CALL_HDR_BYTES])
{
	memset(out, 0, INCCL_CALL_HDR_BYTES);
	ic_put32(out, INCCL_CALL_MAGIC);
	ic_put32(out + 4, seq);
	out[8] = call->coll;
	out[9] = call->flags;
	out[10] = (uint8_t)call->exact;
	ic_put16(out + 12, (uint16_t)call->root);
	ic_put64(out + 16, call->count);
}

static void hdr_describe(const uint8_t *h, char *buf, size_t len)
{
	snprintf(buf, len, "%s #%u (count %llu%s%s, root %u)",
		 coll_name(h[8]), ic_get32(h + 4),
		 (unsigned long long)ic_get64(h + 16),
		 h[9] & INCCL_AVG ? ", average" : "",
		 h[10] ? ", exact" : "", ic_get16(h + 12));
}

static int check_hdr(struct inccl_comm *c, struct inccl_link *l,
		     const struct call *call)
{
	const uint8_t *h = l->rxbuf + l->rx_rd;
	char mine[128], theirs[128];

	if (ic_get32(h) != INCCL_CALL_MAGIC)
		return ic_fail(c, INCCL_EPROTO,
			       "%s sent bytes that are not a call header at the start of %s #%u",
			       c->names[l->peer], coll_name(call->coll), c->seq);
	if (memcmp(h, call->hdr, INCCL_CALL_HDR_BYTES)) {
		hdr_describe(call->hdr, mine, sizeof(mine));
		hdr_describe(h, theirs, sizeof(theirs));
		return ic_fail(c, INCCL_EMISMATCH,
			       "rank %d called %s but %s called %s",
			       c->rank, mine, c->names[l->peer], theirs);
	}
	l->rx_rd += INCCL_CALL_HDR_BYTES;
	return 0;
}

static int dep_ok(const struct inccl_comm *c, const struct op *op)
{
	int i;

	for (i = 0; i < 2; i++) {
		const struct op_dep *d = &op->dep[i];

		if (d->link >= 0 && c->links[d->link].done[d->dir] <= d->idx)
			return 0;
	}
	return 1;
}

static int io_fail(struct inccl_comm *c, struct inccl_link *l,
		   const struct call *call, const char *dir, int e)
{
	return ic_fail(c, INCCL_EPEER, "%s %s in %s #%u: %s", c->names[l->peer],
		       dir, coll_name(call->coll), c->seq,
		       e ? strerror(e) : "it closed the connection (it exited or failed)");
}

/* the mark must be on exactly for the floats of GRID operations */
static int set_mark(struct inccl_comm *c, struct inccl_link *l, int on)
{
	int r;

	if (l->marked == on)
		return 0;
	r = inc_mark_socket(l->fd, on, c->cfg.k, c->cfg.mode);
	if (!r) {
		l->marked = on;
		return 0;
	}
	if (on && r == -ENOBUFS) {
		/* too many marked runs in flight: Q(x) goes unmarked,
		 * still the same values */
		c->st.mark_failures++;
		l->marks_this_call = 0;
		return 0;
	}
	return ic_fail(c, INCCL_ENOMARK, "setsockopt INC_SO_GRADIENT %s on the link to %s: %s",
		       on ? "on" : "off", c->names[l->peer], strerror(-r));
}

static int link_tx(struct inccl_comm *c, struct inccl_link *l,
		   const struct call *call, int *progress)
{
	while (l->hdr_out < INCCL_CALL_HDR_BYTES) {
		ssize_t n = send(l->fd, call->hdr + l->hdr_out,
				 INCCL_CALL_HDR_BYTES - (size_t)l->hdr_out,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR) {
				l->want_out = 1;
				return 0;
			}
			return io_fail(c, l, call, "cannot be sent to", errno);
		}
		l->hdr_out += (int)n;
		c->st.tx_bytes += (uint64_t)n;
		*progress = 1;
	}
	while (l->done[DIR_SEND] < l->sendq.n) {
		const struct op *op = &l->sendq.v[l->done[DIR_SEND]];

		if (!l->staged) {
			int r;

			if (!dep_ok(c, op))
				return 0;
			r = set_mark(c, l, l->marks_this_call &&
					    op->kind == OP_SEND_GRID);
			if (r)
				return r;
			r = ic_stage_send(c, l, call, op);
			if (r)
				return r;
			l->staged = 1;
			*progress = 1;
		}
		while (l->tx_left) {
			ssize_t n = send(l->fd, l->tx_ptr, l->tx_left,
					 MSG_DONTWAIT | MSG_NOSIGNAL);

			if (n < 0) {
				if (errno == EAGAIN || errno == EINTR) {
					l->want_out = 1;
					return 0;
				}
				return io_fail(c, l, call, "cannot be sent to", errno);
			}
			l->tx_ptr += n;
			l->tx_left -= (size_t)n;
			c->st.tx_bytes += (uint64_t)n;
			if (l->marked)
				c->st.tx_marked_bytes += (uint64_t)n;
			*progress = 1;
		}
		l->staged = 0;
		l->done[DIR_SEND]++;
	}
	return set_mark(c, l, 0);
}

static int link_read(struct inccl_comm *c, struct inccl_link *l,
		     const struct call *call, int *progress)
{
	ssize_t n;

	if (l->rx_rd == l->rx_wr) {
		l->rx_rd = l->rx_wr = 0;
	} else if (l->rx_wr == l->rxcap && l->rx_rd) {
		memmove(l->rxbuf, l->rxbuf + l->rx_rd, l->rx_wr - l->rx_rd);
		l->rx_wr -= l->rx_rd;
		l->rx_rd = 0;
	}
	if (l->rx_wr == l->rxcap)
		return ic_fail(c, INCCL_EPROTO, "%s: a chunk larger than the receive buffer",
			       c->names[l->peer]);
	n = recv(l->fd, l->rxbuf + l->rx_wr, l->rxcap - l->rx_wr, MSG_DONTWAIT);
	if (n > 0) {
		l->rx_wr += (size_t)n;
		c->st.rx_bytes += (uint64_t)n;
		*progress = 1;
		return 1;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		l->want_in = 1;
		return 0;
	}
	return io_fail(c, l, call, "cannot be read from", n ? errno : 0);
}

/* a chunk record may straddle the end of the buffer: make room for one */
static void rx_make_room(struct inccl_link *l)
{
	if (l->rx_rd && l->rxcap - l->rx_rd < 16384) {
		memmove(l->rxbuf, l->rxbuf + l->rx_rd, l->rx_wr - l->rx_rd);
		l->rx_wr -= l->rx_rd;
		l->rx_rd = 0;
	}
}

static int link_rx(struct inccl_comm *c, struct inccl_link *l,
		   const struct call *call, int *progress)
{
	for (;;) {
		int r;

		if (!l->hdr_in) {
			if (l->rx_wr - l->rx_rd >= INCCL_CALL_HDR_BYTES) {
				r = check_hdr(c, l, call);
				if (r)
					return r;
				l->hdr_in = 1;
				*progress = 1;
				continue;
			}
		} else if (l->done[DIR_RECV] < l->recvq.n) {
			const struct op *op = &l->recvq.v[l->done[DIR_RECV]];

			if (!l->rx_ready) {
				size_t before = l->rx_got;

				r = ic_recv_fill(c, l, call, op);
				if (r)
					return r;
				if (l->rx_got != before)
					*progress = 1;
				if (l->rx_got == 4 * (size_t)op->n)
					l->rx_ready = 1;
			}
			if (l->rx_ready) {
				if (!dep_ok(c, op))
					return 0;
				ic_apply(c, l, call, op);
				l->rx_ready = 0;
				l->rx_got = 0;
				l->done[DIR_RECV]++;
				*progress = 1;
				continue;
			}
			rx_make_room(l);
		} else {
			return 0;	/* this call's data is all in */
		}
		r = link_read(c, l, call, progress);
		if (r <= 0)
			return r;
	}
}

static int link_done(const struct inccl_link *l)
{
	if (l->tx && (l->hdr_out < INCCL_CALL_HDR_BYTES ||
		      l->done[DIR_SEND] < l->sendq.n || l->marked))
		return 0;
	if (l->rx && (!l->hdr_in || l->done[DIR_RECV] < l->recvq.n))
		return 0;
	return 1;
}

static int stalled(struct inccl_comm *c, const struct call *call)
{
	char waits[256] = "";
	size_t w = 0;
	int i;

	for (i = 0; i < c->nlinks && w < sizeof(waits) - 80; i++) {
		const struct inccl_link *l = &c->links[i];

		if (l->want_in)
			w += (size_t)snprintf(waits + w, sizeof(waits) - w,
					      "%sdata from %s", w ? ", " : "",
					      c->names[l->peer]);
		if (l->want_out)
			w += (size_t)snprintf(waits + w, sizeof(waits) - w,
					      "%sroom to send to %s", w ? ", " : "",
					      c->names[l->peer]);
	}
	return ic_fail(c, INCCL_ETIMEDOUT,
		       "rank %d: nothing moved for %.1f s in %s #%u; waiting for %s",
		       c->rank, c->cfg.timeout_ms / 1000.0, coll_name(call->coll),
		       c->seq, waits);
}

int ic_run(struct inccl_comm *c, struct call *call)
{
	struct pollfd pfd[INCCL_WORLD_MAX];
	int i, r, nmark = c->cfg.transport == INCCL_NIC && !call->exact;
	double deadline;

	ic_call_hdr_pack(call, c->seq, call->hdr);
	for (i = 0; i < c->nlinks; i++) {
		struct inccl_link *l = &c->links[i];

		l->done[0] = l->done[1] = 0;
		l->hdr_out = l->tx ? 0 : INCCL_CALL_HDR_BYTES;
		l->hdr_in = !l->rx;
		l->staged = 0;
		l->rx_got = 0;
		l->rx_ready = 0;
		l->marks_this_call = nmark;
	}
	deadline = ic_now() + c->cfg.timeout_ms / 1000.0;
	for (;;) {
		int progress = 0, done = 1, np = 0;

		for (i = 0; i < c->nlinks; i++) {
			struct inccl_link *l = &c->links[i];

			l->want_in = l->want_out = 0;
			if (l->tx) {
				r = link_tx(c, l, call, &progress);
				if (r)
					return r;
			}
			if (l->rx) {
				r = link_rx(c, l, call, &progress);
				if (r)
					return r;
			}
			done &= link_done(l);
		}
		if (done)
			return 0;
		if (progress) {
			deadline = ic_now() + c->cfg.timeout_ms / 1000.0;
			continue;
		}
		for (i = 0; i < c->nlinks; i++) {
			struct inccl_link *l = &c->links[i];
			short ev = (short)((l->want_in ? POLLIN : 0) |
					   (l->want_out ? POLLOUT : 0));

			if (ev) {
				pfd[np].fd = l->fd;
				pfd[np].events = ev;
				np++;
			}
		}
		if (!np)
			return ic_fail(c, INCCL_EPROTO,
				       "rank %d: %s #%u cannot progress (internal schedule error)",
				       c->rank, coll_name(call->coll), c->seq);
		for (;;) {
			double left = deadline - ic_now();

			if (left <= 0)
				return stalled(c, call);
			r = poll(pfd, (nfds_t)np, (int)(left * 1000) + 1);
			if (r > 0)
				break;
			if (r < 0 && errno != EINTR)
				return ic_fail(c, INCCL_ESYS, "poll: %s", strerror(errno));
		}
	}
}
