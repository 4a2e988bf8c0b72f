# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the perf.data writer, judged by the real perf and perfrec_data.py

"""Host tests of lib/perf_data.c through test/host/perf_data_gen.c.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host

Every file is written by the writer (built with ASan and UBSan) and read by
the host perf against an aarch64 fixture image linked like U-Boot, given as
--symfs; perf's stderr must hold only known-harmless lines, since perf exits 0
on files it cannot read. The parser in test/py/tests/perfrec_data.py must agree
with perf. Relations are exact: the driver gives sample i the time
GEN_FIRST_TIME + i * GEN_TIME_STEP and every sample the period GEN_PERIOD.
"""

import os
import re
import struct
import subprocess
import sys

import pytest

from conftest import (CROSS_COMPILE, EXIT_ENOSPC, GEN_BASE, GEN_FACTS, GEN_FIRST_TIME, GEN_PERIOD, GEN_PID,
                      GEN_START_TIME, GEN_TIME_STEP, LOST_RECORD_BYTES, REPO, SAMPLE_BYTES,
                      parse_report, perfrec_data)

FUNCS = ('fixture_hot', 'fixture_warm', 'fixture_cold')
MISC_USER = 2                   # PERF_RECORD_MISC_USER: firmware samples are user samples


def make(gen, elf, path, samples, base=GEN_BASE, pgoff=None, **kwargs):
    """Write @path with @samples: (function, count[, event][, offset]) at run-time @base"""
    words = []
    for smp in samples:
        name, count = smp[0], smp[1]
        event = smp[2] if len(smp) > 2 else 0
        offset = smp[3] if len(smp) > 3 else 4
        words.append((elf.runtime(name, base, offset), count, event))
    return gen.make(str(path), words, base=base, length=elf.image_len,
                    pgoff=elf.pgoff if pgoff is None else pgoff, **kwargs)


def assert_attribution(report, expected, event='cycles'):
    """Check that perf attributes exactly @expected (function -> samples) for @event"""
    assert event in report.events, 'no event %s in report: %s' % (event, list(report.events))
    count, rows = report.events[event]
    total = sum(expected.values())
    assert count == total
    got = {row.sym: (row.samples, row.percent) for row in rows}
    want = {name: (num, round(100.0 * num / total, 2)) for name, num in expected.items()}
    assert got == want
    for row in rows:
        assert (row.comm, row.dso) == ('u-boot', 'u-boot')


def lost_warning(stored, lost):
    """perf's stderr line for a file with lost samples, or None below its 5% threshold"""
    if not lost or lost / (stored + lost) <= 0.05:
        return None
    return 'Processed %d samples and lost %.2f%%!' % (stored + lost, 100.0 * lost / (stored + lost))


def check_common(pdata, elf, base=GEN_BASE, pgoff=None):
    """Check what every driver file holds besides its samples"""
    assert pdata.comms == [perfrec_data.Comm(GEN_PID, GEN_PID, 'u-boot')]
    assert pdata.mmaps == [perfrec_data.Mmap(GEN_PID, GEN_PID, base, elf.image_len,
                                             elf.pgoff if pgoff is None else pgoff, '/u-boot')]
    for rec in pdata.records[:2]:
        sid = pdata.sample_ids[rec.offset]
        assert (sid.pid, sid.tid, sid.time, sid.id) == (GEN_PID, GEN_PID, GEN_START_TIME,
                                                        pdata.attrs[0].ids[0])
    assert {rec.misc for rec in pdata.records} == {MISC_USER}
    for rec in pdata.records[2:]:
        assert rec.type in (perfrec_data.RECORD_SAMPLE, perfrec_data.RECORD_LOST_SAMPLES)
        if rec.type == perfrec_data.RECORD_LOST_SAMPLES:
            assert rec is pdata.records[-1] and pdata.lost_samples
            sid = pdata.sample_ids[rec.offset]
            assert (sid.pid, sid.tid, sid.time, sid.id) == (GEN_PID, GEN_PID,
                                                            pdata.samples[-1].time,
                                                            pdata.attrs[0].ids[0])
    for name, value in GEN_FACTS.items():
        assert getattr(pdata, name) == value, name
    assert pdata.arch == 'aarch64'
    for attr, (desc_attr, name, ids) in zip(pdata.attrs, pdata.event_desc):
        assert desc_attr == attr, name
        assert ids == attr.ids
        assert attr.sample_type == 0x10107       # IDENTIFIER | IP | TID | TIME | PERIOD
        assert attr.sample_id_all
    assert [s.time for s in pdata.samples] == [GEN_FIRST_TIME + i * GEN_TIME_STEP
                                               for i in range(len(pdata.samples))]
    if pdata.samples:
        assert pdata.sample_time == (pdata.samples[0].time, pdata.samples[-1].time)
        assert all((s.pid, s.tid, s.period, s.callchain) == (GEN_PID, GEN_PID, GEN_PERIOD, None)
                   for s in pdata.samples)


