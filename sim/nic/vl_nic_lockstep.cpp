// SPDX-License-Identifier: MIT
/*
 * The lockstep check: vl_nic.h implemented by two models of inc_nic at once,
 * the working tree's RTL (vl_nic.cpp compiled as vlcur_*, the model built
 * with --prefix Vnic) and a reference revision's (vlref_*, --prefix Vnicref;
 * the Makefile's LOCKSTEP_REF). Every input goes to both; at every
 * evaluation the outputs of both are hashed and the hashes compared, and the
 * first difference stops the program with its clock and the ports that
 * differ ("Bail out!", exit status 1). The sleep-skip (vl_nic_sleep_limit,
 * vl_nic_skip) is applied to both and its answers compared too. The caller
 * (test_nic through nic_env, tests/run-tests.sh rtl/lockstep) sees the
 * working tree's model.
 *
 * So a rewrite of the RTL that keeps every port the same clock for clock
 * passes, and any change of a port's value at any clock fails.
 */
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "vl_nic.h"

#ifndef LOCKSTEP_REF_NAME
#define LOCKSTEP_REF_NAME "reference"
#endif

#define DECLARE_MODEL(P) \
	struct P##_nic; \
	extern "C" unsigned int P##_nic_beat(void); \
	extern "C" struct P##_nic *P##_nic_new(void); \
	extern "C" void P##_nic_free(struct P##_nic *n); \
	extern "C" void P##_nic_set_inputs(struct P##_nic *n, const struct vl_nic_io *io); \
	extern "C" void P##_nic_settle(struct P##_nic *n); \
	extern "C" void P##_nic_get_outputs(const struct P##_nic *n, struct vl_nic_io *io); \
	extern "C" void P##_nic_eval(struct P##_nic *n, struct vl_nic_io *io); \
	extern "C" void P##_nic_tick(struct P##_nic *n); \
	extern "C" void P##_nic_reset(struct P##_nic *n, int clocks, int link_up); \
	extern "C" uint64_t P##_nic_cycles(const struct P##_nic *n); \
	extern "C" uint64_t P##_nic_sleep_limit(const struct P##_nic *n); \
	extern "C" void P##_nic_skip(struct P##_nic *n, uint64_t clocks); \
	extern "C" uint64_t P##_nic_mtime(const struct P##_nic *n);
DECLARE_MODEL(vlcur)
DECLARE_MODEL(vlref)

struct vl_nic {
	struct vlcur_nic *cur;
	struct vlref_nic *ref;
	uint64_t evals;		// evaluations compared
	uint64_t hash;		// of every output at every evaluation
	uint64_t skipped;	// clocks skipped (both models)
};

// the output ports of struct vl_nic_io, for the report
#define PORT(f) { #f, offsetof(struct vl_nic_io, f), sizeof(((struct vl_nic_io *)0)->f) }
static const struct port {
	const char *name;
	size_t off, size;
} ports[] = {
	PORT(s_axil_awready), PORT(s_axil_wready), PORT(s_axil_bresp), PORT(s_axil_bvalid),
	PORT(s_axil_arready), PORT(s_axil_rdata), PORT(s_axil_rresp), PORT(s_axil_rvalid),
	PORT(m_dma_rd_req_addr), PORT(m_dma_rd_req_len), PORT(m_dma_rd_req_valid),
	PORT(s_dma_rd_ready), PORT(m_dma_wr_req_addr), PORT(m_dma_wr_req_len),
	PORT(m_dma_wr_req_valid), PORT(m_dma_wr_data), PORT(m_dma_wr_keep),
	PORT(m_dma_wr_last), PORT(m_dma_wr_valid), PORT(m_irq_vector), PORT(m_irq_valid),
	PORT(m_axis_tx_tdata), PORT(m_axis_tx_tkeep), PORT(m_axis_tx_tvalid),
	PORT(m_axis_tx_tlast), PORT(idle), PORT(sleep),
};
#define NPORTS (sizeof(ports) / sizeof(ports[0]))

// FNV-1a, 64 bits
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = (const unsigned char *)p;

	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t port_hash(const struct vl_nic_io *io, uint64_t h)
{
	for (size_t i = 0; i < NPORTS; i++)
		h = fnv(h, (const char *)io + ports[i].off, ports[i].size);
	return h;
}

static void print_value(const struct vl_nic_io *io, const struct port *p)
{
	const unsigned char *b = (const unsigned char *)io + p->off;

	if (p->size > 8) {
		// a data bus: its bytes, byte 0 first
		for (size_t i = 0; i < p->size && i < vl_nic_beat(); i++)
			fprintf(stderr, "%02x", b[i]);
		return;
	}
	uint64_t v = 0;
	std::memcpy(&v, b, p->size);	// (little-endian host)
	fprintf(stderr, "0x%" PRIx64, v);
}

