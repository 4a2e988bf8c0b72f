# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for xilinx_versal_virt on QEMU's xlnx-versal-virt: the cell it runs in

import os

# The cell (set by scripts/perfrec_run_tests.py for the console hook)
env__perfrec_cell = os.environ.get('PERFREC_CELL', 'versal')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'xlnx-versal-virt')
env__perfrec_icount = os.environ.get('PERFREC_QEMU_ICOUNT', '')
