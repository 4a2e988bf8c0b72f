# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of perfrec on 32-bit Arm (qemu_arm_defconfig) on QEMU virt, judged by the host's perf

"""perfrec on 32-bit Arm: the cells of scripts/perfrec_run_tests.py's
ARM32_CELLS, through qemu-system-arm under -icount shift=0 (one instruction a
cycle and a nanosecond): the Cortex-A15's Armv7 PMU in SVC mode with a GICv2,
PMUv3 in AArch32 (-cpu max) with a GICv3, and Hyp mode. QEMU writes an empty
/pmu for its Armv7 cores: there perfrec samples cpu-clock, naming the node,
and cycles once the node is filled in at the prompt. Every recording is
brought to the host over semihosting, and perf names the ELF function of
every sample. A copy of the build without SVC mode (make
build-arm32-no-el1) runs test_perfrec_arm32_el_left_out alone, in SVC mode.
"""

import contextlib
import os
import re
import subprocess

import pytest

from perfrec_data import PerfData
from perfrec_helpers import (BUF, BUF_SIZE, CRC_AT, bdinfo, check_guards, check_lost_file,
                             events, fetch, guard_buffer, icount, image_offset, perf, record,
                             registers, run_rc, stat, status, symbols, without_pmu)
from test_perfrec_callgraph import FLAMEGRAPH, flame_stacks
from test_perfrec_hotspot import hotspot, hotspot_chains, perf_chains, symfs

# 4 MiB of CRC-32: about 25 million instructions
WORK = CRC_AT % 0x400000
# The functions between the workload's return and the counters' restore
END_PATH = {'perfrec_end_recording', 'perfrec_disarm', 'perfrec_session_disarm',
            'perfrec_counters_stop'}
# The Armv7 PMU's interrupt on QEMU virt: PPI 7, level high, to CPU 0
ARMV7_PMU_IRQ = '<1 7 0x104>'
FALLBACK = re.compile(r'^perfrec: (.*); sampling cpu-clock at (\d+) Hz instead\s*$', re.M)
INTERRUPT = re.compile(r'^interrupt: (\w+)(?:, INTID (\d+) from (\S+))?\s*$', re.M)
SCRIPT = re.compile(r'cycles:\s+([0-9a-f]+) (\S+)\+0x([0-9a-f]+) \(/u-boot\)|'
                    r'cpu-clock:\s+([0-9a-f]+) (\S+)\+0x([0-9a-f]+) \(/u-boot\)')


def armv7(cons):
    """True in the cells of an Armv7 core (QEMU's /pmu is empty there)"""
    return cons.config.env.get('env__perfrec_cpu') != 'max'


def thumb(cons):
    """True in the Thumb-2 build (CONFIG_SYS_THUMB_BUILD), where -g is refused"""
    return bool(cons.config.buildconfig.get('config_sys_thumb_build'))


def hyp(cons):
    """True in the cell where U-Boot stays in Hyp mode"""
    return 'virtualization=on' in cons.config.env.get('env__perfrec_machine', '')


def secure(cons):
    """True in the cell where U-Boot stays in Secure SVC (QEMU's virt with
    its Security Extensions: no EL3 firmware switches to Non-secure)"""
    return 'secure=on' in cons.config.env.get('env__perfrec_machine', '')


@contextlib.contextmanager
def pmu_node(cons):
    """/pmu as a device tree for the cell's core would have it: QEMU's empty
    node filled in on an Armv7 core, and emptied again after"""
    cons.run_command('fdt addr $fdtcontroladdr')
    if not armv7(cons):
        yield
        return
    core = cons.config.env.get('env__perfrec_cpu')
    cons.run_command(f'fdt set /pmu compatible "arm,{core}-pmu"')
    cons.run_command(f'fdt set /pmu interrupts {ARMV7_PMU_IRQ}')
    try:
        yield
    finally:
        cons.run_command('fdt rm /pmu compatible')
        cons.run_command('fdt rm /pmu interrupts')
        assert 'compatible' not in cons.run_command('fdt print /pmu')


def check_exact(cons, event, res, period):
    """One sample per period of @event, none late under icount"""
    count, last_period, late, _ = events(cons)[event]
    assert last_period == period
    assert res['samples'] + late == count // period, (res, count, late)
    if icount(cons):
        assert late == 0


