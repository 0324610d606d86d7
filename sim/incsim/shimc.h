/* SPDX-License-Identifier: MIT */
/*
 * The QEMU side of the virtual PCIe shim, in C, for host-side benchmarks:
 * connects to incsim's ivshmem socket as QEMU's ivshmem-doorbell device
 * does, maps BAR2 and the guest RAM file, and issues register accesses
 * through the command ring as the driver's sim transport does
 * (include/uapi/inceptionn/incsim.h).
 */
#ifndef INCSIM_SHIMC_H
#define INCSIM_SHIMC_H

#include <stddef.h>
#include <stdint.h>

struct shimc {
	int sock;
	int fds[8];		/* everything received, to close */
	int nfds;
	uint8_t *bar2;
	size_t bar2_size;
	int doorbell;		/* incsim's vector 0 */
	int vec[2];		/* our MSI-X vectors 0 and 1 */
	uint32_t prod, entries;
	uint8_t *ram;
	size_t ram_size;
};

/* Little-endian fields of the descriptors a client writes in guest RAM. */
static inline void shimc_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void shimc_put32(uint8_t *p, uint32_t v)
{
	shimc_put16(p, (uint16_t)v);
	shimc_put16(p + 2, (uint16_t)(v >> 16));
}

static inline void shimc_put64(uint8_t *p, uint64_t v)
{
	shimc_put32(p, (uint32_t)v);
	shimc_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t shimc_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t shimc_get32(const uint8_t *p)
{
	return (uint32_t)shimc_get16(p) | (uint32_t)shimc_get16(p + 2) << 16;
}

/* 0, or -1 with a message in err. */
int shimc_open(struct shimc *c, const char *ivshmem, const char *ram,
	       char *err, size_t errlen);
void shimc_close(struct shimc *c);
void shimc_write(struct shimc *c, uint32_t addr, uint32_t val);
/* Waits for the completion (gives up after 10 s: 0xffffffff). */
uint32_t shimc_read(struct shimc *c, uint32_t addr);
/* Wait up to timeout_ms for an interrupt; bit v set for each vector v
 * that fired (its eventfd is emptied). */
unsigned int shimc_wait_irq(struct shimc *c, int timeout_ms);
/* NIC clocks incsim has simulated. */
uint64_t shimc_clocks(const struct shimc *c);

#endif
