# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for QEMU virt: tells the tests which matrix cell they run in

import os

env__spl_skipped = True

# The matrix cell (set by scripts/perfrec_run_tests.py for the console hook)
env__perfrec_cell = os.environ.get('PERFREC_CELL', 'el1-gicv2')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'virt')
env__perfrec_icount = os.environ.get('PERFREC_QEMU_ICOUNT', '')
env__perfrec_smp = int(os.environ.get('PERFREC_QEMU_SMP', '1'))
