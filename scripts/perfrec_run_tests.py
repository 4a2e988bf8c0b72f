#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Run perfrec's test/py tests over the QEMU matrix with U-Boot's own harness.

Usage:
    perfrec_run_tests.py --src <u-boot tree> --build-dir <dir> --result-dir <dir>
                         [--cell NAME]... [-k EXPR] [-j N]
                         [--early-build-dir <dir> --early-result-dir <dir>
                          --early-cell NAME...]
                         [--also-build NAME SRC BUILD_DIR RESULT_DIR CELL,...]...
                         [--also-early NAME SRC BUILD_DIR RESULT_DIR CELL,...]...
                         [--also-spl NAME SRC BUILD_DIR RESULT_DIR CELL,...]...
                         [--also-smallest NAME SRC BUILD_DIR RESULT_DIR CELL,...]...
                         [--also-arm32 NAME SRC BUILD_DIR RESULT_DIR CELL,...]...

Each cell boots QEMU virt in one configuration (EL, GIC version, icount, CPUs)
through the hook scripts in test/hooks and runs test/py/tests/test_perfrec*.py.
The tests whose proof does not differ between cells (perfrec_fixtures.py's
ONE_CELL) run in one of them only: --all-tests-in, by default el2-gicv3 when
it is in the run, else the first cell.
A cell passes only if tests ran, none failed and none was skipped: a missing
tool or config option must not turn into green. Exit code 0 when every cell
passes.

