/* SPDX-License-Identifier: MIT */
/*
 * inccodec: the INCEPTIONN gradient codec (golden model).
 *
 * docs/codec.md is the specification; this header is the C interface to it.
 * Every function takes explicit sizes and returns 0 or a negative INC_E*
 * code; nothing reads or writes outside the buffers it is given.
 */
#ifndef INCCODEC_H
#define INCCODEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error bound eb = 2^-k. */
#define INC_K_MIN		1
#define INC_K_MAX		24

/* Values per group: one 16-bit tag word, then the payloads. */
#define INC_GROUP_VALUES	8
/* Groups per sparse-mode segment (one mask byte each). */
#define INC_SEGMENT_GROUPS	8
/* Values per width-mode group (docs/codec.md section 12); segments of
 * INC_SEGMENT_GROUPS of them. */
#define INC_WIDTH_GROUP_VALUES	16
/* Largest chunk (one packet payload): 9000 bytes, 2250 values. */
#define INC_CHUNK_MAX_BYTES	9000u
#define INC_CHUNK_MAX_VALUES	(INC_CHUNK_MAX_BYTES / 4)
/* Chunk size the file writer uses unless told otherwise. */
#define INC_FILE_CHUNK_BYTES	8192u

/* Bytes of the chunk header (shared by the file and the wire format). */
#define INC_CHUNK_HDR_BYTES	8
/* Bytes of the file header and of each chunk's trailing CRC in a file. */
#define INC_FILE_HDR_BYTES	32
#define INC_FILE_CRC_BYTES	4
#define INC_FILE_MAGIC		0x47434e49u	/* "INCG" little-endian */
#define INC_FILE_VERSION	1

/* Chunk modes (chunk header byte 0). */
enum inc_mode {
	INC_MODE_STORED = 0,	/* body is the raw bytes */
	INC_MODE_PAPER = 1,	/* seed layout: 2-bit tag per value */
	INC_MODE_SPARSE = 2,	/* paper + one mask bit per group */
	INC_MODE_WIDTH = 3,	/* per group of 16: bit width, sign + w bits */
};

/* Value classes (2-bit tags). */
enum inc_class {
	INC_CLASS_ZERO = 0,	/* q == 0: no payload, decodes to +0.0 */
	INC_CLASS_Q8 = 1,	/* |q| <= 127: 8-bit two's complement q */
	INC_CLASS_Q16 = 2,	/* |q| <= 32767: 16-bit two's complement q */
	INC_CLASS_RAW = 3,	/* the 32 original bits */
};

/* Error codes (returned negated; 0 is success). */
enum inc_err {
	INC_OK = 0,
	INC_EINVAL = 1,		/* bad argument: k, mode, NULL, size */
	INC_ENOSPC = 2,		/* output capacity too small */
	INC_ETRUNC = 3,		/* input ends before the data it declares */
	INC_ECORRUPT = 4,	/* input is inconsistent with the format */
	INC_ECHECKSUM = 5,	/* CRC mismatch */
	INC_EMAGIC = 6,		/* not an inccodec file */
	INC_EUNSUPP = 7,	/* valid format, unsupported version/mode/k */
};

const char *inc_strerror(int err);

/* ---- values ---------------------------------------------------------- */

/*
 * Classify one float (given as its bits) for error bound 2^-k and return its
 * class; *q receives the quantized integer (0 for ZERO and RAW).
 */
enum inc_class inc_classify(uint32_t bits, unsigned int k, int32_t *q);
/* The bits a value of class cls with integer q (or raw bits) decodes to. */
uint32_t inc_dequantize(enum inc_class cls, int32_t q, uint32_t raw,
			unsigned int k);

/*
 * Q(x) for n values: dst[i] receives the float src[i] decodes to after any
 * chunk encoding with error bound 2^-k (docs/codec.md section 2, "Q"),
 * without the packing. Q is idempotent (Q(Q(x)) == Q(x) bit for bit) and
 * encoding Q(x) gives the same bytes as encoding x. src == dst is allowed;
 * other overlap is not. 0, or -INC_EINVAL for a bad k or a NULL buffer.
 */
int inc_quantize(const float *src, float *dst, size_t n, unsigned int k);

/* ---- chunks (one packet payload) ------------------------------------- */

/* Largest body inc_chunk_encode() can produce for raw_len bytes. */
size_t inc_chunk_bound(size_t raw_len, enum inc_mode mode);
/*
 * Encode raw_len bytes (<= INC_CHUNK_MAX_BYTES) in mode PAPER or SPARSE.
 * The body may be larger than raw_len; choosing STORED then is the
 * caller's policy (the file writer and the NIC both do).
 */
