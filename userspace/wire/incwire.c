// SPDX-License-Identifier: MIT
/*
 * The reference of docs/wire-format.md: written to be read next to it.
 */
#include <string.h>

#include "incwire.h"

#define ETH_HLEN	14
#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86dd
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88a8
#define IPPROTO_TCP_	6
#define IPPROTO_UDP_	17

static unsigned int be16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static void put_be16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

uint32_t incw_sum(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)be16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

uint16_t incw_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

enum incw_parse_err incw_parse(const uint8_t *f, size_t len,
			       struct incw_frame *fr)
{
	unsigned int off = 12, type;

	memset(fr, 0, sizeof(*fr));
	if (len < ETH_HLEN)
		return INCW_P_NOT_IP;
	type = be16(f + off);
	while ((type == ETH_P_8021Q || type == ETH_P_8021AD) && fr->vlans < 2) {
		if (len < off + 6)
			return INCW_P_NOT_IP;
		fr->vlans++;
		off += 4;
		type = be16(f + off);
	}
	off += 2;
	fr->l3_off = off;
	if (type == ETH_P_IP) {
		unsigned int ihl, tot, frag;

		if (len < off + 20 || f[off] >> 4 != 4)
			return INCW_P_BAD_IP;
		ihl = (f[off] & 15u) * 4;
		tot = be16(f + off + 2);
		frag = be16(f + off + 6);
		if (ihl < 20 || tot < ihl || off + tot > len)
			return INCW_P_BAD_IP;
		fr->ip_version = 4;
		fr->ip_hlen = ihl;
		fr->ip_end = off + tot;
		fr->proto = f[off + 9];
		fr->fragment = (frag & 0x3fff) != 0;	/* MF or offset */
	} else if (type == ETH_P_IPV6) {
		unsigned int plen;

		if (len < off + 40 || f[off] >> 4 != 6)
			return INCW_P_BAD_IP;
		plen = be16(f + off + 4);
		if (off + 40 + plen > len)
			return INCW_P_BAD_IP;
		fr->ip_version = 6;
		fr->ip_hlen = 40;
		fr->ip_end = off + 40 + plen;
		fr->proto = f[off + 6];
	} else {
		return INCW_P_NOT_IP;
	}
	fr->l4_off = fr->l3_off + fr->ip_hlen;
	if (fr->proto == IPPROTO_UDP_) {
		fr->l4_len = 8;
	} else if (fr->proto == IPPROTO_TCP_) {
		if (fr->l4_off + 13 > fr->ip_end)
			return INCW_P_NOT_L4;
		fr->l4_len = (f[fr->l4_off + 12] >> 4) * 4u;
		if (fr->l4_len < 20)
			return INCW_P_NOT_L4;
	} else {
		return INCW_P_NOT_L4;
	}
	if (fr->l4_off + fr->l4_len > fr->ip_end)
		return INCW_P_NOT_L4;
	fr->pay_off = fr->l4_off + fr->l4_len;
	fr->pay_len = fr->ip_end - fr->pay_off;
	return INCW_P_OK;
}

/* IPv4 header checksum over ihl bytes at ip, field taken as 0. */
static uint16_t ip4_csum(const uint8_t *ip, unsigned int ihl)
{
	uint32_t sum = incw_sum(0, ip, ihl);

	sum -= be16(ip + 10);	/* as if the field were 0 */
	return incw_fold((sum & 0xffff) + (sum >> 16));
}

static void set_ip_len_proto(uint8_t *f, const struct incw_frame *fr,
			     unsigned int ip_total, unsigned int proto)
{
	uint8_t *ip = f + fr->l3_off;

	if (fr->ip_version == 4) {
		put_be16(ip + 2, ip_total);
		ip[9] = (uint8_t)proto;
		put_be16(ip + 10, 0);
		put_be16(ip + 10, ip4_csum(ip, fr->ip_hlen));
	} else {
		put_be16(ip + 4, ip_total - 40);
		ip[6] = (uint8_t)proto;
	}
}

/* The sum of the pseudo-header (RFC 793/768/8200) of frame fr's segment
 * at l4_off with protocol proto. */
static uint32_t pseudo_sum(const uint8_t *f, const struct incw_frame *fr,
			   unsigned int proto)
{
	const uint8_t *ip = f + fr->l3_off;
	uint32_t sum;

	if (fr->ip_version == 4)
		sum = incw_sum(0, ip + 12, 8);
	else
		sum = incw_sum(0, ip + 8, 32);
	return sum + proto + (fr->ip_end - fr->l4_off);
}

