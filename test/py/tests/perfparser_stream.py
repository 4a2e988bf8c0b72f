# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Run hotspot-perfparser (hotspot 1.3.0) and decode its QPERFSTREAM output.
"""Decoder for the binary stream hotspot-perfparser writes.

The layout matches perfparser 4.12 as shipped in hotspot 1.3.0 (Debian
bookworm): a 12-byte magic "QPERFSTREAM\\0", the QDataStream version as a
little-endian int32, then messages, each a little-endian uint32 size and a
QDataStream buffer (big-endian) that starts with a uint8 message type.
Newer perfparsers add fields (inline flags, relative addresses, lost counts)
that this module does not expect: it fails loudly on a size mismatch.

    stream = run_perfparser('perf.data', app_dir='build')
    stream.samples[0].frames[0].symbol, stream.errors

Sample.frames are the frames hotspot itself shows for the sample (what its
HOTSPOT_GENERATE_SCRIPT_OUTPUT=1 prints), quirks included.
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile
from collections import namedtuple
from dataclasses import dataclass, field

MAGIC = b'QPERFSTREAM\0'
# QDataStream versions whose encoding of the types used here is identical:
# Qt_5_0 (13) .. Qt_5_15 (19); floats go out as doubles in all of them
KNOWN_VERSIONS = range(13, 20)
MSG_TYPES = ('ThreadStart', 'ThreadEnd', 'Command', 'LocationDefinition',
             'SymbolDefinition', 'StringDefinition', 'LostDefinition',
             'FeaturesDefinition', 'Error', 'Progress', 'TracePointFormat',
             'AttributesDefinition', 'ContextSwitchDefinition', 'Sample',
             'TracePointSample')
ERROR_CODES = {1: 'TimeOrderViolation', 2: 'MissingElfFile',
               3: 'InvalidKallsyms'}
# QVariant type id -> struct format, for tracepoint fields
VARIANT_FMT = {1: '?', 2: 'i', 3: 'I', 4: 'q', 5: 'Q', 6: 'd', 33: 'h',
               36: 'H', 37: 'B', 40: 'b'}


class StreamError(Exception):
    """The file is not a perfparser stream this module can decode"""


# Definitions as perfparser sends them; the ints other than address, pid,
# line and column are string ids or, for parent, a location id (-1: none)
Location = namedtuple('Location', 'address file pid line column parent')
Symbol = namedtuple('Symbol', 'name binary path is_kernel')
# perf_event_attr type and config, the event's name, and its sample_freq or
# sample_period, as uses_frequency says
Attribute = namedtuple('Attribute', 'type config name uses_frequency period')
# a tracepoint format: system and name (string ids), flags
TraceFormat = namedtuple('TraceFormat', 'system name flags')
# pid, tid, time, cpu, then the parent pid (ThreadStart), the command
# (Command) or whether the thread was switched out (ContextSwitchDefinition)
TaskEvent = namedtuple('TaskEvent', 'kind pid tid time cpu payload')


# More attributes than pylint likes: hotspot's frame fields
@dataclass
class Frame:  # pylint: disable=too-many-instance-attributes
    """One frame as hotspot shows it; None where it shows [unknown]"""
    address: int
    symbol: str | None
    binary: str | None
    file: str | None = None
    line: int = -1
    inlined: bool = False  # inlined into the next frame of the list
    guessed: bool = False  # found by perfparser's heuristic unwinding
    is_kernel: bool = False


# More attributes than pylint likes: perfparser's sample fields
@dataclass
class Sample:  # pylint: disable=too-many-instance-attributes
    """One sample; frames are resolved as hotspot does on its arrival

    values are (attribute id, period or count) pairs; hotspot counts a 0 as
    the attribute's period unless that attribute samples by frequency.
    """
    pid: int
    tid: int
    time: int
    cpu: int
    location_ids: list
    guessed_frames: int
    values: list
    trace_data: dict | None = None  # TracePointSample: string id -> value
    frames: list = field(default_factory=list)  # innermost first


# More attributes than pylint likes: one attribute per kind of message
@dataclass
class Stream:  # pylint: disable=too-many-instance-attributes
    """A decoded stream: definitions by id, samples and events in order"""
    version: int
    strings: list = field(default_factory=list)
    locations: dict = field(default_factory=dict)
    symbols: dict = field(default_factory=dict)
    attributes: dict = field(default_factory=dict)
    samples: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # (code name, message)
    events: list = field(default_factory=list)
    features: dict | None = None
    tracepoint_formats: dict = field(default_factory=dict)
    progress: float = 0.0
    unknown: list = field(default_factory=list)  # (type, size) skipped
    log: str = ''      # perfparser's stderr, when run by run_perfparser

    def string(self, sid):
        """Return string @sid, or None for -1 (perfparser's empty string)"""
        return self.strings[sid] if 0 <= sid < len(self.strings) else None

    def resolve(self, location_ids, guessed_frames=0):
        """Expand @location_ids into Frames the way hotspot 1.3.0 does

        A location without a symbol (a sampled address, an inline call site)
        borrows the symbol of its parent, which is then skipped; the chain
        ends at the enclosing non-inlined function. A frame is inlined if
        its symbol's location has a parent (the call site) at its address.
        """
        frames = []
        first_guessed = len(location_ids) - guessed_frames
        for idx, lid in enumerate(location_ids):
            skip, seen = False, set()
            while lid != -1:
                loc = self.locations.get(lid)
                if loc is None or lid in seen:
                    raise StreamError(f'location {lid} undefined or looping')
                seen.add(lid)
                if skip:
                    skip, lid = False, loc.parent
                    continue
                symloc = lid if lid in self.symbols else loc.parent
                skip = symloc != lid
                sym = self.symbols.get(symloc)
                home = self.locations.get(symloc)
                site = home and self.locations.get(home.parent)
                frames.append(Frame(
                    loc.address, sym and self.string(sym.name),
                    sym and self.string(sym.binary), self.string(loc.file),
                    loc.line, bool(site) and site.address == home.address,
                    idx >= first_guessed, bool(sym and sym.is_kernel)))
                lid = loc.parent
        return frames


class _Reader:
    """Big-endian QDataStream primitives over one message buffer"""

    def __init__(self, buf, where):
        self.buf, self.pos, self.where = buf, 0, where

    def take(self, fmt):
        """Read the struct format @fmt (big-endian): one value or a tuple"""
        size = struct.calcsize('>' + fmt)
        if self.pos + size > len(self.buf):
            raise StreamError(f'{self.where}: message ends early')
        vals = struct.unpack_from('>' + fmt, self.buf, self.pos)
        self.pos += size
        return vals if len(vals) > 1 else vals[0]

    def bytes(self):
        """A QByteArray: u32 length (0xffffffff for a null one), then the bytes"""
        size = self.take('I')
        if size == 0xffffffff:
            return b''
        if self.pos + size > len(self.buf):
            raise StreamError(f'{self.where}: byte array ends early')
        self.pos += size
        return self.buf[self.pos - size:self.pos]

    def text(self, codec='utf-8'):
        """A QByteArray as text, or with codec utf-16-be a QString"""
        return self.bytes().decode(codec, 'replace')

    def list(self, item):
        """A QList: u32 count, then that many items, each read by @item()"""
        return [item() for _ in range(self.take('I'))]

    def variant(self):
        """A QVariant of the types perfparser sends: None, bytes, list or number"""
        vtype, _is_null = self.take('IB')
        if vtype == 0:
            return None
        if vtype == 12:
            return self.bytes()
        if vtype == 9:
            return self.list(self.variant)
        if vtype not in VARIANT_FMT:
            raise StreamError(f'{self.where}: QVariant type {vtype}')
        return self.take(VARIANT_FMT[vtype])


# Definition messages: an id, then the fields of the tuple stored under it
_DEFINITIONS = {
    'LocationDefinition': ('locations', Location, 'QiIiii'),
    'SymbolDefinition': ('symbols', Symbol, 'iii?'),
    'AttributesDefinition': ('attributes', Attribute, 'IQi?Q'),
    'TracePointFormat': ('tracepoint_formats', TraceFormat, 'iiI'),
}


def _decode(stream, mtype, reader):
    """Decode one message of type @mtype from @reader into @stream"""
    name = MSG_TYPES[mtype]
    if name in ('Sample', 'TracePointSample'):
        smp = Sample(*reader.take('iiQI'), reader.list(lambda: reader.take('i')),
                     reader.take('B'), reader.list(lambda: reader.take('iQ')))
        smp.frames = stream.resolve(smp.location_ids, smp.guessed_frames)
        if name == 'TracePointSample':
            smp.trace_data = dict(reader.list(lambda: (reader.take('i'), reader.variant())))
        stream.samples.append(smp)
    elif name == 'StringDefinition':
        sid, text = reader.take('i'), reader.text()
        if sid != len(stream.strings):
            raise StreamError(f'{reader.where}: string id {sid} out of order')
        stream.strings.append(text)
    elif name in _DEFINITIONS:
        table, kind, fmt = _DEFINITIONS[name]
        ident = reader.take('i')
        getattr(stream, table)[ident] = kind(*reader.take(fmt))
    elif name == 'Error':
        code = reader.take('i')
        message = reader.text('utf-16-be')  # a QString
        stream.errors.append((ERROR_CODES.get(code, str(code)), message))
    elif name == 'Progress':
        stream.progress = reader.take('d')  # a float, sent in double precision
    elif name == 'FeaturesDefinition':
        stream.features = _features(reader)
    else:
        rec = reader.take('iiQI')
        payload = None
        if name in ('ThreadStart', 'Command'):
            payload = reader.take('i')  # parent pid; command string id
        elif name == 'ContextSwitchDefinition':
            payload = reader.take('?')  # switched out
        if name == 'Command':
            payload = stream.string(payload)
        stream.events.append(TaskEvent(name, *rec, payload))


def _features(reader):
    """The perf.data header features, as FeaturesDefinition sends them"""
    feats = {'hostname': reader.text(), 'osrelease': reader.text(),
             'version': reader.text(), 'arch': reader.text(),
             'nr_cpus': reader.take('II'), 'cpudesc': reader.text(),
             'cpuid': reader.text(), 'total_mem': reader.take('Q'),
             'cmdline': reader.list(reader.text)}
    feats['build_ids'] = reader.list(lambda: (reader.take('i'), reader.bytes().hex(),
                                              reader.text()))
    feats['sibling_cores'] = reader.list(reader.text)
    feats['sibling_threads'] = reader.list(reader.text)
    feats['numa'] = reader.list(lambda: (*reader.take('IQQ'), reader.text()))
    feats['pmu_mappings'] = reader.list(lambda: (reader.take('I'), reader.text()))
    feats['group_descs'] = reader.list(lambda: (reader.text(), *reader.take('II')))
    return feats


def parse_bytes(data):
    """Decode a whole perfparser stream held in @data; return a Stream"""
    if data[:12] != MAGIC:
        raise StreamError('not a perfparser stream (no QPERFSTREAM magic)')
    if len(data) < 16:
        raise StreamError(f'truncated header ({len(data)} bytes)')
    stream = Stream(struct.unpack_from('<i', data, 12)[0])
    if stream.version not in KNOWN_VERSIONS:
        raise StreamError(f'unsupported QDataStream version {stream.version} (know '
                          f'{KNOWN_VERSIONS[0]}..{KNOWN_VERSIONS[-1]})')
    pos = 16
    while pos < len(data):
        if pos + 4 > len(data):
            raise StreamError(f'truncated message size at offset {pos}')
        size = struct.unpack_from('<I', data, pos)[0]
        end = pos + 4 + size
        if size == 0 or end > len(data):
            raise StreamError(f'truncated message at offset {pos} (size {size}, '
                              f'{len(data) - pos} bytes left)')
        mtype = data[pos + 4]
        if mtype >= len(MSG_TYPES):
            stream.unknown.append((mtype, size))
        else:
            reader = _Reader(data[pos + 5:end], f'{MSG_TYPES[mtype]} at offset {pos}')
            _decode(stream, mtype, reader)
            if reader.pos != len(reader.buf):
                left = len(reader.buf) - reader.pos
                raise StreamError(f'{reader.where}: {left} bytes left over (layout mismatch)')
        pos = end
    return stream


def parse(path):
    """Decode the perfparser output file at @path"""
    with open(path, 'rb') as inf:
        return parse_bytes(inf.read())


def find_perfparser(parser=None):
    """Return @parser, $PERFPARSER, or the one Debian's hotspot installed"""
    parser = parser or os.environ.get('PERFPARSER')
    if parser:
        return parser
    try:
        files = subprocess.run(['dpkg', '-L', 'hotspot'], capture_output=True,
                               text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise FileNotFoundError(f'hotspot package not found: {exc}') from exc
    for path in files:
        if path.endswith('/hotspot-perfparser') and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError('hotspot-perfparser not in dpkg -L hotspot')


def run_perfparser(perf_data, app_dir=None, extra_args=(), parser=None,
                   output=None):
    """Run perfparser on @perf_data and decode what it writes

    After build-id lookups in the --debug path (which holds perf's cache
    ~/.debug by default), perfparser looks for each ELF by file name in
    @app_dir (--app) and all its subdirectories. @extra_args go to it as
    they are (--sysroot, --debug, --extra, --arch, ...). The stream goes to
    @output if given, else to a temporary file. Returns a Stream whose .log
    is perfparser's stderr.
    """
    cmd = [find_perfparser(parser), '--input', os.path.abspath(perf_data)]
    if app_dir:
        cmd += ['--app', os.path.abspath(app_dir)]
    with tempfile.TemporaryDirectory(prefix='perfparser') as tmp:
        out = os.path.abspath(output) if output else os.path.join(tmp, 'qps')
        proc = subprocess.run(cmd + ['--output', out] + list(extra_args),
                              capture_output=True, text=True, check=False)
        if proc.returncode:
            raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
        stream = parse(out)
    stream.log = proc.stderr
    return stream


def main(argv=None):
    """Print one line per sample, "addr symbol <- caller <- ...", innermost
    first, an inlined function marked "*"; then perfparser's errors"""
    parser = argparse.ArgumentParser(
        description=main.__doc__,
        epilog='Other options (--arch, --sysroot, ...) go to perfparser.')
    parser.add_argument('perf_data')
    parser.add_argument('--app', help='directory holding the profiled ELF')
    parser.add_argument('--parser', help='the hotspot-perfparser to run')
    parser.add_argument('--stream', action='store_true',
                        help='perf_data is perfparser output already')
    args, extra = parser.parse_known_args(argv)
    if args.stream:
        stream = parse(args.perf_data)
    else:
        stream = run_perfparser(args.perf_data, args.app, extra, args.parser)
    for smp in stream.samples:
        address = smp.frames[0].address if smp.frames else 0
        chain = ' <- '.join((f.symbol or '[unknown]') + '*' * f.inlined for f in smp.frames)
        print(f'{address:#x} {chain}')
    for code, msg in stream.errors:
        print(f'error: {code}: {msg}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