def check_perf_names(cons, tmp_path, path, res, event):  # pylint: disable=too-many-locals
    """perf script names, for every sample, the ELF function its address is in;
    perf report puts the workload's loop on top. Return the PerfData."""
    with open(path, 'rb') as inf:
        pdata = PerfData(inf.read())
    assert len(pdata.samples) == res['samples'] > 0
    assert pdata.arch == 'armv7l'
    assert pdata.mmaps[0].start == bdinfo(cons, 'relocaddr')
    assert pdata.mmaps[0].pgoff == image_offset(cons)
    root = cons.config.build_dir
    reloc = bdinfo(cons, 'reloc off')
    syms = symbols(cons)
    script = perf(tmp_path, ['script', '-i', path, '--symfs=' + root])
    lines = [line for line in script.splitlines() if line.strip()]
    assert len(lines) == res['samples']
    for line in lines:
        match = SCRIPT.search(line)
        assert match and f'{event}:' in line, line
        addr, name, off = (match.group(1), match.group(2), match.group(3)) if match.group(1) \
            else (match.group(4), match.group(5), match.group(6))
        start, end = syms[name]
        assert start <= int(addr, 16) - reloc < end, line
        assert int(addr, 16) - reloc - start == int(off, 16), line
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + root, '--stdio'])
    rows = [line.split() for line in report.splitlines()
            if line.strip() and not line.lstrip().startswith('#')]
    assert rows[0][1:] == ['u-boot', 'u-boot', '[.]', 'crc32_no_comp'], report
    assert float(rows[0][0].rstrip('%')) >= 90.0, report
    header = perf(tmp_path, ['report', '-i', path, '--header-only'])
    assert '# arch : armv7l' in header, header
    return pdata


def check_high_events(cons):
    """From PMUv3p1 on, PMCEID2 and PMCEID3 describe events 0x4000-0x403f
    (AArch64's PMCEID0/1_EL0[63:32]): perfrec list shows them, and each of
    those events implemented exactly when its bit is set. QEMU implements
    none of them (its pmu_init() takes events up to 0x3f only): there both
    read 0 and none is listed as implemented."""
    out = cons.run_command('perfrec list -a')
    version = int(re.search(r'\(PMUVer (\d+)\)', out).group(1))
    regs = re.search(r'PMCEID0 0x[0-9a-f]+, PMCEID1 0x[0-9a-f]+'
                     r'(?:, PMCEID2 (0x[0-9a-f]+), PMCEID3 (0x[0-9a-f]+))?\s*$', out, re.M)
    assert regs and bool(regs.group(1)) == (version >= 4), out
    high = int(regs.group(2) or '0', 16) << 32 | int(regs.group(1) or '0', 16)
    rows = re.findall(r'^  \S+\s+\[common\]\s+0x(40[0-3][0-9a-f])  (.*)$', out, re.M)
    assert rows, out
    for number, desc in rows:
        bit = int(number, 16) & 0x3f
        assert ('(not implemented)' not in desc) == bool(high >> bit & 1), (number, desc)


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_arm32_list(ubman):
    """perfrec list: the Armv7 PMU or PMUv3 through cp15, every counter 32
    bits; from PMUv3p1 on PMCEID2/3 as well (check_high_events())"""
    cons = ubman
    out = cons.run_command('perfrec list')
    if armv7(cons):
        # QEMU's Armv7 cores leave PMCEID0/1 undefined: read as 0, no trap
        assert 'PMU: Armv7 PMU (PMUVer 2)' in out, out
        assert 'PMCEID0 0x0, PMCEID1 0x0' in out, out
    else:
        assert re.search(r'PMU: PMUv3\S* \(PMUVer \d\)', out), out
        assert '  cpu_cycles ' in out, out
        check_high_events(cons)
    assert 'event counters of 32 bits, cycle counter of 32 bits' in out, out
    assert f'Counts at EL{2 if hyp(cons) else 1};' in out, out
    assert '  cycles ' in out and '  cpu-clock ' in out
    if secure(cons):
        check_secure_events(cons, out)
    else:
        assert 'stand still' not in out, out


