#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Record the u-boot ELF's image file offset and code size inside the image.

Usage:
    perfrec_pgoff.py <u-boot ELF>

perf maps a sampled address to a symbol through the MMAP record's pgoff: the
file offset at which the image's first byte sits in the ELF (the p_offset of
the PT_LOAD segment that starts at _start). The running image cannot read its
own ELF, so this post-link step writes that offset into the 64-bit variable
perfrec_image_pgoff, in place, before objcopy makes u-boot.bin. It also
writes perfrec_image_text_bytes, the bytes from _start to the end of the last
executable section, so that the call-graph walker can tell return addresses
from anything else. Each variable must hold its "unset" marker or the value
already; anything else is an error. Standard library only: it runs as part of
U-Boot's build.
"""

import struct
import sys

UNSET = 0x5045524652454331
PGOFF = b'perfrec_image_pgoff'
TEXT_BYTES = b'perfrec_image_text_bytes'
PT_LOAD = 1
SHT_SYMTAB = 2
SHF_ALLOC = 2
SHF_EXECINSTR = 4


def fail(msg):
    """Print one line and exit 1"""
    print(f'perfrec_pgoff: {msg}', file=sys.stderr)
    sys.exit(1)


# ELF64 and ELF32 (AArch64 and 32-bit Arm): the layouts of the header's
# tail, a program header, a section header and a symbol, in the field order
# of ELF64's (ELF32's program header has p_flags later: reordered)
LAYOUTS = {
    2: (0x20, '<QQIHHHHHH', '<IIQQQQQQ', '<IIQQQQIIQQ', '<IBBHQQ', (0, 1, 2, 3, 4, 5, 6, 7)),
    1: (0x1c, '<IIIHHHHHH', '<IIIIIIII', '<IIIIIIIIII', '<IIIBBH', (0, 6, 1, 2, 3, 4, 5, 7)),
}


def parse(data):  # pylint: disable=too-many-locals
    """Return (segments, sections, symbol layout) of a little-endian ELF file

    Segments are (p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz,
    p_memsz, p_align) for either class.
    """
    if data[:4] != b'\x7fELF' or data[4] not in LAYOUTS or data[5] != 1:
        fail('not a little-endian ELF file')
    off, ehdr, phdr, shdr, sym, order = LAYOUTS[data[4]]
    (phoff, shoff, _, _, phentsize, phnum, shentsize,
     shnum, _) = struct.unpack_from(ehdr, data, off)
    segs = []
    for i in range(phnum):
        raw = struct.unpack_from(phdr, data, phoff + i * phentsize)
        segs.append(tuple(raw[order[k]] for k in range(8)))
    secs = [struct.unpack_from(shdr, data, shoff + i * shentsize)
            for i in range(shnum)]
    return segs, secs, sym


def find_symbol(data, secs, name, sym):
    """Return (st_value, st_shndx) of symbol @name (@sym: the symbol's layout)"""
    for sec in secs:
        if sec[1] != SHT_SYMTAB:
            continue
        strtab = secs[sec[6]]
        for off in range(sec[4], sec[4] + sec[5], sec[9]):
            if sym == '<IBBHQQ':
                st_name, _, _, st_shndx, st_value, _ = struct.unpack_from(sym, data, off)
            else:
                st_name, st_value, _, _, _, st_shndx = struct.unpack_from(sym, data, off)
            start = strtab[4] + st_name
            if data[start:data.index(b'\0', start)] == name:
                return st_value, st_shndx
    fail(f'symbol {name.decode()} not found (is CONFIG_PERFREC_PMUV3 built in?)')
    return None


def patch(data, secs, sym, name, value):
    """Set the 64-bit variable @name to @value in @data; return its file offset"""
    addr, shndx = find_symbol(data, secs, name, sym)
    sec = secs[shndx]
    where = sec[4] + addr - sec[3]
    old = struct.unpack_from('<Q', data, where)[0]
    if old not in (UNSET, value):
        fail(f'{name.decode()} holds {old:#x}, neither unset nor {value:#x}')
    struct.pack_into('<Q', data, where, value)
    return where


def main(argv):
    """Patch the ELF named in argv[1]; return the exit code"""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[1], 'rb') as inf:
        data = bytearray(inf.read())
    segs, secs, sym = parse(data)
    start, _ = find_symbol(data, secs, b'_start', sym)
    loads = [s for s in segs if s[0] == PT_LOAD and s[3] <= start < s[3] + s[6]]
    if len(loads) != 1:
        fail(f'no single PT_LOAD segment holds _start ({start:#x})')
    pgoff = loads[0][2] - (loads[0][3] - start)

    code_end = max(sec[3] + sec[5] for sec in secs
                   if sec[2] & SHF_ALLOC and sec[2] & SHF_EXECINSTR)
    wheres = [patch(data, secs, sym, PGOFF, pgoff),
              patch(data, secs, sym, TEXT_BYTES, code_end - start)]
    with open(argv[1], 'r+b') as outf:
        for where in wheres:
            outf.seek(where)
            outf.write(data[where:where + 8])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
