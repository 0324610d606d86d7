// SPDX-License-Identifier: MIT
#include <string.h>

#include "frames.h"

static void be16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static unsigned int rd16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

/* RFC 1071, written out byte by byte (not userspace/wire's code) */
static uint16_t cksum(const uint8_t *const *parts, const size_t *lens, int n)
{
	unsigned long long sum = 0;
	int i, odd = 0;

	for (i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < lens[i]; j++) {
			sum += odd ? parts[i][j] : (unsigned long long)parts[i][j] << 8;
			odd = !odd;
		}
	}
	while (sum > 0xffff)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)(~sum & 0xffff);
}

size_t frame_payload_off(const struct fspec *s)
{
	size_t off = 14 + 4 * (size_t)s->vlans;

	if (s->ipv == 4)
		off += 20 + (size_t)s->ip4_opts;
	else if (s->ipv == 6)
		off += 40;
	if (s->ipv && s->proto == 6)
		off += 20 + (size_t)s->tcp_opts;
	else if (s->ipv && s->proto == 17)
		off += 8;
	return off;
}

size_t frame_build(const struct fspec *s, const uint8_t *pay, size_t pay_len,
		   uint8_t *out)
{
	static const uint8_t mac[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };
	size_t off = 12, l3, l4, hl4 = 0, i;
	int v;

	memcpy(out, mac, 12);
	for (v = 0; v < s->vlans; v++) {
		be16(out + off, v == 0 && s->vlans == 2 ? 0x88a8 : 0x8100);
		be16(out + off + 2, 100 + (unsigned int)v);
		off += 4;
	}
	if (!s->ipv) {
		be16(out + off, 0x88b5);	/* local experimental */
		memcpy(out + off + 2, pay, pay_len);
		return off + 2 + pay_len;
	}
	be16(out + off, s->ipv == 4 ? 0x0800 : 0x86dd);
	l3 = off + 2;
	if (s->proto == 6)
		hl4 = 20 + (size_t)s->tcp_opts;
	else if (s->proto == 17)
		hl4 = 8;
	if (s->ipv == 4) {
		size_t ihl = 20 + (size_t)s->ip4_opts;

		memset(out + l3, 0, ihl);
		out[l3] = (uint8_t)(0x40 | ihl / 4);
		be16(out + l3 + 2, (unsigned int)(ihl + hl4 + pay_len));
		be16(out + l3 + 4, 0x1234);
		be16(out + l3 + 6, s->fragment ? 0x2000 : 0x4000);	/* MF : DF */
		out[l3 + 8] = 64;
		out[l3 + 9] = (uint8_t)s->proto;
		memcpy(out + l3 + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		for (i = 20; i < ihl; i++)
			out[l3 + i] = 1;	/* NOP options */
		{
			const uint8_t *p[1] = { out + l3 };
			size_t n[1] = { ihl };

			be16(out + l3 + 10, cksum(p, n, 1));
		}
		l4 = l3 + ihl;
	} else {
		memset(out + l3, 0, 40);
		out[l3] = 0x60;
		be16(out + l3 + 4, (unsigned int)(hl4 + pay_len));
		out[l3 + 6] = (uint8_t)s->proto;
		out[l3 + 7] = 64;
		out[l3 + 8] = 0xfd;
		out[l3 + 23] = 1;
		out[l3 + 24] = 0xfd;
		out[l3 + 39] = 2;
		l4 = l3 + 40;
	}
	memset(out + l4, 0, hl4);
	if (s->proto == 6) {
		be16(out + l4, 40000);
		be16(out + l4 + 2, 5201);
		memcpy(out + l4 + 4, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
		out[l4 + 12] = (uint8_t)((hl4 / 4) << 4);
		out[l4 + 13] = 0x18;
		be16(out + l4 + 14, 512);
		for (i = 20; i < hl4; i++)
			out[l4 + i] = 1;
	} else if (s->proto == 17) {
		be16(out + l4, 40001);
		be16(out + l4 + 2, 5202);
		be16(out + l4 + 4, (unsigned int)(8 + pay_len));
	}
	memcpy(out + l4 + hl4, pay, pay_len);
	if (s->proto == 6 || s->proto == 17) {
		uint8_t ph[40];
		size_t phl, seg = hl4 + pay_len;
		const uint8_t *p[2];
		size_t n[2];
		uint16_t c;

		memset(ph, 0, sizeof(ph));
		if (s->ipv == 4) {
			memcpy(ph, out + l3 + 12, 8);
			ph[9] = (uint8_t)s->proto;
			be16(ph + 10, (unsigned int)seg);
			phl = 12;
		} else {
			memcpy(ph, out + l3 + 8, 32);
			ph[34] = (uint8_t)(seg >> 8);
			ph[35] = (uint8_t)seg;
			ph[39] = (uint8_t)s->proto;
			phl = 40;
		}
		p[0] = ph;
		n[0] = phl;
		p[1] = out + l4;
		n[1] = seg;
		c = cksum(p, n, 2);
		if (s->proto == 17 && !c)
			c = 0xffff;
		if (s->proto == 17 && s->udp_nocsum && s->ipv == 4)
			c = 0;
		be16(out + l4 + (s->proto == 6 ? 16 : 6), c);
	}
	memset(out + l4 + hl4 + pay_len, 0, s->trailer);
	return l4 + hl4 + pay_len + s->trailer;
}

int frame_csums_ok(const uint8_t *f, size_t len)
{
	size_t off = 12, l3, l4, end, seg;
	unsigned int type, proto;
	uint8_t ph[40];
	size_t phl;
	const uint8_t *p[2];
	size_t n[2];

	if (len < 14)
		return 1;
	type = rd16(f + off);
	while (type == 0x8100 || type == 0x88a8) {
		off += 4;
		type = rd16(f + off);
	}
	l3 = off + 2;
	memset(ph, 0, sizeof(ph));
	if (type == 0x0800) {
		size_t ihl = (f[l3] & 15u) * 4u;

		p[0] = f + l3;
		n[0] = ihl;
		if (cksum(p, n, 1) != 0)
			return 0;
		end = l3 + rd16(f + l3 + 2);
		proto = f[l3 + 9];
		l4 = l3 + ihl;
		memcpy(ph, f + l3 + 12, 8);
		ph[9] = (uint8_t)proto;
		phl = 12;
		if (rd16(f + l3 + 6) & 0x3fff)
			return 1;	/* a fragment: no L4 check */
	} else if (type == 0x86dd) {
		end = l3 + 40 + rd16(f + l3 + 4);
		proto = f[l3 + 6];
		l4 = l3 + 40;
		memcpy(ph, f + l3 + 8, 32);
		ph[39] = (uint8_t)proto;
		phl = 40;
	} else {
		return 1;
	}
	if (proto != 6 && proto != 17)
		return 1;
	seg = end - l4;
	if (type == 0x0800) {
		be16(ph + 10, (unsigned int)seg);
	} else {
		ph[34] = (uint8_t)(seg >> 8);
		ph[35] = (uint8_t)seg;
	}
	if (proto == 17 && type == 0x0800 && rd16(f + l4 + 6) == 0)
		return 1;	/* UDP without a checksum */
	p[0] = ph;
	n[0] = phl;
	p[1] = f + l4;
	n[1] = seg;
	return cksum(p, n, 2) == 0;
}