@pytest.mark.parametrize('expected', [
    {'fixture_hot': 30, 'fixture_warm': 10},
    {'fixture_hot': 5, 'fixture_warm': 3, 'fixture_cold': 2},
])
def test_report_attributes_samples(gen, elf, perf, tmp_path, expected):
    """perf report puts exactly the samples given into the right functions, comm u-boot"""
    path = tmp_path / 'perf.data'
    pdata = make(gen, elf, path, [(name, num) for name, num in expected.items()])
    check_common(pdata, elf)
    report = perf.report(str(path), elf.symfs)
    assert report.lost == 0
    assert list(report.events) == ['cycles']
    assert_attribution(report, expected)
    assert len(pdata.samples) == sum(expected.values())


def test_script_prints_samples_in_order(gen, elf, perf, tmp_path):
    """perf script shows exactly the samples written, in order, with times and addresses"""
    plan = [('fixture_hot', 2, 0, 4), ('fixture_cold', 1, 0, 0), ('fixture_warm', 3, 0, 8),
            ('_start', 1, 0, 12), ('fixture_hot', 1, 0, 0x40)]
    path = tmp_path / 'perf.data'
    pdata = make(gen, elf, path, plan)
    check_common(pdata, elf)
    want = []
    for name, count, _, offset in plan:
        want += [(GEN_BASE + elf.addr(name, offset) - elf.text_base,
                  '%s+%#x' % (name, offset))] * count
    lines = perf.script(str(path), elf.symfs)
    assert [(ln.ip, ln.sym) for ln in lines] == want
    assert [ln.time for ln in lines] == [GEN_FIRST_TIME + i * GEN_TIME_STEP
                                         for i in range(len(want))]
    assert {(ln.comm, ln.pid, ln.tid, ln.period, ln.event) for ln in lines} == \
        {('u-boot', GEN_PID, GEN_PID, GEN_PERIOD, 'cycles')}
    assert [(s.ip, s.time) for s in pdata.samples] == [(ln.ip, ln.time) for ln in lines]


