# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the perf.data parser test/py/tests/perfrec_data.py

"""Host tests of the perf.data parser, test/py/tests/perfrec_data.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perfrec_data.py

Layouts the writer does not make yet (callchains, CPU, ID, STREAM_ID, no
IDENTIFIER) come from a small Python builder here; the real perf reads the same
files, so parser and perf must agree on every field, sample_id trailers
included. Damaged writer files must raise PerfDataError, and the perf stderr
check must let through only the known-harmless lines.
"""

import re
import struct

import pytest

from conftest import GEN_BASE, perfrec_data

P = perfrec_data
CONTEXT_USER = 0xfffffffffffffe00
SYN_PID = 1
SYN_CPU = 3
SYN_SIDE_TIME = 500
SYN_FIRST_TIME = 1000
SYN_PERIOD = 1000
SYN_NAMES = ('syn-a', 'syn-b')
SYN_HOSTNAME = 'syn-host'
SYN_NRCPUS = (4, 2)         # avail, online
SYN_MEM_KB = 12345
SYN_CMDLINE = ['perfrec', 'record', 'a b']
ATTR_FLAGS = ((1 << 0) | (1 << 5) | (1 << 6) | (1 << 8) | (1 << 9) | P.ATTR_FLAG_SAMPLE_ID_ALL)


def feature_string(text):
    """A perf header string: u32 padded length, bytes, NUL padding to 64"""
    raw = text.encode() + b'\0'
    size = (len(raw) + 63) // 64 * 64
    return struct.pack('<I', size) + raw.ljust(size, b'\0')


