// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drops.h"

/* Sum of column col (0 = first number after "name:") of /proc/net/dev. */
static int dev_column(unsigned int col, uint64_t *sum)
{
	FILE *f = fopen("/proc/net/dev", "r");
	char line[512];

	if (!f)
		return -1;
	*sum = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':'), *end;
		unsigned int i;

		if (!p)
			continue;	/* the two header lines */
		p++;
		for (i = 0; i <= col; i++) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			if (i == col)
				*sum += v;
			p = end;
		}
	}
	fclose(f);
	return 0;
}

/* /proc/net/snmp: a "Udp: Name Name ..." line, then "Udp: 1 2 ...". */
static uint64_t snmp_field(const char *proto, const char *name)
{
	FILE *f = fopen("/proc/net/snmp", "r");
	char names[1024], vals[1024];
	size_t pl = strlen(proto);
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(names, sizeof(names), f)) {
		char *sn, *sv, *n, *x;

		if (strncmp(names, proto, pl) || names[pl] != ':')
			continue;
		if (!fgets(vals, sizeof(vals), f))
			break;
		n = strtok_r(names + pl + 1, " \n", &sn);
		x = strtok_r(vals + pl + 1, " \n", &sv);
		while (n && x) {
			if (!strcmp(n, name)) {
				v = strtoull(x, NULL, 10);
				break;
			}
			n = strtok_r(NULL, " \n", &sn);
			x = strtok_r(NULL, " \n", &sv);
		}
		break;
	}
	fclose(f);
	return v;
}

/* /proc/net/snmp6: "Name value" lines. */
static uint64_t snmp6_field(const char *name)
{
	FILE *f = fopen("/proc/net/snmp6", "r");
	char line[256], n[128];
	unsigned long long x;
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu", n, &x) == 2 && !strcmp(n, name)) {
			v = x;
			break;
		}
	fclose(f);
	return v;
}

int ig_host_drops(int rx, uint64_t *drops)
{
	uint64_t d;

	/* rx: bytes packets errs drop ...; tx starts at column 8 */
	if (dev_column(rx ? 3 : 11, &d))
		return -1;
	if (rx)
		d += snmp_field("Udp", "InErrors") +
		     snmp6_field("Udp6InErrors");
	else
		d += snmp_field("Udp", "SndbufErrors") +
		     snmp6_field("Udp6SndbufErrors");
	*drops = d;
	return 0;
}
