#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# The copy of a U-Boot ELF that host profilers read: true names for every reader

"""The copy of a U-Boot ELF that host profilers read.

Usage:
    perfrec_symfs.py U_BOOT_ELF OUT_DIR [--objcopy PROG]

Writes OUT_DIR/u-boot, for perf's --symfs OUT_DIR, and publishes the same file
by its GNU build-id as OUT_DIR/.debug/u-boot/<build-id>/elf with perf's
OUT_DIR/.debug/.build-id/<xx>/<rest> link: hotspot's --debugPaths
OUT_DIR/.debug and perf's --buildid-dir OUT_DIR/.debug then only ever take
the ELF of the build that made the recording ("Could not find ELF" for any
other, never wrong names).

The copy differs from U-Boot's own ELF in two ways, and in nothing that perf,
its build-id matching or u-boot.bin depend on:

- No DWARF. GNU ld resolves the debug info of code that --gc-sections removed
  to address 0; with CONFIG_TEXT_BASE 0 that is live code (start.S and
  .efi_runtime, where crc32 lives), so addr2line, objdump -l (perf annotate's
  headings) and elfutils name those addresses after removed functions. Names
  then come from the symbol table, which is right. The cost: perf annotate
  shows no source lines and hotspot no inlined frames.
- No sizeless local symbols inside a function (the mapping symbol $x at each
  function's start, assembler labels such as relocation_return in _main).
  hotspot 1.3.0 looks an address up in the one symbol just below it and
  finds no name when that is sizeless, where perf names the function.
- An empty PT_LOAD first in the program header table, at p_vaddr = the image
  segment's p_vaddr - p_offset. perf maps a sample through the segment that
  holds the MMAP's pgoff; elfutils (hotspot's perfparser) places the ELF at
  the MMAP's start - pgoff and takes the first PT_LOAD's aligned p_vaddr as
  its load address. With U-Boot's one segment at file offset 0x10000 and
  p_vaddr 0 the two differ by 0x10000; the empty segment makes elfutils'
  base equal to perf's.
- In a 32-bit ELF, every address (sections, symbols, segments, the entry)
  moved up by the image segment's file offset, so that its p_vaddr equals
  its p_offset: the empty segment above then sits at 0. Below 0 it would
  wrap, and elfutils, which computes in 64 bits, would place the ELF 4 GiB
  away from the samples.
- An ELF type of ET_DYN where GNU ld wrote ET_EXEC: with a CONFIG_TEXT_BASE
  other than 0, ld -pie marks U-Boot an executable, although it relocates
  itself (.rela.dyn) and runs at gd->relocaddr. elfutils never moves an
  ET_EXEC from its link address, so hotspot would name no sample; perf
  maps it through the MMAP's pgoff either way.

The build-id note is copied unchanged; an ELF without one (a build with
CONFIG_PERFREC_BUILD_ID off) gets OUT_DIR/u-boot only. Nothing is rewritten when the copy is
already up to date, so a no-op build leaves it alone. Standard library and
binutils' objcopy only. Exit status 0, or 1 with one line on what is wrong.
"""

import argparse
import bisect
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from perfrec_report import elf_build_id

PT_LOAD = 1
PF_R = 4
ET_EXEC = 2
ET_DYN = 3
SHT_RELA = 4
SHF_ALLOC = 2
SHT_REL = 9
SHT_SYMTAB = 2
SHN_UNDEF = 0
SHN_LORESERVE = 0xff00
PT_GNU_STACK = 0x6474e551
STB_LOCAL = 0
STT_NOTYPE = 0
STT_FUNC = 2


class SymfsError(Exception):
    """A problem with the input ELF or the tools"""


