# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests that hotspot, addr2line and perf annotate name what perf names

"""Every reader tells the same truth about a recording.

The build publishes the ELF for host tools in <build>/symfs (see
tools/perfrec/perfrec_symfs.py): <build>/symfs/u-boot for perf's --symfs, and
<build>/symfs/.debug/u-boot/<build-id>/elf for hotspot's --debugPaths. Here
hotspot's own parser (hotspot-perfparser, from Debian's hotspot package)
reads real recordings, flat and with -g, and its stream is decoded
(perfparser_stream.py): every sample's functions and call chain must be the
ones perf script shows, and those must be the ELF symbol table's. Controls
show the tests would fail on the layout the build had before (U-Boot's own
ELF: elfutils places it 0x10000 too high, and its DWARF names live code
after functions --gc-sections removed), and that a recording of another
build gets no names from hotspot rather than wrong ones.
"""

import os
import re
import shutil
import subprocess

import pytest

import perfparser_stream
from perfrec_helpers import BUF, BUF_SIZE, CRC_AT, CRC_LEN, fetch, perf, record_grown
from test_perfrec_callgraph import Symboliser, record_chain

# perfparser 1.3.0 predates perf's HEADER_SAMPLE_TIME (perf writes it in
# every file since 5.x) and says so on stderr; everything else is a complaint
PERFPARSER_NOISE = re.compile(r'^(feature not properly read PerfHeader::SAMPLE_TIME \d+ 0|'
                              r'FINISHED_ROUND detected\. Switching to automatic buffering)$')


def symfs(cons):
    """The build's directory for host tools"""
    return os.path.join(cons.config.build_dir, 'symfs')


def hotspot(tmp_path, data, debug=None, app=None):
    """Run hotspot's parser with only @debug (build-ids) or @app (by name)"""
    empty = os.path.join(str(tmp_path), 'empty')
    os.makedirs(empty, exist_ok=True)
    stream = perfparser_stream.run_perfparser(
        data, app_dir=app or empty,
        extra_args=['--debug', debug or empty, '--extra', empty, '--sysroot', empty])
    noise = [line for line in stream.log.splitlines()
             if line.strip() and not PERFPARSER_NOISE.match(line)]
    return stream, noise


def perf_chains(tmp_path, data, root):
    """Each sample's functions as perf script names them, innermost first"""
    out = perf(tmp_path, ['script', '-i', data, '--symfs=' + root, '-F', 'time,ip,sym'])
    chains = []
    for line in out.splitlines():
        if not line.strip():
            continue
        head = re.match(r'^\s*\d+\.\d+:\s*(?:([0-9a-f]+) (\S+))?\s*$', line)
        if head:
            chains.append([head.group(2)] if head.group(1) else [])
            continue
        frame = re.match(r'^\s+([0-9a-f]+) (\S+)$', line)
        assert frame and chains, line
        chains[-1].append(frame.group(2))
    return [[None if name == '[unknown]' else name for name in chain] for chain in chains]


def hotspot_chains(stream):
    """Each sample's functions as hotspot shows them, innermost first"""
    return [[frame.symbol for frame in sample.frames] for sample in stream.samples]


def flat_recording(cons, tmp_path):
    """A flat recording over crc32 (crc32_no_comp lives in .efi_runtime)"""
    record_grown(cons, f'-c 20011 -o {BUF:#x} -s {BUF_SIZE:#x}', CRC_AT, CRC_LEN, least=50)
    return fetch(cons, tmp_path)[0]


