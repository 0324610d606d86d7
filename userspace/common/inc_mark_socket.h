/* SPDX-License-Identifier: MIT */
/*
 * The gradient mark of a TCP or UDP socket (INC_SO_GRADIENT,
 * docs/socket-option.md), set at the level of the socket's own family:
 * IPPROTO_IPV6 for an IPv6 socket, else IPPROTO_IP. Used by incgrad and
 * inccl.
 */
#ifndef INC_MARK_SOCKET_H
#define INC_MARK_SOCKET_H

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "inceptionn/inceptionn.h"

/* 0, or -errno (ENOPROTOOPT: inceptionn.ko is not loaded) */
static inline int inc_mark_socket(int fd, int on, unsigned int k,
				  unsigned int mode)
{
	struct inc_gradient g = {
		.enable = on ? 1 : 0, .k = k, .mode = mode, .flags = 0,
	};
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int level = IPPROTO_IP;

	if (!getsockname(fd, (struct sockaddr *)&ss, &sl) &&
	    ss.ss_family == AF_INET6)
		level = IPPROTO_IPV6;
	if (setsockopt(fd, level, INC_SO_GRADIENT, &g, sizeof(g)))
		return -errno;
	return 0;
}

#endif
