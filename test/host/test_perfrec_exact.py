# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Host tests of scripts/perfrec_exact.py, perfrec_exact_run.py and their QEMU plugin.

The pure parts: one name per address as perf chooses it, function ranges,
link and relocated addresses, the MMAP record's offset, the plugin's and
perf script's outputs, TVD, the exclusion, and bad input (one line, exit 2).

The plugin itself, on a bare-metal fixture under QEMU -icount shift=0: a
loop with an MMIO load in the middle of its block (QEMU rewinds and re-runs
it as a block of its own, cpu_io_recompile) and an exception whose handler
lies in a vector table given as irq=. Every instruction of the window is
counted exactly once, the handler's apart, and the total is the PMU cycle
counter's over the same window, which the fixture prints by semihosting.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import CROSS_COMPILE, HOSTCC

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))

# pylint: disable=wrong-import-position
import perfrec_exact as PE  # noqa: E402  # pylint: disable=import-error
import perfrec_exact_run as PR  # noqa: E402  # pylint: disable=import-error

QEMU = os.environ.get('QEMU', 'qemu-system-aarch64')
LOOPS = 1000
# A loop (six instructions, an MMIO load in the middle), an SVC taken to a
# vector table of perfrec's name, pmuv3_start()/pmuv3_stop() as perfrec's
# enable and stop the cycle counter; then PMCCNTR_EL0 in hex by semihosting
FIXTURE = r'''
	.text
	.globl	_start
_start:
	adr	x0, perfrec_vectors_el1
	msr	vbar_el1, x0
	isb
	movz	x5, #0x0900, lsl #16
	add	x5, x5, #0x18			// PL011's UARTFR
	mov	x2, #LOOPS
	mov	x0, #0x45			// PMCR_EL0: E, C, LC
	msr	pmcr_el0, x0
	isb
	bl	pmuv3_start
loop:
	add	x3, x3, #1
	add	x3, x3, #1
mmio:
	ldr	w4, [x5]
	add	x3, x3, #1
	subs	x2, x2, #1
	b.ne	loop
	svc	#0
after:
	add	x3, x3, #1
	bl	pmuv3_stop
	mrs	x7, pmccntr_el0
	movz	x8, #0x4000, lsl #16
	mov	x9, #60
1:	lsr	x10, x7, x9
	and	x10, x10, #0xf
	add	x11, x10, #'0'
	add	x12, x10, #('a' - 10)
	cmp	x10, #10
	csel	x10, x11, x12, lo
	strb	w10, [x8], #1
	subs	x9, x9, #4
	b.pl	1b
	mov	w10, #'\n'
	strb	w10, [x8], #1
	strb	wzr, [x8]
	mov	w0, #0x04			// SYS_WRITE0
	movz	x1, #0x4000, lsl #16
	hlt	#0xf000
	mov	w0, #0x18			// SYS_EXIT
	adr	x1, exit_block
	hlt	#0xf000
	b	.

	.balign	8
exit_block:
	.quad	0x20026, 0

	.globl	pmuv3_start
	.type	pmuv3_start, %function
pmuv3_start:
	mov	x1, #0x80000000
	msr	pmcntenset_el0, x1
	isb
	ret
	.size	pmuv3_start, . - pmuv3_start

	.globl	pmuv3_stop
	.type	pmuv3_stop, %function
pmuv3_stop:
	mov	x1, #0x80000000
	msr	pmcntenclr_el0, x1
	isb
	ret
	.size	pmuv3_stop, . - pmuv3_stop

	.balign	2048
	.globl	perfrec_vectors_el1
perfrec_vectors_el1:
	.skip	0x200
	add	x6, x6, #1			// current EL with SP_ELx: synchronous
	add	x6, x6, #1
	eret
	.balign	2048
	.globl	fixture_end
fixture_end:
	ret
'''.replace('LOOPS', str(LOOPS))


def sym(addr, size, name, bind='STB_GLOBAL', kind='STT_FUNC'):
    """A symbol table entry"""
    return PE.Sym(addr, size, name, bind, kind)


