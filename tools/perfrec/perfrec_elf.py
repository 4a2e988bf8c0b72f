# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# The one ELF reader of perfrec's post-link step and host tools

"""Read a little-endian ELF file, 32- or 64-bit (32-bit Arm or AArch64).

The post-link step (scripts/perfrec_pgoff.py) and the host tools
(perfrec_symfs.py, perfrec_report.py, perfrec_diff_recordings.py) read
U-Boot's ELF here: the file header, program headers, section headers,
symbol tables and the GNU build-id note. A record has the same fields in
the same order for both classes (ELF64's: a 32-bit program header's
p_flags comes second too). perfrec_symfs.py writes a changed copy: the
write_*() methods put a record back in place, in its class's layout.
ElfError (a ValueError) is a file that is not a little-endian ELF.
Standard library only: U-Boot's build runs it.
"""

import collections
import struct

ET_EXEC = 2
ET_DYN = 3
PT_LOAD = 1
PT_GNU_STACK = 0x6474e551
PF_R = 4
SHT_SYMTAB = 2
SHT_RELA = 4
SHT_NOTE = 7
SHT_REL = 9
SHF_ALLOC = 2
SHF_EXECINSTR = 4
SHN_UNDEF = 0
SHN_LORESERVE = 0xff00
STB_LOCAL = 0
STT_NOTYPE = 0
STT_FUNC = 2
STT_FILE = 4
NT_GNU_BUILD_ID = 3

# The file header from e_type on (after e_ident)
Header = collections.namedtuple('Header', 'type machine version entry phoff shoff flags '
                                'ehsize phentsize phnum shentsize shnum shstrndx')
Segment = collections.namedtuple('Segment', 'type flags offset vaddr paddr filesz memsz align')
Section = collections.namedtuple('Section', 'name type flags addr offset size link info '
                                 'addralign entsize')
# name: the bytes of the name (not its string table index); pos: the file
# offset of the entry
Symbol = collections.namedtuple('Symbol', 'name info other shndx value size pos')

# Per class (e_ident[EI_CLASS]): the header from e_type, a program header, a
# section header, a symbol, each in the file's field order
LAYOUTS = {
    2: ('<HHIQQQIHHHHHH', '<IIQQQQQQ', '<IIQQQQIIQQ', '<IBBHQQ'),
    1: ('<HHIIIIIHHHHHH', '<IIIIIIII', '<IIIIIIIIII', '<IIIBBH'),
}
HEADER_AT = 0x10


class ElfError(ValueError):
    """Not a little-endian ELF file"""


class Elf:
    """A little-endian ELF file's records, read from (and written to) @data

    Members:
        data: the file's bytes (a bytearray for the write_*() methods)
        bits: 64 (ELF64) or 32 (ELF32)
        header: its Header
    """

    def __init__(self, data):
        if data[:4] != b'\x7fELF' or len(data) < 6 or data[4] not in LAYOUTS or data[5] != 1:
            raise ElfError('not a little-endian ELF file')
        self.data = data
        self.bits = 64 if data[4] == 2 else 32
        ehdr, phdr, shdr, sym = LAYOUTS[data[4]]
        self._ehdr = struct.Struct(ehdr)
        self._phdr = struct.Struct(phdr)
        self._shdr = struct.Struct(shdr)
        self._sym = struct.Struct(sym)
        if len(data) < HEADER_AT + self._ehdr.size:
            raise ElfError('truncated ELF header')
        self.header = Header(*self._ehdr.unpack_from(data, HEADER_AT))

    @property
    def phdr_size(self):
        """The bytes of a program header of this class"""
        return self._phdr.size

    def segments(self):
        """The program headers, as Segments"""
        hdr = self.header
        out = []
        for i in range(hdr.phnum):
            raw = self._phdr.unpack_from(self.data, hdr.phoff + i * hdr.phentsize)
            if self.bits == 32:
                raw = (raw[0], raw[6]) + raw[1:6] + (raw[7],)
            out.append(Segment(*raw))
        return out

    def sections(self):
        """The section headers, as Sections (index 0 included)"""
        hdr = self.header
        return [Section(*self._shdr.unpack_from(self.data, hdr.shoff + i * hdr.shentsize))
                for i in range(hdr.shnum)]

    def symbols(self, symtab=None):
        """Yield the Symbols of the symbol table Section @symtab, or of every
        SHT_SYMTAB in turn; each table's first, null entry too"""
        secs = self.sections()
        tables = [symtab] if symtab is not None else [sec for sec in secs if sec.type == SHT_SYMTAB]
        for sec in tables:
            strtab = secs[sec.link].offset
            for pos in range(sec.offset, sec.offset + sec.size, self._sym.size):
                raw = self._sym.unpack_from(self.data, pos)
                if self.bits == 32:
                    raw = (raw[0], raw[3], raw[4], raw[5], raw[1], raw[2])
                start = strtab + raw[0]
                yield Symbol(self.data[start:self.data.index(b'\0', start)], *raw[1:],
                             pos=pos)

    def build_id(self):
        """The NT_GNU_BUILD_ID note's descriptor as hex, or None"""
        for sec in self.sections():
            if sec.type != SHT_NOTE:
                continue
            pos, end = sec.offset, sec.offset + sec.size
            while pos + 12 <= end:
                namesz, descsz, ntype = struct.unpack_from('<III', self.data, pos)
                desc = pos + 12 + (namesz + 3) // 4 * 4
                if ntype == NT_GNU_BUILD_ID and self.data[pos + 12:pos + 12 + namesz] == b'GNU\0':
                    return self.data[desc:desc + descsz].hex()
                pos = desc + (descsz + 3) // 4 * 4
        return None

    def write_header(self, header):
        """Write @header (a Header) in place"""
        self._ehdr.pack_into(self.data, HEADER_AT, *header)
        self.header = header

    def write_segment(self, index, seg):
        """Write @seg (a Segment) as program header @index"""
        if self.bits == 32:
            seg = (seg[0],) + tuple(seg[2:7]) + (seg[1], seg[7])
        self._phdr.pack_into(self.data, self.header.phoff + index * self.header.phentsize, *seg)

    def write_section(self, index, sec):
        """Write @sec (a Section) as section header @index"""
        self._shdr.pack_into(self.data, self.header.shoff + index * self.header.shentsize, *sec)

    def write_symbol(self, sym):
        """Write @sym (a Symbol; its name left as it is) at its place"""
        _, info, other, shndx, value, size, pos = sym
        name, = struct.unpack_from('<I', self.data, pos)
        raw = ((name, value, size, info, other, shndx) if self.bits == 32 else
               (name, info, other, shndx, value, size))
        self._sym.pack_into(self.data, pos, *raw)


def load(path):
    """The Elf of the file @path"""
    with open(path, 'rb') as inf:
        data = inf.read()
    try:
        return Elf(data)
    except ElfError as err:
        raise ElfError(f'{path}: {err}') from None
