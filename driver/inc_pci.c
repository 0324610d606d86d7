// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: the FPGA board's transport. The NIC's registers are
 * BAR0 (docs/regmap.md); DMA goes through the board's PCIe bridge. MSI-X
 * with a vector per queue and one for the management firmware's mailbox
 * when the bridge offers them, else one MSI or INTx vector for both
 * queues (the handler then reads IRQ_STATUS) and a polled mailbox. A NIC reset is a
 * function-level reset: the board's PCIe core resets the NIC's logic with
 * it (docs/lab-hosts.md).
 */
#include <linux/io.h>
#include <linux/pci.h>

#include "inc.h"

struct inc_board {
	void __iomem *regs;	/* BAR0 */
};

static u32 inc_pci_read(struct inc_priv *p, u32 off)
{
	struct inc_board *b = p->tp_priv;

	return readl(b->regs + off);
}

static void inc_pci_write(struct inc_priv *p, u32 off, u32 val)
{
	struct inc_board *b = p->tp_priv;

	writel(val, b->regs + off);
}

static bool inc_pci_set_master(struct inc_priv *p, bool on)
{
	if (on)
		pci_set_master(p->pdev);
	else
		pci_clear_master(p->pdev);
	return true;	/* a PCIe function without Bus Master issues no request */
}

/*
 * FLR without the PCI core's reset_prepare/reset_done (the caller may hold
 * RTNL, which those take): save the config space, reset, restore it.
 */
static int inc_pci_reset(struct inc_priv *p)
{
	struct pci_dev *pdev = p->pdev;
	int err;

	err = pcie_reset_flr(pdev, PCI_RESET_PROBE);
	if (err)
		return err;
	pci_save_state(pdev);
	err = pcie_reset_flr(pdev, PCI_RESET_DO_RESET);
	pci_restore_state(pdev);
	return err;
}

static const struct inc_transport inc_pci_transport = {
	.name		= "PCIe BAR0",
	.read		= inc_pci_read,
	.write		= inc_pci_write,
	.set_master	= inc_pci_set_master,
	.reset		= inc_pci_reset,
};

static int inc_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct inc_board *b;
	int err, nvec;

	b = devm_kzalloc(&pdev->dev, sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	err = pcim_enable_device(pdev);
	if (err)
		return err;
	if (pci_resource_len(pdev, 0) < INC_BAR0_SIZE) {
		dev_err(&pdev->dev, "BAR0 is %llu bytes, the NIC needs %u\n",
			(u64)pci_resource_len(pdev, 0), INC_BAR0_SIZE);
		return -ENODEV;
	}
	err = pcim_iomap_regions(pdev, BIT(0), INC_DRV_NAME);
	if (err)
		return err;
	b->regs = pcim_iomap_table(pdev)[0];
	/* bus mastering: inc_probe(), once the NIC is quiet */
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err)
		err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (err)
		return err;
	pci_save_state(pdev);
	/* 0 TX, 1 RX, 2 the firmware's mailbox (fewer: polled, shared) */
	nvec = pci_alloc_irq_vectors(pdev, 1, 3, PCI_IRQ_ALL_TYPES);
	if (nvec < 0)
		return nvec;
	err = inc_probe(pdev, &inc_pci_transport, b, nvec);
	if (err)
		pci_free_irq_vectors(pdev);
	return err;
}

static void inc_pci_remove(struct pci_dev *pdev)
{
	inc_remove(pdev);
	pci_free_irq_vectors(pdev);
}

static void inc_pci_shutdown(struct pci_dev *pdev)
{
	inc_shutdown(pdev);
	pci_disable_device(pdev);
}

static const struct pci_device_id inc_pci_ids[] = {
	{ PCI_DEVICE(INC_PCI_VENDOR, INC_PCI_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, inc_pci_ids);

struct pci_driver inc_pci_driver = {
	.name		= INC_DRV_NAME,
	.id_table	= inc_pci_ids,
	.probe		= inc_pci_probe,
	.remove		= inc_pci_remove,
	.shutdown	= inc_pci_shutdown,
	.err_handler	= &inc_err_handlers,
};
