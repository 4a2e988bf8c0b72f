# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of the whole-boot recording (CONFIG_PERFREC_BOOT; configs/perfrec-early.config)

"""U-Boot built with CONFIG_PERFREC_BOOT records from board_init_f(), right
after fdtdec_setup(), through relocate_code() into board_init_r(), and goes
on as the early recording until the prompt. Every address is classified when
it is recorded (the image before or after relocation) and stored as an image
offset, so that one MMAP of /u-boot names the functions of the whole boot.

The device tree's /options/u-boot changes the recording without a rebuild
("perfrec,boot-size", "perfrec,boot-period", "perfrec,boot-event", and the
negative control's "perfrec,boot-raw-addresses"); tests give QEMU such a
tree with -dtb.
"""

import os
import re
import subprocess

import pytest

import test_perfrec_hotspot as hotspot
import test_perfrec_session as session
from perfrec_data import PerfData
from perfrec_helpers import (elf_symbols, events, fetch, icount_shift, perf, qemu_dtb, status,
                             text_of)
from test_perfrec_callgraph import FLAMEGRAPH, flame_stacks

BOOT_LINE = re.compile(r'perfrec: recording since board_init_f\(\): (\d+) of (\d+) samples '
                       r'copied from the boot buffer at (0x[0-9a-f]+) to (0x[0-9a-f]+)')
# The boot buffer of configs/perfrec-early.config (Kconfig's default for QEMU)
BOOT_BUF = 0x41000000
# Before relocation there must be this many samples (the issue's floor)
LEAST_BEFORE_RELOC = 200
# relocate_code() (its labels, copy_loop and others, have no size in the ELF)
RELOCATE = ('relocate_code',)
# crt0's own instructions around the calls of board_init_f() and relocate_code()
STARTUP = ('_main',)
OPTIONS = '/options/u-boot'
# The phases of a boot to the prompt, in order: the leader, then a thread each
PHASES = ['u-boot', 'board_init_f', 'relocation', 'board_init_r']
# How long writing a phase's FORK and COMM masks IRQs, at most (ns): a sample
# due then is taken after it, in the next phase
PHASE_SWITCH_NS = 2000
# Instructions of each sample the cycle counter cannot see: its read of
# PMCCNTR_EL0 and the reload that follows (make bench: the uncounted window)
UNCOUNTED_PER_SAMPLE = 2


def boot_with(cons, dtb=None, mem=None, fill=None):
    """Restart U-Boot with QEMU given @dtb (-dtb), @mem (-m) and @fill (FILE@ADDR,
    written into RAM before the CPU starts); return the boot log"""
    env = {'PERFREC_QEMU_DTB': dtb, 'PERFREC_QEMU_MEM': mem, 'PERFREC_QEMU_FILL': fill}
    try:
        for key, val in env.items():
            if val:
                os.environ[key] = val
        cons.restart_uboot()
        return cons.get_spawn_output()
    finally:
        for key in env:
            os.environ.pop(key, None)


def options_dtb(cons, tmp_path, mem='1G', **props):
    """QEMU's device tree for @mem of RAM, with /options/u-boot holding
    perfrec,<name> = <value> for @props (a number, or a string)"""
    edits = [['-p', '-c', OPTIONS]]
    edits += [['-t', 's' if isinstance(val, str) else 'u', OPTIONS,
               'perfrec,' + name.replace('_', '-'), str(val)]
              for name, val in props.items()]
    return qemu_dtb(cons, tmp_path, 'options.dtb', edits, mem)


