// SPDX-License-Identifier: MIT
/*
 * Configuration: explicit fields first, then the environment (the names
 * torchrun sets, and INCCL_*), then defaults; every value checked, with a
 * message that names the field or variable at fault.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inccl_int.h"

void inccl_config_init(struct inccl_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->rank = -1;
	cfg->algo = -1;
	cfg->transport = -1;
}

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* an unsigned decimal with an optional K/M/G suffix (powers of 1024) */
static int parse_u(const char *what, const char *s, unsigned long long lo,
		   unsigned long long hi, int suffix, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno)
		goto bad;
	if (suffix && *end) {
		int sh = *end == 'K' || *end == 'k' ? 10 :
			 *end == 'M' || *end == 'm' ? 20 :
			 *end == 'G' || *end == 'g' ? 30 : -1;

		if (sh < 0 || end[1] || v > (hi >> sh))
			goto bad;
		v <<= sh;
		end++;
	}
	if (*end || v < lo || v > hi)
		goto bad;
	*out = v;
	return 0;
bad:
	return ic_err(INCCL_EINVAL, "%s=%s: a number from %llu to %llu expected",
		      what, s, lo, hi);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* count the entries of a host list, checking each one's syntax */
static int hosts_count(const char *hosts, int *n)
{
	char host[256];
	const char *p = hosts;
	unsigned int port;
	int cnt = 0;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char ent[300];

		if (!len || len >= sizeof(ent))
			return ic_err(INCCL_EINVAL, "INCCL_HOSTS: entry %d is %s",
				      cnt, len ? "too long" : "empty");
		memcpy(ent, p, len);
		ent[len] = 0;
		if (ic_parse_hostport(ent, host, sizeof(host), &port))
			return ic_err(INCCL_EINVAL,
				      "INCCL_HOSTS: entry %d \"%s\": host:port expected ([addr]:port for IPv6, port 1..65535)",
				      cnt, ent);
		cnt++;
		p += len;
		if (*p == ',')
			p++;
	}
	*n = cnt;
	return 0;
}

