// SPDX-License-Identifier: MIT
/*
 * Host unit tests of the firmware's portable part (firmware/src/cmd.c,
 * selftest.c, crc32.c): the same sources as on the core, with a fake
 * register file (fake_regs.c) and the C codec as the self-test's engine
 * (selftest_host.c). TAP.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "fake_regs.h"
#include "fw.h"
#include "fw_version.h"
#include "regs.h"
#include "testlib.h"

struct fw_state fw = { .build_id = 0x1234abcd, .image_crc = 0x55aa55aa, .image_bytes = 4096 };

#define REG(off) fake_reg[(off) / 4]

/* DEBUG_HANG's hang: on the core it never returns; here, back to the test */
static jmp_buf hang_jmp;
static int hung;

void fw_hang(void)
{
	hung++;
	longjmp(hang_jmp, 1);
}

/* DEBUG_FAULT's exception: on the core the trap handler's fault() */
static int crashed;

void fw_crash(void)
{
	crashed++;
	longjmp(hang_jmp, 1);
}

/* post a command as the driver does and let the firmware serve it */
static uint32_t post(uint32_t op, uint16_t seq, uint32_t a1, uint32_t a2)
{
	memset(&REG(INC_MBOX_RSP), 0xee, 4 * INC_MBOX_RSP_WORDS);
	memset(&REG(INC_MBOX_CMD), 0, 4 * INC_MBOX_CMD_WORDS);
	REG(INC_MBOX_CMD) = (uint32_t)seq << 16 | op;
	REG(INC_MBOX_CMD + 4) = a1;
	REG(INC_MBOX_CMD + 8) = a2;
	REG(INC_MBOX_STATUS) = 0;
	fake_nlog = 0;
	fw_mbox_service();
	return REG(INC_MBOX_RSP);
}

static uint32_t rsp(unsigned int i)
{
	return REG(INC_MBOX_RSP + 4 * i);
}

/* the response's word 0 written after every result, then DONE, once */
static int order_ok(void)
{
	if (fake_nlog < 2 || fake_log[fake_nlog - 1] != INC_MBOX_STATUS ||
	    fake_log[fake_nlog - 2] != INC_MBOX_RSP || REG(INC_MBOX_STATUS) != INC_MBOX_STATUS_DONE)
		return 0;
	for (unsigned int i = 0; i + 2 < fake_nlog; i++)
		if (fake_log[i] == INC_MBOX_RSP || fake_log[i] == INC_MBOX_STATUS)
			return 0;
	return 1;
}

