# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for vexpress_ca9x4 on QEMU's vexpress-a9: the cell it runs in

import os

# The cell (set by scripts/perfrec_run_tests.py for the console hook)
env__perfrec_cell = os.environ.get('PERFREC_CELL', 'vexpress-a9')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'vexpress-a9')
env__perfrec_icount = os.environ.get('PERFREC_QEMU_ICOUNT', '')
