# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the writer's pipe mode, judged by the real perf and perfrec_data.py

"""Host tests of perf_data_pipe_head() and _tail() through perf_data_gen -m pipe.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perf_data_pipe.py

A pipe-mode stream is what perfrec sends, in chunks cut at record boundaries,
while it records. perf must read it from a file ("-i file") and from its
standard input ("-i -", or a pipe and no -i), also when it stops at any
record boundary (a board that died); perf_data_gen -t leaves out the tail.
Each stream is checked against the file-mode perf.data of the same
recording: the same event records byte for byte, the same samples, the same
feature payloads. What perf 6.1 does in pipe mode, and these tests pin down:

- perf evlist stops at the first HEADER_FEATURE and ignores EVENT_UPDATE, so
  it names events from their attrs ("cycles:u", "raw 0x11:u"); report, script
  and --header-only show the writer's names. perf script without -F names
  the first event of each attr type as soon as its HEADER_ATTR arrives, which
  only the EVENT_UPDATE after it corrects (EVENT_DESC comes too late).
- perf report --header-only reads the whole stream, since the features are
  records: "data offset", "data size" and "feat offset" are 0, there is no
  "missing features" line, and lost samples give their warning there too.
- Without the tail there is no SAMPLE_TIME, so no "time of first sample".
- A stream cut inside a record's body gives "unexpected end of event stream";
  one cut before any sample, "data has no samples".
"""

import collections
import os
import re
import struct
import subprocess
import sys

import pytest

from conftest import (EXIT_ENOSPC, GEN_BASE, GEN_FACTS, LOST_RECORD_BYTES, REPO, SAMPLE_BYTES,
                      parse_report, perfrec_data)
from test_perf_data import (FUNCS, assert_attribution, capacity_word, check_common,
                            lost_warning, make, min_capacity)

P = perfrec_data
HEADER_RECORDS = (P.RECORD_HEADER_ATTR, P.RECORD_EVENT_UPDATE, P.RECORD_HEADER_FEATURE)
# The head's HEADER_FEATURE records, in stream order; the tail sends SAMPLE_TIME
HEAD_FEATURES = [P.FEAT_HOSTNAME, P.FEAT_OSRELEASE, P.FEAT_VERSION, P.FEAT_ARCH, P.FEAT_NRCPUS,
                 P.FEAT_CPUID, P.FEAT_TOTAL_MEM, P.FEAT_CMDLINE, P.FEAT_EVENT_DESC]
SAMPLE_TIME_RECORD_BYTES = 32       # header, feature bit, first and last time
RECORD_MAX = 0xfff8                 # perf_event_header.size is 16 bits, records 8-aligned
NO_SAMPLES = (r'Error:', r'The \S+ data has no samples!')
# Keys of 'perf report --header-only' that differ between the modes by nature
HEADER_LAYOUT_KEYS = ('captured on', 'data offset', 'data size', 'feat offset',
                      'missing features', 'cmdline')


def pair(gen, elf, tmp_path, plan, tail=True, **kwargs):
    """Write the recording @plan as a file and as a pipe stream, check that they agree

    Returns:
        tuple: (file path, its PerfData, stream path, its PerfData)
    """
    fpath = tmp_path / 'file.data'
    fdata = make(gen, elf, fpath, plan, **kwargs)
    check_common(fdata, elf)
    ppath = tmp_path / 'pipe.data'
    pdata = make(gen, elf, ppath, plan, mode='pipe', tail=tail, **kwargs)
    assert pdata.cmdline == gen.last_args
    check_pipe(pdata, ppath.read_bytes(), fdata, fpath.read_bytes(), tail)
    return fpath, fdata, ppath, pdata


def event_records(pdata):
    """The records of @pdata that are not pipe-mode header (or build-id) records"""
    return [rec for rec in pdata.records
            if rec.type not in HEADER_RECORDS + (P.RECORD_HEADER_BUILD_ID,)]


def feature_bits(pdata, data):
    """The feature bits of the HEADER_FEATURE records of stream @data, in stream order"""
    return [struct.unpack_from('<Q', data, rec.offset + 8)[0] for rec in pdata.records
            if rec.type == P.RECORD_HEADER_FEATURE]