@pytest.mark.parametrize('events', [
    [],
    ['instructions'],
    ['r11'],
    ['cycles', 'instructions', 'r11'],
    ['cycles', 'instructions', 'r11', 'r0008', 'r1b', 'r23', 'r24', 'r3a'],
], ids=['default', 'instructions', 'raw', 'three', 'eight'])
def test_events_named_and_separated(gen, elf, perf, tmp_path, events):
    """perf evlist names each event; perf report and script keep their samples apart"""
    names = events or ['cycles']
    # event i: i + 1 samples in one function
    plan = [(FUNCS[i % len(FUNCS)], i + 1, i) for i in range(len(names))]
    path = tmp_path / 'perf.data'
    pdata = make(gen, elf, path, plan, events=events)
    check_common(pdata, elf)
    assert perf.evlist(str(path)) == names
    verbose = perf.run(['evlist', '-v', '-i', str(path)]).stdout.splitlines()
    assert len(verbose) == len(names)
    for i, name in enumerate(names):
        attr = pdata.attrs[i]
        assert attr.ids == [i + 1]
        assert pdata.event_desc[i][1] == name
        assert verbose[i].startswith(name + ': ')
        if name.startswith('r'):
            assert (attr.type, attr.config) == (4, int(name[1:], 16))
            assert 'type: 4,' in verbose[i] and 'config: %#x,' % attr.config in verbose[i]
        else:
            assert (attr.type, attr.config) == (0, ['cycles', 'instructions'].index(name))

    report = perf.report(str(path), elf.symfs)
    assert list(report.events) == names
    for i, name in enumerate(names):
        assert_attribution(report, {plan[i][0]: i + 1}, name)
    lines = perf.script(str(path), elf.symfs)
    assert [ln.event for ln in lines] == [pdata.event_name(s.id) for s in pdata.samples]
    assert [ln.event for ln in lines] == sum(([name] * (i + 1) for i, name in enumerate(names)),
                                             [])


def test_nine_events_refused(gen, tmp_path):
    """The driver refuses more events than PERF_DATA_MAX_EVENTS (8)"""
    proc = gen.run(str(tmp_path / 'perf.data'), [], events=['cycles'] * 9)
    assert proc.returncode == 1
    assert not (tmp_path / 'perf.data').exists()


