// SPDX-License-Identifier: MIT
/*
 * The link socket: accept or connect, frame, queue, and survive the peer
 * going away (docs/sim.md, "The link protocol" and "Faults").
 */
#define _GNU_SOURCE
#include "link.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define LINK_IN_CAP	(4 + LINK_MAX_FRAME)
#define LINK_OUT_MAX	(8u << 20)	/* queued bytes before frames drop */

static int set_addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(a->sun_path))
		return -1;
	strcpy(a->sun_path, path);
	return 0;
}

int link_open(struct link *l, const char *path, int connect_mode,
	      void (*msg)(void *ctx, const char *fmt, ...), void *ctx,
	      char *err, size_t errlen)
{
	struct sockaddr_un a;
	struct stat st;

	memset(l, 0, sizeof(*l));
	l->listen_fd = l->fd = -1;
	l->connect_mode = connect_mode;
	l->msg = msg;
	l->msg_ctx = ctx;
	l->path = strdup(path);
	l->in = malloc(LINK_IN_CAP);
	if (!l->path || !l->in) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (set_addr(&a, path) < 0) {
		snprintf(err, errlen, "link socket path too long: %s", path);
		goto fail;
	}
	if (connect_mode)
		return 0;	/* the first attempt is link_service's */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "%s exists and is not a socket",
				 path);
			goto fail;
		}
		unlink(path);
	}
	l->listen_fd = socket(AF_UNIX,
			      SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (l->listen_fd < 0 ||
	    bind(l->listen_fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(l->listen_fd, 4) < 0) {
		snprintf(err, errlen, "listen on %s: %s", path,
			 strerror(errno));
		goto fail;
	}
	return 0;
fail:
	link_close(l);
	return -1;
}

static void drop_peer(struct link *l, const char *why)
{
	if (l->fd < 0)
		return;
	l->msg(l->msg_ctx, "link: %s; link down", why);
	close(l->fd);
	l->fd = -1;
	l->in_len = 0;
	l->out_head = l->out_len = 0;
	l->st.disconnects++;
}

void link_close(struct link *l)
{
	if (l->fd >= 0)
		close(l->fd);
	if (l->listen_fd >= 0) {
		close(l->listen_fd);
		unlink(l->path);
	}
	free(l->path);
	free(l->in);
	free(l->out);
	memset(l, 0, sizeof(*l));
	l->listen_fd = l->fd = -1;
}

int link_up(const struct link *l)
{
	return l->fd >= 0;
}

int link_pollfds(const struct link *l, int want_rx, struct pollfd *p,
		 int64_t now_ms, int *timeout_ms)
{
	int n = 0;

	if (l->listen_fd >= 0)
		p[n++] = (struct pollfd){ .fd = l->listen_fd, .events = POLLIN };
	if (l->fd >= 0) {
		short ev = 0;

		if (want_rx)
			ev |= POLLIN;
		if (l->out_len)
			ev |= POLLOUT;
		/* hang-ups are reported whatever the events */
		p[n++] = (struct pollfd){ .fd = l->fd, .events = ev };
	} else if (l->connect_mode) {
		int64_t wait = l->retry_at_ms - now_ms;

		if (wait < 0)
			wait = 0;
		if (*timeout_ms < 0 || wait < *timeout_ms)
			*timeout_ms = (int)wait;
	}
	return n;
}

static void try_accept(struct link *l)
{
	int fd = accept4(l->listen_fd, NULL, NULL,
			 SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (l->fd >= 0) {
		l->msg(l->msg_ctx, "link: a second peer connected: refused");
		close(fd);
		return;
	}
	l->fd = fd;
	l->st.connects++;
	l->msg(l->msg_ctx, "link: peer connected; link up");
}

static int fcntl_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void try_connect(struct link *l, int64_t now_ms)
{
	struct sockaddr_un a;
	int fd;

	if (now_ms < l->retry_at_ms)
		return;
	l->retry_at_ms = now_ms + LINK_RETRY_MS;
	set_addr(&a, l->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	/* blocking connect: a UNIX socket answers at once */
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return;
	}
	if (fcntl_nonblock(fd) < 0) {
		close(fd);
		return;
	}
	l->fd = fd;
	l->st.connects++;
	l->msg(l->msg_ctx, "link: connected to %s; link up", l->path);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Read what the socket has (up to one frame at a time) and hand whole
 * frames to rx while more() says the NIC takes them. */
static void do_read(struct link *l,
		    void (*rx)(void *ctx, const uint8_t *f, size_t len),
		    int (*more)(void *ctx), void *ctx)
{
	while (l->fd >= 0 && more(ctx)) {
		size_t want = 4;
		uint32_t len = 0;
		ssize_t n;

		if (l->in_len >= 4) {
			len = be32(l->in);
			if (len == 0 || len > LINK_MAX_FRAME) {
				char why[80];

				snprintf(why, sizeof(why),
					 "malformed message (length %u); connection closed",
					 len);
				l->st.malformed++;
				drop_peer(l, why);
				return;
			}
			want = 4 + (size_t)len;
		}
		if (l->in_len == want) {
			l->st.rx_frames++;
			l->st.rx_bytes += len;
			rx(ctx, l->in + 4, len);
			l->in_len = 0;
			continue;
		}
		n = read(l->fd, l->in + l->in_len, want - l->in_len);
		if (n > 0) {
			l->in_len += (size_t)n;
		} else if (n == 0) {
			drop_peer(l, "peer went away");
		} else if (errno != EAGAIN && errno != EINTR) {
			char why[80];

			snprintf(why, sizeof(why), "read: %s", strerror(errno));
			drop_peer(l, why);
		} else {
			return;
		}
	}
}

static void do_write(struct link *l)
{
	while (l->fd >= 0 && l->out_len) {
		ssize_t n = send(l->fd, l->out + l->out_head, l->out_len,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			l->out_head += (size_t)n;
			l->out_len -= (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			return;
		} else {
			char why[80];

			snprintf(why, sizeof(why), "write: %s",
				 n < 0 ? strerror(errno) : "closed");
			drop_peer(l, why);
		}
	}
	l->out_head = 0;
}

void link_service(struct link *l, int64_t now_ms,
		  void (*rx)(void *ctx, const uint8_t *f, size_t len),
		  int (*more)(void *ctx), void *ctx)
{
	if (l->listen_fd >= 0)
		try_accept(l);
	else if (l->fd < 0)
		try_connect(l, now_ms);
	do_read(l, rx, more, ctx);
	do_write(l);
}

size_t link_queued(const struct link *l)
{
	return l->out_len;
}

void link_flush(struct link *l)
{
	do_write(l);
}

void link_send(struct link *l, const uint8_t *f, size_t len)
{
	size_t need;

	if (l->fd < 0) {
		l->st.tx_dropped_down++;
		return;
	}
	if (len == 0 || len > LINK_MAX_FRAME ||
	    l->out_len + 4 + len > LINK_OUT_MAX) {
		l->st.tx_dropped_full++;
		return;
	}
	if (l->out_head) {	/* compact: what is left moves to the front */
		memmove(l->out, l->out + l->out_head, l->out_len);
		l->out_head = 0;
	}
	need = l->out_len + 4 + len;
	if (need > l->out_cap) {
		size_t cap = l->out_cap ? l->out_cap : 65536;
		uint8_t *p;

		while (cap < need)
			cap *= 2;
		p = realloc(l->out, cap);
		if (!p) {
			l->st.tx_dropped_full++;
			return;
		}
		l->out = p;
		l->out_cap = cap;
	}
	l->out[l->out_len + 0] = (uint8_t)(len >> 24);
	l->out[l->out_len + 1] = (uint8_t)(len >> 16);
	l->out[l->out_len + 2] = (uint8_t)(len >> 8);
	l->out[l->out_len + 3] = (uint8_t)len;
	memcpy(l->out + l->out_len + 4, f, len);
	l->out_len += 4 + len;
	l->st.tx_frames++;
	l->st.tx_bytes += len;
}
