# SPDX-License-Identifier: MIT
"""inceptionn: gradient compression in the NIC (https://: this checkout's README).

inceptionn.torch: a DistributedDataParallel communication hook on inccl.
inceptionn._inccl: the ctypes binding of libinccl.
"""
__version__ = "0.1.0"
