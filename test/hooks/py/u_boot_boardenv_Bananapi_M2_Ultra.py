# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for Bananapi_M2_Ultra on QEMU's bpim2u: booted as
# orangepi_pc is, from its SD card through SPL

import os

# pylint: disable-next=wildcard-import,unused-wildcard-import
from u_boot_boardenv_orangepi_pc import *  # noqa: F401,F403

env__perfrec_cell = os.environ.get('PERFREC_CELL', 'bpim2u')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'bpim2u')
