#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""What recording the whole boot costs: time to the prompt, with and without.

Usage:
    perfrec_boot_bench.py --build-dir build/qemu_arm64_perfrec_early \
        --off-dir build/qemu_arm64_perfrec_early_off --plugin PLUGIN \
        --rpi-dir build/board_rpi_arm64 [--doc doc/develop/perfrec.rst]

Boots the early-boot build (CONFIG_PERFREC_BOOT) on QEMU virt at EL2 under
-icount shift=0,sleep=off, where a nanosecond is an instruction, and reads
bootstage's marks at the prompt: once in --off-dir, the same build without
the boot or early recording (the baseline, which pays nothing of
perfrec's; its tree has the same /options/u-boot as the others), then recording with call graphs every
250000 cycles (4 kHz at QEMU's 1 GHz), every 20000 (the default) and every
10000 (100 kHz), and flat every 20000. What a sample costs comes by
difference, from the board_init_f mark to the board_init_r mark, against a
boot recorded with a period too long to end there. That boot once more,
with /options/u-boot's perfrec,until-prompt = <0> (the recording goes on
at the prompt: no stop there, no fileaddr/filesize), against a baseline
with the same two properties, parts the stop's cost from the rest.

The flat sample's cost is then counted exactly: one more flat boot runs
under QEMU's execution trace (-d exec -singlestep, -dfilter over perfrec's
vector tables and IRQ code), with a 'perfrec record' at the prompt, and
each sample's instructions from vector entry to eret are summed: the boot
handler's before and after relocation, and the normal handler's, in the
same build. The boot handler may cost at most 5 more than the normal one
(its address classification, and the register moves that its constant
state address costs). The arming is counted exactly by the TCG
plugin (--plugin, scripts/qemu-plugin/): perfrec_boot_start() from its
first instruction to its return, the walk of the device tree in it, and
the report's walk once the console is up; and the walk of a larger tree, a
Raspberry Pi 3 B's own, in a 'perfrec record' of --rpi-dir's
rpi_arm64_defconfig build on QEMU's raspi3b. The figures hold for icount only: on hardware
the handler costs more before the caches are on. --doc (or --readme)
replaces the text between the lines '.. bench-boot:start' and
'.. bench-boot:end' of the doc page (doc/develop/perfrec.rst) with the
tables as reStructuredText (<!-- bench-boot:start --> and
<!-- bench-boot:end --> in a Markdown file).
"""

import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
sys.path.insert(0, os.path.join(TOP, 'bench'))
# pylint: disable=wrong-import-position
import perfrec_exact as PE
import perfrec_exact_run as RUN
from perfrec_bench import IRQ_ENTRIES, one_insn_per_tb, parse_trace
from perfrec_bench_report import put_doc
from perfrec_qemu import Board

MACHINE = 'virt,virtualization=on,gic-version=3'
# sleep=off: virtual time is the instruction count alone. With QEMU's
# default (sleep=on) it also jumps with the host's time while the vCPU
# waits, and the boot's marks moved by millions between two runs.
ICOUNT = 'shift=0,sleep=off'
# A boot recording armed, with a period that never ends before the prompt
NO_SAMPLE = {'perfrec,boot-period': 4000000000}
# (what, /options/u-boot properties), the first in --off-dir. Each tree has one property of the
# same size there: U-Boot walks its tree some thousand times before the
# prompt, and one property more cost the baseline 23000 instructions
RUNS = [('off (a build without the boot recording)', {'perfrec,boot-period': 20000}),
        ('armed, no sample (every 4e9 cycles)', NO_SAMPLE),
        ('4 kHz (every 250000 cycles)', {'perfrec,boot-period': 250000}),
        ('default (every 20000 cycles)', {'perfrec,boot-period': 20000}),
        ('100 kHz (every 10000 cycles)', {'perfrec,boot-period': 10000}),
        ('flat, every 20000 cycles', {'perfrec,boot-callchain': 0})]
# Armed with no sample, going on past the prompt (perfrec,until-prompt = <0>):
# no stop at the prompt, so neither the finalising nor U-Boot's env_set_hex()
# of fileaddr and filesize. Two properties in /options/u-boot: against a
# baseline with the same two
GOING_ON = {**NO_SAMPLE, 'perfrec,until-prompt': 0}
GOING_ON_BASE = {'perfrec,boot-period': 20000, 'perfrec,until-prompt': 0}
# The flat sample path of the boot handler may cost this much more than the
# normal handler's: its address classification, and a register move
FLAT_EXTRA = 5
MARKS = ('board_init_f', 'board_init_r', 'main_loop')
# A larger tree than virt's: the Raspberry Pi 3 B's own, where --rpi-dir's
# rpi_arm64_defconfig build boots on QEMU's model of it
RPI_MACHINE = 'raspi3b'
RPI_DTB = 'arch/arm/dts/bcm2837-rpi-3-b.dtb'
RPI_RECORD = 'perfrec record -c 1000000 -- true'
# The normal handler's samples in the traced run (a flat recording at the prompt)
TRACE_RECORD = 'perfrec record -c 20000 -- crc32 0x40000000 0x1000000'


def dtb_with(tmp, props):
    """QEMU's device tree with @props in /options/u-boot; its path"""
    dtb = os.path.join(tmp, 'options.dtb')
    subprocess.run(['qemu-system-aarch64', '-M', MACHINE + ',dumpdtb=' + dtb, '-cpu',
                    'cortex-a57', '-m', '1G', '-display', 'none', '-nic', 'none'],
                   check=True, capture_output=True)
    subprocess.run(['fdtput', '-p', '-c', dtb, '/options/u-boot'], check=True)
    for name, val in props.items():
        subprocess.run(['fdtput', '-t', 'u', dtb, '/options/u-boot', name, str(val)],
                       check=True)
    return dtb


