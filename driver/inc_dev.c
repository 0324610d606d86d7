// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the probe, removal, shutdown and PCI error handling both
 * transports share. The NIC's ID block decides what the driver does: it
 * refuses a register map major version it does not speak, and uses the
 * feature bits, not guesses. Bus mastering goes on only once the NIC is
 * known to be quiet (queues off, idle, or reset).
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/iopoll.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>

#include "inc.h"
#include "inc_peers.h"

struct dentry *inc_debugfs_root;

/*
 * The NIC's counter n. Reading the low word latches the high word in one
 * latch for the whole NIC, so every pair is read under stats_lock.
 */
u64 inc_read_stat(struct inc_priv *p, unsigned int n)
{
	u32 lo, hi = 0;

	mutex_lock(&p->stats_lock);
	lo = inc_rd(p, INC_STATS + 8 * n);
	/* a NIC without 64-bit counters has 32 (its high words read 0) */
	if (p->features & INC_FEAT_STATS64)
		hi = inc_rd(p, INC_STATS + 8 * n + 4);
	mutex_unlock(&p->stats_lock);
	return (u64)hi << 32 | lo;
}

static int inc_check_id(struct inc_priv *p)
{
	struct device *dev = &p->pdev->dev;
	u32 magic = inc_rd(p, INC_MAGIC);
	static const u32 pattern[] = { 0x5a5aa5a5, 0x0000ffff, 0x12345678 };
	unsigned int i;

	if (magic != INC_MAGIC_VALUE) {
		dev_err(dev, "no inceptionn NIC behind %s: magic 0x%08x, expected 0x%08x\n",
			p->tp->name, magic, INC_MAGIC_VALUE);
		return -ENODEV;
	}
	p->version = inc_rd(p, INC_VERSION);
	if (INC_VERSION_MAJOR(p->version) != INC_VERSION_SPOKEN) {
		dev_err(dev, "NIC register map v%u.%u.%u; this driver speaks v%u only: not using it\n",
			INC_VERSION_MAJOR(p->version),
			INC_VERSION_MINOR(p->version),
			INC_VERSION_PATCH(p->version), INC_VERSION_SPOKEN);
		return -ENODEV;
	}
	for (i = 0; i < ARRAY_SIZE(pattern); i++) {
		u32 v;

		inc_wr(p, INC_SCRATCH, pattern[i]);
		v = inc_rd(p, INC_SCRATCH);
		if (v != pattern[i]) {
			dev_err(dev, "SCRATCH reads 0x%08x after writing 0x%08x: register access is broken\n",
				v, pattern[i]);
			return -EIO;
		}
	}
	p->features = inc_rd(p, INC_FEATURES);
	p->config = inc_rd(p, INC_CONFIG);
	p->build = inc_rd(p, INC_BUILD);
	p->max_frame_hw = INC_CONFIG_MAX_FRAME(p->config);
	if (p->max_frame_hw < ETH_FRAME_LEN + VLAN_HLEN) {
		dev_err(dev, "NIC reports a largest frame of %u bytes: unusable\n",
			p->max_frame_hw);
		return -ENODEV;
	}
	return 0;
}

/*
 * Before bus mastering goes on: queues off, no interrupts, and nothing in
 * flight (an earlier driver may have left it running). A NIC that does not
 * go idle is reset; one that cannot be is refused.
 */
static int inc_quiesce(struct inc_priv *p)
{
	const u32 both = INC_STATUS_TX_IDLE | INC_STATUS_RX_IDLE;
	int err;
	u32 st;

	inc_wr(p, INC_CTRL, 0);
	inc_irq_queues(p, false);
	if (!read_poll_timeout(inc_rd, st, st != ~0u && (st & both) == both,
			       1000, 200000, false, p, INC_STATUS))
		return 0;
	dev_warn(&p->pdev->dev, "NIC busy at probe (STATUS 0x%08x): resetting it\n",
		 st);
	err = p->tp->reset ? p->tp->reset(p) : -EOPNOTSUPP;
	if (err) {
		dev_err(&p->pdev->dev, "NIC busy and cannot be reset (%d): not using it\n",
			err);
		return -EBUSY;
	}
	inc_wr(p, INC_CTRL, 0);
	inc_irq_queues(p, false);
	return 0;
}

static void inc_read_mac(struct inc_priv *p)
{
	u32 lo = inc_rd(p, INC_MAC_LO), hi = inc_rd(p, INC_MAC_HI);
	u8 addr[ETH_ALEN] = { lo, lo >> 8, lo >> 16, lo >> 24, hi, hi >> 8 };

	if (is_valid_ether_addr(addr)) {
		eth_hw_addr_set(p->ndev, addr);
	} else {
		eth_hw_addr_random(p->ndev);
		dev_info(&p->pdev->dev, "no valid MAC address in the NIC (%pM): using %pM\n",
			 addr, p->ndev->dev_addr);
	}
}

