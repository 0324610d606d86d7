// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "report.h"

static void put(struct ig_json *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct ig_json *j, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (j->overflow)
		return;
	va_start(ap, fmt);
	r = vsnprintf(j->buf + j->n, sizeof(j->buf) - j->n, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(j->buf) - j->n)
		j->overflow = 1;
	else
		j->n += (size_t)r;
}

static void key(struct ig_json *j, const char *k)
{
	put(j, "%s\"%s\":", j->n > 1 ? "," : "", k);
}

void ig_json_begin(struct ig_json *j)
{
	j->n = 0;
	j->overflow = 0;
	put(j, "{");
}

void ig_json_str(struct ig_json *j, const char *k, const char *v)
{
	key(j, k);
	if (!v) {
		put(j, "null");
		return;
	}
	put(j, "\"");
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c == '"' || c == '\\')
			put(j, "\\%c", c);
		else if (c < 0x20)
			put(j, "\\u%04x", c);
		else
			put(j, "%c", c);
	}
	put(j, "\"");
}

void ig_json_u64(struct ig_json *j, const char *k, uint64_t v)
{
	key(j, k);
	put(j, "%llu", (unsigned long long)v);
}

void ig_json_dbl(struct ig_json *j, const char *k, double v)
{
	key(j, k);
	if (isfinite(v))
		put(j, "%.17g", v);
	else
		put(j, "null");
}

void ig_json_bool(struct ig_json *j, const char *k, int v)
{
	key(j, k);
	put(j, "%s", v < 0 ? "null" : v ? "true" : "false");
}

void ig_json_hex32(struct ig_json *j, const char *k, uint32_t v)
{
	key(j, k);
	put(j, "\"0x%08x\"", v);
}

void ig_json_print(struct ig_json *j, FILE *f)
{
	put(j, "}");
	if (j->overflow)
		fputs("{\"error\":\"report too long\"}\n", f);
	else
		fprintf(f, "%s\n", j->buf);
	fflush(f);
}

void ig_row(FILE *f, const char *k, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "  %-18s ", k);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

double ig_mbps(uint64_t bytes, double seconds)
{
	return seconds > 0 ? (double)bytes * 8 / seconds / 1e6 : 0;
}
