/* SPDX-License-Identifier: MIT */
/* Small helpers for incgrad: gradient files, clocks, number parsing. */
#ifndef INCGRAD_UTIL_H
#define INCGRAD_UTIL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Read a whole float32 file into a malloc'd buffer. Refuses a missing or
 * unreadable file, an empty file and one whose length is not a multiple
 * of 4, printing "incgrad: what: PATH: reason". 0 or -1.
 */
int ig_load_floats(const char *what, const char *path, uint8_t **buf,
		   size_t *len);
/* Write len bytes to path (a temporary name, then rename). 0 or -1. */
int ig_save(const char *path, const void *buf, size_t len);

double ig_now(void);			/* monotonic seconds */
void ig_sleep_until(double t);		/* on the ig_now() clock */

/* Parse an unsigned decimal with an optional K/M/G suffix (powers of
 * 1000 when si, else of 1024) into *v, between lo and hi. 0 or -1. */
int ig_parse_num(const char *s, int si, uint64_t lo, uint64_t hi,
		 uint64_t *v);

#endif
