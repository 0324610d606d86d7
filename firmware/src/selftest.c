// SPDX-License-Identifier: MIT
/*
 * The boot self-test's logic: every known vector through the engine
 * backend (selftest_run_vector), its output compared with the golden
 * model's. A set (mode x direction) passes when every vector of it ran and
 * matched; one that did not run is reported as not run (its bit 8 + set
 * clear), never as passed.
 */
#include "fw.h"
#include "regs.h"

static uint8_t st_out[ST_OUT_MAX];

uint32_t fw_selftest(void)
{
	uint32_t ran = 0, notrun = 0, failed = 0;

	fw.st_run = 0;
	fw.st_failed = 0;
	fw.st_first = 0;
	for (unsigned int i = 0; i < fw_st_nvectors; i++) {
		const struct st_vector *v = &fw_st_vectors[i];
		uint32_t bit = 1u << v->set, len = 0;
		int bad;

		if (selftest_run_vector(v, st_out, sizeof(st_out), &len) != ST_RAN) {
			notrun |= bit;
			continue;
		}
		ran |= bit;
		fw.st_run++;
		bad = len != v->out_len;
		for (uint32_t j = 0; !bad && j < len; j++)
			bad = st_out[j] != v->out[j];
		if (bad) {
			if (!fw.st_failed)
				fw.st_first = (uint32_t)v->set << 8 | v->index;
			fw.st_failed++;
			failed |= bit;
		}
	}
	/* a set ran if all its vectors did */
	ran &= ~notrun;
	fw.st_bits = (ran & ~failed) | ran << INC_FW_SELFTEST_RUN_SHIFT;
	return fw.st_bits;
}

uint32_t fw_selftest_status(void)
{
	uint32_t all = (1u << INC_FW_ST_SETS) - 1;

	return INC_FW_STATUS_ST_DONE |
	       ((fw.st_bits & all) == all ? INC_FW_STATUS_ST_PASS : 0);
}