/* Checksum over the pseudo-header and the segment at l4_off, with the
 * 16-bit field at csum_at (from l4_off) taken as 0. */
static uint16_t seg_csum(const uint8_t *f, const struct incw_frame *fr,
			 unsigned int proto, unsigned int csum_at)
{
	const uint8_t *seg = f + fr->l4_off;
	uint32_t sum = pseudo_sum(f, fr, proto);

	sum = incw_sum(sum, seg, fr->ip_end - fr->l4_off);
	sum -= be16(seg + csum_at);	/* as if the field were 0 */
	return incw_fold(sum);
}

uint16_t incw_l4_csum(const uint8_t *f, const struct incw_frame *fr)
{
	return seg_csum(f, fr, fr->proto, fr->proto == IPPROTO_TCP_ ? 16 : 6);
}

int incw_tx(const uint8_t *f, size_t len, const struct incw_tx_req *req,
	    uint8_t *out, size_t *out_len)
{
	uint8_t body[9728];	/* > inc_chunk_bound(9000, any mode) */
	struct incw_frame fr;
	struct inc_chunk_hdr ch;
	size_t body_len, pos;
	unsigned int ip_total;
	uint8_t *shim;

	memcpy(out, f, len);
	*out_len = len;
	if (!req->compress)
		return INCW_TX_NOT_ASKED;
	switch (incw_parse(f, len, &fr)) {
	case INCW_P_OK:
		break;
	case INCW_P_NOT_L4:
		return INCW_TX_NOT_L4;
	default:
		return INCW_TX_NOT_IP;
	}
	if (fr.fragment)
		return INCW_TX_FRAGMENT;
	if (req->k < INC_K_MIN || req->k > INC_K_MAX ||
	    (unsigned int)req->mode > INC_MODE_WIDTH ||
	    !(req->modes & INCW_MODES_ALL & INCW_MODE_BIT(req->mode)))
		return INCW_TX_BAD_PARAMS;
	if (!req->len || req->off > fr.pay_len ||
	    req->len > fr.pay_len - req->off || req->len > INC_CHUNK_MAX_BYTES)
		return INCW_TX_BAD_RANGE;
	if (inc_chunk_encode(f + fr.pay_off + req->off, req->len, req->k,
			     req->mode, body, sizeof(body), &body_len))
		return INCW_TX_BAD_PARAMS;
	/* the new frame ends with its IP packet: 16 + body_len - len more */
	if (fr.ip_end + INCW_SHIM_BYTES + body_len >= len + req->len)
		return INCW_TX_NO_GAIN;

	pos = fr.l4_off;
	shim = out + pos;
	pos += INCW_SHIM_BYTES;
	memcpy(out + pos, f + fr.l4_off, fr.l4_len + req->off);
	pos += fr.l4_len + req->off;
	memcpy(out + pos, body, body_len);
	pos += body_len;
	memcpy(out + pos, f + fr.pay_off + req->off + req->len,
	       fr.pay_len - req->off - req->len);
	pos += fr.pay_len - req->off - req->len;

	shim[0] = INCW_MAGIC;
	shim[1] = INCW_VERSION;
	shim[2] = (uint8_t)fr.proto;
	shim[3] = (uint8_t)fr.l4_len;
	put_be16(shim + 4, req->off);
	put_be16(shim + 6, 0);
	ch.mode = (uint8_t)req->mode;
	ch.k = (uint8_t)req->k;
	ch.raw_len = (uint16_t)req->len;
	ch.body_len = (uint16_t)body_len;
	inc_chunk_hdr_pack(&ch, shim + 8);

	ip_total = (unsigned int)(pos - fr.l3_off);
	set_ip_len_proto(out, &fr, ip_total, INCW_PROTO);
	fr.ip_end = (unsigned int)pos;
	put_be16(shim + 6, seg_csum(out, &fr, INCW_PROTO, 6));
	*out_len = pos;
	return INCW_TX_COMPRESSED;
}

