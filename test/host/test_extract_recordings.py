# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the recordings of tools/perfrec/perfrec_extract.py's decoder

"""Host tests of the recordings of tools/perfrec/perfrec_extract.py's decoder.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_extract_recordings.py

How blocks make recordings (tools/perfrec/perfrec_reassemble.py, through
perfrec_extract): several recordings in one log, a recording dumped again
after a damaged, garbled or cut-off copy, differing copies, stream chunks
out of order; a kind conflict and streams with a missing or damaged chunk,
each problem at its exact log line; garbage that must never raise; and a
fuzz loop that mutates valid logs and checks extract() never raises nor
returns data that differs from what was encoded. Logs are built by
extract_helpers.py.
"""

import random
import time
import zlib

import pytest

from extract_helpers import (BEGIN_AT, DATA, EOLS, HEAD, ID_A, ID_B, PE, TAIL, compressible,
                             errors, flip, noisy_log, only_recording, perf_file, pipe_chunks,
                             stream_blocks, stream_lines, tamper_field, to_bytes, wrap)


# Several blocks and recordings


def test_two_recordings():
    """Two recordings: both found, the last one last"""
    data_a, data_b = perf_file(500, 1), perf_file(700, 2)
    recs, probs = PE.extract(wrap(PE.encode_block(data_a, ID_A, 0, 'file', False),
                                  PE.encode_block(data_b, ID_B, 0, 'file', True)))
    assert probs == []
    assert [(r.rec_id, r.data) for r in recs] == [(ID_A, data_a), (ID_B, data_b)]


def test_same_recording_twice():
    """The same recording dumped twice is one recording, without complaint"""
    data = perf_file(500)
    blk = PE.encode_block(data, ID_A, 0, 'file', True)
    rec = only_recording(wrap(blk, blk))
    assert (len(rec.blocks), rec.data, rec.problems) == (2, data, [])


@pytest.mark.parametrize('damaged', [0, 1])
def test_redump_after_damage(damaged):
    """A damaged copy is ignored, with warnings, when the other copy is intact"""
    data = perf_file(500)
    blk = PE.encode_block(data, ID_A, 0, 'file', False)
    bad = list(blk)
    bad[2] = bad[2].replace(bad[2][5], 'A' if bad[2][5] != 'A' else 'B', 1)
    recs, probs = PE.extract(wrap(*([bad, blk] if damaged == 0 else [blk, bad])))
    assert errors(probs) == []
    assert recs[0].ok and recs[0].data == data
    bad_line = BEGIN_AT + 2 + (0 if damaged == 0 else len(blk) + 1)
    assert [p.lineno for p in probs] == [bad_line, bad_line - 2]
    assert probs[0].message.startswith('crc16 mismatch in payload line 1 of block')
    assert probs[1].message == ('damaged copy of block %s/0 ignored: using the good copy at '
                                'line %d' % (ID_A, BEGIN_AT + (len(blk) + 1 if damaged == 0
                                                               else 0)))


def test_redump_after_garbled_seq():
    """A copy whose seq is unreadable is ignored too when the file has a good copy"""
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    bad = list(blk)
    tamper_field(bad, 'seq', 'O')
    recs, probs = PE.extract(wrap(bad, blk))
    assert errors(probs) == []
    assert recs[0].ok and recs[0].data == DATA
    assert [p.lineno for p in probs] == [BEGIN_AT, BEGIN_AT + 7, BEGIN_AT]


def test_redump_after_cut_off():
    """A dump cut off by the next dump's begin line is replaced by that dump"""
    data = perf_file(500)
    blk = PE.encode_block(data, ID_A, 0, 'file', False)
    recs, probs = PE.extract(HEAD + blk[:4] + blk + TAIL)
    assert errors(probs) == []
    assert recs[0].ok and recs[0].data == data
    assert [p.lineno for p in probs] == [BEGIN_AT + 4, BEGIN_AT]
    assert 'truncated: a begin line came before its end line' in probs[0].message


def test_differing_copies_use_the_later():
    """Two intact but different blocks with one id and seq: the later one wins"""
    first, second = perf_file(300, 1), perf_file(300, 2)
    recs, probs = PE.extract(wrap(PE.encode_block(first, ID_A, 0, 'file', False),
                                  PE.encode_block(second, ID_A, 0, 'file', False)))
    assert recs[0].ok and recs[0].data == second
    assert [p.warning for p in probs] == [True]
    assert 'differs from its copy at line %d' % BEGIN_AT in probs[0].message