def build(sample_type, nr_events, samples, base, length, pgoff):
    """Return a file-mode perf.data in bytes

    Args:
        sample_type (int): sample_type of every event
        nr_events (int): events; event i has config i (cycles, instructions) and id 7 + 2 * i
        samples (list): (ip, callchain, event index) in order; sample i has time
            SYN_FIRST_TIME + 1000 * i
        base, length, pgoff (int): the MMAP record of "/u-boot"
    """
    ids = [7 + 2 * i for i in range(nr_events)]
    attrs = b''
    ids_offset = P.HEADER_SIZE + 80 * nr_events
    for i, ident in enumerate(ids):
        attrs += struct.pack('<IIQQQQQIIQQQ', 0, 64, i, SYN_PERIOD, sample_type, 0, ATTR_FLAGS,
                             0, 0, 0, ids_offset + 8 * i, 8)
    attrs += b''.join(struct.pack('<Q', ident) for ident in ids)
    data_offset = P.HEADER_SIZE + len(attrs)

    def fields(order, values):
        return b''.join(struct.pack('<Q', values[bit]) for bit in order if sample_type & bit)

    def record(rtype, body):
        return struct.pack('<IHH', rtype, 2, 8 + len(body)) + body

    side = {P.SAMPLE_TID: SYN_PID | SYN_PID << 32, P.SAMPLE_TIME: SYN_SIDE_TIME,
            P.SAMPLE_ID: ids[0], P.SAMPLE_STREAM_ID: ids[0], P.SAMPLE_CPU: SYN_CPU,
            P.SAMPLE_IDENTIFIER: ids[0]}
    trailer = fields((P.SAMPLE_TID, P.SAMPLE_TIME, P.SAMPLE_ID, P.SAMPLE_STREAM_ID,
                      P.SAMPLE_CPU, P.SAMPLE_IDENTIFIER), side)
    data = record(P.RECORD_COMM, struct.pack('<II', SYN_PID, SYN_PID) + b'u-boot\0\0' + trailer)
    data += record(P.RECORD_MMAP, struct.pack('<IIQQQ', SYN_PID, SYN_PID, base, length, pgoff) +
                   b'/u-boot\0' + trailer)
    for i, (ip, chain, event) in enumerate(samples):
        vals = dict(side)
        vals.update({P.SAMPLE_IP: ip, P.SAMPLE_TIME: SYN_FIRST_TIME + 1000 * i,
                     P.SAMPLE_ID: ids[event], P.SAMPLE_STREAM_ID: ids[event],
                     P.SAMPLE_IDENTIFIER: ids[event], P.SAMPLE_PERIOD: SYN_PERIOD})
        body = fields((P.SAMPLE_IDENTIFIER, P.SAMPLE_IP, P.SAMPLE_TID, P.SAMPLE_TIME,
                       P.SAMPLE_ID, P.SAMPLE_STREAM_ID, P.SAMPLE_CPU, P.SAMPLE_PERIOD), vals)
        if sample_type & P.SAMPLE_CALLCHAIN:
            body += struct.pack('<%dQ' % (len(chain) + 1), len(chain), *chain)
        data += record(P.RECORD_SAMPLE, body)

    descs = b''.join(attrs[80 * i:80 * i + 64] + struct.pack('<I', 1) +
                     feature_string(SYN_NAMES[i]) + struct.pack('<Q', ident)
                     for i, ident in enumerate(ids))
    times = [SYN_FIRST_TIME, SYN_FIRST_TIME + 1000 * (len(samples) - 1)]
    feats = {
        P.FEAT_HOSTNAME: feature_string(SYN_HOSTNAME),
        P.FEAT_ARCH: feature_string('aarch64'),
        P.FEAT_NRCPUS: struct.pack('<II', *SYN_NRCPUS),
        P.FEAT_TOTAL_MEM: struct.pack('<Q', SYN_MEM_KB),
        P.FEAT_CMDLINE: struct.pack('<I', len(SYN_CMDLINE)) +
        b''.join(feature_string(word) for word in SYN_CMDLINE),
        P.FEAT_EVENT_DESC: struct.pack('<II', nr_events, 64) + descs,
        P.FEAT_SAMPLE_TIME: struct.pack('<QQ', *times),
    }
    table = b''
    payload = b''
    bitmap = 0
    for bit, feat in sorted(feats.items()):
        table += struct.pack('<QQ', data_offset + len(data) + 16 * len(feats) + len(payload),
                             len(feat))
        payload += feat
        bitmap |= 1 << bit
    header = struct.pack('<8sQQQQQQQQ4Q', P.MAGIC, P.HEADER_SIZE, 80, P.HEADER_SIZE,
                         80 * nr_events, data_offset, len(data), 0, 0, bitmap, 0, 0, 0)
    return header + attrs + data + table + payload


BASIC = P.SAMPLE_IP | P.SAMPLE_TID | P.SAMPLE_TIME | P.SAMPLE_PERIOD


