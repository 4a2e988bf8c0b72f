# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Parse and check the perf.data that perfrec writes, file or pipe mode (standard library only)

"""Parse and check a little-endian perf.data as perfrec writes it, file or pipe mode.

Usage:
    perfrec_data.py [-s] <perf.data>

Prints a summary (events, samples, COMM/MMAP, lost samples, header features);
-s also lists every sample. Exits 0 if the file is well formed, 1 if not.

Both of perf's layouts are read; the header's size field tells them apart.
File mode (size 104) is seekable: attrs, data section, feature sections.
Pipe mode (size 16, what "perf record -o -" and perfrec's streams write) is a
run of records: PERF_RECORD_HEADER_ATTR per event (perfrec follows each with a
PERF_RECORD_EVENT_UPDATE naming it), PERF_RECORD_HEADER_FEATURE per feature
(the payload of file mode's feature section, padded to 8 bytes here), then
the event records. A build-id is file mode's HEADER_BUILD_ID feature and pipe
mode's PERF_RECORD_HEADER_BUILD_ID record (perf 6.1 reads a BUILD_ID feature
record from its standard input, so this parser refuses one). A pipe-mode
stream may stop at any record boundary (a board that died): it still parses,
with what it holds.

As a module (test/py tests and test/host tests):
    data = perfrec_data.load('perf.data')   # raises PerfDataError if malformed
    len(data.samples), data.lost_samples, data.event_desc, data.arch, ...
    perfrec_data.check_perf_stderr(stderr_of_perf)   # AssertionError if unexpected

The checks are stricter than perf's: perf prints a warning, shows an empty or
partial report and still exits 0 on a broken file, so every structural fault
(bad magic or sizes, a record running past the data section, a sample whose
size does not match its attr's sample_type, an id that no attr declares, a
feature section outside the file or not used up exactly) raises PerfDataError;
in pipe mode also a record cut off by the end of the stream, an event record
before the first HEADER_ATTR or a HEADER_ATTR after it, a feature sent twice;
a build-id record that is cut off, unterminated, of a cpumode perf refuses or
of a length above 20 bytes.
The layout follows tools/perf/Documentation/perf.data-file-format.txt and
include/uapi/linux/perf_event.h in Linux.
"""

import argparse
import collections
import re
import struct
import sys

MAGIC = b'PERFILE2'
HEADER_SIZE = 104
PIPE_HEADER_SIZE = 16
ATTR_SIZE_VER0 = 64
FEAT_BITS = 256
NAME_ALIGN = 64                 # perf pads header strings to this

# perf_event_attr.sample_type bits
SAMPLE_IP = 1 << 0
SAMPLE_TID = 1 << 1
SAMPLE_TIME = 1 << 2
SAMPLE_ADDR = 1 << 3
SAMPLE_CALLCHAIN = 1 << 5
SAMPLE_ID = 1 << 6
SAMPLE_CPU = 1 << 7
SAMPLE_PERIOD = 1 << 8
SAMPLE_STREAM_ID = 1 << 9
SAMPLE_IDENTIFIER = 1 << 16
SAMPLE_SUPPORTED = (SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_ADDR | SAMPLE_CALLCHAIN |
                    SAMPLE_ID | SAMPLE_CPU | SAMPLE_PERIOD | SAMPLE_STREAM_ID |
                    SAMPLE_IDENTIFIER)

# perf_event_attr flag bits (the bitfield word at offset 40)
ATTR_FLAG_FREQ = 1 << 10
ATTR_FLAG_SAMPLE_ID_ALL = 1 << 18

# perf_event_header.type
RECORD_MMAP = 1
RECORD_LOST = 2
RECORD_COMM = 3
RECORD_SAMPLE = 9
RECORD_LOST_SAMPLES = 13
RECORD_USER_TYPE_START = 64     # synthesised records carry no sample_id trailer
RECORD_HEADER_ATTR = 64         # pipe mode: attr, then its ids
RECORD_HEADER_BUILD_ID = 67     # pipe mode: struct perf_record_header_build_id
RECORD_EVENT_UPDATE = 78        # pipe mode: u64 type, u64 id, then the update
RECORD_HEADER_FEATURE = 80      # pipe mode: u64 feature bit, then its payload

# PERF_RECORD_EVENT_UPDATE types
EVENT_UPDATE_NAME = 2

# perf_event_header.misc
MISC_CPUMODE_MASK = 7
MISC_KERNEL = 1
MISC_USER = 2
MISC_GUEST_KERNEL = 4
MISC_GUEST_USER = 5
MISC_BUILD_ID_SIZE = 1 << 15    # build-id records: the id's length is in the record

# struct perf_record_header_build_id: header, pid, 20-byte id, size byte, padding,
# then the file name (NUL-terminated, padded)
BUILD_ID_HEADER_SIZE = 36
BUILD_ID_MAX = 20
BUILD_ID_HOST_PID = -1          # perf's HOST_KERNEL_ID: the host machine

# Feature bits of the file header (tools/perf/util/header.h)
FEAT_BUILD_ID = 2
FEAT_HOSTNAME = 3
FEAT_OSRELEASE = 4
FEAT_VERSION = 5
FEAT_ARCH = 6
FEAT_NRCPUS = 7
FEAT_CPUID = 9
FEAT_TOTAL_MEM = 10
FEAT_CMDLINE = 11
FEAT_EVENT_DESC = 12
FEAT_SAMPLE_TIME = 21