int ic_config_resolve(const struct inccl_config *in, struct inccl_config *o)
{
	unsigned long long v;
	const char *s;
	int r, nh = 0;

	*o = *in;
	o->master_addr = o->hosts = o->ifname = NULL;

	if (in->hosts || env("INCCL_HOSTS")) {
		s = in->hosts ? in->hosts : env("INCCL_HOSTS");
		r = hosts_count(s, &nh);
		if (r)
			return r;
		o->hosts = s;
	}
	if (o->rank < 0) {
		s = env("RANK");
		if (!s)
			return ic_err(INCCL_EINVAL, "no rank: set RANK (or inccl_config.rank)");
		if (parse_u("RANK", s, 0, INCCL_WORLD_MAX - 1, 0, &v))
			return -INCCL_EINVAL;
		o->rank = (int)v;
	}
	if (!o->world) {
		s = env("WORLD_SIZE");
		if (s) {
			if (parse_u("WORLD_SIZE", s, INCCL_WORLD_MIN,
				    INCCL_WORLD_MAX, 0, &v))
				return -INCCL_EINVAL;
			o->world = (int)v;
		} else if (nh) {
			o->world = nh;
		} else {
			return ic_err(INCCL_EINVAL, "no world size: set WORLD_SIZE (or inccl_config.world)");
		}
	}
	if (o->world < INCCL_WORLD_MIN || o->world > INCCL_WORLD_MAX)
		return ic_err(INCCL_EINVAL, "world size %d: %d to %d ranks",
			      o->world, INCCL_WORLD_MIN, INCCL_WORLD_MAX);
	if (o->rank >= o->world)
		return ic_err(INCCL_EINVAL, "rank %d: not below the world size %d",
			      o->rank, o->world);
	if (nh && nh != o->world)
		return ic_err(INCCL_EINVAL, "INCCL_HOSTS has %d entries for a world of %d ranks",
			      nh, o->world);
	if (!nh) {
		o->master_addr = in->master_addr ? in->master_addr :
				 env("MASTER_ADDR");
		if (!o->master_addr)
			return ic_err(INCCL_EINVAL, "no rendezvous: set MASTER_ADDR and MASTER_PORT, or INCCL_HOSTS");
		if (!o->master_port) {
			const char *name = env("INCCL_MASTER_PORT") ?
					   "INCCL_MASTER_PORT" : "MASTER_PORT";

			s = env(name);
			if (!s)
				return ic_err(INCCL_EINVAL, "no rendezvous port: set MASTER_PORT (or INCCL_MASTER_PORT)");
			if (parse_u(name, s, 1, 65535, 0, &v))
				return -INCCL_EINVAL;
			o->master_port = (unsigned int)v;
		}
		if (o->master_port > 65535)
			return ic_err(INCCL_EINVAL, "master_port %u: 1 to 65535",
				      o->master_port);
	}
	o->ifname = in->ifname ? in->ifname : env("INCCL_IFNAME");

	if (o->algo < 0) {
		s = env("INCCL_ALGO");
		if (!s || !strcmp(s, "ring"))
			o->algo = INCCL_RING;
		else if (!strcmp(s, "wa"))
			o->algo = INCCL_WA;
		else
			return ic_err(INCCL_EINVAL, "INCCL_ALGO=%s: ring or wa expected", s);
	}
	if (o->algo != INCCL_RING && o->algo != INCCL_WA)
		return ic_err(INCCL_EINVAL, "algo %d: INCCL_RING or INCCL_WA", o->algo);
	if (o->transport < 0) {
		s = env("INCCL_TRANSPORT");
		if (!s || !strcmp(s, "sw"))
			o->transport = INCCL_SW;
		else if (!strcmp(s, "nic"))
			o->transport = INCCL_NIC;
		else if (!strcmp(s, "none"))
			o->transport = INCCL_NONE;
		else
			return ic_err(INCCL_EINVAL, "INCCL_TRANSPORT=%s: nic, sw or none expected", s);
	}
	if (o->transport != INCCL_NONE && o->transport != INCCL_SW &&
	    o->transport != INCCL_NIC)
		return ic_err(INCCL_EINVAL, "transport %d: INCCL_NIC, INCCL_SW or INCCL_NONE",
			      o->transport);
	if (!o->k) {
		s = env("INCCL_K");
		o->k = INCCL_DEFAULT_K;
		if (s) {
			if (parse_u("INCCL_K", s, 1, 24, 0, &v))
				return -INCCL_EINVAL;
			o->k = (unsigned int)v;
		}
	}
	if (o->k < 1 || o->k > 24)
		return ic_err(INCCL_EINVAL, "k %u: the error bound is 2^-k, k from 1 to 24", o->k);
	if (!o->mode) {
		s = env("INCCL_MODE");
		if (!s)	/* the transport's default (docs/inccl.md) */
			o->mode = o->transport == INCCL_NIC ?
				  INCCL_MODE_SPARSE : INCCL_MODE_WIDTH;
		else if (!strcmp(s, "sparse"))
			o->mode = INCCL_MODE_SPARSE;
		else if (!strcmp(s, "paper"))
			o->mode = INCCL_MODE_PAPER;
		else if (!strcmp(s, "width"))
			o->mode = INCCL_MODE_WIDTH;
		else
			return ic_err(INCCL_EINVAL, "INCCL_MODE=%s: paper, sparse or width expected", s);
	}
	if (o->mode != INCCL_MODE_PAPER && o->mode != INCCL_MODE_SPARSE &&
	    o->mode != INCCL_MODE_WIDTH)
		return ic_err(INCCL_EINVAL, "mode %u: INCCL_MODE_PAPER, INCCL_MODE_SPARSE or INCCL_MODE_WIDTH", o->mode);
	if (!o->timeout_ms) {
		s = env("INCCL_TIMEOUT");
		o->timeout_ms = INCCL_DEFAULT_TIMEOUT_MS;
		if (s) {
			char *end;
			double t;

			errno = 0;
			t = strtod(s, &end);
			if (errno || *end || !(t >= 0.01 && t <= 86400))
				return ic_err(INCCL_EINVAL, "INCCL_TIMEOUT=%s: seconds from 0.01 to 86400 expected", s);
			o->timeout_ms = (unsigned int)(t * 1000 + 0.5);
		}
	}
	if (!o->slice_bytes) {
		s = env("INCCL_SLICE");
		o->slice_bytes = INCCL_DEFAULT_SLICE;
		if (s) {
			if (parse_u("INCCL_SLICE", s, INCCL_SLICE_MIN,
				    INCCL_SLICE_MAX, 1, &v))
				return -INCCL_EINVAL;
			o->slice_bytes = (unsigned int)v;
		}
	}
	if (o->slice_bytes < INCCL_SLICE_MIN || o->slice_bytes > INCCL_SLICE_MAX ||
	    o->slice_bytes % INCCL_SLICE_MIN)
		return ic_err(INCCL_EINVAL, "slice %u bytes: a multiple of 8 KiB from 8 KiB to 16 MiB",
			      o->slice_bytes);

	/* own the strings: the environment may change under us */
	o->hosts = dup_or_null(o->hosts);
	o->master_addr = dup_or_null(o->master_addr);
	o->ifname = dup_or_null(o->ifname);
	if ((in->hosts || env("INCCL_HOSTS")) && !o->hosts)
		return ic_err(INCCL_ENOMEM, "out of memory");
	return 0;
}
