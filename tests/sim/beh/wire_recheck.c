// SPDX-License-Identifier: MIT
/*
 * wire-recheck: every compressed frame a NIC put on the link, checked
 * against the wire reference (userspace/wire). Reads the pcap files incsim
 * writes with --record-compressed (the encapsulated frames it sent and
 * received) and, for each frame:
 *
 *  1. incw_rx() restores it (a NIC that restores every mode delivers it:
 *     not malformed);
 *  2. the restored frame, with the L4 header the wire carries (the host's
 *     own, checksum field included: the receiver recomputes that field),
 *     is the host frame the sender was given, as far as the wire can tell
 *     (the range's values are the quantized ones, which quantize to
 *     themselves); incw_tx() of it, with the request the shim and chunk
 *     header say (k, mode, range offset and length), must give the
 *     recorded frame again, byte for byte.
 *
 * So a frame passes only if the NIC that sent it built exactly what the
 * reference builds for that host frame: the RTL and the behavioral model
 * are held to the same bytes on real guest traffic (docs/sim.md "Two
 * models"). Then a self-test: the first frame with one bit of its body
 * flipped must fail. TAP.
 *
 * usage: wire-recheck [--min N] FILE.pcap...
 *   --min N: at least N frames in all (default 1), and some of each mode
 *   named with --modes (e.g. --modes 1,2,3)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "incwire.h"
#include "testlib.h"

enum { R_OK, R_NOT_ENCAP, R_MALFORMED, R_NOT_COMPRESSED, R_DIFFERS };

static const char *const rname[] = {
	"ok", "not an encapsulated frame", "not restored (malformed)",
	"not compressed again", "re-encoded to other bytes",
};

/* One frame: R_*; *mode its chunk's mode. */
static int check(const uint8_t *f, size_t len, unsigned int *mode)
{
	static uint8_t out[INCW_MAX_FRAME], re[INCW_MAX_FRAME];
	struct incw_frame fr, ro;
	struct incw_tx_req req;
	size_t olen = 0, rlen = 0;
	unsigned int shim, l4_len;

	if (incw_parse(f, len, &fr) != INCW_P_NOT_L4 || fr.proto != INCW_PROTO ||
	    fr.l4_off + INCW_SHIM_BYTES > len)
		return R_NOT_ENCAP;
	shim = fr.l4_off;
	l4_len = f[shim + 3];
	*mode = f[shim + 8];
	if (incw_rx(f, len, INCW_MODES_ALL, out, &olen) != INCW_RX_RESTORED)
		return R_MALFORMED;
	if (incw_parse(out, olen, &ro) != INCW_P_OK || ro.l4_len != l4_len)
		return R_MALFORMED;
	memcpy(out + ro.l4_off, f + shim + INCW_SHIM_BYTES, l4_len);
	memset(&req, 0, sizeof(req));
	req.compress = 1;
	req.k = f[shim + 9];
	req.mode = (enum inc_mode)f[shim + 8];
	req.off = (unsigned int)f[shim + 4] << 8 | f[shim + 5];
	req.len = (unsigned int)f[shim + 10] | (unsigned int)f[shim + 11] << 8;
	req.modes = INCW_MODES_ALL;
	if (incw_tx(out, olen, &req, re, &rlen) != INCW_TX_COMPRESSED)
		return R_NOT_COMPRESSED;
	return rlen == len && !memcmp(re, f, len) ? R_OK : R_DIFFERS;
}

struct pcap {
	uint8_t *p;
	size_t n;
};

static int load(const char *path, struct pcap *pc)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 20, got;

	if (!f)
		return -1;
	pc->p = malloc(cap);
	pc->n = 0;
	while (pc->p && (got = fread(pc->p + pc->n, 1, cap - pc->n, f)) > 0) {
		pc->n += got;
		if (pc->n == cap)
			pc->p = realloc(pc->p, cap *= 2);
	}
	fclose(f);
	return pc->p ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long total = 0, bad[5] = { 0 }, per_mode[4] = { 0 };
	unsigned long min = 1;
	const char *want_modes = "";
	uint8_t *first = NULL;
	size_t first_len = 0;
	int i, corrupt = 0;

	for (i = 1; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "--min"))
			min = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--modes"))
			want_modes = argv[i + 1];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: wire-recheck [--min N] [--modes M,M] FILE.pcap...\n");
		return 2;
	}
	for (; i < argc; i++) {
		struct pcap pc;
		size_t off = 24;
		unsigned long n = 0;

		if (load(argv[i], &pc) < 0 || pc.n < 24 ||
		    *(uint32_t *)pc.p != 0xa1b2c3d4u) {
			t_ok(0, "%s: a pcap file (%s)", argv[i], errno ? strerror(errno) : "bad header");
			corrupt = 1;
			continue;
		}
		while (off + 16 <= pc.n) {
			uint32_t h[4];
			unsigned int mode = 0;
			int r;

			memcpy(h, pc.p + off, sizeof(h));
			off += 16;
			if (h[2] > INCW_MAX_FRAME || off + h[2] > pc.n) {
				corrupt = 1;
				break;
			}
			r = check(pc.p + off, h[2], &mode);
			bad[r]++;
			if (r != R_OK && bad[r] <= 3)
				t_diag("%s frame %lu (%u bytes): %s", argv[i], n, h[2], rname[r]);
			if (mode < 4)
				per_mode[mode]++;
			if (!first && r == R_OK) {
				first = malloc(h[2]);
				memcpy(first, pc.p + off, h[2]);
				first_len = h[2];
			}
			off += h[2];
			n++;
		}
		t_diag("%s: %lu frames", argv[i], n);
		total += n;
		free(pc.p);
	}
	t_diag("modes: paper %lu, sparse %lu, width %lu", per_mode[1], per_mode[2],
	       per_mode[3]);
	t_ok(!corrupt, "the recordings are whole pcap files");
	t_ok(total >= min, "%lu compressed frames recorded (at least %lu)", total, min);
	for (i = 1; i <= 3; i++) {
		char m[2] = { (char)('0' + i), 0 };

		if (strstr(want_modes, m))
			t_ok(per_mode[i] > 0, "frames of mode %d among them (%lu)", i, per_mode[i]);
	}
	t_ok(!bad[R_NOT_ENCAP] && !bad[R_MALFORMED],
	    "every one encapsulated and restored by the reference (%lu malformed)",
	    bad[R_NOT_ENCAP] + bad[R_MALFORMED]);
	t_ok(!bad[R_NOT_COMPRESSED] && !bad[R_DIFFERS],
	    "every one byte for byte what the reference sends for the host frame it carries (%lu differ)",
	    bad[R_NOT_COMPRESSED] + bad[R_DIFFERS]);
	if (first) {	/* the check must catch one bit */
		unsigned int mode;

		first[first_len - 1] ^= 0x08;
		t_ok(check(first, first_len, &mode) != R_OK,
		    "self-test: a frame with one bit changed fails the check");
		free(first);
	}
	return t_done();
}