def irq_code(build):
    """{'boot': vector table, 'normal': vector table} (link addresses, EL2)
    and [(start, size)] of the IRQ path's C code (perfrec_irq_*)"""
    out = subprocess.run(['aarch64-linux-gnu-nm', '-S', '--defined-only',
                          os.path.join(build, 'u-boot')],
                         capture_output=True, text=True, check=True).stdout
    tables, code = {}, []
    for parts in (line.split() for line in out.splitlines()):
        if parts[-1] in ('perfrec_vectors_el2', 'perfrec_boot_vectors_el2'):
            tables['boot' if 'boot' in parts[-1] else 'normal'] = int(parts[0], 16)
        elif len(parts) == 4 and parts[3].startswith('perfrec_irq_') and int(parts[1], 16):
            code.append((int(parts[0], 16), int(parts[1], 16)))
    return tables, code


def trace_costs(build, tmp):
    """Instructions per flat sample, vector entry to eret, from QEMU's
    execution trace: {'boot, before relocation': n, 'boot, after': n,
    'normal': n}"""
    dtb = dtb_with(tmp, {'perfrec,boot-callchain': 0})
    with Board(build, machine=MACHINE, icount=ICOUNT, extra=['-dtb', dtb]) as board:
        reloc = int(re.search(r'relocaddr\s*=\s*(0x[0-9a-f]+)', board.run('bdinfo')).group(1),
                    16)
    tables, code = irq_code(build)
    ranges = [(start, 0x800) for start in tables.values()] + code
    log = os.path.join(tmp, 'trace.log')
    filt = ','.join('%#x+%#x' % (start + off, size) for start, size in ranges
                    for off in (0, reloc))
    with Board(build, machine=MACHINE, icount=ICOUNT,
               extra=['-dtb', dtb, '-d', 'exec,nochain', '-D', log, '-dfilter', filt] +
               one_insn_per_tb('qemu-system-aarch64')) as board:
        board.run(TRACE_RECORD)
    pcs, _ = parse_trace(log)
    entries = {tables['boot'] + e: 'boot, before relocation' for e in IRQ_ENTRIES}
    entries.update({tables['boot'] + reloc + e: 'boot, after' for e in IRQ_ENTRIES})
    entries.update({tables['normal'] + reloc + e: 'normal' for e in IRQ_ENTRIES})
    counts = {what: [0, 0] for what in entries.values()}
    what = None
    for pc in pcs:
        if pc in entries:
            what = entries[pc]
            counts[what][1] += 1
        if what:
            counts[what][0] += 1
    missing = [what for what, (_, n) in counts.items() if not n]
    if missing:
        raise SystemExit('perfrec_boot_bench: no %s sample in the trace' % missing)
    return {what: insns / n for what, (insns, n) in counts.items()}


