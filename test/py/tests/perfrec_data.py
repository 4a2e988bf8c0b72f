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

The format's constants, the named tuples, PerfDataError and the record-level
parsing (RecordParser, PerfData's base) are in perfrec_data_records.py; import
them from here, which re-exports every one.

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
import re
import struct
import sys

# Every public name of perfrec_data_records, which users import from here
from perfrec_data_records import (  # noqa: F401  # pylint: disable=unused-import
    MAGIC, HEADER_SIZE, PIPE_HEADER_SIZE, ATTR_SIZE_VER0, FEAT_BITS, NAME_ALIGN, SAMPLE_IP,
    SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR, SAMPLE_CALLCHAIN, SAMPLE_ID, SAMPLE_CPU,
    SAMPLE_PERIOD, SAMPLE_STREAM_ID, SAMPLE_IDENTIFIER, SAMPLE_SUPPORTED, ATTR_FLAG_FREQ,
    ATTR_FLAG_SAMPLE_ID_ALL, RECORD_MMAP, RECORD_LOST, RECORD_COMM, RECORD_SAMPLE,
    RECORD_LOST_SAMPLES, RECORD_USER_TYPE_START, RECORD_HEADER_ATTR, RECORD_HEADER_BUILD_ID,
    RECORD_EVENT_UPDATE, RECORD_HEADER_FEATURE, EVENT_UPDATE_NAME, MISC_CPUMODE_MASK,
    MISC_KERNEL, MISC_USER, MISC_GUEST_KERNEL, MISC_GUEST_USER, MISC_BUILD_ID_SIZE,
    BUILD_ID_HEADER_SIZE, BUILD_ID_MAX, BUILD_ID_HOST_PID, FEAT_BUILD_ID, FEAT_HOSTNAME,
    FEAT_OSRELEASE, FEAT_VERSION, FEAT_ARCH, FEAT_NRCPUS, FEAT_CPUID, FEAT_TOTAL_MEM,
    FEAT_CMDLINE, FEAT_EVENT_DESC, FEAT_SAMPLE_TIME, FEAT_NAMES, HEADER_STRUCT, ATTR_STRUCT,
    SECTION_STRUCT, EVENT_HEADER_STRUCT, Section, Record, Sample, Comm, Mmap, SampleId,
    BuildId, PerfDataError, Attr, sample_size, sample_id_size, c_string, FeatureReader,
    RecordParser
)

# What host perf 6.1 may print on stderr for a good perfrec file
PERF_STDERR_HARMLESS = (
    re.compile(r'unwind: target platform=arm64 is not supported'),
)
PERF_LOST_WARNING = re.compile(r'Processed \d+ samples and lost \d+\.\d\d%!')


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
class PerfData(RecordParser):  # pylint: disable=too-many-instance-attributes
    """A parsed perf.data, file mode or pipe mode

    Walks the file or the stream and decodes the features; the attrs and the
    event and build-id records are parsed by RecordParser's steps.

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
        super().__init__(data)
        self.pipe = False
        self.attr_size = self.attrs_section = self.event_types = None
        self.features = []
        self.feature_sections = {}
        self.hostname = self.osrelease = self.version = self.arch = self.cpuid = None
        self.nrcpus = self.total_mem_kb = self.cmdline = None
        self.event_desc = self.sample_time = None
        self.update_names = {}
        self._parse_header()
        if self.pipe:
            self._parse_pipe()
        else:
            self._parse_attrs()
            self._parse_records()
            self._parse_features()

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
        fields = HEADER_STRUCT.unpack_from(self._data, 0)
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

    def _parse_attrs(self):
        if not self.attrs_section.size:
            raise PerfDataError('no attrs')
        if self.attr_size < ATTR_SIZE_VER0 + SECTION_STRUCT.size:
            raise PerfDataError(f'header attr_size {self.attr_size} is below '
                                f'{ATTR_SIZE_VER0 + SECTION_STRUCT.size}')
        if self.attrs_section.size % self.attr_size:
            raise PerfDataError(f'attrs section size {self.attrs_section.size} is not a multiple '
                                f'of attr_size {self.attr_size}')
        for i in range(self.attrs_section.size // self.attr_size):
            what = f'attr {i}'
            offset = self.attrs_section.offset + i * self.attr_size
            size = self._unpack('<I', offset + 4, self.size, what)[0]
            if size + SECTION_STRUCT.size != self.attr_size:
                raise PerfDataError(f'{what}: attr.size {size} + 16 does not match header '
                                    f'attr_size {self.attr_size}')
            attr = self._parse_attr(offset, size, what)
            ids_sec = Section(*SECTION_STRUCT.unpack_from(self._data, offset + size))
            self._check_section(ids_sec, f'{what} ids', 8)
            self._add_attr(attr, ids_sec, what)
        self._check_attrs()

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
        body = rec.offset + EVENT_HEADER_STRUCT.size
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
        body = rec.offset + EVENT_HEADER_STRUCT.size
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
        body = rec.offset + EVENT_HEADER_STRUCT.size
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
            reader = FeatureReader(self._data, self.pipe, bit, self.feature_sections[bit])
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
        elif size != self.attr_size - SECTION_STRUCT.size:
            raise PerfDataError(f'EVENT_DESC: attr size {size}, the attrs section uses '
                                f'{self.attr_size - SECTION_STRUCT.size}')
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
