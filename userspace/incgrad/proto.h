/* SPDX-License-Identifier: MIT */
/*
 * incgrad wire protocol (PROTOCOL.md is the specification): the exact
 * (never marked) handshake, per-message headers, end and result records,
 * and the UDP header datagram that precedes each marked payload datagram.
 * All integers are little-endian; every record ends with a CRC-32C of the
 * bytes before it.
 */
#ifndef INCGRAD_PROTO_H
#define INCGRAD_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define IG_VERSION		2	/* 2: the payload datagram's tag */
#define IG_DEFAULT_PORT		5301

#define IG_MAGIC_HELLO		0x48524749u	/* "IGRH" */
#define IG_MAGIC_REPLY		0x41524749u	/* "IGRA" */
#define IG_MAGIC_MSG		0x4d524749u	/* "IGRM" */
#define IG_MAGIC_END		0x45524749u	/* "IGRE" */
#define IG_MAGIC_RESULT		0x52524749u	/* "IGRR" */
#define IG_MAGIC_DGRAM		0x44524749u	/* "IGRD" */

#define IG_HELLO_LEN		48
#define IG_REPLY_LEN		16
#define IG_FRAME_LEN		32	/* message header and end record */
#define IG_RESULT_LEN		72

/*
 * UDP: an unmarked header datagram, then the marked payload datagram: a
 * 4-byte tag, a float32 NaN whose payload bits are the message's seq (the
 * codec keeps NaNs bit-exact, so the tag survives a marked datagram), then
 * the message's bytes
 */
#define IG_UDP_HDR_LEN		32
#define IG_UDP_TAG_LEN		4
#define IG_UDP_TAG_MASK		0x003fffffu	/* seq bits in the tag */
#define IG_UDP_MAX_PAYLOAD	65507u	/* largest IPv4 UDP payload */
#define IG_UDP_MAX_MSG		((IG_UDP_MAX_PAYLOAD - IG_UDP_TAG_LEN) & ~3u)

#define IG_TCP_MAX_MSG		(64u << 20)

/* hello flags */
#define IG_F_MARKED		0x1	/* payload is lossy within 2^-k */
#define IG_F_UDP		0x2	/* payload in UDP datagrams */
#define IG_F_EMULATED		0x4	/* lossy by the client's software codec */
#define IG_F_KNOWN		0x7

/* codec modes, as in inceptionn.h */
#define IG_MODE_PAPER		1
#define IG_MODE_SPARSE		2
#define IG_MODE_WIDTH		3

/* reply status */
enum ig_status {
	IG_ST_OK = 0,
	IG_ST_CORRUPT = 1,	/* bad magic or CRC */
	IG_ST_VERSION = 2,	/* unsupported protocol version */
	IG_ST_PARAMS = 3,	/* inconsistent or out-of-range parameters */
	IG_ST_NO_UDP = 4,	/* server not started with --udp */
	IG_ST_TOO_BIG = 5,	/* file larger than the server's --max-bytes */
	IG_ST_VERIFY_LEN = 6,	/* server's --verify file has another length */
	IG_ST_NOMEM = 7,
};
const char *ig_status_str(unsigned int st);

/* result verdict and failure reason */
enum ig_verdict { IG_PASS = 0, IG_FAIL = 1, IG_ERROR = 2 };
enum ig_reason {
	IG_R_NONE = 0,
	IG_R_LOST = 1,		/* datagrams lost */
	IG_R_CRC = 2,		/* unmarked data not bit-exact (CRC-32C) */
	IG_R_NOT_EXACT = 3,	/* unmarked data differs from the original */
	IG_R_BOUND = 4,		/* values outside 2^-k or non-finite changed */
	IG_R_ORIG_DIFFERS = 5,	/* --verify file is not the client's file */
	IG_R_PROTOCOL = 6,	/* corrupt header, short read, timeout */
};
const char *ig_reason_str(unsigned int r);

/* result flags */
#define IG_RF_VERIFIED		0x1	/* compared with the original */
#define IG_RF_CRC_OK		0x2	/* every round complete, CRC-32C equal */
#define IG_RF_WITHIN_BOUND	0x4
#define IG_RF_DROPS		0x8	/* host_drops was counted */
#define IG_RF_IP_ERRORS		0x10	/* ip_errors was counted */