@pytest.mark.parametrize('sample_type, nr_events', [
    (BASIC | P.SAMPLE_IDENTIFIER | P.SAMPLE_CALLCHAIN, 2),
    (BASIC | P.SAMPLE_IDENTIFIER | P.SAMPLE_ID | P.SAMPLE_STREAM_ID | P.SAMPLE_CPU |
     P.SAMPLE_CALLCHAIN, 2),
    (BASIC | P.SAMPLE_ID | P.SAMPLE_CPU | P.SAMPLE_CALLCHAIN, 2),
    (BASIC | P.SAMPLE_CPU, 1),
], ids=['identifier-callchain', 'all-ids-cpu-callchain', 'id-cpu-callchain', 'cpu-no-id'])
def test_parser_agrees_with_perf(elf, perf, tmp_path, sample_type, nr_events):
    """Parser and perf read the same samples, callchains and sample_id trailers"""
    callchain = bool(sample_type & P.SAMPLE_CALLCHAIN)
    plan = [('fixture_hot', 0), ('fixture_warm', 1 % nr_events), ('fixture_cold', 0),
            ('fixture_hot', 1 % nr_events)]
    samples = []
    for i, (name, event) in enumerate(plan):
        ip = elf.runtime(name, GEN_BASE)
        ret = elf.runtime('_start', GEN_BASE, 4 + 4 * (i % 3))
        samples.append((ip, [CONTEXT_USER, ip, ret] if callchain else None, event))
    path = tmp_path / 'perf.data'
    path.write_bytes(build(sample_type, nr_events, samples, GEN_BASE, elf.image_len,
                           elf.pgoff))

    pdata = P.load(str(path))
    ids = [attr.ids[0] for attr in pdata.attrs]
    assert ids == [7 + 2 * i for i in range(nr_events)]
    assert [(s.ip, s.callchain, s.id, s.time, s.pid, s.tid, s.period) for s in pdata.samples] == \
        [(ip, chain, ids[ev], SYN_FIRST_TIME + 1000 * i, SYN_PID, SYN_PID, SYN_PERIOD)
         for i, (ip, chain, ev) in enumerate(samples)]
    assert pdata.comms == [P.Comm(SYN_PID, SYN_PID, 'u-boot')]
    assert pdata.mmaps == [P.Mmap(SYN_PID, SYN_PID, GEN_BASE, elf.image_len, elf.pgoff,
                                  '/u-boot')]
    sids = [pdata.sample_ids[rec.offset] for rec in pdata.records[:2]]
    has_id = sample_type & (P.SAMPLE_ID | P.SAMPLE_IDENTIFIER)
    want = P.SampleId(SYN_PID, SYN_PID, SYN_SIDE_TIME, ids[0] if has_id else None,
                      ids[0] if sample_type & P.SAMPLE_STREAM_ID else None,
                      SYN_CPU if sample_type & P.SAMPLE_CPU else None)
    assert sids == [want, want]
    assert pdata.features == [3, 6, 7, 10, 11, 12, 21]
    assert (pdata.hostname, pdata.arch, pdata.nrcpus, pdata.total_mem_kb, pdata.cmdline) == \
        (SYN_HOSTNAME, 'aarch64', SYN_NRCPUS, SYN_MEM_KB, SYN_CMDLINE)
    assert pdata.sample_time == (pdata.samples[0].time, pdata.samples[-1].time)
    assert [(attr, name) for attr, name, _ in pdata.event_desc] == \
        list(zip(pdata.attrs, SYN_NAMES[:nr_events]))
    info = perf.header(str(path))
    assert (info['hostname'], info['arch'], info['nrcpus avail'], info['nrcpus online'],
            info['total memory']) == ([SYN_HOSTNAME], ['aarch64'], ['4'], ['2'], ['12345 kB'])
    assert [c.strip() for c in info['cmdline']] == [' '.join(SYN_CMDLINE)]
    assert [e.split(',')[0] for e in info['event']] == \
        ['name = %s' % name for name in SYN_NAMES[:nr_events]]
    assert perf.evlist(str(path)) == list(SYN_NAMES[:nr_events])

    # perf -D prints each record's "[cpu] time offset [size]: TYPE" from its trailer
    dump = perf.run(['script', '-D', '-i', str(path)]).stdout
    seen = re.findall(r'^(?:(\d+) )?(\d+) (0x[0-9a-f]+) \[(0x[0-9a-f]+)\]: PERF_RECORD_(\w+)',
                      dump, re.M)
    assert [(int(off, 16), int(size, 16)) for _, _, off, size, _ in seen] == \
        [(rec.offset, rec.size) for rec in pdata.records]
    times = [sid.time for sid in sids] + [s.time for s in pdata.samples]
    assert [int(t) for _, t, _, _, _ in seen] == times
    cpu = str(SYN_CPU) if sample_type & P.SAMPLE_CPU else ''
    assert {c for c, _, _, _, _ in seen} == {cpu}

    # perf script names the sampled function and, with a callchain, its caller
    out = perf.run(['script', '-i', str(path), '--symfs', elf.symfs, '-F', 'ip,sym']).stdout
    syms = re.findall(r'^\s*[0-9a-f]+ (\S+)$', out, re.M)
    if callchain:
        assert syms == sum(([name, '_start'] for name, _ in plan), [])
    else:
        assert syms == [name for name, _ in plan]
    report = perf.report(str(path), elf.symfs, extra=['--no-children', '-g', 'none'])
    names = list(SYN_NAMES[:nr_events])
    assert list(report.events) == names
    for i, name in enumerate(names):
        assert report.events[name][0] == sum(1 for _, ev in plan if ev == i)