# perf's own name of each feature bit, for messages and the summary
FEAT_NAMES = {
    1: 'TRACING_DATA', 2: 'BUILD_ID', 3: 'HOSTNAME', 4: 'OSRELEASE', 5: 'VERSION',
    6: 'ARCH', 7: 'NRCPUS', 8: 'CPUDESC', 9: 'CPUID', 10: 'TOTAL_MEM', 11: 'CMDLINE',
    12: 'EVENT_DESC', 13: 'CPU_TOPOLOGY', 14: 'NUMA_TOPOLOGY', 15: 'BRANCH_STACK',
    16: 'PMU_MAPPINGS', 17: 'GROUP_DESC', 18: 'AUXTRACE', 19: 'STAT', 20: 'CACHE',
    21: 'SAMPLE_TIME', 22: 'MEM_TOPOLOGY', 23: 'CLOCKID', 24: 'DIR_FORMAT',
    25: 'BPF_PROG_INFO', 26: 'BPF_BTF', 27: 'COMPRESSED', 28: 'CPU_PMU_CAPS',
    29: 'CLOCK_DATA', 30: 'HYBRID_TOPOLOGY', 31: 'PMU_CAPS',
}

# What host perf 6.1 may print on stderr for a good perfrec file
PERF_STDERR_HARMLESS = (
    re.compile(r'unwind: target platform=arm64 is not supported'),
)
PERF_LOST_WARNING = re.compile(r'Processed \d+ samples and lost \d+\.\d\d%!')

_HEADER = struct.Struct('<8sQQQQQQQQ4Q')
_ATTR = struct.Struct('<IIQQQQQIIQ')
_SECTION = struct.Struct('<QQ')
_EVENT_HEADER = struct.Struct('<IHH')

Section = collections.namedtuple('Section', 'offset size')
Record = collections.namedtuple('Record', 'type misc size offset')
Sample = collections.namedtuple('Sample', 'id ip pid tid time period callchain')
Comm = collections.namedtuple('Comm', 'pid tid comm')
Mmap = collections.namedtuple('Mmap', 'pid tid start len pgoff filename')
SampleId = collections.namedtuple('SampleId', 'pid tid time id stream_id cpu')
BuildId = collections.namedtuple('BuildId', 'pid build_id filename')


class PerfDataError(ValueError):
    """A perf.data file is malformed, or uses something this parser cannot read"""


class Attr(collections.namedtuple('Attr', 'type size config sample_period sample_type '
                                  'read_format flags wakeup_events bp_type config1 ids')):
    """One perf_event_attr (its first 64 bytes) and the ids that samples of it carry"""
    __slots__ = ()

    @property
    def sample_id_all(self):
        """True if non-sample records carry a sample_id trailer for this event"""
        return bool(self.flags & ATTR_FLAG_SAMPLE_ID_ALL)

    @property
    def freq(self):
        """True if sample_period is a frequency in Hz"""
        return bool(self.flags & ATTR_FLAG_FREQ)


def sample_size(sample_type, nr_callchain=0):
    """Return the byte size of a PERF_RECORD_SAMPLE of @sample_type, header included

    Args:
        sample_type (int): perf_event_attr.sample_type
        nr_callchain (int): entries of the callchain, if PERF_SAMPLE_CALLCHAIN is set
    """
    size = 8
    for bit in (SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR,
                SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU, SAMPLE_PERIOD):
        if sample_type & bit:
            size += 8
    if sample_type & SAMPLE_CALLCHAIN:
        size += 8 + 8 * nr_callchain
    return size


def sample_id_size(sample_type):
    """Return the byte size of the sample_id trailer of non-sample records"""
    return 8 * bin(sample_type & (SAMPLE_TID | SAMPLE_TIME | SAMPLE_ID | SAMPLE_STREAM_ID |
                                  SAMPLE_CPU | SAMPLE_IDENTIFIER)).count('1')


def check_perf_stderr(text, allow_lost=False, allow=()):
    """Check that perf printed nothing on stderr but known-harmless lines

    perf exits 0 even when it could not read a file ("failed to process
    type", "data has no samples", ...), so its stderr is the main sign. Not
    the only one: a file cut inside its last record reads silently, with a
    garbage sample, so check the report's content (or parse the file) too.

    Args:
        text (str): what perf wrote on stderr
        allow_lost (bool): also accept perf's warning for files with lost
            samples: "Warning:" then "Processed N samples and lost X%!"
        allow (iterable of str): further regular expressions a whole line may match

    Raises:
        AssertionError: listing every unexpected line
    """
    extra = [re.compile(pat) for pat in allow]
    lines = text.splitlines()
    bad = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if line == 'Warning:' and allow_lost:
            while i < len(lines) and not lines[i].strip():
                i += 1
            if i < len(lines) and PERF_LOST_WARNING.fullmatch(lines[i].strip()):
                i += 1
                continue
        elif allow_lost and PERF_LOST_WARNING.fullmatch(line):
            continue
        if any(pat.fullmatch(line) for pat in list(PERF_STDERR_HARMLESS) + extra):
            continue
        bad.append(line)
    if bad:
        raise AssertionError('unexpected perf stderr:\n  ' + '\n  '.join(bad))


