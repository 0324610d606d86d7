// SPDX-License-Identifier: MIT
/*
 * ivshmem server (QEMU's docs/specs/ivshmem-spec.rst, "the server"):
 * on a connection, send 8-byte little-endian integers, each with at most
 * one file descriptor, in the order docs/sim.md lists.
 */
#define _GNU_SOURCE
#include "ivshmem.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define IVS_SERVER_ID	0	/* incsim, as a peer */
#define IVS_CLIENT_ID	1	/* QEMU */

static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int make_listener(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(a.sun_path)) {
		say(err, errlen, "socket path too long: %s", path);
		return -1;
	}
	strcpy(a.sun_path, path);
	/* a socket left behind by an earlier run; never remove anything else */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			say(err, errlen, "%s exists and is not a socket", path);
			return -1;
		}
		unlink(path);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		say(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 4) < 0) {
		say(err, errlen, "listen on %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int ivs_open(struct ivs *s, const char *path, unsigned int vectors,
	     size_t bar2_size, char *err, size_t errlen)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->listen_fd = s->conn_fd = s->shm_fd = -1;
	s->vectors = vectors;
	s->bar2_size = bar2_size;
	s->doorbell = malloc(vectors * sizeof(int));
	s->irq = malloc(vectors * sizeof(int));
	s->path = strdup(path);
	if (!s->doorbell || !s->irq || !s->path) {
		say(err, errlen, "out of memory");
		goto fail;
	}
	for (i = 0; i < vectors; i++)
		s->doorbell[i] = s->irq[i] = -1;
	for (i = 0; i < vectors; i++) {
		s->doorbell[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		s->irq[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (s->doorbell[i] < 0 || s->irq[i] < 0) {
			say(err, errlen, "eventfd: %s", strerror(errno));
			goto fail;
		}
	}
	s->shm_fd = memfd_create("incsim-bar2", MFD_CLOEXEC);
	if (s->shm_fd < 0 || ftruncate(s->shm_fd, (off_t)bar2_size) < 0) {
		say(err, errlen, "BAR2 memfd: %s", strerror(errno));
		goto fail;
	}
	s->bar2 = mmap(NULL, bar2_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       s->shm_fd, 0);
	if (s->bar2 == MAP_FAILED) {
		s->bar2 = NULL;
		say(err, errlen, "BAR2 mmap: %s", strerror(errno));
		goto fail;
	}
	s->listen_fd = make_listener(path, err, errlen);
	if (s->listen_fd < 0)
		goto fail;
	return 0;
fail:
	ivs_close(s);
	return -1;
}

void ivs_close(struct ivs *s)
{
	unsigned int i;

	if (s->conn_fd >= 0)
		close(s->conn_fd);
	if (s->listen_fd >= 0) {
		close(s->listen_fd);
		unlink(s->path);
	}
	for (i = 0; s->doorbell && i < s->vectors; i++) {
		if (s->doorbell[i] >= 0)
			close(s->doorbell[i]);
		if (s->irq[i] >= 0)
			close(s->irq[i]);
	}
	if (s->bar2)
		munmap(s->bar2, s->bar2_size);
	if (s->shm_fd >= 0)
		close(s->shm_fd);
	free(s->doorbell);
	free(s->irq);
	free(s->path);
	memset(s, 0, sizeof(*s));
	s->listen_fd = s->conn_fd = s->shm_fd = -1;
}

/* One message: a little-endian int64 and optionally one descriptor. */
static int send_msg(int sock, int64_t val, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	unsigned char le[8];
	struct iovec iov = { .iov_base = le, .iov_len = sizeof(le) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;
	int i;

	for (i = 0; i < 8; i++)
		le[i] = (unsigned char)((uint64_t)val >> (8 * i));
	if (fd >= 0) {
		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.buf;
		m.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(le) ? 0 : -1;
}

int ivs_accept(struct ivs *s, char *err, size_t errlen)
{
	unsigned int i;
	int fd;

	fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EAGAIN || errno == EINTR ||
		    errno == ECONNABORTED) {
			say(err, errlen, "");
			return 0;
		}
		say(err, errlen, "accept: %s", strerror(errno));
		return -1;
	}
	if (s->conn_fd >= 0) {
		close(fd);
		say(err, errlen, "a second QEMU connected: refused (one device, one QEMU)");
		return 0;
	}
	/* The handshake is small: blocking sends, QEMU reads it at once. */
	if (send_msg(fd, 0, -1) < 0 ||			/* protocol version */
	    send_msg(fd, IVS_CLIENT_ID, -1) < 0 ||	/* your id */
	    send_msg(fd, -1, s->shm_fd) < 0)		/* the shared memory */
		goto lost;
	for (i = 0; i < s->vectors; i++)		/* ring these to reach me */
		if (send_msg(fd, IVS_SERVER_ID, s->doorbell[i]) < 0)
			goto lost;
	for (i = 0; i < s->vectors; i++)		/* your own vectors */
		if (send_msg(fd, IVS_CLIENT_ID, s->irq[i]) < 0)
			goto lost;
	s->conn_fd = fd;
	return 1;
lost:
	say(err, errlen, "handshake with QEMU failed: %s", strerror(errno));
	close(fd);
	return 0;
}

uint64_t ivs_drain_doorbells(struct ivs *s)
{
	uint64_t total = 0, v;
	unsigned int i;

	for (i = 0; i < s->vectors; i++)
		while (read(s->doorbell[i], &v, sizeof(v)) == sizeof(v))
			total += v;
	return total;
}

int ivs_raise(struct ivs *s, unsigned int v)
{
	uint64_t one = 1;

	if (v >= s->vectors)
		return -1;
	/* every DMA write before this interrupt is in guest memory first */
	atomic_thread_fence(memory_order_release);
	return write(s->irq[v], &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}