def copy_loop_range(cons):
    """(start, end): relocate_code() up to the end of its copy loop, as image
    offsets read from the ELF. The loop is the first conditional branch in
    relocate_code() that goes back (relocate_64.S's 'b.lo copy_loop'); the
    label's name is not used: perf may name the loop's samples relocate_code
    (sized) rather than copy_loop (a label of no size), as on 2025.01."""
    elf, syms, base = elf_symbols(cons)
    addr, size = next((int(parts[0], 16), int(parts[1], 16)) for parts in syms
                      if len(parts) == 4 and parts[3] == 'relocate_code')
    start, end = addr - base, addr - base + size
    out = subprocess.run(['aarch64-linux-gnu-objdump', '-d', '--no-show-raw-insn',
                          f'--start-address={base + start:#x}', f'--stop-address={base + end:#x}',
                          elf], capture_output=True, text=True, check=True).stdout
    for match in re.finditer(r'^\s*([0-9a-f]+):\s+b\.\w+\s+([0-9a-f]+)', out, re.M):
        addr, target = int(match.group(1), 16), int(match.group(2), 16)
        if target < addr:
            return start, addr + 4 - base
    raise AssertionError(f'relocate_code() has no loop:\n{out}')


def sampled_in_copy(cons, pdata):
    """Whether a sample of @pdata fell in relocate_code()'s copy, by address"""
    start, end = copy_loop_range(cons)
    return any(start <= s.ip - pdata.mmaps[0].start < end for s in pdata.samples)


def name_at(text, addr):
    """The function of @text holding image offset @addr, or None"""
    for start, end, name in text:
        if start <= addr < end:
            return name
    return None


def resolve(pdata, text):
    """[(time, [function names, innermost first])] of each sample; None where an
    address (IP or caller) lies in no function of the ELF at the MMAP's place"""
    image = pdata.mmaps[0]
    out = []
    for smp in sorted(pdata.samples, key=lambda s: s.time):
        addrs = [a for a in smp.callchain if a < 0xfffffffffffff000] if smp.callchain else \
            [smp.ip]
        out.append((smp.time, [name_at(text, a - image.start) for a in addrs]))
    return out


def before_relocation(resolved):
    """The samples up to the end of relocate_code(): [(time, names)]"""
    last = max((i for i, (_, names) in enumerate(resolved) if names[0] in RELOCATE),
               default=-1)
    return resolved[:last + 1]