# More attributes than pylint likes: one per perf.data section and feature
class PerfData:  # pylint: disable=too-many-instance-attributes
    """A parsed perf.data, file mode or pipe mode

    Attributes:
        size (int): bytes in the file
        pipe (bool): pipe mode (16-byte header, then records only)
        attrs (list of Attr): the events, in file order
        attr_size (int or None): bytes of each attrs-section entry (attr + ids
            section); None in pipe mode
        data_offset (int): where the data section (the records) starts; in
            pipe mode where the records start, after the header
        data_size (int): its size in bytes; in pipe mode up to the end
        features (list of int): set feature bits, ascending; in pipe mode
            those of the HEADER_FEATURE records
        feature_sections (dict): feature bit -> Section(offset, size); in
            pipe mode the payload of its HEADER_FEATURE record, padding included
        records (list of Record): every record, in file order; in pipe mode
            HEADER_ATTR, EVENT_UPDATE and HEADER_FEATURE records included
        sample_ids (dict): record offset -> SampleId, for non-sample records
            that carry a sample_id trailer
        samples (list of Sample): PERF_RECORD_SAMPLE records, in file order
        comms (list of Comm): PERF_RECORD_COMM records
        mmaps (list of Mmap): PERF_RECORD_MMAP records
        lost_samples (int): sum of PERF_RECORD_LOST_SAMPLES.lost
        hostname, osrelease, version, arch, cpuid (str or None): string features
        nrcpus (tuple or None): (avail, online)
        total_mem_kb (int or None): HEADER_TOTAL_MEM
        cmdline (list of str or None): HEADER_CMDLINE
        event_desc (list or None): (Attr, name, ids) per event
        sample_time (tuple or None): (first, last) sample time in ns
        update_names (dict): id -> event name, from pipe-mode EVENT_UPDATE records
        build_ids (list of BuildId): (pid, id bytes, file name) of each build-id
            record: HEADER_BUILD_ID in file mode, PERF_RECORD_HEADER_BUILD_ID
            records in pipe mode; pid -1 (BUILD_ID_HOST_PID) is perf's host
    """

    def __init__(self, data):
        """Parse @data (bytes); raise PerfDataError if it is malformed"""
        self._data = bytes(data)
        self.size = len(self._data)
        self.pipe = False
        self.attr_size = self.attrs_section = self.event_types = None
        self.attrs = []
        self.features = []
        self.feature_sections = {}
        self.records = []
        self.sample_ids = {}
        self.samples = []
        self.comms = []
        self.mmaps = []
        self.lost_samples = 0
        self.hostname = self.osrelease = self.version = self.arch = self.cpuid = None
        self.nrcpus = self.total_mem_kb = self.cmdline = None
        self.event_desc = self.sample_time = None
        self.update_names = {}
        self.build_ids = []
        self._by_id = {}
        self._parse_header()
        if self.pipe:
            self._parse_pipe()
        else:
            self._parse_attrs()
            self._parse_records()
            self._parse_features()

    # -- helpers ---------------------------------------------------------------

    def _unpack(self, fmt, offset, end, what):
        """Unpack @fmt at @offset, which must end by @end; return the tuple"""
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > min(end, self.size):
            raise PerfDataError(f'{what} at {offset:#x}: {size} bytes would run past '
                                f'{min(end, self.size):#x}')
        return struct.unpack_from(fmt, self._data, offset)

    def _check_section(self, sec, what, align=1):
        """Check that @sec lies inside the file"""
        if sec.offset + sec.size > self.size:
            raise PerfDataError(f'{what} section [{sec.offset:#x}, +{sec.size:#x}) runs past the '
                                f'end of the file ({self.size:#x})')
        if sec.size % align:
            raise PerfDataError(f'{what} section size {sec.size:#x} is not a multiple of {align}')

    # -- header and attrs ------------------------------------------------------

    def _parse_header(self):
        if self.size < PIPE_HEADER_SIZE:
            raise PerfDataError(f'file is {self.size} bytes, shorter than the {HEADER_SIZE}-byte '
                                'header')
        magic, hsize = struct.unpack_from('<8sQ', self._data, 0)
        if magic == MAGIC[::-1]:
            raise PerfDataError('big-endian perf.data is not supported')
        if magic != MAGIC:
            raise PerfDataError(f'bad magic {magic!r} (want {MAGIC!r})')
        if hsize == PIPE_HEADER_SIZE:
            self.pipe = True
            self.data_offset = PIPE_HEADER_SIZE
            self.data_size = self.size - PIPE_HEADER_SIZE
            return
        if self.size < HEADER_SIZE:
            raise PerfDataError(f'file is {self.size} bytes, shorter than the {HEADER_SIZE}-byte '
                                'header')
        if hsize != HEADER_SIZE:
            raise PerfDataError(f'header size {hsize}, want {HEADER_SIZE}')
        fields = _HEADER.unpack_from(self._data, 0)
        self.attr_size = fields[2]
        self.attrs_section = Section(fields[3], fields[4])
        self.data_offset, self.data_size = fields[5], fields[6]
        self.event_types = Section(fields[7], fields[8])
        bitmap = fields[9:13]
        self.features = [bit for bit in range(FEAT_BITS)
                         if bitmap[bit // 64] >> (bit % 64) & 1]
        self._check_section(self.attrs_section, 'attrs')
        self._check_section(Section(self.data_offset, self.data_size), 'data', 8)
        if self.attrs_section.offset < HEADER_SIZE or self.data_offset < HEADER_SIZE:
            raise PerfDataError(f'attrs ({self.attrs_section.offset:#x}) or data '
                                f'({self.data_offset:#x}) overlaps the header')

    def _parse_attr(self, offset, size, what):
        """Return the Attr (without ids) of @size bytes at @offset"""
        if size < ATTR_SIZE_VER0:
            raise PerfDataError(f'{what}: attr size {size} is below PERF_ATTR_SIZE_VER0 '
                                f'({ATTR_SIZE_VER0})')
        fields = self._unpack('<IIQQQQQIIQ', offset, offset + size, what)
        if fields[1] != size:
            raise PerfDataError(f'{what}: attr.size {fields[1]}, but {size} bytes are given to it')
        unsupported = fields[4] & ~SAMPLE_SUPPORTED
        if unsupported:
            raise PerfDataError(f'{what}: sample_type {fields[4]:#x} has bits {unsupported:#x} '
                                'this parser cannot read')
        return Attr(*fields, ids=[])

    def _parse_attrs(self):
        if not self.attrs_section.size:
            raise PerfDataError('no attrs')
        if self.attr_size < ATTR_SIZE_VER0 + _SECTION.size:
            raise PerfDataError(f'header attr_size {self.attr_size} is below '
                                f'{ATTR_SIZE_VER0 + _SECTION.size}')
        if self.attrs_section.size % self.attr_size:
            raise PerfDataError(f'attrs section size {self.attrs_section.size} is not a multiple '
                                f'of attr_size {self.attr_size}')
        for i in range(self.attrs_section.size // self.attr_size):
            what = f'attr {i}'
            offset = self.attrs_section.offset + i * self.attr_size
            size = self._unpack('<I', offset + 4, self.size, what)[0]
            if size + _SECTION.size != self.attr_size:
                raise PerfDataError(f'{what}: attr.size {size} + 16 does not match header '
                                    f'attr_size {self.attr_size}')
            attr = self._parse_attr(offset, size, what)
            ids_sec = Section(*_SECTION.unpack_from(self._data, offset + size))
            self._check_section(ids_sec, f'{what} ids', 8)
            self._add_attr(attr, ids_sec, what)
        self._check_attrs()

    def _add_attr(self, attr, ids_sec, what):
        """Append @attr with the ids in @ids_sec (checked to be in the file)"""
        index = len(self.attrs)
        for j in range(ids_sec.size // 8):
            ident = struct.unpack_from('<Q', self._data, ids_sec.offset + 8 * j)[0]
            if ident in self._by_id:
                raise PerfDataError(f'{what}: id {ident} is already declared by attr '
                                    f'{self._by_id[ident]}')
            self._by_id[ident] = index
            attr.ids.append(ident)
        self.attrs.append(attr)

    def _check_attrs(self):
        """Check that the events agree on where samples and trailers keep the id"""
        # perf finds the id at one position for all events; so must we
        first = self.attrs[0]
        for i, attr in enumerate(self.attrs[1:], 1):
            if attr.sample_id_all != first.sample_id_all:
                raise PerfDataError(f'attr {i} disagrees with attr 0 on sample_id_all')
            if (attr.sample_type & SAMPLE_IDENTIFIER) != (first.sample_type & SAMPLE_IDENTIFIER):
                raise PerfDataError(f'attr {i} disagrees with attr 0 on PERF_SAMPLE_IDENTIFIER')
            if not attr.sample_type & SAMPLE_IDENTIFIER and attr.sample_type != first.sample_type:
                raise PerfDataError(f'attr {i}: several events with different sample_type need '
                                    'PERF_SAMPLE_IDENTIFIER')
        if len(self.attrs) > 1 and not first.sample_type & (SAMPLE_IDENTIFIER | SAMPLE_ID):
            raise PerfDataError(f'{len(self.attrs)} events, but samples carry no id')

    def _attr_of(self, ident, what):
        """Return the attr that declares id @ident"""
        if ident not in self._by_id:
            raise PerfDataError(f"{what}: id {ident} is declared by no attr (ids: "
                                f"{sorted(self._by_id) or 'none'})")
        return self.attrs[self._by_id[ident]]

    # -- records ---------------------------------------------------------------

    def _next_record(self, pos, end, prefix, end_name):
        """Return the Record at @pos, which must end by @end; append it to records"""
        if pos + _EVENT_HEADER.size > end:
            raise PerfDataError(f'{prefix}record header at {pos:#x} runs past the {end_name} '
                                f'{end:#x}')
        rtype, misc, size = _EVENT_HEADER.unpack_from(self._data, pos)
        if size < _EVENT_HEADER.size or size % 8:
            raise PerfDataError(f'{prefix}record at {pos:#x} (type {rtype}): size {size} is not a '
                                'multiple of 8 of at least 8')
        if pos + size > end:
            raise PerfDataError(f'{prefix}record at {pos:#x} (type {rtype}, size {size}) runs past '
                                f'the {end_name} {end:#x}')
        rec = Record(rtype, misc, size, pos)
        self.records.append(rec)
        return rec

    def _parse_event_record(self, rec):
        """Parse @rec, a record of the data section (or of a stream after its attrs)"""
        if rec.type == RECORD_SAMPLE:
            self.samples.append(self._parse_sample(rec))
        else:
            self._parse_other(rec)

    def _parse_records(self):
        pos = self.data_offset
        end = self.data_offset + self.data_size
        while pos < end:
            rec = self._next_record(pos, end, '', 'data end')
            self._parse_event_record(rec)
            pos += rec.size
        total = sum(rec.size for rec in self.records)
        if total != self.data_size:
            raise PerfDataError(f'records add up to {total} bytes, data size is {self.data_size}')

    def _sample_attr(self, rec, what):
        """Return the attr of the sample record @rec"""
        end = rec.offset + rec.size
        first = self.attrs[0]
        if first.sample_type & SAMPLE_IDENTIFIER:
            return self._attr_of(self._unpack('<Q', rec.offset + _EVENT_HEADER.size, end,
                                              what)[0], what)
        if len(self.attrs) == 1:
            return first
        # Same sample_type for all (checked): the ID field is at one place
        off = sample_size(first.sample_type & (SAMPLE_ID - 1) & ~SAMPLE_CALLCHAIN)
        return self._attr_of(self._unpack('<Q', rec.offset + off, end, what)[0], what)

    def _parse_sample(self, rec):
        what = f'sample at {rec.offset:#x}'
        end = rec.offset + rec.size
        pos = rec.offset + _EVENT_HEADER.size
        attr = self._sample_attr(rec, what)
        stype = attr.sample_type
        if rec.size < sample_size(stype):
            least = 'at least ' if stype & SAMPLE_CALLCHAIN else ''
            raise PerfDataError(f'{what}: size {rec.size}, but sample_type {stype:#x} makes it '
                                f'{least}{sample_size(stype)}')
        vals = {}
        for bit in (SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR,
                    SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU, SAMPLE_PERIOD):
            if stype & bit:
                vals[bit] = self._unpack('<Q', pos, end, what)[0]
                pos += 8
        callchain = None
        if stype & SAMPLE_CALLCHAIN:
            depth = self._unpack('<Q', pos, end, what)[0]
            pos += 8
            if depth > (end - pos) // 8:
                raise PerfDataError(f'{what}: callchain of {depth} entries runs past the record '
                                    f'(size {rec.size})')
            callchain = list(struct.unpack_from(f'<{depth}Q', self._data, pos))
            pos += 8 * depth
        want = sample_size(stype, len(callchain or ()))
        if rec.size != want:
            raise PerfDataError(f'{what}: size {rec.size}, but sample_type {stype:#x} makes it '
                                f'{want}')
        ident = vals.get(SAMPLE_IDENTIFIER, vals.get(SAMPLE_ID))
        if ident is not None:
            if SAMPLE_ID in vals and SAMPLE_IDENTIFIER in vals and vals[SAMPLE_ID] != ident:
                raise PerfDataError(f'{what}: IDENTIFIER {ident} and ID {vals[SAMPLE_ID]} differ')
            self._attr_of(ident, what)
        elif attr.ids:
            ident = attr.ids[0]
        tid = vals.get(SAMPLE_TID)
        return Sample(id=ident, ip=vals.get(SAMPLE_IP),
                      pid=None if tid is None else tid & 0xffffffff,
                      tid=None if tid is None else tid >> 32,
                      time=vals.get(SAMPLE_TIME), period=vals.get(SAMPLE_PERIOD),
                      callchain=callchain)

    def _parse_sample_id(self, rec):
        """Decode the sample_id trailer of non-sample record @rec; return (SampleId, size)"""
        what = f'record at {rec.offset:#x} (type {rec.type}) sample_id'
        end = rec.offset + rec.size
        first = self.attrs[0]
        if first.sample_type & SAMPLE_IDENTIFIER:
            # The id is the last u64 of the record: it names the layout
            attr = self._attr_of(self._unpack('<Q', end - 8, end, what)[0], what)
        else:
            attr = first
        stype = attr.sample_type
        size = sample_id_size(stype)
        if size > rec.size - _EVENT_HEADER.size:
            raise PerfDataError(f'{what}: a {size}-byte trailer does not fit a {rec.size}-byte '
                                'record')
        pos = end - size
        vals = {}
        for bit in (SAMPLE_TID, SAMPLE_TIME, SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU,
                    SAMPLE_IDENTIFIER):
            if stype & bit:
                vals[bit] = struct.unpack_from('<Q', self._data, pos)[0]
                pos += 8
        for bit in (SAMPLE_ID, SAMPLE_IDENTIFIER):
            if bit in vals:
                self._attr_of(vals[bit], what)
        tid = vals.get(SAMPLE_TID)
        cpu = vals.get(SAMPLE_CPU)
        sid = SampleId(pid=None if tid is None else tid & 0xffffffff,
                       tid=None if tid is None else tid >> 32,
                       time=vals.get(SAMPLE_TIME),
                       id=vals.get(SAMPLE_IDENTIFIER, vals.get(SAMPLE_ID)),
                       stream_id=vals.get(SAMPLE_STREAM_ID),
                       cpu=None if cpu is None else cpu & 0xffffffff)
        return sid, size

    def _string(self, start, end, what):
        """Return the NUL-terminated string in [start, end)"""
        return _c_string(self._data, start, end, what)

    def _parse_other(self, rec):
        trailer = 0
        if rec.type < RECORD_USER_TYPE_START and self.attrs[0].sample_id_all:
            sid, trailer = self._parse_sample_id(rec)
            self.sample_ids[rec.offset] = sid
        body = rec.offset + _EVENT_HEADER.size
        end = rec.offset + rec.size - trailer
        what = f'record at {rec.offset:#x} (type {rec.type})'
        if rec.type == RECORD_COMM:
            pid, tid = self._unpack('<II', body, end, what)
            self.comms.append(Comm(pid, tid, self._string(body + 8, end, what)))
        elif rec.type == RECORD_MMAP:
            fields = self._unpack('<IIQQQ', body, end, what)
            self.mmaps.append(Mmap(*fields, filename=self._string(body + 32, end, what)))
        elif rec.type == RECORD_LOST_SAMPLES:
            self.lost_samples += self._unpack('<Q', body, end, what)[0]

    # -- pipe mode -------------------------------------------------------------

    def _parse_pipe(self):
        """Walk a pipe-mode stream: HEADER_ATTRs first, features, event records"""
        started = False
        pos = self.data_offset
        while pos < self.size:
            rec = self._next_record(pos, self.size, 'pipe-mode ', 'end of the stream')
            pos += rec.size
            if rec.type == RECORD_HEADER_ATTR:
                if started:
                    raise PerfDataError(f'pipe-mode HEADER_ATTR at {rec.offset:#x} comes after '
                                        'event records')
                self._parse_header_attr(rec)
            elif rec.type == RECORD_HEADER_FEATURE:
                self._parse_header_feature(rec)
            elif rec.type == RECORD_EVENT_UPDATE:
                self._parse_event_update(rec)
            elif rec.type == RECORD_HEADER_BUILD_ID:
                self._parse_build_id(rec.offset, rec.offset + rec.size,
                                     f'pipe-mode HEADER_BUILD_ID at {rec.offset:#x}')
            elif rec.type < RECORD_USER_TYPE_START:
                if not started:
                    if not self.attrs:
                        raise PerfDataError(f'pipe-mode record at {rec.offset:#x} (type '
                                            f'{rec.type}) comes before any HEADER_ATTR')
                    self._check_attrs()
                    started = True
                self._parse_event_record(rec)
        if not self.attrs:
            raise PerfDataError(f'pipe-mode stream of {self.size} bytes has no HEADER_ATTR record')
        if not started:
            self._check_attrs()
        self.features = sorted(self.feature_sections)
        self._decode_features()

    def _parse_header_attr(self, rec):
        """PERF_RECORD_HEADER_ATTR: the attr (attr.size bytes), then u64 ids"""
        what = f'pipe-mode HEADER_ATTR at {rec.offset:#x}'
        body = rec.offset + _EVENT_HEADER.size
        end = rec.offset + rec.size
        size = self._unpack('<I', body + 4, end, what)[0]
        if body + size > end:
            raise PerfDataError(f'{what}: attr.size {size} runs past the record (size {rec.size})')
        if size % 8:
            raise PerfDataError(f'{what}: attr.size {size} is not a multiple of 8')
        attr = self._parse_attr(body, size, what)
        self._add_attr(attr, Section(body + size, end - body - size), what)

    def _parse_event_update(self, rec):
        """PERF_RECORD_EVENT_UPDATE: u64 type, u64 id of an event declared before"""
        what = f'pipe-mode EVENT_UPDATE at {rec.offset:#x}'
        body = rec.offset + _EVENT_HEADER.size
        end = rec.offset + rec.size
        utype, ident = self._unpack('<QQ', body, end, what)
        if ident not in self._by_id:
            raise PerfDataError(f"{what}: id {ident} is declared by no HEADER_ATTR before it (ids: "
                                f"{sorted(self._by_id) or 'none'})")
        if utype == EVENT_UPDATE_NAME:
            self.update_names[ident] = self._string(body + 16, end, what)

    def _parse_header_feature(self, rec):
        """PERF_RECORD_HEADER_FEATURE: u64 feature bit, then the feature's payload"""
        what = f'pipe-mode HEADER_FEATURE at {rec.offset:#x}'
        body = rec.offset + _EVENT_HEADER.size
        bit = self._unpack('<Q', body, rec.offset + rec.size, what)[0]
        if not 0 < bit < FEAT_BITS:
            raise PerfDataError(f'{what}: feature bit {bit} is out of range')
        if bit in self.feature_sections:
            raise PerfDataError(f'{what}: feature {FEAT_NAMES.get(bit, bit)} was already sent at '
                                f'{self.feature_sections[bit].offset - 16:#x}')
        if bit == FEAT_BUILD_ID:
            raise PerfDataError(f'{what}: feature BUILD_ID, which perf reads from its standard '
                                'input, not from the record: send PERF_RECORD_HEADER_BUILD_ID '
                                'records')
        self.feature_sections[bit] = Section(body + 8, rec.offset + rec.size - body - 8)

    # -- features --------------------------------------------------------------

    def _parse_features(self):
        table = self.data_offset + self.data_size
        for i, bit in enumerate(self.features):
            what = f'feature table entry {i} (bit {bit})'
            sec = Section(*self._unpack('<QQ', table + 16 * i, self.size, what))
            self._check_section(sec, f'feature {FEAT_NAMES.get(bit, bit)}')
            self.feature_sections[bit] = sec
        self._decode_features()

    def _decode_features(self):
        """Decode the features perfrec writes from feature_sections"""
        strings = {FEAT_HOSTNAME: 'hostname', FEAT_OSRELEASE: 'osrelease',
                   FEAT_VERSION: 'version', FEAT_ARCH: 'arch', FEAT_CPUID: 'cpuid'}
        for bit in sorted(self.feature_sections):
            reader = _FeatureReader(self._data, self.pipe, bit, self.feature_sections[bit])
            if bit in strings:
                setattr(self, strings[bit], reader.string())
            elif bit == FEAT_NRCPUS:
                self.nrcpus = (reader.u32(), reader.u32())
            elif bit == FEAT_TOTAL_MEM:
                self.total_mem_kb = reader.u64()
            elif bit == FEAT_CMDLINE:
                self.cmdline = [reader.string() for _ in range(reader.u32())]
            elif bit == FEAT_EVENT_DESC:
                self._parse_event_desc(reader)
            elif bit == FEAT_SAMPLE_TIME:
                self.sample_time = (reader.u64(), reader.u64())
            elif bit == FEAT_BUILD_ID:
                while reader.pos < reader.end:
                    size = reader.record_size()
                    start = reader.take(size)
                    self._parse_build_id(start, start + size, f'{reader.what}, record at '
                                                              f'{start:#x}')
            else:
                continue
            reader.done()

    def _parse_build_id(self, offset, end, what):
        """Decode the build-id record in [@offset, @end); append it to build_ids"""
        _, misc, size = self._unpack('<IHH', offset, end, what)
        if size != end - offset or size <= BUILD_ID_HEADER_SIZE:
            raise PerfDataError(f'{what}: size {size}, want {end - offset} and more than the '
                                f'{BUILD_ID_HEADER_SIZE}-byte header')
        cpumode = misc & MISC_CPUMODE_MASK
        if cpumode not in (MISC_KERNEL, MISC_USER, MISC_GUEST_KERNEL, MISC_GUEST_USER):
            raise PerfDataError(f'{what}: cpumode {cpumode}, which perf refuses')
        pid, data, length = self._unpack(f'<i{BUILD_ID_MAX}sB', offset + 8, end, what)
        if not misc & MISC_BUILD_ID_SIZE:
            length = BUILD_ID_MAX
        elif not 0 < length <= BUILD_ID_MAX:
            raise PerfDataError(f'{what}: build-id length {length} is not 1..{BUILD_ID_MAX}')
        name = self._string(offset + BUILD_ID_HEADER_SIZE, end, what)
        self.build_ids.append(BuildId(pid, data[:length], name))

    def _parse_event_desc(self, reader):
        count, size = reader.u32(), reader.u32()
        if count != len(self.attrs):
            where = 'stream has HEADER_ATTRs for' if self.pipe else 'attrs section has'
            raise PerfDataError(f'EVENT_DESC: {count} events, the {where} {len(self.attrs)}')
        if self.pipe:
            sizes = sorted({attr.size for attr in self.attrs})
            if sizes != [size]:
                raise PerfDataError(f"EVENT_DESC: attr size {size}, the HEADER_ATTR records use "
                                    f"{', '.join(str(s) for s in sizes)}")
        elif size != self.attr_size - _SECTION.size:
            raise PerfDataError(f'EVENT_DESC: attr size {size}, the attrs section uses '
                                f'{self.attr_size - _SECTION.size}')
        self.event_desc = []
        for i in range(count):
            attr = self._parse_attr(reader.take(size), size, f'EVENT_DESC event {i}')
            nr_ids = reader.u32()
            name = reader.string()
            ids = [reader.u64() for _ in range(nr_ids)]
            self.event_desc.append((attr._replace(ids=ids), name, ids))

    # -- conveniences ----------------------------------------------------------

    def event_name(self, ident):
        """Return the name perf gives the event whose samples carry id @ident

        That of its EVENT_UPDATE record (pipe mode) if any, as perf lets it
        override, else that of HEADER_EVENT_DESC.
        """
        if ident in self.update_names:
            return self.update_names[ident]
        for _, name, ids in self.event_desc or ():
            if ident in ids:
                return name
        return None

    def summary(self, samples=False):
        """Return a human-readable summary (str); with @samples, list each sample"""
        out = [f"perf.data{' (pipe mode)' if self.pipe else ''}: {self.size} bytes, data "
               f"[{self.data_offset:#x}, +{self.data_size:#x}), {len(self.records)} records"]
        for i, attr in enumerate(self.attrs):
            count = sum(1 for s in self.samples if s.id in attr.ids or
                        (s.id is None and i == 0))
            out.append(f"event {i}: {self.event_name(attr.ids[0]) if attr.ids else '?'} type "
                       f"{attr.type} config {attr.config:#x} {'freq' if attr.freq else 'period'} "
                       f"{attr.sample_period} sample_type {attr.sample_type:#x} ids {attr.ids}: "
                       f"{count} samples")
        out.append(f'samples: {len(self.samples)}, lost: {self.lost_samples}')
        for comm in self.comms:
            out.append(f'comm: {comm.comm} pid {comm.pid} tid {comm.tid}')
        for mmap in self.mmaps:
            out.append(f'mmap: {mmap.filename} [{mmap.start:#x}, +{mmap.len:#x}) pgoff '
                       f'{mmap.pgoff:#x} pid {mmap.pid}')
        for bid in self.build_ids:
            out.append(f'build-id: {bid.build_id.hex()} {bid.filename} pid {bid.pid}')
        out.append(f"features: {' '.join(FEAT_NAMES.get(b, str(b)) for b in self.features)}")
        for name in ('hostname', 'osrelease', 'version', 'arch', 'cpuid', 'nrcpus',
                     'total_mem_kb', 'cmdline', 'sample_time'):
            if getattr(self, name) is not None:
                out.append(f'{name}: {getattr(self, name)}')
        if samples:
            for smp in self.samples:
                chain = ('' if smp.callchain is None else
                         ' callchain ' + ' '.join(f'{a:#x}' for a in smp.callchain))
                out.append(f'sample id {smp.id} ip {smp.ip or 0:#x} pid {smp.pid} tid {smp.tid} '
                           f'time {smp.time} period {smp.period}{chain}')
        return '\n'.join(out)


def _c_string(data, start, end, what):
    """Return the NUL-terminated string in [start, end) of @data"""
    nul = data.find(b'\0', start, end)
    if nul < 0:
        raise PerfDataError(f'{what}: string at {start:#x} is not NUL-terminated')
    return data[start:nul].decode('utf-8', 'replace')


class _FeatureReader:
    """Cursor over one feature section, which must be consumed exactly"""

    def __init__(self, data, pipe, bit, sec):
        """Read feature @bit in section @sec of @data (a file or, with @pipe, a stream)"""
        self.data = data
        mode = 'pipe-mode ' if pipe else ''
        self.what = f'{mode}feature {FEAT_NAMES.get(bit, bit)} at {sec.offset:#x}'
        self.pos = sec.offset
        self.end = sec.offset + sec.size
        # A HEADER_FEATURE record pads its payload with zeroes to 8 bytes
        self.pad = 8 if pipe else 1

    def take(self, size):
        """Skip @size bytes; return their offset"""
        if size > self.end - self.pos:
            raise PerfDataError(f'{self.what}: {size} bytes at {self.pos:#x} run past its end '
                                f'{self.end:#x}')
        self.pos += size
        return self.pos - size

    def record_size(self):
        """Return the size field of the perf_event_header at the cursor (not consumed)"""
        if self.end - self.pos < _EVENT_HEADER.size:
            raise PerfDataError(f'{self.what}: record header at {self.pos:#x} runs past its end '
                                f'{self.end:#x}')
        return _EVENT_HEADER.unpack_from(self.data, self.pos)[2]

    def u32(self):
        """Return the next u32"""
        return struct.unpack_from('<I', self.data, self.take(4))[0]

    def u64(self):
        """Return the next u64"""
        return struct.unpack_from('<Q', self.data, self.take(8))[0]

    def string(self):
        """Return the next perf string: u32 length (NUL and padding included), bytes"""
        size = self.u32()
        if not size or size % NAME_ALIGN:
            raise PerfDataError(f'{self.what}: string length {size} at {self.pos - 4:#x} is not a '
                                f'multiple of {NAME_ALIGN}')
        start = self.take(size)
        return _c_string(self.data, start, start + size, self.what)

    def done(self):
        """Check that the whole section was used, but for padding in pipe mode"""
        left = self.end - self.pos
        if left >= self.pad or any(self.data[self.pos:self.end]):
            raise PerfDataError(f'{self.what}: {left} bytes left over after decoding')


def load(path):
    """Read and parse the perf.data file at @path; return a PerfData"""
    with open(path, 'rb') as inf:
        return PerfData(inf.read())


def main(argv=None):
    """Print a summary of a perf.data file; return the exit code"""
    parser = argparse.ArgumentParser(
        description='Check a perf.data (file or pipe mode) and print a summary of it.')
    parser.add_argument('-s', '--samples', action='store_true', help='list every sample')
    parser.add_argument('file', help='perf.data file')
    args = parser.parse_args(argv)
    try:
        pdata = load(args.file)
    except (OSError, PerfDataError) as exc:
        print(f'perfrec_data: {args.file}: {exc}', file=sys.stderr)
        return 1
    print(pdata.summary(args.samples))
    return 0


if __name__ == '__main__':
    sys.exit(main())
