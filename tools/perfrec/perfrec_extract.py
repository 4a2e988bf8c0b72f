#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Extract the perf.data recordings that 'perfrec dump' printed on a serial console

"""Extract the perf.data recordings that 'perfrec dump' printed on a console.

Usage:
    perfrec_extract.py [-o perf.data] [--all | --id ID] [--list] LOG
    perfrec_extract.py [options] -                  (the log on stdin)
    perfrec_extract.py [options] --device /dev/ttyUSB0 [--baud 115200]
                       [--timeout SECONDS] [--command 'perfrec dump'] [--log FILE]

LOG is a console log (CRLF or LF line ends, prompts and other output around
the dumps do not matter). -o receives the last recording in the log (or the
one --id names); --all writes every recording as PATH.<id>; --list prints one
line per block (id, seq, kind, size, status, log line) and writes nothing.
With --device the serial port is opened raw at --baud and read until a file
block is complete, or, for a pipe stream, until Ctrl-C or --timeout seconds of
silence; progress goes to stderr, --log keeps a copy of what was received.

Exit status: 0 if what was asked for was extracted intact, 1 if a recording
is damaged or incomplete (one line per problem on stderr, each naming the log
line; nothing is written from a damaged block, though the chunks of a pipe
stream before a gap are), 2 on a usage error.

The frame format, version 1 (one block per dump):
    perfrec-begin 1 <id> <seq> <kind> <size> <crc32> <enc> <wire> <lines>
    <n>:<base64>:<crc16>                  (exactly <lines> payload lines)
    perfrec-end <id> <seq>
<id> is 8 lowercase hex digits naming the recording; <seq> the decimal chunk
number (0 for a complete file); <kind> 'file' (a whole file-mode perf.data)
or 'pipe' (chunk <seq> of a pipe-mode perf.data stream); <size> the decoded
payload's length and <crc32> its zlib.crc32 (8 lowercase hex digits); <enc>
'b64' (the wire data is the payload) or 'b64z' (the wire data is a gzip
stream of it); <wire> the wire data's length; <lines> the payload line count.
A payload line carries the next 57 bytes of wire data (the last line 1 to
57): <n> is its index in lowercase hex from 0, <crc16> the CRC-16/XMODEM of
its bytes in 4 lowercase hex digits.

As a module (tests, host-side round trips, fuzzing):
    lines = perfrec_extract.encode_block(data, 0x1234abcd, 0, 'file', True)
    recordings, problems = perfrec_extract.extract(lines)
    recordings[-1].data          # bytes, or None when nothing is usable
extract() never raises on garbage; UsageError is the only exception the
module raises on purpose (bad arguments).
"""

import argparse
import binascii
import os
import re
import select
import sys
import tempfile
import time
import zlib

FORMAT_VERSION = 1
LINE_BYTES = 57
BEGIN_MARK = 'perfrec-begin'
END_MARK = 'perfrec-end'
KINDS = ('file', 'pipe')
ENCODINGS = ('b64', 'b64z')
PERF_MAGIC = b'PERFILE2'
PIPE_HEADER_SIZE = 16

ID_RE = re.compile(r'[0-9a-f]{8}\Z')
DEC_RE = re.compile(r'(0|[1-9][0-9]{0,11})\Z')
HEX8_RE = re.compile(r'[0-9a-f]{8}\Z')
INDEX_RE = re.compile(r'(0|[1-9a-f][0-9a-f]{0,7})\Z')
CRC16_RE = re.compile(r'[0-9a-f]{4}\Z')
B64_RE = re.compile(r'[A-Za-z0-9+/]*={0,2}\Z')
B64_BAD_RE = re.compile(r'[^A-Za-z0-9+/=]')
PAYLOAD_RE = re.compile(r'([^:\s]*):([^:\s]*):([^:\s]*)\Z')
BEGIN_FIELDS = ('version', 'id', 'seq', 'kind', 'size', 'crc32', 'enc', 'wire', 'lines')
# How Block.parse_begin() takes each begin-line field, in the order it checks
# them: (field, Block attribute, name in messages, check, value, what a bad
# one is not)
_NOT_DEC = 'is not a decimal number'
_NOT_HEX8 = 'is not 8 lowercase hex digits'
_BEGIN_CHECKS = (
    ('id', 'rec_id', 'id', ID_RE.match, str, _NOT_HEX8),
    ('seq', 'seq', 'seq', DEC_RE.match, int, _NOT_DEC),
    ('version', 'version', 'format version', lambda val: val == str(FORMAT_VERSION), int,
     f'is not supported (only {FORMAT_VERSION})'),
    ('kind', 'kind', 'kind', lambda val: val in KINDS, str, 'is not file or pipe'),
    ('size', 'size', 'size', DEC_RE.match, int, _NOT_DEC),
    ('wire', 'wire', 'wire', DEC_RE.match, int, _NOT_DEC),
    ('lines', 'nlines', 'lines', DEC_RE.match, int, _NOT_DEC),
    ('crc32', 'crc32', 'crc32', HEX8_RE.match, lambda val: int(val, 16), _NOT_HEX8),
    ('enc', 'enc', 'enc', lambda val: val in ENCODINGS, str, 'is not b64 or b64z'),
)


