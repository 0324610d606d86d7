// SPDX-License-Identifier: MIT
/*
 * bnic's engine test port (nic_tport, register map 1.5): the core feeds one
 * chunk through "the engine" and reads what comes out. The engines here
 * are the codec library's inc_chunk_encode() and inc_chunk_decode(), which
 * the RTL engines are bit-exact with (docs/codec.md); a run ends in the
 * write that starts it (the RTL takes some hundreds of clocks), so BUSY is
 * never seen and CANCEL finds nothing to withdraw.
 */
#include <string.h>

#include "bnic_priv.h"
#include "inccodec.h"

#define A_OUT_END	(INC_TP_OUT + INC_TP_OUT_BYTES)

uint32_t bnic_tp_read(struct bnic *b, uint16_t a)
{
	if (a >= INC_TP_OUT && a < A_OUT_END)
		return bn_get(b->tp_out + (a - INC_TP_OUT), 4);
	switch (a) {
	case INC_TP_CTRL:	return b->tp_ctrl;
	case INC_TP_LEN:	return b->tp_len;
	case INC_TP_STATUS:	return b->tp_status;
	case INC_TP_INFO:	return (uint32_t)INC_TP_OUT_BYTES << 16 | INC_TP_IN_BYTES;
	default:		return 0;	/* TP_IN reads 0, as the rest */
	}
}

/* One run; the status word it ends with. */
static uint32_t tp_run(struct bnic *b, int decomp, unsigned int mode,
		       unsigned int k)
{
	static uint8_t res[16384];
	size_t in_len = b->tp_len & 0xffff;
	size_t raw_len = (b->tp_len >> INC_TP_LEN_RAW_SHIFT) & 0x3fff;
	size_t n = 0, beat = 4u * b->cfg.lanes;
	uint32_t st = INC_TP_ST_DONE;
	int rc;

	b->cnt.tp_runs++;
	if (!decomp) {
		rc = inc_chunk_encode(b->tp_in, in_len, k, (enum inc_mode)mode,
				      res, sizeof(res), &n);
		if (rc) {
			st |= INC_TP_ST_ERROR;
			n = 0;
		}
		if (b->cfg.engine_fault & BNIC_FAULT_TX)
			bnic_fault_flip(res, n, 2 * beat);
	} else {
		n = raw_len;
		memset(res, 0, n);
		rc = inc_chunk_decode(b->tp_in, in_len, raw_len, k,
				      (enum inc_mode)mode, res, sizeof(res));
		if (rc)
			st |= INC_TP_ST_ERROR;
		if (b->cfg.engine_fault & BNIC_FAULT_RX)
			bnic_fault_flip(res, n, beat);
	}
	if (n > INC_TP_OUT_BYTES)
		st |= INC_TP_ST_OVERFLOW;
	memset(b->tp_out, 0, sizeof(b->tp_out));
	memcpy(b->tp_out, res, n > INC_TP_OUT_BYTES ? INC_TP_OUT_BYTES : n);
	return st | (uint32_t)(n & 0xffff) << INC_TP_ST_OUT_SHIFT;
}

void bnic_tp_write(struct bnic *b, uint16_t a, uint32_t v)
{
	unsigned int mode = (v >> INC_TP_CTRL_MODE_SHIFT) & 3;
	unsigned int k = (v >> INC_TP_CTRL_K_SHIFT) & 31;

	if (a >= INC_TP_IN && a < INC_TP_IN + INC_TP_IN_BYTES) {
		bn_put(b->tp_in + (a - INC_TP_IN), v, 4);
		return;
	}
	if (a == INC_TP_LEN) {
		b->tp_len = v & 0x3fffffff;
		return;
	}
	if (a != INC_TP_CTRL)
		return;
	/* the fields are kept (a run is never in progress here) */
	b->tp_ctrl = (v & INC_TP_CTRL_DECOMP) | mode << INC_TP_CTRL_MODE_SHIFT |
		     k << INC_TP_CTRL_K_SHIFT;
	if (!(v & INC_TP_CTRL_START))
		return;
	if ((b->tp_len & 0xffff) > INC_TP_IN_BYTES || !mode ||
	    (mode == INC_MODE_WIDTH && !b->cfg.width) || !k || k > 24) {
		b->tp_status = INC_TP_ST_DONE | INC_TP_ST_REFUSED;
		return;
	}
	b->tp_status = tp_run(b, !!(v & INC_TP_CTRL_DECOMP), mode, k);
}
