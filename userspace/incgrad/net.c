// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "net.h"

const char *ig_io_str(int r)
{
	switch (r) {
	case IG_IO_OK:
		return "ok";
	case IG_IO_EOF:
		return "connection closed";
	case IG_IO_SHORT:
		return "connection closed part-way (short read)";
	case IG_IO_TIMEOUT:
		return "timed out";
	default:
		return strerror(errno);
	}
}

int ig_read_full(int fd, void *buf, size_t len, int timeout_ms)
{
	unsigned char *p = buf;
	size_t got = 0;

	while (got < len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t r;
		int pr = poll(&pfd, 1, timeout_ms);

		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return IG_IO_ERR;
		if (pr == 0)
			return IG_IO_TIMEOUT;
		r = recv(fd, p + got, len - got, 0);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return IG_IO_ERR;
		if (r == 0)
			return got ? IG_IO_SHORT : IG_IO_EOF;
		got += (size_t)r;
	}
	return IG_IO_OK;
}

int ig_write_full(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t w = send(fd, p, len, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static struct addrinfo *resolve(const char *host, unsigned int port,
				int family, int socktype, int passive)
{
	struct addrinfo hints = {
		.ai_family = family,
		.ai_socktype = socktype,
		.ai_flags = passive ? AI_PASSIVE : AI_ADDRCONFIG,
	};
	struct addrinfo *ai = NULL;
	char ps[16];
	int r;

	snprintf(ps, sizeof(ps), "%u", port);
	r = getaddrinfo(host, ps, &hints, &ai);
	if (r && !passive) {
		/* AI_ADDRCONFIG hides ::1 on hosts without global IPv6 */
		hints.ai_flags &= ~AI_ADDRCONFIG;
		r = getaddrinfo(host, ps, &hints, &ai);
	}
	if (r) {
		fprintf(stderr, "incgrad: %s: %s\n", host ? host : "*",
			gai_strerror(r));
		return NULL;
	}
	return ai;
}

/* connect() that gives up after timeout_ms: 0, or -1 with errno. */
static int connect_timeout(int fd, const struct sockaddr *sa, socklen_t len,
			   int timeout_ms)
{
	int fl = fcntl(fd, F_GETFL), err = 0, r;
	socklen_t el = sizeof(err);
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK))
		return -1;
	if (connect(fd, sa, len)) {
		if (errno != EINPROGRESS)
			return -1;
		do
			r = poll(&p, 1, timeout_ms);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el))
			return -1;
		if (err) {
			errno = err;
			return -1;
		}
	}
	return fcntl(fd, F_SETFL, fl) ? -1 : 0;
}

int ig_tcp_connect(const char *host, unsigned int port, int family,
		   int timeout_ms)
{
	struct addrinfo *ai = resolve(host, port, family, SOCK_STREAM, 0), *a;
	int fd = -1, err = 0;

	if (!ai)
		return -1;
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		if (!connect_timeout(fd, a->ai_addr, a->ai_addrlen, timeout_ms))
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		fprintf(stderr, "incgrad: connect to %s port %u: %s\n", host,
			port, strerror(err));
	return fd;
}

int ig_udp_connect(const struct sockaddr *peer, socklen_t len)
{
	int fd = socket(peer->sa_family, SOCK_DGRAM, 0);

	if (fd < 0 || connect(fd, peer, len)) {
		fprintf(stderr, "incgrad: UDP socket: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int bind_one(const struct sockaddr *sa, socklen_t len, int type,
		    int v6only)
{
	int fd = socket(sa->sa_family, type, 0), one = 1;

	if (fd < 0)
		return -1;
	if (type == SOCK_STREAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->sa_family == AF_INET6 && v6only >= 0)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only,
			   sizeof(v6only));
	if (bind(fd, sa, len) || (type == SOCK_STREAM && listen(fd, 16))) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static void set_port(struct sockaddr *sa, unsigned int port)
{
	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)port);
}

static unsigned int get_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
}

int ig_listen(const char *bind, int family, unsigned int *port, int want_udp,
	      int *tcp_fd, int *udp_fd)
{
	struct sockaddr_storage ss;
	struct addrinfo *ai;
	socklen_t sl;
	int v6only = -1, tries, tfd = -1, ufd = -1;

	if (!bind && family == AF_UNSPEC) {
		/* dual stack when the host has IPv6 */
		int probe = socket(AF_INET6, SOCK_STREAM, 0);

		if (probe >= 0) {
			close(probe);
			family = AF_INET6;
			v6only = 0;
		} else {
			family = AF_INET;
		}
	} else if (!bind && family == AF_INET6) {
		v6only = 1;
	}
	ai = resolve(bind, *port, family, SOCK_STREAM, 1);
	if (!ai)
		return -1;
	memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
	sl = ai->ai_addrlen;
	freeaddrinfo(ai);

	for (tries = 0; tries < 20; tries++) {
		struct sockaddr_storage b = ss;
		socklen_t bl = sl;

		tfd = bind_one((struct sockaddr *)&ss, sl, SOCK_STREAM, v6only);
		if (tfd < 0)
			break;
		if (!want_udp)
			break;
		if (getsockname(tfd, (struct sockaddr *)&b, &bl)) {
			close(tfd);
			tfd = -1;
			break;
		}
		ufd = bind_one((struct sockaddr *)&b, bl, SOCK_DGRAM, v6only);
		if (ufd >= 0 || errno != EADDRINUSE || *port) {
			if (ufd < 0) {
				close(tfd);
				tfd = -1;
			}
			break;
		}
		close(tfd);	/* port 0: another free port */
		tfd = -1;
	}
	if (tfd < 0) {
		char a[80];

		set_port((struct sockaddr *)&ss, *port);
		ig_addr_str((struct sockaddr *)&ss, 1, a, sizeof(a));
		fprintf(stderr, "incgrad: listen on %s: %s\n", a,
			strerror(errno));
		return -1;
	}
	sl = sizeof(ss);
	getsockname(tfd, (struct sockaddr *)&ss, &sl);
	*port = get_port((struct sockaddr *)&ss);
	*tcp_fd = tfd;
	*udp_fd = ufd;
	return 0;
}

static int is_mapped(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET6 &&
	       IN6_IS_ADDR_V4MAPPED(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

void ig_addr_str(const struct sockaddr *sa, int port_too, char *buf,
		 size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";
	int v6 = 0;

	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  a, sizeof(a));
	} else if (is_mapped(sa)) {
		inet_ntop(AF_INET,
			  &((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr[12],
			  a, sizeof(a));
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)sa)->sin6_addr, a,
			  sizeof(a));
		v6 = 1;
	}
	if (!port_too)
		snprintf(buf, len, "%s", a);
	else if (v6)
		snprintf(buf, len, "[%s]:%u", a, get_port(sa));
	else
		snprintf(buf, len, "%s:%u", a, get_port(sa));
}

const char *ig_family_str(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET6 && !is_mapped(sa) ? "ipv6" : "ipv4";
}