class UsageError(Exception):
    """A bad argument or an input that cannot be opened (exit status 2)"""


class Problem:
    """One problem found in a log

    Attributes:
        lineno (int or None): the log line it was found at (1-based)
        message (str): what is wrong
        rec_id (str or None): the recording it concerns, if known
        seq (int or None): the chunk it concerns, if known
        warning (bool): True if it does not stop the recording being used
    """

    # pylint: disable-next=too-many-arguments  # one per attribute
    def __init__(self, lineno, message, rec_id=None, seq=None, warning=False):
        self.lineno = lineno
        self.message = message
        self.rec_id = rec_id
        self.seq = seq
        self.warning = warning

    def as_warning(self):
        """Return a copy of this problem downgraded to a warning"""
        return Problem(self.lineno, self.message, self.rec_id, self.seq, True)

    def format(self, name):
        """Return the problem as one line: '<name>:<lineno>: [warning: ]<message>'"""
        where = name if self.lineno is None else f'{name}:{self.lineno}'
        return f"{where}: {'warning: ' if self.warning else ''}{self.message}"

    def __repr__(self):
        return f"Problem({self.format('log')!r})"


def crc16(data):
    """CRC-16/XMODEM of @data, as a payload line carries it"""
    return binascii.crc_hqx(data, 0)


def _check_id(rec_id):
    """Return @rec_id (int or 8-hex-digit str) as the 8-digit string; UsageError if bad"""
    if isinstance(rec_id, int) and not isinstance(rec_id, bool) and 0 <= rec_id < 1 << 32:
        return f'{rec_id:08x}'
    if isinstance(rec_id, str) and ID_RE.match(rec_id):
        return rec_id
    raise UsageError(f'bad recording id {rec_id!r}: want 8 lowercase hex digits')


# pylint: disable-next=too-many-arguments  # one per begin-line field
def frame_lines(wire, rec_id, seq, kind, size, crc32, enc):
    """Frame @wire as a block with the given begin-line fields, unchecked

    Returns the list of lines (no line ends): begin, payload lines, end. The
    fields are not checked against @wire, so tests can build damaged blocks.
    """
    rec_id = _check_id(rec_id)
    nlines = (len(wire) + LINE_BYTES - 1) // LINE_BYTES
    out = [f'{BEGIN_MARK} {FORMAT_VERSION} {rec_id} {seq} {kind} {size} {crc32:08x} {enc} '
           f'{len(wire)} {nlines}']
    for idx in range(nlines):
        chunk = wire[idx * LINE_BYTES:(idx + 1) * LINE_BYTES]
        b64 = binascii.b2a_base64(chunk, newline=False).decode()
        out.append(f'{idx:x}:{b64}:{crc16(chunk):04x}')
    out.append(f'{END_MARK} {rec_id} {seq}')
    return out


def encode_block(data, rec_id, seq, kind, compress):
    """Encode @data as one block exactly as U-Boot prints it (reference encoder)

    Args:
        data (bytes): the payload: a file-mode perf.data, or one pipe-mode chunk
        rec_id (int or str): the recording id (an int below 2**32 or 8 hex digits)
        seq (int): the chunk number (0 for a file)
        kind (str): 'file' or 'pipe'
        compress (bool): gzip the payload (enc 'b64z', gzip.compress(mtime=0))

    Returns:
        list of str: the begin line, the payload lines and the end line
    """
    import gzip  # pylint: disable=import-outside-toplevel

    if kind not in KINDS:
        raise UsageError(f"bad kind {kind!r}: want one of {', '.join(KINDS)}")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0 or (kind == 'file' and seq):
        raise UsageError(f'bad seq {seq!r} for kind {kind}')
    data = bytes(data)
    wire = gzip.compress(data, mtime=0) if compress else data
    return frame_lines(wire, rec_id, seq, kind, len(data), zlib.crc32(data),
                       'b64z' if compress else 'b64')


