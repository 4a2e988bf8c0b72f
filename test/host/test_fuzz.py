# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Fuzz loops over the host parsers: the console-log extractor and the perf.data reader

"""Mutated inputs for tools/perfrec/perfrec_extract.py and
test/py/tests/perfrec_data.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_fuzz.py

Each case starts from a valid input and applies a few random mutations
(a flipped byte, a line deleted, duplicated, swapped or cut short, garbage
inserted, the log truncated). The extractor must never raise, and whatever
it calls intact must be exactly the data that was dumped (a stream: exactly
its first chunks); no wrong bytes ever pass. The perf.data reader must
either parse or raise its own PerfDataError, never anything else.
PERFREC_FUZZ_CASES (default 2000; 'make soak' gives more) sets the count;
the seeds are fixed, so a failure can be replayed.
"""

import os
import random
import sys

import pytest

from conftest import REPO, perfrec_data

sys.path.insert(0, os.path.join(REPO, 'tools', 'perfrec'))
# pylint: disable=wrong-import-position
import perfrec_extract as PE  # noqa: E402

CASES = int(os.environ.get('PERFREC_FUZZ_CASES', '2000'))
FILE_ID, STREAM_ID = '0badcafe', '5eed5eed'


def rand_bytes(rng, size):
    return bytes(rng.getrandbits(8) for _ in range(size))


def make_log(rng, compress):
    """A console log with one file recording and a three-chunk stream; return
    (log lines, file data, stream chunks)"""
    data = rand_bytes(rng, rng.randrange(200, 3000))
    chunks = [rand_bytes(rng, rng.randrange(50, 800)) for _ in range(3)]
    lines = ['U-Boot 2023.01', '=> perfrec dump' + (' -z' if compress else '')]
    lines += PE.encode_block(data, FILE_ID, 0, 'file', compress)
    lines += ['=> crc32 0x40000000 0x100', 'crc32 for 40000000 ... 400000ff ==> 12345678']
    for seq, chunk in enumerate(chunks):
        lines += PE.encode_block(chunk, STREAM_ID, seq, 'pipe', compress)
        lines += ['=> echo %d' % seq, str(seq)]
    return lines + ['=> '], data, chunks


def mutate(rng, lines):
    """Apply one to three random mutations to a copy of @lines"""
    lines = list(lines)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(7)
        i = rng.randrange(len(lines))
        if op == 0 and lines[i]:
            pos = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:pos] + chr(rng.randrange(32, 127)) + lines[i][pos + 1:]
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, lines[i])
        elif op == 3:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 4:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        elif op == 5:
            lines.insert(i, ''.join(chr(rng.randrange(32, 127))
                                    for _ in range(rng.randrange(80))))
        else:
            del lines[rng.randrange(len(lines)):]
        if not lines:
            lines = ['']
    return lines


@pytest.mark.parametrize('compress', [False, True])
def test_extractor_fuzz(compress):
    """No mutated log crashes the extractor or yields wrong bytes"""
    outcomes = {'intact': 0, 'rejected': 0}
    for case in range(CASES):
        rng = random.Random(case * 2 + compress)
        lines, data, chunks = make_log(rng, compress)
        mutated = mutate(rng, lines)
        recordings, _ = PE.extract(mutated)
        for rec in recordings:
            if not rec.ok:
                outcomes['rejected'] += 1
                assert rec.data is None or rec.kind == 'pipe', (case, rec.rec_id)
                continue
            outcomes['intact'] += 1
            if rec.rec_id == FILE_ID:
                assert rec.data == data, 'case %d: wrong file bytes accepted' % case
            else:
                assert rec.rec_id == STREAM_ID, (case, rec.rec_id)
                assert rec.data == b''.join(chunks[:rec.chunks]), \
                    'case %d: wrong stream bytes accepted' % case
        # A stream's usable prefix, when the log breaks later on, is still exact
        for rec in recordings:
            if rec.rec_id == STREAM_ID and rec.data is not None:
                assert rec.data == b''.join(chunks[:rec.chunks]), case
    # The mutations hit hard and softly: both outcomes must occur
    assert outcomes['intact'] > CASES // 20 and outcomes['rejected'] > CASES // 4, outcomes


def test_extractor_cli_fuzz(tmp_path):
    """The command line never writes a file from a damaged block, and says why"""
    out = tmp_path / 'perf.data'
    for case in range(CASES // 20):
        rng = random.Random(100000 + case)
        lines, data, _ = make_log(rng, bool(case % 2))
        log = tmp_path / 'console.log'
        log.write_text('\n'.join(mutate(rng, lines)) + '\n')
        if out.exists():
            out.unlink()
        ret = PE.main([str(log), '--id', FILE_ID, '-o', str(out)])
        assert ret in (0, 1), case
        if ret == 0:
            assert out.read_bytes() == data, case
        else:
            assert not out.exists(), case


def valid_perf_data():
    """A perf.data with a few samples, from the test parser's own builder"""
    from test_perfrec_data import BASIC, build     # pylint: disable=import-outside-toplevel
    samples = [(0x1000 + 4 * i, None, 0) for i in range(20)]
    return build(BASIC, 1, samples, 0x80000000, 0x10000, 0x10000)


def test_perf_data_reader_fuzz():
    """A mutated perf.data parses or raises PerfDataError, nothing else"""
    base = valid_perf_data()
    perfrec_data.PerfData(base)
    counts = {'parsed': 0, 'refused': 0}
    for case in range(CASES):
        rng = random.Random(500000 + case)
        data = bytearray(base)
        for _ in range(rng.randrange(1, 6)):
            op = rng.randrange(3)
            if op == 0:
                data[rng.randrange(len(data))] = rng.getrandbits(8)
            elif op == 1:
                pos = rng.randrange(len(data)) & ~7
                data[pos:pos + 8] = rng.getrandbits(64).to_bytes(8, 'little')
            else:
                del data[rng.randrange(len(data)):]
                if not data:
                    break
        try:
            perfrec_data.PerfData(bytes(data))
            counts['parsed'] += 1
        except perfrec_data.PerfDataError:
            counts['refused'] += 1
    assert counts['refused'] > CASES // 4, counts