def test_stream_out_of_order():
    """Stream chunks in any order in the log, interleaved with another recording"""
    chunks = pipe_chunks(4)
    blocks = stream_blocks(chunks, order=[2, 0, 3, 1], compress={0, 3})
    other = perf_file(400)
    blocks.insert(2, PE.encode_block(other, ID_A, 0, 'file', False))
    recs, probs = PE.extract(wrap(*blocks))
    assert probs == []
    assert [(r.rec_id, r.data) for r in recs] == [(ID_A, other), (ID_B, b''.join(chunks))]


def test_stream_dumped_twice():
    """A stream dumped twice is still one recording"""
    chunks = pipe_chunks(3)
    rec = only_recording(wrap(*(stream_blocks(chunks) * 2)))
    assert (rec.chunks, rec.data, rec.problems) == (3, b''.join(chunks), [])


# Damaged recordings, each problem at its exact log line


def test_kind_conflict():
    recs, probs = PE.extract(wrap(PE.encode_block(DATA, ID_A, 0, 'file', False),
                                  PE.encode_block(DATA, ID_A, 0, 'pipe', False)))
    assert recs[0].data is None
    assert errors(probs) == ['log:%d: recording %s has both file (line %d) and pipe (line %d) '
                             'blocks' % (BEGIN_AT + 9, ID_A, BEGIN_AT, BEGIN_AT + 9)]


def test_stream_missing_middle_chunk():
    chunks = pipe_chunks(5)
    lines, starts = stream_lines(chunks, [0, 1, 3, 4])
    recs, probs = PE.extract(lines)
    rec = recs[0]
    assert (rec.ok, rec.chunks, rec.data) == (False, 2, chunks[0] + chunks[1])
    assert errors(probs) == ['log:%d: stream %s: chunk 2 missing: writing chunks 0-1 only; '
                             'chunks 3-4 after it (from line %d) not used' %
                             (starts[2], ID_B, starts[2])]


def test_stream_damaged_middle_chunk():
    chunks = pipe_chunks(4)
    blocks = stream_blocks(chunks)
    blocks[1][2] = flip(blocks[1][2], 7)
    lines = wrap(*blocks)
    recs, probs = PE.extract(lines)
    at = BEGIN_AT + len(blocks[0]) + 1
    assert (recs[0].chunks, recs[0].data) == (1, chunks[0])
    errs = errors(probs)
    assert errs[0].startswith('log:%d: crc16 mismatch in payload line 1 of block %s/1' %
                              (at + 2, ID_B))
    assert errs[1] == ('log:%d: stream %s: chunk 1 damaged: writing chunk 0 only; chunks '
                       '2-3 after it (from line %d) not used' %
                       (at, ID_B, at + len(blocks[1]) + 1))


def test_stream_missing_first_chunk():
    chunks = pipe_chunks(3)
    lines, starts = stream_lines(chunks, [2, 1])
    recs, probs = PE.extract(lines)
    assert recs[0].data is None
    assert errors(probs) == ['log:%d: stream %s: chunk 0 missing: nothing written; chunks 1-2 '
                             'after it (from line %d) not used' % (starts[1], ID_B, starts[1])]


# Garbage


def test_garbage_never_raises():
    """Binary junk, odd Unicode digits, half markers: problems at most, no exception"""
    rng = random.Random(5)
    junk = [rng.randbytes(rng.randint(0, 300)) for _ in range(50)]
    junk += [b'perfrec-begin', b'perfrec-begin 1 \xd9\xa1\xd9\xa2 0 file',
             'perfrec-begin 1 1a2b3c4d ١ file 1 00000000 b64 1 1'.encode(),
             b'perfrec-end', b'perfrec-end 1a2b3c4d 99999999999999999999', b'0:::', b':',
             b'perfrec-begin 1 1a2b3c4d 0 pipe 999999999999 00000000 b64z 57 1',
             b'0:' + b'A' * 76 + b':0000', b'perfrec-end 1a2b3c4d 0']
    recs, _ = PE.extract(b'\n'.join(junk))
    recs2, _ = PE.extract(junk)
    assert all(r.data is None for r in recs + recs2)


def test_whole_log_as_one_string():
    """extract() also takes the log as one str or bytes"""
    log = to_bytes(wrap(PE.encode_block(DATA, ID_A, 0, 'file', True)), '\r\r\n')
    for whole in (log, log.decode()):
        recs, probs = PE.extract(whole)
        assert probs == [] and recs[0].data == DATA