# pylint: disable-next=too-many-instance-attributes  # one per begin-line field, and state
class Block:
    """One block of a log: its begin-line fields, its problems and its payload

    A field the begin line does not give validly is None. payload is set only
    if every check passed (then problems is empty).
    """

    def __init__(self, lineno):
        self.begin_lineno = lineno
        self.end_lineno = None
        self.version = None
        self.rec_id = None
        self.seq = None
        self.kind = None
        self.size = None
        self.crc32 = None
        self.enc = None
        self.wire = None
        self.nlines = None
        self.header_ok = False
        self.truncated = False
        self.problems = []
        self.payload = None
        self.rx_bytes = 0           # wire bytes received so far (progress)
        self._chunks = []
        self._next = 0
        self._noise = None

    @property
    def lineno(self):
        """The log line the block starts at (its end line if its begin is lost)"""
        return self.begin_lineno if self.begin_lineno is not None else self.end_lineno

    @property
    def name(self):
        """'<id>/<seq>' with '?' for what is unknown"""
        return f"{self.rec_id or '?'}/{'?' if self.seq is None else self.seq}"

    @property
    def lines_seen(self):
        """How many payload lines the block has got so far (progress)"""
        return self._next

    @property
    def ok(self):  # pylint: disable=invalid-name  # public API, as Recording.ok
        """True if the block passed every check"""
        return self.payload is not None

    @property
    def status(self):
        """'ok', 'truncated' or 'damaged'"""
        if self.ok:
            return 'ok'
        return 'truncated' if self.truncated else 'damaged'

    def problem(self, lineno, message):
        """Note a problem of this block at log line @lineno"""
        self.problems.append(Problem(lineno, message, self.rec_id, self.seq))

    def parse_begin(self, rest):
        """Parse the begin line's fields (@rest: the text after the marker)"""
        tokens = rest.split()
        vals = dict(zip(BEGIN_FIELDS, tokens))
        bad = []
        if len(tokens) != len(BEGIN_FIELDS):
            bad.append(f'{len(tokens)} fields after {BEGIN_MARK}, want {len(BEGIN_FIELDS)}')
        for field, attr, label, check, value, fault in _BEGIN_CHECKS:
            if field not in vals:
                continue
            if check(vals[field]):
                setattr(self, attr, value(vals[field]))
            else:
                bad.append(f'{label} {vals[field][:20]!r} {fault}')
        if not bad:
            if self.kind == 'file' and self.seq:
                bad.append(f'a file block must have seq 0, not {self.seq}')
            if self.nlines != (self.wire + LINE_BYTES - 1) // LINE_BYTES:
                bad.append(f'{self.nlines} lines cannot carry {self.wire} wire bytes')
            if self.enc == 'b64' and self.size != self.wire:
                bad.append(f'size {self.size} differs from wire {self.wire} with enc b64')
        for msg in bad:
            self.problem(self.begin_lineno, f'malformed begin line of block {self.name}: {msg}')
        self.header_ok = not bad

    def payload_line(self, lineno, text):
        """Handle a line inside the block that is not its end line"""
        mat = PAYLOAD_RE.match(text)
        if not mat:
            if text and self._noise is None:
                self._noise = lineno
            return
        idx_s, b64, crc_s = mat.groups()
        where = lineno if self._noise is None else self._noise
        self._noise = None
        if INDEX_RE.match(idx_s):
            idx = int(idx_s, 16)
        else:
            self.problem(lineno, f'malformed payload line index {idx_s[:20]!r} in block '
                                 f'{self.name}')
            idx = self._next
        if idx > self._next:
            self.problem(where, f'{_line_range(self._next, idx - 1)} missing in block {self.name}')
        elif idx < self._next:
            what = 'duplicated' if idx == self._next - 1 else 'out of order'
            self.problem(lineno, f'payload line {idx:x} {what} in block {self.name} (expected line '
                                 f'{self._next:x})')
            return
        self._next = idx + 1
        if self.nlines is not None and idx >= self.nlines:
            self.problem(lineno, f'payload line {idx:x} is beyond the {self.nlines} lines of block '
                                 f'{self.name}')
            return
        chunk = self._decode(lineno, idx, b64, crc_s)
        if chunk is None:
            return
        self.rx_bytes += len(chunk)
        if self.header_ok:
            want = min(LINE_BYTES, self.wire - idx * LINE_BYTES)
            if len(chunk) != want:
                self.problem(lineno, f'payload line {idx:x} of block {self.name} carries '
                                     f'{len(chunk)} bytes, want {want}')
                return
        self._chunks.append(chunk)

    def _decode(self, lineno, idx, b64, crc_s):
        """Decode a payload line's base64 and check its crc16; None if bad"""
        bad = B64_BAD_RE.search(b64)
        if bad:
            self.problem(lineno, f'invalid base64 character {bad.group(0)!r} in payload line '
                                 f'{idx:x} of block {self.name}')
            return None
        chunk = None
        if B64_RE.match(b64) and len(b64) % 4 == 0:
            try:
                chunk = binascii.a2b_base64(b64, strict_mode=True)
            except (binascii.Error, ValueError):
                pass
        if chunk is None:
            self.problem(lineno, f'invalid base64 (bad length or padding) in payload line {idx:x} '
                         f'of block {self.name}')
            return None
        if not CRC16_RE.match(crc_s):
            self.problem(lineno, f'malformed crc16 {crc_s[:20]!r} in payload line {idx:x} of block '
                                 f'{self.name}')
            return None
        if int(crc_s, 16) != crc16(chunk):
            self.problem(lineno, f'crc16 mismatch in payload line {idx:x} of block {self.name} '
                         f'(line says {crc_s}, data gives {crc16(chunk):04x})')
            return None
        return chunk

    def finish(self, lineno, end_id=None, end_seq=None, malformed=False):
        """Close the block at its end line @lineno and check its payload"""
        self.end_lineno = lineno
        if malformed:
            self.problem(lineno, f'malformed end line of block {self.name}')
        elif (end_id, end_seq) != (self.rec_id, self.seq):
            self.problem(lineno, f'end line names block {end_id}/{end_seq} but block {self.name} '
                                 f'began at line {self.begin_lineno}')
        if self.nlines is not None and self._next < self.nlines:
            where = lineno if self._noise is None else self._noise
            self.problem(where, f'{_line_range(self._next, self.nlines - 1)} missing in block '
                                f'{self.name} (end line reached)')
        self._check_payload()

    def cut(self, lineno, why):
        """The block ends without its end line at log line @lineno"""
        self.truncated = True
        self.problem(lineno, f'block {self.name} (begun at line {self.begin_lineno}) truncated: '
                             f'{why}')

    def _check_payload(self):
        """With every line good, join the wire data and check the payload"""
        if self.problems or not self.header_ok:
            return
        wire = b''.join(self._chunks)
        self._chunks = []
        lineno = self.begin_lineno
        if len(wire) != self.wire:
            self.problem(lineno, f'block {self.name} has {len(wire)} wire bytes, begin line says '
                                 f'{self.wire}')
            return
        if self.enc == 'b64z':
            payload = self._gunzip(wire)
            if payload is None:
                return
        else:
            payload = wire
        if len(payload) != self.size:
            self.problem(lineno, f'payload of block {self.name} is {len(payload)} bytes, begin '
                                 f'line says {self.size}')
            return
        crc = zlib.crc32(payload)
        if crc != self.crc32:
            self.problem(lineno, f'payload crc32 of block {self.name} is {crc:08x}, begin line '
                                 f'says {self.crc32:08x}')
            return
        self.payload = payload

    def _gunzip(self, wire):
        """Return the content of the gzip stream @wire, at most size+1 bytes; None if bad"""
        lineno = self.begin_lineno
        dec = zlib.decompressobj(wbits=31)
        try:
            payload = dec.decompress(wire, self.size + 1)
        except zlib.error as err:
            self.problem(lineno, f'corrupt gzip data in block {self.name}: {err}')
            return None
        if len(payload) > self.size:
            self.problem(lineno, f'gzip content of block {self.name} is longer than its size '
                                 f'{self.size}')
            return None
        if not dec.eof:
            self.problem(lineno, f'gzip stream of block {self.name} is incomplete')
            return None
        if dec.unused_data:
            self.problem(lineno, f'block {self.name} has {len(dec.unused_data)} bytes after its '
                                 'gzip stream')
            return None
        return payload


