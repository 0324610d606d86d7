// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the simulator transport. incsim (sim/incsim) runs the
 * NIC's RTL as QEMU's ivshmem-doorbell device; register accesses travel
 * through the command ring in its shared BAR2 window
 * (include/uapi/inceptionn/incsim.h, docs/sim.md). DMA and MSI-X need
 * nothing special: incsim reads and writes guest memory at the addresses
 * the DMA API gives, and raises the device's MSI-X vectors.
 *
 * The driver binds an ivshmem device only when its window carries incsim's
 * signature, so an unrelated ivshmem device is never claimed.
 */
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/pci.h>
#include <linux/spinlock.h>

#include <inceptionn/incsim.h>

#include "inc.h"

#define IVSHMEM_VENDOR		0x1af4
#define IVSHMEM_DEVICE		0x1110
#define IVSHMEM_BAR_REGS	0
#define IVSHMEM_BAR_SHM		2
#define IVSHMEM_DOORBELL	12	/* (peer << 16) | vector */
#define INCSIM_PEER		0	/* incsim's id as an ivshmem peer */

/* how long a command may take before the device counts as gone */
#define INC_SIM_TIMEOUT_US	(2 * USEC_PER_SEC)
/* polls of a read's completion before it sleeps between polls */
#define INC_SIM_SPINS		64
/* a read whose ring entry was reused before its value was taken: again */
#define INC_SIM_READ_TRIES	3

struct inc_sim {
	struct pci_dev *pdev;
	void __iomem *regs;	/* ivshmem registers */
	void __iomem *win;	/* the shared window */
	spinlock_t lock;	/* posting to the command ring, prod */
	u32 prod;		/* commands posted */
	u32 entries;
	u32 bar0;		/* the NIC's register space */
	u32 features;		/* INCSIM_FEAT_* */
	bool dead;
};

static bool inc_sim_gone(struct inc_sim *s, const char *what)
{
	if (!s->dead)
		dev_err(&s->pdev->dev, "incsim %s: the simulated NIC is gone; register reads return all ones from now on\n",
			what);
	s->dead = true;
	return true;
}

/*
 * Post one command; false if the device is gone. Called with s->lock held,
 * from any context (netpoll's xmit included): it waits only while the ring
 * is full, which a live incsim never leaves it for long.
 */
static bool inc_sim_post(struct inc_sim *s, u32 op, u32 addr, u32 val,
			 u32 *idx)
{
	void __iomem *e;
	ktime_t end;

	if (s->dead)
		return false;
	if (s->prod - readl(s->win + INCSIM_OFF_CONS) >= s->entries) {
		end = ktime_add_us(ktime_get(), INC_SIM_TIMEOUT_US);
		while (s->prod - readl(s->win + INCSIM_OFF_CONS) >= s->entries) {
			if (ktime_after(ktime_get(), end))
				return !inc_sim_gone(s, "stopped taking commands");
			udelay(1);
		}
	}
	e = s->win + INCSIM_OFF_RING +
	    (s->prod % s->entries) * sizeof(struct incsim_cmd);
	writel(op, e + offsetof(struct incsim_cmd, op));
	writel(addr, e + offsetof(struct incsim_cmd, addr));
	writel(val, e + offsetof(struct incsim_cmd, value));
	*idx = s->prod++;
	/* MMIO writes stay in order: the entry is complete before prod */
	writel(s->prod, s->win + INCSIM_OFF_PROD);
	writel(INCSIM_PEER << 16 | INCSIM_DOORBELL_VECTOR,
	       s->regs + IVSHMEM_DOORBELL);
	return true;
}

static bool inc_sim_cmd(struct inc_sim *s, u32 op, u32 addr, u32 val,
			u32 *idx)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&s->lock, flags);
	ok = inc_sim_post(s, op, addr, val, idx);
	spin_unlock_irqrestore(&s->lock, flags);
	return ok;
}

static void inc_sim_write(struct inc_priv *p, u32 off, u32 val)
{
	u32 idx;

	/* descriptors in memory are visible before the command that says so */
	wmb();
	inc_sim_cmd(p->tp_priv, INCSIM_OP_WRITE, off, val, &idx);
}