def counts_text(lines, state='done'):
    """The plugin's output holding @lines"""
    body = ''.join(line + '\n' for line in lines)
    return f'# perfrec_insn_count 1\n# state {state}\n# total 0\n{body}'


# --- Pure parts --------------------------------------------------------------

def test_alias_as_perf_chooses():
    """At one address: sized over size 0, a function over a label, not weak,
    global, fewer leading underscores, then the longer name"""
    def best(*syms):
        return PE.Symbols(list(syms), 0x1000).lookup(0x100)
    assert best(sym(0x100, 0, 'a_long_name'), sym(0x100, 8, 'b')) == 'b'
    assert best(sym(0x100, 8, 'label', kind='STT_NOTYPE'), sym(0x100, 8, 'fn')) == 'fn'
    assert best(sym(0x100, 8, 'weak', 'STB_WEAK'), sym(0x100, 8, 'strong', 'STB_LOCAL')) == \
        'strong'
    assert best(sym(0x100, 8, 'local', 'STB_LOCAL'), sym(0x100, 8, 'glob')) == 'glob'
    assert best(sym(0x100, 8, '__memcpy'), sym(0x100, 8, 'memcpy')) == 'memcpy'
    assert best(sym(0x100, 8, 'memcpy'), sym(0x100, 8, 'memcpy_fast')) == 'memcpy_fast'


def test_function_ranges():
    """A sized function ends at its size (a gap is unknown), one of size 0
    at the next function, the last at the end of the code"""
    syms = PE.Symbols([sym(0x100, 0x10, 'sized'), sym(0x200, 0, 'label', kind='STT_NOTYPE'),
                       sym(0x300, 0, 'last')], 0x400)
    assert [syms.lookup(a) for a in (0xff, 0x100, 0x10c, 0x110, 0x1fc, 0x200, 0x2fc, 0x300,
                                     0x3fc, 0x400)] == \
        [PE.UNKNOWN, 'sized', 'sized', PE.UNKNOWN, PE.UNKNOWN, 'label', 'label', 'last',
         'last', PE.UNKNOWN]
    assert syms.find('label') == 0x200
    with pytest.raises(PE.BadInput, match='symbol nothing: not in the ELF'):
        syms.find('nothing')


def test_relocation():
    """The MMAP record's start and pgoff give the offset; link and relocated
    addresses map to the same function, others to none"""
    segments = [(0x10000, 0, 0x16c008)]
    off = PE.reloc_from_mmap(0x7fe83000, 0x10000, segments)
    assert off == 0x7fe83000
    assert PE.reloc_from_mmap(0x7fe83000, 0x10000, [(0x10000, 0x1000, 0x100)]) == 0x7fe82000
    with pytest.raises(PE.BadInput, match='pgoff 0x99: in no PT_LOAD'):
        PE.reloc_from_mmap(0x7fe83000, 0x99, segments)
    syms = PE.Symbols([sym(0x100, 0x100, 'f'), sym(0x200, 0x100, 'g')], 0x300)
    assert PE.to_link(0x104, syms, off) == 0x104
    assert PE.to_link(off + 0x204, syms, off) == 0x204
    assert PE.to_link(0x40000000, syms, off) is None
    assert PE.to_link(off + 0x104, syms, None) is None
    assert PE.by_function({0x104: 3, off + 0x108: 4, off + 0x200: 5, 0x50000000: 1}, syms,
                          off) == {'f': 7, 'g': 5, PE.UNKNOWN: 1}


def test_parse_counts():
    """Counts, handler counts and the header's facts; a bad line is named"""
    counts, irq, meta = PE.parse_counts(counts_text(['7fe83bc4 10', '7fecc000 2 irq',
                                                     '7fecc004 3 irq', '', '40 1']))
    assert counts == {0x7fe83bc4: 10, 0x40: 1}
    assert irq == {0x7fecc000: 2, 0x7fecc004: 3}
    assert meta['state'] == ['done']
    with pytest.raises(PE.BadInput, match=r"counts line 4 '40 x': not"):
        PE.parse_counts(counts_text(['40 x']))
    with pytest.raises(PE.BadInput, match=r"counts line 4 '40 1 nmi': not"):
        PE.parse_counts(counts_text(['40 1 nmi']))
    with pytest.raises(PE.BadInput, match='no header'):
        PE.parse_counts('40 1\n')


