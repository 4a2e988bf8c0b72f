# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Console and host helpers shared by perfrec's test/py tests

"""Helpers for test_perfrec*.py: run perfrec on the board, parse what it
prints, bring perf.data to the host over semihosting, and run the host's
perf on it with its stderr checked.
"""

import contextlib
import os
import re
import subprocess
import time
import zlib

from perfrec_data import PerfData, check_perf_stderr

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), 'tools', 'perfrec')

# Free DRAM on QEMU virt with 1 GiB, clear of U-Boot and the load addresses
BUF = 0x50000000
BUF_SIZE = 0x1000000
# CRC-32 of DRAM's first bytes, about 6 instructions a byte: a workload of
# any size (record_grown())
CRC_AT = 'crc32 0x40000000 %#x'
# 16 MiB of CRC-32: about 100 million instructions
CRC_LEN = 0x1000000
CRC = CRC_AT % CRC_LEN
# Ample time for any recording here
TIMEOUT_MS = 120000
# Recordings of a workload doubled in size until it yields enough samples
GROW_TRIES = 6

# Addresses QEMU virt has nothing at: between the RAM U-Boot maps (up to 256
# GiB) and the PCIe ECAM above it; and one past any VA range U-Boot sets up
HOLES = (0x4000000000, 0x4008000000)
BEYOND = 1 << 47
# QEMU virt's GIC node (v2 and v3)
GIC = '/intc@8000000'
PTE = re.compile(r'^pte (0x[0-9a-f]+): (?:level (\d), (0x[0-9a-f]+), (mapped|unmapped)|'
                 r'(outside the translated range))\s*$', re.M)

SUMMARY = re.compile(r'perfrec: (\d+) samples, (\d+) lost, (\d+) bytes of perf.data '
                     r'at (0x[0-9a-f]+), workload rc (\d+)')
EVENT = re.compile(r'event (\S+): (\d+) counted, period (\d+), late (\d+), counter (\d+)')


def cell_el():
    """The EL U-Boot runs at in this QEMU virt cell (its name: el2-gicv3, ...)"""
    return int(re.match(r'el(\d)-', os.environ['PERFREC_CELL']).group(1))


def icount(cons):
    """True when the cell runs QEMU with -icount (exact instruction counts)"""
    return bool(cons.config.env.get('env__perfrec_icount'))


def icount_shift(cons):
    """N of the cell's '-icount shift=N' (each instruction 2^N cycles), or None"""
    match = re.match(r'shift=(\d+)', cons.config.env.get('env__perfrec_icount', ''))
    return int(match.group(1)) if match else None


def stat(cons, args, workload=CRC):
    """Run 'perfrec stat'; return ({event: count}, seconds, rc)"""
    with cons.temporary_timeout(TIMEOUT_MS):
        out, ret = run_rc(cons, f'perfrec stat {args} -- {workload}')
    counts = {m.group(2): int(m.group(1))
              for m in re.finditer(r'^\s+(\d+)\s+(\S+)\s*$', out, re.M)}
    secs = re.search(r'([\d.]+) seconds time elapsed', out)
    assert counts and secs, out
    return counts, float(secs.group(1)), ret


def run_rc(cons, cmd):
    """Run @cmd; return (output, return code)"""
    out = cons.run_command(cmd + '; echo rc:$?')
    match = re.search(r'rc:(\d+)\s*$', out)
    assert match, out
    return out, int(match.group(1))


def record(cons, args, workload=CRC):
    """Run 'perfrec record' and return its summary as a dict (asserts rc 0)

    'ns' is the host's time from sending the command to its prompt: without
    icount QEMU's clock is the host's, so no count of cycles (or cpu-clock
    nanoseconds) in the recording can exceed it.
    """
    start = time.monotonic_ns()
    with cons.temporary_timeout(TIMEOUT_MS):
        out, ret = run_rc(cons, f'perfrec record {args} -- {workload}')
    elapsed = time.monotonic_ns() - start
    match = SUMMARY.search(out)
    assert match, out
    assert ret == int(match.group(5)), out
    return {'samples': int(match.group(1)), 'lost': int(match.group(2)),
            'size': int(match.group(3)), 'addr': int(match.group(4), 16),
            'rc': ret, 'out': out, 'ns': elapsed}