static void test_selftest(void)
{
	uint32_t b;
	unsigned int per_set[INC_FW_ST_SETS] = { 0 };

	for (unsigned int i = 0; i < fw_st_nvectors; i++)
		if (fw_st_vectors[i].set < INC_FW_ST_SETS)
			per_set[fw_st_vectors[i].set]++;
	t_ok(fw_st_nvectors == 12 && per_set[0] == 2 && per_set[1] == 2 && per_set[2] == 2 &&
	     per_set[3] == 2 && per_set[4] == 2 && per_set[5] == 2,
	     "generated table: %u vectors, 2 for each of the 6 sets", fw_st_nvectors);

	/* a NIC with width mode: all 6 sets are its */
	REG(INC_FEATURES) = INC_FEAT_MODE_WIDTH | INC_FEAT_MGMT | INC_FEAT_TPORT;
	host_engine = HOST_CODEC;
	b = fw_selftest();
	t_ok(b == 0x3f3f && fw.st_run == 12 && fw.st_failed == 0 &&
	     fw_selftest_status() == (INC_FW_STATUS_ST_DONE | INC_FW_STATUS_ST_PASS),
	     "the C codec as the engine: every set run and passed (0x%04x, %u run, %u failed)",
	     fw.st_bits, fw.st_run, fw.st_failed);

	host_engine = HOST_NOT_RUN;
	b = fw_selftest();
	t_ok(b == 0 && fw.st_run == 0 && fw.st_failed == 0 &&
	     fw_selftest_status() == INC_FW_STATUS_ST_DONE,
	     "no engine (the hardware backend today): nothing run, nothing passed, no PASS (0x%04x)",
	     fw.st_bits);

	for (unsigned int set = 0; set < INC_FW_ST_SETS; set++) {
		uint32_t want = (0x3fu & ~(1u << set)) | 0x3f00;

		host_engine = HOST_CORRUPT;
		host_set = set;
		host_index = set & 1;
		b = fw_selftest();
	t_ok(b == want && fw.st_run == 12 && fw.st_failed == 1 &&
		     fw.st_first == (set << 8 | (set & 1)) &&
		     fw_selftest_status() == INC_FW_STATUS_ST_DONE,
		     "a wrong byte in set %u vector %u: that set fails (0x%04x), first failure 0x%04x, no PASS",
		     set, set & 1, fw.st_bits, fw.st_first);
	}
	host_engine = HOST_SHORT;
	host_set = 2;
	host_index = 0;
	b = fw_selftest();
	t_ok(b == 0x3f3b && fw.st_failed == 1 && fw.st_first == 0x0200,
	     "an output one byte short in set 2 fails it (0x%04x)", fw.st_bits);
	host_engine = HOST_SET_NOT_RUN;
	host_set = 4;
	host_index = 1;
	b = fw_selftest();
	t_ok(b == 0x2f2f && fw.st_run == 11 && fw.st_failed == 0 &&
	     fw_selftest_status() == INC_FW_STATUS_ST_DONE,
	     "one vector of set 4 not run: set 4 neither run nor passed (0x%04x), no PASS", fw.st_bits);
	host_engine = HOST_FLAGGED;
	host_set = 1;
	host_index = 0;
	b = fw_selftest();
	t_ok(b == 0x3f3d && fw.st_run == 12 && fw.st_failed == 1 && fw.st_first == 0x0100 &&
	     fw_selftest_status() == INC_FW_STATUS_ST_DONE,
	     "the engine flags a vector of set 1 (its output as the model's): set 1 fails (0x%04x), no PASS",
	     fw.st_bits);
	host_engine = HOST_NO_WIDTH;
	b = fw_selftest();
	t_ok(b == 0x0f0f && fw.st_run == 8 && fw.st_failed == 0 &&
	     fw_selftest_status() == INC_FW_STATUS_ST_DONE,
	     "width sets not run on a NIC with width mode: 0x%04x, no PASS", fw.st_bits);
	/* an 8-lane NIC: no width mode; its width sets not run do not block PASS */
	REG(INC_FEATURES) = INC_FEAT_MGMT | INC_FEAT_TPORT;
	b = fw_selftest();
	t_ok(b == 0x0f0f && fw.st_have == 0x0f &&
	     fw_selftest_status() == (INC_FW_STATUS_ST_DONE | INC_FW_STATUS_ST_PASS),
	     "no width mode (FEATURES bit 12 clear): width sets not run, the rest passed: PASS (0x%04x)",
	     fw.st_bits);
	host_engine = HOST_CORRUPT;
	host_set = 3;
	host_index = 1;
	b = fw_selftest();
	t_ok(b == 0x3f37 && fw_selftest_status() == INC_FW_STATUS_ST_DONE,
	     "no width mode, set 3 wrong (the width sets ran here too): no PASS (0x%04x)",
	     fw.st_bits);
	host_engine = HOST_NOT_RUN;
	b = fw_selftest();
	t_ok(b == 0 && fw_selftest_status() == INC_FW_STATUS_ST_DONE,
	     "no width mode, nothing run (a NIC without the test port): no PASS (0x%04x)", fw.st_bits);
	REG(INC_FEATURES) = INC_FEAT_MODE_WIDTH | INC_FEAT_MGMT | INC_FEAT_TPORT;
	host_engine = HOST_CODEC;
}