def test_parse_script_and_lost():
    """perf script's MMAP (and MMAP2) lines and samples; perf report's lost
    samples from the per-event section only"""
    text = ('PERF_RECORD_MMAP 1/1: [0x7fe83000(0x16c008) @ 0x10000]: x /u-boot\n'
            'PERF_RECORD_MMAP2 1/1: [0x1000(0x2000) @ 0 08:01 12 0]: r-xp /other\n'
            '     10007          7fea4b18\n'
            '     10007          7fea4b18\n'
            '     20000          7fe83bec\n'
            'unwind: target platform=arm64 is not supported\n')
    mmaps, weights, samples = PE.parse_script(text)
    assert mmaps == [(0x7fe83000, 0x16c008, 0x10000, '/u-boot'), (0x1000, 0x2000, 0, '/other')]
    assert weights == {0x7fea4b18: 20014, 0x7fe83bec: 20000}
    assert samples == 3
    stats = ('Aggregated stats:\n    LOST_SAMPLES events:          1  ( 0.0%)\n'
             'cycles stats:\n          SAMPLE events:      27585\n'
             '    LOST_SAMPLES events:      13266\n')
    assert PE.parse_lost(stats) == 13266
    assert PE.parse_lost('Aggregated stats:\n') == 0


def test_tvd():
    """TVD: 0 for the same shares, 1 for disjoint ones, half the L1 distance;
    the random expectation shrinks as 1/sqrt(samples)"""
    assert PE.tvd({'a': 0.5, 'b': 0.5}, {'b': 0.5, 'a': 0.5}) == 0
    assert PE.tvd({'a': 1.0}, {'b': 1.0}) == 1
    assert PE.tvd({'a': 0.8, 'b': 0.2}, {'a': 0.7, 'b': 0.2, 'c': 0.1}) == pytest.approx(0.1)
    assert PE.tvd_random({'a': 0.5, 'b': 0.5}, 100) == pytest.approx(
        2 * PE.tvd_random({'a': 0.5, 'b': 0.5}, 400))
    assert PE.tvd_random({'a': 1.0}, 100) == 0


def test_compare_excludes_the_handler():
    """The excluded functions leave both sides; the rest are renormalised and
    ranked by their difference"""
    exclude = re.compile(PE.DEFAULT_EXCLUDE)
    exact = {'work': 600, 'other': 400, 'perfrec_irq_handler': 5000,
             'perfrec_vectors_el2': 10}
    perf = {'work': 70, 'other': 30, 'perfrec_irq_reason': 100}
    res = PE.compare(exact, perf, 200, exclude, top=2)
    assert res['tvd'] == pytest.approx(0.1)
    assert res['exact_insns'] == 1000 and res['exact_excluded'] == 5010
    assert res['perf_weight'] == 100 and res['perf_excluded'] == 100
    assert res['samples'] == 200 and res['samples_kept'] == 100
    assert [r['function'] for r in res['top']] == ['other', 'work']
    assert res['top'][1]['diff_pct'] == pytest.approx(10)
    assert res['top'][1]['diff_samples'] == pytest.approx(10)
    assert 'TVD 0.10000 over 200 samples (100 after exclusion)' in PE.format_result(res)
    with pytest.raises(PE.BadInput, match='no sample left'):
        PE.compare(exact, {'perfrec_irq_handler': 1}, 1, exclude)


