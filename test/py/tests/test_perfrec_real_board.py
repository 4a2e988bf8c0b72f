# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# perfrec on real boards' own defconfigs and device trees, on QEMU's models of their SoCs

"""A real board's U-Boot (its defconfig with configs/perfrec-board.config,
and the tests' fragments) booted on QEMU's model of its SoC with the
board's own device tree, as scripts/perfrec_run_tests.py's board cells do.
Nothing here is QEMU virt's: the interrupt controller, the timer's interrupt and the console are the
board's, found in its device tree. The perf.data leaves over the console
only ('perfrec dump', tools/perfrec/perfrec_extract.py), as on a board on a
desk, and host perf names, for every sample, the function of the ELF that
holds its address.
"""

import os
import re
import shutil
import subprocess

import pytest

from perfrec_data import PerfData, check_perf_stderr
from perfrec_helpers import (bdinfo, check_verdict, events, fetch, icount, perf, record,
                             registers, run_rc, stat, symbols, uart_data)

FALLBACK = re.compile(r'^perfrec: (.*); sampling cpu-clock at (\d+) Hz instead\s*$', re.M)
INTERRUPT = re.compile(r'^interrupt: (\w+), (INTID|local source) (\d+) from (\S+)\s*$', re.M)


def serial_only(cons):
    """The console on the UART alone: a board whose environment also has a
    video console would draw every dumped line there too"""
    for var in ('stdout', 'stderr'):
        if 'vidconsole' in cons.run_command(f'printenv {var}'):
            cons.run_command(f'setenv {var} serial')