class ElfClass:  # pylint: disable=too-few-public-methods
    """Where an ELF class (64: AArch64, 32: 32-bit Arm) keeps what this reads"""

    def __init__(self, bits):
        wide = bits == 64
        self.mask = 2 ** bits - 1
        # e_phoff and e_shoff; e_phentsize, e_phnum, e_shentsize, e_shnum
        self.offs = ('<QQ', 0x20) if wide else ('<II', 0x1c)
        self.counts = 0x36 if wide else 0x2a
        # sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size; sh_link's offset
        self.shdr = '<IIQQQQ' if wide else '<IIIIII'
        self.sh_link = 0x28 if wide else 0x18
        self.sym = struct.Struct('<IBBHQQ' if wide else '<IIIBBH')
        self.phdr = struct.Struct('<IIQQQQQQ' if wide else '<IIIIIIII')

    def symbol(self, data, pos):
        """(st_name, st_info, st_shndx, st_value, st_size) of the symbol at @pos"""
        if self.sym.format == '<IBBHQQ':
            name, info, _, shndx, value, size = self.sym.unpack_from(data, pos)
        else:
            name, value, size, info, _, shndx = self.sym.unpack_from(data, pos)
        return name, info, shndx, value, size

    def segment(self, data, pos):
        """The program header at @pos in ELF64's field order (p_flags second)"""
        raw = self.phdr.unpack_from(data, pos)
        if self.phdr.format == '<IIQQQQQQ':
            return raw
        return (raw[0], raw[6]) + raw[1:6] + (raw[7],)

    def pack_segment(self, data, pos, seg):
        """Write @seg (ELF64's field order) as the program header at @pos"""
        if self.phdr.format != '<IIQQQQQQ':
            seg = (seg[0],) + tuple(seg[2:7]) + (seg[1], seg[7])
        self.phdr.pack_into(data, pos, *seg)


def elf_class(data):
    """The ElfClass of a little-endian ELF file"""
    if data[:4] != b'\x7fELF' or data[4] not in (1, 2) or data[5] != 1:
        raise SymfsError('not a little-endian ELF file')
    return ElfClass(64 if data[4] == 2 else 32)


def elf_header(data):
    """(e_phoff, e_shoff, e_phentsize, e_phnum, e_shentsize, e_shnum) of an ELF LE"""
    cls = elf_class(data)
    phoff, shoff = struct.unpack_from(cls.offs[0], data, cls.offs[1])
    phentsize, phnum, shentsize, shnum = struct.unpack_from('<HHHH', data, cls.counts)
    return phoff, shoff, phentsize, phnum, shentsize, shnum


def sections(data):
    """[(sh_type, sh_flags, sh_addr, sh_offset, sh_size)] of an ELF LE"""
    cls = elf_class(data)
    _, shoff, _, _, shentsize, shnum = elf_header(data)
    out = []
    for i in range(shnum):
        _, sh_type, flags, addr, offset, size = struct.unpack_from(
            cls.shdr, data, shoff + i * shentsize)
        out.append((sh_type, flags, addr, offset, size))
    return out


def _symtab_entries(data, offset, size, strtab):
    """(info, shndx, value, size, name) of each entry of the symbol table at @offset"""
    cls = elf_class(data)
    out = []
    for pos in range(offset, offset + size, cls.sym.size):
        name, info, shndx, value, sym_size = cls.symbol(data, pos)
        end = data.index(b'\0', strtab + name)
        out.append((info, shndx, value, sym_size, data[strtab + name:end].decode()))
    return out


def symbols(data):
    """The symbols of an ELF LE's symbol tables: (info, shndx, value, size, name) each"""
    cls = elf_class(data)
    _, shoff, _, _, shentsize, _ = elf_header(data)
    secs = sections(data)
    syms = []
    for idx, (sh_type, _, _, offset, size) in enumerate(secs):
        if sh_type != SHT_SYMTAB:
            continue
        link, = struct.unpack_from('<I', data, shoff + idx * shentsize + cls.sh_link)
        syms += _symtab_entries(data, offset, size, secs[link][3])
    return syms


def shadowing_symbols(data):
    """Names of the sizeless local symbols that lie inside a sized function"""
    syms = symbols(data)
    funcs = sorted((value, value + size) for info, _, value, size, _ in syms
                   if info & 0xf == STT_FUNC and size)
    names = set()
    for info, shndx, value, size, name in syms:
        if size or info >> 4 != STB_LOCAL or info & 0xf != STT_NOTYPE or not shndx or not name:
            continue
        idx = bisect.bisect_right(funcs, (value, 2 ** 64)) - 1
        if idx >= 0 and funcs[idx][0] <= value < funcs[idx][1]:
            names.add(name)
    return sorted(names)


