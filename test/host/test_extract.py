# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of tools/perfrec/perfrec_extract.py, the 'perfrec dump' console extractor

"""Host tests of tools/perfrec/perfrec_extract.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_extract.py

Logs are built with the tool's reference encoder (encode_block, itself pinned
by a golden block) wrapped in console noise. Every damaged log checks the exact
log line each problem is reported at, that nothing is written from a damaged
block and the exit status; the CLI runs as a subprocess (stdin, -o, --list,
--all, --device on a pseudo-terminal standing in for the board), and a fuzz
loop mutates valid logs and checks extract() never raises nor returns data
that differs from what was encoded. Nothing here skips.
"""

import binascii
import gzip
import os
import random
import select
import struct
import subprocess
import sys
import time
import zlib

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join('tools', 'perfrec', 'perfrec_extract.py')
PYTHON = '/usr/bin/python3'
sys.path.insert(0, os.path.join(REPO, 'tools', 'perfrec'))

# pylint: disable=wrong-import-position
import perfrec_extract as PE  # noqa: E402

ID_A = '1a2b3c4d'
ID_B = 'deadbeef'
HEAD = ['U-Boot 2023.01 (Jan 01 2026 - 00:00:00 +0000)', '=> perfrec dump']
TAIL = ['=> ']
BEGIN_AT = len(HEAD) + 1          # log line of the begin line in logs built by wrap()


def rand_bytes(size, seed):
    """@size reproducible random bytes"""
    return random.Random(seed).randbytes(size)


def perf_file(size, seed=1):
    """A stand-in file-mode perf.data: the magic, then random bytes (@size >= 8)"""
    return PE.PERF_MAGIC + rand_bytes(size - len(PE.PERF_MAGIC), seed)


