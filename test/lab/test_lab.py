# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""make check-lab: perfrec_lab.py on a real labgrid lab on loopback.

The lab (scripts/perfrec_loopback_lab.py) is labgrid 26's coordinator,
exporter (with ser2net) and pdudaemon from the trixie chroot, in this
network namespace (make check-lab runs pytest under 'unshare -n'). Its
places boot QEMU virt and real boards' builds (make build, make
check-real-boards' board builds) on QEMU 11. The gate's places run under
-icount, so that an unchanged board compares exactly; one place runs
without it and shows the threshold's margin against false alarms.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
# pylint: disable-next=wrong-import-position
from perfrec_loopback_lab import EXPORTER_GROUP, Lab, marked  # noqa: E402
# pylint: disable-next=wrong-import-position
from perfrec_run_tests import Job, cell_env, hook_env  # noqa: E402

BUILD = os.path.join(TOP, 'build')
WORK = os.path.join(BUILD, 'lab-run')
VIRT = os.path.join(BUILD, 'qemu_arm64_perfrec')
EARLY = os.path.join(BUILD, 'qemu_arm64_perfrec_early')
# The boards' builds: make check-boards' on the newest release (make check-lab
# names them), else the default release's
RPI = os.environ.get('PERFREC_LAB_RPI', os.path.join(BUILD, 'board_rpi_arm64'))
VERSAL = os.environ.get('PERFREC_LAB_VERSAL', os.path.join(BUILD, 'board_xilinx_versal_virt'))
# The gate's places (tag gate=yes, all under -icount), the margin's place
# (no -icount) and a place whose image is broken for a fault
PLACES = [
    ('virt-el2-gicv3', 'el2-gicv3', VIRT, {'gate': 'yes'}),
    ('virt-el1-gicv2', 'el1-gicv2', VIRT, {'gate': 'yes'}),
    ('virt-el3-gicv3', 'el3-gicv3', VIRT, {'gate': 'yes'}),
    ('rpi3', 'raspi3b', RPI, {'gate': 'yes'}),
    ('rpi4', 'raspi4b', RPI, {'gate': 'yes'}),
    ('versal', 'versal', VERSAL, {'gate': 'yes'}),
    ('virt-noicount', 'el2-gicv3-noicount', VIRT, {}),
    ('virt-broken', 'el1-gicv3', VIRT, {}),
    ('virt-boot', 'el2-gicv3', EARLY, {}),
]
GATED = [name for name, _, _, tags in PLACES if tags.get('gate')]
WORKLOAD = 'crc32 0 0x1000000; cmp.b 0 0 0x100000'
# The planted regression: one board's crc32 covers a quarter more
PLANTED = ('virt-el1-gicv2', 'crc32_no_comp', 'crc32 0 0x1400000; cmp.b 0 0 0x100000')
# The gate: exact places need no margin; the one without -icount moves by
# about 5 points of share between two recordings (QEMU's clock is the
# host's), which this threshold leaves room for
FAIL_ABOVE = 10.0
# A boot under -icount is not exact in the lab: U-Boot's UART output waits on
# the console relay's pace (host time); two boots differ by about 0.5%
BOOT_FAIL_ABOVE = 2.0
SERIAL_ONLY = 'setenv stdout serial; setenv stderr serial'
COMMON = ['--build', VIRT, '--build', 'rpi3=' + RPI, '--build', 'rpi4=' + RPI,
          '--build', 'versal=' + VERSAL, '--console-init', 'rpi3=' + SERIAL_ONLY,
          '--console-init', 'rpi4=' + SERIAL_ONLY, '--workload', WORKLOAD,
          # A fixed period: each sample counts the same events, so that an
          # unchanged board's recording is the same, event for event
          '--record-opts', '-c 250000']


def root():
    """The trixie chroot (perfrec_lab_host.py run sets it)"""
    path = os.environ.get('PERFREC_LAB_ROOT', '')
    assert os.path.exists(os.path.join(path, '.perfrec-lab-host')), \
        'PERFREC_LAB_ROOT=%r: run under scripts/perfrec_lab_host.py run' % path
    return path