def segments(data):
    """The program headers of an ELF LE, as tuples in ELF64's field order"""
    cls = elf_class(data)
    phoff, _, phentsize, phnum, _, _ = elf_header(data)
    return [cls.segment(data, phoff + i * phentsize) for i in range(phnum)]


def shift_to_offsets(data):  # pylint: disable=too-many-locals
    """Move every address of a 32-bit @data up by its image segment's file
    offset (in place: segments, allocated sections, symbols in a section,
    the entry), so that its p_vaddr is its p_offset; return the shift"""
    cls = elf_class(data)
    phoff, shoff, phentsize, _, shentsize, _ = elf_header(data)
    segs = segments(data)
    image = next((seg for seg in segs if seg[0] == PT_LOAD and seg[5]), None)
    if not image or image[3] >= image[2]:
        return 0
    shift = image[2] - image[3]
    for i, seg in enumerate(segs):
        if seg[0] != PT_GNU_STACK:
            cls.pack_segment(data, phoff + i * phentsize,
                             seg[:3] + (seg[3] + shift, seg[4] + shift) + seg[5:])
    for idx, (sh_type, flags, addr, offset, size) in enumerate(sections(data)):
        if flags & SHF_ALLOC:
            struct.pack_into('<I', data, shoff + idx * shentsize + 12, addr + shift)
        if sh_type != SHT_SYMTAB:
            continue
        for pos in range(offset, offset + size, cls.sym.size):
            _, _, shndx, value, _ = cls.symbol(data, pos)
            if SHN_UNDEF < shndx < SHN_LORESERVE:
                struct.pack_into('<I', data, pos + 4, value + shift)
    entry, = struct.unpack_from('<I', data, 0x18)
    struct.pack_into('<I', data, 0x18, entry + shift)
    return shift


def lead_with_base_segment(data):
    """Insert the empty base PT_LOAD first in @data's program headers, in place

    Returns False when it is there already. The table grows by one entry
    into the padding before the first section, which must be free.
    """
    cls = elf_class(data)
    phoff, _, phentsize, phnum, _, _ = elf_header(data)
    segs = segments(data)
    loads = [seg for seg in segs if seg[0] == PT_LOAD]
    if not loads:
        raise SymfsError('no PT_LOAD segment')
    image = next(seg for seg in loads if seg[5])  # the first with file contents
    base = (image[3] - image[2]) & cls.mask
    lead = (PT_LOAD, PF_R, 0, base, base, 0, 0, image[7])
    if segs[0] == lead:
        return False
    if phentsize != cls.phdr.size:
        raise SymfsError(f'unexpected program header size {phentsize}')
    end = phoff + (phnum + 1) * phentsize
    used = [offset for sh_type, _, _, offset, size in sections(data)
            if sh_type and size and offset < end and offset + size > phoff]
    if end > min(seg[2] for seg in loads if seg[5]) or used:
        raise SymfsError(f'no room for another program header after offset {phoff:#x}')
    for i, seg in enumerate([lead] + segs):
        cls.pack_segment(data, phoff + i * phentsize, seg)
    struct.pack_into('<H', data, cls.counts + 2, phnum + 1)
    return True


def relocatable(data):
    """Mark @data ET_DYN, in place, if it is an ET_EXEC that relocates
    itself (an allocated SHT_RELA or SHT_REL section: U-Boot's .rela.dyn, or
    .rel.dyn on 32-bit Arm); True if so"""
    if struct.unpack_from('<H', data, 0x10)[0] != ET_EXEC:
        return False
    if not any(sh_type in (SHT_RELA, SHT_REL) and flags & SHF_ALLOC and size
               for sh_type, flags, _, _, size in sections(data)):
        return False
    struct.pack_into('<H', data, 0x10, ET_DYN)
    return True