def compressible(size):
    """@size bytes that gzip shrinks a lot, starting with the perf.data magic"""
    text = b''.join(b'PERFILE2 sample %08x ip %016x\n' % (i, 0x80000 + i * 4 % 4096)
                    for i in range(size // 30 + 1))
    return text[:size]


def pipe_chunks(count, size=200, seed=7):
    """@count chunks of a stand-in pipe stream; chunk 0 starts with the pipe header"""
    chunks = [PE.PERF_MAGIC + struct.pack('<Q', PE.PIPE_HEADER_SIZE) +
              rand_bytes(size - 16, seed)]
    chunks += [rand_bytes(size + i, seed + i) for i in range(1, count)]
    return chunks


def stream_blocks(chunks, rec_id=ID_B, order=None, compress=False):
    """The blocks of a pipe stream, in @order of chunk numbers (default 0..n-1)"""
    out = []
    for seq in range(len(chunks)) if order is None else order:
        out.append(PE.encode_block(chunks[seq], rec_id, seq, 'pipe',
                                   compress if isinstance(compress, bool) else seq in compress))
    return out


def wrap(*blocks, between=('=> perfrec dump',)):
    """A log: HEAD, the blocks with @between lines between them, TAIL"""
    lines = list(HEAD)
    for i, blk in enumerate(blocks):
        if i:
            lines += list(between)
        lines += blk
    return lines + TAIL


def to_bytes(lines, eol='\r\n'):
    """Join @lines into a console log with line end @eol"""
    return ''.join(line + eol for line in lines).encode()


def extract_lines(lines, eol=None):
    """extract() the log @lines, optionally through bytes with line end @eol"""
    if eol is not None:
        lines = PE.split_log(to_bytes(lines, eol))
    return PE.extract(lines)


def only_recording(lines):
    """extract() @lines, which must hold exactly one intact recording; return it"""
    recs, probs = PE.extract(lines)
    assert [p for p in probs if not p.warning] == [], probs
    assert len(recs) == 1
    assert recs[0].ok
    return recs[0]


def errors(probs):
    """The problems of @probs that are not warnings, as 'log:<line>: <message>'"""
    return [p.format('log') for p in probs if not p.warning]


def run_tool(args, stdin=None, cwd=REPO):
    """Run the tool as U-Boot's users do; return the CompletedProcess"""
    tool = TOOL if cwd == REPO else os.path.join(REPO, TOOL)
    return subprocess.run([PYTHON, tool] + list(args), input=stdin, capture_output=True,
                          cwd=cwd, check=False, timeout=60)


def write_log(tmp_path, lines, eol='\r\n', name='console.log'):
    """Write the log @lines to @tmp_path/@name; return its path"""
    path = tmp_path / name
    path.write_bytes(to_bytes(lines, eol))
    return str(path)


# The encoder


def test_crc16_is_xmodem():
    """The payload line check is CRC-16/XMODEM (check value 0x31c3)"""
    assert PE.crc16(b'123456789') == 0x31c3


# Blocks pinned byte for byte: (payload, id, seq, kind, compress, lines). Also the
# C encoder's reference (test_perfrec_frame.py)
GOLDEN_BLOCKS = [
    (b'PERFILE2' + bytes(range(60)), 0x1a2b3c4d, 0, 'file', False, [
        'perfrec-begin 1 1a2b3c4d 0 file 68 d533756b b64 68 2',
        '0:UEVSRklMRTIAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8w:9346',
        '1:MTIzNDU2Nzg5Ojs=:b2ed',
        'perfrec-end 1a2b3c4d 0']),
    (b'', 'deadbeef', 3, 'pipe', False, [
        'perfrec-begin 1 deadbeef 3 pipe 0 00000000 b64 0 0', 'perfrec-end deadbeef 3']),
    (b'', 'deadbeef', 3, 'pipe', True, [
        'perfrec-begin 1 deadbeef 3 pipe 0 00000000 b64z 20 1',
        '0:H4sIAAAAAAACAwMAAAAAAAAAAAA=:10b4', 'perfrec-end deadbeef 3']),
]


def test_encode_golden():
    """The reference encoder's output, pinned"""
    for data, rec_id, seq, kind, compress, lines in GOLDEN_BLOCKS:
        assert PE.encode_block(data, rec_id, seq, kind, compress) == lines


@pytest.mark.parametrize('compress', [False, True])
def test_encode_structure(compress):
    """Every field of an encoded block follows the format"""
    data = perf_file(57 * 20 + 5, seed=3)
    lines = PE.encode_block(data, 0xabc, 12, 'pipe', compress)
    wire = gzip.compress(data, mtime=0) if compress else data
    nlines = (len(wire) + 56) // 57
    assert lines[0].split() == [
        'perfrec-begin', '1', '00000abc', '12', 'pipe', str(len(data)),
        '%08x' % zlib.crc32(data), 'b64z' if compress else 'b64', str(len(wire)), str(nlines)]
    assert lines[-1] == 'perfrec-end 00000abc 12'
    assert len(lines) == nlines + 2
    got = b''
    for idx, line in enumerate(lines[1:-1]):
        num, b64, crc = line.split(':')
        assert num == '%x' % idx
        chunk = binascii.a2b_base64(b64)
        assert len(chunk) == (57 if idx < nlines - 1 else len(wire) - 57 * idx)
        assert crc == '%04x' % binascii.crc_hqx(chunk, 0)
        got += chunk
    assert got == wire


def test_encode_bad_arguments():
    """encode_block() rejects bad arguments with UsageError only"""
    for args in ((b'x', 'ABCDEF12', 0, 'file', False), (b'x', 1 << 32, 0, 'file', False),
                 (b'x', 1, 1, 'file', False), (b'x', 1, -1, 'pipe', False),
                 (b'x', 1, 0, 'stream', False)):
        with pytest.raises(PE.UsageError):
            PE.encode_block(*args)


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


EOLS = {'lf': '\n', 'crlf': '\r\n', 'crcrlf': '\r\r\n', 'cr': '\r'}


def noisy_log(blocks):
    """A realistic console: prompts, echoes, trailing spaces, a glued prompt"""
    lines = ['\x00\x00', 'U-Boot 2023.01 (Jan 01 2026 - 00:00:00 +0000)', '',
             'Hit any key to stop autoboot:  0 ', '=> perfrec record -- crc32 0x40000000 0x1000',
             'crc32 for 40000000 ... 40000fff ==> 613e1a7d',
             'perfrec: 50 samples, 0 lost, 4096 bytes of perf.data at 0x50000000, workload rc 0']
    for i, blk in enumerate(blocks):
        lines += ['=> perfrec dump', "## Error: 'foo' not defined", '   ']
        # The prompt glued in front of the begin line, trailing spaces after the rest
        lines += ['=> ' + blk[0] + '  '] + [line + ' ' * (i % 3) for line in blk[1:]]
        lines += ['perfrec: dump done', '=> ']
    return lines + ['=> reset', 'resetting ...']


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


# Damaged blocks, each problem at its exact log line


DATA = perf_file(300)           # b64: 6 payload lines, log lines BEGIN_AT+1 .. BEGIN_AT+6


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


def flip(line, pos, alphabet='ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'):
    """@line with the character at @pos replaced by another one of @alphabet"""
    new = alphabet[(alphabet.index(line[pos]) + 1) % len(alphabet)]
    return line[:pos] + new + line[pos + 1:]


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


def tamper_field(blk, field, value):
    """Set begin-line field @field (a name of BEGIN_FIELDS) of @blk to @value"""
    tokens = blk[0].split()
    tokens[1 + PE.BEGIN_FIELDS.index(field)] = str(value)
    blk[0] = ' '.join(tokens)


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


def test_kind_conflict():
    recs, probs = PE.extract(wrap(PE.encode_block(DATA, ID_A, 0, 'file', False),
                                  PE.encode_block(DATA, ID_A, 0, 'pipe', False)))
    assert recs[0].data is None
    assert errors(probs) == ['log:%d: recording %s has both file (line %d) and pipe (line %d) '
                             'blocks' % (BEGIN_AT + 9, ID_A, BEGIN_AT, BEGIN_AT + 9)]


def stream_lines(chunks, order, compress=False):
    """A wrapped log of stream blocks and the log line of each block's begin line"""
    blocks = stream_blocks(chunks, order=order, compress=compress)
    starts = []
    line = BEGIN_AT
    for blk in blocks:
        starts.append(line)
        line += len(blk) + 1
    return wrap(*blocks), starts


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


# The command line


def test_cli_stdin(tmp_path):
    data = compressible(5000)
    log = to_bytes(noisy_log([PE.encode_block(data, ID_A, 0, 'file', True)]))
    out = tmp_path / 'out.data'
    proc = run_tool(['-o', str(out), '-'], stdin=log)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == data
    assert proc.stderr.decode() == 'wrote %s: recording %s, file, 5000 bytes\n' % (out, ID_A)
    proc = run_tool(['-q', '-o', '-', '-'], stdin=log)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, data, b'')


def test_cli_default_output(tmp_path):
    path = write_log(tmp_path, wrap(PE.encode_block(DATA, ID_A, 0, 'file', False)))
    proc = run_tool([path], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / 'perf.data').read_bytes() == DATA


def test_cli_last_and_all(tmp_path):
    data_a, data_b = perf_file(400, 1), perf_file(900, 2)
    chunks = pipe_chunks(3)
    path = write_log(tmp_path, wrap(PE.encode_block(data_a, ID_A, 0, 'file', False),
                                    *stream_blocks(chunks, rec_id='00000001'),
                                    PE.encode_block(data_b, ID_B, 0, 'file', True)))
    out = str(tmp_path / 'perf.data')
    proc = run_tool([path, '-o', out])
    assert proc.returncode == 0, proc.stderr
    assert open(out, 'rb').read() == data_b
    assert sorted(os.listdir(tmp_path)) == ['console.log', 'perf.data']
    os.unlink(out)
    proc = run_tool([path, '-o', out, '--all'])
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path)) == ['console.log', 'perf.data.00000001',
                                            'perf.data.1a2b3c4d', 'perf.data.deadbeef']
    assert open(out + '.' + ID_A, 'rb').read() == data_a
    assert open(out + '.00000001', 'rb').read() == b''.join(chunks)
    assert open(out + '.' + ID_B, 'rb').read() == data_b
    assert 'pipe stream of 3 chunks' in proc.stderr.decode()
    proc = run_tool([path, '-o', out, '--id', ID_A])
    assert proc.returncode == 0, proc.stderr
    assert open(out, 'rb').read() == data_a
    proc = run_tool([path, '-o', out, '--id', '99999999'])
    assert proc.returncode == 1
    assert 'no recording 99999999' in proc.stderr.decode()