struct ig_hello {
	uint16_t version;
	uint16_t flags;
	uint64_t file_len;	/* bytes, a multiple of 4 */
	uint64_t messages;	/* all rounds */
	uint32_t msg_bytes;	/* payload bytes per message (last shorter) */
	uint32_t repeat;	/* rounds: the file is sent this many times */
	uint32_t file_crc;	/* CRC-32C of the original file */
	uint8_t k;
	uint8_t mode;
};

struct ig_reply {
	uint16_t version;
	uint16_t status;
	uint32_t session;
};

struct ig_msg {		/* TCP message header */
	uint32_t seq;		/* 0.. over all rounds */
	uint32_t round;
	uint32_t len;		/* payload bytes that follow */
	uint64_t offset;	/* of the payload in the file */
	uint32_t data_crc;	/* CRC-32C of the original payload */
};

struct ig_end {
	uint32_t messages;	/* messages the client sent */
	uint32_t rounds;
	uint64_t payload_bytes;
};

struct ig_result {
	uint16_t verdict;
	uint16_t reason;
	uint32_t flags;
	uint32_t ip_errors;	/* refused by the server's IP layer (UDP) */
	uint64_t payload_bytes;	/* received */
	uint64_t messages;	/* received, unique */
	uint64_t lost;
	uint64_t not_exact;	/* values (verified) or messages */
	double max_abs_err;
	uint64_t rx_nsec;
	uint32_t host_drops;	/* dropped on the server's host (UDP) */
};

struct ig_udp_hdr {	/* UDP header datagram */
	uint32_t session;
	uint32_t seq;
	uint32_t round;
	uint32_t index;		/* message index in its round */
	uint32_t len;		/* bytes of the payload datagram that follows */
	uint32_t data_crc;	/* CRC-32C of the original payload */
};

/* Parse results: 0, or one of these. */
#define IG_EMAGIC	(-1)
#define IG_ECRC		(-2)
#define IG_EFORMAT	(-3)

void ig_hello_pack(const struct ig_hello *h, uint8_t out[IG_HELLO_LEN]);
int ig_hello_parse(const uint8_t in[IG_HELLO_LEN], struct ig_hello *h);
void ig_reply_pack(const struct ig_reply *r, uint8_t out[IG_REPLY_LEN]);
int ig_reply_parse(const uint8_t in[IG_REPLY_LEN], struct ig_reply *r);
void ig_msg_pack(const struct ig_msg *m, uint8_t out[IG_FRAME_LEN]);
void ig_end_pack(const struct ig_end *e, uint8_t out[IG_FRAME_LEN]);
/* A frame is a message header or an end record: returns its magic
 * (IG_MAGIC_MSG or IG_MAGIC_END) with *m or *e filled, or a negative
 * IG_E* code. */
long ig_frame_parse(const uint8_t in[IG_FRAME_LEN], struct ig_msg *m,
		    struct ig_end *e);
void ig_result_pack(const struct ig_result *r, uint8_t out[IG_RESULT_LEN]);
int ig_result_parse(const uint8_t in[IG_RESULT_LEN], struct ig_result *r);

/* UDP header datagram (IG_UDP_HDR_LEN bytes, sent unmarked). */
void ig_udp_hdr_pack(const struct ig_udp_hdr *h, uint8_t out[IG_UDP_HDR_LEN]);
int ig_udp_hdr_parse(const uint8_t in[IG_UDP_HDR_LEN], struct ig_udp_hdr *h);

const char *ig_perr(int err);	/* text of an IG_E* code */

/* The payload datagram's tag of message seq: a quiet NaN, little-endian. */
static inline uint32_t ig_udp_tag(uint64_t seq)
{
	return 0x7fc00000u | ((uint32_t)seq & IG_UDP_TAG_MASK);
}

static inline void ig_udp_tag_pack(uint64_t seq, uint8_t out[IG_UDP_TAG_LEN])
{
	uint32_t t = ig_udp_tag(seq);

	out[0] = (uint8_t)t;
	out[1] = (uint8_t)(t >> 8);
	out[2] = (uint8_t)(t >> 16);
	out[3] = (uint8_t)(t >> 24);
}

/* Does the tag at in belong to message seq? */
static inline int ig_udp_tag_is(const uint8_t in[IG_UDP_TAG_LEN], uint64_t seq)
{
	return (in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 |
		(uint32_t)in[3] << 24) == ig_udp_tag(seq);
}

/* Messages per round for a file and a message size. */
static inline uint64_t ig_msgs_per_round(uint64_t file_len, uint32_t msg)
{
	return (file_len + msg - 1) / msg;
}

#endif