def check_secure_events(cons, out):
    """Secure SVC on a Cortex-A7 (no SDCR.SPME): the event counters stand
    still, which list says, and an event is refused in one line naming
    SPNIDEN (before PMCEID's word: QEMU's A7 reads 0 there), with every
    register as it was; the cycle counter still counts"""
    spniden = 'Secure state, where they count only if the SoC asserts SPNIDEN'
    assert f'Its event counters stand still here ({spniden}): cycles only' in out, out
    before = registers(cons)
    for cmd in ('stat', 'record'):
        out, ret = run_rc(cons, f'perfrec {cmd} -e r08 -- {WORK}')
        lines = [line for line in out.splitlines() if line.strip() and 'rc:' not in line]
        assert ret == 1 and lines == [
            f"perfrec: the PMU's event counters stand still here ({spniden}): "
            'sample -e cpu-clock, or count cycles'], out
        assert status(cons)[0] not in ('armed', 'recording'), cmd
    assert registers(cons) == before
    counts, _, ret = stat(cons, '-e cycles', WORK)
    assert ret == 0 and counts['cycles'] > 0, counts


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_arm32_cycles(ubman, tmp_path):
    """cycles on the 32-bit cycle counter: exact counts, every register back,
    and perf names the function of every sample"""
    cons = ubman
    with pmu_node(cons):
        before = registers(cons)
        costs = {}
        for period in (20000, 50000):
            res = record(cons, f'-c {period} -o {BUF:#x} -s {BUF_SIZE:#x}', WORK)
            assert res['rc'] == 0 and res['lost'] == 0 and res['addr'] == BUF
            check_exact(cons, 'cycles', res, period)
            source, intid, node = INTERRUPT.search(cons.run_command('perfrec status')).groups()
            assert (source, intid, node) == ('PMU', '23', '/pmu')
            assert registers(cons) == before
            path, _ = fetch(cons, tmp_path, f'p{period}.data')
            pdata = check_perf_names(cons, tmp_path, path, res, 'cycles')
            # The board's own report, from U-Boot's symbol table (8 hex digits)
            rows = re.findall(r'^\s+([\d.]+)%\s+(\d+)\s+(\S+)\s*$',
                              cons.run_command('perfrec report -n 1000'), re.M)
            assert rows[0][2] == 'crc32_no_comp' and float(rows[0][0]) >= 90.0, rows
            assert sum(int(row[1]) for row in rows) == res['samples'], rows
            assert all(s.period == period for s in pdata.samples)
            costs[period] = (res['samples'], events(cons)['cycles'][0])
        # A period too long to end (the longest a 32-bit counter takes): the workload alone
        res = record(cons, f'-c 4294963200 -o {BUF:#x} -s {BUF_SIZE:#x}', WORK)
        assert res['samples'] == 0
        work = events(cons)['cycles'][0]
    if icount(cons):
        # Each sample costs the same: events = workload + samples * handler cost
        per = [(count - work) / samples for samples, count in costs.values()]
        assert abs(per[0] - per[1]) < 1, per
        assert 20 < per[0] < 1000, per


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_arm32_cpu_clock(ubman, tmp_path):
    """cpu-clock on the PL1 timer (CNTP) or Hyp's (CNTHP): exact, named by perf.
    In Secure SVC, CNTP is the Secure physical timer: its interrupt is the
    tree's first, which the probe finds when the Non-secure one stays silent"""
    cons = ubman
    before = registers(cons)
    res = record(cons, f'-e cpu-clock -c 100000 -o {BUF:#x} -s {BUF_SIZE:#x}', WORK)
    assert res['rc'] == 0 and res['lost'] == 0
    check_exact(cons, 'cpu-clock', res, 100000)
    source, intid, node = INTERRUPT.search(cons.run_command('perfrec status')).groups()
    # QEMU virt's timer PPIs: 14 the non-secure physical, 13 the secure, 10 Hyp's
    want = '26' if hyp(cons) else '29' if secure(cons) else '30'
    assert (source, intid, node) == ('timer', want, '/timer')
    assert registers(cons) == before
    path, _ = fetch(cons, tmp_path)
    check_perf_names(cons, tmp_path, path, res, 'cpu-clock')


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_arm32_no_pmu(ubman, tmp_path):
    """A core whose ID_DFR0 names no PMU (QEMU's pmu=off): the default
    recording samples cpu-clock, saying why in one line, exact and named by
    perf; a PMU event is refused in one line, with nothing armed"""
    cons = ubman
    with without_pmu(cons):
        res = record(cons, f'-F 10000 -o {BUF:#x} -s {BUF_SIZE:#x}', WORK)
        match = FALLBACK.search(res['out'])
        assert match and match.groups() == ('this CPU has no PMUv3 (ID_DFR0.PerfMon)',
                                            '10000'), res['out']
        check_exact(cons, 'cpu-clock', res, 100000)
        path, _ = fetch(cons, tmp_path)
        check_perf_names(cons, tmp_path, path, res, 'cpu-clock')
        out, ret = run_rc(cons, f'perfrec record -e cycles -o {BUF:#x} -s {BUF_SIZE:#x} -- true')
        assert ret == 1 and out.splitlines()[0] == 'This CPU has no PMUv3 (ID_DFR0.PerfMon)', out
        assert status(cons)[0] != 'armed'


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_arm32_buffer_full(ubman, tmp_path):
    """A 4 KiB buffer fills up: each period a sample or one counted lost, a
    file perf reads with the lost count, and no byte written on either side"""
    cons = ubman
    size = 0x1000
    guard_buffer(cons, BUF, size)
    period = 20000
    with pmu_node(cons):
        res = record(cons, f'-c {period} -o {BUF:#x} -s {size:#x}', WORK)
        count, _, late, _ = events(cons)['cycles']
    assert res['rc'] == 0 and res['lost'] > 0 and res['samples'] > 0, res
    assert 'the buffer filled up' in res['out']
    assert res['samples'] + res['lost'] + late == count // period, (res, count, late)
    check_guards(cons, BUF, size)
    check_lost_file(cons, tmp_path, res)


