// SPDX-License-Identifier: MIT
/*
 * Packing and checking of the incgrad records (PROTOCOL.md). Parsers
 * check the magic, then the CRC-32C, then that reserved fields are zero;
 * they never read outside the fixed-size buffer they are given.
 */
#include <string.h>

#include "inccodec.h"
#include "proto.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Seal a record: CRC-32C of everything before its last 4 bytes. */
static void seal(uint8_t *p, size_t len)
{
	put32(p + len - 4, inc_crc32c(0, p, len - 4));
}

static int check(const uint8_t *p, size_t len, uint32_t magic)
{
	if (get32(p) != magic)
		return IG_EMAGIC;
	if (get32(p + len - 4) != inc_crc32c(0, p, len - 4))
		return IG_ECRC;
	return 0;
}

static int all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return 0;
	return 1;
}

const char *ig_perr(int err)
{
	switch (err) {
	case IG_EMAGIC:
		return "bad magic";
	case IG_ECRC:
		return "CRC-32C mismatch";
	case IG_EFORMAT:
		return "reserved field not zero or inconsistent field";
	default:
		return "ok";
	}
}

const char *ig_status_str(unsigned int st)
{
	static const char *const s[] = {
		[IG_ST_OK] = "accepted",
		[IG_ST_CORRUPT] = "corrupt handshake",
		[IG_ST_VERSION] = "unsupported protocol version",
		[IG_ST_PARAMS] = "invalid transfer parameters",
		[IG_ST_NO_UDP] = "server does not serve UDP (start it with --udp)",
		[IG_ST_TOO_BIG] = "file larger than the server's --max-bytes",
		[IG_ST_VERIFY_LEN] = "file length differs from the server's --verify file",
		[IG_ST_NOMEM] = "server out of memory",
	};

	return st < sizeof(s) / sizeof(s[0]) && s[st] ? s[st] : "unknown status";
}

const char *ig_reason_str(unsigned int r)
{
	static const char *const s[] = {
		[IG_R_NONE] = "",
		[IG_R_LOST] = "datagrams lost",
		[IG_R_CRC] = "data not bit-exact (CRC-32C differs)",
		[IG_R_NOT_EXACT] = "unmarked data differs from the original",
		[IG_R_BOUND] = "values outside the error bound 2^-k",
		[IG_R_ORIG_DIFFERS] = "--verify file is not the client's file (CRC-32C differs)",
		[IG_R_PROTOCOL] = "protocol error",
	};

	return r < sizeof(s) / sizeof(s[0]) && s[r] ? s[r] : "unknown reason";
}

/* ---- hello (client -> server) ------------------------------------------ */

void ig_hello_pack(const struct ig_hello *h, uint8_t out[IG_HELLO_LEN])
{
	memset(out, 0, IG_HELLO_LEN);
	put32(out, IG_MAGIC_HELLO);
	put16(out + 4, h->version);
	put16(out + 6, h->flags);
	put64(out + 8, h->file_len);
	put64(out + 16, h->messages);
	put32(out + 24, h->msg_bytes);
	put32(out + 28, h->repeat);
	put32(out + 32, h->file_crc);
	out[36] = h->k;
	out[37] = h->mode;
	seal(out, IG_HELLO_LEN);
}

int ig_hello_parse(const uint8_t in[IG_HELLO_LEN], struct ig_hello *h)
{
	int r = check(in, IG_HELLO_LEN, IG_MAGIC_HELLO);

	if (r)
		return r;
	h->version = get16(in + 4);
	h->flags = get16(in + 6);
	h->file_len = get64(in + 8);
	h->messages = get64(in + 16);
	h->msg_bytes = get32(in + 24);
	h->repeat = get32(in + 28);
	h->file_crc = get32(in + 32);
	h->k = in[36];
	h->mode = in[37];
	/* reserved bytes are checked only for the version we speak */
	if (h->version == IG_VERSION && !all_zero(in + 38, 6))
		return IG_EFORMAT;
	return 0;
}

/* ---- reply (server -> client) ------------------------------------------ */

void ig_reply_pack(const struct ig_reply *r, uint8_t out[IG_REPLY_LEN])
{
	memset(out, 0, IG_REPLY_LEN);
	put32(out, IG_MAGIC_REPLY);
	put16(out + 4, r->version);
	put16(out + 6, r->status);
	put32(out + 8, r->session);
	seal(out, IG_REPLY_LEN);
}

int ig_reply_parse(const uint8_t in[IG_REPLY_LEN], struct ig_reply *r)
{
	int e = check(in, IG_REPLY_LEN, IG_MAGIC_REPLY);

	if (e)
		return e;
	r->version = get16(in + 4);
	r->status = get16(in + 6);
	r->session = get32(in + 8);
	return 0;
}