def check_pipe(pdata, data, fdata, fbytes, tail=True):
    """Check stream @data (parsed: @pdata) against the file of the same recording"""
    assert pdata.pipe and not fdata.pipe
    assert (pdata.data_offset, pdata.data_size) == (16, len(data) - 16)
    lost = tail and fdata.lost_samples
    # A build-id is a record of its own, before COMM: perf would read a feature's from stdin
    bids = [rec for rec in pdata.records if rec.type == P.RECORD_HEADER_BUILD_ID]
    assert [rec.type for rec in pdata.records] == \
        [P.RECORD_HEADER_ATTR, P.RECORD_EVENT_UPDATE] * len(fdata.attrs) + \
        [P.RECORD_HEADER_FEATURE] * len(HEAD_FEATURES) + \
        [P.RECORD_HEADER_BUILD_ID] * len(fdata.build_ids) + [P.RECORD_COMM, P.RECORD_MMAP] + \
        [P.RECORD_SAMPLE] * len(fdata.samples) + [P.RECORD_LOST_SAMPLES] * bool(lost) + \
        [P.RECORD_HEADER_FEATURE] * tail
    assert feature_bits(pdata, data) == HEAD_FEATURES + [P.FEAT_SAMPLE_TIME] * tail
    assert {rec.misc for rec in event_records(pdata)} == {2}      # PERF_RECORD_MISC_USER
    assert {rec.misc for rec in pdata.records if rec.type in HEADER_RECORDS} == {0}
    assert {rec.misc for rec in bids} <= {P.MISC_USER | P.MISC_BUILD_ID_SIZE}
    assert pdata.build_ids == fdata.build_ids
    if bids:        # the file's HEADER_BUILD_ID section, byte for byte
        sec = fdata.feature_sections[P.FEAT_BUILD_ID]
        assert b''.join(data[rec.offset:rec.offset + rec.size] for rec in bids) == \
            fbytes[sec.offset:sec.offset + sec.size]

    assert pdata.attrs == fdata.attrs
    assert pdata.event_desc == fdata.event_desc
    assert pdata.update_names == {ids[0]: name for _, name, ids in fdata.event_desc}
    assert [pdata.event_name(s.id) for s in pdata.samples] == \
        [fdata.event_name(s.id) for s in fdata.samples]
    assert pdata.samples == fdata.samples
    assert (pdata.comms, pdata.mmaps) == (fdata.comms, fdata.mmaps)
    assert pdata.lost_samples == (fdata.lost_samples if tail else 0)
    assert pdata.sample_time == (fdata.sample_time if tail else None)
    assert pdata.features == [bit for bit in fdata.features
                              if (tail or bit != P.FEAT_SAMPLE_TIME) and bit != P.FEAT_BUILD_ID]
    for name, value in GEN_FACTS.items():
        assert getattr(pdata, name) == value, name

    # The event records are the file's data section (less LOST_SAMPLES if cut off)
    recs = event_records(pdata)
    cut_lost = 1 if fdata.lost_samples and not tail else 0
    end = fdata.data_offset + fdata.data_size - cut_lost * LOST_RECORD_BYTES
    assert data[recs[0].offset:recs[-1].offset + recs[-1].size] == fbytes[fdata.data_offset:end]
    sids = [pdata.sample_ids[rec.offset] for rec in recs if rec.type != P.RECORD_SAMPLE]
    fsids = [fdata.sample_ids[rec.offset] for rec in fdata.records
             if rec.type != P.RECORD_SAMPLE]
    assert sids == fsids[:len(fsids) - cut_lost]
    # Each feature's payload is the file's feature section, zero-padded to 8 bytes
    for bit in pdata.features:
        sec, fsec = pdata.feature_sections[bit], fdata.feature_sections[bit]
        assert sec.size % 8 == 0
        if bit == P.FEAT_CMDLINE:           # the driver's command lines differ by -m pipe
            continue
        assert fsec.size <= sec.size < fsec.size + 8, bit
        assert data[sec.offset:sec.offset + sec.size] == \
            fbytes[fsec.offset:fsec.offset + fsec.size] + bytes(sec.size - fsec.size), bit
    # HEADER_ATTR: the file's attr, then the id
    for i, rec in enumerate(r for r in pdata.records if r.type == P.RECORD_HEADER_ATTR):
        entry = fdata.attrs_section.offset + i * fdata.attr_size
        assert data[rec.offset + 8:rec.offset + 72] == fbytes[entry:entry + 64]
        assert rec.size == 80
        assert struct.unpack_from('<Q', data, rec.offset + 72)[0] == fdata.attrs[i].ids[0]


