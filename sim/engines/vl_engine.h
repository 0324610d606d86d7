/* SPDX-License-Identifier: MIT */
/*
 * A C interface to the Verilator models of the codec engines
 * (rtl/codec/inc_compressor.v, inc_decompressor.v, inc_width_decompressor.v), so that tests and tools
 * are written in C against the C library. vl_engine.cpp is the only C++.
 */
#ifndef INC_VL_ENGINE_H
#define INC_VL_ENGINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* VL_WIDTH_DECOMPRESSOR: rtl/codec/inc_width_decompressor.v (width mode,
 * 16 lanes only) */
enum vl_kind { VL_COMPRESSOR, VL_DECOMPRESSOR, VL_WIDTH_DECOMPRESSOR };

/* Port values of one clock. Byte i of a stream is data[i]; keep is a bit
 * mask, bit i in keep[i / 8] bit (i % 8). */
struct vl_io {
	/* inputs */
	uint8_t s_data[128];
	uint8_t s_keep[16];
	int s_valid, s_last;
	uint32_t s_user;
	int m_ready;
	/* outputs */
	uint8_t m_data[128];
	uint8_t m_keep[16];
	int m_valid, m_last;
	uint32_t m_user;
	int s_ready;
	int status_valid, status_error;	/* decompressor only */
};

struct vl_engine;

/* lanes 8 or 16; NULL if this build has no such model */
struct vl_engine *vl_engine_new(enum vl_kind kind, int lanes);
void vl_engine_free(struct vl_engine *e);
/* bytes per beat on the s_axis and m_axis sides */
int vl_engine_in_bytes(const struct vl_engine *e);
int vl_engine_out_bytes(const struct vl_engine *e);
/* hold reset for a few clocks */
void vl_engine_reset(struct vl_engine *e);
/* drive io's inputs, settle, and read the outputs into io (clock low) */
void vl_engine_eval(struct vl_engine *e, struct vl_io *io);
/* one rising clock edge */
void vl_engine_tick(struct vl_engine *e);
uint64_t vl_engine_cycles(const struct vl_engine *e);

#ifdef __cplusplus
}
#endif

#endif
