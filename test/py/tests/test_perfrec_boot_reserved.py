# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of the boot recording against memory the device tree reserves

"""A board's DRAM holds what perfrec must never write: secure firmware, spin
tables, a co-processor's carve-out. Its device tree says where, in
/reserved-memory children and /memreserve/ entries. The boot buffer
(CONFIG_PERFREC_BOOT_ADDR) is checked against both before the first byte is
written to it.

Each test gives QEMU its own device tree with the boot buffer reserved (or a
region 64 MiB away, the control), and fills the buffer's region and the
control's with a known pattern before the CPU starts (QEMU's loader device).
At the prompt, U-Boot's crc32 of each region must be the pattern's.
"""

import os
import re
import subprocess
import zlib

import pytest

from perfrec_helpers import qemu_dtb, run_rc, status
from test_perfrec_boot import BOOT_BUF, BOOT_LINE, boot_with

# The boot buffer's size (configs/perfrec-early.config: Kconfig's default)
BOOT_SIZE = 0x400000
# The control: the same size reserved this far above the buffer
CONTROL = BOOT_BUF + 0x4000000


def pattern(tmp_path, addr):
    """A file of BOOT_SIZE bytes that differs from every other region's and
    from zeroes; return (its path, its CRC-32)"""
    data = b''.join((addr + i).to_bytes(8, 'little') for i in range(0, BOOT_SIZE, 8))
    path = os.path.join(str(tmp_path), f'pattern-{addr:x}.bin')
    with open(path, 'wb') as out:
        out.write(data)
    return path, zlib.crc32(data)


def reserved_memory_dtb(cons, tmp_path, addr):
    """QEMU's device tree with a no-map /reserved-memory child over
    [@addr, +BOOT_SIZE); return its path and the child's name"""
    node = f'/reserved-memory/perfrec-test@{addr:x}'
    edits = [['-p', '-c', node],
             ['-t', 'u', '/reserved-memory', '#address-cells', '2'],
             ['-t', 'u', '/reserved-memory', '#size-cells', '2'],
             ['-t', 'x', '/reserved-memory', 'ranges'],
             ['-t', 'x', node, 'reg', '0', f'{addr:x}', '0', f'{BOOT_SIZE:x}'],
             ['-t', 'x', node, 'no-map']]
    return qemu_dtb(cons, tmp_path, f'reserved-{addr:x}.dtb', edits), node


def memreserve_dtb(cons, tmp_path, addr):
    """QEMU's device tree with a /memreserve/ entry of [@addr, +BOOT_SIZE)"""
    dtb = qemu_dtb(cons, tmp_path, f'memreserve-{addr:x}.dtb', [])
    dts = subprocess.run(['dtc', '-q', '-I', 'dtb', '-O', 'dts', dtb], check=True,
                         capture_output=True, text=True).stdout
    dts = dts.replace('/dts-v1/;', f'/dts-v1/;\n/memreserve/ {addr:#x} {BOOT_SIZE:#x};', 1)
    subprocess.run(['dtc', '-q', '-I', 'dts', '-O', 'dtb', '-o', dtb, '-'], input=dts,
                   check=True, capture_output=True, text=True)
    return dtb


def crc32_at(cons, addr):
    """U-Boot's crc32 of [@addr, +BOOT_SIZE)"""
    out = cons.run_command(f'crc32 {addr:x} {BOOT_SIZE:x}')
    match = re.search(r'==> ([0-9a-f]{8})', out)
    assert match, out
    return int(match.group(1), 16)


def boot_filled(cons, tmp_path, dtb, addr):
    """Boot with @dtb, the region at @addr holding its pattern; return the
    boot log, after checking that the region is byte-identical at the prompt"""
    path, crc = pattern(tmp_path, addr)
    boot = boot_with(cons, dtb=dtb, fill=f'{path}@{addr:#x}')
    assert crc32_at(cons, addr) == crc, boot
    return boot


def check_record_refused(cons, tmp_path, addr):
    """'perfrec record -o' into the reserved region at @addr is refused as
    lmb's (it reads the same tree), and the region stays as it was"""
    size = 0x100000
    out, ret = run_rc(cons, f'perfrec record -o {addr:#x} -s {size:#x} -- true')
    assert ret == 1 and f'Buffer {addr:#x}+{size:#x} overlaps memory U-Boot uses' in out, out
    assert crc32_at(cons, addr) == pattern(tmp_path, addr)[1]


def check_not_recorded(cons, boot, why):
    """The boot was not recorded, one line says @why, and the early
    recording started after relocation as without the boot recording"""
    line = (f'perfrec: boot buffer {BOOT_BUF:#x}-{BOOT_BUF + BOOT_SIZE - 1:#x} {why}: '
            'the boot is not recorded')
    assert line in boot and not BOOT_LINE.search(boot), boot
    assert 'perfrec: recording into ' in boot.split(line)[1], boot
    assert status(cons)[0] == 'finalised'
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_reserved_memory(ubman, tmp_path):
    """The boot buffer in a /reserved-memory child (no-map): not one byte of
    it changes, and one line names the child; nor does a recording at the
    prompt write there"""
    cons = ubman
    try:
        dtb, node = reserved_memory_dtb(cons, tmp_path, BOOT_BUF)
        boot = boot_filled(cons, tmp_path, dtb, BOOT_BUF)
        check_not_recorded(cons, boot, f'overlaps {node} '
                           f'({BOOT_BUF:#x}-{BOOT_BUF + BOOT_SIZE - 1:#x})')
        check_record_refused(cons, tmp_path, BOOT_BUF)
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_memreserve(ubman, tmp_path):
    """The boot buffer in a /memreserve/ entry: not one byte of it changes,
    and one line names the entry; nor does a recording at the prompt write
    there"""
    cons = ubman
    try:
        dtb = memreserve_dtb(cons, tmp_path, BOOT_BUF)
        boot = boot_filled(cons, tmp_path, dtb, BOOT_BUF)
        check_not_recorded(cons, boot, f'overlaps /memreserve/ {BOOT_BUF:#x}-'
                           f'{BOOT_BUF + BOOT_SIZE - 1:#x} of the device tree')
        check_record_refused(cons, tmp_path, BOOT_BUF)
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.parametrize('kind', ['reserved-memory', 'memreserve'])
def test_perfrec_early_boot_reserved_elsewhere(ubman, tmp_path, kind):
    """The control: the same region reserved 64 MiB above the buffer. The
    boot is recorded and adopted, every sample copied, and the reserved
    region is byte-identical at the prompt"""
    cons = ubman
    try:
        dtb = reserved_memory_dtb(cons, tmp_path, CONTROL)[0] if kind == 'reserved-memory' \
            else memreserve_dtb(cons, tmp_path, CONTROL)
        boot = boot_filled(cons, tmp_path, dtb, CONTROL)
        match = BOOT_LINE.search(boot)
        assert match and int(match.group(1)) == int(match.group(2)) > 0, boot
        assert 'not recorded' not in boot and 'dropped' not in boot, boot
    finally:
        cons.restart_uboot()