[[noreturn]] static void mismatch(const struct vl_nic *n, const char *what,
				  const struct vl_nic_io *cur, const struct vl_nic_io *ref)
{
	uint64_t clock = vlcur_nic_cycles(n->cur);

	printf("Bail out! lockstep: clock %" PRIu64 ": %s differs from " LOCKSTEP_REF_NAME "\n",
	       clock, what);
	fflush(stdout);
	fprintf(stderr, "lockstep: the working tree's model and " LOCKSTEP_REF_NAME
		"'s differ at clock %" PRIu64 " (evaluation %" PRIu64 ", %" PRIu64
		" clocks skipped before): %s\n", clock, n->evals, n->skipped, what);
	for (size_t i = 0; cur && i < NPORTS; i++) {
		const struct port *p = &ports[i];

		if (!std::memcmp((const char *)cur + p->off, (const char *)ref + p->off, p->size))
			continue;
		fprintf(stderr, "lockstep:   port %s: working tree ", p->name);
		print_value(cur, p);
		fprintf(stderr, ", " LOCKSTEP_REF_NAME " ");
		print_value(ref, p);
		fprintf(stderr, "\n");
	}
	std::exit(1);
}

static void compare(struct vl_nic *n, const struct vl_nic_io *cur, const struct vl_nic_io *ref)
{
	uint64_t hc = port_hash(cur, 0xcbf29ce484222325ull);
	uint64_t hr = port_hash(ref, 0xcbf29ce484222325ull);

	if (hc != hr)
		mismatch(n, "the hash of the output ports", cur, ref);
	n->hash = fnv(n->hash, &hc, sizeof(hc));
	n->evals++;
}

extern "C" unsigned int vl_nic_beat(void)
{
	if (vlcur_nic_beat() != vlref_nic_beat()) {
		fprintf(stderr, "lockstep: the models' beats differ (%u, %u bytes)\n",
			vlcur_nic_beat(), vlref_nic_beat());
		std::exit(1);
	}
	return vlcur_nic_beat();
}

extern "C" struct vl_nic *vl_nic_new(void)
{
	struct vl_nic *n = new vl_nic;

	(void)vl_nic_beat();
	n->ref = vlref_nic_new();
	n->cur = vlcur_nic_new();
	n->evals = 0;
	n->hash = 0xcbf29ce484222325ull;
	n->skipped = 0;
	return n;
}

extern "C" void vl_nic_free(struct vl_nic *n)
{
	if (!n)
		return;
	printf("# lockstep: %" PRIu64 " clocks (%" PRIu64 " skipped), %" PRIu64
	       " evaluations, every output port the same as " LOCKSTEP_REF_NAME
	       "'s (hash %016" PRIx64 ")\n", vlcur_nic_cycles(n->cur), n->skipped, n->evals,
	       n->hash);
	vlcur_nic_free(n->cur);
	vlref_nic_free(n->ref);
	delete n;
}

extern "C" void vl_nic_set_inputs(struct vl_nic *n, const struct vl_nic_io *io)
{
	vlref_nic_set_inputs(n->ref, io);
	vlcur_nic_set_inputs(n->cur, io);
}

extern "C" void vl_nic_settle(struct vl_nic *n)
{
	vlref_nic_settle(n->ref);
	vlcur_nic_settle(n->cur);
}

extern "C" void vl_nic_get_outputs(const struct vl_nic *n, struct vl_nic_io *io)
{
	struct vl_nic_io r = *io;

	vlref_nic_get_outputs(n->ref, &r);
	vlcur_nic_get_outputs(n->cur, io);
	compare(const_cast<struct vl_nic *>(n), io, &r);
}

extern "C" void vl_nic_eval(struct vl_nic *n, struct vl_nic_io *io)
{
	struct vl_nic_io r = *io;

	vlref_nic_eval(n->ref, &r);
	vlcur_nic_eval(n->cur, io);
	compare(n, io, &r);
}

extern "C" void vl_nic_tick(struct vl_nic *n)
{
	vlref_nic_tick(n->ref);
	vlcur_nic_tick(n->cur);
}

extern "C" void vl_nic_reset(struct vl_nic *n, int clocks, int link_up)
{
	vlref_nic_reset(n->ref, clocks, link_up);
	vlcur_nic_reset(n->cur, clocks, link_up);
}

extern "C" uint64_t vl_nic_cycles(const struct vl_nic *n)
{
	return vlcur_nic_cycles(n->cur);
}

extern "C" uint64_t vl_nic_sleep_limit(const struct vl_nic *n)
{
	uint64_t c = vlcur_nic_sleep_limit(n->cur), r = vlref_nic_sleep_limit(n->ref);

	if (c != r) {
		char what[96];

		snprintf(what, sizeof(what), "the sleep limit (%" PRIu64 ", reference %" PRIu64 ")",
			 c, r);
		mismatch(n, what, nullptr, nullptr);
	}
	return c;
}

extern "C" void vl_nic_skip(struct vl_nic *n, uint64_t clocks)
{
	vlref_nic_skip(n->ref, clocks);
	vlcur_nic_skip(n->cur, clocks);
	n->skipped += clocks;
}

extern "C" uint64_t vl_nic_mtime(const struct vl_nic *n)
{
	uint64_t c = vlcur_nic_mtime(n->cur), r = vlref_nic_mtime(n->ref);

	if (c != r)
		mismatch(n, "mtime", nullptr, nullptr);
	return c;
}
