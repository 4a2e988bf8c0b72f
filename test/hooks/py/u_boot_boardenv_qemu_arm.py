# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for QEMU virt with the 32-bit Arm build
# (qemu_arm_defconfig): the same matrix cell variables as on AArch64

# pylint: disable-next=wildcard-import,unused-wildcard-import
from u_boot_boardenv_qemu_arm64 import *  # noqa: F401,F403

# The QEMU -cpu of the cell (PERFREC_QEMU_CPU)
env__perfrec_cpu = os.environ.get('PERFREC_QEMU_CPU', 'cortex-a15')  # noqa: F405
