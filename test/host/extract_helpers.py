# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Console logs for the host tests of tools/perfrec/perfrec_extract.py

"""Console logs for the host tests of tools/perfrec/perfrec_extract.py.

test_extract.py (the encoder and the command line), test_extract_frames.py
(the blocks) and test_extract_recordings.py (the recordings) share these:
PE, the tool as a module; stand-in payloads (perf_file(), compressible(),
pipe_chunks()); logs of blocks built with the tool's reference encoder and
wrapped in console noise (wrap(), noisy_log(), stream_lines()); ways to
damage a block (flip(), tamper_field()); and extract() with what to check
of its result (extract_lines(), only_recording(), errors()).
"""

import os
import random
import struct
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


def flip(line, pos, alphabet='ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'):
    """@line with the character at @pos replaced by another one of @alphabet"""
    new = alphabet[(alphabet.index(line[pos]) + 1) % len(alphabet)]
    return line[:pos] + new + line[pos + 1:]


def tamper_field(blk, field, value):
    """Set begin-line field @field (a name of BEGIN_FIELDS) of @blk to @value"""
    tokens = blk[0].split()
    tokens[1 + PE.BEGIN_FIELDS.index(field)] = str(value)
    blk[0] = ' '.join(tokens)


def stream_lines(chunks, order, compress=False):
    """A wrapped log of stream blocks and the log line of each block's begin line"""
    blocks = stream_blocks(chunks, order=order, compress=compress)
    starts = []
    line = BEGIN_AT
    for blk in blocks:
        starts.append(line)
        line += len(blk) + 1
    return wrap(*blocks), starts


DATA = perf_file(300)           # b64: 6 payload lines, log lines BEGIN_AT+1 .. BEGIN_AT+6