def boot_problems(resolved):
    """What is wrong with the samples of board_init_f() and relocation: every
    address must resolve, every chain must go back to board_init_f() or be
    relocate_code(), or be in _main itself (crt0, around the two); [] if nothing"""
    problems = [f'at {time}: an address outside every function: {names}'
                for time, names in resolved if None in names]
    early = before_relocation(resolved)
    if not early:
        return problems + ['no sample in relocate_code()']
    first_reloc = next(i for i, (_, names) in enumerate(early) if names[0] in RELOCATE)
    if first_reloc < LEAST_BEFORE_RELOC:
        problems.append(f'{first_reloc} samples before relocate_code(), fewer than '
                        f'{LEAST_BEFORE_RELOC}')
    problems += [f'at {time}: not under board_init_f(): {names}' for time, names in early
                 if None not in names and names[0] not in RELOCATE + STARTUP and
                 'board_init_f' not in names]
    return problems


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.requiredtool('perf')
def test_perfrec_early_boot_whole(ubman, tmp_path):
    """From board_init_f() through relocation to the prompt: every address,
    before and after relocation, names its function in perf and in the ELF"""
    cons = ubman
    boot = boot_with(cons)
    match = BOOT_LINE.search(boot)
    assert match, boot
    copied, taken = int(match.group(1)), int(match.group(2))
    assert copied == taken > LEAST_BEFORE_RELOC and int(match.group(3), 16) == BOOT_BUF
    assert status(cons)[0] == 'finalised'
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    assert pdata.cmdline == ['u-boot'] and len(pdata.mmaps) == 1
    assert len(pdata.samples) > copied and all(s.callchain for s in pdata.samples)
    resolved = resolve(pdata, text_of(cons))
    assert boot_problems(resolved) == []
    early = before_relocation(resolved)
    assert len({names[0] for _, names in early}) >= 10
    callers = {name for _, names in early for name in names}
    # initf_dm() is inlined into the INITCALL list of 2025.07 on
    assert 'board_init_f' in callers and callers & {'initf_dm', 'dm_init_and_scan'} and \
        any(name.startswith('fdtdec_') for name in callers), callers
    # A chain taken in relocate_code() holds both places: the code before
    # relocation, its return address (relocation_return in _main) after it
    assert all(names[1:] == ['_main'] for _, names in early if names[0] == 'relocate_code')
    # After relocation too: every sample resolves
    assert all(None not in names for _, names in resolved)
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--sort', 'dso,symbol', '--no-children'])
    assert '[unknown]' not in report
    names = set(re.findall(r'\[\.\] (\S+)', report))
    assert any(n.startswith('initf_') or n.startswith('dm_') or n.startswith('fdt_')
               for n in names), names
    assert sampled_in_copy(cons, pdata), copy_loop_range(cons)
    assert events(cons)['cycles'][0] > 0


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.requiredtool('perf')
def test_perfrec_early_boot_raw_addresses(ubman, tmp_path):
    """Negative control: with the record-time classification off (the
    device tree's perfrec,boot-raw-addresses), the checks of
    test_perfrec_early_boot_whole fail: perf has [unknown] samples and the samples
    of board_init_f() resolve to no function"""
    cons = ubman
    try:
        boot = boot_with(cons, options_dtb(cons, tmp_path, boot_raw_addresses=1))
        assert BOOT_LINE.search(boot), boot
        path, data = fetch(cons, tmp_path)
        problems = boot_problems(resolve(PerfData(data), text_of(cons)))
        assert any('outside every function' in p for p in problems), problems
        report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                                 '--stdio', '--sort', 'dso,symbol', '--no-children'])
        assert '[unknown]' in report
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_not_in_memory(ubman, tmp_path):
    """A boot buffer that runs past the end of /memory (perfrec,boot-size of
    1 GiB): one line, an unrecorded boot, and the early recording starts after
    relocation as without PERFREC_BOOT"""
    cons = ubman
    try:
        boot = boot_with(cons, options_dtb(cons, tmp_path, boot_size=0x40000000))
        line = (f'perfrec: boot buffer {BOOT_BUF:#x}-{BOOT_BUF + 0x3fffffff:#x} is not in the '
                "device tree's /memory: the boot is not recorded")
        assert line in boot and not BOOT_LINE.search(boot), boot
        # The other lines: the early recording's, when it starts and at the prompt
        lines = re.findall(r'perfrec: .*\S', boot.split(line)[1])
        assert len(lines) == 2 and lines[0].startswith('perfrec: recording into ') and \
            re.match(r'perfrec: \d+ samples, 0 lost, ', lines[1]), boot
        assert status(cons)[0] == 'finalised'
        assert 'ok' in cons.run_command('echo ok')
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_dropped(ubman):
    """With 32 MiB of RAM what U-Boot reserves at the top overlaps the boot
    buffer: the recording is dropped at setup_reloc() with one line, every
    register given back, and the boot goes on to the prompt"""
    cons = ubman
    try:
        boot = boot_with(cons, mem='32M')
        line = (f'perfrec: boot buffer {BOOT_BUF:#x}-{BOOT_BUF + 0x3fffff:#x} overlaps what '
                'U-Boot reserved at the top of DRAM: the boot recording is dropped')
        assert line in boot, boot
        assert 'not restored' not in boot and not BOOT_LINE.search(boot)
        assert 'ok' in cons.run_command('echo ok')
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.requiredtool('perf')
def test_perfrec_early_boot_small_buffer(ubman, tmp_path):
    """A boot buffer too small for the boot (perfrec,boot-size): the samples
    that do not fit are counted lost, and the boot goes on"""
    cons = ubman
    try:
        boot = boot_with(cons, options_dtb(cons, tmp_path, boot_size=0x8000))
        match = BOOT_LINE.search(boot)
        assert match, boot
        out = cons.run_command('perfrec status')
        lost = int(re.search(r'lost: (\d+)', out).group(1))
        assert lost > 0, out
        path, data = fetch(cons, tmp_path)
        pdata = PerfData(data)
        assert pdata.lost_samples == lost and len(data) <= 0x8000
        report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                                 '--stdio', '--sort', 'dso,symbol'], allow_lost=True)
        assert '[unknown]' not in report
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.parametrize('mem', [None, '128M'])
def test_perfrec_early_boot_buffer_reused(ubman, tmp_path, mem):
    """After the copy the boot buffer is free: a load over it (at
    kernel_addr_r, 32 MiB) leaves the recording as it was, byte for byte;
    with QEMU's memory (1 GiB) and with 128 MiB, where the load areas of
    QEMU's environment leave no room clear of them: one line says so"""
    cons = ubman
    try:
        boot = boot_with(cons, mem=mem)
        match = BOOT_LINE.search(boot)
        assert match and int(match.group(1)) == int(match.group(2)) > 0, boot
        note = re.search(r'perfrec: no free DRAM is clear of the load areas: the buffer at '
                         r'(0x[0-9a-f]+) is in the 64 MiB from \$ramdisk_addr_r', boot)
        assert bool(note) == bool(mem) and 'ERROR' not in boot, boot
        if note:
            assert note.group(1) == match.group(4)
        _, before = fetch(cons, tmp_path, 'before.data')
        cons.run_command('mw.b $kernel_addr_r 0xaa 0x2000000')
        _, after = fetch(cons, tmp_path, 'after.data')
        assert before == after
        assert PerfData(before).samples
    finally:
        if mem:
            cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_no_room_to_adopt(ubman, tmp_path):
    """A boot buffer of 128 MiB (perfrec,boot-size) in 256 MiB of DRAM: after
    relocation no free DRAM clear of it holds the copy. The boot recording
    is dropped with one line, and never copied onto itself. U-Boot goes on
    with its relocated vectors in VBAR, as without perfrec: the handed-over
    VBAR (the payload's report) is the relocated image's 'vectors'."""
    cons = ubman
    size = 0x8000000
    try:
        boot = boot_with(cons, options_dtb(cons, tmp_path, mem='256M', boot_size=size),
                         mem='256M')
        assert ('perfrec: the boot recording was dropped: no room for it after relocation '
                '(error -12)') in boot, boot
        assert not BOOT_LINE.search(boot) and 'ERROR' not in boot, boot
        assert status(cons)[0] not in ('armed', 'recording')
        assert 'ok' in cons.run_command('echo ok')
        reloc = int(re.search(r'relocaddr\s*=\s*(0x[0-9a-f]+)',
                              cons.run_command('bdinfo')).group(1), 16)
        _, syms, base = elf_symbols(cons)
        vectors = next(int(parts[0], 16) for parts in syms if parts[-1] == 'vectors')
        text, regs = session.boot_payload(cons, tmp_path)
        assert regs[f"VBAR_EL{regs['CurrentEL'] >> 2}"] == reloc + vectors - base, text
    finally:
        cons.restart_uboot()


