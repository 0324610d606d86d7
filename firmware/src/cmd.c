// SPDX-License-Identifier: MIT
/*
 * The admin commands (docs/firmware.md "Admin commands"): MBOX_CMD in,
 * MBOX_RSP out; and the tick's link watch (EVENT bit 0). Portable:
 * registers through regs.h only.
 */
#include "fw.h"
#include "fw_version.h"
#include "regs.h"

#define FW_CAPS (INC_FW_CAP_SELFTEST | INC_FW_CAP_STATS | INC_FW_CAP_SET_MAC | \
		 INC_FW_CAP_LINK_EVENTS)

static unsigned int selftest_results(uint32_t *rsp)
{
	rsp[1] = fw.st_bits;
	rsp[2] = fw.st_run;
	rsp[3] = fw.st_failed;
	rsp[4] = fw.st_first;
	return 4;
}

static uint32_t set_mac(const uint32_t *cmd)
{
	uint32_t lo = cmd[1], hi = cmd[2];

	if (hi & 0xffff0000u)		/* bytes 6, 7: not an address */
		return INC_MBOX_ST_EINVAL;
	if (lo & 1u)			/* byte 0 bit 0: multicast/broadcast */
		return INC_MBOX_ST_EINVAL;
	if (lo == 0 && hi == 0)
		return INC_MBOX_ST_EINVAL;
	fw_wr(INC_MAC_LO, lo);
	fw_wr(INC_MAC_HI, hi);
	return INC_MBOX_ST_OK;
}

/*
 * The NIC copies every counter into the snapshot bank in one clock (and,
 * asked to, restarts them in that clock, that clock's counts kept): read
 * the bank at leisure, nothing torn and nothing lost.
 */
static uint32_t stats_snapshot(const uint32_t *cmd, uint32_t *rsp, unsigned int *nres)
{
	uint32_t flags = cmd[1];

	if (flags & ~1u)
		return INC_MBOX_ST_EINVAL;
	fw_wr(INC_STATS_SNAP, INC_STATS_SNAP_TAKE | ((flags & 1u) ? INC_STATS_SNAP_CLEAR : 0));
	rsp[1] = INC_ST_N;
	for (unsigned int n = 0; n < INC_ST_N; n++) {
		rsp[2 + 2 * n] = fw_rd(INC_STATS_SNAP_BANK + 8 * n);
		rsp[3 + 2 * n] = fw_rd(INC_STATS_SNAP_BANK + 8 * n + 4);
	}
	*nres = 1 + 2 * INC_ST_N;
	return INC_MBOX_ST_OK;
}

uint32_t fw_cmd_exec(const uint32_t *cmd, uint32_t *rsp, unsigned int *nres)
{
	uint32_t op = cmd[0] & 0xffff;

	*nres = 0;
	switch (op) {
	case INC_MBOX_OP_GET_VERSION:
		rsp[1] = FW_VERSION_WORD;
		rsp[2] = fw.build_id;
		rsp[3] = FW_CAPS;
		rsp[4] = fw.image_crc;
		rsp[5] = fw.image_bytes;
		*nres = 5;
		return INC_MBOX_ST_OK;
	case INC_MBOX_OP_GET_SELFTEST:
		*nres = selftest_results(rsp);
		return INC_MBOX_ST_OK;
	case INC_MBOX_OP_RUN_SELFTEST: {
		uint32_t before = fw.st_bits;

		fw_wr(INC_FW_SELFTEST, fw_selftest());
		fw_wr(INC_FW_STATUS, (fw_rd(INC_FW_STATUS) &
				      ~(INC_FW_STATUS_ST_DONE | INC_FW_STATUS_ST_PASS)) |
			      fw_selftest_status());
		if (fw.st_bits != before)
			fw_wr(INC_MGMT_EVENT, INC_MGMT_EVENT_SELFTEST);
		*nres = selftest_results(rsp);
		return INC_MBOX_ST_OK;
	}
	case INC_MBOX_OP_SET_MAC:
		return set_mac(cmd);
	case INC_MBOX_OP_STATS_SNAPSHOT:
		return stats_snapshot(cmd, rsp, nres);
	case INC_MBOX_OP_RUN_VECTOR:
		/* one vector, its input maybe cut short (the system test) */
		if (fw_selftest_vector(cmd[1], cmd[2], rsp))
			return INC_MBOX_ST_EINVAL;
		*nres = 4;
		return INC_MBOX_ST_OK;
	case INC_MBOX_OP_GET_LINK:
		rsp[1] = fw_rd(INC_STATUS) & INC_STATUS_LINK;
		rsp[2] = fw_rd(INC_LINK_SPEED);
		*nres = 2;
		return INC_MBOX_ST_OK;
	case INC_MBOX_OP_DEBUG_HANG:
		/* a test command: no response, no DONE, no heartbeat */
		fw_hang();
	case INC_MBOX_OP_DEBUG_FAULT:
		/* a test command: an exception, handled as any (main.c) */
		fw_crash();
	default:
		return INC_MBOX_ST_EOPNOTSUPP;
	}
}

int fw_link_watch(void)
{
	uint32_t link = fw_rd(INC_STATUS) & INC_STATUS_LINK;

	if (link == fw.link_last)
		return 0;
	fw.link_last = link;
	fw_wr(INC_MGMT_EVENT, INC_MGMT_EVENT_LINK);
	return 1;
}

void fw_mbox_service(void)
{
	uint32_t cmd[INC_MBOX_CMD_WORDS], rsp[INC_MBOX_RSP_WORDS];
	unsigned int nres = 0, i;
	uint32_t st;

	for (i = 0; i < INC_MBOX_CMD_WORDS; i++)
		cmd[i] = fw_rd(INC_MBOX_CMD + 4 * i);
	st = fw_cmd_exec(cmd, rsp, &nres);
	for (i = 1; i <= nres; i++)
		fw_wr(INC_MBOX_RSP + 4 * i, rsp[i]);
	fw_wr(INC_MBOX_RSP, (cmd[0] & 0xffff0000u) | st);
	fw_wr(INC_MBOX_STATUS, INC_MBOX_STATUS_DONE);
}