With --early-build-dir, the early-boot build's tests (-k perfrec_early) run
in its --early-cell cells too, in the same pool of -j cells at once: the
longest cell (the one with the one-cell tests) starts first and the short
early-boot cells come last, so that both cores stay busy to the end.
--also-build and --also-early add the cells of other releases' builds to the
same pool (make check-releases: one pool for every release's cells); each
build runs its own one-cell tests. --also-spl adds the SPL test vehicle's
cells (make build-spl: its tests and the whole-boot recording's, SPL_K),
--also-smallest the smallest build's (make build-smallest: its own tests,
test_perfrec_smallest.py, which no other build runs), --also-arm32 the
32-bit Arm build's (make build-arm32: qemu-system-arm, test_perfrec_arm32.py;
a build without SVC mode, make build-arm32-no-el1, runs there the one test
of its refusal).
"""

import argparse
import concurrent.futures
import os
import re
import selectors
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (-M machine, -icount, -smp, -cpu)
CELLS = {
    'el1-gicv2': ('virt', 'shift=0', 1, 'cortex-a57'),
    'el1-gicv3': ('virt,gic-version=3', 'shift=0', 2, 'cortex-a57'),
    'el2-gicv2': ('virt,virtualization=on', 'shift=0', 1, 'cortex-a57'),
    'el2-gicv3': ('virt,virtualization=on,gic-version=3', 'shift=0', 1, 'cortex-a57'),
    'el3-gicv2': ('virt,secure=on,virtualization=on', 'shift=0', 1, 'cortex-a57'),
    'el3-gicv3': ('virt,secure=on,virtualization=on,gic-version=3', 'shift=0', 1, 'cortex-a57'),
    'el2-gicv3-noicount': ('virt,virtualization=on,gic-version=3', '', 1, 'cortex-a57'),
    # PMUv3p5 (64-bit event counters); event counters interrupt on time with shift=1
    'el1-gicv3-max': ('virt,gic-version=3', 'shift=1', 1, 'max'),
}

# 32-bit Arm (qemu_arm_defconfig, make build-arm32) on QEMU virt through
# qemu-system-arm, its tests test_perfrec_arm32*: name: (-M machine, -icount,
# -cpu). The Cortex-A15's and A7's Armv7 PMU, whose node QEMU leaves empty,
# in SVC mode (PL1) with a GICv2; -cpu max, PMUv3 in AArch32, with a GICv3;
# Hyp mode, where U-Boot stays with virtualization=on; and Secure SVC, where
# it stays with secure=on (the GIC with its Security Extensions)
ARM32_CELLS = {
    'arm32-pl1-a15': ('virt', 'shift=0', 'cortex-a15'),
    'arm32-pl1-a7': ('virt', 'shift=0', 'cortex-a7'),
    'arm32-secure-a7': ('virt,secure=on', 'shift=0', 'cortex-a7'),
    'arm32-pl1-max-gicv3': ('virt,gic-version=3', 'shift=0', 'max'),
    'arm32-hyp-max': ('virt,virtualization=on', 'shift=0', 'max'),
}
ARM32_K = 'perfrec_arm32 and not perfrec_arm32_el_left_out'
# A 32-bit build without SVC mode (CONFIG_PERFREC_EL1, make
# build-arm32-no-el1) runs in SVC mode the one test of the refusal there
ARM32_EL_K = 'perfrec_arm32_el_left_out'

# Real boards' defconfigs on QEMU's models of their SoCs, with the board's own
# device tree: board type, -M machine, -icount, -m, console UART, and
# - dtb: booted as a kernel, with this device tree from the build's
#   arch/arm/dts (the Raspberry Pi's firmware passes it in x0);
# - appended: QEMU's own device tree for the machine appended to
#   u-boot-nodtb.bin, as CONFIG_OF_BOARD's board_fdt_blob_setup() finds it
#   at _end, loaded at CONFIG_TEXT_BASE and entered there at the CPU's
#   highest EL (Versal virt: U-Boot's xilinx-versal-virt.dts is empty; QEMU
#   puts its own at 0, where U-Boot does not look)
# - kernel: the image booted as a kernel (default u-boot.bin), with the
#   device tree the board's U-Boot embeds when there is no dtb
#   (vexpress_ca9x4: the ELF, as U-Boot's own CI boots it);
# - loader: the image (with its device tree) loaded at CONFIG_TEXT_BASE and
#   entered there (xilinx_zynq_virt: u-boot-dtb.bin, as U-Boot's own CI
#   boots it on xilinx-zynq-a9);
# - sd: the SD card image QEMU boots from (its boot ROM loads SPL, SPL
#   loads U-Boot proper), written by the build (scripts/perfrec_sd_image.py);
# - system: the QEMU program (default qemu-system-aarch64);
# - semihosting: QEMU runs with -semihosting, for "save hostfs";
# - lab: QEMU from the trixie chroot (make lab-host; QEMU 11), reached
#   through PERFREC_LAB_ROOT (perfrec_lab_host.py run), not bookworm's 7.2;
# - tests: the test_perfrec_real_<tests>* functions the cell runs.
RASPI3B = {'board': 'rpi_arm64', 'machine': 'raspi3b', 'icount': 'shift=0', 'mem': '1G',
           'serial': 1, 'dtb': 'bcm2837-rpi-3-b.dtb', 'tests': 'raspi3b'}
VERSAL = {'board': 'xilinx_versal_virt', 'machine': 'xlnx-versal-virt', 'icount': 'shift=0',
          'mem': '2G', 'serial': 0, 'appended': True, 'tests': 'versal'}
# A Cortex-A9 (GICv1, no generic timer, security extensions on)
VEXPRESS_A9 = {'board': 'vexpress_ca9x4', 'machine': 'vexpress-a9', 'icount': 'shift=0',
               'mem': '1G', 'serial': 0, 'kernel': 'u-boot', 'system': 'qemu-system-arm',
               'semihosting': True, 'tests': 'vexpress_a9'}
# A Zynq-7000: two Cortex-A9 (GICv1), U-Boot's own timer the A9's private one
ZYNQ_A9 = {'board': 'xilinx_zynq_virt', 'machine': 'xilinx-zynq-a9', 'icount': 'shift=0',
           'mem': '1G', 'serial': 1, 'loader': 'u-boot-dtb.bin', 'system': 'qemu-system-arm',
           'semihosting': True, 'tests': 'zynq_a9'}
# A Raspberry Pi 2 (BCM2836: four Cortex-A7 and the local controller, no
# GIC), booted as a kernel with its tree in r2: its test build links U-Boot
# where QEMU loads a raw image (configs/perfrec-board-test-rpi_2.config)
RASPI2B = {'board': 'rpi_2', 'machine': 'raspi2b', 'icount': 'shift=0', 'mem': '1G',
           'serial': 0, 'dtb': 'bcm2836-rpi-2-b.dtb', 'system': 'qemu-system-arm',
           'tests': 'raspi2b'}
# An Allwinner H3 (four Cortex-A7, GIC-400), booted from its SD card through
# SPL, U-Boot proper in Secure SVC mode. shift=4: SPL's __udelay() (sunxi's
# timer.c) takes two equal reads of the counter for a wrap, and at one
# instruction a ns every read is equal to the last, so it never returns
ORANGEPI_PC = {'board': 'orangepi_pc', 'machine': 'orangepi-pc', 'icount': 'shift=4',
               'mem': '1G', 'serial': 0, 'sd': 'perfrec-sd.img', 'system': 'qemu-system-arm',
               'tests': 'orangepi_pc'}
# The same on an Allwinner R40 (Banana Pi M2 Ultra): QEMU 8.1 brought the machine
BPIM2U = dict(ORANGEPI_PC, board='Bananapi_M2_Ultra', machine='bpim2u', tests='bpim2u',
              lab=True)
BOARD_CELLS = {
    'raspi3b': RASPI3B,
    'vexpress-a9': VEXPRESS_A9,
    'vexpress-a9-qemu11': dict(VEXPRESS_A9, lab=True),
    'xilinx-zynq-a9': ZYNQ_A9,
    'xilinx-zynq-a9-qemu11': dict(ZYNQ_A9, lab=True),
    'versal': VERSAL,
    'raspi3b-qemu11': dict(RASPI3B, lab=True),
    'versal-qemu11': dict(VERSAL, lab=True),
    'orangepi-pc': ORANGEPI_PC,
    'orangepi-pc-qemu11': dict(ORANGEPI_PC, lab=True),
    'bpim2u': BPIM2U,
    'raspi2b': RASPI2B,
    'raspi2b-qemu11': dict(RASPI2B, lab=True),
    # shift=4: the board's preboot 'usb start' waits seconds of its time in
    # delay loops, at one instruction a ns too slow for 2023.01's test/py,
    # which gives U-Boot 30 s of the host's time to its prompt
    'raspi4b': {'board': 'rpi_arm64', 'machine': 'raspi4b', 'icount': 'shift=4', 'mem': '2G',
                'serial': 1, 'dtb': 'bcm2711-rpi-4-b.dtb', 'tests': 'raspi4b', 'lab': True},
}


def board_k(cell):
    """The tests a real board's cell runs: test_perfrec_real_<tests>*"""
    return 'perfrec_real_' + BOARD_CELLS[cell]['tests']


