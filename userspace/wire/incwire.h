/* SPDX-License-Identifier: MIT */
/*
 * incwire: the reference implementation of docs/wire-format.md, what an
 * inceptionn NIC does to a frame on transmit and on receive. The NIC RTL
 * (rtl/nic/) is tested against it byte for byte.
 */
#ifndef INCWIRE_H
#define INCWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "inccodec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define INCW_PROTO		253	/* IP protocol of encapsulated frames */
#define INCW_SHIM_BYTES		16
#define INCW_MAGIC		0x49
#define INCW_VERSION		0x10
#define INCW_MAX_FRAME		9018	/* 9000 MTU + Ethernet + 2 VLAN tags */

/*
 * The chunk modes a NIC compresses and restores, a bit per mode
 * (1u << enum inc_mode): paper and sparse on every NIC; width where FEATURES
 * bit 12 says so (the 16-lane NIC, register map 1.3). A mode outside the
 * set is "bad k or mode" on transmit and a malformed chunk on receive.
 */
#define INCW_MODE_BIT(m)	(1u << (m))
#define INCW_MODES_BASE		(INCW_MODE_BIT(INC_MODE_PAPER) | \
				 INCW_MODE_BIT(INC_MODE_SPARSE))
#define INCW_MODES_ALL		(INCW_MODES_BASE | INCW_MODE_BIT(INC_MODE_WIDTH))

/* Where the headers of a frame are (incw_parse). */
struct incw_frame {
	unsigned int vlans;	/* 0..2 */
	unsigned int l3_off;	/* IP header */
	unsigned int ip_version;/* 4 or 6 */
	unsigned int ip_hlen;	/* IP header bytes */
	unsigned int ip_end;	/* end of the IP packet */
	unsigned int proto;	/* IP protocol / IPv6 next header */
	int fragment;		/* IPv4 MF or offset set */
	unsigned int l4_off;	/* TCP/UDP header (for proto 6/17) */
	unsigned int l4_len;	/* its length */
	unsigned int pay_off;	/* L4 payload */
	unsigned int pay_len;
};

enum incw_parse_err {
	INCW_P_OK = 0,
	INCW_P_NOT_IP,		/* not IPv4/IPv6 after at most two tags */
	INCW_P_BAD_IP,		/* IP header malformed or past the frame */
	INCW_P_NOT_L4,		/* not TCP/UDP, or its header malformed */
};

/* Parse Ethernet, VLAN tags, IP and (for TCP/UDP) the L4 header. */
enum incw_parse_err incw_parse(const uint8_t *f, size_t len,
			       struct incw_frame *fr);

/* ---- transmit ---- */

struct incw_tx_req {
	int compress;		/* the descriptor asks for compression */
	unsigned int k;
	enum inc_mode mode;
	unsigned int off, len;	/* the range in the L4 payload */
	unsigned int modes;	/* what the NIC takes: INCW_MODES_* */
};

enum incw_tx_result {
	INCW_TX_COMPRESSED = 0,	/* out is the compressed frame */
	INCW_TX_NOT_ASKED,	/* out is the frame as it was */
	INCW_TX_NOT_IP,
	INCW_TX_FRAGMENT,
	INCW_TX_NOT_L4,
	INCW_TX_BAD_RANGE,	/* empty, or past the L4 payload */
	INCW_TX_BAD_PARAMS,	/* k or mode */
	INCW_TX_NO_GAIN,	/* the compressed frame would not be shorter */
	INCW_TX_N
};

/*
 * The frame to put on the wire for frame f with request req. out must hold
 * len bytes. Returns an incw_tx_result; the chunk is encoded with the C
 * library (the NIC's engine must match it).
 */
int incw_tx(const uint8_t *f, size_t len, const struct incw_tx_req *req,
	    uint8_t *out, size_t *out_len);

/* ---- receive ---- */

enum incw_rx_result {
	INCW_RX_PASS = 0,	/* not encapsulated: out is f as it was */
	INCW_RX_RESTORED,	/* out is the restored frame */
	INCW_RX_DROP_HEADER,	/* IP header, fragment, shim fields, lengths */
	INCW_RX_DROP_CSUM,	/* IPv4 header or shim checksum */
	INCW_RX_DROP_BODY,	/* the chunk does not decode */
	INCW_RX_N
};

/* What a NIC that restores the modes in modes (INCW_MODES_*) delivers for
 * received frame f. out must hold INCW_MAX_FRAME bytes. */
int incw_rx(const uint8_t *f, size_t len, unsigned int modes, uint8_t *out,
	    size_t *out_len);

const char *incw_tx_result_name(int r);
const char *incw_rx_result_name(int r);

/* ---- checksums ---- */

/* Ones' complement sum of len bytes as big-endian 16-bit words (an odd
 * last byte is padded with zero), added to sum; not folded. */
uint32_t incw_sum(uint32_t sum, const uint8_t *p, size_t len);
/* Fold to 16 bits and complement: the checksum field's value. */
uint16_t incw_fold(uint32_t sum);
/* The TCP/UDP checksum of the segment at l4 (l4_len + payload bytes,
 * checksum field taken as 0) for frame fr. */
uint16_t incw_l4_csum(const uint8_t *f, const struct incw_frame *fr);

#ifdef __cplusplus
}
#endif

#endif
