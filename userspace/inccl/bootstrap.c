// SPDX-License-Identifier: MIT
/*
 * Joining a communicator (docs/inccl.md, "Joining"):
 *
 * 1. Every rank listens on its data address: its INCCL_HOSTS entry, or an
 *    ephemeral port (on INCCL_IFNAME's address when given).
 * 2. Without a host list, rank 0 also listens on MASTER_ADDR:MASTER_PORT;
 *    every other rank registers there (rank, world, configuration, data
 *    address) and gets back the table of every rank's data address, or the
 *    reason the master refused.
 * 3. Links: ring, each rank connects to the next and accepts the previous;
 *    wa, every rank but 0 connects to rank 0. A link starts with a hello
 *    (rank, purpose, configuration) that the accepting side checks and
 *    answers. Every rank first connects and sends its hellos, then accepts,
 *    then reads the answers, so no rank waits on a rank that waits on it.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inccl_int.h"

#define BOOT_HELLO_BYTES	48
#define BOOT_ENTRY_BYTES	20

enum mismatch {
	MM_OK = 0, MM_VERSION, MM_WORLD, MM_ALGO, MM_TRANSPORT, MM_K, MM_MODE,
	MM_SLICE, MM_RANK, MM_DUP,
};

static const char *mm_str(unsigned int m)
{
	static const char *const s[] = {
		"ok", "protocol version", "world size", "algorithm",
		"transport", "k", "mode", "slice size", "unexpected rank",
		"rank registered twice",
	};

	return m < sizeof(s) / sizeof(s[0]) ? s[m] : "unknown reason";
}

/* the part of a hello every rank must agree on */
static void put_cfg(uint8_t *p, const struct inccl_comm *c)
{
	ic_put16(p, INCCL_PROTO_VERSION);
	ic_put16(p + 2, (uint16_t)c->world);
	p[4] = (uint8_t)c->cfg.algo;
	p[5] = (uint8_t)c->cfg.transport;
	p[6] = (uint8_t)c->cfg.k;
	p[7] = (uint8_t)c->cfg.mode;
	ic_put32(p + 8, c->cfg.slice_bytes);
}

static unsigned int check_cfg(const uint8_t *p, const struct inccl_comm *c,
			      char *why, size_t wlen)
{
	unsigned int m = MM_OK;
	long mine = 0, theirs = 0;

	if (ic_get16(p) != INCCL_PROTO_VERSION)
		m = MM_VERSION, mine = INCCL_PROTO_VERSION, theirs = ic_get16(p);
	else if (ic_get16(p + 2) != c->world)
		m = MM_WORLD, mine = c->world, theirs = ic_get16(p + 2);
	else if (p[4] != c->cfg.algo)
		m = MM_ALGO, mine = c->cfg.algo, theirs = p[4];
	else if (p[5] != c->cfg.transport)
		m = MM_TRANSPORT, mine = c->cfg.transport, theirs = p[5];
	else if (p[6] != c->cfg.k)
		m = MM_K, mine = c->cfg.k, theirs = p[6];
	else if (p[7] != c->cfg.mode)
		m = MM_MODE, mine = c->cfg.mode, theirs = p[7];
	else if (ic_get32(p + 8) != c->cfg.slice_bytes)
		m = MM_SLICE, mine = c->cfg.slice_bytes, theirs = ic_get32(p + 8);
	if (m == MM_ALGO)
		snprintf(why, wlen, "algorithm %s here, %s there",
			 inccl_algo_name((int)mine), inccl_algo_name((int)theirs));
	else if (m == MM_TRANSPORT)
		snprintf(why, wlen, "transport %s here, %s there",
			 inccl_transport_name((int)mine),
			 inccl_transport_name((int)theirs));
	else if (m == MM_MODE)
		snprintf(why, wlen, "mode %s here, %s there",
			 inccl_mode_name((unsigned int)mine),
			 inccl_mode_name((unsigned int)theirs));
	else if (m)
		snprintf(why, wlen, "%s %ld here, %ld there", mm_str(m), mine,
			 theirs);
	return m;
}