def write_if_changed(path, data):
    """Write @data to @path unless it holds exactly that; True if written"""
    try:
        with open(path, 'rb') as inf:
            if inf.read() == data:
                return False
    except FileNotFoundError:
        pass
    tmp = path + '.tmp'
    with open(tmp, 'wb') as outf:
        outf.write(data)
    os.chmod(tmp, 0o755)
    os.replace(tmp, path)
    return True


def make_copy(elf, objcopy):
    """The host copy of @elf as bytes, and its build-id"""
    with open(elf, 'rb') as inf:
        orig = inf.read()
    bid = elf_build_id(elf)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'u-boot')
        strip = os.path.join(tmp, 'strip-symbols')
        with open(strip, 'w', encoding='utf-8') as outf:
            outf.write(''.join(name + '\n' for name in shadowing_symbols(orig)))
        proc = subprocess.run([objcopy, '--strip-debug', '--strip-symbols=' + strip, elf, out],
                              capture_output=True, text=True, check=False)
        if proc.returncode:
            raise SymfsError(f'{objcopy} --strip-debug failed: {proc.stderr.strip()}')
        with open(out, 'rb') as inf:
            data = bytearray(inf.read())
        copied = elf_build_id(out)
    if copied != bid:
        raise SymfsError(f'{objcopy} changed the build-id note')
    if elf_class(data).mask == 2 ** 32 - 1:
        shift_to_offsets(data)
    lead_with_base_segment(data)
    relocatable(data)
    return bytes(data), bid


def publish(data, bid, out_dir):
    """Write OUT_DIR/u-boot and the build-id tree; return the files written

    Without a build-id (CONFIG_PERFREC_BUILD_ID off) there is no tree: a
    reader could not tell this build's recordings from another's.
    """
    written = []
    os.makedirs(out_dir, exist_ok=True)
    flat = os.path.join(out_dir, 'u-boot')
    if write_if_changed(flat, data):
        written.append(flat)
    cache = os.path.join(out_dir, '.debug')
    if not bid:
        shutil.rmtree(cache, ignore_errors=True)
        return written
    by_id = os.path.join(cache, 'u-boot', bid)
    os.makedirs(by_id, exist_ok=True)
    if write_if_changed(os.path.join(by_id, 'elf'), data):
        written.append(os.path.join(by_id, 'elf'))
    link_dir = os.path.join(cache, '.build-id', bid[:2])
    link = os.path.join(link_dir, bid[2:])
    target = os.path.join('..', '..', 'u-boot', bid)
    os.makedirs(link_dir, exist_ok=True)
    if os.path.islink(link) and os.readlink(link) != target:
        os.remove(link)
    if not os.path.islink(link):
        os.symlink(target, link)
    # Only this build: another build's ELF must not answer for its recordings
    for old in os.listdir(os.path.join(cache, 'u-boot')):
        if old != bid:
            shutil.rmtree(os.path.join(cache, 'u-boot', old))
    for sub in os.listdir(os.path.join(cache, '.build-id')):
        for name in os.listdir(os.path.join(cache, '.build-id', sub)):
            if sub + name != bid:
                os.remove(os.path.join(cache, '.build-id', sub, name))
    return written


def main(argv=None):
    """Make the copy; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('elf', help="U-Boot's ELF (the build's u-boot)")
    parser.add_argument('out_dir', help='where u-boot and .debug/ go')
    parser.add_argument('--objcopy', default=os.environ.get('OBJCOPY',
                                                            'aarch64-linux-gnu-objcopy'),
                        help='objcopy that knows the ELF (default: %(default)s)')
    args = parser.parse_args(argv)
    try:
        data, bid = make_copy(args.elf, args.objcopy)
        written = publish(data, bid, args.out_dir)
    except (OSError, ValueError, SymfsError) as err:
        print(f'perfrec_symfs: {err}', file=sys.stderr)
        return 1
    if written and bid:
        print(f'perfrec_symfs: {args.out_dir}/u-boot and .debug/u-boot/{bid}/elf')
    elif written:
        print(f'perfrec_symfs: {args.out_dir}/u-boot (no build-id: no .debug/ tree for hotspot)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
