# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of perfrec-verdict: perfrec's device-tree rules over a board's DTB

"""tools/perfrec/perfrec_verdict.c with U-Boot's own device-tree code
(drivers/perf/perfrec_dt*.c, lib/perfrec/perfrec_boot_dt.c,
perfrec_irq_reason.c), built for the host with ASan and UBSan by the
Makefile's perfrec-verdict rule, run over QEMU's own DTBs (virt with a
GICv2 and a GICv3, with and without EL2; xlnx-versal-virt), the Raspberry
Pi 3 B and 4 B and three Cortex-A9 boards' device trees of U-Boot's tree,
and edits of them made with dtc. Its verdicts are what 'perfrec status' shows on those boards in
test/py/tests/test_perfrec_board.py and test_perfrec_real_board.py: the
same "INTID <n> from <node>" (or "local source <n> from <node>").
"""

import os
import re
import subprocess

import pytest

from conftest import HOSTCC, REPO, run, tool

SANITIZE = '-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all'
# What 'perfrec status' says of the interrupt: "INTID 23 from /pmu"
STATUS_IRQ = re.compile(r'(INTID|local source) (\d+) from (\S+?),?$')
# The part of the cpu-clock line for one EL
EL_PART = re.compile(r'EL(\d): (none: [^;]*|(?:INTID|local source) \d+ from [^ ;]+)')
# test_perfrec_real_versal's fallback: the reason perfrec gives for no PMU node
NO_PMU_NODE = ('no PMU node (compatible "arm,armv8-pmuv3" or a Cortex PMU\'s) in the '
               'device tree')
# QEMU virt's RAM at 0x40000000, 128 MiB by default
VIRT_RAM = 0x40000000


@pytest.fixture(scope='module')
def verdict(tmp_path_factory):
    """perfrec-verdict, built by the Makefile's rule with ASan and UBSan"""
    path = str(tmp_path_factory.mktemp('verdict') / 'perfrec-verdict')
    run([tool('make'), '-s', '-C', REPO, 'HOSTCC=' + tool(HOSTCC), 'VERDICT=' + path,
         'VERDICT_CFLAGS=' + SANITIZE, path])
    return path


def qemu_dtb(tmp_path, name, machine, *args):
    """The DTB QEMU writes for @machine (-machine ...,dumpdtb=)"""
    path = str(tmp_path / (name + '.dtb'))
    run([tool('qemu-system-aarch64'), '-machine', '%s,dumpdtb=%s' % (machine, path),
         '-nic', 'none', '-display', 'none'] + list(args))
    return path


@pytest.fixture(scope='module')
def dtbs(tmp_path_factory):
    """QEMU's own DTBs: virt with a GICv2, a GICv3, a GICv3 and EL2; Versal virt"""
    tmp = tmp_path_factory.mktemp('dtbs')
    return {
        'virt-gicv2': qemu_dtb(tmp, 'virt-gicv2', 'virt,gic-version=2', '-cpu', 'cortex-a57'),
        'virt-gicv3': qemu_dtb(tmp, 'virt-gicv3', 'virt,gic-version=3', '-cpu', 'cortex-a57'),
        'virt-gicv3-el2': qemu_dtb(tmp, 'virt-gicv3-el2', 'virt,gic-version=3,virtualization=on',
                                   '-cpu', 'cortex-a57'),
        'versal': qemu_dtb(tmp, 'versal', 'xlnx-versal-virt', '-m', '2G'),
    }