def boot(build, tmp, props):
    """Boot once; return ({mark: µs}, samples of the recording or 0, samples
    from the board_init_f mark to the board_init_r mark)"""
    with Board(build, machine=MACHINE, icount=ICOUNT,
               extra=['-dtb', dtb_with(tmp, props or {})]) as board:
        report = board.run('bootstage report')
        state = board.run('perfrec status')
        phases = board.run('perfrec report -n 1')
    marks = {m.group(2): int(m.group(1).replace(',', ''))
             for m in re.finditer(r'^\s*([\d,]+)\s+[\d,]+\s+(\S+)\s*$', report, re.M)}
    missing = [mark for mark in MARKS if mark not in marks]
    if missing:
        raise SystemExit('perfrec_boot_bench: no %s in bootstage report:\n%s' % (missing, report))
    samples = re.search(r'samples: (\d+)', state)
    split = {m.group(1): int(m.group(2)) for m in
             re.finditer(r'^(\S+)\s+(\d+)\s+[\d.]+%\s+[\d.]+\s*$', phases, re.M)}
    return (marks, int(samples.group(1)) if samples else 0,
            split.get('board_init_f', 0) + split.get('relocation', 0))



def link_addrs(build, name):
    """Where @name starts in the ELF, and its 'ret' instructions (link addresses)"""
    out = subprocess.run(['aarch64-linux-gnu-objdump', '-d', '--no-show-raw-insn',
                          '--disassemble=' + name, os.path.join(build, 'u-boot')],
                         capture_output=True, text=True, check=True).stdout
    start = re.search(r'^([0-9a-f]+) <%s>:' % re.escape(name), out, re.M)
    rets = [int(m.group(1), 16) for m in re.finditer(r'^\s*([0-9a-f]+):\s+ret\b', out, re.M)]
    if not start or not rets:
        raise SystemExit('perfrec_boot_bench: no %s with a ret in %s/u-boot' % (name, build))
    return int(start.group(1), 16), rets


def call_window(build, name, callee):
    """(first call of @callee in @name, the instruction after its last one),
    link addresses"""
    out = subprocess.run(['aarch64-linux-gnu-objdump', '-d', '--no-show-raw-insn',
                          '--disassemble=' + name, os.path.join(build, 'u-boot')],
                         capture_output=True, text=True, check=True).stdout
    calls = [int(m.group(1), 16) for m in
             re.finditer(r'^\s*([0-9a-f]+):\s+bl\s+[0-9a-f]+ <%s>' % re.escape(callee), out, re.M)]
    if not calls:
        raise SystemExit('perfrec_boot_bench: no call of %s in %s' % (callee, name))
    return calls[0], calls[-1] + 4


def reloc_off(build, tmp, rpi=False):
    """Where U-Boot relocates itself, less its link address (bdinfo), on QEMU
    virt or with @rpi on the Raspberry Pi 3 B's model"""
    if rpi:
        outs, _, _ = RUN.board_session(build, ['bdinfo'], machine=RPI_MACHINE,
                                       dtb=os.path.join(build, RPI_DTB))
    else:
        outs, _, _ = RUN.board_session(build, ['bdinfo'], machine=MACHINE,
                                       extra=['-dtb', dtb_with(tmp, {})])
    return RUN.reloc_of(outs[0])


def rpi_walk(build, tmp, plugin):
    """The walk of a 'perfrec record' on the Raspberry Pi 3 B's own tree
    (rpi_arm64_defconfig in @build): Markdown lines"""
    nodes, props = tree_size(os.path.join(build, RPI_DTB))
    walk = counted(build, tmp, plugin, 'perfrec_dt_scan', reloc_off(build, tmp, True), rpi=True)
    return ['| the walk on a Raspberry Pi 3 B\'s tree (`%s`, %d nodes, %d properties; '
            'rpi_arm64_defconfig on QEMU\'s raspi3b) | %d |' % (RPI_DTB.split('/')[-1], nodes,
                                                                   props, walk),
            '| that walk, per node | %.0f |' % (walk / nodes)]