def truth(cons, data, tmp_path):
    """The ELF symbol table's name of each sample's address, innermost first"""
    sym = Symboliser(cons)
    out = perf(tmp_path, ['script', '-i', data, '--symfs=' + symfs(cons), '-F', 'ip', '-G'])
    return [sym(int(ip, 16)) for ip in out.split()]


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.parametrize('graph', [False, True], ids=['flat', 'callgraph'])
def test_perfrec_hotspot_names(ubman, tmp_path, graph):
    """hotspot's functions and chains are perf's, sample by sample, and true"""
    cons = ubman
    if graph:
        record_chain(cons)
        data = fetch(cons, tmp_path)[0]
    else:
        data = flat_recording(cons, tmp_path)
    theirs = perf_chains(tmp_path, data, symfs(cons))
    stream, noise = hotspot(tmp_path, data, debug=os.path.join(symfs(cons), '.debug'))
    assert not stream.errors and not noise, (stream.errors, noise)
    ours = hotspot_chains(stream)
    assert len(ours) == len(theirs) > 0
    for idx, (mine, perfs) in enumerate(zip(ours, theirs)):
        assert mine == perfs, (idx, mine, perfs)
    assert all(len(chain) > 1 for chain in ours) == graph
    # ... and the names are the symbol table's
    leaves = truth(cons, data, tmp_path)
    assert [chain[0] for chain in ours] == leaves
    top = max(set(leaves), key=leaves.count)
    assert top == ('perfrec_test_spin' if graph else 'crc32_no_comp'), top


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_hotspot_controls(ubman, tmp_path):
    """On U-Boot's own ELF hotspot names the wrong functions; another
    build's recording gets no names at all"""
    cons = ubman
    data = flat_recording(cons, tmp_path)
    leaves = truth(cons, data, tmp_path)

    # The old layout: U-Boot's ELF found by name, as --appPath does
    old = os.path.join(str(tmp_path), 'old')
    os.makedirs(old)
    shutil.copy(os.path.join(cons.config.build_dir, 'u-boot'), old)
    stream, _ = hotspot(tmp_path, data, app=old)
    wrong = [chain[0] for chain in hotspot_chains(stream)]
    assert sum(a != b for a, b in zip(wrong, leaves)) > len(leaves) // 2, wrong[:5]

    # The same ELF under another build-id: no names, and hotspot says why
    other = os.path.join(str(tmp_path), 'other')
    elf = os.path.join(symfs(cons), 'u-boot')
    os.makedirs(os.path.join(other, 'u-boot', '0' * 40))
    shutil.copy(elf, os.path.join(other, 'u-boot', '0' * 40, 'elf'))
    stream, _ = hotspot(tmp_path, data, debug=other)
    assert [code for code, _ in stream.errors] == ['MissingElfFile'], stream.errors
    assert all(frame.symbol is None for sample in stream.samples for frame in sample.frames)


# Many locals: one scenario reads more clearly in one function than split up
@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_debug_info_truth(ubman, tmp_path):  # pylint: disable=too-many-locals
    """addr2line names every function's code after the symbol table, and
    perf annotate heads the sampled function with its own name; U-Boot's own
    DWARF names some live functions after removed ones"""
    cons = ubman
    data = flat_recording(cons, tmp_path)
    sym = Symboliser(cons)
    # Every function's first and last instruction, and every sampled address
    out = perf(tmp_path, ['script', '-i', data, '--symfs=' + symfs(cons), '-F', 'ip', '-G'])
    elf = subprocess.run(['aarch64-linux-gnu-readelf', '-sW', symfs(cons) + '/u-boot'],
                         capture_output=True, text=True, check=True).stdout
    # name -> address; aliases (a weak name and its target) share one
    funcs = {cols[7]: int(cols[1], 16) for cols in map(str.split, elf.splitlines())
             if len(cols) == 8 and cols[3] == 'FUNC'}

    def same(name, other):
        return name == other or funcs.get(name, -1) == funcs.get(other, -2)
    links = sorted({int(ip, 16) - sym.reloc for ip in out.split()} |
                   {addr for start, end, name in sym.syms if name in funcs
                    for addr in (start, end - 4)})
    want = [sym(link + sym.reloc) for link in links]

    def addr2line(elf):
        out = subprocess.run(['aarch64-linux-gnu-addr2line', '-f', '-e', elf] +
                             [f'{link:#x}' for link in links],
                             capture_output=True, text=True, check=True).stdout
        return out.splitlines()[0::2]

    names = addr2line(os.path.join(symfs(cons), 'u-boot'))
    wrong = [(hex(link), a, b) for link, a, b in zip(links, names, want) if not same(a, b)]
    assert not wrong, wrong[:10]
    stale = addr2line(os.path.join(cons.config.build_dir, 'u-boot'))
    wrong = [(hex(link), a, b) for link, a, b in zip(links, stale, want) if not same(a, b)]
    assert wrong, 'U-Boot\'s own DWARF agrees everywhere: is the control still needed?'

    out = perf(tmp_path, ['annotate', '-i', data, '--symfs=' + symfs(cons), '--stdio',
                          'crc32_no_comp'])
    # '<name>:' from the symbol table, 'name():' from objdump -l's line info
    heads = re.findall(r'^\s*:\s*\d*\s+[0-9a-f]+ <([^>]+)>:\s*$', out, re.M)
    names = re.findall(r'^\s*:\s*\d*\s+([\w.]+)\(\):\s*$', out, re.M)
    assert heads == ['crc32_no_comp'] and set(names) == {'crc32_no_comp'}, out[:2000]