def phases_of(pdata):
    """[(tid, name, start ns)] of the recording's threads, in order"""
    names = {comm.tid: comm.comm for comm in pdata.comms}
    return [(sid.tid, names[sid.tid], sid.time) for rec in pdata.records if rec.type == 3
            for sid in [pdata.sample_ids[rec.offset]]]


def bootstage_marks(cons):
    """{name: µs} of the marks of 'bootstage report'"""
    out = cons.run_command('bootstage report')
    return {m.group(2): int(m.group(1).replace(',', ''))
            for m in re.finditer(r'^\s*([\d,]+)\s+[\d,]+\s+(\S+)\s*$', out, re.M)}


def recorded_boot(cons, tmp_path):
    """Boot with the recording as configured; return (perf.data path, PerfData)"""
    boot = boot_with(cons)
    assert BOOT_LINE.search(boot), boot
    path, data = fetch(cons, tmp_path)
    return path, PerfData(data)


def check_marks(cons, phases):
    """Each phase named after a bootstage mark starts at its time, within 2 µs"""
    marks = bootstage_marks(cons)
    for _, name, start in phases[1:]:
        if name in marks:
            assert abs(start / 1000 - marks[name]) <= 2, (name, start, marks[name])
    return marks


def samples_by_tid(pdata):
    """{tid: samples}"""
    counts = {}
    for smp in pdata.samples:
        counts[smp.tid] = counts.get(smp.tid, 0) + 1
    return counts


