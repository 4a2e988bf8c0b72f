# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Fixtures of the host tests: the writer's driver, aarch64 fixture images, real perf

"""Fixtures and helpers for the host tests of the perf.data writer.

The writer (lib/perf_data.c, perf_data_pipe.c) is built for the host with ASan and
UBSan into the driver test/host/perf_data_gen.c; test/host/perf_fixture.c is
cross-compiled into small aarch64 images linked like U-Boot; the files the
driver writes are judged by the real host perf (with HOME in a temporary
directory, since perf writes ~/.debug) and by test/py/tests/perfrec_data.py.

A missing tool fails the tests: nothing here skips.

Environment: PERF (default /usr/bin/perf), HOSTCC (gcc), CROSS_COMPILE
(aarch64-linux-gnu-), ARM32_CROSS_COMPILE (arm-linux-gnueabihf-, for the
32-bit Arm ELFs of the ELF readers' tests).
"""

import collections
import os
import re
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'test', 'py', 'tests'))

# pylint: disable=wrong-import-position
import perfrec_data  # noqa: E402

PERF = os.environ.get('PERF', '/usr/bin/perf')
HOSTCC = os.environ.get('HOSTCC', 'gcc')
CROSS_COMPILE = os.environ.get('CROSS_COMPILE', 'aarch64-linux-gnu-')
ARM32_CROSS_COMPILE = os.environ.get('ARM32_CROSS_COMPILE', 'arm-linux-gnueabihf-')

# What perf_data_gen puts in every file (see its main())
GEN_PID = 1
GEN_START_TIME = 1000
GEN_FIRST_TIME = 2000
GEN_TIME_STEP = 1000
GEN_PERIOD = 10000
GEN_BASE = 0x7fef7000
GEN_FACTS = {
    'hostname': 'perf_data_gen', 'osrelease': '2023.01', 'version': 'perfrec host test',
    'arch': 'aarch64', 'cpuid': '0x00000000411fd070', 'nrcpus': (1, 1),
    'total_mem_kb': 1 << 20,
}
SAMPLE_BYTES = 48
LOST_RECORD_BYTES = 40
EXIT_ENOSPC = 2

Symbol = collections.namedtuple('Symbol', 'name addr size')
Load = collections.namedtuple('Load', 'offset vaddr filesz memsz flags')
ReportRow = collections.namedtuple('ReportRow', 'percent samples comm dso sym')


def tool(name):
    """Return the path of host tool @name; fail the test if it is missing"""
    path = shutil.which(name)
    if not path:
        pytest.fail('required tool %s not found (PATH=%s)' % (name, os.environ.get('PATH')))
    return path


def run(args, check=True, data=None, **kwargs):
    """Run @args, capturing text output; with @check, fail on a non-zero exit

    @data (bytes), if given, is fed to its standard input through a pipe.
    """
    if data is None:
        proc = subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)
    else:
        proc = subprocess.run(args, capture_output=True, input=data, check=False, **kwargs)
        proc.stdout = proc.stdout.decode('utf-8', 'replace')
        proc.stderr = proc.stderr.decode('utf-8', 'replace')
    if check and proc.returncode:
        pytest.fail('%s exited %d\nstdout:\n%s\nstderr:\n%s' %
                    (' '.join(args), proc.returncode, proc.stdout, proc.stderr))
    return proc


