// SPDX-License-Identifier: MIT
/*
 * Communicators: creation (configuration, joining, buffers), destruction,
 * queries, statistics and error-feedback states.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inccl_int.h"

static int alloc_buffers(struct inccl_comm *c)
{
	size_t sl = c->slice, wire = ic_wire_bound(c->slice);
	int i;

	c->fifo_floats = INCCL_FIFO_SLICES * sl;
	c->fifo = malloc(c->fifo_floats * sizeof(float));
	if (!c->fifo)
		return -1;
	for (i = 0; i < c->nlinks; i++) {
		struct inccl_link *l = &c->links[i];

		if (l->tx) {
			l->txf = malloc(2 * sl * sizeof(float));
			l->txbuf = malloc(wire);
			if (!l->txf || !l->txbuf)
				return -1;
		}
		if (l->rx) {
			/* two slices on the wire read ahead, at least */
			l->rxcap = 2 * wire;
			l->rxbuf = malloc(l->rxcap);
			l->rxf = malloc(sl * sizeof(float));
			if (!l->rxbuf || !l->rxf)
				return -1;
		}
	}
	return 0;
}

int inccl_transport_check(int transport)
{
	switch (transport) {
	case INCCL_NONE:
	case INCCL_SW:
		return 0;
	case INCCL_NIC:
		if (ic_mark_probe())
			return ic_err(INCCL_ENOMARK,
				      "transport nic: this kernel has no gradient socket option (INC_SO_GRADIENT); is inceptionn.ko loaded? (transport sw compresses in software)");
		return 0;
	}
	return ic_err(INCCL_EINVAL, "transport %d: none (0), sw (1) or nic (2)", transport);
}

int inccl_comm_init(inccl_comm **out, const struct inccl_config *cfg)
{
	struct inccl_config def;
	struct inccl_comm *c;
	int r;

	if (!out)
		return ic_err(INCCL_EINVAL, "inccl_comm_init: NULL communicator pointer");
	*out = NULL;
	if (!cfg) {
		inccl_config_init(&def);
		cfg = &def;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return ic_err(INCCL_ENOMEM, "out of memory");
	r = ic_config_resolve(cfg, &c->cfg);
	if (r) {
		free(c);
		return r;
	}
	c->rank = c->cfg.rank;
	c->world = c->cfg.world;
	c->slice = c->cfg.slice_bytes / 4;
	c->next = c->prev = -1;
	r = inccl_transport_check(c->cfg.transport);
	if (r)
		goto fail;
	c->addrs = calloc((size_t)c->world, sizeof(*c->addrs));
	c->names = calloc((size_t)c->world, sizeof(*c->names));
	if (!c->addrs || !c->names) {
		r = ic_err(INCCL_ENOMEM, "out of memory");
		goto fail;
	}
	r = ic_bootstrap(c);
	if (r)
		goto fail;
	if (alloc_buffers(c)) {
		r = ic_err(INCCL_ENOMEM, "out of memory (link buffers)");
		goto fail;
	}
	*out = c;
	return 0;
fail:
	inccl_comm_destroy(c);
	return r;
}

void inccl_comm_destroy(inccl_comm *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nlinks; i++) {
		struct inccl_link *l = &c->links[i];

		if (l->fd >= 0)
			close(l->fd);
		free(l->sendq.v);
		free(l->recvq.v);
		free(l->txf);
		free(l->txbuf);
		free(l->rxbuf);
		free(l->rxf);
	}
	free(c->links);
	free(c->fifo);
	free(c->addrs);
	free(c->names);
	free((char *)c->cfg.hosts);
	free((char *)c->cfg.master_addr);
	free((char *)c->cfg.ifname);
	free(c);
}

int inccl_comm_rank(const inccl_comm *c)
{
	return c ? c->rank : -1;
}

int inccl_comm_world(const inccl_comm *c)
{
	return c ? c->world : -1;
}

void inccl_comm_config(const inccl_comm *c, struct inccl_config *cfg)
{
	*cfg = c->cfg;
}

void inccl_get_stats(const inccl_comm *c, struct inccl_stats *st)
{
	*st = c->st;
}

void inccl_reset_stats(inccl_comm *c)
{
	memset(&c->st, 0, sizeof(c->st));
}

int inccl_ef_create(inccl_ef **ef, size_t count)
{
	inccl_ef *e;

	if (!ef)
		return ic_err(INCCL_EINVAL, "inccl_ef_create: NULL pointer");
	*ef = NULL;
	if (count > SIZE_MAX / sizeof(float))
		return ic_err(INCCL_EINVAL, "inccl_ef_create: %zu values is too many", count);
	e = calloc(1, sizeof(*e));
	if (!e)
		return ic_err(INCCL_ENOMEM, "out of memory");
	e->count = count;
	e->r = calloc(count ? count : 1, sizeof(float));
	if (!e->r) {
		free(e);
		return ic_err(INCCL_ENOMEM, "out of memory (%zu residuals)", count);
	}
	*ef = e;
	return 0;
}

void inccl_ef_destroy(inccl_ef *ef)
{
	if (!ef)
		return;
	free(ef->r);
	free(ef);
}

void inccl_ef_reset(inccl_ef *ef)
{
	if (ef)
		memset(ef->r, 0, ef->count * sizeof(float));
}

const float *inccl_ef_residual(const inccl_ef *ef, size_t *count)
{
	if (!ef)
		return NULL;
	if (count)
		*count = ef->count;
	return ef->r;
}
