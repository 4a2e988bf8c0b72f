# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for QEMU virt: tells the tests which matrix cell they run in

import os

# SPL's banner comes first only in the SPL test vehicle (make build-spl)
env__spl_skipped = os.environ.get('PERFREC_SPL', '0') != '1'

# The matrix cell (set by scripts/perfrec_run_tests.py for the console hook)
env__perfrec_cell = os.environ.get('PERFREC_CELL', 'el1-gicv2')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'virt')
env__perfrec_icount = os.environ.get('PERFREC_QEMU_ICOUNT', '')
env__perfrec_smp = int(os.environ.get('PERFREC_QEMU_SMP', '1'))