static const char *inc_irq_kind(const struct inc_priv *p)
{
	if (p->pdev->msix_enabled && p->irq_mgmt_vec)
		return "MSI-X (3 vectors)";
	if (p->pdev->msix_enabled)
		return p->nvec == 2 ? "MSI-X" : "MSI-X (1 vector)";
	if (p->pdev->msi_enabled && p->irq_mgmt_vec)
		return "MSI (3 vectors)";
	if (p->pdev->msi_enabled)
		return p->nvec == 2 ? "MSI (2 vectors)" : "MSI";
	return "INTx";
}

/* debugfs fw_halt: writing 1 halts the firmware's core (a hang to detect) */
static ssize_t inc_fw_halt_write(struct file *f, const char __user *buf,
				 size_t len, loff_t *pos)
{
	struct inc_priv *p = f->private_data;
	bool v;
	int err;

	err = kstrtobool_from_user(buf, len, &v);
	if (err)
		return err;
	if (v)
		inc_fw_inject_halt(p);
	return len;
}

static const struct file_operations inc_fw_halt_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= inc_fw_halt_write,
	.llseek	= no_llseek,
};

/*
 * debugfs fw_hang, fw_fault: writing 1 sends the firmware's test command
 * DEBUG_HANG (its core hangs) or DEBUG_FAULT (it takes an exception),
 * neither answered. The write returns once the command has ended without
 * an answer, as it must (inc_fw_inject); an error when the firmware does
 * not run, its mailbox is busy, or it answered.
 */
static ssize_t inc_fw_inject_write(const char __user *buf, size_t len,
				   struct inc_priv *p, u16 op)
{
	bool v;
	int err;

	err = kstrtobool_from_user(buf, len, &v);
	if (err)
		return err;
	if (v) {
		err = inc_fw_inject(p, op);
		if (err)
			return err;
	}
	return len;
}

static ssize_t inc_fw_hang_write(struct file *f, const char __user *buf,
				 size_t len, loff_t *pos)
{
	return inc_fw_inject_write(buf, len, f->private_data,
				   INC_MBOX_OP_DEBUG_HANG);
}

static ssize_t inc_fw_fault_write(struct file *f, const char __user *buf,
				  size_t len, loff_t *pos)
{
	return inc_fw_inject_write(buf, len, f->private_data,
				   INC_MBOX_OP_DEBUG_FAULT);
}

static const struct file_operations inc_fw_hang_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= inc_fw_hang_write,
	.llseek	= no_llseek,
};

static const struct file_operations inc_fw_fault_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= inc_fw_fault_write,
	.llseek	= no_llseek,
};

/* debugfs: /sys/kernel/debug/inceptionn/<PCI name>/ (docs/lab-hosts.md) */
static void inc_debugfs_init(struct inc_priv *p)
{
	struct dentry *d;

	d = debugfs_create_dir(pci_name(p->pdev), inc_debugfs_root);
	p->debugfs = d;
	debugfs_create_atomic_t("fail_alloc_every", 0600, d,
				&p->fail_alloc.every);
	debugfs_create_atomic_t("fail_alloc_times", 0600, d,
				&p->fail_alloc.times);
	debugfs_create_atomic_t("fail_alloc_injected", 0400, d,
				&p->fail_alloc.injected);
	debugfs_create_u32("resets", 0400, d, &p->resets);
	debugfs_create_u32("tx_timeouts", 0400, d, &p->tx_timeouts);
	debugfs_create_u32("tx_flushes", 0400, d, &p->tx_flushes);
	if (p->features & INC_FEAT_MGMT) {
		debugfs_create_file("fw_halt", 0200, d, p, &inc_fw_halt_fops);
		debugfs_create_file("fw_hang", 0200, d, p, &inc_fw_hang_fops);
		debugfs_create_file("fw_fault", 0200, d, p, &inc_fw_fault_fops);
		debugfs_create_u32("fw_deaths", 0400, d, &p->fw_deaths);
		debugfs_create_u32("fw_irqs", 0400, d, &p->fw_irqs);
		debugfs_create_u32("fw_cmds", 0400, d, &p->fw_cmds);
		debugfs_create_u32("fw_cmd_errors", 0400, d, &p->fw_cmd_errors);
		debugfs_create_u32("fw_snapshots", 0400, d, &p->fw_snapshots);
		debugfs_create_u32("fw_link_events", 0400, d,
				   &p->fw_link_events);
	}
	inc_peers_debugfs(p->peers, d);
}

