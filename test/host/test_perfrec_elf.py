# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of tools/perfrec/perfrec_elf.py, the ELF reader

"""Host tests of tools/perfrec/perfrec_elf.py, the ELF reader that
scripts/perfrec_pgoff.py and the host tools share.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perfrec_elf.py

test/host/perf_fixture.c is linked for AArch64 (ELF64) and for 32-bit Arm
(ELF32, ARM state), with a sha1 build-id. What the reader gives of each (the
header, program headers, section headers, symbols, the build-id) must be
what binutils' readelf says; so it must be of the copy perfrec_symfs.py
writes through the module, and of a file whose records the module wrote
back changed. A record written back as it was leaves every byte alone.
What is no little-endian ELF is an ElfError. perfrec_pgoff.py patches the
32-bit ELF (test_perf_data.py's test_pgoff_from_elf checks the 64-bit one).
"""

import os
import re
import struct
import subprocess
import sys

import pytest

from conftest import ARM32_CROSS_COMPILE, CROSS_COMPILE, REPO, build_fixture, run, tool

sys.path.insert(0, os.path.join(REPO, 'tools', 'perfrec'))
# pylint: disable=wrong-import-position
import perfrec_elf as E  # noqa: E402

CLASSES = {64: (CROSS_COMPILE, ()), 32: (ARM32_CROSS_COMPILE, ('-marm',))}
UNSET = 0x5045524652454331
# readelf's names of what the fixtures hold
ET = {'EXEC': E.ET_EXEC, 'DYN': E.ET_DYN}
MACHINE = {'AArch64': 183, 'ARM': 40}
PT = {'LOAD': E.PT_LOAD, 'NOTE': 4, 'GNU_STACK': E.PT_GNU_STACK, 'GNU_RELRO': 0x6474e552}
SHT = {'NULL': 0, 'PROGBITS': 1, 'SYMTAB': E.SHT_SYMTAB, 'STRTAB': 3, 'NOTE': E.SHT_NOTE,
       'NOBITS': 8, 'ARM_ATTRIBUTES': 0x70000003}
STT = {'NOTYPE': E.STT_NOTYPE, 'OBJECT': 1, 'FUNC': E.STT_FUNC, 'SECTION': 3, 'FILE': E.STT_FILE}
STB = {'LOCAL': E.STB_LOCAL, 'GLOBAL': 1, 'WEAK': 2}
SECTION_ROW = re.compile(r'^\s*\[\s*(\d+)\]\s+(\S*)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+'
                         r'([0-9a-f]+)\s+([0-9a-f]+)\s+([A-Za-z]*)\s+(\d+)\s+(\d+)\s+(\d+)$')


@pytest.fixture(scope='module', name='elfs')
def fixture_elfs(tmp_path_factory):
    """{64: the AArch64 fixture ELF, 32: the 32-bit Arm one} (conftest's Elf)"""
    return {bits: build_fixture(str(tmp_path_factory.mktemp(f'elf{bits}')), 0, 'sha1',
                                cflags=cflags, cross=cross)
            for bits, (cross, cflags) in CLASSES.items()}


