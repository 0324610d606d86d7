/* SPDX-License-Identifier: MIT */
/*
 * Output of incgrad: one JSON object per line (for scripts) or a human
 * table of "key  value" rows. Field names are listed in PROTOCOL.md.
 */
#ifndef INCGRAD_REPORT_H
#define INCGRAD_REPORT_H

#include <stdint.h>
#include <stdio.h>

struct ig_json {
	char buf[4096];
	size_t n;
	int overflow;
};

void ig_json_begin(struct ig_json *j);
void ig_json_str(struct ig_json *j, const char *key, const char *v); /* NULL: null */
void ig_json_u64(struct ig_json *j, const char *key, uint64_t v);
void ig_json_dbl(struct ig_json *j, const char *key, double v);	/* non-finite: null */
void ig_json_bool(struct ig_json *j, const char *key, int v);	/* <0: null */
void ig_json_hex32(struct ig_json *j, const char *key, uint32_t v);
/* Close the object and print it with a newline; flushes f. */
void ig_json_print(struct ig_json *j, FILE *f);

/* One table row: "  key         value". */
void ig_row(FILE *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Payload throughput in Mbit/s (0 when seconds is 0). */
double ig_mbps(uint64_t bytes, double seconds);

#endif
