// SPDX-License-Identifier: GPL-2.0
/*
 * forge: frames for the peer-learning selftests (nic_peers.sh), built
 * static for the busybox guests.
 *
 *   forge icmp4 IFACE DSTMAC DSTIP OUTER QSRC QDST COUNT
 *   forge icmp6 IFACE DSTMAC DSTIP OUTER QSRC QDST COUNT
 *	COUNT ICMP errors, sent on IFACE (AF_PACKET) to DSTMAC/DSTIP, each
 *	the "protocol unreachable" (IPv4: type 3 code 2) or "unrecognized
 *	next header" (IPv6: type 4 code 1) a host without an inceptionn NIC
 *	sends back for a compressed frame: quoting an IP header from QSRC to
 *	QDST with protocol 253. The i-th error quotes QDST + i (its last
 *	byte or 16-bit group incremented); OUTER is the error's source
 *	address, or "=qdst" for QDST + i itself (what a real host sends).
 *
 *   forge marked-udp DST PORT COUNT [K]
 *	COUNT UDP datagrams of 256 float32 each to DST:PORT (IPv4 or IPv6)
 *	on a socket marked with INC_SO_GRADIENT (k = K, default 10, sparse).
 *	Nothing needs to listen: the frames only have to leave.
 *
 * Exit 0 when everything was sent, 1 on an error (said on stderr), 2 on
 * bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_packet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <inceptionn/inceptionn.h>

static int usage(void)
{
	fprintf(stderr,
		"usage: forge icmp4|icmp6 IFACE DSTMAC DSTIP OUTER|=qdst QSRC QDST COUNT\n"
		"       forge marked-udp DST PORT COUNT [K]\n");
	return 2;
}

static uint16_t csum_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static uint32_t csum_add(uint32_t s, const void *buf, size_t len)
{
	const uint8_t *b = buf;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (len & 1)
		s += (uint32_t)b[len - 1] << 8;
	return s;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = (uint8_t)v;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

/* address a + i: the last byte (IPv4) or 16-bit group (IPv6) + i */
static void addr_plus(int v6, uint8_t *a, unsigned int i)
{
	if (v6) {
		unsigned int g = (a[14] << 8 | a[15]) + i;

		a[14] = (uint8_t)(g >> 8);
		a[15] = (uint8_t)g;
	} else {
		a[3] = (uint8_t)(a[3] + i);
	}
}

