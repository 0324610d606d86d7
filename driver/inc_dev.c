// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the probe and removal both transports share. The NIC's
 * ID block decides what the driver does: it refuses a register map major
 * version it does not speak, and uses the feature bits, not guesses.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

#include "inc.h"

/* The NIC's counter n, low word first (which latches the high word). */
u64 inc_read_stat(struct inc_priv *p, unsigned int n)
{
	u32 lo = inc_rd(p, INC_STATS + 8 * n);
	u32 hi = inc_rd(p, INC_STATS + 8 * n + 4);

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

static int inc_request_irqs(struct inc_priv *p)
{
	int i, err;

	for (i = 0; i < p->nvec; i++) {
		err = request_irq(pci_irq_vector(p->pdev, i), inc_irq,
				  p->nvec == 1 && !p->pdev->msi_enabled &&
				  !p->pdev->msix_enabled ? IRQF_SHARED : 0,
				  p->ndev->name[0] ? p->ndev->name : INC_DRV_NAME,
				  p);
		if (err)
			goto err_free;
	}
	return 0;

err_free:
	while (--i >= 0)
		free_irq(pci_irq_vector(p->pdev, i), p);
	return err;
}

static void inc_free_irqs(struct inc_priv *p)
{
	int i;

	for (i = 0; i < p->nvec; i++)
		free_irq(pci_irq_vector(p->pdev, i), p);
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
	p->nvec = nvec;
	u64_stats_init(&p->xmit_stats.syncp);
	u64_stats_init(&p->napi_stats.syncp);
	INIT_DELAYED_WORK(&p->watch, inc_watch);

	err = inc_check_id(p);
	if (err)
		goto err_free_netdev;

	/* a known state: queues off, no interrupts */
	inc_wr(p, INC_CTRL, 0);
	inc_wr(p, INC_IRQ_ENABLE, 0);

	p->tx_size = inc_param_ring_size;
	p->rx_size = inc_param_ring_size;
	inc_read_mac(p);
	ndev->netdev_ops = &inc_netdev_ops;
	ndev->ethtool_ops = &inc_ethtool_ops;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = min_t(unsigned int, 9000,
			      p->max_frame_hw - ETH_HLEN - VLAN_HLEN);
	if (!(p->features & INC_FEAT_JUMBO))
		ndev->max_mtu = min_t(unsigned int, ndev->max_mtu, ETH_DATA_LEN);
	/* one linear frame per skb: the NIC parses and compresses it whole */
	ndev->features = 0;
	ndev->hw_features = 0;
	netif_napi_add(ndev, &p->napi, inc_poll);
	netif_carrier_off(ndev);

	err = inc_request_irqs(p);
	if (err) {
		dev_err(&pdev->dev, "requesting interrupts: %d\n", err);
		goto err_napi;
	}
	err = register_netdev(ndev);
	if (err)
		goto err_irqs;
	pci_set_drvdata(pdev, p);

	netdev_info(ndev, "inceptionn NIC v%u.%u.%u (build 0x%08x) via %s, %s, features 0x%03x, %u codec lanes, %pM\n",
		    INC_VERSION_MAJOR(p->version),
		    INC_VERSION_MINOR(p->version),
		    INC_VERSION_PATCH(p->version), p->build, tp->name,
		    nvec == 2 ? "MSI-X" : pdev->msix_enabled ? "MSI-X (1 vector)" :
		    pdev->msi_enabled ? "MSI" : "INTx",
		    p->features, INC_CONFIG_LANES(p->config), ndev->dev_addr);
	return 0;

err_irqs:
	inc_free_irqs(p);
err_napi:
	netif_napi_del(&p->napi);
err_free_netdev:
	free_netdev(ndev);
	return err;
}

void inc_remove(struct pci_dev *pdev)
{
	struct inc_priv *p = pci_get_drvdata(pdev);

	if (!p)
		return;
	unregister_netdev(p->ndev);	/* closes it: rings freed */
	inc_wr(p, INC_IRQ_ENABLE, 0);
	inc_free_irqs(p);
	netif_napi_del(&p->napi);
	pci_set_drvdata(pdev, NULL);
	free_netdev(p->ndev);
}