class Gen:
    """The writer's host driver, perf_data_gen, built with ASan and UBSan"""

    def __init__(self, path):
        self.path = path
        self.last_args = None

    @staticmethod
    def sample_args(samples):
        """Turn (ip, count[, event]) tuples into the driver's sample words"""
        words = []
        for smp in samples:
            words.append(':'.join(('%x' % smp[0],) + tuple(str(v) for v in smp[1:])))
        return words

    def run(self, out, samples=(), base=None, length=None, pgoff=None, cap=None,
            events=(), period=None, lost=None, cwd=None, mode=None, tail=True, name=None,
            build_id=None):
        """Run the driver; return the CompletedProcess (no exit code check)

        Args:
            out (str): output file
            samples (list): (ip, count[, event index]) tuples, or driver words
            base, length, pgoff (int): image start, length, pgoff (hex on the command line)
            cap (int or str): buffer capacity; a str is passed verbatim
            events (list of str): event names (-e)
            period (int): sample period (-P)
            lost (int): lost samples to report (-L)
            cwd (str): working directory
            mode (str): 'file' or 'pipe' (-m); None for the driver's default (file)
            tail (bool): False to leave out a pipe-mode stream's tail (-t)
            name (str): the image's file name (-n); None for the driver's /u-boot
            build_id (str or bytes): the image's build-id (-B), as hex or bytes;
                None for none
        """
        args = [self.path]
        if mode is not None:
            args += ['-m', mode]
        if not tail:
            args.append('-t')
        for opt, val in (('-b', base), ('-l', length), ('-p', pgoff)):
            if val is not None:
                args += [opt, '%#x' % val]
        if name is not None:
            args += ['-n', name]
        if build_id is not None:
            args += ['-B', build_id.hex() if isinstance(build_id, bytes) else build_id]
        if cap is not None:
            args += ['-c', cap if isinstance(cap, str) else str(cap)]
        for name in events:
            args += ['-e', name]
        if period is not None:
            args += ['-P', str(period)]
        if lost is not None:
            args += ['-L', str(lost)]
        args.append(out)
        args += [s if isinstance(s, str) else self.sample_args([s])[0] for s in samples]
        self.last_args = args
        return run(args, check=False, cwd=cwd)

    def make(self, out, samples=(), **kwargs):
        """Run the driver, which must succeed silently; return the parsed file"""
        proc = self.run(out, samples, **kwargs)
        assert proc.returncode == 0, 'perf_data_gen failed (%d): %s' % (proc.returncode,
                                                                         proc.stderr)
        assert not proc.stderr, 'perf_data_gen stderr: %s' % proc.stderr
        path = out if kwargs.get('cwd') is None else os.path.join(kwargs['cwd'], out)
        return perfrec_data.load(path)


class Elf:
    """An aarch64 fixture image and what readelf and nm say about it

    build_id is the bytes of its NT_GNU_BUILD_ID note, or None if it has none.
    """

    def __init__(self, path, text_base):
        self.path = path
        self.symfs = os.path.dirname(path)
        self.text_base = text_base
        out = run([tool(CROSS_COMPILE + 'readelf'), '-nW', path]).stdout
        ids = re.findall(r'\bBuild ID: ([0-9a-f]+)$', out, re.M)
        assert len(ids) <= 1, out
        self.build_id = bytes.fromhex(ids[0]) if ids else None
        self.symbols = {}
        out = run([tool(CROSS_COMPILE + 'nm'), '-S', '--defined-only', path]).stdout
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 4 and fields[2] in 'Tt':
                self.symbols[fields[3]] = Symbol(fields[3], int(fields[0], 16),
                                                 int(fields[1], 16))
        self.loads = []
        out = run([tool(CROSS_COMPILE + 'readelf'), '-lW', path]).stdout
        for line in out.splitlines():
            fields = line.split()
            if fields and fields[0] == 'LOAD':
                self.loads.append(Load(int(fields[1], 16), int(fields[2], 16),
                                       int(fields[4], 16), int(fields[5], 16),
                                       ' '.join(fields[6:-1])))
        seg = self.text_segment
        # The MMAP record's pgoff: the file offset of the image's first byte
        self.pgoff = seg.offset + text_base - seg.vaddr
        self.image_len = seg.vaddr + seg.memsz - text_base

    @property
    def text_segment(self):
        """The PT_LOAD segment that holds the image's first byte"""
        segs = [s for s in self.loads if s.vaddr <= self.text_base < s.vaddr + s.memsz]
        assert len(segs) == 1, 'no single PT_LOAD holds %#x: %s' % (self.text_base, self.loads)
        return segs[0]

    def addr(self, name, offset=4):
        """Link-time address @offset bytes into function @name (inside it)"""
        sym = self.symbols[name]
        assert offset < sym.size
        return sym.addr + offset

    def runtime(self, name, base, offset=4):
        """Run-time address in function @name when the image runs at @base"""
        return self.addr(name, offset) - self.text_base + base

    def function_at(self, addr):
        """Return the name of the function holding link-time @addr, or None"""
        for sym in self.symbols.values():
            if sym.addr <= addr < sym.addr + sym.size:
                return sym.name
        return None


