// SPDX-License-Identifier: MIT
/*
 * Error codes and messages: each failing call leaves a message in the
 * calling thread (inccl_errmsg()); a communicator that failed keeps the
 * first message and closes its links so that its peers fail too.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "inccl_int.h"

static _Thread_local char msg[320];

const char *inccl_errmsg(void)
{
	return msg;
}

const char *inccl_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case INCCL_OK: return "success";
	case INCCL_EINVAL: return "invalid argument";
	case INCCL_ENOMEM: return "out of memory";
	case INCCL_ESYS: return "system call failed";
	case INCCL_ETIMEDOUT: return "timed out waiting for a peer";
	case INCCL_EPEER: return "a peer closed its connection";
	case INCCL_EPROTO: return "protocol error";
	case INCCL_EMISMATCH: return "ranks disagree";
	case INCCL_ENOMARK: return "no gradient socket option";
	case INCCL_EABORTED: return "communicator aborted";
	}
	return "unknown error";
}

int ic_verr(int err, const char *fmt, va_list ap)
{
	vsnprintf(msg, sizeof(msg), fmt, ap);
	return -err;
}

int ic_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ic_verr(err, fmt, ap);
	va_end(ap);
	return -err;
}

int ic_fail(struct inccl_comm *c, int err, const char *fmt, ...)
{
	va_list ap;
	int i;

	va_start(ap, fmt);
	ic_verr(err, fmt, ap);
	va_end(ap);
	if (!c->failed) {
		c->failed = err;
		snprintf(c->failmsg, sizeof(c->failmsg), "%s", msg);
	}
	/* the peers see EOF now rather than after their own timeout */
	for (i = 0; i < c->nlinks; i++) {
		if (c->links[i].fd >= 0) {
			shutdown(c->links[i].fd, SHUT_RDWR);
			close(c->links[i].fd);
			c->links[i].fd = -1;
		}
	}
	return -err;
}

const char *inccl_algo_name(int algo)
{
	return algo == INCCL_RING ? "ring" : algo == INCCL_WA ? "wa" : "?";
}

const char *inccl_transport_name(int t)
{
	return t == INCCL_NONE ? "none" : t == INCCL_SW ? "sw" :
	       t == INCCL_NIC ? "nic" : "?";
}