# Many arguments: the console, what to record, then optional knobs by keyword
# pylint: disable-next=too-many-arguments
def record_grown(cons, args, workload, size, least=0, enough=None, check=None,
                 tries=GROW_TRIES):
    """Record '@workload % @size' until it is enough; return the last summary

    Enough is more than @least samples, or what @enough(summary) says. How
    many samples a workload of a given size yields is exact under icount,
    so there the first recording must be enough. Without icount QEMU's
    clock is the host's and each interrupt waits for QEMU's main loop: on
    a slow or loaded host more periods pass late, unsampled. The size
    (loops or bytes: instructions, not time) then doubles after each
    recording that is not enough, @tries recordings at most; only the last
    is left in the buffer. @check(summary), if given, asserts what every
    recording must show. The summary's 'work' is the size it was recorded
    at, its 'grown' the (size, samples, lost) of each recording.
    """
    def more(res):
        return res['samples'] > least

    enough = enough or more
    grown = []
    for _ in range(1 if icount(cons) else tries):
        res = record(cons, args, workload % size)
        grown.append((size, res['samples'], res['lost']))
        if check:
            check(res)
        if enough(res):
            break
        size *= 2
    res['work'], res['grown'] = grown[-1][0], grown
    assert enough(res), grown
    return res


def status(cons):
    """Return (state, {event: (count, period)}, late) from 'perfrec status'"""
    out = cons.run_command('perfrec status')
    state = re.search(r'state: (\w+)', out).group(1)
    late = re.search(r'late: (\d+)', out)
    return state, {m.group(1): (int(m.group(2)), int(m.group(3)))
                   for m in EVENT.finditer(out)}, int(late.group(1)) if late else 0


def events(cons):
    """{event: (count, period, late, counter)} from 'perfrec status'"""
    out = cons.run_command('perfrec status')
    return {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)))
            for m in EVENT.finditer(out)}


def registers(cons):
    """The 'reg NAME = value' lines of 'perfrec status -v'"""
    out = cons.run_command('perfrec status -v')
    regs = [line.strip() for line in out.splitlines() if line.startswith('reg ')]
    assert regs, out
    return regs


def fetch(cons, tmp_path, name='perf.data'):
    """Copy the last recording to the host over semihosting; return its bytes"""
    path = os.path.join(str(tmp_path), name)
    out = cons.run_command(f'save hostfs - $fileaddr {path} $filesize')
    assert 'bytes written' in out, out
    with open(path, 'rb') as inf:
        data = inf.read()
    assert len(data) == int(cons.run_command('printenv filesize').split('=')[1], 16)
    return path, data


def uart_data(cons, tmp_path, name='perf.data', dump='perfrec dump'):
    """Bring the last recording to the host over the console: @dump's framed
    text, decoded by tools/perfrec/perfrec_extract.py; return (path, bytes)"""
    log = cons.run_command(dump)
    assert log.count('perfrec-begin') == 1 and 'perfrec-end' in log, log[-500:]
    path = os.path.join(str(tmp_path), name)
    proc = subprocess.run(['/usr/bin/python3', os.path.join(TOOLS, 'perfrec_extract.py'),
                           '-o', path, '-'], input=log, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    with open(path, 'rb') as inf:
        return path, inf.read()


# The patterns guard_buffer() writes on either side of a buffer
GUARD_BYTES = (0xa5, 0x5a)


def guard_buffer(cons, addr, size):
    """Fill @size bytes on either side of the buffer at @addr (also @size long)"""
    for where, byte in zip((addr - size, addr + size), GUARD_BYTES):
        cons.run_command(f'mw.b {where:#x} {byte:#x} {size:#x}')


def check_guards(cons, addr, size):
    """guard_buffer()'s bytes are all there: nothing was written beside the buffer"""
    for where, byte in zip((addr - size, addr + size), GUARD_BYTES):
        out = cons.run_command(f'crc32 {where:#x} {size:#x}')
        assert f'{zlib.crc32(bytes([byte]) * size):08x}' in out, out


def check_lost_file(cons, tmp_path, res):
    """The last recording's perf.data has @res's samples and lost count, and
    perf report says as many lost"""
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    assert len(pdata.samples) == res['samples'] and pdata.lost_samples == res['lost']
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio'], allow_lost=True)
    assert f"# Total Lost Samples: {res['lost']}" in report, report[:2000]


@contextlib.contextmanager
def without_pmu(cons):
    """U-Boot booted again on the cell's CPU without its PMU (QEMU's pmu=off),
    and as before after"""
    cpu = os.environ.get('PERFREC_QEMU_CPU')
    os.environ['PERFREC_QEMU_CPU'] = (cpu or 'cortex-a57') + ',pmu=off'
    try:
        cons.restart_uboot()
        yield
    finally:
        if cpu is None:
            os.environ.pop('PERFREC_QEMU_CPU', None)
        else:
            os.environ['PERFREC_QEMU_CPU'] = cpu
        cons.restart_uboot()


def bdinfo(cons, key):
    """A hex value from 'bdinfo'"""
    out = cons.run_command('bdinfo')
    return int(re.search(rf'^{re.escape(key)}\s*= (0x[0-9a-f]+)', out, re.M).group(1), 16)


def perf(tmp_path, args, allow_lost=False):
    """Run host perf on a recording; fail on anything alarming; return stdout"""
    home = os.path.join(str(tmp_path), 'home')
    os.makedirs(home, exist_ok=True)
    proc = subprocess.run(['perf'] + args, capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=home, PAGER='cat'))
    assert proc.returncode == 0, proc.stderr
    check_perf_stderr(proc.stderr, allow_lost=allow_lost)
    return proc.stdout