/*
 * A read: post it, wait (without the lock, sleeping after a short spin)
 * until incsim has executed it, take its value. Process context only: the
 * driver reads registers from nowhere else on this transport (it uses
 * MSI-X, so the queues' interrupt handler reads nothing; vector 2's
 * handler is threaded).
 */
static bool inc_sim_wait(struct inc_sim *s, u32 idx)
{
	ktime_t end = ktime_add_us(ktime_get(), INC_SIM_TIMEOUT_US);
	unsigned int i;

	for (i = 0; (s32)(readl(s->win + INCSIM_OFF_CONS) - idx) <= 0; i++) {
		if (ktime_after(ktime_get(), end))
			return !inc_sim_gone(s, "did not answer a register read");
		if (i < INC_SIM_SPINS)
			cpu_relax();
		else
			usleep_range(10, 50);
	}
	return true;
}

static u32 inc_sim_read(struct inc_priv *p, u32 off)
{
	struct inc_sim *s = p->tp_priv;
	unsigned long flags;
	unsigned int tries;
	u32 idx, val;

	might_sleep();
	for (tries = 0; tries < INC_SIM_READ_TRIES; tries++) {
		if (!inc_sim_cmd(s, INCSIM_OP_READ, off, 0, &idx) ||
		    !inc_sim_wait(s, idx))
			return ~0u;
		/*
		 * cons passed it: the entry holds the value, unless writers
		 * meanwhile posted a whole ring's worth and reused it
		 */
		spin_lock_irqsave(&s->lock, flags);
		if (s->prod - idx <= s->entries) {
			val = readl(s->win + INCSIM_OFF_RING +
				    (idx % s->entries) * sizeof(struct incsim_cmd) +
				    offsetof(struct incsim_cmd, value));
			spin_unlock_irqrestore(&s->lock, flags);
			return val;
		}
		spin_unlock_irqrestore(&s->lock, flags);
	}
	inc_sim_gone(s, "kept losing register reads");
	return ~0u;
}

/*
 * Bus mastering: the ivshmem device's command register, and incsim's own
 * switch (INCSIM_OP_MASTER), the one that keeps the simulated NIC out of
 * guest memory. A read after it returns once incsim has executed it.
 */
static bool inc_sim_set_master(struct inc_priv *p, bool on)
{
	struct inc_sim *s = p->tp_priv;
	u32 idx;

	if (on)
		pci_set_master(p->pdev);
	else
		pci_clear_master(p->pdev);
	if (!(s->features & INCSIM_FEAT_MASTER))
		return false;
	if (!inc_sim_cmd(s, INCSIM_OP_MASTER, 0, on, &idx) ||
	    !inc_sim_wait(s, idx))
		return false;
	return true;
}

/* INCSIM_OP_RESET: what a function-level reset does to the board. */
static int inc_sim_reset(struct inc_priv *p)
{
	struct inc_sim *s = p->tp_priv;
	u32 idx;

	if (!(s->features & INCSIM_FEAT_RESET))
		return -EOPNOTSUPP;
	if (!inc_sim_cmd(s, INCSIM_OP_RESET, 0, 0, &idx) || !inc_sim_wait(s, idx))
		return -EIO;
	return inc_sim_read(p, INC_MAGIC) == INC_MAGIC_VALUE ? 0 : -EIO;
}

/*
 * The NIC's time: incsim's count of the NIC's clocks (INCSIM_OFF_CLOCKS,
 * skipped clocks of a sleeping core included) at its nominal rate. The
 * high word read again: the two halves of one value.
 */
static u64 inc_sim_nic_time_ns(struct inc_priv *p)
{
	struct inc_sim *s = p->tp_priv;
	void __iomem *c = s->win + INCSIM_OFF_CLOCKS;
	u32 hi, lo;

	do {
		hi = readl(c + 4);
		lo = readl(c);
	} while (hi != readl(c + 4));
	return div_u64(((u64)hi << 32 | lo) * 1000, INCSIM_CLK_MHZ);
}

static const struct inc_transport inc_sim_transport = {
	.name		= "incsim (ivshmem)",
	.read		= inc_sim_read,
	.write		= inc_sim_write,
	.set_master	= inc_sim_set_master,
	.reset		= inc_sim_reset,
	.nic_time_ns	= inc_sim_nic_time_ns,
};

