# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the C console-frame encoder behind 'perfrec dump'

"""lib/perfrec/perfrec_frame.c, built natively with ASan/UBSan into
test/host/perfrec_frame_run.c, against the Python side.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perfrec_frame.py

The board frames a recording with the C encoder; the host reads it back with
tools/perfrec/perfrec_extract.py, whose reference encoder is pinned by the
golden blocks of test_extract.py. The C encoder must print those blocks byte
for byte, print what the reference frames of any wire data (every length
around a line's 57 bytes, ids, chunk numbers and sizes at their limits), and
its blocks must extract to the payload they carry.
"""

import gzip
import os
import random
import sys
import zlib

import pytest

from conftest import HOSTCC, REPO, run, tool
from test_extract import GOLDEN_BLOCKS

sys.path.insert(0, os.path.join(REPO, 'tools', 'perfrec'))
# pylint: disable=wrong-import-position
import perfrec_extract as PE  # noqa: E402


@pytest.fixture(scope='module')
def frame(tmp_path_factory):
    """Return a function that frames wire bytes with the C encoder; it returns the lines"""
    path = str(tmp_path_factory.mktemp('frame') / 'perfrec_frame_run')
    run([tool(HOSTCC), '-Wall', '-Wextra', '-Werror', '-fsanitize=address,undefined',
         '-fno-sanitize-recover=all', '-DUSE_HOSTCC', '-I', os.path.join(REPO, 'include'),
         '-o', path, os.path.join(REPO, 'test', 'host', 'perfrec_frame_run.c'),
         os.path.join(REPO, 'lib', 'perfrec', 'perfrec_frame.c')])

    def do_frame(wire, rec_id, seq, kind, size, crc32, enc):
        proc = run([path, '%x' % rec_id, str(seq), kind, str(size), '%x' % crc32, enc],
                   data=wire)
        assert not proc.stderr, proc.stderr
        assert proc.stdout.endswith('\n')
        return proc.stdout.split('\n')[:-1]

    return do_frame


def wire_of(data, compress):
    """The wire data of @data as the reference encoder sends it"""
    return gzip.compress(data, mtime=0) if compress else data


@pytest.mark.parametrize('golden', GOLDEN_BLOCKS, ids=['file', 'empty-pipe', 'empty-gzip'])
def test_golden_blocks(frame, golden):
    """The C encoder prints the golden blocks of the Python side byte for byte"""
    data, rec_id, seq, kind, compress, lines = golden
    rec_id = int(rec_id, 16) if isinstance(rec_id, str) else rec_id
    assert frame(wire_of(data, compress), rec_id, seq, kind, len(data), zlib.crc32(data),
                 'b64z' if compress else 'b64') == lines


@pytest.mark.parametrize('size', [1, 2, 3, 4, 55, 56, 57, 58, 59, 113, 114, 115, 171,
                                  57 * 20 + 5, 10000])
def test_lengths_match_reference(frame, size):
    """Every length around a payload line's 57 bytes frames as the reference does"""
    data = random.Random(size).randbytes(size)
    want = PE.encode_block(data, 0x1a2b3c4d, 5, 'pipe', False)
    assert frame(data, 0x1a2b3c4d, 5, 'pipe', size, zlib.crc32(data), 'b64') == want


@pytest.mark.parametrize('rec_id, seq, kind, size', [
    (0, 0, 'file', 0), (0xffffffff, 0, 'file', 5 << 30),
    (0x80000001, 0xffffffff, 'pipe', 0xffffffff), (0xabc, 12, 'pipe', 1)])
def test_fields_match_reference(frame, rec_id, seq, kind, size):
    """Ids, chunk numbers and sizes at their limits, as the reference prints them"""
    wire = bytes(range(256)) * 3
    for enc in ('b64', 'b64z'):
        want = PE.frame_lines(wire, rec_id, seq, kind, size, 0xfedcba98, enc)
        assert frame(wire, rec_id, seq, kind, size, 0xfedcba98, enc) == want


@pytest.mark.parametrize('compress', [False, True])
def test_blocks_extract(frame, compress):
    """A C block, as on a console with noise around it, extracts to its payload"""
    data = PE.PERF_MAGIC + random.Random(3).randbytes(57 * 9 + 11)
    lines = frame(wire_of(data, compress), 0x5eed, 0, 'file', len(data), zlib.crc32(data),
                  'b64z' if compress else 'b64')
    recs, probs = PE.extract(['=> perfrec dump'] + lines + ['=> '])
    assert [p for p in probs if not p.warning] == []
    assert len(recs) == 1 and recs[0].ok
    assert recs[0].data == data