def board_dtb(tmp_path, name):
    """Board DTB @name: the rpi_arm64 board build's, else compiled from the
    U-Boot tree's arch/arm/dts with cpp and dtc as U-Boot does; skip if neither"""
    built = os.path.join(REPO, 'build', 'board_rpi_arm64', 'arch', 'arm', 'dts', name + '.dtb')
    if os.path.exists(built):
        return built
    srcs = [os.path.join(REPO, 'build', 'uboot', suite) for suite in
            sorted(os.listdir(os.path.join(REPO, 'build', 'uboot')))] \
        if os.path.isdir(os.path.join(REPO, 'build', 'uboot')) else []
    srcs = [src for src in srcs if os.path.exists(os.path.join(src, 'arch', 'arm', 'dts',
                                                               name + '.dts'))]
    if not srcs:
        pytest.skip('no %s.dtb: no rpi_arm64 board build and no U-Boot tree in build/uboot'
                    % name)
    dts = os.path.join(srcs[0], 'arch', 'arm', 'dts')
    pre = run([tool('cpp'), '-nostdinc', '-I', dts, '-I', os.path.join(dts, 'include'),
               '-I', os.path.join(srcs[0], 'include'), '-undef', '-D__DTS__',
               '-x', 'assembler-with-cpp', os.path.join(dts, name + '.dts')]).stdout
    path = str(tmp_path / (name + '.dtb'))
    run([tool('dtc'), '-q', '-I', 'dts', '-O', 'dtb', '-o', path, '-'], data=pre.encode())
    return path


def verdict_of(verdict, dtb, *args):
    """Run perfrec-verdict on @dtb, which must succeed in silence; its lines by key"""
    proc = run([verdict] + list(args) + [dtb])
    assert proc.stderr == '', proc.stderr
    lines = {}
    for line in proc.stdout.splitlines():
        key, _, val = line.partition(': ')
        if key.startswith('boot buffer'):
            key = 'boot buffer'
        assert key not in lines, proc.stdout
        lines[key] = val
    assert list(lines)[:5] == ['model', 'cpu 0', 'pmu', 'cpu-clock', 'sampler'], proc.stdout
    return lines


def status_irq(text):
    """('INTID', '23', '/pmu') of a verdict's "INTID 23 from /pmu, PPI 7 ..." """
    match = STATUS_IRQ.match(text.split(', ')[0])
    assert match, text
    return match.groups()


def timer_els(line):
    """The cpu-clock line's parts by EL: {2: ('INTID', '26', '/timer'), 3: 'none: ...'}"""
    parts = {}
    for el, part in EL_PART.findall(line):
        parts[int(el)] = part if part.startswith('none: ') else status_irq(part)
    assert sorted(parts) == [1, 2, 3], line
    return parts


def edited(tmp_path, dtb, edit, name='edited'):
    """@dtb decompiled by dtc, changed by @edit (dts text in, dts text out), compiled again"""
    dts = run([tool('dtc'), '-q', '-I', 'dtb', '-O', 'dts', dtb]).stdout
    new = edit(dts)
    assert new != dts
    path = str(tmp_path / (name + '.dtb'))
    run([tool('dtc'), '-q', '-I', 'dts', '-O', 'dtb', '-o', path, '-'], data=new.encode())
    return path


def drop_node(dts, name):
    """@dts without the top-level node @name (and what it holds)"""
    new = re.sub(r'\n\t%s \{.*?\n\t\};' % re.escape(name), '', dts, count=1, flags=re.S)
    assert new != dts, name
    return new


def add_nodes(dts, text):
    """@dts with @text (nodes) at the end of the root node"""
    return re.sub(r'\n\};\s*$', '\n' + text + '\n};\n', dts)


@pytest.mark.parametrize('name,gic', [('virt-gicv2', 'GICv2'), ('virt-gicv3', 'GICv3'),
                                      ('virt-gicv3-el2', 'GICv3')])
def test_verdict_virt(verdict, dtbs, name, gic):
    """QEMU virt (EL1 and, with virtualization=on, EL2): the PMU's PPI 7, which
    'perfrec status' shows as "interrupt: PMU, INTID 23 from /pmu"; the timer's
    PPI at each EL: the physical timer's at EL1, the hypervisor's at EL2"""
    lines = verdict_of(verdict, dtbs[name])
    assert lines['model'] == 'linux,dummy-virt'
    assert lines['cpu 0'] == '/cpus/cpu@0, affinity 0x0 (of 1 cpus)'
    assert status_irq(lines['pmu']) == ('INTID', '23', '/pmu')
    assert lines['pmu'] == 'INTID 23 from /pmu, PPI 7 of the %s /intc@8000000' % gic
    els = timer_els(lines['cpu-clock'])
    assert els == {1: ('INTID', '30', '/timer'), 2: ('INTID', '26', '/timer'),
                   3: ('INTID', '29', '/timer')}
    assert lines['cpu-clock'].endswith('; at the %s /intc@8000000' % gic)
    assert lines['sampler'] == 'PMU interrupt'


