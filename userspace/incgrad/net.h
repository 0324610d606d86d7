/* SPDX-License-Identifier: MIT */
/*
 * Sockets for incgrad: name resolution, the server's TCP and UDP sockets
 * on one port, full reads and writes with timeouts. The gradient mark is
 * userspace/common/inc_mark_socket.h.
 */
#ifndef INCGRAD_NET_H
#define INCGRAD_NET_H

#include <stddef.h>
#include <sys/socket.h>

/* ig_read_full results */
enum ig_io {
	IG_IO_OK = 0,
	IG_IO_EOF = 1,		/* peer closed before the first byte */
	IG_IO_SHORT = 2,	/* peer closed part-way */
	IG_IO_TIMEOUT = 3,
	IG_IO_ERR = 4,		/* errno is set */
};
const char *ig_io_str(int r);

/* Read exactly len bytes; timeout_ms bounds each wait for more data. */
int ig_read_full(int fd, void *buf, size_t len, int timeout_ms);
/* Write exactly len bytes; 0, or -1 with errno. */
int ig_write_full(int fd, const void *buf, size_t len);

/* family: AF_UNSPEC, AF_INET or AF_INET6; timeout_ms bounds each
 * address's connect. Return a socket, or -1 after printing
 * "incgrad: what: reason" to stderr. */
int ig_tcp_connect(const char *host, unsigned int port, int family,
		   int timeout_ms);
int ig_udp_connect(const struct sockaddr *peer, socklen_t len);

/*
 * The server's sockets: a listening TCP socket and, when want_udp, a UDP
 * socket on the same port. bind NULL: dual-stack "::" (or 0.0.0.0 when
 * IPv6 is missing or family is AF_INET). *port 0 picks a free port and
 * returns it. 0, or -1 after printing why.
 */
int ig_listen(const char *bind, int family, unsigned int *port, int want_udp,
	      int *tcp_fd, int *udp_fd);

/* "addr" or "[addr]" with ":port" when port_too. v4-mapped IPv6 shows as
 * plain IPv4. */
void ig_addr_str(const struct sockaddr *sa, int port_too, char *buf,
		 size_t len);
/* "ipv4" or "ipv6" (v4-mapped counts as ipv4). */
const char *ig_family_str(const struct sockaddr *sa);

#endif