def test_compare_folds_a_loop():
    """Folded functions count as one on both sides: a loop's wrong split
    between them leaves the TVD, its wrong total does not"""
    exact = {'__udelay': 300, 'get_ticks': 700, 'work': 1000}
    split = {'__udelay': 0, 'get_ticks': 100, 'work': 100}
    folded = re.compile('__udelay|get_ticks')
    assert PE.compare(exact, split, 200, None)['tvd'] == pytest.approx(0.15)
    res = PE.compare(exact, split, 200, None, folded=folded)
    assert res['tvd'] == 0
    assert [r['function'] for r in res['top']] == ['__udelay|get_ticks', 'work']
    short = {'__udelay': 0, 'get_ticks': 50, 'work': 150}
    assert PE.compare(exact, short, 200, None, folded=folded)['tvd'] == pytest.approx(0.25)


def run_main(capsys, argv):
    """(exit code, stdout, stderr) of the tool's main()"""
    try:
        code = PE.main(argv)
    except SystemExit as err:
        code = err.code
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_input(capsys, tmp_path):
    """Bad input: one line naming the value and the reason, exit code 2"""
    counts = tmp_path / 'counts.txt'
    counts.write_text(counts_text(['40 1', 'zz 1']))
    elf = tmp_path / 'not-elf'
    elf.write_text('text')
    cases = [
        (['compare', '--elf', str(tmp_path / 'none')], 'the following arguments are required'),
        (['compare', '--elf', str(tmp_path / 'none'), '--counts', str(counts), '--data', 'x'],
         f"ELF {tmp_path / 'none'}: No such file"),
        (['compare', '--elf', str(elf), '--counts', str(counts), '--data', 'x'],
         f'ELF {elf}: Magic number does not match'),
        (['plugin-args', '--elf', str(elf), '--reloc-off', '0xq'], "--reloc-off '0xq': not a"),
        (['frobnicate'], "invalid choice: 'frobnicate'"),
        (['compare', '--elf', str(elf), '--counts', str(counts), '--data', 'x', '--top', 'x'],
         "invalid int value: 'x'"),
    ]
    for argv, why in cases:
        code, out, err = run_main(capsys, argv)
        assert (code, out, err.count('\n')) == (2, '', 1), (argv, err)
        assert err.startswith('perfrec_exact: ') and why in err, (argv, err)
    code, _, err = run_main(capsys, ['compare', '--elf', os.path.join(REPO, 'README.md'),
                                     '--counts', str(counts), '--data', 'x'])
    assert code == 2 and 'Magic number' in err
    try:
        code = PR.main(['--build-dir', 'b', '--out', 'o', '-c', 'ten'])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert (code, out) == (2, '')
    assert err == "perfrec_exact_run: argument -c/--period: invalid int value: 'ten'\n"


def test_run_parts():
    """perfrec_exact_run.py: bdinfo's offset, the board's commands, perfrec
    stat's count against the plugin's"""
    assert PR.reloc_of('relocaddr   = 0x000000007fe83000\nreloc off   = 0x000000007fe83000\n'
                       'Build       = 64-bit\n') == 0x7fe83000
    with pytest.raises(PE.BadInput, match='bdinfo: no "reloc off" line'):
        PR.reloc_of('relocaddr   = 0x000000007fe83000\n')
    args = PR.parse_args(['--build-dir', 'b', '--out', 'o', '-g', '--workload', 'crc32 0 10'])
    assert PR.board_commands(args, '/d/perf.data') == [
        'perfrec record -e cycles -c 10007 -g -o 0x50000000 -s 0x1000000 -H /d/perf.data '
        '-- "crc32 0 10"']
    args = PR.parse_args(['--build-dir', 'b', '--out', 'o', '--boot'])
    assert PR.board_commands(args, '/d/boot.data') == [
        'save hostfs - $fileaddr /d/boot.data $filesize']
    assert PR.STAT_COUNT.search('\n Performance counter stats for \'x\':\n\n'
                                '            63354882      instructions\n').group(1) == \
        '63354882'


# --- The plugin on QEMU ------------------------------------------------------

