// SPDX-License-Identifier: MIT
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

/*
 * /proc/net/snmp or /proc/net/netstat (file): a "Udp: Name Name ..." line,
 * then "Udp: 1 2 ...".
 */
static uint64_t snmp_field(const char *file, const char *proto,
			   const char *name)
{
	FILE *f = fopen(file, "r");
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

/*
 * Column name of /proc/net/stat/FILE (a header line, then a line of hex
 * numbers per CPU), summed over the CPUs. 0 and *found unchanged when the
 * file or the column is missing.
 */
static uint64_t stat_column(const char *file, const char *name, int *found)
{
	char path[64], line[1024], *tok, *sp;
	unsigned int col = 0, i;
	uint64_t sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/net/stat/%s", file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		goto out;
	for (tok = strtok_r(line, " \n", &sp); tok;
	     tok = strtok_r(NULL, " \n", &sp), col++)
		if (!strcmp(tok, name))
			break;
	if (!tok)
		goto out;
	*found = 1;
	while (fgets(line, sizeof(line), f)) {
		tok = strtok_r(line, " \n", &sp);
		for (i = 0; tok && i < col; i++)
			tok = strtok_r(NULL, " \n", &sp);
		if (tok)
			sum += strtoull(tok, NULL, 16);
	}
out:
	fclose(f);
	return sum;
}

/* the drops of one RTM_NEWQDISC message: TCA_STATS2/TCA_STATS_QUEUE */
static uint64_t qdisc_msg_drops(struct nlmsghdr *h)
{
	struct tcmsg *t = NLMSG_DATA(h);
	struct rtattr *a = (struct rtattr *)((char *)t +
					      NLMSG_ALIGN(sizeof(*t)));
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*t));

	if (t->tcm_parent != TC_H_ROOT)
		return 0;	/* a root qdisc's figures include its children */
	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		struct rtattr *n = RTA_DATA(a);
		int nl = (int)RTA_PAYLOAD(a);

		if (a->rta_type != TCA_STATS2)
			continue;
		for (; RTA_OK(n, nl); n = RTA_NEXT(n, nl)) {
			struct gnet_stats_queue q;

			if (n->rta_type != TCA_STATS_QUEUE ||
			    RTA_PAYLOAD(n) < sizeof(q))
				continue;
			memcpy(&q, RTA_DATA(n), sizeof(q));
			return q.drops;
		}
	}
	return 0;
}

/*
 * Packets the root queueing disciplines of every interface dropped
 * (RTM_GETQDISC over rtnetlink): fq_codel, the kernel's default here, drops
 * at dequeue when a back-pressured NIC lets its queue stand, which no
 * socket or interface counter sees. 0, or -1 without rtnetlink.
 */
static int qdisc_drops(uint64_t *drops)
{
	struct {
		struct nlmsghdr h;
		struct tcmsg t;
	} req = {
		.h = {
			.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
			.nlmsg_type = RTM_GETQDISC,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = 1,
		},
		.t = { .tcm_family = AF_UNSPEC },
	};
	static char buf[32768];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int rc = -1;

	if (fd < 0)
		return -1;
	*drops = 0;
	if (send(fd, &req, req.h.nlmsg_len, 0) != (ssize_t)req.h.nlmsg_len)
		goto out;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		int len = (int)n;

		if (n <= 0)
			goto out;
		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				rc = 0;
				goto out;
			}
			if (h->nlmsg_type == NLMSG_ERROR)
				goto out;
			if (h->nlmsg_type == RTM_NEWQDISC)
				*drops += qdisc_msg_drops(h);
		}
	}
out:
	close(fd);
	return rc;
}

int ig_neigh_failed(uint64_t *failed)
{
	int found = 0;

	*failed = stat_column("arp_cache", "res_failed", &found) +
		  stat_column("ndisc_cache", "res_failed", &found);
	return found ? 0 : -1;
}

int ig_host_drops(int rx, uint64_t *drops)
{
	uint64_t d;

	/* rx: bytes packets errs drop ...; tx starts at column 8 */
	if (dev_column(rx ? 3 : 11, &d))
		return -1;
	if (rx)
		d += snmp_field("/proc/net/snmp", "Udp", "InErrors") +
		     snmp6_field("Udp6InErrors");
	else {
		uint64_t q;
		int found = 0;

		/*
		 * A queueing discipline that drops on enqueue counts the
		 * packet and so does UDP (SndbufErrors): the qdisc figures
		 * alone, the UDP ones only without rtnetlink
		 */
		if (qdisc_drops(&q))
			q = snmp_field("/proc/net/snmp", "Udp", "SndbufErrors") +
			    snmp6_field("Udp6SndbufErrors");
		d += q +
		     stat_column("arp_cache", "unresolved_discards", &found) +
		     stat_column("ndisc_cache", "unresolved_discards", &found);
	}
	*drops = d;
	return 0;
}

int ig_ip_in_errors(uint64_t *errors)
{
	static const char *const v4[] = {
		"InHdrErrors", "InAddrErrors", "InUnknownProtos", "InDiscards",
		"ReasmFails",
	};
	static const char *const v6[] = {
		"Ip6InHdrErrors", "Ip6InTooBigErrors", "Ip6InAddrErrors", "Ip6InUnknownProtos", "Ip6InTruncatedPkts",
		"Ip6InDiscards", "Ip6ReasmFails",
	};
	uint64_t n = 0;
	size_t i;

	if (access("/proc/net/snmp", R_OK))
		return -1;
	for (i = 0; i < sizeof(v4) / sizeof(v4[0]); i++)
		n += snmp_field("/proc/net/snmp", "Ip", v4[i]);
	n += snmp_field("/proc/net/netstat", "IpExt", "InTruncatedPkts");
	for (i = 0; i < sizeof(v6) / sizeof(v6[0]); i++)
		n += snmp6_field(v6[i]);
	*errors = n;
	return 0;
}