def test_verdict_raspi3b(verdict, tmp_path):
    """Raspberry Pi 3 B: the BCM2836 local controller's sources. At EL2
    'perfrec status' shows "interrupt: timer, local source 2 from /timer"
    (QEMU does not wire the PMU's source 9, which only the board can tell)"""
    lines = verdict_of(verdict, board_dtb(tmp_path, 'bcm2837-rpi-3-b'))
    assert lines['model'] == 'Raspberry Pi 3 Model B'
    assert status_irq(lines['pmu']) == ('local source', '9', '/arm-pmu')
    assert 'BCM2836 local controller /soc/local_intc@40000000' in lines['pmu']
    els = timer_els(lines['cpu-clock'])
    assert els[2] == ('local source', '2', '/timer')
    assert els[1] == ('local source', '1', '/timer')
    assert lines['sampler'] == 'PMU interrupt'


def test_verdict_raspi4b(verdict, tmp_path):
    """Raspberry Pi 4 B: its PMU's SPIs, one per CPU (CPU 0's: INTID 48, the
    one test_perfrec_real_raspi4b's fallback names), whose presence only
    GICD_TYPER can confirm; at EL2 "interrupt: timer, INTID 26 from /timer\""""
    lines = verdict_of(verdict, board_dtb(tmp_path, 'bcm2711-rpi-4-b'))
    assert lines['model'] == 'Raspberry Pi 4 Model B'
    assert status_irq(lines['pmu']) == ('INTID', '48', '/arm-pmu')
    assert 'SPI 16 of the GICv2 /soc/interrupt-controller@40041000' in lines['pmu']
    assert 'GICD_TYPER' in lines['pmu']
    assert timer_els(lines['cpu-clock'])[2] == ('INTID', '26', '/timer')


# What 'perfrec status' says of a Cortex-A9's cpu-clock, and the verdict's line for it
A9_TIMER = 'EL1: INTID 27 from the Cortex-A9 global timer (PPI 11); at the GICv2 %s'


@pytest.mark.parametrize('name,pmu,gic', [
    ('vexpress-v2p-ca9', 'INTID 92 from /pmu, SPI 60', '/interrupt-controller@1e001000'),
    ('zynq-zc702', 'INTID 37 from /pmu@f8891000, SPI 5', '/axi/interrupt-controller@f8f01000'),
    ('imx6q-sabrelite', 'INTID 126 from /pmu, SPI 94', '/soc/interrupt-controller@a01000')])
def test_verdict_cortex_a9(verdict, tmp_path, name, pmu, gic):
    """Cortex-A9 boards' own trees: the PMU's SPI for CPU 0 (one per CPU on
    Versatile Express and Zynq; on the i.MX6Q one, whose interrupt parent is
    the GPC, which passes it to the GIC unchanged), and cpu-clock on the
    A9's global timer, PPI 11, at the tree's GIC, in the words of
    test_perfrec_real_vexpress_a9's 'perfrec status'"""
    lines = verdict_of(verdict, board_dtb(tmp_path, name))
    assert lines['pmu'].startswith(pmu + ' of the GICv2 ' + gic + ", CPU 0's"), lines['pmu']
    assert lines['cpu-clock'] == A9_TIMER % gic
    assert lines['sampler'] == 'PMU interrupt'


