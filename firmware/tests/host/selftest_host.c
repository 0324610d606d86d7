// SPDX-License-Identifier: MIT
/*
 * The self-test's host backend: the C codec (userspace/codec) as the
 * engine, so that fw_selftest's comparison logic is tested against the
 * real model, with faults injected on demand (fake_regs.h).
 */
#include "fake_regs.h"
#include "fw.h"
#include "inccodec.h"

enum host_engine host_engine = HOST_CODEC;
unsigned int host_set, host_index;

enum st_result selftest_run_vector(const struct st_vector *v, uint8_t *out,
				   uint32_t cap, uint32_t *out_len)
{
	int hit = v->set == host_set && v->index == host_index;
	size_t len = 0;
	int rc;

	if (host_engine == HOST_NOT_RUN || (host_engine == HOST_SET_NOT_RUN && hit) ||
	    (host_engine == HOST_NO_WIDTH && v->mode == INC_MODE_WIDTH))
		return ST_NOT_RUN;
	if (v->set & ST_SET_DECOMP) {
		len = v->out_len;
		rc = inc_chunk_decode(v->in, v->in_len, v->out_len, v->k,
				      (enum inc_mode)v->mode, out, cap);
	} else {
		rc = inc_chunk_encode(v->in, v->in_len, v->k, (enum inc_mode)v->mode,
				      out, cap, &len);
	}
	if (rc != 0)
		len = 0;
	if (hit && host_engine == HOST_CORRUPT && len > 0)
		out[len / 2] ^= 0x10;
	if (hit && host_engine == HOST_SHORT && len > 0)
		len--;
	*out_len = (uint32_t)len;
	return hit && host_engine == HOST_FLAGGED ? ST_RAN_BAD : ST_RAN;
}