static void test_commands(void)
{
	uint32_t w0;

	fake_reset();
	w0 = post(INC_MBOX_OP_GET_VERSION, 0x7001, 0, 0);
	t_ok(w0 == 0x70010000 && rsp(1) == FW_VERSION_WORD && rsp(2) == 0x1234abcd &&
	     rsp(3) == 0xf && rsp(4) == 0x55aa55aa && rsp(5) == 4096 && rsp(6) == 0xeeeeeeee &&
	     order_ok(),
	     "GET_VERSION: ok, sequence 0x7001, version 0x%06x, build id, capabilities 0x%x, CRC, size",
	     rsp(1), rsp(3));

	host_engine = HOST_CODEC;
	fw_selftest();
	w0 = post(INC_MBOX_OP_GET_SELFTEST, 2, 0, 0);
	t_ok(w0 == 0x00020000 && rsp(1) == 0x3f3f && rsp(2) == 12 && rsp(3) == 0 && rsp(4) == 0 &&
	     order_ok(), "GET_SELFTEST: bits 0x%x, %u run, %u failed", rsp(1), rsp(2), rsp(3));

	REG(INC_FEATURES) = INC_FEAT_MODE_WIDTH | INC_FEAT_MGMT | INC_FEAT_TPORT;
	REG(INC_FW_STATUS) = INC_FW_STATUS_READY | INC_FW_STATUS_ST_DONE | INC_FW_STATUS_ST_PASS;
	REG(INC_MGMT_EVENT) = 0;
	host_engine = HOST_CORRUPT;
	host_set = 5;
	host_index = 1;
	w0 = post(INC_MBOX_OP_RUN_SELFTEST, 3, 0, 0);
	t_ok(w0 == 0x00030000 && rsp(1) == 0x3f1f && rsp(2) == 12 && rsp(3) == 1 &&
	     rsp(4) == 0x0501 && REG(INC_FW_SELFTEST) == 0x3f1f &&
	     REG(INC_FW_STATUS) == (INC_FW_STATUS_READY | INC_FW_STATUS_ST_DONE) &&
	     REG(INC_MGMT_EVENT) == INC_MGMT_EVENT_SELFTEST && order_ok(),
	     "RUN_SELFTEST with width decompress broken: 0x%x, FW_SELFTEST and FW_STATUS (0x%x: READY kept, PASS cleared) updated, EVENT bit 1",
	     rsp(1), REG(INC_FW_STATUS));
	REG(INC_MGMT_EVENT) = 0;
	post(INC_MBOX_OP_RUN_SELFTEST, 4, 0, 0);
	t_ok(REG(INC_MGMT_EVENT) == 0 && rsp(1) == 0x3f1f,
	     "RUN_SELFTEST with the same result: no event");
	host_engine = HOST_CODEC;
	post(INC_MBOX_OP_RUN_SELFTEST, 5, 0, 0);
	t_ok(rsp(1) == 0x3f3f && REG(INC_FW_STATUS) == (INC_FW_STATUS_READY | INC_FW_STATUS_ST_DONE |
							 INC_FW_STATUS_ST_PASS),
	     "RUN_SELFTEST passing again sets PASS (FW_STATUS 0x%x)", REG(INC_FW_STATUS));

	/* SET_MAC: 02:11:22:33:44:55 as MAC_LO/MAC_HI */
	w0 = post(INC_MBOX_OP_SET_MAC, 6, 0x33221102, 0x5544);
	t_ok(w0 == 0x00060000 && REG(INC_MAC_LO) == 0x33221102 && REG(INC_MAC_HI) == 0x5544 &&
	     order_ok(), "SET_MAC 02:11:22:33:44:55: ok, MAC_LO/MAC_HI written");
	{
		static const struct { uint32_t lo, hi; const char *what; } bad[] = {
			{ 0x33221101, 0x5544, "multicast 01:11:22:33:44:55" },
			{ 0xffffffff, 0xffff, "broadcast" },
			{ 0, 0, "all zero" },
			{ 0x33221102, 0x15544, "bits above byte 5 set" },
		};
		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			w0 = post(INC_MBOX_OP_SET_MAC, (uint16_t)(7 + i), bad[i].lo, bad[i].hi);
			t_ok(w0 == ((7u + i) << 16 | INC_MBOX_ST_EINVAL) &&
			     REG(INC_MAC_LO) == 0x33221102 && REG(INC_MAC_HI) == 0x5544 &&
			     order_ok(), "SET_MAC %s: EINVAL, MAC unchanged", bad[i].what);
		}
	}

	/* STATS_SNAPSHOT */
	for (unsigned int n = 0; n < INC_ST_N; n++)
		fake_counter(n, (uint64_t)(n + 1) << 32 | (0xf0000000u + n));
	w0 = post(INC_MBOX_OP_STATS_SNAPSHOT, 20, 0, 0);
	{
		int ok = w0 == (20u << 16) && rsp(1) == INC_ST_N && order_ok() &&
			 fake_reg[INC_STATS / 4] == 0xf0000000u;
		for (unsigned int n = 0; n < INC_ST_N; n++)
			ok &= rsp(2 + 2 * n) == 0xf0000000u + n && rsp(3 + 2 * n) == n + 1;
		ok &= rsp(2 + 2 * INC_ST_N) == 0xeeeeeeee;
		t_ok(ok, "STATS_SNAPSHOT: %u counters, low and high words from the bank, live ones kept",
		     rsp(1));
	}
	w0 = post(INC_MBOX_OP_STATS_SNAPSHOT, 21, 1, 0);
	{
		int ok = w0 == (21u << 16) && rsp(1) == INC_ST_N;
		for (unsigned int n = 0; n < INC_ST_N; n++)
			ok &= rsp(2 + 2 * n) == 0xf0000000u + n && rsp(3 + 2 * n) == n + 1 &&
			      fake_reg[(INC_STATS + 8 * n) / 4] == 0 &&
			      fake_reg[(INC_STATS + 8 * n + 4) / 4] == 0;
		t_ok(ok, "STATS_SNAPSHOT with clear: the values, and the live counters cleared by the NIC");
	}
	fake_counter(0, 77);
	w0 = post(INC_MBOX_OP_STATS_SNAPSHOT, 22, 2, 0);
	t_ok(w0 == (22u << 16 | INC_MBOX_ST_EINVAL) && fake_reg[INC_STATS / 4] == 77 &&
	     fake_reg[INC_STATS_SNAP_BANK / 4] == 0xf0000000u && rsp(1) == 0xeeeeeeee,
	     "STATS_SNAPSHOT with an unknown flag: EINVAL, no snapshot taken");

	/* GET_LINK */
	REG(INC_STATUS) = INC_STATUS_LINK | INC_STATUS_TX_IDLE;
	REG(INC_LINK_SPEED) = 100000;
	w0 = post(INC_MBOX_OP_GET_LINK, 30, 0, 0);
	t_ok(w0 == (30u << 16) && rsp(1) == 1 && rsp(2) == 100000 && order_ok(),
	     "GET_LINK: up, 100000 Mbit/s");
	REG(INC_STATUS) = INC_STATUS_TX_IDLE;
	REG(INC_LINK_SPEED) = 0;
	post(INC_MBOX_OP_GET_LINK, 31, 0, 0);
	t_ok(rsp(1) == 0 && rsp(2) == 0, "GET_LINK: down");

	/* RUN_VECTOR: one vector (the C codec as the engine here) */
	host_engine = HOST_CODEC;
	w0 = post(INC_MBOX_OP_RUN_VECTOR, 32, 3, 0);
	t_ok(w0 == (32u << 16) && rsp(1) == ST_RAN && rsp(2) == fw_st_vectors[3].out_len &&
	     rsp(3) == 1 && rsp(4) == ((uint32_t)fw_st_vectors[3].set << 8 | fw_st_vectors[3].index) &&
	     order_ok(), "RUN_VECTOR 3: ran, %u bytes, as expected, set/index 0x%x", rsp(2), rsp(4));
	w0 = post(INC_MBOX_OP_RUN_VECTOR, 33, 3, fw_st_vectors[3].in_len - 1u);
	t_ok(w0 == (33u << 16) && rsp(1) == ST_RAN && rsp(3) == 0,
	     "RUN_VECTOR 3 with its input a byte short: ran, not as expected (%u bytes)", rsp(2));
	w0 = post(INC_MBOX_OP_RUN_VECTOR, 34, fw_st_nvectors, 0);
	t_ok(w0 == (34u << 16 | INC_MBOX_ST_EINVAL),
	     "RUN_VECTOR past the table: EINVAL (0x%08x)", w0);
	w0 = post(INC_MBOX_OP_RUN_VECTOR, 35, 0, fw_st_vectors[0].in_len + 1u);
	t_ok(w0 == (35u << 16 | INC_MBOX_ST_EINVAL),
	     "RUN_VECTOR with an input longer than the vector's: EINVAL (0x%08x)", w0);

	{
		static const uint32_t ops[] = { 0x0000, 0x0008, 0x00ff, 0x8001, 0xffff };
		for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			w0 = post(ops[i], 0xbeef, 1, 2);
			t_ok(w0 == (0xbeefu << 16 | INC_MBOX_ST_EOPNOTSUPP) && rsp(1) == 0xeeeeeeee &&
			     order_ok(), "opcode 0x%04x: EOPNOTSUPP, sequence kept, no results", ops[i]);
		}
	}
}

