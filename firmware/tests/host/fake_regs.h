/* SPDX-License-Identifier: MIT */
/* A fake NIC register file for the firmware's host unit tests. */
#ifndef FAKE_REGS_H
#define FAKE_REGS_H

#include <stdint.h>

#define FAKE_WORDS	(0x2000 / 4)
extern uint32_t fake_reg[FAKE_WORDS];
/* the order of writes: offsets, in fake_log[0..fake_nlog) */
extern uint32_t fake_log[4096];
extern unsigned int fake_nlog;
void fake_reset(void);
/* set a live 64-bit counter */
void fake_counter(unsigned int n, uint64_t v);

/* the host engine backend (selftest_host.c) */
enum host_engine {
	HOST_CODEC,		/* the C codec: every vector runs */
	HOST_NOT_RUN,		/* as the hardware backend today */
	HOST_CORRUPT,		/* the C codec, one byte wrong in set host_set, vector host_index */
	HOST_SHORT,		/* one byte short in host_set / host_index */
	HOST_SET_NOT_RUN,	/* host_set's vector host_index not run */
	HOST_FLAGGED,		/* host_set / host_index: the engine flagged it (ST_RAN_BAD) */
	HOST_NO_WIDTH,		/* width vectors not run (an 8-lane NIC's port) */
};
extern enum host_engine host_engine;
extern unsigned int host_set, host_index;

#endif