def test_cli_list(tmp_path):
    chunks = pipe_chunks(2)
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    bad = list(blk)
    bad[3] = flip(bad[3], 9)
    path = write_log(tmp_path, wrap(blk, *stream_blocks(chunks), bad), eol='\r\r\n')
    out = tmp_path / 'out'
    proc = run_tool(['--list', '-o', str(out), path])
    # Listing writes nothing; the last recording is intact thanks to its first copy
    assert not out.exists()
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.decode().splitlines()]
    starts = [BEGIN_AT, BEGIN_AT + 9, BEGIN_AT + 9 + len(stream_blocks(chunks)[0]) + 1]
    starts.append(starts[2] + len(stream_blocks(chunks)[1]) + 1)
    assert rows == [
        [ID_A, '0', 'file', '300', 'ok', 'line', str(starts[0])],
        [ID_B, '0', 'pipe', '200', 'ok', 'line', str(starts[1])],
        [ID_B, '1', 'pipe', '201', 'ok', 'line', str(starts[2])],
        [ID_A, '0', 'file', '300', 'damaged', 'line', str(starts[3])]]
    assert '%s:%d: warning: crc16 mismatch' % (path, starts[3] + 3) in proc.stderr.decode()


def test_cli_damaged(tmp_path):
    """A damaged recording: exit 1, one line per problem, the old output untouched"""
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    del blk[3]
    path = write_log(tmp_path, wrap(PE.encode_block(perf_file(100), ID_B, 0, 'file', False),
                                    blk))
    out = tmp_path / 'perf.data'
    out.write_bytes(b'old')
    proc = run_tool([path, '-o', str(out)])
    assert proc.returncode == 1
    assert out.read_bytes() == b'old'
    at = BEGIN_AT + 5
    assert proc.stderr.decode().splitlines() == [
        '%s:%d: payload line 2 missing in block %s/0' % (path, at + 3, ID_A),
        '%s:%d: recording %s (file) has no intact block: nothing written' % (path, at, ID_A),
        '%s: note: intact earlier recording: %s (use --id)' % (path, ID_B)]
    proc = run_tool([path, '-o', str(out), '--all'])
    assert proc.returncode == 1
    assert (tmp_path / ('perf.data.' + ID_B)).exists()
    assert not (tmp_path / ('perf.data.' + ID_A)).exists()