# pylint: disable-next=too-many-arguments
def counted(build, tmp, plugin, name, off=0, window=None, rpi=False):
    """Instructions QEMU ran from the first execution of @name to its first
    return, or in @window (start, stop), counted by the TCG plugin
    (scripts/qemu-plugin/); @off: 0 for code that runs before relocation,
    else the relocation offset. Armed with no sample on QEMU virt, or with
    @rpi, RPI_RECORD on the Raspberry Pi 3 B's model and tree"""
    start, rets = (window[0], [window[1]]) if window else link_addrs(build, name)
    out = os.path.join(tmp, 'counts.txt')
    arg = '%s,out=%s,start=%#x' % (plugin, out, start + off) + \
        ''.join(',stop=%#x' % (r + off) for r in rets)
    if rpi:
        RUN.board_session(build, [RPI_RECORD], machine=RPI_MACHINE,
                          dtb=os.path.join(build, RPI_DTB), extra=['-plugin', arg])
    else:
        # Armed with no sample: the handler's instructions are not perfrec's
        # hooks' (the runs above give what samples cost)
        RUN.board_session(build, [], machine=MACHINE,
                          extra=['-dtb', dtb_with(tmp, NO_SAMPLE), '-plugin', arg])
    _, _, meta = PE.read_counts(out)
    if meta.get('state') != ['done']:
        raise SystemExit('perfrec_boot_bench: %s never returned: the plugin says %s' %
                         (name, meta.get('state')))
    return int(meta['total'][0])


def tree_size(dtb):
    """(nodes, properties) of the flat device tree @dtb"""
    with open(dtb, 'rb') as inf:
        blob = inf.read()
    off, size = struct.unpack('>II', blob[8:12] + blob[36:40])
    nodes = props = 0
    pos = off
    while pos < off + size:
        tag = struct.unpack('>I', blob[pos:pos + 4])[0]
        if tag == 1:
            nodes += 1
            pos = (blob.index(b'\0', pos + 4) + 4) & ~3
        elif tag == 3:
            props += 1
            pos += 12 + ((struct.unpack('>I', blob[pos + 4:pos + 8])[0] + 3) & ~3)
        elif tag in (2, 4):
            pos += 4
        else:
            break
    return nodes, props


def arming_table(build, tmp, plugin):
    """The boot recording's arming, its walk of the device tree and the
    report's, counted exactly: Markdown lines"""
    nodes, props = tree_size(dtb_with(tmp, {}))
    arm = counted(build, tmp, plugin, 'perfrec_boot_start')
    walk = counted(build, tmp, plugin, 'perfrec_dt_scan')
    report = counted(build, tmp, plugin, 'perfrec_boot_report')
    off = reloc_off(build, tmp)
    adopt = counted(build, tmp, plugin, 'perfrec_boot_adopt', off)
    place = counted(build, tmp, plugin, 'perfrec_buffer_place', off)
    prompt = counted(build, tmp, plugin, 'perfrec_early_prompt', off)
    env = counted(build, tmp, plugin, 'env_set_hex', off,
                  call_window(build, 'perfrec_end_recording', 'env_set_hex'))
    return ['', 'What the boot recording\'s hooks cost, armed with no sample, counted '
            'exactly (the TCG plugin, from the first execution of each function to its '
            'return), on QEMU virt\'s device tree: %d nodes, %d properties.' % (nodes, props),
            '',
            '| what | instructions |', '|---|---:|',
            '| arming the boot recording (`perfrec_boot_start()`, right after '
            'fdtdec_setup()) | %d |' % arm,
            '| of it, the walk of the device tree (`perfrec_dt_scan()`) | %d |' % walk,
            '| the walk, per node | %.0f |' % (walk / nodes),
            '| the walk, per property | %.0f |' % (walk / props),
            '| the report once the console is up (`perfrec_boot_report()`) | %d |' % report,
            '| the adoption after relocation (`perfrec_boot_adopt()`): a buffer at the '
            'top of DRAM, the perf.data\'s head, the records copied | %d |' % adopt,
            '| of it, placing the buffer (`perfrec_buffer_place()`: U-Boot\'s lmb and '
            'environment) | %d |' % place,
            '| the end at the prompt (`perfrec_early_prompt()`: the recording finalised, '
            '`fileaddr` and `filesize` set, two lines printed) | %d |' % prompt,
            '| of it, setting `fileaddr` and `filesize` (`env_set_hex()`: new variables, '
            'each looked up in the environment\'s attribute lists) | %d |' % env]