def readelf(path):
    """(header fields, [Segment], [Section], {section name: index}, [symbol rows]) of
    @path, as readelf -hlSsW says; a symbol row is (value, size, info, shndx, name)"""
    out = run([tool(CROSS_COMPILE + 'readelf'), '-hlSsW', path]).stdout
    head = dict(re.findall(r'^  ([A-Z][\w ]+):\s+(.*)$', out, re.M))
    header = (ET[head['Type'].split()[0]], MACHINE[head['Machine']],
              int(head['Entry point address'], 16),
              int(head['Start of program headers'].split()[0]),
              int(head['Start of section headers'].split()[0]),
              int(head['Number of program headers']), int(head['Number of section headers']),
              int(head['Section header string table index']))
    segs = []
    for line in out.split('Program Headers:')[1].split('Section to Segment')[0].splitlines()[2:]:
        fields = line.split()
        if fields:
            flags = sum(bit for letter, bit in (('R', 4), ('W', 2), ('E', 1))
                        if letter in ''.join(fields[6:-1]))
            segs.append(E.Segment(PT[fields[0]], flags, *(int(f, 16) for f in fields[1:6]),
                                  int(fields[-1], 16)))
    secs, names = [], {}
    for mat in map(SECTION_ROW.match, out.splitlines()):
        if mat:
            flags = sum(bit for letter, bit in (('W', 1), ('A', 2), ('X', 4))
                        if letter in mat.group(8))
            names[mat.group(2)] = int(mat.group(1))
            secs.append((SHT[mat.group(3)], flags, *(int(mat.group(i), 16) for i in (4, 5, 6)),
                         *(int(mat.group(i)) for i in (9, 10, 11)), int(mat.group(7), 16)))
    syms = []
    for line in out.split("Symbol table '.symtab'")[1].splitlines()[2:]:
        fields = line.split()
        ndx = {'UND': 0, 'ABS': 0xfff1}.get(fields[6]) if not fields[6].isdigit() else \
            int(fields[6])
        syms.append((int(fields[1], 16), int(fields[2], 0), STB[fields[4]] << 4 | STT[fields[3]],
                     ndx, fields[7] if len(fields) > 7 and fields[3] != 'SECTION' else ''))
    return header, segs, secs, names, syms


def check_as_readelf(path, build_id):
    """What the module reads of @path is what readelf says; its build-id is @build_id"""
    elf = E.load(path)
    header, segs, secs, names, syms = readelf(path)
    hdr = elf.header
    assert (hdr.type, hdr.machine, hdr.entry, hdr.phoff, hdr.shoff, hdr.phnum, hdr.shnum,
            hdr.shstrndx) == header
    assert (hdr.phentsize, hdr.shentsize) == ((56, 64) if elf.bits == 64 else (32, 40))
    assert elf.phdr_size == hdr.phentsize
    assert elf.segments() == segs
    got = elf.sections()
    assert [(s.type, s.flags & 7, s.addr, s.offset, s.size, s.link, s.info, s.addralign,
             s.entsize) for s in got] == secs
    shstr = got[hdr.shstrndx].offset
    assert {elf.data[shstr + s.name:elf.data.index(b'\0', shstr + s.name)].decode(): i
            for i, s in enumerate(got)} == names
    symtab = got[names['.symtab']]
    read = list(elf.symbols())
    assert read == list(elf.symbols(symtab))
    assert [(s.value, s.size, s.info, s.shndx, s.name.decode()) for s in read] == syms
    assert [s.pos for s in read] == list(range(symtab.offset, symtab.offset + symtab.size,
                                               16 if elf.bits == 32 else 24))
    assert elf.build_id() == build_id
    return elf


@pytest.mark.parametrize('bits', [64, 32])
def test_reads_as_readelf(elfs, bits):
    """Header, program and section headers, symbols and build-id as readelf has them"""
    img = elfs[bits]
    elf = check_as_readelf(img.path, img.build_id.hex())
    assert elf.bits == bits
    assert {s.name.decode(): s.value for s in elf.symbols()
            if s.info & 0xf == E.STT_FUNC} == {n: s.addr for n, s in img.symbols.items()}


@pytest.mark.parametrize('bits', [64, 32])
def test_write_back(elfs, bits, tmp_path):
    """Records written back unchanged leave the bytes alone; changed ones read back so,
    in readelf too"""
    with open(elfs[bits].path, 'rb') as inf:
        orig = inf.read()
    data = bytearray(orig)
    elf = E.Elf(data)
    elf.write_header(elf.header)
    for i, seg in enumerate(elf.segments()):
        elf.write_segment(i, seg)
    for i, sec in enumerate(elf.sections()):
        elf.write_section(i, sec)
    for sym in elf.symbols():
        elf.write_symbol(sym)
    assert data == orig
    elf.write_header(elf.header._replace(type=E.ET_DYN, entry=0x1234))
    seg = elf.segments()[0]
    elf.write_segment(0, seg._replace(flags=E.PF_R, vaddr=seg.vaddr + 0x1000, align=0x20))
    sec = elf.sections()[1]
    elf.write_section(1, sec._replace(addr=sec.addr + 0x2000))
    sym = next(s for s in elf.symbols() if s.name == b'fixture_hot')
    elf.write_symbol(sym._replace(value=sym.value + 0x3000, size=7))
    path = tmp_path / 'changed'
    path.write_bytes(data)
    again = check_as_readelf(str(path), elfs[bits].build_id.hex())
    assert (again.header.type, again.header.entry) == (E.ET_DYN, 0x1234)
    assert again.segments()[0] == seg._replace(flags=E.PF_R, vaddr=seg.vaddr + 0x1000, align=0x20)
    assert again.sections()[1].addr == sec.addr + 0x2000
    assert next(s for s in again.symbols() if s.name == b'fixture_hot')[1:] == \
        sym._replace(value=sym.value + 0x3000, size=7)[1:]