def report_cmd(symfs):
    """perf report's arguments as Perf.report() gives them, without -i"""
    return ['report', '--stdio', '-n', '--sort', 'comm,dso,sym', '--symfs', symfs]


def attr_name(name):
    """The name perf gives an event from its attr alone: what pipe-mode evlist shows"""
    if name.startswith('r'):
        return 'raw %#x:u' % int(name[1:], 16)
    return name + ':u'


def expected_counts(pdata, elf, base=GEN_BASE):
    """event name -> {function: samples} for the samples of @pdata"""
    counts = collections.OrderedDict()
    for attr in pdata.attrs:
        counts[pdata.event_name(attr.ids[0])] = collections.Counter()
    for smp in pdata.samples:
        counts[pdata.event_name(smp.id)][elf.function_at(smp.ip - base + elf.text_base)] += 1
    return collections.OrderedDict((name, dict(cnt)) for name, cnt in counts.items() if cnt)


@pytest.mark.parametrize('expected', [
    {'fixture_hot': 30, 'fixture_warm': 10},
    {'fixture_hot': 5, 'fixture_warm': 3, 'fixture_cold': 2},
])
def test_pipe_read_from_file_and_stdin(gen, elf, perf, tmp_path, expected):
    """perf reads a stream from a file, from "-i -" and from a pipe without -i, exactly"""
    plan = list(expected.items())
    fpath, fdata, ppath, pdata = pair(gen, elf, tmp_path, plan)
    data = ppath.read_bytes()
    reports = [perf.report(str(ppath), elf.symfs), perf.report('-', elf.symfs, data=data),
               parse_report(perf.run(report_cmd(elf.symfs), data=data).stdout)]
    for report in reports:
        assert report.lost == 0
        assert list(report.events) == ['cycles']
        assert_attribution(report, expected)
    assert reports[0] == perf.report(str(fpath), elf.symfs)

    lines = perf.script(str(fpath), elf.symfs)
    assert perf.script(str(ppath), elf.symfs) == lines
    assert perf.script('-', elf.symfs, data=data) == lines
    assert [(s.ip, s.time, s.period) for s in pdata.samples] == \
        [(ln.ip, ln.time, ln.period) for ln in lines]
    assert len(pdata.samples) == len(fdata.samples) == sum(expected.values())


@pytest.mark.parametrize('events', [
    [],
    ['cycles', 'instructions', 'r11'],
    ['cycles', 'instructions', 'r11', 'r0008', 'r1b', 'r23', 'r24', 'r3a'],
], ids=['default', 'three', 'eight'])
def test_pipe_events_named(gen, elf, perf, tmp_path, events):
    """report, script and the header name each event as the writer does; evlist by its attr"""
    names = events or ['cycles']
    plan = [(FUNCS[i % len(FUNCS)], i + 1, i) for i in range(len(names))]
    _, _, ppath, pdata = pair(gen, elf, tmp_path, plan, events=events)
    data = ppath.read_bytes()
    assert [pdata.event_name(attr.ids[0]) for attr in pdata.attrs] == names

    # perf 6.1's evlist reads the HEADER_ATTRs and stops at the first feature
    assert perf.evlist(str(ppath)) == [attr_name(name) for name in names]
    assert perf.evlist('-', data=data) == [attr_name(name) for name in names]
    for report in (perf.report(str(ppath), elf.symfs), perf.report('-', elf.symfs, data=data)):
        assert list(report.events) == names
        for i, name in enumerate(names):
            assert_attribution(report, {plan[i][0]: i + 1}, name)
    want = sum(([name] * (i + 1) for i, name in enumerate(names)), [])
    assert [ln.event for ln in perf.script(str(ppath), elf.symfs)] == want
    # Without -F, perf script names an event when its attr comes: EVENT_UPDATE renames it
    out = perf.run(['script', '-i', '-', '--symfs', elf.symfs], data=data).stdout
    assert re.findall(r'^\s*u-boot\s+1\s+[\d.]+:\s+\d+\s+(.+?):\s+[0-9a-f]+ ', out, re.M) == want
    info = perf.header(str(ppath))
    assert [e.split(',')[0] for e in info['event']] == ['name = %s' % name for name in names]
    for i, event in enumerate(info['event']):
        assert 'id = { %d }' % (i + 1) in event