@pytest.fixture(name='fixture_elf', scope='module')
def fixture_elf_fixture(tmp_path_factory):
    """(ELF, raw image) of the bare-metal fixture, linked at 0 (QEMU's flash)"""
    out = tmp_path_factory.mktemp('fixture')
    src, elf, image = out / 'fixture.S', out / 'fixture.elf', out / 'fixture.bin'
    src.write_text(FIXTURE)
    subprocess.run([CROSS_COMPILE + 'gcc', '-nostdlib', '-static', '-Wl,-Ttext=0',
                    '-Wl,--build-id=none', '-o', str(elf), str(src)], check=True)
    subprocess.run([CROSS_COMPILE + 'objcopy', '-O', 'binary', str(elf), str(image)], check=True)
    return str(elf), str(image)


@pytest.fixture(name='plugin', scope='module')
def plugin_fixture(tmp_path_factory):
    """The plugin for QEMU 7.2 (API 1), built as perfrec_exact.py builds it"""
    return PE.build_plugin(str(tmp_path_factory.mktemp('plugin')), 1, HOSTCC)


def run_fixture(image, plugin_args):
    """QEMU's output running the fixture with the plugin and @plugin_args"""
    proc = subprocess.run([QEMU, '-M', 'virt', '-cpu', 'cortex-a57', '-m', '128M', '-nographic',
                           '-nic', 'none', '-monitor', 'none', '-semihosting',
                           '-icount', 'shift=0', '-bios', image,
                           '-plugin', ','.join(plugin_args)],
                          capture_output=True, text=True, timeout=20, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout + proc.stderr


def test_plugin_builds_for_each_api(tmp_path):
    """-Wall -Wextra -Werror clean for QEMU 7.2 (API 1) and for the later
    APIs whose declarations differ (3: qemu_plugin_insn_data() copies; 7: an
    atexit callback without the id); it exports the two symbols QEMU looks up"""
    for version in (1, 2, 3, 7):
        path = PE.build_plugin(str(tmp_path / str(version)), version, HOSTCC)
        dyn = subprocess.run(['nm', '-D', '--defined-only', path], capture_output=True,
                             text=True, check=True).stdout.split()
        assert {'qemu_plugin_install', 'qemu_plugin_version'} <= set(dyn)


def test_plugin_args(fixture_elf):
    """The window: from the instruction after pmuv3_start()'s enabling MSR to
    pmuv3_stop()'s disabling one; the vector table as the handler"""
    elf = fixture_elf[0]
    syms = PE.load_symbols(elf)
    start, stop, vectors = (syms.find(name) for name in ('pmuv3_start', 'pmuv3_stop',
                                                         'perfrec_vectors_el1'))
    assert PE.plugin_args(elf, 0, 'pmu') == [
        f'start={start + 8:#x}', f'stop={stop + 4:#x}', f'irq={vectors:#x}-{vectors + 0x800:#x}']
    assert PE.plugin_args(elf, 0x1000, 'boot') == [
        f'start={start + 8:#x}', f'stop={stop + 0x1004:#x}',
        f'irq={vectors:#x}-{vectors + 0x800:#x}',
        f'irq={vectors + 0x1000:#x}-{vectors + 0x1800:#x}']
    with pytest.raises(PE.BadInput, match='symbol perfrec_timer_start: not in the ELF'):
        PE.plugin_args(elf, 0, 'timer')


def test_compare_command(fixture_elf, tmp_path, monkeypatch, capsys):
    """compare end to end on the fixture's ELF, perf's reading given: the
    offset from the MMAP record, the text and JSON outputs, the TVD gate"""
    elf = fixture_elf[0]
    loop, mmio = (PE.load_symbols(elf).find(name) for name in ('loop', 'mmio'))
    counts = tmp_path / 'counts.txt'
    counts.write_text(counts_text([f'{loop:x} 600', f'{mmio + 0x7fe00000:x} 400']))
    perf = ([(0x7fe00000, 0x2000, 0x10000, '/u-boot')],
            {loop + 0x7fe00000: 70000, mmio: 30000}, 10, 0)
    monkeypatch.setattr(PE, 'perf_script', lambda data, symfs, tool: perf)
    monkeypatch.setattr(PE, 'load_segments', lambda path: [(0x10000, 0, 0x2000)])
    argv = ['compare', '--elf', elf, '--counts', str(counts), '--data', 'perf.data']
    code, out, _ = run_main(capsys, argv)
    assert code == 0 and out.startswith('TVD 0.10000 over 10 samples (10 after exclusion)')
    code, out, err = run_main(capsys, argv + ['--json', '--max-tvd', '0.05'])
    res = json.loads(out)
    assert (code, err) == (1, 'perfrec_exact: TVD 0.10000 is over 0.05\n')
    assert res['reloc_off'] == 0x7fe00000 and res['tvd'] == pytest.approx(0.1)
    assert {r['function']: round(r['diff_pct'], 6) for r in res['top']} == {
        'loop': 10, 'mmio': -10}
    assert run_main(capsys, argv + ['--reloc-off', '0x7fe00000', '--max-tvd', '0.1'])[0] == 0
    # Another offset: the relocated addresses fall outside the image
    code, out, _ = run_main(capsys, argv + ['--reloc-off', '0', '--json'])
    assert code == 0 and json.loads(out)['tvd'] == pytest.approx(0.6)


def test_plugin_counts_exactly(fixture_elf, plugin, tmp_path):
    """Each instruction of the window once (the MMIO load too, though QEMU
    re-runs it), the handler's apart, the total the PMU's cycles but the
    enabling MSR's own"""
    elf, image = fixture_elf
    out = tmp_path / 'counts.txt'
    text = run_fixture(image, [plugin, 'out=' + str(out)] + PE.plugin_args(elf, 0, 'pmu'))
    pmccntr = int(re.search(r'^([0-9a-f]{16})$', text, re.M).group(1), 16)
    counts, irq, meta = PE.read_counts(str(out))
    syms = PE.load_symbols(elf)
    pcs = {name: syms.find(name) for name in ('loop', 'mmio', 'pmuv3_stop',
                                              'perfrec_vectors_el1')}
    assert meta['state'] == ['done']
    assert meta['stopped_at'] == [f"{pcs['pmuv3_stop'] + 4:#x}"]
    body = range(pcs['loop'], pcs['loop'] + 24, 4)
    assert {pc: counts[pc] for pc in body} == dict.fromkeys(body, LOOPS)
    assert counts[pcs['mmio']] == LOOPS
    handler = range(pcs['perfrec_vectors_el1'] + 0x200, pcs['perfrec_vectors_el1'] + 0x20c, 4)
    assert irq == dict.fromkeys(handler, 1)
    assert sum(counts.values()) == int(meta['total'][0]) == 2 + 6 * LOOPS + 1 + 2 + 1
    assert pmccntr == sum(counts.values()) + sum(irq.values()) + 1
    assert PE.by_function(counts, syms, None) == {
        'pmuv3_start': 2, 'loop': 2 * LOOPS, 'mmio': 4 * LOOPS + 1, 'after': 2,
        'pmuv3_stop': 1}


def test_plugin_without_window(fixture_elf, plugin, tmp_path):
    """Without start= it counts from reset; a bad argument stops QEMU"""
    elf, image = fixture_elf
    out = tmp_path / 'counts.txt'
    run_fixture(image, [plugin, 'out=' + str(out)])
    counts, irq, meta = PE.read_counts(str(out))
    assert meta['state'] == ['counting'] and not irq
    assert counts[PE.load_symbols(elf).find('_start')] == 1
    assert counts[PE.load_symbols(elf).find('mmio')] == LOOPS
    proc = subprocess.run([QEMU, '-M', 'virt', '-nographic', '-nic', 'none', '-monitor', 'none',
                           '-bios', image, '-plugin', plugin + ',out=x,stop=0xnope'],
                          capture_output=True, text=True, timeout=20, check=False)
    assert proc.returncode != 0
    assert 'perfrec_insn_count: bad argument' in proc.stdout + proc.stderr
    assert 'stop=0xnope' in proc.stdout + proc.stderr