int inc_chunk_encode(const void *raw, size_t raw_len, unsigned int k,
		     enum inc_mode mode, void *dst, size_t dst_cap,
		     size_t *body_len);
/*
 * Decode a body of exactly body_len bytes into raw_len bytes. Any mode,
 * STORED included. dst_cap must be at least raw_len.
 */
int inc_chunk_decode(const void *body, size_t body_len, size_t raw_len,
		     unsigned int k, enum inc_mode mode, void *dst,
		     size_t dst_cap);

struct inc_chunk_hdr {
	uint8_t mode;
	uint8_t k;
	uint16_t raw_len;
	uint16_t body_len;
};

void inc_chunk_hdr_pack(const struct inc_chunk_hdr *h, uint8_t out[8]);
/* Parse and validate a chunk header (mode, k, lengths, reserved bits). */
int inc_chunk_hdr_parse(const uint8_t in[8], struct inc_chunk_hdr *h);

/* Per-class value counts of a body (for statistics), decoded with its k. */
struct inc_hist {
	uint64_t cls[4];	/* values by class, in compressed chunks */
	uint64_t stored;	/* values in stored chunks */
	uint64_t zero_groups;	/* sparse groups elided by the mask */
	uint64_t groups;	/* all groups in compressed chunks */
};
int inc_chunk_hist(const void *body, size_t body_len, size_t raw_len,
		   unsigned int k, enum inc_mode mode, struct inc_hist *h);

/* ---- files ----------------------------------------------------------- */

struct inc_params {
	unsigned int k;
	enum inc_mode mode;		/* PAPER or SPARSE */
	unsigned int chunk_bytes;	/* 0 = INC_FILE_CHUNK_BYTES */
};

struct inc_file_info {
	unsigned int version;
	unsigned int k;
	enum inc_mode mode;
	unsigned int chunk_bytes;
	uint64_t values;	/* whole floats */
	unsigned int tail;	/* trailing bytes (0..3) passed raw */
	uint64_t raw_bytes;	/* 4 * values + tail */
	uint64_t chunks;
};

/* Largest file inc_compress() can produce for raw_len input bytes. */
size_t inc_compress_bound(size_t raw_len, unsigned int chunk_bytes);
int inc_compress(const void *src, size_t src_len, const struct inc_params *p,
		 void *dst, size_t dst_cap, size_t *dst_len);
/* Read and check the file header only. */
int inc_file_info(const void *src, size_t src_len, struct inc_file_info *fi);
/* Decompress a whole file; the output is exactly fi.raw_bytes long. */
int inc_decompress(const void *src, size_t src_len, void *dst,
		   size_t dst_cap, size_t *dst_len);
/* Walk a file's chunks (checking CRCs) and add their classes to *h. */
int inc_file_hist(const void *src, size_t src_len, struct inc_hist *h);

/* ---- files through another chunk coder ------------------------------- */

/*
 * The file format around a chunk coder other than this library's, such as
 * the RTL engines' simulation models. encode and decode have the contract
 * of inc_chunk_encode() and inc_chunk_decode() for modes PAPER and SPARSE;
 * the file layer itself stores chunks that would not shrink, copies stored
 * chunks back, and does all framing and CRC checks.
 */
struct inc_chunk_coder {
	int (*encode)(void *ctx, const void *raw, size_t raw_len,
		      unsigned int k, enum inc_mode mode, void *dst,
		      size_t dst_cap, size_t *body_len);
	int (*decode)(void *ctx, const void *body, size_t body_len,
		      size_t raw_len, unsigned int k, enum inc_mode mode,
		      void *dst, size_t dst_cap);
	void *ctx;
};

/* The library's own coder: inc_compress() is inc_compress_with() of it. */
extern const struct inc_chunk_coder inc_library_coder;
int inc_compress_with(const struct inc_chunk_coder *coder, const void *src,
		      size_t src_len, const struct inc_params *p, void *dst,
		      size_t dst_cap, size_t *dst_len);
int inc_decompress_with(const struct inc_chunk_coder *coder, const void *src,
			size_t src_len, void *dst, size_t dst_cap,
			size_t *dst_len);

/* ---- implementation selection --------------------------------------- */

/*
 * The scalar reference is always present; "avx2" and "avx512" are used
 * when the CPU has them. All produce byte-identical output. The default is
 * the fastest available, or the INC_CODEC_IMPL environment variable.
 */
const char *inc_impl_name(void);
/* Select by name ("scalar", "avx2", "avx512", "auto") for the calling
 * thread; -INC_EUNSUPP if this CPU cannot run it. */
int inc_impl_select(const char *name);
/* Names this CPU can run, best last; NULL-terminated. */
const char *const *inc_impl_list(void);

uint32_t inc_crc32c(uint32_t crc, const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* INCCODEC_H */