@pytest.fixture(scope='module', name='lab')
def fixture_lab():
    """The lab, up for this module's tests; torn down and checked after them"""
    for build in (VIRT, EARLY, RPI, VERSAL):
        assert os.path.exists(os.path.join(build, 'u-boot')), build + ': not built'
    os.makedirs(WORK, exist_ok=True)
    lab = Lab(root(), os.path.join(WORK, 'lab'), PLACES)
    if os.path.exists(lab.work):
        subprocess.run(['rm', '-rf', lab.work], check=True)
    lab.start()
    yield lab
    assert lab.stop() == []
    assert not marked(lab.run_id)


def perfrec_lab(lab, *args, env=None, timeout=600):
    """tools/perfrec/perfrec_lab.py @args in the chroot, as a lab user runs it"""
    cmd = ['chroot', lab.root, 'env', '-C', TOP, 'python3', 'tools/perfrec/perfrec_lab.py']
    proc = subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **lab.client_env(), **(env or {})),
                          check=False)
    sys.stderr.write(proc.stderr)
    return proc


def summary(out):
    """{place: (code, summary)} from OUT/summary.txt, and its last line"""
    with open(os.path.join(out, 'summary.txt'), encoding='utf-8') as inf:
        lines = inf.read().splitlines()
    return {line.split('\t')[0]: (int(line.split('\t')[1]), line.split('\t')[2])
            for line in lines if not line.startswith('#')}, lines[-1]


def note(text):
    """A line for make check-lab's report (build/lab-run/report.txt)"""
    with open(os.path.join(WORK, 'report.txt'), 'a', encoding='utf-8') as outf:
        outf.write(text + '\n')


def test_lab_nothing_acquired_at_start(lab):
    """The lab's places exist with their tags, and nobody holds one"""
    assert lab.acquired() == []
    out = lab.client('-v', 'places').stdout
    for name, _, _, tags in PLACES:
        assert "Place '%s':" % name in out
    assert out.count('gate=yes') == len(GATED)


def test_lab_gate(lab):
    """Six places recorded (--jobs 1), again (--jobs 2) with a regression
    planted on one board: the gate names that board and that function only;
    every other board's recording is the same, event for event"""
    base = os.path.join(WORK, 'base')
    new = os.path.join(WORK, 'new')
    start = time.monotonic()
    proc = perfrec_lab(lab, '-o', base, '--jobs', '1', *COMMON, 'gate=yes')
    secs1 = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    results, _ = summary(base)
    assert sorted(results) == sorted(GATED)
    for place in GATED:
        assert results[place][0] == 0, results[place]
        for name in ('perf.data', 'symfs/u-boot', 'report.txt', 'console.log'):
            assert os.path.exists(os.path.join(base, place, name)), (place, name)
        # perf 7.3 names the workload's function as the hottest, as it is
        assert 'hottest crc32_no_comp' in results[place][1], (place, results[place])
    start = time.monotonic()
    proc = perfrec_lab(lab, '-o', new, '--jobs', '2', *COMMON,
                       '--workload', '%s=%s' % (PLANTED[0], PLANTED[2]),
                       '--baseline', base, '--fail-above', str(FAIL_ABOVE), 'gate=yes')
    secs2 = time.monotonic() - start
    assert proc.returncode == 1, proc.stderr
    fails = re.findall(r'^perfrec_lab: (\S+): .*perfrec_diff: FAIL: (\S+) grew', proc.stderr,
                       re.M)
    assert fails == [PLANTED[:2]], proc.stderr
    results, _ = summary(new)
    for place in GATED:
        with open(os.path.join(new, place, 'diff.txt'), encoding='utf-8') as inf:
            diff = inf.read()
        total = re.search(r'^Total: base (\d+), new (\d+), delta', diff, re.M)
        if place == PLANTED[0]:
            assert results[place][0] == 1
            assert int(total.group(2)) > int(total.group(1))
        else:
            # Under -icount an unchanged board is the same, exactly
            assert results[place][0] == 0, results[place]
            assert total.group(1) == total.group(2), (place, total.group(0))
    note('perfrec_lab.py on %d places: --jobs 1 %.1f s, --jobs 2 %.1f s (host time)' %
         (len(GATED), secs1, secs2))


