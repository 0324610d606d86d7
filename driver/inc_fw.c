// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the management core's firmware (docs/firmware.md). At
 * probe, when FEATURES has MGMT: the image inceptionn/inceptionn-fw.bin is
 * checked (header, sizes, both CRC-32s), written through the loader
 * (MGMT_CTRL.HALT, MGMT_LOAD_ADDR, MGMT_LOAD_DATA) and started; the
 * work below waits for FW_STATUS.READY (the probe does not), then
 * GET_VERSION through the mailbox gives its build id. The same delayed
 * work watches FW_HEARTBEAT and reloads the image after a reset of the NIC.
 *
 * Policy: the firmware is optional. A missing or corrupt file, a firmware
 * major version the driver does not speak, a core that does not become
 * READY or reports a boot error: one message with the reason, the core is
 * left halted, and the NIC passes traffic as without firmware. A heartbeat
 * that stops marks the firmware dead (one message, the core halted); the
 * netdev goes on.
 *
 * Mailbox completions and the firmware's EVENT bits come on interrupt
 * vector 2 (a threaded handler: the sim transport's register reads
 * sleep): a completion wakes the waiting command, a link change updates
 * the carrier, a firmware fault is acted on at once (the watchdog's work
 * runs now). A NIC with two vectors only has its mailbox polled
 * (MBOX_STATUS.BUSY), and vector 2 stays masked.
 */
#include <linux/bitops.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/firmware.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "inc.h"

#define INC_FW_FILE		"inceptionn/inceptionn-fw.bin"
#define INC_FW_MAJOR_SPOKEN	1	/* firmware major version */
#define INC_FW_POLL_MS		200	/* heartbeat watchdog period */
#define INC_FW_BOOT_POLL_MS	10	/* FW_STATUS while booting */
#define INC_FW_CMD_MS		100	/* an admin command, the NIC's time */
#define INC_FW_SELFTEST_MS	1000	/* RUN_SELFTEST, the NIC's time */
#define INC_FW_CMD_LOOK_MS	10	/* its clock looked at, with vector 2 */

MODULE_FIRMWARE(INC_FW_FILE);

/*
 * The firmware's timeouts are in the NIC's time: the kernel's clock on the
 * board, the NIC's clock count on a transport that has its own
 * (nic_time_ns: incsim, whose clock keeps no fixed pace with the wall
 * clock). There the wall clock is a backstop, INC_FW_WALL_BACKSTOP times
 * the timeout: a simulator that stopped counting must not hold a wait for
 * ever, and a core that spins (a hung firmware) keeps incsim's model awake
 * at some 17 us a clock, where 500 ms of the NIC's time would take over
 * half an hour. 120 times leaves a live firmware room: awake, it beats
 * every 250000 clocks (about 4 s of wall time, 8 on a loaded host), within
 * the heartbeat's 60 s; its commands take a few thousand clocks (12 s),
 * RUN_SELFTEST some 350000 (120 s). And a core asleep, whose time incsim
 * paces at 1 ms a 100 ms (--sleep-scale), meets the 500 ms of the NIC's
 * time (50 s) first.
 */
#define INC_FW_WALL_BACKSTOP	120

struct inc_fw_clock {
	u64 ns;			/* NIC time */
	unsigned long at;	/* jiffies */
};

static u64 inc_fw_now(struct inc_priv *p)
{
	return p->tp->nic_time_ns ? p->tp->nic_time_ns(p) : ktime_get_ns();
}

static void inc_fw_clock_start(struct inc_priv *p, struct inc_fw_clock *c)
{
	c->ns = inc_fw_now(p);
	c->at = jiffies;
}

/* the NIC's time since c, in ms */
static unsigned int inc_fw_since_ms(struct inc_priv *p,
				    const struct inc_fw_clock *c)
{
	return div_u64(inc_fw_now(p) - c->ns, NSEC_PER_MSEC);
}

/* ms of the NIC's time have passed since c (or the wall backstop) */
static bool inc_fw_expired(struct inc_priv *p, const struct inc_fw_clock *c,
			   unsigned int ms)
{
	if (inc_fw_now(p) - c->ns >= (u64)ms * NSEC_PER_MSEC)
		return true;
	return p->tp->nic_time_ns &&
	       time_after_eq(jiffies, c->at +
			     msecs_to_jiffies(ms * INC_FW_WALL_BACKSTOP));
}