class Perf:
    """The host perf, with its own HOME; every run has its stderr checked"""

    def __init__(self, home):
        self.path = PERF
        if not os.access(PERF, os.X_OK):
            pytest.fail('perf not found at %s' % PERF)
        self.env = dict(os.environ, HOME=home, LC_ALL='C', PAGER='cat')
        self.env.pop('PERF_CONFIG', None)

    def run(self, args, allow_lost=False, check=True, data=None):
        """Run perf @args; return the CompletedProcess

        perf exits 0 on a file it could not read, so besides the exit code
        its stderr must hold nothing but known-harmless lines. With @check
        False neither is checked. @data (bytes), if given, is perf's standard
        input (a pipe), as for "-i -"; otherwise it reads nothing there.
        """
        kwargs = {'stdin': subprocess.DEVNULL} if data is None else {'data': data}
        proc = run([self.path] + list(args), check=check, env=self.env, **kwargs)
        if check:
            perfrec_data.check_perf_stderr(proc.stderr, allow_lost=allow_lost)
        return proc

    def report(self, path, symfs, allow_lost=False, extra=(), data=None):
        """Return parse_report() of 'perf report' on @path ('-' and @data: stdin)

        @symfs None gives no --symfs: perf then finds the image by its build-id.
        """
        proc = self.run(['report', '-i', path, '--stdio', '-n', '--sort', 'comm,dso,sym'] +
                        symfs_args(symfs) + list(extra), allow_lost=allow_lost, data=data)
        return parse_report(proc.stdout)

    def script(self, path, symfs, allow_lost=False, data=None):
        """Return parse_script() of 'perf script' on @path ('-' and @data: stdin)"""
        proc = self.run(['script', '-i', path] + symfs_args(symfs) +
                        ['--ns', '-F', 'comm,pid,tid,time,event,ip,sym,symoff,period'],
                        allow_lost=allow_lost, data=data)
        return parse_script(proc.stdout)

    def evlist(self, path, data=None):
        """Return the event names 'perf evlist' lists, one a line ('-' and @data: stdin)"""
        out = self.run(['evlist', '-i', path], data=data).stdout
        return [line.strip() for line in out.splitlines() if line.strip()]

    def header(self, path, allow_lost=False, data=None):
        """Return the 'perf report --header-only' lines as a dict: key -> [values]

        In pipe mode perf reads the whole stream for it (the features are
        records), so a stream with lost samples needs @allow_lost.
        """
        proc = self.run(['report', '-i', path, '--header-only'], allow_lost=allow_lost,
                        data=data)
        info = collections.defaultdict(list)
        for line in proc.stdout.splitlines():
            mat = re.match(r'# ([a-z][a-z ]*[a-z]) *: ?(.*)$', line)
            if mat:
                info[mat.group(1)].append(mat.group(2))
        return info


def symfs_args(symfs):
    """perf's --symfs arguments for @symfs, none if it is None"""
    return [] if symfs is None else ['--symfs', symfs]


Report = collections.namedtuple('Report', 'lost events')


def parse_report(text):
    """Parse 'perf report --stdio -n --sort comm,dso,sym' output

    Returns:
        Report: lost (int or None, "Total Lost Samples"), events (dict:
        event name -> (sample count, list of ReportRow))
    """
    lost = None
    events = {}
    rows = None
    for line in text.splitlines():
        mat = re.match(r'# Total Lost Samples: (\d+)$', line)
        if mat:
            lost = int(mat.group(1))
            continue
        mat = re.match(r"# Samples: (\d+)\s+of event '([^']+)'$", line)
        if mat:
            rows = []
            events[mat.group(2)] = (int(mat.group(1)), rows)
            continue
        mat = re.match(r'\s+([\d.]+)%\s+(\d+)\s+(\S+)\s+(\S+)\s+\[\.\]\s+(\S+)\s*$', line)
        if mat:
            assert rows is not None, 'report row before any event: %s' % line
            rows.append(ReportRow(float(mat.group(1)), int(mat.group(2)), mat.group(3),
                                  mat.group(4), mat.group(5)))
    return Report(lost, events)