int inc_probe(struct pci_dev *pdev, const struct inc_transport *tp,
	      void *tp_priv, int nvec)
{
	struct net_device *ndev;
	struct inc_priv *p;
	int err;

	ndev = alloc_etherdev(sizeof(*p));
	if (!ndev)
		return -ENOMEM;
	SET_NETDEV_DEV(ndev, &pdev->dev);
	p = netdev_priv(ndev);
	p->ndev = ndev;
	p->pdev = pdev;
	p->tp = tp;
	p->tp_priv = tp_priv;
	/* vectors 0 and 1 the queues' (or one for both), 2 the mailbox's */
	p->nvec = min(nvec, 2);
	p->irq_mgmt_vec = nvec > INC_IRQ_MGMT;
	p->irq_shared = nvec == 1 && !pdev->msi_enabled && !pdev->msix_enabled;
	spin_lock_init(&p->irq_lock);
	mutex_init(&p->link_lock);
	mutex_init(&p->stats_lock);
	u64_stats_init(&p->xmit_stats.syncp);
	u64_stats_init(&p->napi_stats.syncp);
	INIT_DELAYED_WORK(&p->watch, inc_watch);
	INIT_WORK(&p->reset_task, inc_reset_task);
	atomic_set(&p->fail_alloc.times, -1);

	err = inc_check_id(p);
	if (err)
		goto err_free_netdev;
	err = inc_quiesce(p);
	if (err)
		goto err_free_netdev;
	tp->set_master(p, true);

	p->tx_size = INC_RING_DEFAULT;
	p->rx_size = INC_RING_DEFAULT;
	inc_read_mac(p);
	/* the management firmware: optional, never fails the probe */
	inc_fw_init(p);
	ndev->netdev_ops = &inc_netdev_ops;
	ndev->ethtool_ops = &inc_ethtool_ops;
	ndev->watchdog_timeo = 5 * HZ;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = min_t(unsigned int, 9000,
			      p->max_frame_hw - ETH_HLEN - VLAN_HLEN);
	if (!(p->features & INC_FEAT_JUMBO))
		ndev->max_mtu = min_t(unsigned int, ndev->max_mtu, ETH_DATA_LEN);
	/* the NIC takes a new address at any time (MAC_LO/MAC_HI) */
	ndev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	/*
	 * One linear frame per descriptor, no checksum offload: the NIC reads
	 * one buffer per frame, and computes checksums only for the frames
	 * it compresses (docs/lab-hosts.md, "Offloads").
	 */
	ndev->features = 0;
	ndev->hw_features = 0;
	/* TX frames back to RX inside the NIC (CTRL.LOOPBACK): ethtool -K */
	if (p->features & INC_FEAT_LOOPBACK)
		ndev->hw_features |= NETIF_F_LOOPBACK;
	if (!(p->features & INC_FEAT_RX_DECOMP))
		dev_warn(&pdev->dev, "this NIC cannot restore compressed frames: hosts must not send it marked traffic (they learn so from its ICMP errors)\n");
	netif_napi_add(ndev, &p->napi, inc_poll);
	netif_carrier_off(ndev);
	p->peers = inc_peers_create(ndev);
	if (!p->peers) {
		err = -ENOMEM;
		goto err_master;
	}

	err = register_netdev(ndev);
	if (err)
		goto err_peers;
	pci_set_drvdata(pdev, p);
	inc_debugfs_init(p);
	err = inc_devlink_register(p);
	if (err)
		goto err_unregister;

	netdev_info(ndev, "inceptionn NIC v%u.%u.%u (build 0x%08x) via %s, %s, features 0x%03x, %u codec lanes, %pM\n",
		    INC_VERSION_MAJOR(p->version),
		    INC_VERSION_MINOR(p->version),
		    INC_VERSION_PATCH(p->version), p->build, tp->name,
		    inc_irq_kind(p), p->features, INC_CONFIG_LANES(p->config),
		    ndev->dev_addr);
	return 0;

err_unregister:
	debugfs_remove_recursive(p->debugfs);
	pci_set_drvdata(pdev, NULL);
	unregister_netdev(ndev);
	cancel_work_sync(&p->reset_task);
err_peers:
	inc_peers_destroy(p->peers);
err_master:
	inc_fw_fini(p);
	netif_napi_del(&p->napi);
	tp->set_master(p, false);
err_free_netdev:
	free_netdev(ndev);
	return err;
}

