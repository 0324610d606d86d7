// SPDX-License-Identifier: MIT
/*
 * The management firmware's core-specific part: boot (after crt0.S), the
 * trap handler (timer: heartbeat and link watch; external: the mailbox
 * doorbell; exceptions: a fault record, then halt) and the idle loop.
 * docs/firmware.md "The firmware".
 */
#include "fw.h"
#include "fw_config.h"
#include "fw_version.h"
#include "regs.h"

#include "fw_build_id.h"	/* FW_BUILD_ID, made by firmware.mk */

#define MCAUSE_IRQ		0x80000000u
#define MCAUSE_TIMER		(MCAUSE_IRQ | 7)
#define MCAUSE_EXTERNAL		(MCAUSE_IRQ | 11)
#define MIE_MTIE		(1u << 7)
#define MIE_MEIE		(1u << 11)
#define MSTATUS_MIE		(1u << 3)

/* initialized: .data, copied from IMEM by crt0.S (GET_VERSION shows it) */
struct fw_state fw = { .build_id = FW_BUILD_ID };

static volatile uint32_t mbox_pending;
static volatile uint32_t heartbeat;
static uint32_t next_lo, next_hi;	/* the next heartbeat's mtime */

/* the payload's extent in IMEM (link.ld) */
extern const uint8_t _fw_image_start[], _fw_image_end[];

static inline void mmio_wr(uint32_t addr, uint32_t v)
{
	*(volatile uint32_t *)addr = v;
}

static inline uint32_t mmio_rd(uint32_t addr)
{
	return *(volatile uint32_t *)addr;
}

static void timer_arm(void)
{
	uint32_t lo = next_lo + FW_TICK;

	next_hi += lo < next_lo;
	next_lo = lo;
	/* never below the old value on the way: hi first only if it grows */
	mmio_wr(FW_MTIMECMP_LO, 0xffffffffu);
	mmio_wr(FW_MTIMECMP_HI, next_hi);
	mmio_wr(FW_MTIMECMP_LO, next_lo);
}

static void timer_start(void)
{
	uint32_t hi, lo;

	do {
		hi = mmio_rd(FW_MTIME_HI);
		lo = mmio_rd(FW_MTIME_LO);
	} while (hi != mmio_rd(FW_MTIME_HI));
	next_lo = lo;
	next_hi = hi;
	timer_arm();
}

static void tick(void)
{
	timer_arm();
	fw_wr(INC_FW_HEARTBEAT, ++heartbeat);
	fw_link_watch();
}

/* DEBUG_FAULT (cmd.c): a breakpoint exception, a firmware fault (mcause 3) */
void fw_crash(void)
{
	__asm__ volatile("ebreak");
	for (;;)
		__asm__ volatile("");
}

/* DEBUG_HANG (cmd.c): the doorbell was acknowledged; nothing more, ever */
void fw_hang(void)
{
	__asm__ volatile("csrc mstatus, %0" : : "r"(MSTATUS_MIE));
	__asm__ volatile("csrw mie, zero");
	for (;;)
		__asm__ volatile("");
}

static void __attribute__((noreturn)) fault(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	__asm__ volatile("csrw mie, zero");	/* nothing wakes the WFI below */
	fw_wr(INC_MBOX_RSP + 4 * INC_FW_CRASH_RSP, mcause);
	fw_wr(INC_MBOX_RSP + 4 * (INC_FW_CRASH_RSP + 1), mepc);
	fw_wr(INC_MBOX_RSP + 4 * (INC_FW_CRASH_RSP + 2), mtval);
	fw_wr(INC_FW_STATUS, INC_FW_STATUS_BOOT_ERROR |
	      (INC_FW_ERR_TRAP + (mcause & 0xff)) << INC_FW_STATUS_ERR_SHIFT);
	fw_wr(INC_MGMT_EVENT, INC_MGMT_EVENT_FAULT);
	for (;;)
		__asm__ volatile("wfi");
}

/* called by crt0.S's trap entry with the trap's CSRs */
void fw_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval);
void fw_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	if (mcause == MCAUSE_EXTERNAL) {
		/* the doorbell: acknowledge (drops MEIP), serve in main */
		fw_wr(INC_MBOX_STATUS, INC_MBOX_STATUS_ACK);
		mbox_pending = 1;
	} else if (mcause == MCAUSE_TIMER) {
		tick();
	} else {
		fault(mcause, mepc, mtval);
	}
}

int main(void);
int main(void)
{
	fw_wr(INC_FW_STATUS, 0);
	fw.image_bytes = (uint32_t)(_fw_image_end - _fw_image_start);
	fw_crc32_init();
	fw.image_crc = fw_crc32(0, _fw_image_start, fw.image_bytes);
	fw.link_last = fw_rd(INC_STATUS) & INC_STATUS_LINK;

	/* the heartbeat from here: a long self-test does not look dead */
	timer_start();
	__asm__ volatile("csrw mie, %0" : : "r"(MIE_MTIE | MIE_MEIE));
	__asm__ volatile("csrs mstatus, %0" : : "r"(MSTATUS_MIE));

	fw_wr(INC_FW_SELFTEST, fw_selftest());
	fw_wr(INC_FW_VERSION, FW_VERSION_WORD);
	fw_wr(INC_FW_STATUS, fw_selftest_status());
	fw_wr(INC_FW_STATUS, fw_selftest_status() | INC_FW_STATUS_READY);

	for (;;) {
		__asm__ volatile("csrc mstatus, %0" : : "r"(MSTATUS_MIE));
		if (mbox_pending) {
			mbox_pending = 0;
			__asm__ volatile("csrs mstatus, %0" : : "r"(MSTATUS_MIE));
			fw_mbox_service();
		} else {
			/* wakes on a pending interrupt with MIE clear too */
			__asm__ volatile("wfi");
			__asm__ volatile("csrs mstatus, %0" : : "r"(MSTATUS_MIE));
		}
	}
}