def _line_range(first, last):
    """'payload line 5' or 'payload lines 5-7' (hex, as the wire has them)"""
    if first == last:
        return f'payload line {first:x}'
    return f'payload lines {first:x}-{last:x}'


class Parser:
    """Split a console log into blocks, one line at a time

    feed() each line (str, or bytes taken as UTF-8), then finish(); blocks
    lists every block in log order.
    """

    def __init__(self):
        self.blocks = []
        self.block = None       # the open block
        self.lineno = 0

    def feed(self, line):
        """Take the next log line (its line end may or may not be there)"""
        self.lineno += 1
        if isinstance(line, (bytes, bytearray)):
            line = bytes(line).decode('utf-8', 'replace')
        pos = line.find(BEGIN_MARK)
        while pos >= 0:
            rest = line[pos + len(BEGIN_MARK):]
            if not rest or rest[0].isspace():
                if self.block:
                    self.block.cut(self.lineno, 'a begin line came before its end line')
                self.block = Block(self.lineno)
                self.block.parse_begin(rest)
                self.blocks.append(self.block)
                return
            pos = line.find(BEGIN_MARK, pos + 1)
        text = line.strip()
        end = self._end_line(text)
        if self.block is None:
            if end and end[0] is not None:
                # An end line whose begin line is lost: a damaged copy of that chunk
                blk = Block(None)
                blk.rec_id, blk.seq = end
                blk.end_lineno = self.lineno
                blk.problem(self.lineno, f'end line of block {blk.name} without its begin line')
                self.blocks.append(blk)
            return
        if end:
            self.block.finish(self.lineno, end[0], end[1], end[0] is None)
            self.block = None
        else:
            self.block.payload_line(self.lineno, text)

    @staticmethod
    def _end_line(text):
        """None if @text is no end line, else (id, seq) or (None, None) if malformed"""
        pos = text.find(END_MARK)
        if pos < 0:
            return None
        tokens = text[pos + len(END_MARK):].split()
        if (pos or len(tokens) != 2 or not ID_RE.match(tokens[0]) or
                not DEC_RE.match(tokens[1])):
            return None, None
        return tokens[0], int(tokens[1])

    def finish(self):
        """The log ends: cut off an open block; return the list of blocks"""
        if self.block:
            self.block.cut(self.lineno, 'the log ends before its end line')
            self.block = None
        return self.blocks


