/* SPDX-License-Identifier: MIT */
/*
 * Minimal TAP (Test Anything Protocol) helpers for the C tests, plus the
 * things several tests need: a PRNG, the shared gradients, and an encoder
 * written independently of the library from the text of docs/codec.md.
 */
#ifndef INC_TESTLIB_H
#define INC_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

/* ---- TAP ---- */
void t_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void t_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan and return the exit status (0 when nothing failed). */
int t_done(void);
int t_failures(void);

/* ---- random ---- */
struct rng { uint64_t s; };
uint64_t rng_next(struct rng *r);
double rng_unit(struct rng *r);		/* [0, 1) */
double rng_gauss(struct rng *r);
uint32_t rng_below(struct rng *r, uint32_t n);

/* ---- data ---- */
/* Directory of the shared gradients (INC_GRADIENTS or ../shared/gradients). */
const char *t_gradient_dir(void);
/* Sorted list of *.f32 files there; returns the count (0 if none). */
size_t t_gradient_files(char ***paths);
uint8_t *t_read_file(const char *path, size_t *len);

/* ---- independent reference of the format ---- */
/* Class (0..3) and quantized q of a float, from exact double arithmetic. */
int ref_class(float v, unsigned int k, long *q);
/* Expected decoded value bits for the float with bits b. */
uint32_t ref_decoded(uint32_t b, unsigned int k);
/* Classes and payload integers (q, or the raw bits) of n values. */
void ref_classify(const uint8_t *raw, size_t n, unsigned int k,
		  uint8_t *cls, int32_t *q);
/* Body of a chunk in mode 1 (paper) or 2 (sparse) from those; returns its
 * length. out must hold 10000 bytes. */
size_t ref_encode_classified(const uint8_t *raw, size_t raw_len,
			     const uint8_t *cls, const int32_t *q, int mode,
			     uint8_t *out);
/* Body of a chunk in mode 3 (width) from those (out: 10000 bytes). */
size_t ref_encode_width(const uint8_t *raw, size_t raw_len,
			const uint8_t *cls, const int32_t *q, uint8_t *out);
/* Both in one, any mode 1..3 (raw_len <= 9216). */
size_t ref_encode_body(const uint8_t *raw, size_t raw_len, unsigned int k,
		       int mode, uint8_t *out);
/* Check decoded bytes against the original: every finite value within
 * 2^-k, non-finite values and the tail bit-exact. Returns the number of
 * violations; *maxerr receives the largest error of finite values. */
size_t t_check_bound(const uint8_t *orig, const uint8_t *dec, size_t len,
		     unsigned int k, double *maxerr);

#endif
