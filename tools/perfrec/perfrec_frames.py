# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# The frame format of 'perfrec dump': its reference encoder and block decoder

"""The frame format of 'perfrec dump': its reference encoder and block decoder.

The format, version 1 (one block per dump):
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

This module holds the format's constants, the reference encoder
(encode_block(), frame_lines(): what U-Boot prints, see
lib/perfrec/perfrec_frame.c) and the decoder of single blocks: split_log()
cuts a console log into lines, Parser finds the blocks in them among any
other output, and each Block checks its begin line, every payload line
(index, base64, CRC-16), the end line, then the joined wire data (length,
gzip, size, CRC-32), noting each Problem at its log line. Grouping the
blocks into recordings is perfrec_reassemble.py's; the command line is
perfrec_extract.py's.

Nothing here raises on garbage; UsageError is the only exception the module
raises on purpose (bad arguments to the encoder).
"""

import binascii
import re
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