@pytest.mark.parametrize('tail', [True, False], ids=['tail', 'no-tail'])
def test_pipe_header_only(gen, elf, perf, tmp_path, tail):
    """--header-only shows the file's facts; "data offset" and such are 0 in pipe mode"""
    fpath, _, ppath, pdata = pair(gen, elf, tmp_path, [('fixture_hot', 3), ('fixture_warm', 2)],
                                  tail=tail)
    finfo = perf.header(str(fpath))
    for info in (perf.header(str(ppath)), perf.header('-', data=ppath.read_bytes())):
        assert info['data offset'] == info['data size'] == info['feat offset'] == ['0']
        assert 'missing features' not in info
        assert [c.strip() for c in info['cmdline']] == [' '.join(pdata.cmdline)]
        assert info['hostname'] == [GEN_FACTS['hostname']]
        assert info['total memory'] == ['%d kB' % GEN_FACTS['total_mem_kb']]
        times = ('time of first sample', 'time of last sample', 'sample duration')
        assert all(finfo[key] for key in times)
        want = {key: val for key, val in finfo.items()
                if key not in HEADER_LAYOUT_KEYS and (tail or key not in times)}
        assert {key: val for key, val in info.items() if key not in HEADER_LAYOUT_KEYS} == want


@pytest.mark.parametrize('lost', [1, 7])
def test_pipe_lost_given(gen, elf, perf, tmp_path, lost):
    """LOST_SAMPLES in the tail: "Total Lost Samples", from a file and from stdin"""
    pair(gen, elf, tmp_path, [('fixture_hot', 95)], lost=lost)
    data = (tmp_path / 'pipe.data').read_bytes()
    for args, kwargs in ((['-i', str(tmp_path / 'pipe.data')], {}),
                         (['-i', '-'], {'data': data})):
        proc = perf.run(report_cmd(elf.symfs) + args, allow_lost=True, **kwargs)
        report = parse_report(proc.stdout)
        assert report.lost == lost
        assert_attribution(report, {'fixture_hot': 95})
        warning = lost_warning(95, lost)
        assert (warning in proc.stderr) if warning else ('lost' not in proc.stderr)
        # --header-only reads the whole stream, so it warns too
        proc = perf.run(['report', '--header-only'] + args, allow_lost=True, **kwargs)
        assert (warning in proc.stderr) if warning else ('lost' not in proc.stderr)
        assert '# hostname : %s' % GEN_FACTS['hostname'] in proc.stdout
    # Cut off before its tail, the stream tells of no loss
    pdata = make(gen, elf, tmp_path / 'cut.data', [('fixture_hot', 95)], lost=lost,
                 mode='pipe', tail=False)
    assert (len(pdata.samples), pdata.lost_samples) == (95, 0)
    report = perf.report(str(tmp_path / 'cut.data'), elf.symfs)
    assert report.lost == 0
    assert_attribution(report, {'fixture_hot': 95})


def test_pipe_driver_options(gen, tmp_path):
    """-t is for pipe mode only, and -m knows only file and pipe: else exit 1, no file"""
    out = tmp_path / 'perf.data'
    for kwargs in ({'tail': False}, {'mode': 'file', 'tail': False}, {'mode': 'fifo'}):
        proc = gen.run(str(out), ['1000'], **kwargs)
        assert proc.returncode == 1, kwargs
        assert 'Usage: perf_data_gen [-m file|pipe] [-t]' in proc.stderr
        assert not out.exists()
    pdata = gen.make(str(out), ['1000'], mode='file')
    assert not pdata.pipe and len(pdata.samples) == 1