def check_late_chain(chains):
    """Each chain is under the workload, but for at most one: a period that
    ended after the workload returned. Its interrupt is taken on the way to
    the stop, or where the stop unmasks once more (perfrec_counters_stop()).
    Which of the two is not fixed: under icount the periods stay exact, but
    where they fall in the code moves by a few instructions from one boot to
    the next (the first sample's PC differs)."""
    late = [chain for chain in chains if 'perfrec_run_workload' not in chain]
    assert len(late) <= 1 and all(
        set(chain[:chain.index('do_perfrec_record')]) <= END_PATH for chain in late), late


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_arm32_callgraph(ubman, tmp_path):
    """-g in ARM state: every sample's chain walks the frame records (r11)
    to _main, every return address follows a call, and perf names them all.
    A Thumb-2 build refuses -g in one line that says why."""
    cons = ubman
    if thumb(cons):
        assert not cons.config.buildconfig.get('config_perfrec_callchain')
        out, ret = run_rc(cons, f'perfrec record -g -o {BUF:#x} -s {BUF_SIZE:#x} -- true')
        assert ret == 1 and out.splitlines()[0] == (
            'Call graphs (-g) need ARM state: Thumb-2 code (CONFIG_SYS_THUMB_BUILD) keeps no '
            'frame record a walker finds'), out
        assert status(cons)[0] != 'armed'
        return
    with pmu_node(cons):
        res = record(cons, f'-g -c 20011 -o {BUF:#x} -s {BUF_SIZE:#x}', WORK)
    assert res['rc'] == 0 and res['lost'] == 0 and res['samples'] > 500
    check_exact(cons, 'cycles', res, 20011)
    path, _ = fetch(cons, tmp_path)
    chains = perf_chains(tmp_path, path, symfs(cons))
    assert len(chains) == res['samples']
    # perf prints chain entries at the symfs copy's addresses
    dis = subprocess.run(['arm-linux-gnueabihf-objdump', '-d',
                          os.path.join(symfs(cons), 'u-boot')],
                         capture_output=True, text=True, check=True).stdout
    calls = {int(m.group(1), 16) + 4 for m in
             re.finditer(r'^\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+(bl|blx)\s', dis, re.M)}
    script = perf(tmp_path, ['script', '-i', path, '--symfs=' + symfs(cons), '-F', 'ip'])
    blocks = [[int(ip, 16) for ip in block.split()] for block in script.split('\n\n')
              if block.strip()]
    assert [len(block) for block in blocks] == [len(chain) for chain in chains]
    # Every entry but each sample's own PC is a return address: after a call
    stray = [hex(ret) for block in blocks for ret in block[1:] if ret not in calls]
    assert not stray, stray[:10]
    for chain in chains:
        # Named to the end, which is _main (crt0's, under board_init_r());
        # perfrec's own frames under the workload's
        assert all(chain) and chain[-1] == '_main', chain
        assert 'do_perfrec_record' in chain, chain
        if chain[0] == 'crc32_no_comp':
            assert 'do_mem_crc' in chain[1:], chain
    check_late_chain(chains)
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + symfs(cons), '--stdio',
                             '--no-children', '-g', 'caller'])
    assert 'crc32_no_comp' in report and 'do_mem_crc' in report, report[:3000]


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
@pytest.mark.parametrize('graph', [False, True], ids=['flat', 'callgraph'])
def test_perfrec_arm32_readers(ubman, tmp_path, graph):  # pylint: disable=too-many-locals
    """hotspot's parser names perf's function for every sample and chain
    entry, perf annotate disassembles the hot function (perf finds
    arm-linux-gnueabihf-objdump by the file's arch), and the flame graph
    reads every sample"""
    cons = ubman
    # Thumb-2: flat only (test_perfrec_arm32_callgraph checks the refusal)
    graph = graph and not thumb(cons)
    with pmu_node(cons):
        res = record(cons, f'{"-g " if graph else ""}-c 20011 -o {BUF:#x} -s {BUF_SIZE:#x}',
                     WORK)
    assert res['samples'] > 500
    path, _ = fetch(cons, tmp_path)
    theirs = perf_chains(tmp_path, path, symfs(cons))
    stream, noise = hotspot(tmp_path, path, debug=os.path.join(symfs(cons), '.debug'))
    assert not stream.errors and not noise, (stream.errors, noise)
    ours = hotspot_chains(stream)
    assert ours == theirs and len(ours) == res['samples']
    assert all(all(chain) for chain in ours), ours
    assert all(len(chain) > 1 for chain in ours) == graph

    out = perf(tmp_path, ['annotate', '-i', path, '--symfs=' + symfs(cons), '--stdio',
                          'crc32_no_comp'])
    heads = re.findall(r'^\s*:\s*\d*\s+[0-9a-f]+ <([^>]+)>:\s*$', out, re.M)
    assert heads == ['crc32_no_comp'], out[:2000]
    # A32 code, with the samples' shares beside it
    assert re.search(r'^\s+\d+\.\d+\s+:\s+[0-9a-f]+:\s+(ldr|eor|and|ldrb)\b', out, re.M), \
        out[:2000]

    html_path = str(tmp_path / 'flame.html')
    proc = subprocess.run(['/usr/bin/python3', FLAMEGRAPH, '-i', path, '--symfs',
                           cons.config.build_dir, '-o', html_path],
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=str(tmp_path)))
    assert proc.returncode == 0 and proc.stderr == '', proc.stderr
    node = flame_stacks(html_path)['all'][1]['u-boot (1)']
    if graph:
        # From _main down: the hot loop is reached along the workload's path
        def find(node, name):
            return ([node[1][name]] if name in node[1] else []) + \
                [hit for child in node[1].values() for hit in find(child, name)]
        assert find(node, 'do_mem_crc') and find(node, 'crc32_no_comp'), node
    else:
        # perf's script builds stacks from call chains: a flat recording is
        # one frame, the process, holding every sample
        assert node == (res['samples'], {})


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_arm32_stat_wrap(ubman):
    """The 32-bit counters are extended in software: with -w 10000 each wraps
    every 10000 events, thousands of times, and counts what a plain run does

    A lost or doubled wrap is 10000 (or 2^32) off; the path around the
    workload differs by a few hundred instructions between two runs (see
    test_perfrec_stat_wrap). QEMU's Armv7 cores leave PMCEID empty, so
    there cycles count alone.
    """
    cons = ubman
    wrap = 10000
    names = '-e cycles' + ('' if armv7(cons) else ',instructions')
    with pmu_node(cons):
        stat(cons, names)
        plain, _, ret = stat(cons, names)
        assert ret == 0
        wrapped, _, ret = stat(cons, f'{names} -w {wrap}')
        assert ret == 0
    assert plain['cycles'] > 1000 * wrap, plain
    for name, count in plain.items():
        if icount(cons):
            assert abs(wrapped[name] - count) < wrap // 2, (name, plain, wrapped)
        else:
            assert abs(wrapped[name] - count) < count // 10, (name, plain, wrapped)
    if icount(cons) and not armv7(cons):
        assert wrapped['cycles'] == wrapped['instructions'], wrapped


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_arm32_pmu_from_dt(ubman):
    """The device tree as QEMU writes it: cycles from an arm,armv8-pmuv3 node;
    an Armv7 core's empty /pmu gives cpu-clock, in one line naming the node"""
    cons = ubman
    res = record(cons, f'-o {BUF:#x} -s {BUF_SIZE:#x}', WORK)
    assert res['rc'] == 0 and res['samples'] > 0
    source, _, node = INTERRUPT.search(cons.run_command('perfrec status')).groups()
    fallback = FALLBACK.findall(res['out'])
    if armv7(cons):
        assert len(fallback) == 1, res['out']
        assert fallback[0][0] == ('/pmu has no "compatible": an empty PMU node '
                                  "('fdt set' can fill it in)"), res['out']
        assert source == 'timer' and node == '/timer'
    else:
        assert not fallback, res['out']
        assert source == 'PMU' and node == '/pmu'


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.notbuildconfigspec('perfrec_el1')
def test_perfrec_arm32_el_left_out(ubman):
    """A build for Hyp mode alone run in SVC mode (make build-arm32-no-el1):
    what reads the PMU (list, an event PMCEID speaks for) is refused as every
    arming is, in the one line that names CONFIG_PERFREC_EL1, rc 1, nothing
    armed, and none of Hyp mode's registers touched (HVBAR is an undefined
    instruction in SVC mode); U-Boot goes on"""
    cons = ubman
    assert not hyp(cons), 'run this in an SVC-mode cell'
    why = 'U-Boot runs at EL1, which this build leaves out (CONFIG_PERFREC_EL1)'
    buf = f'-o {BUF:#x} -s {BUF_SIZE:#x}'
    for cmd in ('perfrec list', f'perfrec record -e instructions {buf} -- {WORK}',
                f'perfrec stat -e cycles,instructions -- {WORK}', f'perfrec record {buf} -- {WORK}',
                f'perfrec record -e cpu-clock {buf} -- {WORK}', f'perfrec start {buf}'):
        out, ret = run_rc(cons, cmd)
        lines = [line for line in out.splitlines() if line.strip() and 'rc:' not in line]
        assert ret == 1 and lines == [why], (cmd, out)
        assert status(cons)[0] not in ('armed', 'recording'), cmd
    out = cons.run_command('perfrec status -v')
    assert 'reg ' not in out, out
    out, ret = run_rc(cons, WORK)
    assert ret == 0 and 'crc32 for' in out, out


