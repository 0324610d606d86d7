// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn: module entry points. The gradient socket option, then the
 * NIC driver's two transports: the FPGA board on PCI (10ee:4943) and incsim
 * through QEMU's ivshmem device (1af4:1110 with incsim's signature).
 */
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "inc.h"
#include "inc_mark.h"
#include "inc_peers.h"

unsigned int inc_param_ring_size = INC_RING_DEFAULT;
module_param_named(ring_size, inc_param_ring_size, uint, 0444);
MODULE_PARM_DESC(ring_size, "TX and RX descriptors per ring, a power of 2 from 16 to 4096 (default 256; ethtool -G changes it per device)");

bool inc_param_board = true;
module_param_named(board, inc_param_board, bool, 0444);
MODULE_PARM_DESC(board, "drive FPGA boards (PCI 10ee:4943) (default 1)");

bool inc_param_sim = true;
module_param_named(sim, inc_param_sim, bool, 0444);
MODULE_PARM_DESC(sim, "drive incsim NICs behind QEMU ivshmem devices (default 1)");

static int __init inc_init(void)
{
	int err;

	if (inc_param_ring_size < INC_RING_MIN ||
	    inc_param_ring_size > INC_RING_MAX ||
	    !is_power_of_2(inc_param_ring_size)) {
		pr_err(INC_DRV_NAME ": ring_size=%u: a power of 2 from %u to %u\n",
		       inc_param_ring_size, INC_RING_MIN, INC_RING_MAX);
		return -EINVAL;
	}
	if (inc_param_board) {
		err = pci_register_driver(&inc_pci_driver);
		if (err)
			return err;
	}
	if (inc_param_sim) {
		err = pci_register_driver(&inc_sim_driver);
		if (err)
			goto err_board;
	}
	/*
	 * The socket option last: once registered, a setsockopt may hold the
	 * module, and nothing after it may fail and free the module under it.
	 * Until then inc_mark_frame() marks nothing.
	 */
	err = inc_mark_init();
	if (err)
		goto err_sim;
	return 0;

err_sim:
	if (inc_param_sim)
		pci_unregister_driver(&inc_sim_driver);
err_board:
	if (inc_param_board)
		pci_unregister_driver(&inc_pci_driver);
	inc_peers_flush();
	return err;
}

static void __exit inc_exit(void)
{
	inc_mark_exit();
	if (inc_param_sim)
		pci_unregister_driver(&inc_sim_driver);
	if (inc_param_board)
		pci_unregister_driver(&inc_pci_driver);
	inc_peers_flush();
}

module_init(inc_init);
module_exit(inc_exit);

MODULE_DESCRIPTION("inceptionn gradient-compressing NIC");
MODULE_AUTHOR("The inceptionn developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(INC_DRV_VERSION);