def test_header_only(gen, elf, perf, tmp_path):
    """perf report --header-only shows the facts the writer was given"""
    path = tmp_path / 'perf.data'
    pdata = make(gen, elf, path, [('fixture_hot', 3), ('fixture_warm', 2)])
    check_common(pdata, elf)
    info = perf.header(str(path))
    first, last = GEN_FIRST_TIME, GEN_FIRST_TIME + 4 * GEN_TIME_STEP
    assert info['hostname'] == [GEN_FACTS['hostname']]
    assert info['os release'] == [GEN_FACTS['osrelease']]
    assert info['perf version'] == [GEN_FACTS['version']]
    assert info['arch'] == ['aarch64']
    assert info['nrcpus online'] == ['1']
    assert info['nrcpus avail'] == ['1']
    assert info['cpuid'] == [GEN_FACTS['cpuid']]
    assert info['total memory'] == ['%d kB' % GEN_FACTS['total_mem_kb']]
    assert pdata.cmdline == gen.last_args
    assert [c.strip() for c in info['cmdline']] == [' '.join(gen.last_args)]
    assert info['time of first sample'] == ['%d.%06d' % divmod(first // 1000, 10 ** 6)]
    assert info['time of last sample'] == ['%d.%06d' % divmod(last // 1000, 10 ** 6)]
    assert [d.strip() for d in info['sample duration']] == ['%.3f ms' % ((last - first) / 1e6)]
    assert len(info['event']) == 1
    assert info['event'][0].startswith('name = cycles, ')
    assert 'id = { 1 }' in info['event'][0]
    assert 'sample_id_all = 1' in info['event'][0]
    assert pdata.sample_time == (first, last)
    assert pdata.features == [3, 4, 5, 6, 7, 9, 10, 11, 12, 21]


@pytest.mark.parametrize('lost', [1, 7])
def test_lost_given(gen, elf, perf, tmp_path, lost):
    """-L n gives "Total Lost Samples: n" in perf report and n in the parser"""
    path = tmp_path / 'perf.data'
    pdata = make(gen, elf, path, [('fixture_hot', 95)], lost=lost)
    check_common(pdata, elf)
    assert pdata.lost_samples == lost
    assert pdata.records[-1].type == perfrec_data.RECORD_LOST_SAMPLES
    proc = perf.run(['report', '-i', str(path), '--stdio', '-n', '--sort', 'comm,dso,sym',
                     '--symfs', elf.symfs], allow_lost=True)
    report = parse_report(proc.stdout)
    assert report.lost == lost
    assert_attribution(report, {'fixture_hot': 95})
    warning = lost_warning(95, lost)
    assert (warning in proc.stderr) if warning else ('lost' not in proc.stderr)


def capacity_word(cap):
    """The -c argument for @cap, always 10 characters so the cmdline keeps its size"""
    return '%#010x' % cap


def min_capacity(gen, workdir, samples, **kwargs):
    """Binary-search the smallest capacity with which the driver succeeds"""
    def works(cap):
        proc = gen.run('perf.data', samples, cap=capacity_word(cap), cwd=workdir, **kwargs)
        assert proc.returncode in (0, EXIT_ENOSPC), proc.stderr
        return proc.returncode == 0

    low, high = 0, 1 << 20
    assert not works(low) and works(high)
    while high - low > 1:
        mid = (low + high) // 2
        if works(mid):
            high = mid
        else:
            low = mid
    return high


@pytest.mark.parametrize('given', [0, 3])
def test_lost_when_full(gen, elf, perf, tmp_path, given):
    """A buffer too small keeps the first samples and counts the rest as lost, exactly"""
    attempted, keep = 12, 5
    samples = [(elf.runtime('fixture_hot', GEN_BASE), attempted)]
    kwargs = dict(base=GEN_BASE, length=elf.image_len, pgoff=elf.pgoff,
                  lost=given if given else None)
    cap = min_capacity(gen, str(tmp_path), samples, **kwargs) + (keep - 1) * SAMPLE_BYTES
    pdata = gen.make('perf.data', samples, cap=capacity_word(cap), cwd=str(tmp_path), **kwargs)
    check_common(pdata, elf)
    assert len(pdata.samples) == keep
    assert pdata.lost_samples == given + attempted - keep
    assert pdata.size == cap                    # the ring and the trailer fill the buffer
    path = str(tmp_path / 'perf.data')
    proc = perf.run(['report', '-i', path, '--stdio', '-n', '--sort', 'comm,dso,sym',
                     '--symfs', elf.symfs], allow_lost=True)
    report = parse_report(proc.stdout)
    assert report.lost == given + attempted - keep
    assert_attribution(report, {'fixture_hot': keep})
    assert lost_warning(keep, report.lost) in proc.stderr


def test_enospc_smallest_capacity(gen, elf, tmp_path):
    """Below header + trailer + one sample the driver exits 2 and writes nothing"""
    samples = [(elf.runtime('fixture_hot', GEN_BASE), 1)]
    kwargs = dict(base=GEN_BASE, length=elf.image_len, pgoff=elf.pgoff)
    cap = min_capacity(gen, str(tmp_path), samples, **kwargs)
    out = tmp_path / 'perf.data'
    for small in [0, 103, 104] + list(range(cap - 8, cap)):
        if out.exists():
            out.unlink()
        proc = gen.run('perf.data', samples, cap=capacity_word(small), cwd=str(tmp_path),
                       **kwargs)
        assert proc.returncode == EXIT_ENOSPC, small
        assert 'err=-28' in proc.stderr
        assert not out.exists()

    # At the smallest capacity one sample fits, with room kept for LOST_SAMPLES
    pdata = gen.make('perf.data', samples, cap=capacity_word(cap), cwd=str(tmp_path), **kwargs)
    check_common(pdata, elf)
    ring = 104 + 80 + 8 + 48 + 72     # header, attr, id, COMM, MMAP
    assert [r.offset for r in pdata.records] == [pdata.data_offset, 104 + 88 + 48, ring]
    assert len(pdata.samples) == 1 and pdata.lost_samples == 0
    assert pdata.size == cap - LOST_RECORD_BYTES
    # and a second sample is lost, filling the buffer exactly
    two = [(samples[0][0], 2)]
    pdata = gen.make('perf.data', two, cap=capacity_word(cap), cwd=str(tmp_path), **kwargs)
    assert (len(pdata.samples), pdata.lost_samples, pdata.size) == (1, 1, cap)
    assert min_capacity(gen, str(tmp_path), two, **kwargs) == cap


def test_pgoff_from_elf(elf, elf_high, tmp_path):
    """pgoff is the image's file offset: readelf and scripts/perfrec_pgoff.py agree"""
    seg = elf.text_segment
    assert (seg.offset, seg.vaddr) == (0x10000, 0)      # as in qemu_arm64's u-boot
    assert elf.pgoff == 0x10000
    seg = elf_high.text_segment
    # ld puts the ELF headers in the segment, below the text: p_offset is not the pgoff
    assert (seg.offset, seg.vaddr) == (0, 0x70000)
    assert elf_high.pgoff == 0x10000
    for img in (elf, elf_high):
        assert img.symbols['_start'].addr == img.text_base
        copy = tmp_path / ('u-boot-%x' % img.text_base)
        with open(img.path, 'rb') as inf:
            data = inf.read()
        copy.write_bytes(data)
        subprocess.run([sys.executable, os.path.join(REPO, 'scripts', 'perfrec_pgoff.py'),
                        str(copy)], check=True)
        patched = copy.read_bytes()
        marker = struct.pack('<Q', 0x5045524652454331)
        assert data.count(marker) == 2
        # Sections: name type addr off size es flags ...
        sections = [line.split(']', 1)[1].split() for line in
                    subprocess.run([CROSS_COMPILE + 'readelf', '-SW', img.path], check=True,
                                   capture_output=True, text=True).stdout.splitlines()
                    if re.match(r'^\s+\[\s*\d+\]', line)]
        nm = subprocess.run([CROSS_COMPILE + 'nm', img.path], check=True, capture_output=True,
                            text=True).stdout

        def value(name, blob):
            addr = int(re.search(r'^([0-9a-f]+) \w %s$' % name, nm, re.M).group(1), 16)
            sec = next(f for f in sections if len(f) > 5 and
                       int(f[2], 16) <= addr < int(f[2], 16) + int(f[4], 16))
            return struct.unpack_from('<Q', blob, addr - int(sec[2], 16) + int(sec[3], 16))[0]

        assert value('perfrec_image_pgoff', data) == 0x5045524652454331
        assert value('perfrec_image_pgoff', patched) == img.pgoff
        # The code's size from _start: every executable section ends within it
        ends = [int(f[2], 16) + int(f[4], 16) for f in sections if len(f) > 6 and 'X' in f[6]]
        assert value('perfrec_image_text_bytes', patched) == max(ends) - img.text_base


def test_wrong_pgoff_misattributes(gen, elf, perf, tmp_path):
    """Negative control: the same samples with a wrong pgoff fail the attribution check"""
    expected = {'fixture_hot': 30, 'fixture_warm': 10}
    plan = list(expected.items())
    shift = elf.addr('fixture_warm') - elf.addr('fixture_hot')
    for pgoff in (0, elf.pgoff + shift, elf.pgoff - 0x1000):
        path = tmp_path / ('perf-%x.data' % pgoff)
        make(gen, elf, path, plan, pgoff=pgoff)
        report = perf.report(str(path), elf.symfs)
        with pytest.raises(AssertionError):
            assert_attribution(report, expected)
        rows = {row.sym: row.samples for row in report.events['cycles'][1]}
        assert rows.get('fixture_hot') != 30
        if pgoff == elf.pgoff + shift:
            assert rows.get('fixture_warm') == 30       # hot's samples land in warm
    path = tmp_path / 'perf.data'
    make(gen, elf, path, plan)
    assert_attribution(perf.report(str(path), elf.symfs), expected)


@pytest.mark.parametrize('base', [0x80000, GEN_BASE], ids=['linked', 'relocated'])
def test_high_text_base(gen, elf_high, perf, tmp_path, base):
    """An image linked at 0x80000 resolves with its pgoff, at its link or a relocated address"""
    expected = {'fixture_hot': 6, 'fixture_warm': 3, 'fixture_cold': 1}
    plan = list(expected.items())
    path = tmp_path / 'perf.data'
    pdata = make(gen, elf_high, path, plan, base=base)
    check_common(pdata, elf_high, base=base)
    assert_attribution(perf.report(str(path), elf_high.symfs), expected)
    # The PT_LOAD's p_offset (0 here) is not the pgoff: symbols go wrong
    path = tmp_path / 'wrong.data'
    make(gen, elf_high, path, plan, base=base, pgoff=elf_high.text_segment.offset)
    with pytest.raises(AssertionError):
        assert_attribution(perf.report(str(path), elf_high.symfs), expected)


def test_broken_files_caught(gen, elf, perf, tmp_path):
    """perf exits 0 on broken files; the stderr check, the counts and the parser catch them"""
    path = tmp_path / 'perf.data'
    pdata = make(gen, elf, path, [('fixture_hot', 30), ('fixture_warm', 10)])
    good = path.read_bytes()
    end = pdata.data_offset + pdata.data_size
    first = pdata.records[2].offset          # the first sample
    cases = {
        'cut-mid-data': good[:pdata.data_offset + pdata.data_size // 2 + 4],
        'cut-last-record': good[:end - 20],
        'sample-size-40': good[:first + 6] + struct.pack('<H', 40) + good[first + 8:],
        'sample-size-56': good[:first + 6] + struct.pack('<H', 56) + good[first + 8:],
        'data-size-8': good[:48] + struct.pack('<Q', pdata.data_size - 8) + good[56:],
    }
    for name, data in cases.items():
        bad = tmp_path / (name + '.data')
        bad.write_bytes(data)
        with pytest.raises(perfrec_data.PerfDataError):
            perfrec_data.load(str(bad))
        proc = perf.run(['report', '-i', str(bad), '--stdio', '-n', '--sort', 'comm,dso,sym',
                         '--symfs', elf.symfs], check=False)
        assert proc.returncode == 0, name          # perf does not say so in its exit code
        try:
            perfrec_data.check_perf_stderr(proc.stderr)
            assert_attribution(parse_report(proc.stdout),
                               {'fixture_hot': 30, 'fixture_warm': 10})
        except AssertionError:
            continue
        pytest.fail('%s: perf output passed every check' % name)

    bad = tmp_path / 'magic.data'
    bad.write_bytes(b'PERFILE3' + good[8:])
    with pytest.raises(perfrec_data.PerfDataError, match='bad magic'):
        perfrec_data.load(str(bad))
    proc = perf.run(['report', '-i', str(bad), '--stdio'], check=False)
    assert 'incompatible file format' in proc.stderr


def test_parser_cli(gen, elf, tmp_path):
    """perfrec_data.py prints a summary and exits 0, or names the fault and exits 1"""
    path = tmp_path / 'perf.data'
    make(gen, elf, path, [('fixture_hot', 3, 0), ('fixture_warm', 2, 1)], lost=4,
         events=['cycles', 'r11'])
    tool = os.path.join(REPO, 'test', 'py', 'tests', 'perfrec_data.py')
    proc = subprocess.run([sys.executable, tool, '-s', str(path)], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert 'samples: 5, lost: 4' in proc.stdout
    assert re.search(r'event 0: cycles .*: 3 samples', proc.stdout)
    assert re.search(r'event 1: r11 type 4 config 0x11 .*: 2 samples', proc.stdout)
    assert len(re.findall(r'^sample id', proc.stdout, re.M)) == 5
    path.write_bytes(path.read_bytes()[:200])
    proc = subprocess.run([sys.executable, tool, str(path)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1
    assert 'perf.data' in proc.stderr and 'runs past' in proc.stderr