class Recording:
    """A recording: every block with its id, and the data they give

    Attributes:
        rec_id (str): the id
        kind (str or None): 'file' or 'pipe' (None if its blocks disagree)
        blocks (list of Block): its blocks in log order
        data (bytes or None): the file, or the stream's chunks 0..k before
            any gap; None if nothing is usable
        chunks (int): how many chunks data holds
        problems (list of Problem): errors and warnings
        ok (bool): True if no problem is an error
    """

    def __init__(self, rec_id):
        self.rec_id = rec_id
        self.kind = None
        self.blocks = []
        self.data = None
        self.chunks = 0
        self.problems = []

    @property
    def ok(self):  # pylint: disable=invalid-name  # public API: test/host reads it
        """True if data holds the whole recording as far as the log tells"""
        return self.data is not None and not any(not p.warning for p in self.problems)

    @property
    def lineno(self):
        """The log line of the recording's last block"""
        return self.blocks[-1].lineno

    def _error(self, lineno, message, seq=None):
        self.problems.append(Problem(lineno, message, self.rec_id, seq))

    def _warn(self, lineno, message, seq=None):
        self.problems.append(Problem(lineno, message, self.rec_id, seq, True))

    def resolve(self):
        """Choose a good copy of every chunk and assemble data"""
        kinds = {}
        for blk in self.blocks:
            if blk.kind:
                kinds.setdefault(blk.kind, blk.lineno)
        if len(kinds) > 1:
            self._error(self.lineno, f"recording {self.rec_id} has both file (line "
                                     f"{kinds['file']}) and pipe (line {kinds['pipe']}) blocks")
        elif kinds:
            self.kind = list(kinds)[0]
        good = self._good_copies()
        if self.kind == 'file':
            self._resolve_file(good)
        elif self.kind == 'pipe':
            self._resolve_pipe(good)
        elif not kinds:
            self._error(self.lineno, f'recording {self.rec_id}: no block with a readable begin '
                                     'line')

    def _good_copies(self):
        """Return {seq: the last intact copy of chunk seq}; note the problems of the others"""
        good = {}
        for blk in self.blocks:
            if blk.ok:
                prev = good.get(blk.seq)
                if prev and prev.payload != blk.payload:
                    self._warn(blk.lineno, f'block {blk.name} differs from its copy at line '
                                           f'{prev.lineno}; using this later one', blk.seq)
                good[blk.seq] = blk
        for blk in self.blocks:
            if blk.ok:
                continue
            if blk.seq in good or (self.kind == 'file' and blk.seq is None and good):
                blk_seq = 0 if blk.seq is None else blk.seq
                self.problems += [p.as_warning() for p in blk.problems]
                self._warn(blk.lineno, f'damaged copy of block {blk.name} ignored: using the good '
                                       f'copy at line {good[blk_seq].lineno}', blk.seq)
            else:
                self.problems += blk.problems
        return good

    def _resolve_file(self, good):
        blk = good.get(0)
        if not blk:
            self._error(self.lineno, f'recording {self.rec_id} (file) has no intact block: nothing '
                        'written', 0)
            return
        if not blk.payload.startswith(PERF_MAGIC):
            self._warn(blk.lineno, f'recording {self.rec_id} does not start with the perf.data '
                                   'magic', 0)
        self.data = blk.payload
        self.chunks = 1

    def _resolve_pipe(self, good):
        seen = {}
        for blk in self.blocks:
            if blk.seq is not None:
                seen.setdefault(blk.seq, blk.lineno)
        if not seen:
            self._error(self.lineno, f'stream {self.rec_id}: no block with a readable seq')
            return
        last = max(seen)
        seq = 0
        while seq in good:
            seq += 1
        if seq <= last:
            later = sorted(s for s in seen if s > seq)
            why = 'damaged' if seq in seen else 'missing'
            if later:
                after = (f"; chunk{'s' if len(later) > 1 else ''} {_seq_list(later)} after it "
                         f"(from line {seen[later[0]]}) not used")
            else:
                after = ''
            if seq:
                what = f"writing chunk{'s'[:seq > 1]} {_seq_list(range(seq))} only"
            else:
                what = 'nothing written'
            self._error(seen[later[0]] if why == 'missing' else seen[seq],
                        f'stream {self.rec_id}: chunk {seq} {why}: {what}{after}',
                        seq)
        if seq:
            self.data = b''.join(good[s].payload for s in range(seq))
            self.chunks = seq
            head = good[0].payload
            if (not head.startswith(PERF_MAGIC) or
                    head[8:16] != PIPE_HEADER_SIZE.to_bytes(8, 'little')):
                self._warn(good[0].lineno, f'stream {self.rec_id} does not start with a pipe-mode '
                           'perf.data header', 0)


