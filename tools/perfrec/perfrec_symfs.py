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
already up to date, so a no-op build leaves it alone. Standard library (and
perfrec_elf.py, the ELF reader beside it) and binutils' objcopy only. Exit
status 0, or 1 with one line on what is wrong.
"""

import argparse
import bisect
import os
import shutil
import subprocess
import sys
import tempfile

from perfrec_elf import (ET_DYN, ET_EXEC, PF_R, PT_GNU_STACK, PT_LOAD, SHF_ALLOC, SHN_LORESERVE,
                         SHN_UNDEF, SHT_REL, SHT_RELA, STB_LOCAL, STT_FUNC, STT_NOTYPE,
                         Elf, Segment, load)


class SymfsError(Exception):
    """A problem with the input ELF or the tools"""


def shadowing_symbols(data):
    """Names of the sizeless local symbols that lie inside a sized function"""
    syms = list(Elf(data).symbols())
    funcs = sorted((sym.value, sym.value + sym.size) for sym in syms
                   if sym.info & 0xf == STT_FUNC and sym.size)
    names = set()
    for sym in syms:
        name = sym.name.decode()
        if (sym.size or sym.info >> 4 != STB_LOCAL or sym.info & 0xf != STT_NOTYPE or
                not sym.shndx or not name):
            continue
        idx = bisect.bisect_right(funcs, (sym.value, 2 ** 64)) - 1
        if idx >= 0 and funcs[idx][0] <= sym.value < funcs[idx][1]:
            names.add(name)
    return sorted(names)


def shift_to_offsets(data):
    """Move every address of a 32-bit @data up by its image segment's file
    offset (in place: segments, allocated sections, symbols in a section,
    the entry), so that its p_vaddr is its p_offset; return the shift"""
    elf = Elf(data)
    segs = elf.segments()
    image = next((seg for seg in segs if seg.type == PT_LOAD and seg.filesz), None)
    if not image or image.vaddr >= image.offset:
        return 0
    shift = image.offset - image.vaddr
    for i, seg in enumerate(segs):
        if seg.type != PT_GNU_STACK:
            elf.write_segment(i, seg._replace(vaddr=seg.vaddr + shift, paddr=seg.paddr + shift))
    for idx, sec in enumerate(elf.sections()):
        if sec.flags & SHF_ALLOC:
            elf.write_section(idx, sec._replace(addr=sec.addr + shift))
    for sym in elf.symbols():
        if SHN_UNDEF < sym.shndx < SHN_LORESERVE:
            elf.write_symbol(sym._replace(value=sym.value + shift))
    elf.write_header(elf.header._replace(entry=elf.header.entry + shift))
    return shift


def lead_with_base_segment(data):
    """Insert the empty base PT_LOAD first in @data's program headers, in place

    Returns False when it is there already. The table grows by one entry
    into the padding before the first section, which must be free.
    """
    elf = Elf(data)
    hdr = elf.header
    segs = elf.segments()
    loads = [seg for seg in segs if seg.type == PT_LOAD]
    if not loads:
        raise SymfsError('no PT_LOAD segment')
    image = next(seg for seg in loads if seg.filesz)  # the first with file contents
    base = (image.vaddr - image.offset) & (2 ** elf.bits - 1)
    lead = Segment(PT_LOAD, PF_R, 0, base, base, 0, 0, image.align)
    if segs[0] == lead:
        return False
    if hdr.phentsize != elf.phdr_size:
        raise SymfsError(f'unexpected program header size {hdr.phentsize}')
    end = hdr.phoff + (hdr.phnum + 1) * hdr.phentsize
    used = [sec.offset for sec in elf.sections()
            if sec.type and sec.size and sec.offset < end and sec.offset + sec.size > hdr.phoff]
    if end > min(seg.offset for seg in loads if seg.filesz) or used:
        raise SymfsError(f'no room for another program header after offset {hdr.phoff:#x}')
    for i, seg in enumerate([lead] + segs):
        elf.write_segment(i, seg)
    elf.write_header(hdr._replace(phnum=hdr.phnum + 1))
    return True


def relocatable(data):
    """Mark @data ET_DYN, in place, if it is an ET_EXEC that relocates
    itself (an allocated SHT_RELA or SHT_REL section: U-Boot's .rela.dyn, or
    .rel.dyn on 32-bit Arm); True if so"""
    elf = Elf(data)
    if elf.header.type != ET_EXEC:
        return False
    if not any(sec.type in (SHT_RELA, SHT_REL) and sec.flags & SHF_ALLOC and sec.size
               for sec in elf.sections()):
        return False
    elf.write_header(elf.header._replace(type=ET_DYN))
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
    bid = load(elf).build_id()
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
        copied = load(out).build_id()
    if copied != bid:
        raise SymfsError(f'{objcopy} changed the build-id note')
    if Elf(data).bits == 32:
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