def test_lab_margin_without_icount(lab):
    """The place without -icount, recorded twice and compared by shares: the
    gate holds, and its largest growth is the margin's measure"""
    base = os.path.join(WORK, 'noicount-base')
    new = os.path.join(WORK, 'noicount-new')
    args = ['--build', VIRT, '--workload', WORKLOAD, 'virt-noicount']
    assert perfrec_lab(lab, '-o', base, *args).returncode == 0
    proc = perfrec_lab(lab, '-o', new, '--baseline', base, '--normalize',
                       '--fail-above', str(FAIL_ABOVE), *args)
    assert proc.returncode == 0, proc.stderr
    results, _ = summary(new)
    grew = re.search(r'largest growth \S+ \+([\d.]+)%', results['virt-noicount'][1])
    largest = float(grew.group(1)) if grew else 0.0
    note('without -icount (shares): largest growth %.2f%% against --fail-above %g%%: '
         'a margin of %.2f points' % (largest, FAIL_ABOVE, FAIL_ABOVE - largest))


def test_lab_boot_gate(lab):
    """Whole-boot recordings (CONFIG_PERFREC_BOOT): two boots of one place,
    each with the boot's phases, gated against each other"""
    base = os.path.join(WORK, 'boot-base')
    new = os.path.join(WORK, 'boot-new')
    args = ['--boot', '--build', EARLY, 'virt-boot']
    assert perfrec_lab(lab, '-o', base, *args).returncode == 0
    proc = perfrec_lab(lab, '-o', new, '--baseline', base, '--fail-above', str(BOOT_FAIL_ABOVE),
                       *args)
    assert proc.returncode == 0, proc.stderr
    report = subprocess.run(
        ['chroot', lab.root, 'perf', 'report', '-i', os.path.join(new, 'virt-boot', 'perf.data'),
         '--stdio', '--no-children', '-g', 'none', '--sort', 'comm'],
        capture_output=True, text=True, check=True).stdout
    phases = re.findall(r'^\s+[\d.]+%\s+(\S+)\s*$', report, re.M)
    assert {'board_init_f', 'relocation', 'board_init_r'} <= set(phases), report
    results, _ = summary(new)
    grew = re.search(r'largest growth \S+ \+([\d.]+)%', results['virt-boot'][1])
    note('a boot gated against the one before: largest growth %s%% '
         'against --fail-above %g%%' % (grew.group(1) if grew else '0', BOOT_FAIL_ABOVE))


def test_lab_fault_no_prompt(lab):
    """A board that never reaches the prompt: one line naming it within the
    boot timeout, exit 2, the other board's results kept"""
    image = os.path.join(lab.work, 'places', str(1 + [p[0] for p in PLACES].index(
        'virt-broken')), 'u-boot.bin')
    with open(image, 'wb') as outf:
        outf.write(bytes(1 << 16))
    out = os.path.join(WORK, 'fault-prompt')
    start = time.monotonic()
    proc = perfrec_lab(lab, '-o', out, '--boot-timeout', '10', *COMMON, 'virt-broken',
                       'virt-el2-gicv3')
    assert proc.returncode == 2, proc.stderr
    assert time.monotonic() - start < 300
    lines = [line for line in proc.stderr.splitlines()
             if 'virt-broken' in line and 'acquired' not in line]
    assert len(lines) == 2 and 'nothing within 10 s' in lines[0], lines
    results, _ = summary(out)
    assert results['virt-broken'][0] == 2
    assert results['virt-el2-gicv3'][0] == 0
    assert os.path.exists(os.path.join(out, 'virt-el2-gicv3', 'perf.data'))
    assert lab.acquired() == []


