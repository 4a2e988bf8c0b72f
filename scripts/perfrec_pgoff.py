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
already; anything else is an error. Standard library and the ELF reader
tools/perfrec/perfrec_elf.py only: it runs as part of U-Boot's build.
"""

import os
import struct
import sys

# The ELF reader, beside the host tools (tools/perfrec/ in U-Boot's tree
# too); no __pycache__ written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'tools', 'perfrec'))
sys.dont_write_bytecode = True
# pylint: disable-next=wrong-import-position
from perfrec_elf import PT_LOAD, SHF_ALLOC, SHF_EXECINSTR, Elf, ElfError  # noqa: E402

UNSET = 0x5045524652454331
PGOFF = b'perfrec_image_pgoff'
TEXT_BYTES = b'perfrec_image_text_bytes'


def fail(msg):
    """Print one line and exit 1"""
    print(f'perfrec_pgoff: {msg}', file=sys.stderr)
    sys.exit(1)


def parse(data):
    """The Elf of @data, the bytes of a little-endian ELF file"""
    try:
        return Elf(data)
    except ElfError as err:
        fail(err)
    return None


def find_symbol(elf, name):
    """Return (st_value, st_shndx) of symbol @name in @elf"""
    for sym in elf.symbols():
        if sym.name == name:
            return sym.value, sym.shndx
    fail(f'symbol {name.decode()} not found (is CONFIG_PERFREC_PMUV3 built in?)')
    return None


def patch(elf, secs, name, value):
    """Set the 64-bit variable @name to @value in @elf's data; return its file offset"""
    addr, shndx = find_symbol(elf, name)
    sec = secs[shndx]
    where = sec.offset + addr - sec.addr
    old = struct.unpack_from('<Q', elf.data, where)[0]
    if old not in (UNSET, value):
        fail(f'{name.decode()} holds {old:#x}, neither unset nor {value:#x}')
    struct.pack_into('<Q', elf.data, where, value)
    return where


def main(argv):
    """Patch the ELF named in argv[1]; return the exit code"""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[1], 'rb') as inf:
        data = bytearray(inf.read())
    elf = parse(data)
    secs = elf.sections()
    start, _ = find_symbol(elf, b'_start')
    loads = [s for s in elf.segments()
             if s.type == PT_LOAD and s.vaddr <= start < s.vaddr + s.memsz]
    if len(loads) != 1:
        fail(f'no single PT_LOAD segment holds _start ({start:#x})')
    pgoff = loads[0].offset - (loads[0].vaddr - start)

    code_end = max(sec.addr + sec.size for sec in secs
                   if sec.flags & SHF_ALLOC and sec.flags & SHF_EXECINSTR)
    wheres = [patch(elf, secs, PGOFF, pgoff),
              patch(elf, secs, TEXT_BYTES, code_end - start)]
    with open(argv[1], 'r+b') as outf:
        for where in wheres:
            outf.seek(where)
            outf.write(data[where:where + 8])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