def _seq_list(seqs):
    """'3', '3-5' or '3-5, 8' from a sorted list of chunk numbers"""
    out = []
    for seq in seqs:
        if out and out[-1][1] == seq - 1:
            out[-1][1] = seq
        else:
            out.append([seq, seq])
    return ', '.join(str(a) if a == b else f'{a}-{b}' for a, b in out)


def assemble(blocks):
    """Group @blocks into recordings

    Returns:
        tuple: (list of Recording in the order of their last block in the
        log, list of Problem: the warnings of blocks that belong to no
        recording, then each recording's problems: those of its blocks in
        log order, then its own)
    """
    recs = {}
    loose = []
    for blk in blocks:
        if blk.rec_id is None:
            loose += [p.as_warning() for p in blk.problems]
            continue
        recs.setdefault(blk.rec_id, Recording(blk.rec_id)).blocks.append(blk)
    recordings = sorted(recs.values(), key=lambda rec: rec.lineno)
    problems = list(loose)
    for rec in recordings:
        rec.resolve()
        problems += rec.problems
    return recordings, problems


def extract(lines):
    """Find every recording in the log @lines (str or bytes, line ends optional)

    @lines may also be the whole log as one str or bytes (see split_log()).

    Returns:
        tuple: (list of Recording, the last one last; list of Problem)
    """
    if isinstance(lines, (str, bytes, bytearray)):
        lines = split_log(lines)
    parser = Parser()
    for line in lines:
        parser.feed(line)
    return assemble(parser.finish())


def split_log(data):
    """Split a console log (bytes or str) into lines, numbered as an editor does

    Lines end at LF (a CR before it, or several, stays and is stripped later);
    a log without any LF is split at CR.
    """
    if isinstance(data, (bytes, bytearray)):
        data = bytes(data).decode('utf-8', 'replace')
    sep = '\n' if '\n' in data or '\r' not in data else '\r'
    lines = data.split(sep)
    if lines and lines[-1] == '':
        lines.pop()
    return lines


def list_lines(blocks):
    """The --list lines: id, seq, kind, size, status and log line of each block"""
    out = []
    for blk in blocks:
        out.append(f"{blk.rec_id or '?':<8} {'?' if blk.seq is None else blk.seq:>4} "
                   f"{blk.kind or '?':<4} {'?' if blk.size is None else blk.size:>10} "
                   f"{blk.status:<9} line {blk.lineno}")
    return out


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def parse_args(argv):
    """Parse the command line @argv (without the program name)"""
    parser = _ArgumentParser(
        description='Extract the perf.data recordings that perfrec dump printed on a console.')
    parser.add_argument('log', nargs='?', help="console log file, or '-' for stdin")
    parser.add_argument('-o', '--output', default='perf.data',
                        help="output file (default perf.data, '-' for stdout)")
    parser.add_argument('--all', action='store_true',
                        help='write every recording as OUTPUT.<id>')
    parser.add_argument('--id', help='write the recording with this id, not the last one')
    parser.add_argument('--list', action='store_true',
                        help='list the blocks found; write nothing')
    parser.add_argument('--device', help='read a serial port (e.g. /dev/ttyUSB0)')
    parser.add_argument('--baud', type=int, default=115200,
                        help='serial port speed (default 115200)')
    parser.add_argument('--timeout', type=float,
                        help='with --device: stop after this many seconds of silence')
    parser.add_argument('--command',
                        help="with --device: type this command first (e.g. 'perfrec dump')")
    parser.add_argument('--log', dest='save_log', metavar='FILE',
                        help='with --device: keep what was received in FILE')
    parser.add_argument('-q', '--quiet', action='store_true',
                        help='no progress or summary on stderr, only problems')
    args = parser.parse_args(argv)
    if (args.log is None) == (args.device is None):
        raise UsageError('give either a log file (or -) or --device')
    if args.device is None and (args.timeout is not None or args.command or args.save_log):
        raise UsageError('--timeout, --command and --log go with --device')
    if args.all and args.id:
        raise UsageError('--all and --id exclude each other')
    if args.all and args.output == '-':
        raise UsageError('--all cannot write to stdout')
    if args.id is not None and not ID_RE.match(args.id):
        raise UsageError(f'bad --id {args.id!r}: want 8 lowercase hex digits')
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError('--timeout must be positive')
    return args