/* ---- message header and end record (client -> server, TCP) ------------- */

void ig_msg_pack(const struct ig_msg *m, uint8_t out[IG_FRAME_LEN])
{
	memset(out, 0, IG_FRAME_LEN);
	put32(out, IG_MAGIC_MSG);
	put32(out + 4, m->seq);
	put32(out + 8, m->round);
	put32(out + 12, m->len);
	put64(out + 16, m->offset);
	put32(out + 24, m->data_crc);
	seal(out, IG_FRAME_LEN);
}

void ig_end_pack(const struct ig_end *e, uint8_t out[IG_FRAME_LEN])
{
	memset(out, 0, IG_FRAME_LEN);
	put32(out, IG_MAGIC_END);
	put32(out + 4, e->messages);
	put32(out + 8, e->rounds);
	put64(out + 16, e->payload_bytes);
	seal(out, IG_FRAME_LEN);
}

long ig_frame_parse(const uint8_t in[IG_FRAME_LEN], struct ig_msg *m,
		    struct ig_end *e)
{
	uint32_t magic = get32(in);
	int r;

	if (magic != IG_MAGIC_MSG && magic != IG_MAGIC_END)
		return IG_EMAGIC;
	r = check(in, IG_FRAME_LEN, magic);
	if (r)
		return r;
	if (magic == IG_MAGIC_MSG) {
		m->seq = get32(in + 4);
		m->round = get32(in + 8);
		m->len = get32(in + 12);
		m->offset = get64(in + 16);
		m->data_crc = get32(in + 24);
	} else {
		e->messages = get32(in + 4);
		e->rounds = get32(in + 8);
		e->payload_bytes = get64(in + 16);
		if (!all_zero(in + 12, 4) || !all_zero(in + 24, 4))
			return IG_EFORMAT;
	}
	return (long)magic;
}

/* ---- result (server -> client) ----------------------------------------- */

void ig_result_pack(const struct ig_result *r, uint8_t out[IG_RESULT_LEN])
{
	uint64_t d;

	memcpy(&d, &r->max_abs_err, 8);
	memset(out, 0, IG_RESULT_LEN);
	put32(out, IG_MAGIC_RESULT);
	put16(out + 4, r->verdict);
	put16(out + 6, r->reason);
	put32(out + 8, r->flags);
	put32(out + 12, r->ip_errors);
	put64(out + 16, r->payload_bytes);
	put64(out + 24, r->messages);
	put64(out + 32, r->lost);
	put64(out + 40, r->not_exact);
	put64(out + 48, d);
	put64(out + 56, r->rx_nsec);
	put32(out + 64, r->host_drops);
	seal(out, IG_RESULT_LEN);
}

int ig_result_parse(const uint8_t in[IG_RESULT_LEN], struct ig_result *r)
{
	int e = check(in, IG_RESULT_LEN, IG_MAGIC_RESULT);
	uint64_t d;

	if (e)
		return e;
	r->verdict = get16(in + 4);
	r->reason = get16(in + 6);
	r->flags = get32(in + 8);
	r->ip_errors = get32(in + 12);
	r->payload_bytes = get64(in + 16);
	r->messages = get64(in + 24);
	r->lost = get64(in + 32);
	r->not_exact = get64(in + 40);
	d = get64(in + 48);
	memcpy(&r->max_abs_err, &d, 8);
	r->rx_nsec = get64(in + 56);
	r->host_drops = get32(in + 64);
	return 0;
}

/* ---- UDP header datagram (client -> server, unmarked) ------------------ */

void ig_udp_hdr_pack(const struct ig_udp_hdr *h, uint8_t out[IG_UDP_HDR_LEN])
{
	memset(out, 0, IG_UDP_HDR_LEN);
	put32(out, IG_MAGIC_DGRAM);
	put32(out + 4, h->session);
	put32(out + 8, h->seq);
	put32(out + 12, h->round);
	put32(out + 16, h->index);
	put32(out + 20, h->len);
	put32(out + 24, h->data_crc);
	seal(out, IG_UDP_HDR_LEN);
}

int ig_udp_hdr_parse(const uint8_t in[IG_UDP_HDR_LEN], struct ig_udp_hdr *h)
{
	int r = check(in, IG_UDP_HDR_LEN, IG_MAGIC_DGRAM);

	if (r)
		return r;
	h->session = get32(in + 4);
	h->seq = get32(in + 8);
	h->round = get32(in + 12);
	h->index = get32(in + 16);
	h->len = get32(in + 20);
	h->data_crc = get32(in + 24);
	return 0;
}