def perf_lab(cons, path, args):
    """The trixie chroot's perf (7.3) on @path, when the run has the chroot
    (scripts/perfrec_lab_host.py run: PERFREC_LAB_ROOT), else None. The file
    is copied under the cell's result directory, which the run bind-mounts"""
    root = os.environ.get('PERFREC_LAB_ROOT')
    if not root:
        return None
    # The cell's own results (cells of one build run side by side), bind-mounted
    inside = os.path.join(cons.config.result_dir, 'perfrec-lab', os.path.basename(path))
    os.makedirs(os.path.dirname(inside), exist_ok=True)
    shutil.copy(path, inside)
    proc = subprocess.run(['chroot', root, 'env', 'HOME=/tmp', 'PAGER=cat', 'perf'] + args +
                          ['-i', inside, '--symfs=' + cons.config.build_dir],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    check_perf_stderr(proc.stderr)
    return proc.stdout


def elf_truth(cons):
    """A function from a link-time address to the names of the ELF's functions
    that hold it (every alias at that function's start)"""
    syms = symbols(cons)
    names = {}
    for name, (start, end) in syms.items():
        if end > start:
            names.setdefault(start, set()).add(name)
    starts = sorted(names)

    def truth(addr):
        for start in reversed(starts):
            if start <= addr:
                return {n for n in names[start] if addr < syms[n][1]}
        return set()

    return truth


def check_every_sample(cons, tmp_path, path, pdata):
    """perf names, for every sample, the ELF function that holds its address
    (any of the names at that function's start); the chroot's perf 7.3, when
    the run has it, names the same for each"""
    reloc = bdinfo(cons, 'reloc off')
    truth = elf_truth(cons)
    script = perf(tmp_path, ['script', '-i', path, '--symfs=' + cons.config.build_dir,
                             '-F', 'ip,sym'])
    lines = [line.split() for line in script.splitlines() if line.strip()]
    assert len(lines) == len(pdata.samples)
    for (addr, sym), sample in zip(lines, pdata.samples):
        assert int(addr, 16) == sample.ip
        assert sym in truth(sample.ip - reloc), (addr, sym, truth(sample.ip - reloc))
    newer = perf_lab(cons, path, ['script', '-F', 'ip,sym'])
    if newer is not None:
        assert [line.split() for line in newer.splitlines() if line.strip()] == lines
    return [sym for _, sym in lines]


# pylint: disable-next=too-many-locals,too-many-arguments
def default_record(cons, tmp_path, why, source, workload, el_num):
    """The user story on a board whose PMU interrupt cannot be used: the
    default event falls back to cpu-clock in one line (@why), the timer's
    interrupt is @source ('timer', 'INTID' or 'local source', its number,
    its node) at EL @el_num, exact under icount, and perfrec-verdict on the
    board's tree names the same; every register is given back, and perf
    names the true function of every sample, the loop of @workload on top"""
    serial_only(cons)
    before = registers(cons)
    res = record(cons, '', workload)
    match = FALLBACK.search(res['out'])
    assert match and match.group(1) == why, res['out']
    assert match.group(2) == '4000'
    assert registers(cons) == before
    match = INTERRUPT.search(cons.run_command('perfrec status'))
    assert match and match.groups() == source
    check_verdict(cons, tmp_path, el_num, source, why)
    count, period, late, counter = events(cons)['cpu-clock']
    assert counter == 32 and period == 250000
    if icount(cons):
        assert res['samples'] + late == count // period and late == 0
    assert res['samples'] > 20

    path, data = uart_data(cons, tmp_path, dump='perfrec dump -z')
    pdata = PerfData(data)
    assert len(pdata.samples) == res['samples'] and len(data) == res['size']
    named = check_every_sample(cons, tmp_path, path, pdata)
    assert named.count('crc32_no_comp') > 0.9 * len(named), named
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--sort', 'sym'])
    assert re.search(r"# Samples: \S+\s+of event 'cpu-clock'", report), report
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('rpi_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_raspi3b(ubman, tmp_path):
    """Raspberry Pi 3 B at EL2: its PMU and timer interrupts go through the
    BCM2836 local controller. QEMU does not route the PMU's: the default
    event falls back to cpu-clock naming source 9, and the EL2 timer
    (source 2) samples"""
    default_record(ubman, tmp_path,
                   '/arm-pmu: interrupt 9 (its "interrupts") never reached the local '
                   'interrupt controller when raised',
                   ('timer', 'local source', '2', '/timer'), 'crc32 0 0x1000000', 2)


def sunxi_record(cons, tmp_path):
    """An Allwinner board booted from its SD card: the boot ROM loads SPL,
    SPL loads U-Boot proper, which stays in Secure SVC mode. QEMU does not
    route the PMU's SPI 120: the default event falls back to cpu-clock, on
    the Secure physical timer (the tree's first interrupt, PPI 13), which is
    the verdict's EL3 part (Secure, as EL3 is on AArch64)"""
    default_record(cons, tmp_path,
                   '/pmu: interrupt 152 (its "interrupts") never reached the GIC when raised',
                   ('timer', 'INTID', '29', '/timer'), 'crc32 0x42000000 0x1000000', 3)


@pytest.mark.boardspec('orangepi_pc')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_orangepi_pc(ubman, tmp_path):
    """Orange Pi PC (Allwinner H3, GIC-400) from its SD card"""
    sunxi_record(ubman, tmp_path)


@pytest.mark.boardspec('Bananapi_M2_Ultra')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_bpim2u(ubman, tmp_path):
    """Banana Pi M2 Ultra (Allwinner R40, GIC-400) from its SD card"""
    sunxi_record(ubman, tmp_path)


@pytest.mark.boardspec('rpi_2')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_raspi2b(ubman, tmp_path):
    """Raspberry Pi 2 B (32-bit, SVC mode): as the Pi 3, its PMU and timer
    interrupts go through the BCM2836 local controller, which QEMU routes
    for the timer only: the default event falls back to cpu-clock naming
    source 9, and the non-secure physical timer (source 1) samples"""
    default_record(ubman, tmp_path,
                   '/arm-pmu: interrupt 9 (its "interrupts") never reached the local '
                   'interrupt controller when raised',
                   ('timer', 'local source', '1', '/timer'), 'crc32 0x1000000 0x1000000', 1)


# The BCM2837's peripherals as the ARM sees them: the first UART (a PL011,
# not the console here: serial_only()), whose transmit interrupt is the
# GPU's IRQ 57, and the ARM's interrupt controller (pending 2 at +0x08,
# enable IRQs 2 at +0x14, disable at +0x20), whose output is the local
# controller's GPU source. That controller is outside U-Boot's MMU map at
# the prompt.
RPI3_PL011 = 0x3f201000
RPI3_ARMCTRL = 0x3f00b200
RPI3_UART_IRQ = 1 << (57 - 32)


def word_at(cons, addr):
    """The 32-bit word at @addr, read with md.l"""
    return int(cons.run_command(f'md.l {addr:#x} 1').split()[1], 16)


@pytest.mark.boardspec('rpi_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_real_raspi3b_gpu_pending(ubman):
    """A GPU interrupt pending throughout a recording (the PL011's transmit
    interrupt, unmasked, enabled and never cleared): its level is not
    perfrec's to drop, and at the local controller its source (8) comes
    before the PMU's (9). The handler once took it for ever, and the
    workload never ended; now the GPU's interrupt is routed away from this
    core for the session, and back after (the register snapshot holds the
    routing)"""
    cons = ubman
    serial_only(cons)
    before = registers(cons)
    try:
        cons.run_command(f'mw.l {RPI3_ARMCTRL + 0x14:#x} {RPI3_UART_IRQ:#x}')
        cons.run_command(f'mw.l {RPI3_PL011 + 0x38:#x} 0x20')    # UARTIMSC: TXIM
        cons.run_command(f'mw.l {RPI3_PL011:#x} 0x2e')           # a '.' to send
        assert word_at(cons, RPI3_ARMCTRL + 8) & RPI3_UART_IRQ
        res = record(cons, '-e cpu-clock -c 100000', 'crc32 0 0x100000')
        assert res['rc'] == 0 and res['samples'] > 0, res['out']
        assert re.search(r'foreign: 0\b', cons.run_command('perfrec status'))
        assert registers(cons) == before
        assert word_at(cons, RPI3_ARMCTRL + 8) & RPI3_UART_IRQ
    finally:
        cons.run_command(f'mw.l {RPI3_PL011 + 0x38:#x} 0')
        cons.run_command(f'mw.l {RPI3_ARMCTRL + 0x20:#x} {RPI3_UART_IRQ:#x}')
    assert not word_at(cons, RPI3_ARMCTRL + 8) & RPI3_UART_IRQ


@pytest.mark.boardspec('xilinx_versal_virt')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_versal(ubman, tmp_path):
    """Versal virt at EL3 with a GICv3: its device tree has no PMU node, so
    the default event falls back to cpu-clock, on the Secure physical timer
    (PPI 13, INTID 29), taken as an FIQ in group 0"""
    default_record(ubman, tmp_path,
                   'no PMU node (compatible "arm,armv8-pmuv3" or a Cortex PMU\'s) in the '
                   'device tree',
                   ('timer', 'INTID', '29', '/timer'), 'crc32 0 0x1000000', 3)


@pytest.mark.boardspec('rpi_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_raspi4b(ubman, tmp_path):
    """Raspberry Pi 4 B at EL2 with its GIC-400, which bcm2711_mem_map leaves
    out of U-Boot's MMU map (the first read used to reset the board). The
    board's device tree names one SPI per CPU (INTID 48 on) for the PMU;
    QEMU raises it on PPI 7. So the default event falls back to cpu-clock in
    one line naming INTID 48; after the docs' fix at the prompt, cycles
    samples on PPI 7 (INTID 23)"""
    cons = ubman
    default_record(cons, tmp_path,
                   '/arm-pmu: interrupt 48 (its "interrupts") never reached the GIC when raised',
                   ('timer', 'INTID', '26', '/timer'), 'crc32 0 0x1000000', 2)

    cons.run_command('fdt addr $fdtcontroladdr')
    irqs = re.search(r'interrupts = (<[^>]*>)',
                     cons.run_command('fdt print /arm-pmu interrupts')).group(1)
    try:
        cons.run_command('fdt set /arm-pmu interrupts <1 7 4>')
        # The registers of PPI 7's configuration now, not INTID 48's
        before = registers(cons)
        res = record(cons, '-e cycles -c 100000', 'crc32 0 0x1000000')
        assert 'instead' not in res['out'] and 'perfrec: /' not in res['out'], res['out']
        match = INTERRUPT.search(cons.run_command('perfrec status'))
        assert match and match.groups() == ('PMU', 'INTID', '23', '/arm-pmu')
        check_verdict(cons, tmp_path, 2, match.groups())
        count, period, late, counter = events(cons)['cycles']
        assert counter == 31 and period == 100000
        if icount(cons):
            assert res['samples'] + late == count // period
        assert res['samples'] > 20
        assert registers(cons) == before
        path, data = uart_data(cons, tmp_path, 'cycles.data', 'perfrec dump -z')
        pdata = PerfData(data)
        assert len(pdata.samples) == res['samples']
        named = check_every_sample(cons, tmp_path, path, pdata)
        assert named.count('crc32_no_comp') > 0.9 * len(named), named
    finally:
        cons.run_command('fdt addr $fdtcontroladdr')
        cons.run_command(f'fdt set /arm-pmu interrupts {irqs}')
    assert 'ok' in cons.run_command('echo ok')


def refused(cons, cmd):
    """Run @cmd; return its output, which must be one line of text, with return code 1"""
    out, ret = run_rc(cons, cmd)
    lines = [line for line in out.splitlines() if line.strip()][:-1]
    assert ret == 1 and len(lines) == 1, out
    return lines[0]


# The Cortex-A9's cpu-clock: its global timer's comparator, PPI 11
A9_INTERRUPT = 'interrupt: timer, INTID 27 from the Cortex-A9 global timer'
A9_CLOCK = re.compile(r"^clock: the Cortex-A9 global timer, (\d+) Hz (?:as measured against "
                      r"U-Boot's timer|from its clock in the tree; U-Boot's timer measures "
                      r"(\d+) Hz)\s*$", re.M)
A9_CLOCKS_DIFFER = ("clock: the two differ by more than 2%: timestamps follow the tree, "
                    "not U-Boot's seconds")
# QEMU's global timer: a tick every 10 ns of its virtual clock, which under
# -icount shift=0 is also the A9 PMU's cycle counter's (1 GHz)
QEMU_GT_CYCLES = 10


def a9_list(cons, lab):
    """'perfrec list' on the A9: the core, its manual's events (instructions:
    its own 0x68), and which counters stand still: all on QEMU 7.2, which
    models the A9 PMU's registers only; the event counters on QEMU 11,
    which counts them in Secure state only with MDCR_EL3.SPME, which a v7
    core has not"""
    out, ret = run_rc(cons, 'perfrec list')
    assert ret == 0, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[0] == ("PMU: the Cortex-A9's PMUv1, 6 event counters of 32 bits, "
                        'cycle counter of 32 bits'), out
    if lab:
        assert lines[1].startswith('Its event counters stand still here (Secure state'), out
    else:
        assert lines[1].startswith('Its counters stand still: this PMU does not count'), out
    listed = {line.split()[0]: line.split()[2] for line in lines if line.startswith('  ')}
    assert listed['instructions'] == '0x0068' and listed['inst_renamed'] == '0x0068', out
    assert listed['branches'] == '0x000c' and 'inst_retired' not in listed, out
    assert 'bus-cycles' not in listed and listed['stall_icache'] == '0x0060', out


def a9_record(cons, tmp_path, lab, pmu, crc):
    """The default event on the A9: QEMU 7.2's PMU stands still, QEMU 11's
    interrupt (@pmu: node and INTID) is not wired; either way cpu-clock
    samples @crc on the global timer, exact under icount, and perf names
    the true function of every sample, brought over the UART alone; the
    same bytes come over semihosting.
    Returns the global timer's rate used, and the tree's clock's (None if
    the tree gives the timer no clock, and the rate is the one measured)"""
    res = record(cons, '', crc)
    why = (f'{pmu[0]}: interrupt {pmu[1]} (its "interrupts") never reached the GIC when raised'
           if lab else "the PMU's counters stand still (registers with no counter behind them)")
    match = FALLBACK.search(res['out'])
    assert match and match.groups() == (why, '4000'), res['out']
    out = cons.run_command('perfrec status')
    assert A9_INTERRUPT in out, out
    rates = a9_clock(out)
    count, period, late, counter = events(cons)['cpu-clock']
    # Whole ticks of the timer, whose rate is measured: within 0.1% of 250 us
    assert counter == 32 and abs(period - 250000) < 250, period
    if icount(cons):
        assert res['samples'] + late == count // period and late == 0
    assert res['samples'] > 20
    a9_data(cons, tmp_path, res)
    return rates


def a9_clock(out):
    """The clock 'perfrec status' (@out) names: the global timer's rate
    used, and the tree's clock's (None if the tree gives the timer no
    clock, and the rate is the one measured), which U-Boot's timer agrees
    with within 0.1%"""
    rate = A9_CLOCK.search(out)
    assert rate, out
    if rate.group(2) is None:
        return int(rate.group(1)), None
    used, measured = int(rate.group(1)), int(rate.group(2))
    assert abs(used - measured) < used // 1000 and A9_CLOCKS_DIFFER not in out, out
    return used, used


def a9_data(cons, tmp_path, res):
    """The recording @res over the UART alone: perf names the true function
    of every sample, the loop of crc32 on top; over semihosting the same bytes"""
    path, data = uart_data(cons, tmp_path, dump='perfrec dump -z')
    pdata = PerfData(data)
    assert len(pdata.samples) == res['samples'] and len(data) == res['size']
    named = check_every_sample(cons, tmp_path, path, pdata)
    assert named.count('crc32_no_comp') > 0.9 * len(named), named
    assert fetch(cons, tmp_path, 'semihosting.data')[1] == data


def a9_running_timer(cons, timer, crc):
    """A global timer (registers at @timer) that runs before the session, as
    U-Boot's own timer does on some boards, is neither stopped nor restarted
    (QEMU restarts its count when it is enabled): after a second's run, its
    count goes on through a recording, and every register is as before"""
    def count():
        return word_at(cons, timer) | word_at(cons, timer + 4) << 32

    try:
        cons.run_command(f'mw.l {timer + 8:#x} 1')
        before = registers(cons)
        assert 'reg GT_CONTROL = 0x1' in before, before
        cons.run_command('sleep 1')
        first = count()
        res = record(cons, '-e cpu-clock', crc)
        assert res['samples'] > 20, res['out']
        assert registers(cons) == before
        assert count() > first
    finally:
        cons.run_command(f'mw.l {timer + 8:#x} 0')


def a9_board(cons, tmp_path, board):
    """A Cortex-A9 board: see test_perfrec_real_vexpress_a9. @board: its
    PMU's node and INTID ('pmu'), the workload ('crc'), its global timer's
    registers ('timer'), and the name 'clk dump' gives the clock the tree
    gives the timer ('clock', None if it gives none). Returns, on QEMU 11,
    the cycles 'sleep 1' takes (a cycle a ns under icount), else None"""
    crc, clock = board['crc'], board['clock']
    lab = os.environ.get('PERFREC_QEMU_LAB') == '1'
    cycles = None
    serial_only(cons)
    before = registers(cons)
    assert 'reg GICD_CTLR = 0x0' in before, before
    assert any(reg.startswith('reg GT_CONTROL = ') for reg in before), before
    assert not any(reg.startswith('reg CNT') for reg in before), before
    assert 'reg PMOVSR = 0x0' in before and not any('PMCCFILTR' in reg for reg in before)
    a9_list(cons, lab)
    rate, tree = a9_record(cons, tmp_path, lab, board['pmu'], crc)
    assert registers(cons) == before
    assert (tree is None) == (clock is None), (tree, clock)
    if clock and cons.config.buildconfig.get('config_cmd_clk') == 'y':
        # The timer's prescaler is 0: the rate is its clock's, as U-Boot's clock driver says
        assert 'reg GT_CONTROL = 0x0' in before, before
        dump = re.search(rf'^\s*{clock}\s+(\d+)\s*$', cons.run_command('clk dump'), re.M)
        assert dump and int(dump.group(1)) == tree, dump

    res = record(cons, '-e cpu-clock -F 1000', 'sleep 1')
    assert abs(res['samples'] - 1000) <= 20, res['out']
    assert refused(cons, 'perfrec stat -e bus-cycles -- ' + crc) == \
        "Event 'bus-cycles' is not counted by the Cortex-A9 (its manual's list)"
    if lab:
        counts, _, ret = stat(cons, '-e cycles', 'sleep 1')
        cycles = counts['cycles']
        # The rate is the global timer's ticks in a second of U-Boot's timer
        assert ret == 0 and abs(cycles / QEMU_GT_CYCLES - rate) < rate // 50, (cycles, rate)
        assert refused(cons, 'perfrec stat -e instructions -- ' + crc) == (
            "perfrec: the PMU's event counters stand still here (Secure state, where they "
            'count only if the SoC asserts SPNIDEN): sample -e cpu-clock, or count cycles')
    else:
        assert refused(cons, 'perfrec stat -e cycles -- ' + crc) == (
            "perfrec: the PMU's counters stand still (registers with no counter behind "
            'them): sample -e cpu-clock')
    assert registers(cons) == before
    a9_running_timer(cons, board['timer'], crc)
    assert registers(cons) == before
    assert 'ok' in cons.run_command('echo ok')
    return cycles


@pytest.mark.boardspec('vexpress_ca9x4')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.buildconfigspec('cmd_sleep')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_vexpress_a9(ubman, tmp_path):
    """Versatile Express with a Cortex-A9 (GICv1, security extensions on): no
    generic timer, and a PMUv1 that ID_DFR0 does not show, known by MIDR.
    'perfrec status -v' snapshots what a session borrows without reading a
    generic-timer register or one a PMUv1 lacks (PMOVSSET, PMCCFILTR), the
    global timer's too; every session gives them back. Time and cpu-clock
    come from the global timer, its rate measured against U-Boot's timer
    (the SP804): -F 1000 over 'sleep 1' takes 1000 samples within 2%; a
    global timer that runs before a session is left running. On
    QEMU 11 the cycle counter (a cycle a nanosecond under icount) says the
    measured rate is the timer's true one, and that U-Boot's second is one.
    What does not count is refused in one line"""
    cycles = a9_board(ubman, tmp_path, {'pmu': ('/pmu', 92), 'crc': 'crc32 0x60000000 0x1000000',
                                        'timer': 0x1e000200, 'clock': None})
    if cycles is not None:
        assert abs(cycles - 10 ** 9) < 2 * 10 ** 7, cycles


@pytest.mark.boardspec('xilinx_zynq_virt')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.buildconfigspec('cmd_sleep')
@pytest.mark.requiredtool('perf')
def test_perfrec_real_zynq_a9(ubman, tmp_path):
    """Zynq-7000 (two Cortex-A9, their PMU SPIs in the tree, U-Boot's own
    timer the A9's private one): as Versatile Express. On QEMU's model
    U-Boot's timer runs slow: 'sleep 1' takes 1.083 s of QEMU's clock
    (U-Boot's clock driver and QEMU's model disagree on the private
    timer's rate), and perfrec, measured against it, keeps U-Boot's
    seconds: the tree gives the global timer a clock (cpu_3or2x), and its
    rate, which perfrec uses, is U-Boot's timer's too. Where the two
    disagree, the tree's rate is used and 'perfrec status' says so"""
    a9_board(ubman, tmp_path, {'pmu': ('/pmu@f8891000', 37), 'crc': 'crc32 0x10000000 0x1000000',
                               'timer': 0xf8f00200, 'clock': 'cpu_3or2x'})
    zynq_clock_doubled(ubman)


# Zynq-7000's SLCR: its lock and unlock registers and keys, its lock status,
# and the CPU clock's control
ZYNQ_SLCR_LOCK = (0xf8000004, 0x767b)
ZYNQ_SLCR_UNLOCK = (0xf8000008, 0xdf0d)
ZYNQ_SLCR_LOCKSTA = 0xf800000c
ZYNQ_ARM_CLK_CTRL = 0xf8000120
ZYNQ_ARM_CLK_DIV0 = 0x3f00


def zynq_clock_doubled(cons):
    """The CPU clock's divisor halved in the SLCR, as a wrong clock set-up
    would: U-Boot's clock driver doubles the timer's clock, which QEMU does
    not model; its own timer keeps the rate it had at probe. perfrec takes
    the tree's rate, says the two disagree, and takes half the samples in
    'sleep 1'"""
    ctrl = word_at(cons, ZYNQ_ARM_CLK_CTRL)
    locked = word_at(cons, ZYNQ_SLCR_LOCKSTA) & 1
    div = (ctrl & ZYNQ_ARM_CLK_DIV0) >> 8
    assert div % 2 == 0, hex(ctrl)
    try:
        cons.run_command(f'mw.l {ZYNQ_SLCR_UNLOCK[0]:#x} {ZYNQ_SLCR_UNLOCK[1]:#x}')
        cons.run_command(f'mw.l {ZYNQ_ARM_CLK_CTRL:#x} '
                         f'{ctrl & ~ZYNQ_ARM_CLK_DIV0 | (div // 2) << 8:#x}')
        res = record(cons, '-e cpu-clock -F 1000', 'sleep 1')
        out = cons.run_command('perfrec status')
        rate = A9_CLOCK.search(out)
        assert rate and rate.group(2) and A9_CLOCKS_DIFFER in out, out
        assert abs(int(rate.group(1)) - 2 * int(rate.group(2))) < int(rate.group(1)) // 500, out
        assert abs(res['samples'] - 500) <= 10, res['out']
    finally:
        cons.run_command(f'mw.l {ZYNQ_ARM_CLK_CTRL:#x} {ctrl:#x}')
        if locked:
            cons.run_command(f'mw.l {ZYNQ_SLCR_LOCK[0]:#x} {ZYNQ_SLCR_LOCK[1]:#x}')
    assert word_at(cons, ZYNQ_ARM_CLK_CTRL) == ctrl
    assert word_at(cons, ZYNQ_SLCR_LOCKSTA) & 1 == locked
