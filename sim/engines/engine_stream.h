/* SPDX-License-Identifier: MIT */
/*
 * Streams packets through a Verilator engine model (vl_engine.h) the way
 * an AXI4-Stream master and slave would: tvalid held with stable data
 * until accepted, optional random idle cycles on the input and random
 * tready stalls on the output, one output packet collected per input
 * packet.
 */
#ifndef INC_ENGINE_STREAM_H
#define INC_ENGINE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "vl_engine.h"

struct es_packet {
	const uint8_t *data;
	size_t len;
	uint32_t user;		/* tuser of every beat */
	int hole;		/* n > 0: byte n - 1 of the last beat's tkeep
				 * cleared, a tkeep with a hole (bad input) */
};

struct es_result {
	uint8_t *data;		/* malloc'd, len bytes */
	size_t len;
	uint32_t user;		/* tuser of the tlast beat */
};

struct es_config {
	double in_idle;		/* chance a ready beat is held back a clock */
	double out_stall;	/* chance tready is low on a clock */
	uint64_t seed;
	uint64_t hang_cycles;	/* clocks without any transfer: a hang */
};

struct es_stats {
	uint64_t cycles;
	uint64_t in_beats, out_beats;
	uint64_t in_blocked;	/* clocks with tvalid high and tready low */
	uint64_t out_gaps;	/* clocks inside a run without an output beat */
	uint64_t bad_keep;	/* output beats with holes, or short before tlast */
	uint64_t status_chunks, status_errors;
	uint64_t first_in;		/* clock of the first input beat */
	uint64_t first_out, last_out;	/* clock of first and last out beat */
};

/*
 * Run n packets through e (already reset). out[i] receives the output
 * packet of in[i]. Returns 0, or -1 if the engine hung (see hang_cycles)
 * or produced more packets than it was given.
 */
int es_run(struct vl_engine *e, const struct es_packet *in, size_t n,
	   struct es_result *out, const struct es_config *cfg,
	   struct es_stats *st);
void es_free(struct es_result *out, size_t n);

#endif