ScriptLine = collections.namedtuple('ScriptLine', 'comm pid tid time period event ip sym')


def parse_script(text):
    """Parse 'perf script --ns -F comm,pid,tid,time,event,ip,sym,symoff,period'"""
    lines = []
    for line in text.splitlines():
        if not line.strip():
            continue
        mat = re.match(r'\s*(\S+)\s+(\d+)/(\d+)\s+(\d+)\.(\d{9}):\s+(\d+)\s+(\S+):\s+'
                       r'([0-9a-f]+)\s+(\S+)', line)
        assert mat, 'unexpected perf script line: %r' % line
        lines.append(ScriptLine(mat.group(1), int(mat.group(2)), int(mat.group(3)),
                                int(mat.group(4)) * 10 ** 9 + int(mat.group(5)),
                                int(mat.group(6)), mat.group(7), int(mat.group(8), 16),
                                mat.group(9)))
    return lines


# pylint: disable-next=too-many-arguments
def build_fixture(outdir, text_base, build_id='none', source='perf_fixture.c', cflags=(),
                  cross=CROSS_COMPILE):
    """Cross-compile test/host/@source at @text_base into @outdir/u-boot; return an Elf

    @build_id is ld's --build-id style: 'none' (like U-Boot), 'sha1' or 'md5'.
    @source may be a tuple of files; @cflags are more compiler options;
    @cross the compiler's prefix (ARM32_CROSS_COMPILE: a 32-bit Arm ELF).
    """
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, 'u-boot')
    sources = (source,) if isinstance(source, str) else source
    run([tool(cross + 'gcc'), '-Wall', '-Wextra', '-Werror', '-O1', '-fno-inline',
         '-ffreestanding', '-fno-toplevel-reorder', '-fno-reorder-functions', '-nostdlib',
         '-static', '-Wl,-Ttext=%#x' % text_base, '-Wl,--build-id=%s' % build_id, '-o', path] +
        list(cflags) + [os.path.join(REPO, 'test', 'host', src) for src in sources])
    return Elf(path, text_base)


@pytest.fixture(scope='session')
def gen(tmp_path_factory):
    """The writer's host driver, built with ASan and UBSan"""
    outdir = tmp_path_factory.mktemp('gen')
    path = str(outdir / 'perf_data_gen')
    run([tool(HOSTCC), '-Wall', '-Wextra', '-Werror', '-fsanitize=address,undefined',
         '-fno-sanitize-recover=all', '-DUSE_HOSTCC', '-I', os.path.join(REPO, 'include'),
         '-o', path, os.path.join(REPO, 'test', 'host', 'perf_data_gen.c'),
         os.path.join(REPO, 'lib', 'perf_data.c'),
         os.path.join(REPO, 'lib', 'perf_data_pipe.c')])
    return Gen(path)


@pytest.fixture(scope='session')
def elf(tmp_path_factory):
    """The fixture image linked at 0, like qemu_arm64's U-Boot"""
    return build_fixture(str(tmp_path_factory.mktemp('symfs0')), 0)


@pytest.fixture(scope='session')
def elf_high(tmp_path_factory):
    """The fixture image linked at 0x80000 (its PT_LOAD then starts below the text)"""
    return build_fixture(str(tmp_path_factory.mktemp('symfs80000')), 0x80000)


@pytest.fixture(scope='session')
def elf_sha1(tmp_path_factory):
    """The fixture image linked at 0 with a sha1 build-id (20 bytes)"""
    return build_fixture(str(tmp_path_factory.mktemp('sha1')), 0, 'sha1')


@pytest.fixture(scope='session')
def elf_sha1_other(tmp_path_factory):
    """Another build of it, linked at 0x80000: the same functions, another build-id"""
    return build_fixture(str(tmp_path_factory.mktemp('sha1-80000')), 0x80000, 'sha1')


@pytest.fixture(scope='session')
def elf_md5(tmp_path_factory):
    """The fixture image linked at 0 with an md5 build-id (16 bytes)"""
    return build_fixture(str(tmp_path_factory.mktemp('md5')), 0, 'md5')


@pytest.fixture(scope='session')
def perf(tmp_path_factory):
    """The host perf with HOME in a temporary directory"""
    return Perf(str(tmp_path_factory.mktemp('home')))
