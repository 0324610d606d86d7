// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn: module entry points. The NIC driver's two transports (the
 * FPGA board on PCI 10ee:4943, incsim through QEMU's ivshmem device
 * 1af4:1110 with incsim's signature), then the gradient socket option. The
 * socket option needs ftrace (docs/socket-option.md); a kernel without it
 * still gets a working NIC driver, and nothing is compressed.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "inc.h"
#include "inc_mark.h"

bool inc_param_board = true;
module_param_named(board, inc_param_board, bool, 0444);
MODULE_PARM_DESC(board, "drive FPGA boards (PCI 10ee:4943) (default 1)");

bool inc_param_sim = true;
module_param_named(sim, inc_param_sim, bool, 0444);
MODULE_PARM_DESC(sim, "drive incsim NICs behind QEMU ivshmem devices (default 1)");

static bool inc_param_mark = true;
module_param_named(mark, inc_param_mark, bool, 0444);
MODULE_PARM_DESC(mark, "offer the gradient socket option INC_SO_GRADIENT (default 1; 0: a NIC driver only, nothing is compressed)");

static bool inc_mark_on;

static int __init inc_init(void)
{
	int err;

	inc_debugfs_root = debugfs_create_dir(INC_DRV_NAME, NULL);
	if (inc_param_board) {
		err = pci_register_driver(&inc_pci_driver);
		if (err)
			goto err_debugfs;
	}
	if (inc_param_sim) {
		err = pci_register_driver(&inc_sim_driver);
		if (err)
			goto err_board;
	}
	/*
	 * The socket option last: once registered, a setsockopt may hold the
	 * module, and nothing after it may fail and free the module under it.
	 * Until then inc_mark_frame() marks nothing. Without it the NICs
	 * still work: frames are sent as they are.
	 */
	if (inc_param_mark) {
		inc_mark_on = !inc_mark_init();
		if (!inc_mark_on)
			pr_warn(INC_DRV_NAME ": no gradient socket option: the NIC driver works, nothing is compressed\n");
	} else {
		pr_info(INC_DRV_NAME ": loaded with mark=0: no gradient socket option\n");
	}
	return 0;

err_board:
	if (inc_param_board)
		pci_unregister_driver(&inc_pci_driver);
err_debugfs:
	debugfs_remove_recursive(inc_debugfs_root);
	return err;
}

static void __exit inc_exit(void)
{
	if (inc_mark_on)
		inc_mark_exit();
	if (inc_param_sim)
		pci_unregister_driver(&inc_sim_driver);
	if (inc_param_board)
		pci_unregister_driver(&inc_pci_driver);
	debugfs_remove_recursive(inc_debugfs_root);
}

module_init(inc_init);
module_exit(inc_exit);

MODULE_DESCRIPTION("inceptionn gradient-compressing NIC");
MODULE_AUTHOR("The inceptionn developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(INC_DRV_VERSION);