/* the heartbeat's (or the start's) time: p->fw_hb_ns, p->fw_hb_at */
static void inc_fw_mark(struct inc_priv *p)
{
	struct inc_fw_clock c;

	inc_fw_clock_start(p, &c);
	p->fw_hb_ns = c.ns;
	p->fw_hb_at = c.at;
}

static struct inc_fw_clock inc_fw_marked(const struct inc_priv *p)
{
	return (struct inc_fw_clock){ .ns = p->fw_hb_ns, .at = p->fw_hb_at };
}

static u32 inc_get32(const u8 *b)
{
	return get_unaligned_le32(b);
}

/* zlib's crc32 (the image's CRC-32, IEEE) */
static u32 inc_crc32(const void *b, size_t n)
{
	return ~crc32_le(~0u, b, n);
}

/* a check failed: one message with the reason; -EINVAL */
static __printf(2, 3) int inc_fw_bad(struct inc_priv *p, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_err(&p->pdev->dev, "firmware %s: %pV; running without firmware\n",
		INC_FW_FILE, &vaf);
	va_end(args);
	return -EINVAL;
}

/* the checks of firmware/tools/mkfwimage --check; 0 or -EINVAL, logged */
static int inc_fw_check(struct inc_priv *p, const struct firmware *fw)
{
	const u8 *b = fw->data;
	u32 size, load, entry, c;

	if (fw->size < INC_FWIMG_HDR_BYTES)
		return inc_fw_bad(p, "truncated: %zu bytes, shorter than the %d-byte header",
				  fw->size, INC_FWIMG_HDR_BYTES);
	if (inc_get32(b) != INC_FWIMG_MAGIC)
		return inc_fw_bad(p, "bad magic 0x%08x (want 0x%08x): not a firmware image",
				  inc_get32(b), INC_FWIMG_MAGIC);
	c = inc_crc32(b, 28);
	if (c != inc_get32(b + 28))
		return inc_fw_bad(p, "bad header CRC-32 (stored 0x%08x, computed 0x%08x)",
				  inc_get32(b + 28), c);
	if (inc_get32(b + 4) != INC_FWIMG_HDR_VERSION)
		return inc_fw_bad(p, "header version %u not supported (want %d)",
				  inc_get32(b + 4), INC_FWIMG_HDR_VERSION);
	size = inc_get32(b + 12);
	load = inc_get32(b + 16);
	entry = inc_get32(b + 20);
	if (!size || size % 4 || fw->size != INC_FWIMG_HDR_BYTES + (size_t)size)
		return inc_fw_bad(p, "payload of %u bytes in a %zu-byte file",
				  size, fw->size);
	if (load % 4 || load >= INC_FWIMG_IMEM_BYTES ||
	    (u64)load + size > INC_FWIMG_IMEM_BYTES)
		return inc_fw_bad(p, "%u bytes at 0x%x do not fit IMEM (%d bytes)",
				  size, load, INC_FWIMG_IMEM_BYTES);
	if (entry % 4 || entry < load || entry >= load + size)
		return inc_fw_bad(p, "entry 0x%08x is not a word of the payload",
				  entry);
	c = inc_crc32(b + INC_FWIMG_HDR_BYTES, size);
	if (c != inc_get32(b + 24))
		return inc_fw_bad(p, "bad payload CRC-32 (stored 0x%08x, computed 0x%08x)",
				  inc_get32(b + 24), c);
	return 0;
}

static void inc_fw_halt(struct inc_priv *p)
{
	inc_wr(p, INC_MGMT_CTRL, INC_MGMT_CTRL_HALT);
}

static const char *inc_fw_op_name(u16 op)
{
	switch (op) {
	case INC_MBOX_OP_GET_VERSION:
		return "GET_VERSION";
	case INC_MBOX_OP_GET_SELFTEST:
		return "GET_SELFTEST";
	case INC_MBOX_OP_RUN_SELFTEST:
		return "RUN_SELFTEST";
	case INC_MBOX_OP_SET_MAC:
		return "SET_MAC";
	case INC_MBOX_OP_STATS_SNAPSHOT:
		return "STATS_SNAPSHOT";
	case INC_MBOX_OP_GET_LINK:
		return "GET_LINK";
	case INC_MBOX_OP_DEBUG_HANG:
		return "DEBUG_HANG";
	case INC_MBOX_OP_DEBUG_FAULT:
		return "DEBUG_FAULT";
	default:
		return "unknown";
	}
}