def test_verdict_gpc_unknown(verdict, tmp_path):
    """The i.MX6Q's PMU under a GPC perfrec does not know as one that passes
    interrupts through: its parent is named, not followed"""
    dtb = edited(tmp_path, board_dtb(tmp_path, 'imx6q-sabrelite'),
                 lambda dts: dts.replace('"fsl,imx6q-gpc"', '"acme,gpc"'))
    lines = verdict_of(verdict, dtb)
    assert lines['pmu'].startswith('none: /pmu: its interrupt parent /soc/bus@2000000/gpc@20dc000 '
                                   '(compatible "acme,gpc") is not a GICv2/v3'), lines['pmu']


def test_verdict_versal(verdict, dtbs):
    """Versal virt: no PMU node, in perfrec's own words (test_perfrec_real_versal's
    fallback); at EL3 "interrupt: timer, INTID 29 from /timer\""""
    lines = verdict_of(verdict, dtbs['versal'])
    assert lines['pmu'] == 'none: ' + NO_PMU_NODE
    assert timer_els(lines['cpu-clock'])[3] == ('INTID', '29', '/timer')
    assert 'GICv3 /gic@f9000000' in lines['cpu-clock']
    assert lines['sampler'] == 'cpu-clock only (timer)'


def test_verdict_no_pmu_node(verdict, dtbs, tmp_path):
    """virt without its PMU node: cpu-clock on the timer, and the reason"""
    lines = verdict_of(verdict, edited(tmp_path, dtbs['virt-gicv3'],
                                       lambda dts: drop_node(dts, 'pmu')))
    assert lines['pmu'] == 'none: ' + NO_PMU_NODE
    assert lines['sampler'] == 'cpu-clock only (timer)'


def test_verdict_not_a_gic(verdict, dtbs, tmp_path):
    """A PMU whose interrupt parent is another controller; and a tree whose
    timer is gone too, where nothing can sample"""
    other = ('\tother-intc {\n\t\tcompatible = "vendor,other-intc";\n'
             '\t\tinterrupt-controller;\n\t\t#interrupt-cells = <0x03>;\n'
             '\t\tphandle = <0x7777>;\n\t};')

    def edit(dts):
        dts = add_nodes(dts, other)
        return re.sub(r'(\n\tpmu \{\n)', r'\1\t\tinterrupt-parent = <0x7777>;\n', dts)

    dtb = edited(tmp_path, dtbs['virt-gicv2'], edit)
    lines = verdict_of(verdict, dtb)
    assert lines['pmu'] == (
        'none: /pmu: its interrupt parent /other-intc (compatible "vendor,other-intc") is '
        'not a GICv2/v3 or a BCM2836 local controller, the only controllers perfrec supports')
    assert lines['sampler'] == 'cpu-clock only (timer)'

    lines = verdict_of(verdict, edited(tmp_path, dtb, lambda dts: drop_node(dts, 'timer'),
                                       'no-timer'))
    assert lines['cpu-clock'] == ('none: no timer node (compatible "arm,armv8-timer" or '
                                  '"arm,armv7-timer") in the device tree')
    assert lines['sampler'] == ('none: cpu-clock cannot sample: no timer node (compatible '
                                '"arm,armv8-timer" or "arm,armv7-timer") in the device tree')


def test_verdict_timer_spi(verdict, dtbs, tmp_path):
    """A timer node with a hypervisor entry that is an SPI: EL2 refused in
    perfrec's words, EL1 and EL3 kept"""
    def edit(dts):
        return re.sub(r'(\n\ttimer \{.*?interrupts = <)([^>]*)(>)',
                      lambda m: m.group(1) + ' '.join(
                          m.group(2).split()[:9] + ['0x00', '0x05', '0x04']) + m.group(3),
                      dts, count=1, flags=re.S)

    lines = verdict_of(verdict, edited(tmp_path, dtbs['virt-gicv3-el2'], edit))
    els = timer_els(lines['cpu-clock'])
    assert els[2] == ('none: /timer: its "interrupts" entry is not a PPI or SPI of this GIC')
    assert els[1] == ('INTID', '30', '/timer') and els[3] == ('INTID', '29', '/timer')
    assert lines['sampler'] == 'PMU interrupt'


