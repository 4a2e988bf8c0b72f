# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the blocks of tools/perfrec/perfrec_extract.py's decoder

"""Host tests of the blocks of tools/perfrec/perfrec_extract.py's decoder.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_extract_frames.py

The block decoder (tools/perfrec/perfrec_frames.py, through perfrec_extract):
round trips of every kind, encoding and payload size through extract();
console noise and every kind of line end; then each way one block can be
damaged (a line dropped, garbled, duplicated, swapped or flipped, bad
base64, a wrong size, crc32 or wire length, a corrupt gzip stream, bad
begin and end lines), each checked for the exact log line its problem is
reported at and for no data given. Logs are built by extract_helpers.py.
"""

import gzip
import zlib

import pytest

from extract_helpers import (BEGIN_AT, DATA, EOLS, HEAD, ID_A, ID_B, PE, compressible,
                             errors, extract_lines, flip, noisy_log, only_recording,
                             perf_file, pipe_chunks, stream_blocks, tamper_field, wrap)


# Round trips


PAYLOADS = {
    'empty': b'', 'one': b'P', 'magic': PE.PERF_MAGIC, '56': perf_file(56), '57': perf_file(57),
    '58': perf_file(58), '114': perf_file(114), '115': perf_file(115),
    '4k': perf_file(4096), '4k-text': compressible(4096),
}
LARGE = {'1M-random': lambda: perf_file(1 << 20, seed=11), '1M-text': lambda: compressible(1 << 20)}


@pytest.mark.parametrize('kind', ['file', 'pipe'])
@pytest.mark.parametrize('compress', [False, True])
@pytest.mark.parametrize('name', sorted(PAYLOADS))
def test_round_trip(kind, compress, name):
    """encode_block then extract gives the payload back, for both kinds and encodings"""
    data = PAYLOADS[name]
    rec = only_recording(wrap(PE.encode_block(data, ID_A, 0, kind, compress)))
    assert (rec.rec_id, rec.kind, rec.chunks, rec.data) == (ID_A, kind, 1, data)


@pytest.mark.parametrize('kind', ['file', 'pipe'])
@pytest.mark.parametrize('compress', [False, True])
@pytest.mark.parametrize('name', sorted(LARGE))
def test_round_trip_large(kind, compress, name):
    """1 MiB payloads, random and compressible, through a CRLF log"""
    data = LARGE[name]()
    blk = PE.encode_block(data, ID_A, 0, kind, compress)
    if compress and name == '1M-text':
        assert len(blk) < 2000           # gzip did its work
    recs, probs = extract_lines(wrap(blk), eol='\r\n')
    assert errors(probs) == []
    assert recs[0].ok and recs[0].data == data


def test_round_trip_stream():
    """A pipe stream of several chunks, some compressed, comes back whole"""
    chunks = pipe_chunks(5)
    rec = only_recording(wrap(*stream_blocks(chunks, compress={1, 3})))
    assert (rec.kind, rec.chunks, rec.data) == ('pipe', 5, b''.join(chunks))


def test_empty_chunks_in_stream():
    """A stream may carry empty chunks"""
    chunks = pipe_chunks(4)
    chunks[1] = chunks[3] = b''
    rec = only_recording(wrap(*stream_blocks(chunks, compress={3})))
    assert rec.data == b''.join(chunks)


# Console noise


@pytest.mark.parametrize('eol', sorted(EOLS))
def test_noise(eol):
    """Prompts, echoes, other output, blank lines, each kind of line end"""
    file_data = compressible(3000)
    chunks = pipe_chunks(3)
    blocks = [PE.encode_block(file_data, ID_A, 0, 'file', True)] + stream_blocks(chunks)
    recs, probs = extract_lines(noisy_log(blocks), eol=EOLS[eol])
    assert probs == []
    assert [(r.rec_id, r.data) for r in recs] == [(ID_A, file_data), (ID_B, b''.join(chunks))]


def test_noise_inside_block_tolerated():
    """A stray non-payload line inside a block does no harm if no line is lost"""
    data = perf_file(300)
    blk = PE.encode_block(data, ID_A, 0, 'file', False)
    blk[3:3] = ['', 'some other output', '   ']
    assert only_recording(wrap(blk)).data == data


@pytest.mark.parametrize('eol', sorted(EOLS))
def test_line_numbers_follow_line_ends(eol):
    """Log line numbers are what an editor shows, whatever the line ends"""
    blk = PE.encode_block(perf_file(300), ID_A, 0, 'file', False)
    del blk[3]                              # payload line 2, log line BEGIN_AT + 3
    _, probs = extract_lines(wrap(blk), eol=EOLS[eol])
    assert errors(probs)[0] == 'log:%d: payload line 2 missing in block %s/0' % (
        BEGIN_AT + 3, ID_A)


# Damaged blocks, each problem at its exact log line


def damaged(edit, data=DATA, compress=False):
    """Encode @data, let @edit change the block's lines, extract the wrapped log

    Returns (recording, error strings); the recording must have no data.
    """
    blk = PE.encode_block(data, ID_A, 0, 'file', compress)
    new = edit(blk)
    blk = new if isinstance(new, list) else blk
    recs, probs = PE.extract(wrap(blk))
    assert len(recs) == 1
    assert recs[0].data is None and not recs[0].ok
    assert recs[0].blocks[0].status in ('damaged', 'truncated')
    return recs[0], errors(probs)