/*
 * Until MBOX_STATUS.BUSY clears, or ms of the NIC's time (inc_fw_expired):
 * vector 2 wakes fw_done (any of its interrupts: BUSY is read again; the
 * NIC's time is looked at every INC_FW_CMD_LOOK_MS meanwhile), or, without
 * vector 2, BUSY is polled. 0; -ETIMEDOUT; -EIO when the NIC does not
 * answer or the firmware reported a fault meanwhile.
 */
static int inc_fw_wait(struct inc_priv *p, unsigned int ms)
{
	struct inc_fw_clock t;
	u32 v;

	inc_fw_clock_start(p, &t);
	for (;;) {
		v = inc_rd(p, INC_MBOX_STATUS);
		if (v == ~0u || READ_ONCE(p->fw_fault))
			return -EIO;
		if (!(v & INC_MBOX_STATUS_BUSY))
			return 0;
		if (inc_fw_expired(p, &t, ms))
			return -ETIMEDOUT;
		if (p->irq_fw_bit)
			wait_for_completion_timeout(&p->fw_done,
						    msecs_to_jiffies(INC_FW_CMD_LOOK_MS));
		else
			usleep_range(20, 40);
	}
}

/*
 * One admin command (docs/firmware.md, "Admin commands"): args to MBOX_CMD
 * words 1.., the doorbell, the completion awaited (inc_fw_wait), then nres
 * results from MBOX_RSP word 1. 0, the firmware's status as a negative
 * errno, -EIO when the firmware is not running, -EBUSY when the mailbox
 * still holds an unanswered command, -ETIMEDOUT (INC_FW_CMD_MS of the
 * NIC's time; RUN_SELFTEST, whose vectors may each wait 5 ms for an
 * engine, INC_FW_SELFTEST_MS). Under fw_lock.
 */
static int inc_fw_cmd_locked(struct inc_priv *p, u16 op, const u32 *args,
			     unsigned int nargs, u32 *res, unsigned int nres)
{
	unsigned int i, ms = op == INC_MBOX_OP_RUN_SELFTEST ?
			     INC_FW_SELFTEST_MS : INC_FW_CMD_MS;
	u32 v, seq, w0;
	int err;

	lockdep_assert_held(&p->fw_lock);
	if (p->fw_state != INC_FW_RUNNING ||
	    test_bit(INC_S_FROZEN, &p->state))
		return -EIO;
	v = inc_rd(p, INC_MBOX_STATUS);
	if (v == ~0u)
		return -EIO;
	if (v & INC_MBOX_STATUS_BUSY) {
		p->fw_cmd_errors++;
		return -EBUSY;
	}
	for (i = 0; i < nargs && i + 1 < INC_MBOX_CMD_WORDS; i++)
		inc_wr(p, INC_MBOX_CMD + 4 * (i + 1), args[i]);
	seq = ++p->fw_seq & 0xffff;
	reinit_completion(&p->fw_done);
	inc_wr(p, INC_MBOX_CMD, seq << 16 | op);
	inc_wr(p, INC_MBOX_DOORBELL, 1);
	err = inc_fw_wait(p, ms);
	if (err) {
		p->fw_cmd_errors++;
		if (err == -ETIMEDOUT)
			netdev_err(p->ndev, "firmware did not complete admin command 0x%04x %s within %u ms (MBOX_STATUS BUSY): the mailbox is blocked until the firmware answers or is restarted\n",
				   op, inc_fw_op_name(op), ms);
		return err;
	}
	w0 = inc_rd(p, INC_MBOX_RSP);
	if (w0 >> 16 != seq) {
		p->fw_cmd_errors++;
		netdev_warn(p->ndev, "firmware answered command 0x%04x with sequence %u, not %u\n",
			    op, w0 >> 16, seq);
		return -EIO;
	}
	if (w0 & 0xffff) {
		p->fw_cmd_errors++;
		return -(int)(w0 & 0xffff);
	}
	for (i = 0; i < nres && i + 1 < INC_MBOX_RSP_WORDS; i++)
		res[i] = inc_rd(p, INC_MBOX_RSP + 4 * (i + 1));
	p->fw_cmds++;
	return 0;
}

int inc_fw_cmd(struct inc_priv *p, u16 op, const u32 *args, unsigned int nargs,
	       u32 *res, unsigned int nres)
{
	int err;

	mutex_lock(&p->fw_lock);
	err = inc_fw_cmd_locked(p, op, args, nargs, res, nres);
	mutex_unlock(&p->fw_lock);
	return err;
}

/*
 * Load p->fw_image and start it; the watchdog's work waits for READY
 * (inc_fw_booted), so that neither the probe nor a reset waits for the
 * firmware. Under fw_lock.
 */