def writer_file(gen, elf, tmp_path):
    """A good two-event file from the writer, and the parse of it"""
    path = tmp_path / 'good.data'
    words = [(elf.runtime('fixture_hot', GEN_BASE), 3, 0),
             (elf.runtime('fixture_warm', GEN_BASE), 2, 1)]
    pdata = gen.make(str(path), words, base=GEN_BASE, length=elf.image_len, pgoff=elf.pgoff,
                     events=['cycles', 'r11'], lost=2)
    return path.read_bytes(), pdata


def put(data, offset, fmt, value):
    """Return @data with @value packed as @fmt at @offset"""
    return data[:offset] + struct.pack(fmt, value) + data[offset + struct.calcsize(fmt):]


def corruptions(data, pdata):
    """(name, damaged bytes, message pattern) for each kind of damage"""
    first = pdata.records[2].offset        # the first sample
    last = pdata.records[-2]               # the last sample (LOST_SAMPLES follows)
    end = pdata.data_offset + pdata.data_size
    feats = pdata.feature_sections
    desc = feats[P.FEAT_EVENT_DESC].offset
    return [
        ('cut-header', data[:50], 'shorter than the 104-byte header'),
        ('cut-attrs', data[:150], 'attrs section .* runs past the end of the file'),
        ('cut-mid-data', data[:pdata.data_offset + 100], 'data section .* runs past'),
        ('cut-feature-table', data[:end], 'feature table entry 0 .* run past'),
        ('cut-last-feature', data[:-8], 'feature SAMPLE_TIME .* runs past the end'),
        ('magic', b'PERFILE3' + data[8:], 'bad magic'),
        ('big-endian', b'2ELIFREP' + data[8:], 'big-endian'),
        ('pipe-mode', put(data, 8, '<Q', 16), 'pipe-mode'),
        ('header-size', put(data, 8, '<Q', 112), 'header size 112, want 104'),
        ('attr_size', put(data, 16, '<Q', 88), 'attr_size'),
        ('attr.size', put(data, P.HEADER_SIZE + 4, '<I', 72), 'does not match header attr_size'),
        ('sample-size-40', put(data, first + 6, '<H', 40), 'size 40, but sample_type'),
        ('sample-size-56', put(data, first + 6, '<H', 56), 'size 56, but sample_type'),
        ('record-size-44', put(data, first + 6, '<H', 44), 'size 44 is not a multiple of 8'),
        ('record-size-0', put(data, first + 6, '<H', 0), 'size 0 is not a multiple of 8'),
        ('record-past-end', put(data, last.offset + 6, '<H', 96), 'runs past the data end'),
        ('data-size-minus-8', put(data, 48, '<Q', pdata.data_size - 8),
         'runs past the data end'),
        ('data-size-plus-8', put(data, 48, '<Q', pdata.data_size + 8), ''),
        ('unknown-sample-id', put(data, first + 8, '<Q', 99), 'id 99 is declared by no attr'),
        ('unknown-trailer-id', put(data, pdata.records[1].offset - 8, '<Q', 99),
         'sample_id: id 99 is declared by no attr'),
        ('duplicate-id', put(data, P.HEADER_SIZE + 160 + 8, '<Q', 1), 'already declared'),
        ('feature-offset', put(data, end, '<Q', len(data)), 'runs past the end of the file'),
        ('feature-string-length', put(data, feats[P.FEAT_HOSTNAME].offset, '<I', 128),
         'HOSTNAME .* run past its end'),
        ('event-desc-attr-size', put(data, desc + 4, '<I', 72), 'EVENT_DESC: attr size 72'),
        ('event-desc-count', put(data, desc, '<I', 3), 'EVENT_DESC: 3 events'),
    ]