def test_cli_stream_gap(tmp_path):
    """A stream with a missing middle chunk: chunks before the gap written, exit 1"""
    chunks = pipe_chunks(4)
    lines, starts = stream_lines(chunks, [0, 1, 3], compress=True)
    path = write_log(tmp_path, lines)
    out = tmp_path / 'perf.data'
    proc = run_tool([path, '-o', str(out)])
    assert proc.returncode == 1
    assert out.read_bytes() == chunks[0] + chunks[1]
    err = proc.stderr.decode().splitlines()
    assert err == ['%s:%d: stream %s: chunk 2 missing: writing chunks 0-1 only; chunk 3 after it '
                   '(from line %d) not used' % (path, starts[2], ID_B, starts[2]),
                   'wrote %s: recording %s, pipe stream of 2 chunks, %d bytes (INCOMPLETE)' %
                   (out, ID_B, len(chunks[0] + chunks[1]))]


@pytest.mark.parametrize('args,code,message', [
    ([], 2, 'give either a log file (or -) or --device'),
    (['/nonexistent/log'], 2, 'cannot read /nonexistent/log: No such file or directory'),
    (['-', '--all', '--id', ID_A], 2, '--all and --id exclude each other'),
    (['-', '--id', 'xyz'], 2, "bad --id 'xyz'"),
    (['-', '--timeout', '3'], 2, '--timeout, --command and --log go with --device'),
    (['-', '--bogus'], 2, 'unrecognized arguments: --bogus'),
    (['-'], 1, '<stdin>: no perfrec dump found')])