static void inc_fw_start(struct inc_priv *p)
{
	const u8 *b = p->fw_image;
	u32 size = inc_get32(b + 12), load = inc_get32(b + 16);
	unsigned int i;

	inc_fw_halt(p);
	inc_wr(p, INC_MGMT_LOAD_ADDR, load);
	for (i = 0; i < size; i += 4)
		inc_wr(p, INC_MGMT_LOAD_DATA,
		       inc_get32(b + INC_FWIMG_HDR_BYTES + i));
	p->fw_fault = false;
	/* vector 2 on again (a reset of the NIC clears IRQ_ENABLE) */
	inc_irq_unmask(p);
	inc_wr(p, INC_MGMT_CTRL, 0);
	p->fw_state = INC_FW_BOOTING;
	inc_fw_mark(p);		/* the start: READY within 1 s */
}

static const char * const inc_fw_st_names[INC_FW_ST_SETS] = {
	"paper compress", "paper decompress", "sparse compress",
	"sparse decompress", "width compress", "width decompress",
};

/*
 * The self-test's vector sets this NIC has (docs/firmware.md): paper and
 * sparse, and width with FEATURES bit 12. The others are not run and do
 * not count.
 */
static u32 inc_fw_st_have(struct inc_priv *p)
{
	return p->features & INC_FEAT_MODE_WIDTH ? 0x3f : 0x0f;
}

/* "paper compress, width compress" for the sets of mask */
static void inc_fw_st_list(u32 mask, char *buf, size_t len)
{
	unsigned int s, n = 0;

	buf[0] = '\0';
	for (s = 0; s < INC_FW_ST_SETS; s++)
		if (mask & BIT(s))
			n += scnprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				       inc_fw_st_names[s]);
}

/*
 * A booting firmware: READY (its version checked, GET_VERSION asked), a
 * boot error or no READY within 1 s (the core halted), or still booting
 * (false). Under fw_lock.
 */
static bool inc_fw_booted(struct inc_priv *p)
{
	struct device *dev = &p->pdev->dev;
	u32 hdr_ver = inc_get32(p->fw_image + 8), st, ver, res[3];
	struct inc_fw_clock start = inc_fw_marked(p);
	unsigned int ms = 1000;
	int err;

	st = inc_rd(p, INC_FW_STATUS);
	if (st != ~0u && !(st & (INC_FW_STATUS_READY | INC_FW_STATUS_BOOT_ERROR)) &&
	    !inc_fw_expired(p, &start, ms))
		return false;
	p->fw_state = INC_FW_NONE;
	if (st == ~0u || !(st & INC_FW_STATUS_READY) ||
	    (st & INC_FW_STATUS_BOOT_ERROR)) {
		inc_fw_halt(p);
		if (st != ~0u && (st & INC_FW_STATUS_BOOT_ERROR))
			dev_err(dev, "firmware boot error 0x%04x (FW_STATUS 0x%08x): core halted, running without firmware\n",
				st >> INC_FW_STATUS_ERR_SHIFT, st);
		else
			dev_err(dev, "firmware not ready %u ms (NIC time) after its start (FW_STATUS 0x%08x): core halted, running without firmware\n",
				ms, st);
		return true;
	}
	ver = inc_rd(p, INC_FW_VERSION);
	if (INC_VERSION_MAJOR(ver) != INC_FW_MAJOR_SPOKEN) {
		inc_fw_halt(p);
		dev_err(dev, "firmware v%u.%u.%u; this driver speaks firmware v%u only: core halted, running without firmware\n",
			INC_VERSION_MAJOR(ver), INC_VERSION_MINOR(ver),
			INC_VERSION_PATCH(ver), INC_FW_MAJOR_SPOKEN);
		return true;
	}
	if (ver != hdr_ver)
		dev_warn(dev, "firmware reports v%u.%u.%u, its image header v%u.%u.%u\n",
			 INC_VERSION_MAJOR(ver), INC_VERSION_MINOR(ver),
			 INC_VERSION_PATCH(ver), INC_VERSION_MAJOR(hdr_ver),
			 INC_VERSION_MINOR(hdr_ver), INC_VERSION_PATCH(hdr_ver));
	p->fw_version = ver;
	p->fw_state = INC_FW_RUNNING;
	p->fw_hb = inc_rd(p, INC_FW_HEARTBEAT);
	inc_fw_mark(p);
	err = inc_fw_cmd_locked(p, INC_MBOX_OP_GET_VERSION, NULL, 0, res,
				ARRAY_SIZE(res));
	if (err) {
		inc_fw_halt(p);
		p->fw_state = INC_FW_NONE;
		dev_err(dev, "firmware v%u.%u.%u does not answer GET_VERSION (%d): core halted, running without firmware\n",
			INC_VERSION_MAJOR(ver), INC_VERSION_MINOR(ver),
			INC_VERSION_PATCH(ver), err);
		return true;
	}
	p->fw_build = res[1];
	p->fw_caps = res[2];
	dev_info(dev, "firmware v%u.%u.%u (build %08x) running, capabilities 0x%x, FW_STATUS 0x%08x\n",
		 INC_VERSION_MAJOR(ver), INC_VERSION_MINOR(ver),
		 INC_VERSION_PATCH(ver), p->fw_build, p->fw_caps, st);
	/*
	 * the boot self-test: a failed set is named (none runs without the
	 * engine test port, which ethtool -t reports)
	 */
	if ((p->features & INC_FEAT_TPORT) && (st & INC_FW_STATUS_ST_DONE) &&
	    !(st & INC_FW_STATUS_ST_PASS)) {
		u32 b = inc_rd(p, INC_FW_SELFTEST), run, have = inc_fw_st_have(p);
		char names[96];

		run = (b >> INC_FW_SELFTEST_RUN_SHIFT) & have;
		inc_fw_st_list(run & ~b, names, sizeof(names));
		dev_err(dev, "firmware boot self-test FAILED (FW_SELFTEST 0x%04x): %s%s%s\n",
			b, names[0] ? names : "",
			names[0] && (have & ~run) ? "; " : "",
			have & ~run ? "some sets not run" : "");
	}
	return true;
}