void inc_remove(struct pci_dev *pdev)
{
	struct inc_priv *p = pci_get_drvdata(pdev);

	if (!p)
		return;
	unregister_netdev(p->ndev);	/* closes it: the NIC stopped */
	/* no timeout can come any more; one may still be handled */
	cancel_work_sync(&p->reset_task);
	debugfs_remove_recursive(p->debugfs);
	inc_devlink_unregister(p);
	inc_fw_fini(p);
	inc_wr(p, INC_IRQ_ENABLE, 0);
	inc_wr(p, INC_CTRL, 0);
	p->tp->set_master(p, false);
	netif_napi_del(&p->napi);
	inc_peers_destroy(p->peers);
	pci_set_drvdata(pdev, NULL);
	free_netdev(p->ndev);
}

/* reboot, kexec: no DMA may run into the next kernel */
void inc_shutdown(struct pci_dev *pdev)
{
	struct inc_priv *p = pci_get_drvdata(pdev);

	if (!p)
		return;
	rtnl_lock();
	inc_detach(p);
	rtnl_unlock();
	inc_fw_fini(p);
	inc_wr(p, INC_IRQ_ENABLE, 0);
	inc_wr(p, INC_CTRL, 0);
	p->tp->set_master(p, false);
}

/* ---- PCI errors (AER) and resets from outside (sysfs reset, FLR) ---- */

/* Stop using the device; remember whether it was up. Under RTNL. */
static void inc_suspend_dev(struct inc_priv *p)
{
	p->was_running = netif_running(p->ndev);
	inc_detach(p);
}

static void inc_resume_dev(struct inc_priv *p)
{
	int err = 0;

	rtnl_lock();
	netif_device_attach(p->ndev);
	if (p->was_running)
		err = dev_open(p->ndev, NULL);
	rtnl_unlock();
	if (err)
		netdev_err(p->ndev, "could not bring the interface up again after a reset: %d\n",
			   err);
}

static pci_ers_result_t inc_error_detected(struct pci_dev *pdev,
					   pci_channel_state_t state)
{
	struct inc_priv *p = pci_get_drvdata(pdev);

	dev_warn(&pdev->dev, "PCI error (channel state %d)\n", state);
	rtnl_lock();
	/* the device does not answer: stopping must not wait for it */
	set_bit(INC_S_FROZEN, &p->state);
	inc_suspend_dev(p);
	rtnl_unlock();
	if (state == pci_channel_io_perm_failure)
		return PCI_ERS_RESULT_DISCONNECT;
	pci_disable_device(pdev);
	return PCI_ERS_RESULT_NEED_RESET;
}

static pci_ers_result_t inc_slot_reset(struct pci_dev *pdev)
{
	struct inc_priv *p = pci_get_drvdata(pdev);

	if (pci_enable_device_mem(pdev)) {
		dev_err(&pdev->dev, "cannot enable the device after a slot reset\n");
		return PCI_ERS_RESULT_DISCONNECT;
	}
	pci_restore_state(pdev);
	pci_save_state(pdev);
	clear_bit(INC_S_FROZEN, &p->state);
	if (inc_rd(p, INC_MAGIC) != INC_MAGIC_VALUE || inc_quiesce(p)) {
		dev_err(&pdev->dev, "the NIC did not come back after a slot reset\n");
		return PCI_ERS_RESULT_DISCONNECT;
	}
	p->tp->set_master(p, true);
	clear_bit(INC_S_DMA_OFF, &p->state);
	clear_bit(INC_S_DMA_CUT, &p->state);
	inc_fw_reset_done(p);
	return PCI_ERS_RESULT_RECOVERED;
}

static void inc_error_resume(struct pci_dev *pdev)
{
	inc_resume_dev(pci_get_drvdata(pdev));
}

static void inc_reset_prepare(struct pci_dev *pdev)
{
	struct inc_priv *p = pci_get_drvdata(pdev);

	rtnl_lock();
	inc_suspend_dev(p);
	rtnl_unlock();
}

static void inc_reset_done(struct pci_dev *pdev)
{
	struct inc_priv *p = pci_get_drvdata(pdev);

	if (inc_quiesce(p)) {
		dev_err(&pdev->dev, "the NIC is not quiet after a reset: left down\n");
		return;
	}
	p->tp->set_master(p, true);
	clear_bit(INC_S_DMA_OFF, &p->state);
	clear_bit(INC_S_DMA_CUT, &p->state);
	inc_fw_reset_done(p);
	inc_resume_dev(p);
}

const struct pci_error_handlers inc_err_handlers = {
	.error_detected	= inc_error_detected,
	.slot_reset	= inc_slot_reset,
	.resume		= inc_error_resume,
	.reset_prepare	= inc_reset_prepare,
	.reset_done	= inc_reset_done,
};