/* DEBUG_HANG: the core hangs without answering: no result, no DONE */
static void test_debug_hang(void)
{
	fake_reset();
	memset(&REG(INC_MBOX_RSP), 0xee, 4 * INC_MBOX_RSP_WORDS);
	REG(INC_MBOX_CMD) = 0x4242u << 16 | INC_MBOX_OP_DEBUG_HANG;
	REG(INC_MBOX_STATUS) = 0;
	hung = 0;
	if (!setjmp(hang_jmp))
		fw_mbox_service();
	t_ok(hung == 1 && fake_nlog == 0 && REG(INC_MBOX_RSP) == 0xeeeeeeee &&
	     REG(INC_MBOX_STATUS) == 0,
	     "DEBUG_HANG (0x%04x): the firmware hangs (%d), writes nothing: no response, no DONE (%u writes)",
	     INC_MBOX_OP_DEBUG_HANG, hung, fake_nlog);
	/* a firmware that is not hung answers the next opcode as before */
	hung = 0;
	if (!setjmp(hang_jmp))
		post(INC_MBOX_OP_GET_LINK, 0x4243, 0, 0);
	t_ok(hung == 0 && REG(INC_MBOX_RSP) == 0x42430000u && order_ok(),
	     "GET_LINK after it (a new firmware): answered, no hang");

	fake_reset();
	memset(&REG(INC_MBOX_RSP), 0xee, 4 * INC_MBOX_RSP_WORDS);
	REG(INC_MBOX_CMD) = 0x4244u << 16 | INC_MBOX_OP_DEBUG_FAULT;
	crashed = 0;
	hung = 0;
	if (!setjmp(hang_jmp))
		fw_mbox_service();
	t_ok(crashed == 1 && hung == 0 && fake_nlog == 0 && REG(INC_MBOX_RSP) == 0xeeeeeeee,
	     "DEBUG_FAULT (0x%04x): the exception raised (%d), no response, no DONE",
	     INC_MBOX_OP_DEBUG_FAULT, crashed);
}