/*
 * The watchdog, every INC_FW_POLL_MS: a heartbeat that has not moved for
 * 500 ms (board time) marks the firmware dead. It also boots the image
 * again after a reset of the NIC (inc_fw_reset_done).
 */
static void inc_fw_work(struct work_struct *work)
{
	struct inc_priv *p = container_of(to_delayed_work(work),
					  struct inc_priv, fw_work);
	struct inc_fw_clock hb_at;
	u32 hb, st;

	mutex_lock(&p->fw_lock);
	if (test_bit(INC_S_FROZEN, &p->state))
		goto out;
	if (p->fw_reload) {
		p->fw_reload = false;
		inc_fw_start(p);
		goto out;
	}
	if (p->fw_state == INC_FW_BOOTING) {
		inc_fw_booted(p);
		goto out;
	}
	if (p->fw_state != INC_FW_RUNNING)
		goto out;
	hb = inc_rd(p, INC_FW_HEARTBEAT);
	st = inc_rd(p, INC_FW_STATUS);
	/* the NIC does not answer (a reset, a PCI error): not the firmware */
	if (hb == ~0u || st == ~0u)
		goto out;
	if (hb != p->fw_hb && !(st & INC_FW_STATUS_BOOT_ERROR)) {
		p->fw_hb = hb;
		inc_fw_mark(p);
		goto out;
	}
	hb_at = inc_fw_marked(p);
	if (!(st & INC_FW_STATUS_BOOT_ERROR) && !inc_fw_expired(p, &hb_at, 500))
		goto out;
	p->fw_state = INC_FW_DEAD;
	p->fw_deaths++;
	if (st & INC_FW_STATUS_BOOT_ERROR)
		netdev_err(p->ndev, "firmware heartbeat stopped: firmware fault 0x%04x (mcause %u, mepc 0x%08x, mtval 0x%08x): core halted, the NIC runs on without firmware\n",
			   st >> INC_FW_STATUS_ERR_SHIFT,
			   inc_rd(p, INC_MBOX_RSP + 4 * INC_FW_CRASH_RSP),
			   inc_rd(p, INC_MBOX_RSP + 4 * (INC_FW_CRASH_RSP + 1)),
			   inc_rd(p, INC_MBOX_RSP + 4 * (INC_FW_CRASH_RSP + 2)));
	else
		netdev_err(p->ndev, "firmware heartbeat stopped: FW_HEARTBEAT %u for %u ms of the NIC's time, %u ms wall (FW_STATUS 0x%08x): core halted, the NIC runs on without firmware\n",
			   hb, inc_fw_since_ms(p, &hb_at),
			   jiffies_to_msecs(jiffies - p->fw_hb_at), st);
	inc_fw_halt(p);
	inc_devlink_report_fw(p, st & INC_FW_STATUS_BOOT_ERROR ?
			      "firmware fault: core halted" :
			      "firmware heartbeat stopped: core halted");
out:
	if (p->fw_state == INC_FW_BOOTING)
		schedule_delayed_work(&p->fw_work,
				      msecs_to_jiffies(INC_FW_BOOT_POLL_MS));
	else if (p->fw_state == INC_FW_RUNNING || p->fw_reload)
		schedule_delayed_work(&p->fw_work,
				      msecs_to_jiffies(INC_FW_POLL_MS));
	mutex_unlock(&p->fw_lock);
}