def test_pipe_capacity(gen, elf, perf, tmp_path):
    """The head, one sample and the tail must fit; samples beyond the room are lost, exactly"""
    samples = [(elf.runtime('fixture_hot', GEN_BASE), 12)]
    kwargs = dict(base=GEN_BASE, length=elf.image_len, pgoff=elf.pgoff, mode='pipe')
    work = str(tmp_path)
    cap = min_capacity(gen, work, samples, **kwargs)
    out = tmp_path / 'perf.data'
    for small in [0, 15, 16] + list(range(cap - 8, cap)):
        if out.exists():
            out.unlink()
        proc = gen.run('perf.data', samples, cap=capacity_word(small), cwd=work, **kwargs)
        assert proc.returncode == EXIT_ENOSPC, small
        assert 'pipe head failed (err=-28)' in proc.stderr
        assert not out.exists()

    pdata = gen.make('perf.data', samples, cap=capacity_word(cap), cwd=work, **kwargs)
    head = event_records(pdata)[2].offset           # after COMM and MMAP
    assert cap == head + SAMPLE_BYTES + LOST_RECORD_BYTES + SAMPLE_TIME_RECORD_BYTES
    assert (len(pdata.samples), pdata.lost_samples, pdata.size) == (1, 11, cap)

    keep = 5
    pdata = gen.make('perf.data', samples, cap=capacity_word(cap + (keep - 1) * SAMPLE_BYTES),
                     cwd=work, **kwargs)
    assert (len(pdata.samples), pdata.lost_samples) == (keep, 12 - keep)
    assert pdata.size == cap + (keep - 1) * SAMPLE_BYTES
    assert pdata.records[-2].type == P.RECORD_LOST_SAMPLES
    proc = perf.run(report_cmd(elf.symfs) + ['-i', str(out)], allow_lost=True)
    report = parse_report(proc.stdout)
    assert report.lost == 12 - keep
    assert_attribution(report, {'fixture_hot': keep})
    assert lost_warning(keep, report.lost) in proc.stderr