def test_lab_fault_console_drop(lab):
    """A console that drops bytes in the middle of a dump: the extractor's
    checks catch it, the tool dumps again, and that dump is byte for byte a
    third, undisturbed one"""
    place = 'virt-el2-gicv3'
    fault = os.path.join(lab.work, 'places', '1', 'fault')
    with open(fault, 'w', encoding='utf-8') as outf:
        outf.write('drop perfrec-begin 300 200\n')
    out = os.path.join(WORK, 'fault-drop')
    proc = perfrec_lab(lab, '-o', out, '--verify-dump', *COMMON, place)
    assert proc.returncode == 0, proc.stderr
    assert not os.path.exists(fault), 'the relay did not drop anything'
    assert re.search(r'^perfrec_lab: %s: the dump was damaged \(.*\); dumping again$' % place,
                     proc.stderr, re.M), proc.stderr
    results, _ = summary(out)
    assert re.search(r'dumped twice .*, a second dump the same \d+ bytes', results[place][1])
    with open(os.path.join(out, place, 'console.log'), encoding='utf-8') as inf:
        assert inf.read().count('[perfrec_lab: perfrec dump -z]') == 3


def test_lab_fault_reserved(lab):
    """A place someone else holds: one line naming it and its owner, at once;
    exit 3; the other board recorded"""
    other = {'LG_USERNAME': 'someone', 'LG_HOSTNAME': 'elsewhere'}
    lab.client('-p', 'rpi3', 'acquire', env=other)
    try:
        out = os.path.join(WORK, 'fault-reserved')
        start = time.monotonic()
        proc = perfrec_lab(lab, '-o', out, '--reserve-timeout', '20', *COMMON, 'rpi3',
                           'virt-el2-gicv3')
        assert proc.returncode == 3, proc.stderr
        assert re.search(r'^perfrec_lab: rpi3: held by elsewhere/someone$', proc.stderr, re.M), \
            proc.stderr
        results, _ = summary(out)
        assert results['virt-el2-gicv3'][0] == 0
        assert time.monotonic() - start < 120
    finally:
        lab.client('-p', 'rpi3', 'release', '-k', env=other)
    assert lab.acquired() == []


def test_lab_testpy(lab):
    """U-Boot's own test/py on a place, through labgrid hooks (console:
    labgrid-client console; reset: labgrid-client power cycle)"""
    place, cell = 'virt-el2-gicv3', 'el2-gicv3'
    src = os.environ.get('PERFREC_LAB_UBOOT_SRC', os.path.join(BUILD, 'uboot', 'bookworm'))
    result = os.path.join(WORK, 'testpy')
    job = Job(cell, src, VIRT, result, None, True, cell)
    board, cell_vars = cell_env(job)
    env = hook_env(job, dict(cell_vars, LG_PLACE=place, **lab.client_env()))
    env['PATH'] = os.path.join(TOP, 'test/hooks/labgrid') + ':' + env['PATH']
    lab.client('-p', place, 'acquire')
    try:
        proc = subprocess.run(
            ['/usr/bin/python3', os.path.join(src, 'test/py/test.py'), '--bd', board,
             '--build-dir', VIRT, '--result-dir', result, '--persistent-data-dir',
             os.path.join(result, 'persistent'), '--basetemp', os.path.join(result, 'tmp'),
             '-p', 'no:cacheprovider', '-p', 'perfrec_fixtures', '-q', '-k',
             'perfrec_help or perfrec_bad_input or perfrec_stat_exact or perfrec_dump_uart'],
            env=env, capture_output=True, text=True, timeout=600, check=False)
    finally:
        lab.client('-p', place, 'power', 'off', env={'LG_PLACE': place})
        lab.client('-p', place, 'release')
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    passed = re.search(r'(\d+) passed', proc.stdout)
    assert passed and int(passed.group(1)) >= 4 and 'skipped' not in proc.stdout, tail
    note('test/py through labgrid hooks on %s: %s' % (place, passed.group(0)))


def files_in(path, language):
    """The code blocks of @language in @path (reStructuredText or Markdown)"""
    with open(path, encoding='utf-8') as inf:
        text = inf.read()
    if path.endswith('.md'):
        return re.findall(r'^```%s\n(.*?)^```$' % language, text, re.M | re.S)
    return [re.sub(r'^   ', '', block, flags=re.M).strip() + '\n' for block in re.findall(
        r'^\.\. code-block:: %s\n\n((?:   .*\n|\n)+)' % language, text, re.M)]