def test_cli_usage(args, code, message):
    proc = run_tool(args, stdin=b'=> help\r\n')
    assert proc.returncode == code
    assert message in proc.stderr.decode()


def test_cli_help():
    proc = run_tool(['--help'])
    assert proc.returncode == 0
    assert b'--device' in proc.stdout


def test_main_in_process(tmp_path, capsys):
    """main() returns the exit status rather than exiting"""
    path = write_log(tmp_path, wrap(PE.encode_block(DATA, ID_A, 0, 'pipe', True)))
    out = str(tmp_path / 'x')
    assert PE.main([path, '-o', out]) == 0
    assert open(out, 'rb').read() == DATA
    assert 'does not start with a pipe-mode perf.data header' in capsys.readouterr().err
    assert PE.main(['--nope']) == 2


# The serial port, played by a pseudo-terminal


class FakeBoard:
    """The master side of a pty: what U-Boot would send and receive"""

    def __init__(self):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)

    def wait_for(self, text, timeout=20):
        """Read what the tool sends until @text arrives"""
        got = b''
        end = time.monotonic() + timeout
        while text not in got:
            left = end - time.monotonic()
            assert left > 0, 'the tool never sent %r (got %r)' % (text, got)
            if select.select([self.master], [], [], left)[0]:
                got += os.read(self.master, 1024)
        return got

    def send(self, data):
        os.write(self.master, data)

    def close(self):
        os.close(self.slave)
        os.close(self.master)


def test_device_file(tmp_path):
    """--device: type the command, read one file block, stop at its end line"""
    data = perf_file(20000, seed=4)
    board = FakeBoard()
    out, saved = tmp_path / 'perf.data', tmp_path / 'console.txt'
    try:
        proc = subprocess.Popen(  # pylint: disable=consider-using-with
            [PYTHON, TOOL, '--device', board.path, '--baud', '115200', '--command',
             'perfrec dump', '--log', str(saved), '-o', str(out)], cwd=REPO,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        board.wait_for(b'perfrec dump\r')
        log = to_bytes(['perfrec dump'] + PE.encode_block(data, ID_A, 0, 'file', False) +
                       ['=> '])
        board.send(log)
        _, err = proc.communicate(timeout=30)
    finally:
        board.close()
    err = err.decode()
    assert proc.returncode == 0, err
    assert out.read_bytes() == data
    assert saved.read_bytes() == log[:len(saved.read_bytes())]
    assert '/%d lines' % ((len(data) + 56) // 57) in err
    assert 'KiB/s' in err and 'wrote %s' % out in err


def test_device_stream_timeout(tmp_path):
    """--device with a stream: read until --timeout seconds of silence"""
    chunks = pipe_chunks(3)
    board = FakeBoard()
    out = tmp_path / 'perf.data'
    try:
        proc = subprocess.Popen(  # pylint: disable=consider-using-with
            [PYTHON, TOOL, '--device', board.path, '--timeout', '1', '--command', 'perfrec dump',
             '-o', str(out)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        board.wait_for(b'perfrec dump\r')
        for blk in stream_blocks(chunks):
            board.send(to_bytes(blk))
        board.send(b'=> ')
        _, err = proc.communicate(timeout=30)
    finally:
        board.close()
    err = err.decode()
    assert proc.returncode == 0, err
    assert out.read_bytes() == b''.join(chunks)
    assert '1 s of silence: stopping' in err


def test_device_not_a_tty(tmp_path):
    path = tmp_path / 'plain'
    path.write_bytes(b'')
    proc = run_tool(['--device', str(path)])
    assert proc.returncode == 2
    assert 'is not a terminal' in proc.stderr.decode()


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