def nothing_written(rec_id=ID_A):
    return 'log:%d: recording %s (file) has no intact block: nothing written' % (BEGIN_AT,
                                                                                  rec_id)


def test_dropped_line():
    _, errs = damaged(lambda b: b.pop(3))
    assert errs == ['log:%d: payload line 2 missing in block %s/0' % (BEGIN_AT + 3, ID_A),
                    nothing_written()]


def test_dropped_lines():
    def edit(blk):
        del blk[2:5]
    _, errs = damaged(edit)
    assert errs[0] == 'log:%d: payload lines 1-3 missing in block %s/0' % (BEGIN_AT + 2, ID_A)


def test_dropped_last_line():
    _, errs = damaged(lambda b: b.pop(6))
    assert errs[0] == ('log:%d: payload line 5 missing in block %s/0 (end line reached)' %
                       (BEGIN_AT + 6, ID_A))


def test_garbled_line_named():
    """A line garbled beyond recognition is named as the place of the loss"""
    def edit(blk):
        blk[3] = blk[3].replace(':', ';')
    _, errs = damaged(edit)
    assert errs[0] == 'log:%d: payload line 2 missing in block %s/0' % (BEGIN_AT + 3, ID_A)


def test_flipped_character():
    """A flipped character that is still base64: the crc16 catches it"""
    def edit(blk):
        blk[2] = flip(blk[2], 10)
    _, errs = damaged(edit)
    assert len(errs) == 2
    assert errs[0].startswith('log:%d: crc16 mismatch in payload line 1 of block %s/0' %
                              (BEGIN_AT + 2, ID_A))
    assert errs[1] == nothing_written()


def test_flipped_crc16():
    def edit(blk):
        blk[4] = flip(blk[4], len(blk[4]) - 1, '0123456789abcdef')
    _, errs = damaged(edit)
    assert errs[0].startswith('log:%d: crc16 mismatch in payload line 3' % (BEGIN_AT + 4))


def test_invalid_base64_character():
    def edit(blk):
        blk[5] = blk[5][:12] + '*' + blk[5][13:]
    _, errs = damaged(edit)
    assert errs[0] == ("log:%d: invalid base64 character '*' in payload line 4 of block %s/0"
                       % (BEGIN_AT + 5, ID_A))


def test_bad_base64_padding():
    def edit(blk):
        fields = blk[6].split(':')
        blk[6] = ':'.join([fields[0], fields[1][:-1], fields[2]])
    _, errs = damaged(edit)
    assert errs[0].startswith('log:%d: invalid base64 (bad length or padding) in payload line 5'
                              % (BEGIN_AT + 6))


def test_duplicated_line():
    _, errs = damaged(lambda b: b.insert(3, b[2]))
    assert errs[0] == 'log:%d: payload line 1 duplicated in block %s/0 (expected line 2)' % (
        BEGIN_AT + 3, ID_A)


def test_swapped_lines():
    def edit(blk):
        blk[2], blk[3] = blk[3], blk[2]
    _, errs = damaged(edit)
    assert errs[:2] == [
        'log:%d: payload line 1 missing in block %s/0' % (BEGIN_AT + 2, ID_A),
        'log:%d: payload line 1 out of order in block %s/0 (expected line 3)' % (BEGIN_AT + 3,
                                                                                  ID_A)]


def test_line_beyond_count():
    def edit(blk):
        blk.insert(7, '6:QUJD:%04x' % PE.crc16(b'ABC'))
    _, errs = damaged(edit)
    assert errs[0] == 'log:%d: payload line 6 is beyond the 6 lines of block %s/0' % (
        BEGIN_AT + 7, ID_A)


def test_short_line():
    """A line that carries fewer than 57 bytes though it is not the last"""
    def edit(blk):
        blk[1] = '0:QUJD:%04x' % PE.crc16(b'ABC')
    _, errs = damaged(edit)
    assert errs[0] == 'log:%d: payload line 0 of block %s/0 carries 3 bytes, want 57' % (
        BEGIN_AT + 1, ID_A)


def test_cut_off_block():
    """No end line: truncated, at the last line of the log"""
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    lines = HEAD + blk[:4]
    recs, probs = PE.extract(lines)
    assert recs[0].data is None and recs[0].blocks[0].status == 'truncated'
    assert errors(probs)[0] == ('log:%d: block %s/0 (begun at line %d) truncated: the log ends '
                                'before its end line' % (len(lines), ID_A, BEGIN_AT))
    # Output after the cut (the board reset, say) does not change that
    recs, probs = PE.extract(lines + ['', 'U-Boot 2023.01', '=> '])
    assert errors(probs)[0].startswith('log:%d: block %s/0 (begun at line %d) truncated' %
                                       (len(lines) + 3, ID_A, BEGIN_AT))


