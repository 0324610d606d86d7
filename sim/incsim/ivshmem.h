/* SPDX-License-Identifier: MIT */
/*
 * The ivshmem server side of the virtual PCIe shim (docs/sim.md): the
 * UNIX socket QEMU's ivshmem-doorbell device connects to, the BAR2 window
 * it maps, the doorbell eventfds the guest signals and the interrupt
 * eventfds that raise its MSI-X vectors.
 */
#ifndef INCSIM_IVSHMEM_H
#define INCSIM_IVSHMEM_H

#include <stddef.h>
#include <stdint.h>

struct ivs {
	int listen_fd;		/* the socket QEMU connects to */
	int conn_fd;		/* QEMU's connection, or -1 */
	int shm_fd;		/* BAR2 memfd */
	uint8_t *bar2;		/* its mapping */
	size_t bar2_size;
	unsigned int vectors;
	int *doorbell;		/* [vectors] eventfds QEMU writes */
	int *irq;		/* [vectors] eventfds incsim writes */
	char *path;
};

/* Create the window, the eventfds and the listening socket at path
 * (replacing a stale socket there). 0, or -1 with a message in err. */
int ivs_open(struct ivs *s, const char *path, unsigned int vectors,
	     size_t bar2_size, char *err, size_t errlen);
void ivs_close(struct ivs *s);
/* Accept QEMU's connection and send it the handshake. 1 when QEMU is
 * now connected, 0 when the connection was refused (one QEMU at a time)
 * or failed (message in err), -1 on a fatal error. */
int ivs_accept(struct ivs *s, char *err, size_t errlen);
/* Empty the doorbell eventfds; returns the number of rings seen. */
uint64_t ivs_drain_doorbells(struct ivs *s);
/* Raise MSI-X vector v of the guest (after a release fence). 0 or -1. */
int ivs_raise(struct ivs *s, unsigned int v);

#endif