/*
 * EVENT's bits, from vector 2's handler. Not under fw_lock: a command
 * holding it may be waiting for this very handler.
 */
static void inc_fw_events(struct inc_priv *p, u32 ev)
{
	if (ev & INC_MGMT_EVENT_LINK) {
		p->fw_link_events++;
		/* as the link watch does, now (inc_stop syncs this handler) */
		if (netif_running(p->ndev))
			inc_link_update(p);
	}
	if (ev & INC_MGMT_EVENT_SELFTEST)
		netdev_info(p->ndev, "firmware: self-test result changed (FW_SELFTEST 0x%04x)\n",
			    inc_rd(p, INC_FW_SELFTEST));
	if (ev & INC_MGMT_EVENT_FAULT) {
		/*
		 * the watchdog's verdict at once (FW_STATUS has BOOT_ERROR:
		 * its message, the core halted); a waiting command: -EIO
		 */
		WRITE_ONCE(p->fw_fault, true);
		mod_delayed_work(system_wq, &p->fw_work, 0);
	}
}

/*
 * Vector 2 (threaded: the sim transport's reads sleep): IRQ_STATUS bit 2
 * cleared, then EVENT read and cleared (W1C) and handled, the waiting
 * command woken (it reads MBOX_STATUS itself), the vector unmasked (the
 * NIC masked it when it sent the message).
 */
static irqreturn_t inc_fw_irq(int irq, void *data)
{
	struct inc_priv *p = data;
	u32 st, ev;

	if (test_bit(INC_S_FROZEN, &p->state))
		return IRQ_HANDLED;
	p->fw_irqs++;
	st = inc_rd(p, INC_IRQ_STATUS);
	if (st == ~0u)
		return IRQ_HANDLED;
	/* before the sources are read: an event after this fires again */
	if (st & BIT(INC_IRQ_MGMT))
		inc_wr(p, INC_IRQ_STATUS, BIT(INC_IRQ_MGMT));
	ev = inc_rd(p, INC_MGMT_EVENT);
	if (ev && ev != ~0u) {
		inc_wr(p, INC_MGMT_EVENT, ev);
		inc_fw_events(p, ev);
	}
	complete(&p->fw_done);
	inc_irq_unmask(p);
	return IRQ_HANDLED;
}

/* vector 2 for the mailbox when the transport has it; else polled (said once) */
static void inc_fw_irq_init(struct inc_priv *p)
{
	struct device *dev = &p->pdev->dev;
	unsigned long flags;
	int err;

	if (!p->irq_mgmt_vec) {
		dev_info(dev, "firmware mailbox polled: no interrupt vector 2 (%d vectors allocated)\n",
			 p->nvec);
		return;
	}
	snprintf(p->fw_irq_name, sizeof(p->fw_irq_name), "inceptionn-mgmt@%s",
		 pci_name(p->pdev));
	err = request_threaded_irq(pci_irq_vector(p->pdev, INC_IRQ_MGMT), NULL,
				   inc_fw_irq, IRQF_ONESHOT, p->fw_irq_name, p);
	if (err) {
		dev_warn(dev, "firmware mailbox polled: interrupt vector 2 not available (%d)\n",
			 err);
		return;
	}
	inc_wr(p, INC_MGMT_EVENT, ~0u);
	inc_wr(p, INC_IRQ_STATUS, BIT(INC_IRQ_MGMT));
	spin_lock_irqsave(&p->irq_lock, flags);
	p->irq_fw_bit = BIT(INC_IRQ_MGMT);
	spin_unlock_irqrestore(&p->irq_lock, flags);
	inc_irq_unmask(p);
}

static void inc_fw_irq_fini(struct inc_priv *p)
{
	unsigned long flags;

	if (!p->irq_fw_bit)
		return;
	spin_lock_irqsave(&p->irq_lock, flags);
	p->irq_fw_bit = 0;
	spin_unlock_irqrestore(&p->irq_lock, flags);
	if (!test_bit(INC_S_FROZEN, &p->state))
		inc_irq_unmask(p);
	free_irq(pci_irq_vector(p->pdev, INC_IRQ_MGMT), p);
}

