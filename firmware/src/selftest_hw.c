// SPDX-License-Identifier: MIT
/*
 * The self-test's hardware backend: the NIC's engine test port (register
 * map 1.5, FEATURES bit 14, block 0x0540; docs/regmap.md). One vector is
 * one chunk: its input bytes into TP_IN, TP_LEN, then TP_CTRL with START,
 * the direction, mode and k; the port feeds the chunk through the
 * datapath's own engine between frames and captures the output into
 * TP_OUT; TP_STATUS says DONE, the output length and the engine's verdict.
 *
 * Not run (never a pass): a NIC without the port (a 1.4 NIC), a width
 * vector on a NIC without width mode (FEATURES bit 12 clear, 8 lanes), an
 * input longer than TP_IN, a run the port refused or cancelled, and a
 * run whose engine the datapath did not hand over within ST_WAIT_US (a
 * frame held inside it: the request is withdrawn with CANCEL).
 */
#include "fw.h"
#include "regs.h"

#define ST_WAIT_US	5000u	/* the port's grant and run, at most (mtime: us) */

static uint32_t now_us(void)
{
	return *(volatile uint32_t *)FW_MTIME_LO;
}

/* TP_STATUS once the run ended, or 0 if it did not within ST_WAIT_US */
static uint32_t tp_wait(void)
{
	uint32_t t0 = now_us(), st;

	for (;;) {
		st = fw_rd(INC_TP_STATUS);
		if (!(st & INC_TP_ST_BUSY))
			return st;
		if (now_us() - t0 > ST_WAIT_US)
			return 0;
	}
}

enum st_result selftest_run_vector(const struct st_vector *v, uint8_t *out,
				   uint32_t cap, uint32_t *out_len)
{
	uint32_t feat = fw_rd(INC_FEATURES);
	uint32_t decomp = v->set & ST_SET_DECOMP;
	uint32_t st, n;

	*out_len = 0;
	if (!(feat & INC_FEAT_TPORT))
		return ST_NOT_RUN;
	if (v->mode == INC_MODE_WIDTH && !(feat & INC_FEAT_MODE_WIDTH))
		return ST_NOT_RUN;
	if (v->in_len > (fw_rd(INC_TP_INFO) & 0xffff))
		return ST_NOT_RUN;
	if (fw_rd(INC_TP_STATUS) & INC_TP_ST_BUSY)
		return ST_NOT_RUN;

	for (uint32_t i = 0; i < v->in_len; i += 4) {
		uint32_t w = 0;

		for (uint32_t b = 0; b < 4 && i + b < v->in_len; b++)
			w |= (uint32_t)v->in[i + b] << (8 * b);
		fw_wr(INC_TP_IN + i, w);
	}
	fw_wr(INC_TP_LEN, v->in_len |
	      (decomp ? (uint32_t)v->out_len << INC_TP_LEN_RAW_SHIFT : 0));
	fw_wr(INC_TP_CTRL, INC_TP_CTRL_START | (decomp ? INC_TP_CTRL_DECOMP : 0) |
	      (uint32_t)v->mode << INC_TP_CTRL_MODE_SHIFT |
	      (uint32_t)v->k << INC_TP_CTRL_K_SHIFT);
	st = tp_wait();
	if (!st) {
		/* not granted in time: withdraw (a run already granted ends) */
		fw_wr(INC_TP_CTRL, INC_TP_CTRL_CANCEL);
		st = tp_wait();
		if (!st)
			return ST_NOT_RUN;
	}
	if (!(st & INC_TP_ST_DONE) || (st & (INC_TP_ST_REFUSED | INC_TP_ST_CANCELLED)))
		return ST_NOT_RUN;

	n = st >> INC_TP_ST_OUT_SHIFT;
	*out_len = n;
	if (n > cap)
		n = cap;
	if (n > INC_TP_OUT_BYTES)
		n = INC_TP_OUT_BYTES;
	for (uint32_t i = 0; i < n; i += 4) {
		uint32_t w = fw_rd(INC_TP_OUT + i);

		for (uint32_t b = 0; b < 4 && i + b < n; b++)
			out[i + b] = (uint8_t)(w >> (8 * b));
	}
	if (st & (INC_TP_ST_ERROR | INC_TP_ST_OVERFLOW))
		return ST_RAN_BAD;
	return ST_RAN;
}