def _read_log(path):
    """Return the lines of log @path ('-' for stdin)"""
    try:
        if path == '-':
            return split_log(sys.stdin.buffer.read())
        with open(path, 'rb') as inf:
            return split_log(inf.read())
    except OSError as err:
        raise UsageError(f'cannot read {path}: {err.strerror or err}') from err


def _configure_tty(tty, baud):
    """Put the terminal @tty in raw mode, 8N1, no flow control, at @baud"""
    import termios  # pylint: disable=import-outside-toplevel

    speed = getattr(termios, f'B{baud}', None)
    if speed is None:
        raise UsageError(f'unsupported --baud {baud}')
    iflag, oflag, cflag, lflag, _, _, ccs = termios.tcgetattr(tty)
    iflag &= ~(termios.IGNBRK | termios.BRKINT | termios.PARMRK | termios.ISTRIP |
               termios.INLCR | termios.IGNCR | termios.ICRNL | termios.IXON |
               termios.IXOFF | termios.IXANY | termios.INPCK)
    oflag &= ~termios.OPOST
    lflag &= ~(termios.ECHO | termios.ECHONL | termios.ICANON | termios.ISIG |
               termios.IEXTEN)
    cflag &= ~(termios.CSIZE | termios.PARENB | termios.CSTOPB |
               getattr(termios, 'CRTSCTS', 0))
    cflag |= termios.CS8 | termios.CREAD | termios.CLOCAL
    ccs = list(ccs)
    ccs[termios.VMIN] = 0
    ccs[termios.VTIME] = 0
    termios.tcsetattr(tty, termios.TCSANOW, [iflag, oflag, cflag, lflag, speed, speed, ccs])


class _Progress:
    """Progress of the block being received, on stderr"""

    def __init__(self, quiet):
        self.quiet = quiet
        self.block = None
        self.start = 0.0
        self.shown = 0.0
        self.dirty = False

    def update(self, block, force=False):
        """Show the state of @block (the open block, or the one just closed)"""
        if self.quiet or block is None:
            return
        now = time.monotonic()
        if block is not self.block:
            self.block = block
            self.start = now
        if not force and now - self.shown < 0.2:
            return
        self.shown = now
        rate = block.rx_bytes / max(now - self.start, 1e-3) / 1024
        total = '?' if block.nlines is None else block.nlines
        sys.stderr.write(f'\rblock {block.name}: {block.lines_seen}/{total} lines, '
                         f'{block.rx_bytes} bytes, {rate:.1f} KiB/s ')
        sys.stderr.flush()
        self.dirty = True

    def done(self):
        """End the progress line"""
        if self.dirty:
            sys.stderr.write('\n')
            sys.stderr.flush()
            self.dirty = False


