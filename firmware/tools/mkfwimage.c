// SPDX-License-Identifier: MIT
/*
 * mkfwimage: the management firmware's image (docs/firmware.md "Firmware
 * image"): a 32-byte little-endian header, then the payload.
 *
 *   mkfwimage [--entry ADDR] [--load ADDR] PAYLOAD.bin OUT.bin
 *       PAYLOAD.bin: the raw IMEM contents (llvm-objcopy -O binary), padded
 *       here to a multiple of 4; the version is fw_version.h's
 *   mkfwimage --check IMAGE.bin
 *       the driver's checks: exit 0 and a summary line, or exit 1 and what
 *       is wrong (truncated, bad magic, header version, header CRC, payload
 *       size, too big for IMEM, bad load address or entry, payload CRC)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/inc_nic_regs.h"
#include "fw_version.h"

#define MAX_FILE (1u << 20)

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int b = 0; b < 8; b++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	if (!f) {
		fprintf(stderr, "mkfwimage: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	buf = malloc(MAX_FILE + 4);	/* + padding to a word */
	if (!buf) {
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, MAX_FILE + 1, f);
	fclose(f);
	if (*len > MAX_FILE) {
		fprintf(stderr, "mkfwimage: %s: larger than %u bytes\n", path, MAX_FILE);
		free(buf);
		return NULL;
	}
	return buf;
}

static int check(const char *path)
{
	size_t len;
	uint8_t *b = read_file(path, &len);
	uint32_t magic, hv, ver, size, load, entry, pcrc, hcrc, c;
	int rc = 1;

	if (!b)
		return 1;
#define BAD(...) do { fprintf(stderr, "%s: ", path); fprintf(stderr, __VA_ARGS__); \
		      fputc('\n', stderr); goto out; } while (0)
	if (len < INC_FWIMG_HDR_BYTES)
		BAD("truncated: %zu bytes, shorter than the %d-byte header", len,
		    INC_FWIMG_HDR_BYTES);
	magic = get32(b);
	hv = get32(b + 4);
	ver = get32(b + 8);
	size = get32(b + 12);
	load = get32(b + 16);
	entry = get32(b + 20);
	pcrc = get32(b + 24);
	hcrc = get32(b + 28);
	if (magic != INC_FWIMG_MAGIC)
		BAD("bad magic 0x%08x (want 0x%08x, \"INFW\"): not a firmware image",
		    magic, INC_FWIMG_MAGIC);
	c = crc32_ieee(b, 28);
	if (c != hcrc)
		BAD("bad header CRC-32: stored 0x%08x, computed 0x%08x", hcrc, c);
	if (hv != INC_FWIMG_HDR_VERSION)
		BAD("header version %u not supported (want %d)", hv, INC_FWIMG_HDR_VERSION);
	if (size % 4 || size == 0)
		BAD("payload size %u is not a positive multiple of 4", size);
	if (len < INC_FWIMG_HDR_BYTES + (size_t)size)
		BAD("truncated: the header says %u payload bytes, the file has %zu",
		    size, len - INC_FWIMG_HDR_BYTES);
	if (len > INC_FWIMG_HDR_BYTES + (size_t)size)
		BAD("%zu bytes after the payload (the header says %u payload bytes)",
		    len - INC_FWIMG_HDR_BYTES - size, size);
	if (load % 4 || load >= INC_FWIMG_IMEM_BYTES)
		BAD("load address 0x%08x is not a word in IMEM", load);
	if ((uint64_t)load + size > INC_FWIMG_IMEM_BYTES)
		BAD("too big for IMEM: %u bytes at 0x%x, IMEM holds %d", size, load,
		    INC_FWIMG_IMEM_BYTES);
	if (entry % 4 || entry < load || entry >= load + size)
		BAD("entry 0x%08x is not a word of the payload", entry);
	c = crc32_ieee(b + INC_FWIMG_HDR_BYTES, size);
	if (c != pcrc)
		BAD("bad payload CRC-32: stored 0x%08x, computed 0x%08x", pcrc, c);
	printf("%s: ok: firmware %u.%u.%u, %u payload bytes at 0x%x, entry 0x%x, "
	       "payload CRC-32 0x%08x\n", path, ver >> 16, (ver >> 8) & 0xff, ver & 0xff,
	       size, load, entry, pcrc);
	rc = 0;
#undef BAD
out:
	free(b);
	return rc;
}

static int make(const char *in, const char *out, uint32_t load, uint32_t entry)
{
	size_t len, size;
	uint8_t *b = read_file(in, &len);
	uint8_t hdr[INC_FWIMG_HDR_BYTES];
	FILE *f;
	int rc = 1;

	if (!b)
		return 1;
	size = (len + 3) & ~(size_t)3;
	memset(b + len, 0, size - len);
	if (size == 0 || load + size > INC_FWIMG_IMEM_BYTES) {
		fprintf(stderr, "mkfwimage: %s: %zu bytes do not fit IMEM (%d) at 0x%x\n",
			in, size, INC_FWIMG_IMEM_BYTES, load);
		goto out;
	}
	put32(hdr, INC_FWIMG_MAGIC);
	put32(hdr + 4, INC_FWIMG_HDR_VERSION);
	put32(hdr + 8, FW_VERSION_WORD);
	put32(hdr + 12, (uint32_t)size);
	put32(hdr + 16, load);
	put32(hdr + 20, entry);
	put32(hdr + 24, crc32_ieee(b, size));
	put32(hdr + 28, crc32_ieee(hdr, 28));
	f = fopen(out, "wb");
	if (!f || fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    fwrite(b, 1, size, f) != size || fclose(f) != 0) {
		fprintf(stderr, "mkfwimage: %s: %s\n", out, strerror(errno));
		remove(out);
		goto out;
	}
	rc = 0;
out:
	free(b);
	return rc;
}

int main(int argc, char **argv)
{
	uint32_t load = 0, entry = 0;
	int i = 1;

	if (argc == 3 && !strcmp(argv[1], "--check"))
		return check(argv[2]);
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--entry"))
			entry = (uint32_t)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--load"))
			load = (uint32_t)strtoul(argv[i + 1], NULL, 0);
		else
			break;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: mkfwimage [--entry ADDR] [--load ADDR] PAYLOAD.bin OUT.bin\n"
			"       mkfwimage --check IMAGE.bin\n");
		return 2;
	}
	return make(argv[i], argv[i + 1], load, entry);
}