def qemu(cell):
    """The QEMU command of a board cell: bookworm's, or the chroot's"""
    system = cell.get('system', 'qemu-system-aarch64')
    if not cell.get('lab'):
        return [system]
    root = os.environ.get('PERFREC_LAB_ROOT')
    if not root:
        raise SystemExit('perfrec_run_tests: a QEMU 11 cell needs the trixie chroot: run it '
                         'under scripts/perfrec_lab_host.py run (make check-real-boards)')
    return ['chroot', root, system]


# The early-boot build's tests (-k), and the SPL test vehicle's: its own and
# the whole-boot recording's names and readers, with U-Boot proper linked
# and loaded at CONFIG_TEXT_BASE in DRAM
EARLY_K = 'perfrec_early'
SPL_K = 'perfrec_spl or perfrec_early_boot_whole or perfrec_early_boot_readers'
# The smallest build's (bench/variants/smallest.config), which no other runs:
# at EL2 all but the one about an EL it leaves out, which runs at the others
SMALLEST_K = 'perfrec_smallest and not perfrec_smallest_el_left_out'
SMALLEST_EL_K = 'perfrec_smallest_el_left_out'


def smallest_k(cell):
    """The smallest build's tests in @cell"""
    return SMALLEST_K if cell.startswith('el2-') else SMALLEST_EL_K


def arm32_k(build):
    """The tests a 32-bit build's cells run: ARM32_EL_K if it leaves SVC mode out"""
    with open(os.path.join(build, '.config'), encoding='utf-8') as inf:
        left_out = '# CONFIG_PERFREC_EL1 is not set' in inf.read().splitlines()
    return ARM32_EL_K if left_out else ARM32_K


def all_tests_cell(cells):
    """The cell of @cells that runs the one-cell tests by default"""
    return 'el2-gicv3' if 'el2-gicv3' in cells else cells[0]