def main(argv=None):
    """Run the benchmark; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True, help='the early-boot build')
    parser.add_argument('--off-dir', required=True,
                        help='the same build without the boot recording: the baseline')
    parser.add_argument('--plugin', required=True,
                        help='the TCG plugin that counts instructions (make qemu-plugin)')
    parser.add_argument('--rpi-dir', required=True,
                        help='rpi_arm64_defconfig with perfrec: the walk of a larger tree')
    parser.add_argument('--doc', '--readme', dest='doc', metavar='FILE',
                        help='replace the bench-boot markers of this doc page '
                        '(doc/develop/perfrec.rst)')
    args = parser.parse_args(argv)
    # Fail now, not after the boots
    if args.doc and not put_doc(args.doc, 'bench-boot', 'perfrec_boot_bench'):
        return 1
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (what, props) in enumerate(RUNS):
            build = args.build_dir if i else args.off_dir
            marks, samples, early = boot(os.path.abspath(build), tmp, props)
            rows.append((what, samples, marks, early))
        going_base = boot(os.path.abspath(args.off_dir), tmp, GOING_ON_BASE)[0]['main_loop']
        going = boot(os.path.abspath(args.build_dir), tmp, GOING_ON)[0]
        traced = trace_costs(os.path.abspath(args.build_dir), tmp)
        arming = arming_table(os.path.abspath(args.build_dir), tmp, args.plugin)
        arming += rpi_walk(os.path.abspath(args.rpi_dir), tmp, args.plugin)
    base = rows[0][2]['main_loop']
    # Instructions a sample costs, by difference over board_init_f and
    # relocation (from mark to mark: no arming and no copy in between),
    # against the recording armed with a period that never ends there (its
    # hooks and phase switches cost the same)
    span = rows[1][2]['board_init_r'] - rows[1][2]['board_init_f']
    costs = [(marks['board_init_r'] - marks['board_init_f'] - span) * 1000 / early
             if early else None for _, _, marks, early in rows]
    lines = ['Whole-boot recording (`make bench-boot`): instructions from reset to the prompt '
             '(bootstage\'s main_loop mark, `-icount shift=0`: a nanosecond is an instruction; '
             'on hardware, without caches before initr_caches(), a sample costs more), EL2 / '
             'GICv3, call graphs on unless flat.', '',
             '| recording | samples to the prompt | board_init_f mark (M insns) | board_init_r '
             'mark (M) | main_loop mark, the prompt (M) | overhead | insns per sample before '
             'board_init_r |',
             '|---|---|---|---|---|---|---|']
    for (what, samples, marks, _), cost in zip(rows, costs):
        lines.append('| %s | %s | %.3f | %.3f | %.3f | %s | %s |' % (
            what, samples or '-', marks['board_init_f'] / 1000, marks['board_init_r'] / 1000,
            marks['main_loop'] / 1000,
            '-' if marks is rows[0][2] else '%+.1f%%' % (100.0 * (marks['main_loop'] - base) /
                                                          base),
            '-' if cost is None else '%.0f' % cost))
    lines.append('| armed, no sample, going on past the prompt (`perfrec,until-prompt = <0>`: '
                 'no stop, no `fileaddr`/`filesize`; against the baseline with the same '
                 'properties, %.3f M) | - | %.3f | %.3f | %.3f | %+.2f%% | - |' % (
                     going_base / 1000, going['board_init_f'] / 1000,
                     going['board_init_r'] / 1000, going['main_loop'] / 1000,
                     100.0 * (going['main_loop'] - going_base) / going_base))
    lines += ['', 'Bootstage\'s marks are whole microseconds: a figure by difference is '
              'good to about %.0f instructions. Counted in QEMU\'s execution trace instead '
              '(`-d exec -singlestep`, vector entry to `eret`, a flat sample):' %
              (2000 / rows[-1][3]), '',
              '| handler | instructions per flat sample |', '|---|---:|']
    lines += ['| %s | %.2f |' % (what, traced[what])
              for what in ('normal', 'boot, before relocation', 'boot, after')]
    lines += arming
    over = [what for what in traced if traced[what] > traced['normal'] + FLAT_EXTRA]
    lines += ['', 'Budget: the normal handler\'s figure plus %d (the address classification '
              'and a register move)%s.'
              % (FLAT_EXTRA, ': over it ' + ', '.join(over) if over else '')]
    text = '\n'.join(lines) + '\n'
    print(text)
    if args.doc and not put_doc(args.doc, 'bench-boot', 'perfrec_boot_bench', text):
        return 1
    if over:
        print('perfrec_boot_bench: the flat boot sample costs more than the normal one + %d: %s'
              % (FLAT_EXTRA, ', '.join(over)), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