int incw_rx(const uint8_t *f, size_t len, unsigned int modes, uint8_t *out,
	    size_t *out_len)
{
	struct incw_frame fr, rf;
	struct inc_chunk_hdr ch;
	const uint8_t *shim, *l4;
	unsigned int l4_len, off, raw_len, body_len, proto, tail, seg;
	size_t pos;

	memcpy(out, f, len);
	*out_len = len;
	switch (incw_parse(f, len, &fr)) {
	case INCW_P_NOT_IP:
		return INCW_RX_PASS;
	case INCW_P_BAD_IP:
		/* a broken IP header is only ours to judge if it says 253 */
		if (len >= fr.l3_off + 10 &&
		    ((f[fr.l3_off] >> 4 == 4 && f[fr.l3_off + 9] == INCW_PROTO) ||
		     (len >= fr.l3_off + 7 && f[fr.l3_off] >> 4 == 6 &&
		      f[fr.l3_off + 6] == INCW_PROTO)))
			return INCW_RX_DROP_HEADER;
		return INCW_RX_PASS;
	default:
		break;
	}
	if (fr.proto != INCW_PROTO)
		return INCW_RX_PASS;
	if (fr.ip_version == 4 && ip4_csum(f + fr.l3_off, fr.ip_hlen) !=
	    be16(f + fr.l3_off + 10))
		return INCW_RX_DROP_CSUM;
	if (fr.fragment || fr.ip_end - fr.l4_off < INCW_SHIM_BYTES)
		return INCW_RX_DROP_HEADER;
	shim = f + fr.l4_off;
	proto = shim[2];
	l4_len = shim[3];
	off = be16(shim + 4);
	if (shim[0] != INCW_MAGIC || shim[1] != INCW_VERSION ||
	    (proto != IPPROTO_TCP_ && proto != IPPROTO_UDP_) ||
	    (proto == IPPROTO_UDP_ && l4_len != 8) ||
	    (proto == IPPROTO_TCP_ && (l4_len < 20 || l4_len > 60 || l4_len & 3)))
		return INCW_RX_DROP_HEADER;
	if (seg_csum(f, &fr, INCW_PROTO, 6) != be16(shim + 6))
		return INCW_RX_DROP_CSUM;
	/* (a mode the NIC does not restore is as malformed as a bad one) */
	if (inc_chunk_hdr_parse(shim + 8, &ch) || ch.mode > INC_MODE_WIDTH ||
	    !(modes & INCW_MODES_ALL & INCW_MODE_BIT(ch.mode)) || !ch.raw_len)
		return INCW_RX_DROP_HEADER;
	raw_len = ch.raw_len;
	body_len = ch.body_len;
	l4 = shim + INCW_SHIM_BYTES;
	if (fr.l4_off + INCW_SHIM_BYTES + l4_len + off + body_len > fr.ip_end ||
	    (proto == IPPROTO_TCP_ && (l4[12] >> 4) * 4u != l4_len))
		return INCW_RX_DROP_HEADER;
	tail = fr.ip_end - (fr.l4_off + INCW_SHIM_BYTES + l4_len + off +
			    body_len);
	seg = l4_len + off + raw_len + tail;
	if (fr.l4_off + seg > INCW_MAX_FRAME)
		return INCW_RX_DROP_HEADER;

	/* the original segment: L4 header, prefix, decoded range, suffix */
	pos = fr.l4_off;
	memcpy(out + pos, l4, l4_len + off);
	pos += l4_len + off;
	if (inc_chunk_decode(l4 + l4_len + off, body_len, raw_len, ch.k,
			     (enum inc_mode)ch.mode, out + pos, raw_len))
		return INCW_RX_DROP_BODY;
	pos += raw_len;
	memcpy(out + pos, l4 + l4_len + off + body_len, tail);
	pos += tail;

	set_ip_len_proto(out, &fr, (unsigned int)(pos - fr.l3_off), proto);
	*out_len = pos;
	if (incw_parse(out, pos, &rf) != INCW_P_OK)
		return INCW_RX_DROP_HEADER;
	if (proto == IPPROTO_UDP_) {
		/* UDP over IPv4 without a checksum keeps none */
		if (!(rf.ip_version == 4 && be16(out + rf.l4_off + 6) == 0)) {
			unsigned int c = incw_l4_csum(out, &rf);

			put_be16(out + rf.l4_off + 6, c ? c : 0xffff);
		}
	} else {
		put_be16(out + rf.l4_off + 16, incw_l4_csum(out, &rf));
	}
	return INCW_RX_RESTORED;
}

const char *incw_tx_result_name(int r)
{
	static const char *const n[INCW_TX_N] = {
		"compressed", "not asked", "not IP", "IP fragment",
		"not TCP/UDP", "bad range", "bad k or mode", "no gain",
	};

	return r >= 0 && r < INCW_TX_N ? n[r] : "?";
}

const char *incw_rx_result_name(int r)
{
	static const char *const n[INCW_RX_N] = {
		"passed", "restored", "dropped: header", "dropped: checksum",
		"dropped: body",
	};

	return r >= 0 && r < INCW_RX_N ? n[r] : "?";
}