def read_device(args, parser):
    """Read the serial port args.device into @parser until the dump is over

    A file block ends the reading when its end line (or a truncation) arrives;
    a pipe stream is read until Ctrl-C or args.timeout seconds of silence.
    """
    try:
        tty = os.open(args.device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as err:
        raise UsageError(f'cannot open {args.device}: {err.strerror}') from err
    import termios  # pylint: disable=import-outside-toplevel

    saved = None
    logf = None
    progress = _Progress(args.quiet)
    try:
        try:
            saved = termios.tcgetattr(tty)
        except termios.error as err:
            raise UsageError(f'{args.device} is not a terminal') from err
        _configure_tty(tty, args.baud)
        if args.save_log:
            try:
                logf = open(args.save_log, 'wb')  # pylint: disable=consider-using-with
            except OSError as err:
                raise UsageError(f'cannot write {args.save_log}: {err.strerror}') from err
        if not args.quiet:
            until = '' if args.timeout else ' (Ctrl-C stops a pipe stream)'
            sys.stderr.write(f'reading {args.device} at {args.baud} baud{until}\n')
        if args.command:
            os.write(tty, args.command.encode() + b'\r')
        _read_loop(tty, args, parser, logf, progress)
    finally:
        progress.done()
        if logf:
            logf.close()
        if saved is not None:
            try:
                termios.tcsetattr(tty, termios.TCSADRAIN, saved)
            except termios.error:
                pass
        os.close(tty)


# pylint: disable-next=too-many-branches  # each way a read can end: clearer in one loop
def _read_loop(tty, args, parser, logf, progress):
    """The reading loop of read_device()"""
    pending = b''
    closed = 0
    try:
        while True:
            ready = select.select([tty], [], [], args.timeout)[0]
            if not ready:
                if not args.quiet:
                    progress.done()
                    sys.stderr.write(f'{args.timeout:g} s of silence: stopping\n')
                break
            try:
                data = os.read(tty, 65536)
            except BlockingIOError:
                continue
            except OSError:         # EIO: the other end hung up
                data = b''
            if not data:
                break
            if logf:
                logf.write(data)
            lines = (pending + data).split(b'\n')
            pending = lines.pop()
            for line in lines:
                parser.feed(line)
                progress.update(parser.block)
            progress.update(parser.block)
            for blk in parser.blocks[closed:]:
                if blk is parser.block:
                    break
                closed += 1
                if blk.begin_lineno is None:
                    continue
                progress.update(blk, force=True)
                progress.done()
                # A file dump is one block; a cut-off block is followed by another
                if blk.kind == 'file' and not blk.truncated:
                    return
    except KeyboardInterrupt:
        progress.done()
        if not args.quiet:
            sys.stderr.write('interrupted: stopping\n')
    finally:
        if pending:
            parser.feed(pending)


def _write(path, data):
    """Write @data to @path ('-': stdout); a regular file is replaced atomically"""
    if path == '-':
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, 'wb') as outf:
            outf.write(data)
        return
    handle, tmp = tempfile.mkstemp(prefix='.perfrec_extract.', dir=os.path.dirname(path) or '.')
    try:
        with os.fdopen(handle, 'wb') as outf:
            outf.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _describe(rec):
    if rec.kind == 'pipe':
        return f"pipe stream of {rec.chunks} chunk{'s'[:rec.chunks != 1]}, {len(rec.data)} bytes"
    return f'file, {len(rec.data)} bytes'


# pylint: disable-next=too-many-branches  # the command line's cases, one after the other
def run(args):
    """Carry out the parsed command line @args; return the exit status"""
    parser = Parser()
    if args.device:
        name = args.device
        read_device(args, parser)
    else:
        name = '<stdin>' if args.log == '-' else args.log
        for line in _read_log(args.log):
            parser.feed(line)
    blocks = parser.finish()
    recordings, _ = assemble(blocks)
    if args.list:
        for line in list_lines(blocks):
            print(line)
    loose = [p.as_warning() for blk in blocks if blk.rec_id is None for p in blk.problems]
    if not recordings:
        for prob in loose:
            print(prob.format(name), file=sys.stderr)
        print(f'{name}: no perfrec dump found', file=sys.stderr)
        return 1
    if args.all:
        chosen = recordings
    elif args.id:
        chosen = [rec for rec in recordings if rec.rec_id == args.id]
        if not chosen:
            print(f"{name}: no recording {args.id} (found: "
                  f"{', '.join(rec.rec_id for rec in recordings)})", file=sys.stderr)
            return 1
    else:
        chosen = recordings[-1:]
    for prob in loose + [p for rec in chosen for p in rec.problems]:
        print(prob.format(name), file=sys.stderr)
    status = 0 if all(rec.ok for rec in chosen) else 1
    if status and not args.all and not args.id and chosen[0].data is None:
        others = [rec.rec_id for rec in recordings[:-1] if rec.ok]
        if others:
            print(f"{name}: note: intact earlier recording{'s'[:len(others) > 1]}: "
                  f"{', '.join(others)} (use --id)", file=sys.stderr)
    if args.list:
        return status
    for rec in chosen:
        if rec.data is None:
            continue
        path = f'{args.output}.{rec.rec_id}' if args.all else args.output
        try:
            _write(path, rec.data)
        except OSError as err:
            print(f'cannot write {path}: {err.strerror or err}', file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"wrote {path}: recording {rec.rec_id}, "
                  f"{_describe(rec)}{'' if rec.ok else ' (INCOMPLETE)'}",
                  file=sys.stderr)
    return status


def main(argv=None):
    """Run the tool with @argv (default sys.argv[1:]); return the exit status"""
    try:
        return run(parse_args(sys.argv[1:] if argv is None else argv))
    except UsageError as err:
        print(f'perfrec_extract: {err}', file=sys.stderr)
        return 2
    except SystemExit as exc:      # --help
        return exc.code if isinstance(exc.code, int) else 0


if __name__ == '__main__':
    sys.exit(main())
