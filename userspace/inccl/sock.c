// SPDX-License-Identifier: MIT
/*
 * Sockets for inccl: addresses, listening, connecting with retries,
 * whole reads and writes under a deadline (used while joining; calls run
 * non-blocking in engine.c), and the gradient mark.
 */
#define _GNU_SOURCE	/* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "inccl_int.h"
#include "inceptionn/inceptionn.h"

double ic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t ic_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* "host:port" or "[v6addr]:port" */
int ic_parse_hostport(const char *s, char *host, size_t hlen,
		      unsigned int *port)
{
	const char *colon, *h = s;
	size_t len;
	char *end;
	unsigned long p;

	if (*s == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || rb[1] != ':')
			return -1;
		h = s + 1;
		len = (size_t)(rb - h);
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || memchr(s, ':', (size_t)(colon - s)))
			return -1;
		len = (size_t)(colon - s);
	}
	if (!len || len >= hlen)
		return -1;
	memcpy(host, h, len);
	host[len] = 0;
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (errno || *end || colon[1] < '0' || colon[1] > '9' || !p ||
	    p > 65535)
		return -1;
	*port = (unsigned int)p;
	return 0;
}

int ic_resolve(const char *host, unsigned int port, int passive,
	       struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { 0 }, *ai;
	char ps[16];
	int r;

	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	snprintf(ps, sizeof(ps), "%u", port);
	r = getaddrinfo(host, ps, &hints, &ai);
	if (r)
		return ic_err(INCCL_EINVAL, "cannot resolve %s: %s", host,
			      gai_strerror(r));
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	if (len)
		*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

/* the first IPv4 address of ifname, else its first IPv6 one */
int ic_ifaddr(const char *ifname, struct sockaddr_storage *ss)
{
	struct ifaddrs *ifa, *i;
	int found = 0;

	if (getifaddrs(&ifa))
		return ic_err(INCCL_ESYS, "getifaddrs: %s", strerror(errno));
	for (int fam = AF_INET; fam && !found;
	     fam = fam == AF_INET ? AF_INET6 : 0) {
		for (i = ifa; i; i = i->ifa_next) {
			if (!i->ifa_addr || strcmp(i->ifa_name, ifname) ||
			    i->ifa_addr->sa_family != fam)
				continue;
			memset(ss, 0, sizeof(*ss));
			memcpy(ss, i->ifa_addr, fam == AF_INET ?
			       sizeof(struct sockaddr_in) :
			       sizeof(struct sockaddr_in6));
			found = 1;
			break;
		}
	}
	freeifaddrs(ifa);
	if (!found)
		return ic_err(INCCL_EINVAL, "interface %s: %s", ifname,
			      if_nametoindex(ifname) ? "has no IP address" :
			      "no such interface");
	return 0;
}

socklen_t ic_sslen(const struct sockaddr_storage *ss)
{
	return ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	       sizeof(struct sockaddr_in);
}

unsigned int ic_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

void ic_set_port(struct sockaddr_storage *ss, unsigned int port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
}

void ic_addr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)ss)->sin6_addr,
			  a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ic_port(ss));
	} else {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)ss)->sin_addr,
			  a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ic_port(ss));
	}
}

int ic_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int ic_tune(int fd)
{
	int one = 1;

	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int ic_listen(const struct sockaddr_storage *ss, int reuse)
{
	char a[80];
	int fd, one = 1;

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ic_err(INCCL_ESYS, "socket: %s", strerror(errno));
	if (reuse)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, ic_sslen(ss)) ||
	    listen(fd, INCCL_WORLD_MAX + 8) || ic_nonblock(fd)) {
		int e = errno;

		close(fd);
		ic_addr_str(ss, a, sizeof(a));
		return ic_err(INCCL_ESYS, "cannot listen on %s: %s", a,
			      strerror(e));
	}
	return fd;
}

static int wait_fd(int fd, short ev, double deadline)
{
	struct pollfd p = { .fd = fd, .events = ev };
	double left = deadline - ic_now();
	int r;

	if (left <= 0)
		return 0;
	do
		r = poll(&p, 1, (int)(left * 1000) + 1);
	while (r < 0 && errno == EINTR);
	return r;
}

/* connect, retrying while the peer does not listen yet */
int ic_connect_retry(const struct sockaddr_storage *ss, double deadline,
		     const char *what)
{
	char a[80];
	int last = 0;

	ic_addr_str(ss, a, sizeof(a));
	for (;;) {
		int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int r, e = 0;
		socklen_t el = sizeof(e);

		if (fd < 0)
			return ic_err(INCCL_ESYS, "socket: %s", strerror(errno));
		ic_nonblock(fd);
		r = connect(fd, (const struct sockaddr *)ss, ic_sslen(ss));
		if (r && errno == EINPROGRESS) {
			if (wait_fd(fd, POLLOUT, deadline) <= 0) {
				close(fd);
				return ic_err(INCCL_ETIMEDOUT, "%s (%s): connect timed out",
					      what, a);
			}
			getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el);
			r = e ? -1 : 0;
			errno = e;
		}
		if (!r) {
			ic_tune(fd);
			return fd;
		}
		last = errno;
		close(fd);
		if (last != ECONNREFUSED && last != ECONNRESET &&
		    last != ETIMEDOUT && last != EHOSTUNREACH &&
		    last != ENETUNREACH)
			return ic_err(INCCL_ESYS, "%s (%s): connect: %s", what, a,
				      strerror(last));
		if (ic_now() + 0.05 >= deadline)
			return ic_err(INCCL_ETIMEDOUT, "%s (%s): nobody listens there within the timeout (%s)",
				      what, a, strerror(last));
		usleep(50000);
	}
}

int ic_accept(int lfd, double deadline, const char *what)
{
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd >= 0) {
			ic_tune(fd);
			return fd;
		}
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			return ic_err(INCCL_ESYS, "%s: accept: %s", what,
				      strerror(errno));
		if (errno == EAGAIN && wait_fd(lfd, POLLIN, deadline) <= 0)
			return ic_err(INCCL_ETIMEDOUT, "%s: nobody connected within the timeout",
				      what);
	}
}

int ic_read_full(int fd, void *buf, size_t len, double deadline,
		 const char *what)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t r = recv(fd, p, len, MSG_DONTWAIT);

		if (r > 0) {
			p += r;
			len -= (size_t)r;
			continue;
		}
		if (!r)
			return ic_err(INCCL_EPEER, "%s: connection closed", what);
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return ic_err(INCCL_EPEER, "%s: %s", what, strerror(errno));
		if (wait_fd(fd, POLLIN, deadline) <= 0)
			return ic_err(INCCL_ETIMEDOUT, "%s: no answer within the timeout",
				      what);
	}
	return 0;
}

int ic_write_full(int fd, const void *buf, size_t len, double deadline,
		  const char *what)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t r = send(fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (r > 0) {
			p += r;
			len -= (size_t)r;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN)
			return ic_err(INCCL_EPEER, "%s: %s", what, strerror(errno));
		if (wait_fd(fd, POLLOUT, deadline) <= 0)
			return ic_err(INCCL_ETIMEDOUT, "%s: cannot send within the timeout",
				      what);
	}
	return 0;
}

/* 0 when the kernel knows INC_SO_GRADIENT, else -errno (ENOPROTOOPT) */
int ic_mark_probe(void)
{
	struct inc_gradient g;
	socklen_t len = sizeof(g);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), r = 0;

	if (fd < 0)
		return -errno;
	if (getsockopt(fd, IPPROTO_IP, INC_SO_GRADIENT, &g, &len))
		r = -errno;
	close(fd);
	return r;
}
