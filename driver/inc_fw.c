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
 * The mailbox is polled (MBOX_STATUS.BUSY): the transports allocate two
 * vectors, and vector 2 stays masked (IRQ_ENABLE bit 2 is never set).
 */
#include <linux/bitops.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/firmware.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "inc.h"

#define INC_FW_FILE		"inceptionn/inceptionn-fw.bin"
#define INC_FW_MAJOR_SPOKEN	1	/* firmware major version */
#define INC_FW_POLL_MS		200	/* heartbeat watchdog period */
#define INC_FW_BOOT_POLL_MS	10	/* FW_STATUS while booting */

MODULE_FIRMWARE(INC_FW_FILE);

/* times on the board; a simulated NIC's clock is far slower (transport) */
static unsigned int inc_fw_ms(const struct inc_priv *p, unsigned int ms)
{
	return ms * (p->tp->slow_clock ? p->tp->slow_clock : 1);
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

/*
 * One admin command (docs/firmware.md, "Admin commands"): args to MBOX_CMD
 * words 1.., the doorbell, BUSY polled until clear, then nres results from
 * MBOX_RSP word 1. 0, the firmware's status as a negative errno, -EIO when
 * the firmware is not running, -ETIMEDOUT (100 ms; RUN_SELFTEST, whose
 * vectors may each wait 5 ms for an engine, 1 s). Under fw_lock.
 */
static int inc_fw_cmd_locked(struct inc_priv *p, u16 op, const u32 *args,
			     unsigned int nargs, u32 *res, unsigned int nres)
{
	u32 v, seq, w0;
	unsigned int i;
	int err;

	lockdep_assert_held(&p->fw_lock);
	if (p->fw_state != INC_FW_RUNNING ||
	    test_bit(INC_S_FROZEN, &p->state))
		return -EIO;
	v = inc_rd(p, INC_MBOX_STATUS);
	if (v == ~0u)
		return -EIO;
	if (v & INC_MBOX_STATUS_BUSY)
		return -EBUSY;
	for (i = 0; i < nargs && i + 1 < INC_MBOX_CMD_WORDS; i++)
		inc_wr(p, INC_MBOX_CMD + 4 * (i + 1), args[i]);
	seq = ++p->fw_seq & 0xffff;
	inc_wr(p, INC_MBOX_CMD, seq << 16 | op);
	inc_wr(p, INC_MBOX_DOORBELL, 1);
	err = read_poll_timeout(inc_rd, v, v == ~0u || !(v & INC_MBOX_STATUS_BUSY),
				20, inc_fw_ms(p, op == INC_MBOX_OP_RUN_SELFTEST ?
						 1000 : 100) * USEC_PER_MSEC, false,
				p, INC_MBOX_STATUS);
	if (err) {
		netdev_warn(p->ndev, "firmware did not complete command 0x%04x\n",
			    op);
		return err;
	}
	if (v == ~0u)
		return -EIO;
	w0 = inc_rd(p, INC_MBOX_RSP);
	if (w0 >> 16 != seq) {
		netdev_warn(p->ndev, "firmware answered command 0x%04x with sequence %u, not %u\n",
			    op, w0 >> 16, seq);
		return -EIO;
	}
	if (w0 & 0xffff)
		return -(int)(w0 & 0xffff);
	for (i = 0; i < nres && i + 1 < INC_MBOX_RSP_WORDS; i++)
		res[i] = inc_rd(p, INC_MBOX_RSP + 4 * (i + 1));
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
	inc_wr(p, INC_MGMT_CTRL, 0);
	p->fw_state = INC_FW_BOOTING;
	p->fw_hb_at = jiffies;	/* the start: READY within 1 s */
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
	unsigned int ms = inc_fw_ms(p, 1000);
	int err;

	st = inc_rd(p, INC_FW_STATUS);
	if (st != ~0u && !(st & (INC_FW_STATUS_READY | INC_FW_STATUS_BOOT_ERROR)) &&
	    time_before(jiffies, p->fw_hb_at + msecs_to_jiffies(ms)))
		return false;
	p->fw_state = INC_FW_NONE;
	if (st == ~0u || !(st & INC_FW_STATUS_READY) ||
	    (st & INC_FW_STATUS_BOOT_ERROR)) {
		inc_fw_halt(p);
		if (st != ~0u && (st & INC_FW_STATUS_BOOT_ERROR))
			dev_err(dev, "firmware boot error 0x%04x (FW_STATUS 0x%08x): core halted, running without firmware\n",
				st >> INC_FW_STATUS_ERR_SHIFT, st);
		else
			dev_err(dev, "firmware not ready %u ms after its start (FW_STATUS 0x%08x): core halted, running without firmware\n",
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
	p->fw_hb_at = jiffies;
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
		p->fw_hb_at = jiffies;
		goto out;
	}
	if (!(st & INC_FW_STATUS_BOOT_ERROR) &&
	    time_before(jiffies, p->fw_hb_at +
			msecs_to_jiffies(inc_fw_ms(p, 500))))
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
		netdev_err(p->ndev, "firmware heartbeat stopped: FW_HEARTBEAT %u for %u ms (FW_STATUS 0x%08x): core halted, the NIC runs on without firmware\n",
			   hb, jiffies_to_msecs(jiffies - p->fw_hb_at), st);
	inc_fw_halt(p);
out:
	if (p->fw_state == INC_FW_BOOTING)
		schedule_delayed_work(&p->fw_work,
				      msecs_to_jiffies(INC_FW_BOOT_POLL_MS));
	else if (p->fw_state == INC_FW_RUNNING || p->fw_reload)
		schedule_delayed_work(&p->fw_work,
				      msecs_to_jiffies(INC_FW_POLL_MS));
	mutex_unlock(&p->fw_lock);
}

/* At probe: find, check, keep and boot the image. Never fails the probe. */
void inc_fw_init(struct inc_priv *p)
{
	struct device *dev = &p->pdev->dev;
	const struct firmware *fw;
	int err;

	mutex_init(&p->fw_lock);
	INIT_DELAYED_WORK(&p->fw_work, inc_fw_work);
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