def test_wrong_crc32():
    """Every line intact but the begin line's crc32 tampered with"""
    def edit(blk):
        blk[0] = blk[0].replace('%08x' % zlib.crc32(DATA), '%08x' % (zlib.crc32(DATA) ^ 1))
    _, errs = damaged(edit)
    assert errs[0] == 'log:%d: payload crc32 of block %s/0 is %08x, begin line says %08x' % (
        BEGIN_AT, ID_A, zlib.crc32(DATA), zlib.crc32(DATA) ^ 1)


def test_wrong_size_b64():
    _, errs = damaged(lambda b: tamper_field(b, 'size', 301))
    assert errs[0] == ('log:%d: malformed begin line of block %s/0: size 301 differs from '
                       'wire 300 with enc b64' % (BEGIN_AT, ID_A))


@pytest.mark.parametrize('size,message', [
    (301, 'payload of block %s/0 is 300 bytes, begin line says 301' % ID_A),
    (299, 'gzip content of block %s/0 is longer than its size 299' % ID_A)])
def test_wrong_size_b64z(size, message):
    _, errs = damaged(lambda b: tamper_field(b, 'size', size), compress=True)
    assert errs[0] == 'log:%d: %s' % (BEGIN_AT, message)


def test_wrong_wire_length():
    """A wire length the lines cannot carry is a malformed begin line"""
    _, errs = damaged(lambda b: tamper_field(b, 'wire', 250))
    assert errs[0] == 'log:%d: malformed begin line of block %s/0: 6 lines cannot carry 250 ' \
                      'wire bytes' % (BEGIN_AT, ID_A)


def gzip_block(wire, data=DATA):
    """A b64z block of @data whose wire data is @wire (a damaged gzip stream)"""
    return PE.frame_lines(wire, ID_A, 0, 'file', len(data), zlib.crc32(data), 'b64z')


@pytest.mark.parametrize('where,message', [
    ('magic', 'corrupt gzip data in block %s/0: Error -3 while decompressing data: '
              'incorrect header check' % ID_A),
    ('crc', 'corrupt gzip data in block %s/0: Error -3 while decompressing data: '
            'incorrect data check' % ID_A),
    ('cut', 'gzip stream of block %s/0 is incomplete' % ID_A),
    ('extra', 'block %s/0 has 3 bytes after its gzip stream' % ID_A)])
def test_corrupt_gzip(where, message):
    """Every line intact, but the gzip stream they carry is not"""
    wire = bytearray(gzip.compress(DATA, mtime=0))
    if where == 'magic':
        wire[0] ^= 0xff
    elif where == 'crc':
        wire[-8] ^= 0x01
    elif where == 'cut':
        del wire[-10:]
    else:
        wire += b'xyz'
    _, errs = damaged(lambda b: gzip_block(bytes(wire)), compress=True)
    assert errs[0] == 'log:%d: %s' % (BEGIN_AT, message)


def test_end_line_mismatch():
    def edit(blk):
        blk[-1] = 'perfrec-end %s 1' % ID_A
    _, errs = damaged(edit)
    assert errs[0] == 'log:%d: end line names block %s/1 but block %s/0 began at line %d' % (
        BEGIN_AT + 7, ID_A, ID_A, BEGIN_AT)


def test_malformed_end_line():
    def edit(blk):
        blk[-1] += ' x'
    _, errs = damaged(edit)
    assert errs[0] == 'log:%d: malformed end line of block %s/0' % (BEGIN_AT + 7, ID_A)


@pytest.mark.parametrize('field,value,message', [
    ('version', 2, "format version '2' is not supported (only 1)"),
    ('kind', 'stream', "kind 'stream' is not file or pipe"),
    ('seq', 1, 'a file block must have seq 0, not 1'),
    ('enc', 'b32', "enc 'b32' is not b64 or b64z"),
    ('crc32', 'ABCDEF12', "crc32 'ABCDEF12' is not 8 lowercase hex digits"),
    ('lines', '06', "lines '06' is not a decimal number")])
def test_malformed_begin(field, value, message):
    def edit(blk):
        tamper_field(blk, field, value)
        if field == 'seq':
            blk[-1] = 'perfrec-end %s %s' % (ID_A, value)
    _, errs = damaged(edit)
    seq = value if field == 'seq' else 0
    assert errs[0] == 'log:%d: malformed begin line of block %s/%s: %s' % (BEGIN_AT, ID_A, seq,
                                                                           message)


def test_begin_without_id():
    """A begin line without a readable id belongs to no recording: a warning"""
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    blk[0] = blk[0].replace(ID_A, ID_A.upper())
    recs, probs = PE.extract(wrap(blk))
    assert recs == []
    assert probs[0].format('log') == ("log:%d: warning: malformed begin line of block ?/0: "
                                      "id '%s' is not 8 lowercase hex digits" %
                                      (BEGIN_AT, ID_A.upper()))


def test_lost_begin_line():
    """An end line without its begin line is a damaged copy of that block"""
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    recs, probs = PE.extract(wrap(blk[1:]))
    assert recs[0].data is None
    assert errors(probs)[0] == 'log:%d: end line of block %s/0 without its begin line' % (
        BEGIN_AT + 6, ID_A)