def test_pipe_cut_at_every_record(gen, elf, perf, tmp_path):
    """A stream cut at any record boundary is read, with the samples before the cut

    Cut inside a record, the parser refuses it; perf reads what came before
    it, silently if the cut is inside the record's 8-byte header, else with
    "unexpected end of event stream".
    """
    plan = [('fixture_hot', 3, 0), ('fixture_warm', 2, 1), ('fixture_cold', 1, 0)]
    _, _, ppath, full = pair(gen, elf, tmp_path, plan, events=['cycles', 'r11'], lost=2)
    data = ppath.read_bytes()
    lines = perf.script(str(ppath), elf.symfs, allow_lost=True)
    assert len(lines) == 6
    cut = tmp_path / 'cut.data'
    from_stdin = {}
    bounds = [rec.offset for rec in full.records] + [len(data)]
    for nrec, size in enumerate(bounds):
        part = data[:size]
        cut.write_bytes(part)
        if nrec == 0:
            with pytest.raises(P.PerfDataError, match='has no HEADER_ATTR'):
                P.PerfData(part)
        else:
            pdata = P.PerfData(part)
            assert pdata.records == full.records[:nrec]
            nsmp = sum(1 for rec in pdata.records if rec.type == P.RECORD_SAMPLE)
            assert pdata.samples == full.samples[:nsmp]
            assert pdata.attrs == full.attrs[:len(pdata.attrs)]
            nfeat = sum(1 for rec in pdata.records if rec.type == P.RECORD_HEADER_FEATURE)
            assert pdata.features == sorted(feature_bits(full, data)[:nfeat])
            assert pdata.lost_samples == (2 if nrec >= len(full.records) - 1 else 0)
            assert pdata.sample_time == (full.sample_time if size == len(data) else None)
        for path, kwargs in ((str(cut), {}), ('-', {'data': part})):
            proc = perf.run(report_cmd(elf.symfs) + ['-i', path], check=False, **kwargs)
            assert proc.returncode == 0, proc.stderr
            if kwargs:
                from_stdin[size] = proc
            if nrec == 0 or not pdata.samples:
                assert 'has no samples' in proc.stderr, size
                P.check_perf_stderr(proc.stderr, allow=NO_SAMPLES)
                continue
            P.check_perf_stderr(proc.stderr, allow_lost=True)
            report = parse_report(proc.stdout)
            want = expected_counts(pdata, elf)
            assert list(report.events) == list(want), size
            for name, counts in want.items():
                assert_attribution(report, counts, name)
            assert report.lost == pdata.lost_samples
        if nrec and pdata.samples:
            assert perf.script(str(cut), elf.symfs, allow_lost=True) == lines[:nsmp]

    for rec in full.records:
        before = from_stdin[rec.offset]
        # Inside its header: perf stops there silently, the parser refuses
        part = data[:rec.offset + 4]
        with pytest.raises(P.PerfDataError, match='record header at .* past the end of the '
                           'stream'):
            P.PerfData(part)
        proc = perf.run(report_cmd(elf.symfs) + ['-i', '-'], check=False, data=part)
        assert parse_report(proc.stdout) == parse_report(before.stdout)
        assert proc.stderr == before.stderr
        # Inside its body: perf says so, and reads what came before
        part = data[:rec.offset + 8 + (rec.size - 8) // 2]
        with pytest.raises(P.PerfDataError, match='pipe-mode record at .* runs past the end '
                           'of the stream'):
            P.PerfData(part)
        proc = perf.run(report_cmd(elf.symfs) + ['-i', '-'], check=False, data=part)
        assert parse_report(proc.stdout) == parse_report(before.stdout)
        assert proc.stderr.startswith('unexpected end of event stream\n')
        assert proc.stderr[len('unexpected end of event stream\n'):] == before.stderr
        with pytest.raises(AssertionError):
            P.check_perf_stderr(proc.stderr, allow=NO_SAMPLES, allow_lost=True)


def test_pipe_parser_agrees_with_perf(gen, elf, perf, tmp_path):
    """perf script -D sees the records, offsets, sizes and samples the parser sees"""
    plan = [('fixture_hot', 2, 0), ('fixture_warm', 2, 1), ('fixture_cold', 1, 2)]
    _, _, ppath, pdata = pair(gen, elf, tmp_path, plan, events=['cycles', 'instructions', 'r11'],
                              lost=3)
    data = ppath.read_bytes()
    for path, kwargs in ((str(ppath), {}), ('-', {'data': data})):
        dump = perf.run(['script', '-D', '-i', path], allow_lost=True, **kwargs).stdout
        # "<offset>@pipe [<size>]: event: <type>", offsets counted after the 16-byte header
        seen = re.findall(r'^(0x[0-9a-f]+|0)@pipe \[(0x[0-9a-f]+)\]: event: (\d+)$', dump, re.M)
        assert sorted((int(off, 16) + 16, int(size, 16), int(rtype))
                      for off, size, rtype in seen) == \
            [(rec.offset, rec.size, rec.type) for rec in pdata.records]
        smp = re.findall(r'^(\d+) (0x[0-9a-f]+) \[0x30\]: PERF_RECORD_SAMPLE\(IP, 0x2\): '
                         r'(\d+)/(\d+): (0x[0-9a-f]+) period: (\d+)', dump, re.M)
        offsets = [rec.offset for rec in pdata.records if rec.type == P.RECORD_SAMPLE]
        assert sorted((int(off, 16) + 16, int(time), int(pid), int(tid), int(ip, 16),
                       int(period)) for time, off, pid, tid, ip, period in smp) == \
            [(off, s.time, s.pid, s.tid, s.ip, s.period) for off, s in zip(offsets, pdata.samples)]
        lost = re.findall(r'^(\d+) (0x[0-9a-f]+) \[0x28\]: PERF_RECORD_LOST_SAMPLES: id:(\d+): '
                          r'lost samples :(\d+)$', dump, re.M)
        rec = pdata.records[-2]
        sid = pdata.sample_ids[rec.offset]
        assert [(int(off, 16) + 16, int(time), int(ident), int(num))
                for time, off, ident, num in lost] == [(rec.offset, sid.time, sid.id, 3)]
        assert pdata.lost_samples == 3
    lines = perf.script('-', elf.symfs, allow_lost=True, data=data)
    assert [(ln.event, ln.ip, ln.time) for ln in lines] == \
        [(pdata.event_name(s.id), s.ip, s.time) for s in pdata.samples]


def put(data, offset, fmt, value):
    """Return @data with @value packed as @fmt at @offset"""
    return data[:offset] + struct.pack(fmt, value) + data[offset + struct.calcsize(fmt):]


def test_pipe_parser_rejects_damage(gen, elf, tmp_path):
    """Every kind of structural damage to a stream raises PerfDataError"""
    plan = [('fixture_hot', 3, 0), ('fixture_warm', 2, 1)]
    _, _, ppath, pdata = pair(gen, elf, tmp_path, plan, events=['cycles', 'r11'], lost=2)
    data = ppath.read_bytes()
    recs = pdata.records
    attr0, update0 = recs[0], recs[1]
    first = next(rec for rec in recs if rec.type == P.RECORD_SAMPLE)
    comm = next(rec for rec in recs if rec.type == P.RECORD_COMM)
    feats = dict(zip(feature_bits(pdata, data),
                     (rec for rec in recs if rec.type == P.RECORD_HEADER_FEATURE)))
    host = feats[P.FEAT_HOSTNAME]
    desc = feats[P.FEAT_EVENT_DESC].offset + 16
    assert host.size == 88                  # 68 bytes of payload and 4 of padding
    moved_attr = put(data[attr0.offset:attr0.offset + attr0.size], 72, '<Q', 9)
    grown = put(data[host.offset:host.offset + host.size], 6, '<H', host.size + 8) + bytes(8)
    cases = [
        ('header-only', data[:16], 'has no HEADER_ATTR'),
        ('short-header', data[:12], 'shorter than the 104-byte header'),
        ('magic', b'PERFILE3' + data[8:], 'bad magic'),
        ('cut-in-header', data[:first.offset + 4], 'record header at .* end of the stream'),
        ('cut-mid-record', data[:first.offset + 20], 'pipe-mode record at .* runs past'),
        ('record-size-44', put(data, first.offset + 6, '<H', 44), 'size 44 is not a multiple'),
        ('record-size-0', put(data, first.offset + 6, '<H', 0), 'size 0 is not a multiple'),
        ('sample-size-40', put(data, first.offset + 6, '<H', 40), 'size 40, but sample_type'),
        ('sample-size-56', put(data, first.offset + 6, '<H', 56), 'size 56, but sample_type'),
        ('unknown-sample-id', put(data, first.offset + 8, '<Q', 99),
         'id 99 is declared by no attr'),
        ('unknown-trailer-id', put(data, comm.offset + comm.size - 8, '<Q', 99),
         'sample_id: id 99 is declared by no attr'),
        ('no-attrs', data[:16] + data[recs[4].offset:], 'before any HEADER_ATTR'),
        ('attr-after-samples', data + moved_attr, 'HEADER_ATTR at .* comes after event records'),
        ('duplicate-id', put(data, recs[2].offset + 72, '<Q', 1), 'already declared'),
        ('attr-size-past-record', put(data, attr0.offset + 12, '<I', 80),
         'attr.size 80 runs past the record'),
        ('attr-size-60', put(data, attr0.offset + 12, '<I', 60), 'not a multiple of 8'),
        ('update-unknown-id', put(data, update0.offset + 16, '<Q', 99),
         'EVENT_UPDATE .* id 99 is declared by no HEADER_ATTR'),
        ('update-before-attr', data[:16] + data[update0.offset:], 'EVENT_UPDATE .* id 1 is '
         'declared by no HEADER_ATTR'),
        ('update-name-unterminated', put(data, update0.offset + 24, '<Q', 0x4141414141414141),
         'not NUL-terminated'),
        ('duplicate-feature', data + data[host.offset:host.offset + host.size],
         'feature HOSTNAME was already sent'),
        ('feature-bit-0', put(data, host.offset + 8, '<Q', 0), 'feature bit 0 is out of range'),
        ('feature-bit-256', put(data, host.offset + 8, '<Q', 256), 'bit 256 is out of range'),
        ('feature-padding', put(data, host.offset + host.size - 1, '<B', 1),
         'HOSTNAME .* 4 bytes left over'),
        ('feature-grown', data[:host.offset] + grown + data[host.offset + host.size:],
         'HOSTNAME .* 12 bytes left over'),
        ('feature-string-length', put(data, host.offset + 16, '<I', 128),
         'HOSTNAME .* run past its end'),
        ('event-desc-count', put(data, desc, '<I', 3), 'EVENT_DESC: 3 events'),
        ('event-desc-attr-size', put(data, desc + 4, '<I', 72),
         'EVENT_DESC: attr size 72, the HEADER_ATTR records use 64'),
    ]
    for name, bad, pattern in cases:
        with pytest.raises(P.PerfDataError, match=pattern):
            P.PerfData(bad)
    assert len({name for name, _, _ in cases}) == len(cases)
    # A prefix parses if and only if it ends at a record boundary after a HEADER_ATTR
    good = {rec.offset for rec in recs[1:]} | {len(data)}
    for size in range(0, len(data) + 1, 8):
        if size in good:
            assert P.PerfData(data[:size]).size == size
        else:
            with pytest.raises(P.PerfDataError):
                P.PerfData(data[:size])
    assert P.PerfData(data).samples == pdata.samples


def test_pipe_parser_cli(gen, elf, tmp_path):
    """perfrec_data.py summarises a stream, or names the fault in a cut one"""
    plan = [('fixture_hot', 3, 0), ('fixture_warm', 2, 1)]
    _, _, ppath, _ = pair(gen, elf, tmp_path, plan, events=['cycles', 'r11'], lost=4)
    tool = os.path.join(REPO, 'test', 'py', 'tests', 'perfrec_data.py')
    proc = subprocess.run([sys.executable, tool, '-s', str(ppath)], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith('perf.data (pipe mode): ')
    assert 'samples: 5, lost: 4' in proc.stdout
    assert re.search(r'event 1: r11 type 4 config 0x11 .*: 2 samples', proc.stdout)
    assert 'features: HOSTNAME OSRELEASE VERSION ARCH NRCPUS CPUID TOTAL_MEM CMDLINE ' \
        'EVENT_DESC SAMPLE_TIME' in proc.stdout
    assert len(re.findall(r'^sample id', proc.stdout, re.M)) == 5
    ppath.write_bytes(ppath.read_bytes()[:-4])
    proc = subprocess.run([sys.executable, tool, str(ppath)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1
    assert 'pipe.data' in proc.stderr and 'runs past the end of the stream' in proc.stderr


def cmdline_record_bytes(args):
    """Bytes of the HEADER_FEATURE record of CMDLINE @args"""
    payload = 4 + sum(4 + (len(arg.encode()) + 64) // 64 * 64 for arg in args)
    return (16 + payload + 7) // 8 * 8


def test_pipe_feature_record_limit(gen, elf, perf, tmp_path):
    """A feature too long for a record's 16-bit size is refused; file mode has no such limit"""
    work = str(tmp_path)
    addr = '%x' % elf.runtime('fixture_hot', GEN_BASE)
    args = [gen.path, '-m', 'pipe', 'perf.data', addr + ':1']
    while cmdline_record_bytes(args + [addr + ':0']) <= RECORD_MAX:
        args.append(addr + ':0')
    words = args[4:]
    pdata = gen.make('perf.data', words, cwd=work, mode='pipe')
    assert pdata.cmdline == args
    assert pdata.records[-1].type == P.RECORD_HEADER_FEATURE
    cmdline = [rec for rec in pdata.records if rec.type == P.RECORD_HEADER_FEATURE][7]
    assert RECORD_MAX - 80 < cmdline.size == cmdline_record_bytes(args) <= RECORD_MAX
    info = perf.header(os.path.join(work, 'perf.data'))
    assert [c.strip() for c in info['cmdline']] == [' '.join(args)]

    os.unlink(os.path.join(work, 'perf.data'))
    proc = gen.run('perf.data', words + [addr + ':0'], cwd=work, mode='pipe')
    assert proc.returncode == 1
    assert 'pipe head failed (err=-22)' in proc.stderr
    assert not os.path.exists(os.path.join(work, 'perf.data'))
    pdata = gen.make('perf.data', words * 2, cwd=work)
    assert pdata.cmdline == [gen.path, 'perf.data'] + words * 2
    assert pdata.feature_sections[P.FEAT_CMDLINE].size > RECORD_MAX
    info = perf.header(os.path.join(work, 'perf.data'))
    assert [c.strip() for c in info['cmdline']] == [' '.join(pdata.cmdline)]