static void put_addr(uint8_t *p, const struct sockaddr_storage *ss)
{
	memset(p, 0, BOOT_ENTRY_BYTES);
	ic_put16(p, ss->ss_family == AF_INET6 ? 6 : 4);
	ic_put16(p + 2, (uint16_t)ic_port(ss));
	if (ss->ss_family == AF_INET6)
		memcpy(p + 4, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
	else
		memcpy(p + 4, &((const struct sockaddr_in *)ss)->sin_addr, 4);
}

static int get_addr(const uint8_t *p, struct sockaddr_storage *ss)
{
	unsigned int fam = ic_get16(p);

	memset(ss, 0, sizeof(*ss));
	if (fam == 6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		memcpy(&s6->sin6_addr, p + 4, 16);
	} else if (fam == 4) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

		s4->sin_family = AF_INET;
		memcpy(&s4->sin_addr, p + 4, 4);
	} else {
		return -1;
	}
	ic_set_port(ss, ic_get16(p + 2));
	return ic_get16(p + 2) ? 0 : -1;
}

static void wildcard(struct sockaddr_storage *ss, int family)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = (sa_family_t)family;	/* any address, port 0 */
}

/* the master: collect every rank's registration, answer with the table */
static int master_serve(struct inccl_comm *c, int mfd, double deadline)
{
	int fds[INCCL_WORLD_MAX], n = 0, r = 0, i;
	unsigned int why = MM_OK;
	uint8_t *table;
	size_t tlen = 8 + (size_t)c->world * BOOT_ENTRY_BYTES;
	char what[96], detail[160] = "";

	for (i = 0; i < c->world; i++)
		fds[i] = -1;
	table = calloc(1, tlen);
	if (!table)
		return ic_err(INCCL_ENOMEM, "out of memory");
	put_addr(table + 8, &c->addrs[0]);
	while (n < c->world - 1) {
		uint8_t h[BOOT_HELLO_BYTES];
		int fd = ic_accept(mfd, deadline, "rendezvous (rank 0)");
		unsigned int rk;

		if (fd < 0) {
			snprintf(what, sizeof(what), "%s (%d of %d ranks registered)",
				 inccl_errmsg(), n + 1, c->world);
			r = ic_err(INCCL_ETIMEDOUT, "%s", what);
			goto out;
		}
		/* something that is not a rank: ignore it */
		if (ic_read_full(fd, h, sizeof(h), ic_now() + 5,
				 "registration") ||
		    ic_get32(h) != INCCL_BOOT_MAGIC) {
			close(fd);
			continue;
		}
		rk = ic_get16(h + 4);
		why = check_cfg(h + 8, c, detail, sizeof(detail));
		if (!why && (rk < 1 || rk >= (unsigned int)c->world))
			why = MM_RANK;
		if (!why && fds[rk] >= 0)
			why = MM_DUP;
		if (!why && get_addr(h + 24, &c->addrs[rk]))
			why = MM_RANK;
		if (why) {
			uint8_t nak[8];

			ic_put32(nak, INCCL_BOOT_MAGIC);
			ic_put32(nak + 4, why);
			ic_write_full(fd, nak, sizeof(nak), ic_now() + 1, "nak");
			close(fd);
			if (why == MM_RANK)
				snprintf(detail, sizeof(detail), "rank %u of a world of %d",
					 rk, c->world);
			r = ic_err(INCCL_EMISMATCH,
				   "rendezvous: rank %u disagrees with rank 0: %s: %s",
				   rk, mm_str(why), detail);
			goto out;
		}
		fds[rk] = fd;
		n++;
	}
	ic_put32(table, INCCL_BOOT_MAGIC);
	ic_put32(table + 4, 0);
	for (i = 1; i < c->world; i++)
		put_addr(table + 8 + (size_t)i * BOOT_ENTRY_BYTES, &c->addrs[i]);
	for (i = 1; i < c->world; i++) {
		snprintf(what, sizeof(what), "rendezvous: answering rank %d", i);
		r = ic_write_full(fds[i], table, tlen, deadline, what);
		if (r)
			goto out;
	}
out:
	for (i = 0; i < c->world; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(table);
	return r;
}

static int register_at_master(struct inccl_comm *c, int lfd, double deadline)
{
	struct sockaddr_storage m, me;
	socklen_t sl = sizeof(me);
	size_t tlen = 8 + (size_t)c->world * BOOT_ENTRY_BYTES;
	uint8_t h[BOOT_HELLO_BYTES] = { 0 }, *table = NULL;
	char what[128];
	int fd, r, i;

	r = ic_resolve(c->cfg.master_addr, c->cfg.master_port, 0, &m, NULL);
	if (r)
		return r;
	ic_addr_str(&m, what, sizeof(what));
	snprintf(what + strlen(what), sizeof(what) - strlen(what),
		 " (MASTER_ADDR:MASTER_PORT, rank 0)");
	fd = ic_connect_retry(&m, deadline, what);
	if (fd < 0)
		return fd;
	/* advertise the address rank 0 reached us on, unless told */
	if (!c->cfg.ifname) {
		unsigned int port = ic_port(&c->addrs[c->rank]);

		if (getsockname(fd, (struct sockaddr *)&me, &sl)) {
			r = ic_err(INCCL_ESYS, "getsockname: %s", strerror(errno));
			goto out;
		}
		c->addrs[c->rank] = me;
		ic_set_port(&c->addrs[c->rank], port);
	}
	(void)lfd;
	ic_put32(h, INCCL_BOOT_MAGIC);
	ic_put16(h + 4, (uint16_t)c->rank);
	put_cfg(h + 8, c);
	put_addr(h + 24, &c->addrs[c->rank]);
	r = ic_write_full(fd, h, sizeof(h), deadline, what);
	if (r)
		goto out;
	table = malloc(tlen);
	if (!table) {
		r = ic_err(INCCL_ENOMEM, "out of memory");
		goto out;
	}
	r = ic_read_full(fd, table, 8, deadline, what);
	if (r)
		goto out;
	if (ic_get32(table) != INCCL_BOOT_MAGIC) {
		r = ic_err(INCCL_EPROTO, "%s: not an inccl rendezvous", what);
		goto out;
	}
	if (ic_get32(table + 4)) {
		r = ic_err(INCCL_EMISMATCH, "rank 0 refused rank %d: %s differs (see rank 0's error)",
			   c->rank, mm_str(ic_get32(table + 4)));
		goto out;
	}
	r = ic_read_full(fd, table + 8, tlen - 8, deadline, what);
	if (r)
		goto out;
	for (i = 0; i < c->world; i++) {
		if (get_addr(table + 8 + (size_t)i * BOOT_ENTRY_BYTES,
			     &c->addrs[i])) {
			r = ic_err(INCCL_EPROTO, "%s: bad address of rank %d", what, i);
			goto out;
		}
	}
out:
	free(table);
	close(fd);
	return r;
}

/* step 1 and 2: c->addrs[] for every rank; *lfd our data listener */
static int exchange_addrs(struct inccl_comm *c, int *lfd, double deadline)
{
	struct sockaddr_storage bind_to, m;
	socklen_t sl = sizeof(bind_to);
	int r, mfd;

	if (c->cfg.hosts) {
		const char *p = c->cfg.hosts;
		char host[256], ent[300];
		unsigned int port;
		int i;

		for (i = 0; i < c->world; i++) {
			const char *e = strchr(p, ',');
			size_t len = e ? (size_t)(e - p) : strlen(p);

			memcpy(ent, p, len);
			ent[len] = 0;
			p += len + (e ? 1 : 0);
			ic_parse_hostport(ent, host, sizeof(host), &port);
			r = ic_resolve(host, port, 0, &c->addrs[i], NULL);
			if (r)
				return r;
		}
		if (c->cfg.ifname) {
			r = ic_ifaddr(c->cfg.ifname, &bind_to);
			if (r)
				return r;
		} else {
			wildcard(&bind_to, c->addrs[c->rank].ss_family);
		}
		ic_set_port(&bind_to, ic_port(&c->addrs[c->rank]));
		*lfd = ic_listen(&bind_to, 1);
		return *lfd < 0 ? *lfd : 0;
	}

	r = ic_resolve(c->cfg.master_addr, c->cfg.master_port, 0, &m, NULL);
	if (r)
		return r;
	if (c->cfg.ifname) {
		r = ic_ifaddr(c->cfg.ifname, &bind_to);
		if (r)
			return r;
		ic_set_port(&bind_to, 0);
	} else {
		wildcard(&bind_to, m.ss_family);
	}
	*lfd = ic_listen(&bind_to, 0);
	if (*lfd < 0)
		return *lfd;
	if (getsockname(*lfd, (struct sockaddr *)&bind_to, &sl))
		return ic_err(INCCL_ESYS, "getsockname: %s", strerror(errno));
	if (c->rank) {
		c->addrs[c->rank] = bind_to;
		return register_at_master(c, *lfd, deadline);
	}
	/* rank 0: others reach it at MASTER_ADDR (or its interface) */
	c->addrs[0] = c->cfg.ifname ? bind_to : m;
	ic_set_port(&c->addrs[0], ic_port(&bind_to));
	wildcard(&bind_to, m.ss_family);
	ic_set_port(&bind_to, c->cfg.master_port);
	mfd = ic_listen(&bind_to, 1);
	if (mfd < 0)
		return mfd;
	r = master_serve(c, mfd, deadline);
	close(mfd);
	return r;
}

static void link_init(struct inccl_link *l, int peer, int fd, int tx, int rx)
{
	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->peer = peer;
	l->tx = tx;
	l->rx = rx;
}

/* step 3 */
static int connect_links(struct inccl_comm *c, int lfd, double deadline)
{
	int N = c->world, me = c->rank, r = 0, i;
	int out_peer[1] = { 0 }, nout = 0, nin = 0, got = 0;
	uint8_t h[INCCL_HELLO_BYTES];
	char what[128];
	int purpose = c->cfg.algo == INCCL_RING ? LINK_RING : LINK_STAR;

	if (c->cfg.algo == INCCL_RING) {
		c->nlinks = 2;
		c->next = 0;
		c->prev = 1;
		out_peer[nout++] = (me + 1) % N;
		nin = 1;
	} else if (me) {
		c->nlinks = 1;
		out_peer[nout++] = 0;
	} else {
		c->nlinks = N - 1;
		nin = N - 1;
	}
	c->links = calloc((size_t)c->nlinks, sizeof(*c->links));
	if (!c->links)
		return ic_err(INCCL_ENOMEM, "out of memory");
	for (i = 0; i < c->nlinks; i++)
		c->links[i].fd = -1;

	/* connect and say hello */
	for (i = 0; i < nout; i++) {
		int p = out_peer[i], fd, li = c->cfg.algo == INCCL_RING ? c->next : 0;

		snprintf(what, sizeof(what), "link to %s", c->names[p]);
		fd = ic_connect_retry(&c->addrs[p], deadline, what);
		if (fd < 0)
			return fd;
		if (c->cfg.algo == INCCL_RING)
			link_init(&c->links[li], p, fd, 1, 0);
		else
			link_init(&c->links[li], p, fd, 1, 1);
		memset(h, 0, sizeof(h));
		ic_put32(h, INCCL_HELLO_MAGIC);
		ic_put16(h + 4, (uint16_t)me);
		h[6] = (uint8_t)purpose;
		put_cfg(h + 8, c);
		r = ic_write_full(fd, h, sizeof(h), deadline, what);
		if (r)
			return r;
	}
	/* accept the links the others open to us */
	while (got < nin) {
		unsigned int peer, why;
		char detail[160] = "";
		uint8_t ack[8];
		int fd = ic_accept(lfd, deadline, "waiting for links");
		int li;

		if (fd < 0) {
			snprintf(what, sizeof(what), "%s (%d of %d links)",
				 inccl_errmsg(), got, nin);
			return ic_err(INCCL_ETIMEDOUT, "%s", what);
		}
		if (ic_read_full(fd, h, sizeof(h), ic_now() + 5, "hello") ||
		    ic_get32(h) != INCCL_HELLO_MAGIC) {
			close(fd);	/* not one of ours */
			continue;
		}
		peer = ic_get16(h + 4);
		why = check_cfg(h + 8, c, detail, sizeof(detail));
		if (c->cfg.algo == INCCL_RING)
			li = c->prev;
		else
			li = (int)peer - 1;
		if (!why && (h[6] != purpose || peer >= (unsigned int)N ||
			     (c->cfg.algo == INCCL_RING &&
			      peer != (unsigned int)((me + N - 1) % N)) ||
			     (c->cfg.algo == INCCL_WA && peer == 0))) {
			why = MM_RANK;
			snprintf(detail, sizeof(detail), "a link from rank %u", peer);
		}
		if (!why && c->links[li].fd >= 0) {
			why = MM_DUP;
			snprintf(detail, sizeof(detail), "rank %u linked twice", peer);
		}
		ic_put32(ack, INCCL_HELLO_MAGIC);
		ic_put32(ack + 4, why);
		ic_write_full(fd, ack, sizeof(ack), deadline, "hello answer");
		if (why) {
			close(fd);
			return ic_err(INCCL_EMISMATCH,
				      "rank %d: the link from rank %u disagrees: %s",
				      me, peer, detail);
		}
		if (c->cfg.algo == INCCL_RING)
			link_init(&c->links[li], (int)peer, fd, 0, 1);
		else
			link_init(&c->links[li], (int)peer, fd, 1, 1);
		got++;
	}
	/* the answers to our hellos */
	for (i = 0; i < c->nlinks; i++) {
		struct inccl_link *l = &c->links[i];
		uint8_t ack[8];

		if (c->cfg.algo == INCCL_RING ? i != c->next : me == 0)
			continue;
		snprintf(what, sizeof(what), "link to %s", c->names[l->peer]);
		r = ic_read_full(l->fd, ack, sizeof(ack), deadline, what);
		if (r)
			return r;
		if (ic_get32(ack) != INCCL_HELLO_MAGIC)
			return ic_err(INCCL_EPROTO, "%s: not an inccl rank", what);
		if (ic_get32(ack + 4))
			return ic_err(INCCL_EMISMATCH, "%s refused the link: %s differs (see its error)",
				      c->names[l->peer], mm_str(ic_get32(ack + 4)));
	}
	for (i = 0; i < c->nlinks; i++)
		ic_nonblock(c->links[i].fd);
	return 0;
}

int ic_bootstrap(struct inccl_comm *c)
{
	double deadline = ic_now() + c->cfg.timeout_ms / 1000.0;
	int lfd = -1, r, i;

	r = exchange_addrs(c, &lfd, deadline);
	if (!r) {
		for (i = 0; i < c->world; i++) {
			char a[80];

			ic_addr_str(&c->addrs[i], a, sizeof(a));
			snprintf(c->names[i], sizeof(c->names[i]), "rank %d (%s)",
				 i, a);
		}
		r = connect_links(c, lfd, deadline);
	}
	if (lfd >= 0)
		close(lfd);
	return r;
}