/* At probe: find, check, keep and boot the image. Never fails the probe. */
void inc_fw_init(struct inc_priv *p)
{
	struct device *dev = &p->pdev->dev;
	const struct firmware *fw;
	int err;

	mutex_init(&p->fw_lock);
	INIT_DELAYED_WORK(&p->fw_work, inc_fw_work);
	init_completion(&p->fw_done);
	p->fw_state = INC_FW_NONE;
	if (!(p->features & INC_FEAT_MGMT))
		return;
	/* an earlier driver's firmware: stopped until this one is checked */
	inc_fw_halt(p);
	err = request_firmware(&fw, INC_FW_FILE, dev);
	if (err) {
		dev_warn(dev, "firmware %s not loaded (%d): running without firmware (make install-firmware)\n",
			 INC_FW_FILE, err);
		return;
	}
	err = inc_fw_check(p, fw);
	if (!err) {
		/* kept for the reload after a reset of the NIC */
		p->fw_image = kmemdup(fw->data, fw->size, GFP_KERNEL);
		if (!p->fw_image)
			err = -ENOMEM;
	}
	release_firmware(fw);
	if (err)
		return;
	inc_fw_irq_init(p);
	mutex_lock(&p->fw_lock);
	inc_fw_start(p);
	schedule_delayed_work(&p->fw_work,
			      msecs_to_jiffies(INC_FW_BOOT_POLL_MS));
	mutex_unlock(&p->fw_lock);
}

/* remove: the watchdog stopped, the core halted, the image freed */
void inc_fw_fini(struct inc_priv *p)
{
	if (!(p->features & INC_FEAT_MGMT))
		return;
	/* first: its handler queues the work */
	inc_fw_irq_fini(p);
	cancel_delayed_work_sync(&p->fw_work);
	if (!test_bit(INC_S_FROZEN, &p->state))
		inc_fw_halt(p);
	p->fw_state = INC_FW_NONE;
	kfree(p->fw_image);
	p->fw_image = NULL;
}

/* The NIC was reset (its core is halted): boot the kept image again. */
void inc_fw_reset_done(struct inc_priv *p)
{
	if (!p->fw_image)
		return;
	mutex_lock(&p->fw_lock);
	p->fw_state = INC_FW_NONE;
	p->fw_reload = true;
	mutex_unlock(&p->fw_lock);
	mod_delayed_work(system_wq, &p->fw_work, 0);
}

/* ethtool --reset DEV mgmt: the management core alone, its image booted again */
int inc_fw_restart(struct inc_priv *p)
{
	if (!p->fw_image)
		return -EOPNOTSUPP;
	netdev_info(p->ndev, "firmware restart requested: core halted, image loaded again\n");
	inc_fw_reset_done(p);
	return 0;
}

bool inc_fw_running(struct inc_priv *p)
{
	return READ_ONCE(p->fw_state) == INC_FW_RUNNING;
}

/*
 * debugfs fw_hang, fw_fault: the firmware's test commands, never
 * answered. DEBUG_HANG: the core spins with interrupts off, no heartbeat;
 * the command times out (its message logged). DEBUG_FAULT: the core takes
 * an exception; EVENT bit 2 on vector 2 ends the command at once (-EIO)
 * and has the watchdog declare the firmware dead (without vector 2 the
 * command times out). 0 when the firmware did so; the command's error
 * else (it does not run, its mailbox is busy), -EPROTO if it answered.
 */
int inc_fw_inject(struct inc_priv *p, u16 op)
{
	int err;

	if (!inc_fw_running(p))
		return -EIO;
	err = inc_fw_cmd(p, op, NULL, 0, NULL, 0);
	if (err == -ETIMEDOUT || (err == -EIO && READ_ONCE(p->fw_fault)))
		return 0;
	if (!err) {
		netdev_warn(p->ndev, "firmware answered %s: it should not\n",
			    inc_fw_op_name(op));
		return -EPROTO;
	}
	return err;
}

/*
 * SET_MAC: the firmware writes MAC_LO/MAC_HI. -ENODEV when the firmware
 * is not running (the caller writes the registers itself); its status
 * (-EINVAL for an address it refuses) or the mailbox's error else.
 */