def test_parser_rejects_damage(gen, elf, tmp_path):
    """Every kind of structural damage to a writer file raises PerfDataError"""
    data, pdata = writer_file(gen, elf, tmp_path)
    assert len(pdata.samples) == 5 and pdata.lost_samples == 2
    assert [r.type for r in pdata.records] == [3, 1] + [9] * 5 + [13]
    names = set()
    for name, bad, pattern in corruptions(data, pdata):
        names.add(name)
        with pytest.raises(P.PerfDataError, match=pattern):
            P.PerfData(bad)
    assert len(names) == len(corruptions(data, pdata))
    # every prefix of the file is rejected, never parsed as something shorter
    for size in range(0, len(data), 8):
        with pytest.raises(P.PerfDataError):
            P.PerfData(data[:size])
    assert P.PerfData(data).samples == pdata.samples


def test_parser_rejects_bad_sample_type(tmp_path):
    """Sample layouts the parser cannot size are refused, not guessed"""
    good = build(BASIC | P.SAMPLE_IDENTIFIER, 1, [(0x1000, None, 0)], 0, 0x1000, 0)
    P.PerfData(good)
    for bit in (1 << 4, 1 << 10, 1 << 11):         # READ, RAW, BRANCH_STACK
        bad = put(good, P.HEADER_SIZE + 24, '<Q', BASIC | P.SAMPLE_IDENTIFIER | bit)
        with pytest.raises(P.PerfDataError, match='this parser cannot read'):
            P.PerfData(bad)
    two = build(BASIC, 2, [(0x1000, None, 0)], 0, 0x1000, 0)
    with pytest.raises(P.PerfDataError, match='samples carry no id'):
        P.PerfData(two)
    chain = build(BASIC | P.SAMPLE_IDENTIFIER | P.SAMPLE_CALLCHAIN, 1,
                  [(0x1000, [CONTEXT_USER, 0x1000], 0)], 0, 0x1000, 0)
    assert P.PerfData(chain).samples[0].callchain == [CONTEXT_USER, 0x1000]
    sample = P.PerfData(chain).records[2].offset
    with pytest.raises(P.PerfDataError, match='callchain of 3 entries runs past'):
        P.PerfData(put(chain, sample + 8 + 40, '<Q', 3))
    with pytest.raises(P.PerfDataError, match='size 72, but sample_type'):
        P.PerfData(put(chain, sample + 8 + 40, '<Q', 1))


def test_check_perf_stderr():
    """The stderr check passes perf's harmless lines and lists anything else"""
    unwind = 'unwind: target platform=arm64 is not supported\n'
    lost = 'Warning:\nProcessed 17 samples and lost 41.18%!\n\n'
    P.check_perf_stderr('')
    P.check_perf_stderr(unwind + '\n' + unwind)
    P.check_perf_stderr(lost + unwind, allow_lost=True)
    P.check_perf_stderr('qemu says hi\n', allow=[r'qemu says \w+'])
    bad = [
        ('0x138 [0x28]: failed to process type: 9 [Bad address]\nError:\n'
         'failed to process sample\n', {}, 'failed to process type'),
        ('Error:\nThe perf.data data has no samples!\n', {}, 'has no samples'),
        (lost, {}, 'Processed 17 samples'),
        ('Warning:\nsomething else\n', {'allow_lost': True}, 'Warning:\n  something else'),
        ('Kernel address maps (/proc/{kallsyms,modules}) are restricted\n' + unwind, {},
         'restricted'),
    ]
    for text, kwargs, pattern in bad:
        with pytest.raises(AssertionError, match=pattern) as exc:
            P.check_perf_stderr(text, **kwargs)
        assert 'unwind' not in str(exc.value)
