/* SPDX-License-Identifier: MIT */
/*
 * The firmware's version: the one place it is set. The firmware writes it to
 * FW_VERSION and GET_VERSION word 1; mkfwimage puts it in the image header
 * (docs/firmware.md). The driver refuses a major it does not speak.
 */
#ifndef FW_VERSION_H
#define FW_VERSION_H

#define FW_VERSION_MAJOR	1
#define FW_VERSION_MINOR	1
#define FW_VERSION_PATCH	0
#define FW_VERSION_WORD \
	((uint32_t)FW_VERSION_MAJOR << 16 | (uint32_t)FW_VERSION_MINOR << 8 | \
	 (uint32_t)FW_VERSION_PATCH)

#endif /* FW_VERSION_H */