int inc_fw_set_mac(struct inc_priv *p, const u8 *mac)
{
	u32 args[2] = {
		mac[0] | mac[1] << 8 | mac[2] << 16 | (u32)mac[3] << 24,
		mac[4] | mac[5] << 8,
	};

	if (!inc_fw_running(p))
		return -ENODEV;
	return inc_fw_cmd(p, INC_MBOX_OP_SET_MAC, args, ARRAY_SIZE(args),
			  NULL, 0);
}

/*
 * STATS_SNAPSHOT (no clear): the NIC's INC_ST_N counters into hw[], all
 * taken in one clock, none torn. -ENODEV when the firmware is not
 * running; -EPROTO when it has fewer counters; the mailbox's error.
 */
int inc_fw_stats(struct inc_priv *p, u64 *hw)
{
	u32 res[1 + 2 * INC_ST_N], flags = 0;
	unsigned int n;
	int err;

	if (!inc_fw_running(p))
		return -ENODEV;
	err = inc_fw_cmd(p, INC_MBOX_OP_STATS_SNAPSHOT, &flags, 1, res,
			 ARRAY_SIZE(res));
	if (err)
		return err;
	if (res[0] < INC_ST_N)
		return -EPROTO;
	for (n = 0; n < INC_ST_N; n++)
		hw[n] = (u64)res[2 + 2 * n] << 32 | res[1 + 2 * n];
	p->fw_snapshots++;
	return 0;
}

/* debugfs fw_halt: stop the core behind the driver's back (a hang) */
void inc_fw_inject_halt(struct inc_priv *p)
{
	mutex_lock(&p->fw_lock);
	inc_fw_halt(p);
	mutex_unlock(&p->fw_lock);
}

/* ethtool -i's firmware-version */
void inc_fw_version_str(struct inc_priv *p, char *buf, size_t len)
{
	u32 v = p->fw_version;

	switch (READ_ONCE(p->fw_state)) {
	case INC_FW_RUNNING:
		snprintf(buf, len, "%u.%u.%u build %08x", INC_VERSION_MAJOR(v),
			 INC_VERSION_MINOR(v), INC_VERSION_PATCH(v), p->fw_build);
		break;
	case INC_FW_DEAD:
		snprintf(buf, len, "%u.%u.%u dead", INC_VERSION_MAJOR(v),
			 INC_VERSION_MINOR(v), INC_VERSION_PATCH(v));
		break;
	case INC_FW_BOOTING:
		strscpy(buf, "starting", len);
		break;
	default:
		strscpy(buf, "none", len);
	}
}

/*
 * ethtool -t: RUN_SELFTEST. data[0] the mailbox (0: the command ran),
 * data[1] the vector sets of this NIC's (inc_fw_st_have) that did not
 * run, data[2] those that ran and failed. Anything non-zero fails the
 * test: a set that did not run is not a pass (a NIC without the engine
 * test port, FEATURES bit 14, runs none). The engine test port takes the
 * engines between frames, so the test runs online, with traffic.
 */
int inc_fw_selftest(struct inc_priv *p, u64 *data)
{
	u32 res[4] = { 0 }, run, pass, have = inc_fw_st_have(p);
	char names[96];
	int err;

	err = inc_fw_cmd(p, INC_MBOX_OP_RUN_SELFTEST, NULL, 0, res,
			 ARRAY_SIZE(res));
	if (err) {
		netdev_warn(p->ndev, "self-test: RUN_SELFTEST through the mailbox failed (%d)\n",
			    err);
		data[0] = 1;
		data[1] = INC_FW_ST_SETS;
		data[2] = 0;
		return err;
	}
	run = (res[0] >> INC_FW_SELFTEST_RUN_SHIFT) & GENMASK(INC_FW_ST_SETS - 1, 0);
	pass = res[0] & run;
	data[0] = 0;
	data[1] = hweight32(have & ~run);
	data[2] = hweight32(run & ~pass);
	netdev_info(p->ndev, "self-test: codec vector sets run %u of the NIC's %u, failed %llu (FW_SELFTEST 0x%04x, %u vectors run, %u failed)%s\n",
		    hweight32(run & have), hweight32(have), data[2], res[0],
		    res[1], res[2],
		    !(p->features & INC_FEAT_TPORT) ?
		    ": not run, the NIC has no engine test port" : "");
	if (data[2]) {
		inc_fw_st_list(run & ~pass, names, sizeof(names));
		netdev_err(p->ndev, "self-test FAILED: %s (first failure: set %u vector %u)\n",
			   names, (res[3] >> 8) & 0xff, res[3] & 0xff);
	}
	return data[1] || data[2] ? -EIO : 0;
}
