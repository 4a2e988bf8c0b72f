# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for xilinx_zynq_virt on QEMU's xilinx-zynq-a9: the cell it runs in

import os

# The cell (set by scripts/perfrec_run_tests.py for the console hook)
env__perfrec_cell = os.environ.get('PERFREC_CELL', 'xilinx-zynq-a9')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'xilinx-zynq-a9')
env__perfrec_icount = os.environ.get('PERFREC_QEMU_ICOUNT', '')
# U-Boot proper is loaded and entered by QEMU: its SPL does not run
env__spl_skipped = True