def check_spans(pdata, phases, counts):
    """Each phase's samples times the period is its span, within a period (and
    the few ns a phase switch masks IRQs); the last phase ends at the last sample"""
    period = pdata.samples[0].period
    ends = [start for _, _, start in phases[1:]] + [max(s.time for s in pdata.samples)]
    for (tid, name, start), end in zip(phases, ends):
        assert abs(end - start - counts.get(tid, 0) * period) <= period + PHASE_SWITCH_NS, \
            (name, end - start, counts.get(tid, 0), period)


def check_flame_graph(path, pdata, build_dir, tmp_path):
    """The flame graph of @path has a tree per phase, '<name> (1)', with its samples"""
    html = str(tmp_path / 'flame.html')
    proc = subprocess.run(['/usr/bin/python3', FLAMEGRAPH, '-i', path, '--symfs', build_dir,
                           '-o', html], capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=str(tmp_path)))
    assert proc.returncode == 0 and proc.stderr == '', proc.stderr

    def total(node):
        return node[0] + sum(total(child) for child in node[1].values())
    comm = {c.tid: c.comm for c in pdata.comms}
    # perf's flamegraph.py names a tree '<comm> (<pid>)': the phase's name, pid 1
    trees = flame_stacks(html)['all'][1]
    assert {name: total(node) for name, node in trees.items()} == \
        {f'{comm[tid]} (1)': n for tid, n in samples_by_tid(pdata).items()}, list(trees)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.buildconfigspec('cmd_bootstage')