def symbols(cons):
    """{name: (start, end)} of the text symbols of the u-boot ELF"""
    elf = os.path.join(cons.config.build_dir, 'u-boot')
    out = subprocess.run(['aarch64-linux-gnu-nm', '-S', '--defined-only', elf],
                         capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            parts.insert(1, '0')
        if len(parts) == 4 and parts[2] in 'tTwW':
            start = int(parts[0], 16)
            syms[parts[3]] = (start, start + int(parts[1], 16))
    return syms


def image_offset(cons):
    """File offset of the image's first byte (_start) in the u-boot ELF, from readelf -l"""
    elf = os.path.join(cons.config.build_dir, 'u-boot')
    out = subprocess.run(['aarch64-linux-gnu-readelf', '-lW', elf], capture_output=True,
                         text=True, check=True).stdout
    loads = [line.split() for line in out.splitlines() if line.strip().startswith('LOAD')]
    start = symbols(cons)['_start'][0]
    hits = [(int(load[1], 16), int(load[2], 16)) for load in loads
            if int(load[2], 16) <= start < int(load[2], 16) + int(load[5], 16)]
    assert len(hits) == 1, out
    offset, vaddr = hits[0]
    return offset + start - vaddr


def gic_distributor(cons):
    """The GIC distributor's address, from the control device tree"""
    cons.run_command('fdt addr $fdtcontroladdr')
    out = cons.run_command('fdt print /intc@8000000 reg')
    cells = [int(c, 16) for c in re.search(r'reg = <([^>]*)>', out).group(1).split()]
    return cells[0] << 32 | cells[1]


def gic_reg(cons):
    """The GIC node's "reg" cells, as 'fdt print' gives them"""
    cons.run_command('fdt addr $fdtcontroladdr')
    out = cons.run_command(f'fdt print {GIC} reg')
    return re.search(r'reg = <([^>]*)>', out).group(1)


def pte(cons, addr):
    """(level, descriptor, mapped) that translates @addr, or None outside the
    translated range ('perfrec_test pte')"""
    out = cons.run_command(f'perfrec_test pte {addr:#x}')
    match = PTE.search(out)
    assert match and int(match.group(1), 16) == addr, out
    if match.group(5):
        return None
    return int(match.group(2)), int(match.group(3), 16), match.group(4) == 'mapped'


def hole(cons):
    """An address in a hole of U-Boot's MMU map, where QEMU has nothing"""
    for addr in HOLES:
        where = pte(cons, addr)
        if where and not where[2] and where[0] > 0:
            return addr
    raise AssertionError(f'no hole of U-Boot\'s map at any of {HOLES}')


def qemu_dtb(cons, tmp_path, name, edits, mem='1G'):
    """QEMU's device tree for this cell and @mem of RAM (-machine dumpdtb=),
    changed by @edits, each a list of fdtput's arguments after the file (or,
    starting with '-d', its property deletion); return its path, for -dtb"""
    dtb = os.path.join(str(tmp_path), name)
    machine = cons.config.env['env__perfrec_machine']
    subprocess.run(['qemu-system-aarch64', '-M', f'{machine},dumpdtb={dtb}',
                    '-cpu', os.environ.get('PERFREC_QEMU_CPU', 'cortex-a57'), '-m', mem,
                    '-smp', str(cons.config.env['env__perfrec_smp']), '-display', 'none',
                    '-nic', 'none'], check=True, capture_output=True)
    for edit in edits:
        args = ['fdtput', '-d', dtb] + edit[1:] if edit[0] == '-d' else ['fdtput', dtb] + edit
        subprocess.run(args, check=True, capture_output=True)
    return dtb


def dtb_with_gic_at(cons, tmp_path, addr):
    """QEMU's device tree for this cell, with the GIC distributor moved to
    @addr; return its path, for -dtb"""
    dtb = qemu_dtb(cons, tmp_path, 'gic-moved.dtb', [])
    cells = subprocess.run(['fdtget', '-t', 'x', dtb, GIC, 'reg'], check=True,
                           capture_output=True, text=True).stdout.split()
    cells[:2] = [f'{addr >> 32:x}', f'{addr & 0xffffffff:x}']
    subprocess.run(['fdtput', '-t', 'x', dtb, GIC, 'reg'] + cells, check=True)
    return dtb


def elf_symbols(cons):
    """The ELF's path, its defined symbols (nm -S, split) and the image's
    link address (__image_copy_start)"""
    elf = os.path.join(cons.config.build_dir, 'u-boot')
    out = subprocess.run(['aarch64-linux-gnu-nm', '-S', '--defined-only', elf],
                         capture_output=True, text=True, check=True).stdout
    syms = [line.split() for line in out.splitlines()]
    base = next(int(parts[0], 16) for parts in syms if parts[-1] == '__image_copy_start')
    return elf, syms, base


def text_of(cons):
    """[(start, end, name)] of the ELF's functions as offsets into the image
    (from its link address, CONFIG_TEXT_BASE), sorted, for classifying
    offsets (a list: two static functions may share a name)"""
    _, syms, base = elf_symbols(cons)
    return sorted((int(parts[0], 16) - base, int(parts[0], 16) - base + int(parts[1], 16),
                   parts[3]) for parts in syms
                  if len(parts) == 4 and parts[2] in 'tTwW' and int(parts[1], 16))


# The part of perfrec-verdict's cpu-clock line for one EL
VERDICT_EL = re.compile(r'EL(\d): (none: [^;]*|(?:INTID|local source) \d+ from [^ ;]+)')
# A default event's fallback when its interrupt never came: the PMU node and the interrupt
UNREACHED = re.compile(r'^(/\S+): interrupt (\d+) \(its "interrupts"\) never reached')


def control_dtb(cons, path):
    """Write U-Boot's control device tree as the board has it now to @path, read
    over the console (md.b): its header, structure and strings, the header's
    totalsize cut to them (QEMU's trees carry a megabyte of free space)"""
    cons.run_command('fdt addr $fdtcontroladdr')
    hdr = cons.run_command('fdt header')
    field = {m.group(1): int(m.group(2), 16)
             for m in re.finditer(r'^(\w+):\s+(0x[0-9a-f]+)', hdr, re.M)}
    size = max(field['off_dt_struct'] + field['size_dt_struct'],
               field['off_dt_strings'] + field['size_dt_strings'])
    data = bytearray()
    for line in cons.run_command(f'md.b $fdtcontroladdr {size:x}').splitlines():
        mat = re.match(r'^[0-9a-f]+:((?: [0-9a-f]{2})+)', line)
        if mat:
            data += bytes.fromhex(mat.group(1).replace(' ', ''))
    assert len(data) == size and data[:4] == b'\xd0\x0d\xfe\xed', (len(data), size)
    data[4:8] = size.to_bytes(4, 'big')
    with open(path, 'wb') as outf:
        outf.write(data)


def verdict(cons, tmp_path):
    """perfrec-verdict's lines on the board's control device tree, {'pmu': ...,
    'cpu-clock': {el: part}, ...}: the host's reading of the tree U-Boot armed from"""
    tool = os.environ.get('PERFREC_VERDICT', '')
    assert os.path.isfile(tool), f'PERFREC_VERDICT={tool!r}: no perfrec-verdict (make ' \
        'perfrec-verdict; the make targets that run the tests set it)'
    path = os.path.join(str(tmp_path), 'control.dtb')
    control_dtb(cons, path)
    out = subprocess.run([tool, path], capture_output=True, text=True, check=True).stdout
    lines = dict(line.split(': ', 1) for line in out.splitlines() if ': ' in line)
    lines['cpu-clock'] = dict(VERDICT_EL.findall(lines['cpu-clock']))
    return lines


def check_verdict(cons, tmp_path, el_num, source, why=None):
    """The verdict on the board's tree names what 'perfrec status' gave: for
    the timer (@source: 'timer', 'INTID' or 'local source', its number, its
    node) the part of EL @el_num; for the PMU its interrupt and node, or the
    fallback's reason @why (its interrupt when it never came, else the
    same words)"""
    found = verdict(cons, tmp_path)
    irq = f'{source[1]} {source[2]} from {source[3]}'
    if source[0] == 'timer':
        assert found['cpu-clock'][str(el_num)] == irq, found
    else:
        assert found['pmu'].split(',')[0] == irq, found
    if why is None:
        return
    mat = UNREACHED.match(why)
    if mat:
        assert re.match(rf'(INTID|local source) {mat.group(2)} from {re.escape(mat.group(1))},',
                        found['pmu']), found
    else:
        assert found['pmu'] == 'none: ' + why, found
