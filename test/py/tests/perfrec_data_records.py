# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# perf.data's layout and the parsing of its records, for perfrec_data.py (standard library only)

"""perf.data's layout, and the record-level parsing that perfrec_data.py builds on.

Holds what the format defines (magic, header sizes, sample_type bits, record
types, feature bits and their names, the structs), the named tuples a parse
yields, PerfDataError, FeatureReader (a cursor over one feature section) and
RecordParser: the state of a parse and its steps that both layouts share
(attrs and their ids; the event records, that is samples, COMM, MMAP,
LOST_SAMPLES and their sample_id trailers; build-id records). PerfData in
perfrec_data.py walks a file or a stream with them and decodes the features.

Import these names from perfrec_data, which re-exports them all; this module
does not import perfrec_data.
"""

import collections
import struct

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

HEADER_STRUCT = struct.Struct('<8sQQQQQQQQ4Q')
ATTR_STRUCT = struct.Struct('<IIQQQQQIIQ')
SECTION_STRUCT = struct.Struct('<QQ')
EVENT_HEADER_STRUCT = struct.Struct('<IHH')

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


def c_string(data, start, end, what):
    """Return the NUL-terminated string in [start, end) of @data"""
    nul = data.find(b'\0', start, end)
    if nul < 0:
        raise PerfDataError(f'{what}: string at {start:#x} is not NUL-terminated')
    return data[start:nul].decode('utf-8', 'replace')


class FeatureReader:
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
        if self.end - self.pos < EVENT_HEADER_STRUCT.size:
            raise PerfDataError(f'{self.what}: record header at {self.pos:#x} runs past its end '
                                f'{self.end:#x}')
        return EVENT_HEADER_STRUCT.unpack_from(self.data, self.pos)[2]

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
        return c_string(self.data, start, start + size, self.what)

    def done(self):
        """Check that the whole section was used, but for padding in pipe mode"""
        left = self.end - self.pos
        if left >= self.pad or any(self.data[self.pos:self.end]):
            raise PerfDataError(f'{self.what}: {left} bytes left over after decoding')


# One attribute per part of the parse; the public methods come with PerfData
class RecordParser:  # pylint: disable=too-many-instance-attributes,too-few-public-methods
    """The state of a perf.data parse and its record-level steps, for both layouts

    PerfData (perfrec_data.py) is one: it walks the file or stream and calls
    these. Attributes (see PerfData for all of them): size, attrs, records,
    sample_ids, samples, comms, mmaps, lost_samples and build_ids.
    """

    def __init__(self, data):
        """Hold @data (bytes), with nothing parsed yet"""
        self._data = bytes(data)
        self.size = len(self._data)
        self.attrs = []
        self.records = []
        self.sample_ids = {}
        self.samples = []
        self.comms = []
        self.mmaps = []
        self.lost_samples = 0
        self.build_ids = []
        self._by_id = {}

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

    # -- attrs -----------------------------------------------------------------

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
        if pos + EVENT_HEADER_STRUCT.size > end:
            raise PerfDataError(f'{prefix}record header at {pos:#x} runs past the {end_name} '
                                f'{end:#x}')
        rtype, misc, size = EVENT_HEADER_STRUCT.unpack_from(self._data, pos)
        if size < EVENT_HEADER_STRUCT.size or size % 8:
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

    def _sample_attr(self, rec, what):
        """Return the attr of the sample record @rec"""
        end = rec.offset + rec.size
        first = self.attrs[0]
        if first.sample_type & SAMPLE_IDENTIFIER:
            return self._attr_of(self._unpack('<Q', rec.offset + EVENT_HEADER_STRUCT.size, end,
                                              what)[0], what)
        if len(self.attrs) == 1:
            return first
        # Same sample_type for all (checked): the ID field is at one place
        off = sample_size(first.sample_type & (SAMPLE_ID - 1) & ~SAMPLE_CALLCHAIN)
        return self._attr_of(self._unpack('<Q', rec.offset + off, end, what)[0], what)

    def _parse_sample(self, rec):
        what = f'sample at {rec.offset:#x}'
        end = rec.offset + rec.size
        pos = rec.offset + EVENT_HEADER_STRUCT.size
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
        if size > rec.size - EVENT_HEADER_STRUCT.size:
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
        return c_string(self._data, start, end, what)

    def _parse_other(self, rec):
        trailer = 0
        if rec.type < RECORD_USER_TYPE_START and self.attrs[0].sample_id_all:
            sid, trailer = self._parse_sample_id(rec)
            self.sample_ids[rec.offset] = sid
        body = rec.offset + EVENT_HEADER_STRUCT.size
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

    # -- build-id records ------------------------------------------------------

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
