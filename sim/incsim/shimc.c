// SPDX-License-Identifier: MIT
/*
 * The QEMU side of the virtual PCIe shim, for host-side benchmarks.
 */
#define _GNU_SOURCE
#include "shimc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <inceptionn/incsim.h>

static int recv_msg(int sock, int64_t *val, int *fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	unsigned char le[8];
	struct iovec iov = { .iov_base = le, .iov_len = sizeof(le) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *h;
	uint64_t v = 0;
	int i;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(le))
		return -1;
	for (i = 0; i < 8; i++)
		v |= (uint64_t)le[i] << (8 * i);
	*val = (int64_t)v;
	*fd = -1;
	h = CMSG_FIRSTHDR(&m);
	if (h && h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(h), sizeof(int));
	return 0;
}

static _Atomic uint32_t *u32(const struct shimc *c, unsigned int off)
{
	return (_Atomic uint32_t *)(c->bar2 + off);
}

int shimc_open(struct shimc *c, const char *ivshmem, const char *ram,
	       char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int64_t want[7] = { 0, 1, -1, 0, 0, 1, 1 }, v;
	struct stat st;
	int i, fd = -1;

	memset(c, 0, sizeof(*c));
	c->sock = -1;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", ivshmem);
	c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->sock < 0 ||
	    connect(c->sock, (struct sockaddr *)&a, sizeof(a)) < 0) {
		snprintf(err, errlen, "connect %s: %s", ivshmem,
			 strerror(errno));
		goto fail;
	}
	for (i = 0; i < 7; i++) {
		fd = -1;
		if (recv_msg(c->sock, &v, &fd) < 0 || v != want[i] ||
		    (i >= 2) != (fd >= 0)) {
			snprintf(err, errlen, "bad ivshmem handshake message %d",
				 i);
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		if (fd >= 0)
			c->fds[c->nfds++] = fd;
	}
	if (fstat(c->fds[0], &st) < 0)
		goto sys;
	c->bar2_size = (size_t)st.st_size;
	c->bar2 = mmap(NULL, c->bar2_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       c->fds[0], 0);
	if (c->bar2 == MAP_FAILED) {
		c->bar2 = NULL;
		goto sys;
	}
	c->doorbell = c->fds[1];
	c->vec[0] = c->fds[3];
	c->vec[1] = c->fds[4];
	c->entries = atomic_load(u32(c, INCSIM_OFF_ENTRIES));
	c->prod = atomic_load(u32(c, INCSIM_OFF_PROD));
	fd = open(ram, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		goto sys;
	}
	c->ram_size = (size_t)st.st_size;
	c->ram = mmap(NULL, c->ram_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	close(fd);
	if (c->ram == MAP_FAILED) {
		c->ram = NULL;
		goto sys;
	}
	return 0;
sys:
	snprintf(err, errlen, "%s", strerror(errno));
fail:
	shimc_close(c);
	return -1;
}

void shimc_close(struct shimc *c)
{
	int i;

	if (c->bar2)
		munmap(c->bar2, c->bar2_size);
	if (c->ram)
		munmap(c->ram, c->ram_size);
	for (i = 0; i < c->nfds; i++)
		close(c->fds[i]);
	if (c->sock >= 0)
		close(c->sock);
	memset(c, 0, sizeof(*c));
	c->sock = -1;
}

static uint32_t post(struct shimc *c, uint32_t op, uint32_t addr,
		     uint32_t val)
{
	volatile struct incsim_cmd *e;
	uint64_t one = 1;
	uint32_t idx;

	while (c->prod - atomic_load_explicit(u32(c, INCSIM_OFF_CONS),
					      memory_order_acquire) >= c->entries)
		sched_yield();
	idx = c->prod;
	e = (volatile struct incsim_cmd *)(c->bar2 + INCSIM_OFF_RING) +
	    idx % c->entries;
	e->op = op;
	e->addr = addr;
	e->value = val;
	c->prod++;
	atomic_store_explicit(u32(c, INCSIM_OFF_PROD), c->prod,
			      memory_order_release);
	if (write(c->doorbell, &one, sizeof(one)) != sizeof(one))
		return idx;
	return idx;
}

void shimc_write(struct shimc *c, uint32_t addr, uint32_t val)
{
	post(c, INCSIM_OP_WRITE, addr, val);
}

uint32_t shimc_read(struct shimc *c, uint32_t addr)
{
	uint32_t idx = post(c, INCSIM_OP_READ, addr, 0);
	struct timespec t0, t;
	unsigned int spins = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((int32_t)(atomic_load_explicit(u32(c, INCSIM_OFF_CONS),
					      memory_order_acquire) - idx) <= 0) {
		if (++spins % 1024)
			continue;
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10)
			return 0xffffffffu;
	}
	return ((volatile struct incsim_cmd *)(c->bar2 + INCSIM_OFF_RING))
		[idx % c->entries].value;
}

unsigned int shimc_wait_irq(struct shimc *c, int timeout_ms)
{
	struct pollfd p[2] = {
		{ .fd = c->vec[0], .events = POLLIN },
		{ .fd = c->vec[1], .events = POLLIN },
	};
	unsigned int fired = 0;
	uint64_t v;
	int i;

	if (poll(p, 2, timeout_ms) <= 0)
		return 0;
	for (i = 0; i < 2; i++)
		if (p[i].revents && read(c->vec[i], &v, sizeof(v)) == sizeof(v))
			fired |= 1u << i;
	return fired;
}

uint64_t shimc_clocks(const struct shimc *c)
{
	return atomic_load_explicit((_Atomic uint64_t *)(c->bar2 +
							 INCSIM_OFF_CLOCKS),
				    memory_order_relaxed);
}