def test_verdict_boot_buffer(verdict, dtbs, tmp_path):
    """The boot recording's buffer: in /memory and clear; over a
    /reserved-memory child; over a /memreserve/ entry; outside /memory;
    misaligned"""
    reserved = ('\treserved-memory {\n\t\t#address-cells = <0x02>;\n'
                '\t\t#size-cells = <0x02>;\n\t\tranges;\n\n'
                '\t\tfirmware@44000000 {\n\t\t\treg = <0x00 0x44000000 0x00 0x100000>;\n'
                '\t\t};\n\t};')

    def edit(dts):
        dts = add_nodes(dts, reserved)
        return dts.replace('/dts-v1/;\n', '/dts-v1/;\n\n/memreserve/ 0x46000000 0x10000;\n', 1)

    dtb = edited(tmp_path, dtbs['virt-gicv3'], edit)
    cases = [
        (VIRT_RAM + 0x1000000, 0x100000,
         'in /memory, clear of /memreserve/ and /reserved-memory'),
        (0x440ff000, 0x2000, 'overlaps /reserved-memory/firmware@44000000 '
         '(0x44000000-0x440fffff)'),
        (0x45ff0000, 0x20000, 'overlaps /memreserve/ 0x46000000-0x4600ffff of the device tree'),
        (VIRT_RAM + 0x7fff000, 0x2000, "is not in the device tree's /memory"),
        (VIRT_RAM + 0x800, 0x2000, 'is not 4 KiB aligned'),
    ]
    for addr, size, why in cases:
        lines = verdict_of(verdict, dtb, '--boot-addr', '%x' % addr, '--boot-size', '%x' % size)
        assert lines['boot buffer'] == why, (hex(addr), hex(size), lines)
    proc = run([verdict, '--boot-addr', '%x' % (VIRT_RAM + 0x1000000), '--boot-size', '1000',
                dtb])
    assert proc.stdout.splitlines()[-1] == ('boot buffer %#x+0x1000: in /memory, clear of '
                                            '/memreserve/ and /reserved-memory'
                                            % (VIRT_RAM + 0x1000000))


def test_verdict_bad_input(verdict, dtbs, tmp_path):
    """A truncated DTB, a file that is no DTB, a missing file: one line naming
    the file and why, exit 1, nothing on stdout"""
    with open(dtbs['virt-gicv2'], 'rb') as inf:
        data = inf.read()
    short = str(tmp_path / 'short.dtb')
    with open(short, 'wb') as outf:
        outf.write(data[:len(data) // 2])
    text = str(tmp_path / 'text.dtb')
    with open(text, 'w', encoding='utf-8') as outf:
        outf.write('/dts-v1/;\n/ { };\n')
    missing = str(tmp_path / 'missing.dtb')
    cases = [
        (short, 'truncated: %d bytes of the %d its header gives' % (len(data) // 2, len(data))),
        (text, 'not a device tree blob (no FDT magic)'),
        (missing, 'No such file or directory'),
    ]
    for path, why in cases:
        proc = run([verdict, path], check=False)
        assert proc.returncode == 1 and proc.stdout == '', proc
        assert proc.stderr == 'perfrec-verdict: %s: %s\n' % (path, why)
    proc = run([verdict, '--boot-addr', 'zz', '--boot-size', '1000', dtbs['virt-gicv2']],
               check=False)
    assert proc.returncode == 1 and proc.stderr.startswith('Usage: perfrec-verdict')


def test_verdict_same_code(verdict):
    """The tool links U-Boot's own rules, not a copy: their functions are in it"""
    syms = subprocess.run(['nm', verdict], capture_output=True, text=True, check=True).stdout
    for name in ('perfrec_dt_scan', 'perfrec_dt_kind', 'perfrec_dt_source_irq',
                 'pmuv3_read_irq', 'perfrec_timer_dt_irq', 'perfrec_gic_dt_check',
                 'perfrec_boot_dt_bad', 'perfrec_irq_reason'):
        assert re.search(r' T %s$' % name, syms, re.M), name