/* the tick's link watch: EVENT bit 0 on every change of STATUS.LINK, only then */
static void test_link_watch(void)
{
	int r;

	fake_reset();
	fw.link_last = 0;
	REG(INC_STATUS) = INC_STATUS_TX_IDLE | INC_STATUS_RX_IDLE;
	r = fw_link_watch();
	t_ok(r == 0 && REG(INC_MGMT_EVENT) == 0 && fake_nlog == 0,
	     "link down as at boot: no event, nothing written");
	REG(INC_STATUS) |= INC_STATUS_LINK;
	REG(INC_MGMT_EVENT) = INC_MGMT_EVENT_SELFTEST;
	r = fw_link_watch();
	t_ok(r == 1 && REG(INC_MGMT_EVENT) == (INC_MGMT_EVENT_SELFTEST | INC_MGMT_EVENT_LINK) &&
	     fw.link_last == INC_STATUS_LINK && fake_nlog == 1 && fake_log[0] == INC_MGMT_EVENT,
	     "link up: EVENT bit 0 set (W1S: bit 1 kept, 0x%x), one write", REG(INC_MGMT_EVENT));
	REG(INC_MGMT_EVENT) = 0;
	fake_nlog = 0;
	r = fw_link_watch() + fw_link_watch();
	t_ok(r == 0 && REG(INC_MGMT_EVENT) == 0 && fake_nlog == 0,
	     "link still up on the next ticks: no event");
	REG(INC_STATUS) &= ~INC_STATUS_LINK;
	r = fw_link_watch();
	t_ok(r == 1 && REG(INC_MGMT_EVENT) == INC_MGMT_EVENT_LINK && fw.link_last == 0,
	     "link down: EVENT bit 0 again");
	REG(INC_MGMT_EVENT) = 0;
	REG(INC_STATUS) = INC_STATUS_LINK;
	r = fw_link_watch();
	REG(INC_STATUS) = 0;
	r += fw_link_watch();
	t_ok(r == 2 && REG(INC_MGMT_EVENT) == INC_MGMT_EVENT_LINK,
	     "up then down on two ticks: two changes (%d), the bit set until the driver clears it", r);
}

int main(void)
{
	static const uint8_t check[] = "123456789";

	fw_crc32_init();
	t_ok(fw_crc32(0, check, 9) == 0xcbf43926 &&
	     fw_crc32(fw_crc32(0, check, 4), check + 4, 5) == 0xcbf43926,
	     "CRC-32 of \"123456789\" is 0xcbf43926, also in two pieces");
	test_selftest();
	test_commands();
	test_debug_hang();
	test_link_watch();
	return t_done();
}
