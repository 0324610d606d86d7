/* SPDX-License-Identifier: MIT */
/*
 * The firmware's portable part: the admin command handlers (cmd.c), the
 * boot self-test's logic (selftest.c) and CRC-32 (crc32.c). They touch the
 * NIC only through regs.h's fw_rd/fw_wr and the engine only through
 * selftest_run_vector(), so they build for the core (main.c, mmio.c,
 * selftest_hw.c) and natively for the host unit tests (firmware/tests/host).
 */
#ifndef FW_H
#define FW_H

#include <stddef.h>
#include <stdint.h>

/* ---- state the handlers report ---- */
struct fw_state {
	uint32_t build_id;	/* GET_VERSION word 2 */
	uint32_t image_crc;	/* CRC-32 of IMEM [0, image_bytes) at boot */
	uint32_t image_bytes;	/* the payload's bytes (IMEM used) */
	uint32_t st_bits;	/* FW_SELFTEST: pass bits 0..5, run bits 8..13 */
	uint32_t st_run;	/* vectors run */
	uint32_t st_failed;	/* vectors failed */
	uint32_t st_first;	/* the first failure: [15:8] set, [7:0] index */
	uint32_t link_last;	/* STATUS.LINK as last seen (fw_link_watch) */
	uint32_t st_have;	/* the sets the NIC has (bits 0..5): PASS's */
};
extern struct fw_state fw;

/* ---- admin commands (cmd.c) ---- */
/*
 * Executes the command in cmd[0..15] (MBOX_CMD) into rsp[1..]; returns the
 * status (INC_MBOX_ST_*). *nres receives the result words written (rsp[1]
 * .. rsp[*nres]). rsp[0] is left to the caller.
 */
uint32_t fw_cmd_exec(const uint32_t *cmd, uint32_t *rsp, unsigned int *nres);
/* Reads MBOX_CMD, executes it, writes MBOX_RSP (word 0 last) and completes. */
void fw_mbox_service(void);
/*
 * DEBUG_HANG's hang: never returns, never completes the command. The core
 * (main.c): interrupts off, a spin with no heartbeat, exactly a hung
 * firmware. Host tests: back to the test (longjmp).
 */
void fw_hang(void) __attribute__((noreturn));
/*
 * DEBUG_FAULT's fault: an EBREAK on the core, which the trap handler takes
 * as any exception (the fault record, FW_STATUS BOOT_ERROR, EVENT bit 2,
 * halt). Host tests: back to the test (longjmp).
 */
void fw_crash(void) __attribute__((noreturn));

/* ---- link events ---- */
/*
 * The 1 ms tick's link watch: STATUS.LINK against fw.link_last; on a
 * change, fw.link_last follows and EVENT bit 0 is set (W1S). Returns 1 on
 * a change. fw.link_last starts as STATUS.LINK at boot (no event for the
 * state the firmware found).
 */
int fw_link_watch(void);

/* ---- the boot self-test (selftest.c) ---- */
/*
 * One known vector: a compress vector's input is raw float32 bytes and its
 * expected output the chunk body the C golden model (userspace/codec)
 * gives; a decompress vector's input is such a body and its output the raw
 * bytes the model restores. Generated at build time (tools/gen-selftest.c).
 */
struct st_vector {
	uint8_t set;		/* 0..5: 2 * (mode - 1) + (decompress ? 1 : 0) */
	uint8_t index;		/* within its set */
	uint8_t mode;		/* INC_MODE_PAPER, _SPARSE, _WIDTH */
	uint8_t k;
	uint16_t in_len;
	uint16_t out_len;	/* expected output bytes */
	const uint8_t *in;
	const uint8_t *out;
};
extern const struct st_vector fw_st_vectors[];
extern const unsigned int fw_st_nvectors;

#define ST_SET_DECOMP		1	/* bit 0 of set */
#define ST_OUT_MAX		640	/* largest output a vector may have */

enum st_result {
	ST_NOT_RUN = 0,		/* the engine could not run it */
	ST_RAN = 1,		/* out[0..*out_len) is the engine's output */
	ST_RAN_BAD = 2,		/* it ran, and the engine flagged the chunk
				 * (malformed, or more output than the port
				 * holds): a failure */
};
/*
 * The engine backend: runs one vector through the codec engine of its
 * mode and direction. Hardware (selftest_hw.c): the NIC's engine test
 * port (register map 1.5). Host tests: the C codec.
 */
enum st_result selftest_run_vector(const struct st_vector *v, uint8_t *out,
				   uint32_t cap, uint32_t *out_len);
/*
 * RUN_VECTOR: vector i alone, its first in_len input bytes (0: all of it;
 * more than it has: refused), through the backend: rsp[1] the result
 * (enum st_result), rsp[2] the output length, rsp[3] 1 if the output is
 * the vector's expected one, rsp[4] its set and index ([15:8], [7:0]).
 * The engine's output stays in the backend (the NIC's TP_OUT). 0, or -1
 * for a bad i or in_len. fw's st_* fields are not touched.
 */
int fw_selftest_vector(uint32_t i, uint32_t in_len, uint32_t *rsp);
/* Runs every vector; fills fw's st_* fields; returns FW_SELFTEST's value. */
uint32_t fw_selftest(void);
/*
 * FW_STATUS's self-test bits for fw.st_bits: DONE, and PASS if every set
 * the NIC has (fw.st_have: paper and sparse, and width with FEATURES bit
 * 12) ran and passed. A set the NIC lacks is reported not run and does
 * not block PASS; a set it has that did not run does.
 */
uint32_t fw_selftest_status(void);

/* ---- CRC-32 (IEEE, zlib's crc32) ---- */
void fw_crc32_init(void);
uint32_t fw_crc32(uint32_t crc, const uint8_t *p, size_t n);

#endif /* FW_H */