class Job:
    """One cell of one build: where its results go, which tests it runs"""

    def __init__(self, name, src, build_dir, result_dir, k, all_tests, label):
        self.name = name
        self.src = src
        self.build_dir = build_dir
        self.result_dir = result_dir
        self.k = k
        self.all_tests = all_tests
        self.label = label


def text_base(build):
    """CONFIG_TEXT_BASE (CONFIG_SYS_TEXT_BASE before 2022.10) of a build"""
    with open(os.path.join(build, '.config'), encoding='utf-8') as inf:
        match = re.search(r'^CONFIG_(?:SYS_)?TEXT_BASE=(0x[0-9a-fA-F]+)$', inf.read(), re.M)
    if not match:
        raise ValueError('%s/.config: no CONFIG_TEXT_BASE' % build)
    return int(match.group(1), 16)


def appended_image(build, cell):
    """u-boot-nodtb.bin with QEMU's device tree for @cell's machine at its
    end, written into @build; return 'FILE@ADDR' for the console hook"""
    dtb = os.path.join(build, 'perfrec-qemu.dtb')
    image = os.path.join(build, 'perfrec-qemu.bin')
    subprocess.run(qemu(cell) + ['-M', cell['machine'], '-m', cell['mem'],
                                 '-machine', 'dumpdtb=' + dtb, '-display', 'none'],
                   capture_output=True, check=True)
    with open(image, 'wb') as outf:
        for part in (os.path.join(build, 'u-boot-nodtb.bin'), dtb):
            with open(part, 'rb') as inf:
                outf.write(inf.read())
    return '%s@%#x' % (image, text_base(build))


def cell_env(job):
    """The console hook's environment for @job's cell, and the board type"""
    name = job.name
    if name in BOARD_CELLS:
        cell = BOARD_CELLS[name]
        build = os.path.abspath(job.build_dir)
        env = {'PERFREC_QEMU_MACHINE': cell['machine'], 'PERFREC_QEMU_ICOUNT': cell['icount'],
               'PERFREC_QEMU_MEM': cell['mem'], 'PERFREC_QEMU_SERIAL': str(cell['serial']),
               'PERFREC_SPL': '0', 'PERFREC_QEMU_LAB': '1' if cell.get('lab') else '',
               'PERFREC_QEMU_SEMIHOSTING': '1' if cell.get('semihosting') else ''}
        if cell.get('sd'):
            env['PERFREC_QEMU_SD'] = os.path.join(build, cell['sd'])
        elif cell.get('appended'):
            env['PERFREC_QEMU_LOADER'] = appended_image(build, cell)
        elif cell.get('loader'):
            env['PERFREC_QEMU_LOADER'] = '%s@%#x' % (os.path.join(build, cell['loader']),
                                                     text_base(build))
        else:
            env['PERFREC_QEMU_KERNEL'] = os.path.join(build, cell.get('kernel', 'u-boot.bin'))
        if cell.get('dtb'):
            env['PERFREC_QEMU_DTB'] = os.path.join(build, 'arch/arm/dts', cell['dtb'])
        if cell.get('system'):
            env['PERFREC_QEMU_SYSTEM'] = cell['system']
        return cell['board'], env
    if name in ARM32_CELLS:
        machine, icount, cpu = ARM32_CELLS[name]
        return 'qemu_arm', {
            'PERFREC_QEMU_SYSTEM': 'qemu-system-arm', 'PERFREC_QEMU_MACHINE': machine,
            'PERFREC_QEMU_ICOUNT': icount, 'PERFREC_QEMU_CPU': cpu,
            'PERFREC_QEMU_MEM': '512M', 'PERFREC_SPL': '0'}
    machine, icount, smp, cpu = CELLS[name]
    return 'qemu_arm64', {
        'PERFREC_QEMU_MACHINE': machine, 'PERFREC_QEMU_ICOUNT': icount,
        'PERFREC_QEMU_SMP': str(smp), 'PERFREC_QEMU_CPU': cpu,
        # The SPL test vehicle's flash: test/py waits for SPL's banner
        'PERFREC_SPL': '1' if os.path.exists(os.path.join(job.build_dir,
                                                          'perfrec-flash.bin')) else '0'}


