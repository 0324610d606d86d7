// SPDX-License-Identifier: MIT
/*
 * The boot self-test's logic: every known vector through the engine
 * backend (selftest_run_vector), its output compared with the golden
 * model's. A set (mode x direction) passes when every vector of it ran and
 * matched; one that did not run is reported as not run (its bit 8 + set
 * clear), never as passed. SELFTEST_PASS: every set the NIC has (paper
 * and sparse; width when FEATURES bit 12 says the NIC takes width mode)
 * ran and passed (docs/firmware.md).
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
	fw.st_have = 0x0f;	/* paper, sparse: compress, decompress */
	if (fw_rd(INC_FEATURES) & INC_FEAT_MODE_WIDTH)
		fw.st_have |= 0x30;
	for (unsigned int i = 0; i < fw_st_nvectors; i++) {
		const struct st_vector *v = &fw_st_vectors[i];
		uint32_t bit = 1u << v->set, len = 0;
		enum st_result r;
		int bad;

		r = selftest_run_vector(v, st_out, sizeof(st_out), &len);
		if (r == ST_NOT_RUN) {
			notrun |= bit;
			continue;
		}
		ran |= bit;
		fw.st_run++;
		bad = r != ST_RAN || len != v->out_len;
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

int fw_selftest_vector(uint32_t i, uint32_t in_len, uint32_t *rsp)
{
	struct st_vector v;
	enum st_result r;
	uint32_t len = 0;
	int same;

	if (i >= fw_st_nvectors)
		return -1;
	v = fw_st_vectors[i];
	if (in_len > v.in_len)
		return -1;
	if (in_len)
		v.in_len = (uint16_t)in_len;
	r = selftest_run_vector(&v, st_out, sizeof(st_out), &len);
	same = r == ST_RAN && len == v.out_len;
	for (uint32_t j = 0; same && j < len; j++)
		same = st_out[j] == v.out[j];
	rsp[1] = (uint32_t)r;
	rsp[2] = len;
	rsp[3] = (uint32_t)same;
	rsp[4] = (uint32_t)v.set << 8 | v.index;
	return 0;
}

uint32_t fw_selftest_status(void)
{
	uint32_t have = fw.st_have;

	return INC_FW_STATUS_ST_DONE |
	       (have && (fw.st_bits & have) == have ? INC_FW_STATUS_ST_PASS : 0);
}