@pytest.mark.boardspec('qemu_arm')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.parametrize('args, message', [
    ('-c 4294967296', "Period 4294967296 of event 'cycles' is too long for its 32-bit counter"),
    # 2^32 - 4095: a late interrupt's next gap (up to the period + 4095) would not fit
    ('-c 4294963201', "Period 4294963201 of event 'cycles' is too long for its 32-bit counter: "
     "at most 4294963200 (every counter is 32 bits on 32-bit Arm)"),
    ('-o 0x10000000', 'Buffer 0x10000000+0x1000000 is not inside DRAM'),
    ('-e nosuch', "Unknown event 'nosuch'"),
    (f'-o {BUF:#x} -s 0x100', 'Buffer too small'),
])
def test_perfrec_arm32_bad_input(ubman, args, message):
    """Bad input: one line naming it, rc 1, nothing armed, every register as it was"""
    cons = ubman
    with pmu_node(cons):
        before = registers(cons)
        out, ret = run_rc(cons, f'perfrec record {args} -- true')
        assert ret == 1, out
        lines = [line for line in out.splitlines() if line.strip() and 'rc:' not in line]
        assert len(lines) == 1 and message in lines[0], out
        assert status(cons)[0] != 'armed'
        assert registers(cons) == before
        # U-Boot is still usable, and so is perfrec
        res = record(cons, f'-c 100000 -o {BUF:#x} -s {BUF_SIZE:#x}', WORK)
        assert res['rc'] == 0 and res['samples'] > 0