@pytest.mark.parametrize('doc', ['doc/usage/perfrec.rst'])
def test_lab_files_in_docs(lab, doc):
    """The docs' real-lab exporter and environment files are this lab's own,
    but for host, port and the power and serial model lines: the environment
    file is test/lab/env.yaml, and a board of the exporter's file is this
    lab's template with other names, serial port and outlet"""
    doc = os.path.join(TOP, doc)
    blocks = files_in(doc, 'yaml')
    with open(os.path.join(lab.work, 'env.yaml'), encoding='utf-8') as inf:
        assert inf.read() in blocks, 'the environment file in %s is not test/lab/env.yaml' % doc
    fields = re.findall(r'{(\w+)}', EXPORTER_GROUP)
    pattern = re.escape(EXPORTER_GROUP)
    for field in fields:
        pattern = pattern.replace(re.escape('{%s}' % field), r'(?P<%s>\S+)' % field, 1)
    with open(os.path.join(lab.work, 'exporter.yaml'), encoding='utf-8') as inf:
        ours = re.match(pattern, inf.read())
    theirs = [re.fullmatch(pattern, b) for b in blocks if 'PDUDaemonPort' in b]
    assert ours and ours.group('serial') == 'RawSerialPort'
    assert len(theirs) == 1 and theirs[0], 'no exporter file in %s' % doc
    # The docs' board is a real lab's: a USB serial adapter, a PDU elsewhere
    assert theirs[0].group('serial') == 'USBSerialPort'
    assert not theirs[0].group('pdu_host').startswith('127.')


def interrupted(point):
    """Run a lab with perfrec_lab.py in it and SIGINT the lot at @point;
    return (exit code, stderr, the run's id)"""
    # Under build/, which the chroot sees
    work = os.path.join(WORK, 'sigint-' + point, 'lab')
    out = os.path.join(WORK, 'sigint-' + point, 'out')
    cmd = ['/usr/bin/python3', os.path.join(TOP, 'scripts/perfrec_loopback_lab.py'),
           '--work', work, '--place', 'a=el2-gicv3@' + VIRT, '--place', 'b=el1-gicv2@' + VIRT,
           '--', 'chroot', root(), 'env', '-C', TOP, 'python3',
           'tools/perfrec/perfrec_lab.py', '-o', out, '--build', VIRT, '--jobs', '2', 'a', 'b']
    with subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as proc:
        err = []
        for line in proc.stderr:
            err.append(line)
            if point == 'startup' and 'coordinator listening' in line or \
                    point == 'booting' and re.match(r'perfrec_lab: a: acquired', line):
                break
            if point == 'recording' and 'up:' in line:
                log = os.path.join(out, 'a', 'console.log')
                end = time.monotonic() + 120
                while time.monotonic() < end:
                    if os.path.exists(log) and '[perfrec_lab: perfrec record' in \
                            open(log, encoding='utf-8').read():
                        break
                    time.sleep(0.05)
                break
        # Ctrl-C at the terminal: the whole foreground group
        os.killpg(proc.pid, signal.SIGINT)
        _, rest = proc.communicate(timeout=180)
        err.append(rest)
    with open(os.path.join(work, 'lab.json'), encoding='utf-8') as inf:
        run_id = json.load(inf)['run_id']
    return proc.returncode, ''.join(err), run_id


@pytest.mark.parametrize('point', ['startup', 'booting', 'recording'])
def test_lab_sigint(point):
    """SIGINT while the lab starts, while a board boots and while it records:
    places released, boards off, servers stopped, no process of the run
    left, no port listening, nothing acquired"""
    code, err, run_id = interrupted(point)
    assert code == 130, err
    assert 'teardown: clean' in err, err
    assert not marked(run_id), err
    if point != 'startup':
        assert re.search(r'^perfrec_lab: stopped; places released: a', err, re.M), err