@pytest.mark.requiredtool('perf')
def test_perfrec_early_boot_phases(ubman, tmp_path):
    """Each boot phase is a thread named after it, starting at bootstage's
    mark (within 2 µs); under -icount shift=0 (a cycle an instruction), each
    phase's samples times the period is its span, within a period; perf's
    report by comm and the board's report split the boot the same way"""
    cons = ubman
    path, pdata = recorded_boot(cons, tmp_path)
    phases = phases_of(pdata)
    assert [name for _, name, _ in phases][:len(PHASES)] == PHASES, phases
    assert [tid for tid, _, _ in phases] == list(range(1, len(phases) + 1))
    marks = check_marks(cons, phases)
    assert {'board_init_f', 'board_init_r'} <= set(marks), marks

    counts = samples_by_tid(pdata)
    if icount_shift(cons) == 0:
        check_spans(pdata, phases, counts)
        # The cycle counter counts instructions here: from where it started
        # (a period before the first sample; the start hook's arming comes
        # between the leader's timestamp and it) to setup_reloc(), the
        # samples are the span's instructions, less the few of each sample
        # the counter cannot see, divided by the period: the span ends in
        # the period after the last sample's
        taken = counts.get(phases[0][0], 0) + counts.get(phases[1][0], 0)
        started = min(s.time for s in pdata.samples) - pdata.samples[0].period
        assert phases[0][2] <= started
        counted = phases[2][2] - started - taken * UNCOUNTED_PER_SAMPLE
        assert 0 <= counted / pdata.samples[0].period - taken < 1, \
            (taken, phases[2][2] - started, started - phases[0][2])

    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--sort', 'comm', '-g', 'none', '-F', 'comm,sample'])
    rows = dict((m.group(1), int(m.group(2)))
                for m in re.finditer(r'^\s+(\S+)\s+(\d+)\s*$', report, re.M))
    assert rows == {name: counts[tid] for tid, name, _ in phases if counts.get(tid)}, report
    board = cons.run_command('perfrec report -n 1')
    listed = re.findall(r'^(\S+)\s+(\d+)\s+[\d.]+%\s+([\d.]+)\s*$', board, re.M)
    assert [(name, int(n), round(float(ms) * 1000)) for name, n, ms in listed] == \
        [(name, counts.get(tid, 0), start // 1000) for tid, name, start in phases], board


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.requiredtool('perf')
@pytest.mark.requiredtool('node')
def test_perfrec_early_boot_readers(ubman, tmp_path):
    """perf, hotspot's parser and the flame graph read the whole boot the
    same: hotspot's functions, chains and threads are perf's sample by
    sample, and the flame graph has a tree per phase with its samples"""
    cons = ubman
    path, pdata = recorded_boot(cons, tmp_path)
    root = hotspot.symfs(cons)
    theirs = hotspot.perf_chains(tmp_path, path, root)
    stream, noise = hotspot.hotspot(tmp_path, path, debug=os.path.join(root, '.debug'))
    assert not stream.errors and not noise, (stream.errors, noise)
    ours = hotspot.hotspot_chains(stream)
    assert len(ours) == len(theirs) == len(pdata.samples)
    for idx, (mine, perfs) in enumerate(zip(ours, theirs)):
        assert mine == perfs and None not in mine, (idx, mine, perfs)
    # hotspot's thread of each sample: the name its Command event gave
    names = {ev.tid: ev.payload for ev in stream.events if ev.kind == 'Command'}
    by_time = sorted(pdata.samples, key=lambda s: s.time)
    assert [names[s.tid] for s in stream.samples] == \
        [dict((c.tid, c.comm) for c in pdata.comms)[s.tid] for s in by_time]

    check_flame_graph(path, pdata, cons.config.build_dir, tmp_path)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_event(ubman, tmp_path):
    """perfrec,boot-event picks the boot recording's event for one boot:
    cpu-clock (QEMU 7.2's event counters raise no overflow interrupt, so
    "instructions" would take no sample; under icount the cycle counter
    counts instructions: test_perfrec_early_boot_phases)"""
    cons = ubman
    try:
        boot = boot_with(cons, options_dtb(cons, tmp_path, boot_event='cpu-clock'))
        match = BOOT_LINE.search(boot)
        assert match and int(match.group(1)) > LEAST_BEFORE_RELOC, boot
        assert set(events(cons)) == {'cpu-clock'}
        _, data = fetch(cons, tmp_path)
        assert [name for _, name, _ in phases_of(PerfData(data))][:3] == PHASES[:3]
    finally:
        cons.restart_uboot()


def until_os_dtb(cons, tmp_path):
    """QEMU's device tree with /options/u-boot's perfrec,until-prompt = <0>:
    the recording goes on past the prompt"""
    return qemu_dtb(cons, tmp_path, 'until-os.dtb',
                    [['-p', '-c', OPTIONS], ['-t', 'u', OPTIONS, 'perfrec,until-prompt', '0']])


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.buildconfigspec('cmd_bootm')
def test_perfrec_early_boot_past_prompt(ubman, tmp_path):
    """Recording on past the prompt (perfrec,until-prompt = <0>): main_loop
    and bootm_start are phases too, at bootstage's marks"""
    cons = ubman
    uimage = session.payload_uimage(cons, tmp_path)
    try:
        boot = boot_with(cons, until_os_dtb(cons, tmp_path))
        assert "perfrec: recording since early boot; 'perfrec stop' ends it" in boot, boot
        assert status(cons)[0] == 'recording'
        cons.run_command(f'load hostfs - 0x48000000 {uimage}')
        cons.run_command('bootm start 0x48000000 - $fdtcontroladdr')
        cons.run_command('perfrec stop')
        _, data = fetch(cons, tmp_path)
        phases = phases_of(PerfData(data))
        assert [name for _, name, _ in phases] == PHASES + ['main_loop', 'bootm_start'], phases
        if cons.config.buildconfig.get('config_cmd_bootstage'):
            check_marks(cons, phases)
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_to_os(ubman, tmp_path):
    """A recording of the whole boot that runs into booti ends cleanly at the
    handoff: the OS gets the state it gets after a boot without one"""
    cons = ubman
    boot_with(cons)
    _, plain = session.boot_payload(cons, tmp_path)
    boot = boot_with(cons, until_os_dtb(cons, tmp_path))
    copied = int(BOOT_LINE.search(boot).group(1))
    text, handed = session.boot_payload(cons, tmp_path)
    match = re.search(r'perfrec: stopped for the OS: (\d+) samples, 0 lost, \d+ bytes of '
                      r'perf.data at 0x[0-9a-f]+', text)
    assert match and int(match.group(1)) > copied, text
    assert handed == plain