# How long a real board may take to print U-Boot's banner (seconds of host
# time: QEMU 7.2's raspi3b under icount takes about 2)
BOOT_CHECK_SECS = 60
# The QEMU release that brought a machine, for the line that says it is missing
MACHINE_SINCE = {'raspi4b': '9.0', 'raspi3b': '5.2', 'bpim2u': '8.1'}


def hook_env(job, extra):
    """The environment of the console hook and test/py for @job"""
    return dict(os.environ,
                PATH=os.path.join(TOP, 'test/hooks/bin') + ':/usr/bin:/bin:' +
                os.environ.get('PATH', ''),
                PYTHONPATH=os.path.join(TOP, 'test/hooks/py'),
                PYTHONDONTWRITEBYTECODE='1',
                PERFREC_CELL=job.name,
                PERFREC_ALL_TESTS='1' if job.all_tests else '0',
                PERFREC_NPM_DIR=os.path.join(TOP, 'tools/perfrec/flamegraph'), **extra)


def boot_check(job, env, secs=BOOT_CHECK_SECS):
    """Boot a real board's cell once through the console hook; return None if
    U-Boot's banner comes, else one line naming the likely cause (test/py
    would only time out)"""
    cell = BOARD_CELLS[job.name]
    dtb = env.get('PERFREC_QEMU_DTB')
    if dtb and not os.path.exists(dtb):
        return ('%s: no such device tree: %s takes its device tree from x0, which QEMU '
                'sets only with -dtb' % (dtb, cell['board']))
    card = env.get('PERFREC_QEMU_SD')
    if card and not os.path.exists(card):
        return ('%s: no such SD card image: the board\'s build writes it '
                '(scripts/perfrec_sd_image.py)' % card)
    proc = subprocess.run(qemu(cell) + ['-machine', 'help'], capture_output=True, text=True,
                          check=False)
    if not re.search(r'^%s\s' % re.escape(cell['machine']), proc.stdout, re.M):
        version = subprocess.run(qemu(cell) + ['--version'], capture_output=True, text=True,
                                 check=False).stdout.split('\n', 1)[0]
        return ('%s has no machine %r%s: the -qemu11 cells and raspi4b run the trixie '
                'chroot\'s QEMU 11 (make lab-host)' %
                (version or 'this QEMU', cell['machine'],
                 ' (QEMU %s brought it)' % MACHINE_SINCE[cell['machine']]
                 if cell['machine'] in MACHINE_SINCE else ''))
    with subprocess.Popen(['u-boot-test-console'], env=env, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as hook:
        out = b''
        sel = selectors.DefaultSelector()
        sel.register(hook.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + secs
        while b'U-Boot 20' not in out and time.monotonic() < deadline:
            if sel.select(timeout=deadline - time.monotonic()):
                chunk = os.read(hook.stdout.fileno(), 4096)
                if not chunk:
                    break
                out += chunk
        hook.kill()
        err = hook.stderr.read().decode(errors='replace').strip()
    if b'U-Boot 20' in out:
        return None
    if err:
        return 'QEMU stopped before U-Boot\'s banner: %s' % err.splitlines()[0]
    if not out:
        return ('no output in %d s: %s takes its device tree from x0 (QEMU sets it with '
                '-dtb) and its console is UART %d' % (secs, cell['board'], cell['serial']))
    return 'no U-Boot banner in %d s; the console printed: %r' % (secs, out[-200:])


def run_cell(job):
    """Run the tests in one cell; return (label, ok, summary, seconds)"""
    name = job.name
    board, hook_vars = cell_env(job)
    result_dir = os.path.join(os.path.abspath(job.result_dir), name)
    os.makedirs(result_dir, exist_ok=True)
    junit = os.path.join(result_dir, 'junit.xml')
    if os.path.exists(junit):
        os.remove(junit)
    env = hook_env(job, hook_vars)
    start = time.time()
    if name in BOARD_CELLS:
        why = boot_check(job, env)
        if why:
            return job.label, False, 'does not boot: ' + why, time.time() - start
    cmd = ['/usr/bin/python3', os.path.join(job.src, 'test/py/test.py'),
           '--bd', board, '--build-dir', os.path.abspath(job.build_dir),
           '--result-dir', result_dir,
           '--persistent-data-dir', os.path.join(result_dir, 'persistent'),
           # Each test's files (its perf.data) stay with the cell's results,
           # for the judges that read them again (perfrec_perf_versions.py)
           '--basetemp', os.path.join(result_dir, 'tmp'),
           '-p', 'no:cacheprovider', '-p', 'perfrec_fixtures', '-q', '--junitxml', junit,
           # perfrec's tests; not U-Boot's test_ut.py, which runs each 'ut'
           # test on its own, and so perfrec's (test_perfrec_ut.py runs them);
           # QEMU virt deselects the real boards' (a skip would fail the cell)
           '-k', 'perfrec and not test_ut' +
           ('' if name in BOARD_CELLS else ' and not perfrec_real') +
           ('' if name in ARM32_CELLS else ' and not perfrec_arm32') +
           ('' if job.k in (SMALLEST_K, SMALLEST_EL_K) else ' and not perfrec_smallest') +
           (' and (%s)' % job.k if job.k else '')]
    with open(os.path.join(result_dir, 'pytest.out'), 'w', encoding='utf-8') as out:
        ret = subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                             check=False).returncode
    secs = time.time() - start
    if not os.path.exists(junit):
        return job.label, False, 'no results (pytest exit %d)' % ret, secs
    suite = ET.parse(junit).getroot()
    if suite.tag == 'testsuites':
        suite = suite[0]
    tests, fails, errors, skips = (int(suite.get(k, 0)) for k in
                                   ('tests', 'failures', 'errors', 'skipped'))
    ok = ret == 0 and tests > 0 and not fails and not errors and not skips
    summary = '%d tests, %d failed, %d errors, %d skipped' % (tests, fails, errors, skips)
    if job.all_tests:
        summary += ', with the one-cell tests'
    if skips:
        summary += ' (skipped tests count as failures)'
    return job.label, ok, summary, secs


def make_jobs(args, cells):
    """The pool's jobs, in the order they start: the cells with the one-cell
    tests (the longest) first, so that the others fill the pool beside them,
    and the short early-boot cells last"""
    jobs = [Job(c, args.src, args.build_dir, args.result_dir,
                board_k(c) if c in BOARD_CELLS else args.k, c == args.all_tests_in, c)
            for c in cells]
    jobs += [Job(c, args.src, args.early_build_dir, args.early_result_dir, EARLY_K, False,
                 c + ' (early)') for c in args.early_cell or []]
    for name, src, build_dir, result_dir, also in args.also_build:
        also = also.split(',')
        one = all_tests_cell(also)
        jobs += [Job(c, src, build_dir, result_dir, board_k(c) if c in BOARD_CELLS else args.k,
                     c == one and c not in BOARD_CELLS, f'{c} ({name})') for c in also]
    for name, src, build_dir, result_dir, also in args.also_early:
        jobs += [Job(c, src, build_dir, result_dir, EARLY_K, False,
                     f'{c} ({name}, early)') for c in also.split(',')]
    for name, src, build_dir, result_dir, also in args.also_spl:
        jobs += [Job(c, src, build_dir, result_dir, SPL_K, False,
                     f'{c} ({name}, SPL)') for c in also.split(',')]
    for name, src, build_dir, result_dir, also in args.also_arm32:
        jobs += [Job(c, src, build_dir, result_dir, arm32_k(build_dir), False,
                     f'{c} ({name}, 32-bit)') for c in also.split(',')]
    for name, src, build_dir, result_dir, also in args.also_smallest:
        jobs += [Job(c, src, build_dir, result_dir, smallest_k(c), False,
                     f'{c} ({name}, smallest)') for c in also.split(',')]
    jobs.sort(key=lambda j: 0 if j.all_tests else
              2 if j.k in (EARLY_K, SPL_K, SMALLEST_K, SMALLEST_EL_K, ARM32_EL_K) else 1)
    return jobs


def main(argv=None):
    """Run the matrix; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--src', help='overlaid U-Boot source tree')
    parser.add_argument('--build-dir', help='U-Boot build directory')
    parser.add_argument('--result-dir', help='where logs go')
    parser.add_argument('--real-only', action='store_true',
                        help='run only the --also-build cells (make check-real-boards: '
                        'each real board\'s build has its own) or --also-arm32 cells (make '
                        'check-arm32), no --src, --build-dir or --result-dir')
    parser.add_argument('--cell', action='append', choices=sorted(CELLS) + sorted(BOARD_CELLS),
                        help='run only this cell (repeatable); default: all of the '
                        'QEMU virt matrix. A real board\'s cell (%s) runs its build\'s '
                        'test_perfrec_real_<cell> tests' % ', '.join(sorted(BOARD_CELLS)))
    parser.add_argument('-k', help='extra pytest -k expression')
    parser.add_argument('--all-tests-in', metavar='CELL', choices=sorted(CELLS),
                        help='the cell that also runs the one-cell tests '
                        '(default: el2-gicv3 if run, else the first)')
    parser.add_argument('-j', type=int, default=2, help='cells run at once (default 2)')
    parser.add_argument('--early-build-dir',
                        help='the early-boot build, whose tests (-k perfrec_early) run too')
    parser.add_argument('--early-result-dir', help='where its logs go')
    parser.add_argument('--early-cell', action='append', choices=sorted(CELLS),
                        help='a cell for the early-boot build (repeatable)')
    for opt, what in (('--also-build', "another release's test build"),
                      ('--also-early', "another release's early-boot build"),
                      ('--also-spl', "an SPL test vehicle's build"),
                      ('--also-smallest', 'the smallest build'),
                      ('--also-arm32', 'the 32-bit Arm build (cells %s)' %
                       ', '.join(sorted(ARM32_CELLS)))):
        parser.add_argument(opt, action='append', nargs=5, default=[],
                            metavar=('NAME', 'SRC', 'BUILD_DIR', 'RESULT_DIR', 'CELLS'),
                            help='cells (comma-separated) of %s, in the same pool '
                            '(repeatable)' % what)
    args = parser.parse_args(argv)
    # The tests compare perfrec-verdict (make perfrec-verdict) with what perfrec arms
    os.environ.setdefault('PERFREC_VERDICT', os.path.join(TOP, 'build', 'host',
                                                          'perfrec-verdict'))
    if args.real_only != (not (args.src and args.build_dir and args.result_dir)):
        parser.error('--src, --build-dir and --result-dir are needed, without --real-only')
    if args.real_only and (args.cell or args.early_build_dir or
                           not (args.also_build or args.also_arm32)):
        parser.error('--real-only runs --also-build or --also-arm32 cells only')
    if bool(args.early_build_dir) != bool(args.early_cell) or \
            bool(args.early_build_dir) != bool(args.early_result_dir):
        parser.error('--early-build-dir, --early-result-dir and --early-cell go together')
    for name, _, _, _, cells in (args.also_build + args.also_early + args.also_spl +
                                 args.also_smallest):
        for cell in cells.split(','):
            if cell not in CELLS and cell not in BOARD_CELLS:
                parser.error('%s: cell %r: not one of %s' %
                             (name, cell, ', '.join(sorted(CELLS) + sorted(BOARD_CELLS))))
    for name, _, _, _, cells in args.also_arm32:
        for cell in cells.split(','):
            if cell not in ARM32_CELLS:
                parser.error('%s: cell %r: not one of %s' %
                             (name, cell, ', '.join(sorted(ARM32_CELLS))))

    cells = [] if args.real_only else args.cell or list(CELLS)
    if args.real_only:
        args.all_tests_in = None
    elif not args.all_tests_in:
        args.all_tests_in = all_tests_cell(cells)
        if args.all_tests_in in BOARD_CELLS:
            args.all_tests_in = None
    elif args.all_tests_in not in cells:
        parser.error('--all-tests-in %s: not one of the cells run' % args.all_tests_in)
    jobs = make_jobs(args, cells)
    width = max(len(j.label) for j in jobs)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        for job, (label, ok, summary, secs) in zip(jobs, pool.map(run_cell, jobs)):
            print('%-*s %-4s %s in %.0f s' % (width, label, 'ok' if ok else 'FAIL', summary,
                                             secs), flush=True)
            if not ok:
                failed.append(job)
    for job in failed:
        print('perfrec: cell %s failed: see %s' %
              (job.label, os.path.join(job.result_dir, job.name, 'pytest.out')))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
