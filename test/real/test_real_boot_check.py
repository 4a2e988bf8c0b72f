# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""A real board that does not boot says why in one line, never a silent
timeout: scripts/perfrec_run_tests.py's boot check, on the rpi_arm64 build
that make check-real-boards made (PERFREC_REAL_RPI_BUILD), booted without its
device tree and on a QEMU without the machine."""

import os
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
# pylint: disable-next=wrong-import-position
import perfrec_run_tests as runner  # noqa: E402


@pytest.fixture(name='rpi_build')
def fixture_rpi_build():
    """The rpi_arm64 build (never a skip: make check-real-boards sets it)"""
    build = os.environ.get('PERFREC_REAL_RPI_BUILD', '')
    assert os.path.exists(os.path.join(build, 'u-boot.bin')), \
        'PERFREC_REAL_RPI_BUILD=%r: no rpi_arm64 build' % build
    return build


def check(cell, build, drop=(), secs=runner.BOOT_CHECK_SECS):
    """The boot check's line for @cell on @build, with the hook variables @drop unset"""
    job = runner.Job(cell, None, build, None, None, False, cell)
    _, extra = runner.cell_env(job)
    env = runner.hook_env(job, extra)
    for var in drop:
        env.pop(var)
    return runner.boot_check(job, env, secs)


def test_real_boot_check_boots(rpi_build):
    """The board as make check-real-boards boots it: no line"""
    assert check('raspi3b', rpi_build) is None


def test_real_boot_check_no_dtb(rpi_build):
    """Without -dtb the Raspberry Pi's U-Boot prints nothing at all"""
    why = check('raspi3b', rpi_build, drop=['PERFREC_QEMU_DTB'], secs=15)
    assert why == ('no output in 15 s: rpi_arm64 takes its device tree from x0 (QEMU sets '
                   'it with -dtb) and its console is UART 1'), why


def test_real_boot_check_missing_dtb(rpi_build, tmp_path):
    """A device tree the build does not have"""
    job = runner.Job('raspi3b', None, rpi_build, None, None, False, 'raspi3b')
    _, extra = runner.cell_env(job)
    extra['PERFREC_QEMU_DTB'] = str(tmp_path / 'none.dtb')
    why = runner.boot_check(job, runner.hook_env(job, extra))
    assert why == ('%s: no such device tree: rpi_arm64 takes its device tree from x0, which '
                   'QEMU sets only with -dtb' % (tmp_path / 'none.dtb')), why


def test_real_boot_check_old_qemu(rpi_build, monkeypatch):
    """raspi4b on bookworm's QEMU 7.2, which does not have it"""
    monkeypatch.setitem(runner.BOARD_CELLS, 'raspi4b-old',
                        dict(runner.BOARD_CELLS['raspi4b'], lab=False))
    why = check('raspi4b-old', rpi_build)
    assert why.startswith('QEMU emulator version 7.2'), why
    assert why.endswith("has no machine 'raspi4b' (QEMU 9.0 brought it): the -qemu11 cells "
                        "and raspi4b run the trixie chroot's QEMU 11 (make lab-host)"), why