@pytest.mark.parametrize('bits', [64, 32])
def test_symfs_copy(elfs, bits, tmp_path):
    """perfrec_symfs.py's copy (the empty PT_LOAD first; a 32-bit image at
    p_vaddr == p_offset) reads as readelf reads it, with the same build-id"""
    img = elfs[bits]
    out = tmp_path / 'symfs'
    subprocess.run([sys.executable, os.path.join(REPO, 'tools', 'perfrec', 'perfrec_symfs.py'),
                    '--objcopy', tool(CLASSES[bits][0] + 'objcopy'), img.path, str(out)],
                   check=True, capture_output=True)
    elf = check_as_readelf(str(out / 'u-boot'), img.build_id.hex())
    segs = elf.segments()
    lead, image = segs[0], segs[1]
    assert lead == E.Segment(E.PT_LOAD, E.PF_R, 0, lead.vaddr, lead.vaddr, 0, 0, image.align)
    shift = img.text_segment.offset if bits == 32 else 0
    assert (image.offset, image.vaddr) == (img.text_segment.offset, img.text_segment.vaddr + shift)
    assert lead.vaddr == image.vaddr - image.offset & (2 ** bits - 1)
    assert elf.header.entry == img.symbols['_start'].addr + shift


def test_pgoff_32bit(elfs, tmp_path):
    """perfrec_pgoff.py patches a 32-bit ELF: the image's file offset and code size"""
    img = elfs[32]
    copy = tmp_path / 'u-boot'
    with open(img.path, 'rb') as inf:
        copy.write_bytes(inf.read())
    subprocess.run([sys.executable, os.path.join(REPO, 'scripts', 'perfrec_pgoff.py'),
                    str(copy)], check=True)
    data = copy.read_bytes()
    # Where readelf puts the variables, and the executable sections' end
    _, _, secs, _, syms = readelf(img.path)
    where = {name: secs[ndx][3] + value - secs[ndx][2]
             for value, _, _, ndx, name in syms if name.startswith('perfrec_image_')}
    assert img.pgoff == img.text_segment.offset
    assert struct.unpack_from('<Q', data, where['perfrec_image_pgoff'])[0] == img.pgoff
    code_end = max(sec[2] + sec[4] for sec in secs if sec[1] & 6 == 6)
    assert struct.unpack_from('<Q', data, where['perfrec_image_text_bytes'])[0] == code_end
    with open(img.path, 'rb') as inf:
        assert inf.read().count(struct.pack('<Q', UNSET)) == 2


@pytest.mark.parametrize('data, why', [
    (b'', 'not a little-endian ELF file'),
    (b'\x7fELF', 'not a little-endian ELF file'),
    (b'\x7fELF\x02\x02\x01' + bytes(57), 'not a little-endian ELF file'),     # big-endian
    (b'\x7fELF\x00\x01\x01' + bytes(57), 'not a little-endian ELF file'),     # ELFCLASSNONE
    (b'\x7fELF\x02\x01\x01' + bytes(40), 'truncated ELF header'),
    (b'\x7fELF\x01\x01\x01' + bytes(40), 'truncated ELF header'),
])
def test_refused(data, why, tmp_path):
    """What is no little-endian ELF: an ElfError (a ValueError), naming the file from load()"""
    with pytest.raises(E.ElfError, match=f'^{why}$'):
        E.Elf(data)
    path = tmp_path / 'bad'
    path.write_bytes(data)
    with pytest.raises(ValueError, match=f'^{re.escape(str(path))}: {why}$'):
        E.load(str(path))