/* Is this ivshmem device incsim's? Reads the window only. */
static int inc_sim_check(struct inc_sim *s)
{
	struct device *dev = &s->pdev->dev;
	u64 magic = lo_hi_readq(s->win + INCSIM_OFF_MAGIC);
	u32 version, state, room;

	if (magic != INCSIM_MAGIC) {
		dev_info(dev, "ivshmem device without incsim's signature: not an inceptionn NIC, left alone\n");
		return -ENODEV;
	}
	version = readl(s->win + INCSIM_OFF_VERSION);
	if (version != INCSIM_VERSION) {
		dev_err(dev, "incsim shim version %u; this driver speaks %u only\n",
			version, INCSIM_VERSION);
		return -ENODEV;
	}
	state = readl(s->win + INCSIM_OFF_STATE);
	if (!(state & INCSIM_STATE_ATTACHED)) {
		dev_err(dev, "incsim has left this window (state 0x%x)\n", state);
		return -ENODEV;
	}
	s->entries = readl(s->win + INCSIM_OFF_ENTRIES);
	s->bar0 = readl(s->win + INCSIM_OFF_BAR0);
	s->features = readl(s->win + INCSIM_OFF_FEATURES);
	/* the ring must fit in what the driver maps of the window */
	room = (INCSIM_BAR2_SIZE - INCSIM_OFF_RING) / sizeof(struct incsim_cmd);
	if (!s->entries || s->entries > room || s->bar0 < INC_STATS) {
		dev_err(dev, "incsim window with %u command entries (room for %u) and a %u-byte NIC: not usable\n",
			s->entries, room, s->bar0);
		return -ENODEV;
	}
	/* take over where an earlier driver left the ring */
	s->prod = readl(s->win + INCSIM_OFF_PROD);
	return 0;
}

static int inc_sim_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct inc_sim *s;
	int err, nvec;

	if (pci_resource_len(pdev, IVSHMEM_BAR_SHM) < INCSIM_BAR2_SIZE)
		return -ENODEV;	/* too small to be incsim's: not ours */
	s = devm_kzalloc(&pdev->dev, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->pdev = pdev;
	spin_lock_init(&s->lock);

	err = pcim_enable_device(pdev);
	if (err)
		return err;
	/* look before claiming anything */
	s->win = pci_iomap(pdev, IVSHMEM_BAR_SHM, INCSIM_BAR2_SIZE);
	if (!s->win)
		return -ENOMEM;
	err = inc_sim_check(s);
	pci_iounmap(pdev, s->win);
	if (err)
		return err;

	err = pcim_iomap_regions(pdev, BIT(IVSHMEM_BAR_REGS) |
				 BIT(IVSHMEM_BAR_SHM), INC_DRV_NAME);
	if (err)
		return err;
	s->regs = pcim_iomap_table(pdev)[IVSHMEM_BAR_REGS];
	s->win = pcim_iomap_table(pdev)[IVSHMEM_BAR_SHM];
	/* bus mastering: inc_probe(), once the NIC is quiet */
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err)
		return err;
	/* 0 TX, 1 RX, 2 the firmware's mailbox (QEMU vectors=3; 2: polled) */
	nvec = pci_alloc_irq_vectors(pdev, 2, 3, PCI_IRQ_MSIX);
	if (nvec < 0) {
		dev_err(&pdev->dev, "incsim NIC needs 2 or 3 MSI-X vectors (QEMU: -device ivshmem-doorbell,vectors=3): %d\n",
			nvec);
		return nvec;
	}
	err = inc_probe(pdev, &inc_sim_transport, s, nvec);
	if (err)
		pci_free_irq_vectors(pdev);
	return err;
}

static void inc_sim_remove(struct pci_dev *pdev)
{
	inc_remove(pdev);
	pci_free_irq_vectors(pdev);
}

static void inc_sim_shutdown(struct pci_dev *pdev)
{
	inc_shutdown(pdev);
}

static const struct pci_device_id inc_sim_ids[] = {
	{ PCI_DEVICE(IVSHMEM_VENDOR, IVSHMEM_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, inc_sim_ids);

struct pci_driver inc_sim_driver = {
	.name		= INC_DRV_NAME "-sim",
	.id_table	= inc_sim_ids,
	.probe		= inc_sim_probe,
	.remove		= inc_sim_remove,
	.shutdown	= inc_sim_shutdown,
	.err_handler	= &inc_err_handlers,
};