static int forge_icmp(int v6, char **av)
{
	const char *ifname = av[0];
	int af = v6 ? AF_INET6 : AF_INET, alen = v6 ? 16 : 4;
	uint8_t dmac[6], dip[16], outer[16], qsrc[16], qdst0[16];
	int outer_is_qdst = !strcmp(av[3], "=qdst");
	long count = strtol(av[6], NULL, 0);
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	uint8_t f[256];
	long i;
	int fd;

	if (parse_mac(av[1], dmac) || inet_pton(af, av[2], dip) != 1 ||
	    (!outer_is_qdst && inet_pton(af, av[3], outer) != 1) ||
	    inet_pton(af, av[4], qsrc) != 1 || inet_pton(af, av[5], qdst0) != 1 ||
	    count < 1 || count > 65536)
		return usage();
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "forge: no interface %s\n", ifname);
		return 1;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("forge: AF_PACKET socket");
		return 1;
	}
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, dmac, 6);

	for (i = 0; i < count; i++) {
		uint8_t qdst[16], *ip = f + 14, *ic, *q;
		size_t len;
		uint32_t s;

		memcpy(qdst, qdst0, sizeof(qdst));
		addr_plus(v6, qdst, (unsigned int)i);
		memset(f, 0, sizeof(f));
		memcpy(f, dmac, 6);
		/* the source MAC: the kernel does not fill it for SOCK_RAW */
		f[6] = 0x02;
		f[11] = 0x99;
		put16(f + 12, v6 ? 0x86dd : 0x0800);
		if (!v6) {
			/* IPv4 | ICMP 8 | quoted IPv4 20 | 8 bytes of the shim */
			ic = ip + 20;
			q = ic + 8;
			len = 20 + 8 + 20 + 8;
			ip[0] = 0x45;
			put16(ip + 2, (uint16_t)len);
			ip[8] = 64;
			ip[9] = 1;	/* ICMP */
			memcpy(ip + 12, outer_is_qdst ? qdst : outer, 4);
			memcpy(ip + 16, dip, 4);
			put16(ip + 10, csum_fold(csum_add(0, ip, 20)));
			ic[0] = 3;	/* destination unreachable */
			ic[1] = 2;	/* protocol unreachable */
			q[0] = 0x45;
			put16(q + 2, 20 + 16 + 40);
			q[8] = 63;
			q[9] = 253;	/* the inceptionn shim */
			memcpy(q + 12, qsrc, 4);
			memcpy(q + 16, qdst, 4);
			put16(q + 10, csum_fold(csum_add(0, q, 20)));
			put16(ic + 2, csum_fold(csum_add(0, ic, 8 + 20 + 8)));
		} else {
			/* IPv6 | ICMPv6 8 | quoted IPv6 40 | 8 bytes */
			uint8_t ph[40] = { 0 };

			ic = ip + 40;
			q = ic + 8;
			len = 40 + 8 + 40 + 8;
			ip[0] = 0x60;
			put16(ip + 4, 8 + 40 + 8);
			ip[6] = 58;	/* ICMPv6 */
			ip[7] = 64;
			memcpy(ip + 8, outer_is_qdst ? qdst : outer, 16);
			memcpy(ip + 24, dip, 16);
			ic[0] = 4;	/* parameter problem */
			ic[1] = 1;	/* unrecognized next header */
			ic[7] = 6;	/* pointer: the quoted next header */
			q[0] = 0x60;
			put16(q + 4, 16 + 40);
			q[6] = 253;
			q[7] = 63;
			memcpy(q + 8, qsrc, 16);
			memcpy(q + 24, qdst, 16);
			memcpy(ph, ip + 8, 32);
			put16(ph + 34, 8 + 40 + 8);
			ph[39] = 58;
			s = csum_add(0, ph, sizeof(ph));
			put16(ic + 2, csum_fold(csum_add(s, ic, 8 + 40 + 8)));
		}
		(void)alen;
		if (sendto(fd, f, 14 + len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) != (ssize_t)(14 + len)) {
			perror("forge: sendto");
			close(fd);
			return 1;
		}
		if (!(i % 64))
			usleep(1000);	/* don't outrun a simulated NIC */
	}
	close(fd);
	printf("forge: %ld ICMP%s errors sent on %s\n", count, v6 ? "v6" : "",
	       ifname);
	return 0;
}

static int marked_udp(char **av, int ac)
{
	struct inc_gradient g = { .enable = 1, .k = 10,
				  .mode = INC_GRAD_MODE_SPARSE };
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	long count = strtol(av[2], NULL, 0), i;
	int port = atoi(av[1]), fd, level;
	float buf[256];
	socklen_t sl;

	if (ac > 3)
		g.k = (unsigned int)atoi(av[3]);
	if (inet_pton(AF_INET, av[0], &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		sl = sizeof(*s4);
		level = IPPROTO_IP;
	} else if (inet_pton(AF_INET6, av[0], &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*s6);
		level = IPPROTO_IPV6;
	} else {
		return usage();
	}
	if (count < 1 || port < 1 || port > 65535)
		return usage();
	for (i = 0; i < 256; i++)
		buf[i] = (float)(i - 128) / 4096.0f;
	fd = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, level, INC_SO_GRADIENT, &g, sizeof(g)) ||
	    connect(fd, (struct sockaddr *)&ss, sl)) {
		perror("forge: marked UDP socket");
		return 1;
	}
	for (i = 0; i < count; i++) {
		/* a peer that answers with ICMP makes a send fail now and then */
		if (send(fd, buf, sizeof(buf), 0) < 0 && errno != ECONNREFUSED &&
		    errno != EHOSTUNREACH) {
			perror("forge: send");
			close(fd);
			return 1;
		}
		usleep(2000);
	}
	close(fd);
	printf("forge: %ld marked datagrams to %s\n", count, av[0]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 9 && !strcmp(argv[1], "icmp4"))
		return forge_icmp(0, argv + 2);
	if (argc == 9 && !strcmp(argv[1], "icmp6"))
		return forge_icmp(1, argv + 2);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "marked-udp"))
		return marked_udp(argv + 2, argc - 2);
	return usage();
}