# Fuzzing


def fuzz_bases():
    """Valid logs to mutate, each with what its recordings hold: id -> (kind, data)"""
    bases = []
    data_a = perf_file(260, 21)
    data_b = compressible(900)
    chunks = pipe_chunks(4, size=120, seed=22)
    blk_a = PE.encode_block(data_a, ID_A, 0, 'file', False)
    blk_b = PE.encode_block(data_b, ID_B, 0, 'file', True)
    stream = stream_blocks(chunks, rec_id='00c0ffee', compress={1})
    orig = {ID_A: ('file', data_a), ID_B: ('file', data_b), '00c0ffee': ('pipe', chunks)}
    bases.append((noisy_log([blk_a]), orig))
    bases.append((wrap(blk_b), orig))
    bases.append((wrap(*stream), orig))
    bases.append((noisy_log([blk_a, stream[2], stream[0], blk_b, stream[1], stream[3]]), orig))
    bases.append((wrap(blk_a, blk_a), orig))
    return bases


FUZZ_CHARS = ('ABCXYZabcxyz0123456789+/=:- \r\t\x00\xff\u0661'
              'perfrec-begin perfrec-end')


def mutate(rng, lines):
    """Apply one random mutation to the log @lines in place"""
    if not lines:
        lines.append('')
    pick = rng.randrange(len(lines))
    line = lines[pick]
    pos = rng.randrange(len(line) + 1)
    what = rng.randrange(11)
    if what == 0:                               # replace a character
        lines[pick] = line[:pos] + rng.choice(FUZZ_CHARS) + line[pos + 1:]
    elif what == 1:                             # delete a character
        lines[pick] = line[:pos] + line[pos + 1:]
    elif what == 2:                             # insert a character
        lines[pick] = line[:pos] + rng.choice(FUZZ_CHARS) + line[pos:]
    elif what == 3:                             # drop a line
        del lines[pick]
    elif what == 4:                             # duplicate a line
        lines.insert(pick, line)
    elif what == 5:                             # move a line
        del lines[pick]
        lines.insert(rng.randrange(len(lines) + 1), line)
    elif what == 6:                             # cut the log short
        del lines[pick:]
    elif what == 7:                             # a line of junk
        lines.insert(pick, ''.join(rng.choice(FUZZ_CHARS) for _ in range(rng.randrange(40))))
    elif what == 8:                             # change a digit
        digits = [i for i, c in enumerate(line) if c.isdigit()]
        if digits:
            i = rng.choice(digits)
            lines[pick] = line[:i] + str(rng.randrange(10)) + line[i + 1:]
    elif what == 9:                             # copy a line over another one
        lines[pick] = rng.choice(lines)
    else:                                       # split a line in two
        lines[pick:pick + 1] = [line[:pos], line[pos:]]


def test_fuzz():
    """Mutated logs: extract() never raises nor returns data unlike the original"""
    start = time.monotonic()
    rng = random.Random(20260101)
    bases = fuzz_bases()
    for lines, orig in bases:
        recs, probs = PE.extract(lines)
        assert [p for p in probs if not p.warning] == [] and all(r.ok for r in recs)
    stats = {'intact': 0, 'partial': 0, 'none': 0}
    for _ in range(2000):
        lines, orig = rng.choice(bases)
        lines = list(lines)
        for _ in range(rng.randint(1, 3)):
            mutate(rng, lines)
        if rng.randrange(8) == 0:
            lines = PE.split_log(to_bytes(lines, rng.choice(list(EOLS.values()))))
        recs, probs = PE.extract(lines)
        for prob in probs:
            prob.format('log')
        PE.list_lines([blk for rec in recs for blk in rec.blocks])
        for rec in recs:
            if rec.data is None:
                stats['none'] += 1
                continue
            assert rec.rec_id in orig
            kind, want = orig[rec.rec_id]
            assert rec.kind == kind
            if kind == 'file':
                assert rec.chunks == 1
                assert len(rec.data) == len(want)
                assert zlib.crc32(rec.data) == zlib.crc32(want)
            else:
                assert 1 <= rec.chunks <= len(want)
                assert rec.data == b''.join(want[:rec.chunks])
            stats['intact' if rec.ok else 'partial'] += 1
    # The mutations both spared and broke recordings
    assert min(stats.values()) > 20, stats
    assert time.monotonic() - start < 10
