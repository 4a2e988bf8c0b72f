#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Write the developer page's tables that describe the code, from the code.

Usage:
    perfrec_doc_tables.py [--check] FILE.rst

Four reStructuredText fragments, each between the comment lines
'.. NAME:start' and '.. NAME:end' of FILE.rst (a blank line after the start
line and one before the end line; every byte outside them is kept):

- overlay-edits: the overlay's edits to U-Boot's own files, and what it
  copies (EDITS, DIRS and FILES of scripts/perfrec_overlay.py);
- series: the upstream patch series, one row a patch (PARTS of
  scripts/perfrec_series.py, its files and edits as its assign() gives them);
- cells: the QEMU cells each U-Boot release runs, and the make target that
  runs it (the Makefile's variables as make itself expands them, in a clean
  environment; the cells' QEMU options from scripts/perfrec_run_tests.py);
- packages: the Debian packages the project installs and what for
  (scripts/perfrec-deps.sh --list).

Which Makefile variable feeds which release is this script's knowledge
(CELL_GUARDS): every recipe text it relies on is looked up in the Makefile
first, so that a change there stops it with what to update here, rather
than giving a wrong table.

Without --check FILE.rst is rewritten when a fragment differs; with --check
nothing is written and the exit code is 1, with a unified diff of each
stale fragment, when one differs (0 when all are up to date). A marker
missing, doubled or out of order: exit 1, naming it, and the file is left
as it was.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import textwrap

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))

# pylint: disable=wrong-import-position
import perfrec_overlay  # noqa: E402
import perfrec_run_tests  # noqa: E402
import perfrec_series  # noqa: E402

NAMES = ('overlay-edits', 'series', 'cells', 'packages')
WIDTH = 79
MAKEFILE = os.path.join(TOP, 'Makefile')
DEPS = os.path.join(TOP, 'scripts', 'perfrec-deps.sh')

# The Makefile's variables the cells fragment shows (make expands them)
MAKE_VARS = ('UBOOT_SUITE', 'CELLS', 'DEFAULT_CELLS', 'EARLY_CELLS', 'SPL_CELLS',
             'SMALLEST_CELLS', 'NEWEST_SUITE', 'MIDDLE_SUITE', 'MIDDLE_CELLS',
             'MIDDLE_EARLY_CELLS', 'MASTER_CELLS', 'UPSTREAM_CELLS', 'UPSTREAM_EARLY_CELLS',
             'REAL_BOARDS', 'ARM32_CELLS', 'UPSTREAM_ARM32_CELLS', 'ARM32_THUMB_CELLS',
             'ARM32_NO_EL1_CELLS')
MAKE_TARGET = 'perfrec-doc-tables-vars'
MAKE_PREFIX = 'perfrec-doc-var '

# What the cells fragment takes for granted in the Makefile: (target, text)
# that its recipe (its rule line with continuations, for a target's own
# variable) holds, whitespace aside
CELL_GUARDS = [
    ('check-all', 'check-all: CELLS = $(DEFAULT_CELLS)'),
    ('check-all', 'check-qemu'),
    ('check-all', 'check-releases'),
    ('check-qemu', '$(foreach c,$(CELLS),--cell $(c))'),
    ('check-qemu', '$(foreach c,$(EARLY_CELLS),--early-cell $(c))'),
    ('check-qemu', '--also-spl $(RELEASE_NAME) $(SRC) $(SPL_O)'),
    ('check-qemu', '$(subst $(space),$(comma),$(strip $(SPL_CELLS)))'),
    ('check-qemu', '$(subst $(space),$(comma),$(strip $(SMALLEST_CELLS)))'),
    ('check-qemu', '--also-arm32 $(RELEASE_NAME) $(SRC) $(ARM32_O)'),
    ('check-qemu', '$(subst $(space),$(comma),$(strip $(ARM32_CELLS)))'),
    ('check-qemu', '$(subst $(space),$(comma),$(strip $(ARM32_THUMB_CELLS)))'),
    ('check-qemu', '--also-arm32 $(RELEASE_NAME)-no-el1 $(SRC) $(ARM32_NO_EL1_O)'),
    ('check-qemu', '$(subst $(space),$(comma),$(strip $(ARM32_NO_EL1_CELLS)))'),
    ('check-releases', 'newest=$(NEWEST)'),
    ('check-releases', '$(MAKE) UBOOT_SUITE=$(MIDDLE_SUITE) LEAN=1 build'),
    ('check-releases', 'CELLS="$(MIDDLE_CELLS)" EARLY_CELLS="$(MIDDLE_EARLY_CELLS)" ARM32_CELLS= '
     'run-args'),
    ('check-releases', '$(MAKE) UBOOT_SRC=$(MASTER_SRC) LEAN=1 build'),
    ('check-releases', 'CELLS="$(MASTER_CELLS)" EARLY_CELLS= ARM32_CELLS= run-args'),
    ('check-releases', '$(MAKE) $$newest SPL_CELLS= SMALLEST_CELLS= ARM32_THUMB_CELLS= '
     'ARM32_NO_EL1_CELLS= build check-qemu'),
    ('check-upstream', '$(MAKE) UBOOT_SRC=$(MASTER_SRC) LEAN=1 build '
     '$(if $(UPSTREAM_ARM32_CELLS),build-arm32)'),
    ('check-upstream', 'CELLS="$(UPSTREAM_CELLS)" EARLY_CELLS= '
     'ARM32_CELLS="$(UPSTREAM_ARM32_CELLS)" run-args'),
    ('check-upstream', '$(MAKE) UBOOT_SRC=$(NEWEST_SRC) LEAN=1 CELLS="$(UPSTREAM_CELLS)" '
     'EARLY_CELLS="$(UPSTREAM_EARLY_CELLS)" SPL_CELLS= SMALLEST_CELLS= '
     'ARM32_CELLS="$(UPSTREAM_ARM32_CELLS)" ARM32_THUMB_CELLS= ARM32_NO_EL1_CELLS= check-qemu'),
    ('check-real-boards', 'for bc in $(REAL_BOARDS); do'),
]
# The releases check-real-boards loops over, before the newest
REAL_RELEASES = re.compile(r'for args in ((?:\S+ )*)\$\$newest; do')


class DocError(Exception):
    """What stops the tables: a marker, the Makefile, a script's output"""


def esc(text):
    """@text escaped for reStructuredText's inline markup"""
    out = []
    for i, char in enumerate(text):
        nxt = text[i + 1:i + 2]
        if char in '\\*`|' or (char == '_' and not (nxt.isalnum() or nxt == '_')):
            out.append('\\')
        out.append(char)
    return ''.join(out)


# The page the tables go in names itself as such (checkpatch warns of a
# file that names its own path)
PAGE = 'doc/develop/perfrec.rst'


def lit(text):
    """@text as an inline literal; the page itself as 'this page'"""
    return 'this page' if text == PAGE else f'``{text}``'


def lits(items):
    """@items as inline literals, comma-separated"""
    return ', '.join(lit(item) for item in items)


def wrap(text, first, rest=None):
    """@text as lines of at most WIDTH columns, the first after @first, the
    others after @rest (as many spaces as @first by default); a word (an
    inline literal) is never broken"""
    return textwrap.wrap(text, WIDTH, initial_indent=first,
                         subsequent_indent=' ' * len(first) if rest is None else rest,
                         break_long_words=False, break_on_hyphens=False)


def list_table(header, rows):
    """A list-table of @header and @rows (lists of cells of inline text)"""
    lines = ['.. list-table::', '   :header-rows: 1', '']
    for row in [header] + rows:
        for i, cell in enumerate(row):
            lines += wrap(cell or 'none', '   * - ' if i == 0 else '     - ', ' ' * 7)
    return lines


def join(blocks):
    """The fragment of @blocks (lists of lines), a blank line between two"""
    return '\n\n'.join('\n'.join(block) for block in blocks)


def overlay_fragment():
    """The overlay's edits to U-Boot's files, then what it copies"""
    rows = [[lit(edit[0]), esc(edit[1])] for edit in perfrec_overlay.EDITS]
    dirs = lits(d + '/' for d in perfrec_overlay.DIRS)
    copies = (f'It copies these directories to the same place in the tree, as they are: '
              f'{dirs}; and these files: {lits(perfrec_overlay.FILES)} (``DIRS`` and '
              f'``FILES``).')
    boards = ('A board that links with a script of its own (CONFIG_SYS_LDSCRIPT, or '
              '``board/<vendor>/<board>/u-boot.lds``) gets the same build-id block as '
              'Arm\'s common scripts, in every such Arm script of the tree, after its '
              'EFI runtime relocations or else before the end of what relocation copies '
              '(``scripts/perfrec_overlay_lds.py``).')
    return join([list_table(['file', 'edit'], rows), wrap(boards, ''), wrap(copies, '')])


def series_fragment():
    """The patch series: number, subject, and the files, edits and options
    of each patch"""
    _, edits = perfrec_series.assign(perfrec_series.PARTS)
    rows = []
    for idx, part in enumerate(perfrec_series.PARTS):
        edited = []
        for eidx, owner in sorted(edits.items()):
            path = perfrec_overlay.EDITS[eidx][0]
            if owner == idx and path not in edited:
                edited.append(path)
        holds = [('files', part.files), ("edits of U-Boot's", edited),
                 ('options', part.symbols)]
        rows.append([str(idx + 1), esc(part.subject),
                     '; '.join(f'{what}: {lits(items)}' for what, items in holds if items)])
    return join([list_table(['#', 'patch', 'what it holds'], rows)])


def packages_fragment():
    """The Debian packages perfrec-deps.sh installs, and what for"""
    try:
        res = subprocess.run([DEPS, '--list'], capture_output=True, text=True, check=False)
    except OSError as exc:
        raise DocError(f'{DEPS} --list: {exc}') from exc
    rows = [line.split('\t') for line in res.stdout.splitlines()]
    if res.returncode or not rows or any(len(row) != 2 or not row[0] for row in rows):
        said = (res.stderr or res.stdout).strip()[-500:]
        raise DocError(f'{DEPS} --list: exit {res.returncode}, not one '
                       f'"<package><TAB><reason>" a line: {said}')
    return join([list_table(['package', 'for'], [[lit(name), esc(why)] for name, why in rows])])


def make_vars(names, overrides=()):
    """{name: value} of the Makefile's variables @names, as make expands them
    with @overrides (NAME=value) on its command line and nothing from the
    environment (MAKEFLAGS, a variable a shell exported) in the way"""
    show = f'$(info {MAKE_PREFIX}$(v) $(origin $(v)) $($(v)))'
    snippet = f'{MAKE_TARGET}:\n\t@:\n$(foreach v,{" ".join(names)},{show})\n'
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'LC_ALL': 'C'}
    try:
        res = subprocess.run(['make', '-s', '--no-print-directory', '-f', MAKEFILE, '-f', '-']
                             + list(overrides) + [MAKE_TARGET], cwd=TOP, env=env,
                             input=snippet, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise DocError(f'make: {exc}') from exc
    if res.returncode:
        raise DocError(f"make could not give the Makefile's variables (exit {res.returncode}): "
                       f'{res.stderr.strip()[-500:]}')
    found = {}
    for line in res.stdout.splitlines():
        if line.startswith(MAKE_PREFIX):
            name, origin, value = (line[len(MAKE_PREFIX):] + ' ').split(' ', 2)
            if origin == 'undefined':
                raise DocError(f'the Makefile has no variable {name} (the cells table shows it)')
            found[name] = value.split()
    missing = [name for name in names if name not in found]
    if missing:
        raise DocError(f'make did not print {", ".join(missing)}')
    return found


def recipe(text, target):
    """The rule of @target in the Makefile @text, its recipe and its own
    variables, whitespace and line continuations made single spaces"""
    lines = text.splitlines()
    own = [line for line in lines if re.match(re.escape(target) + r':\s*\w+\s*[:+?]?=', line)]
    rule = [i for i, line in enumerate(lines)
            if line.startswith(target + ':') and line not in own]
    if len(rule) != 1:
        raise DocError(f'Makefile: {len(rule)} rules of {target}')
    end = rule[0]
    while end < len(lines) and lines[end].strip():
        end += 1
    body = '\n'.join(own + lines[rule[0]:end]).replace('\\\n', ' ')
    return ' '.join(body.split())


def check_guards(text):
    """Raise DocError if the Makefile @text lacks what CELL_GUARDS expect"""
    for target, needle in CELL_GUARDS:
        if ' '.join(needle.split()) not in recipe(text, target):
            raise DocError(f'Makefile: {target} no longer has "{needle}": the cells table '
                           '(perfrec_doc_tables.py, CELL_GUARDS) needs updating')


def cells_of(var, values):
    """The cells of Makefile variable @var (in @values), named, with the variable"""
    cells = values[var]
    if not cells and var == 'CELLS':
        cells = list(perfrec_run_tests.CELLS)
        return f'every one ({len(cells)}): {lits(cells)} (``CELLS`` empty)'
    return f'{lits(cells) if cells else "none"} (``{var}``)'


def others(values, *kinds):
    """The other builds' cells: @kinds are (label, variable) pairs"""
    return '; '.join(f'{label}: {cells_of(var, values)}' for label, var in kinds)


def virt_cells():
    """Rows of the QEMU virt cells: EL, GIC and QEMU's options, checked
    against the cell's name when it says them"""
    rows = []
    for name, (machine, icount, smp, cpu) in perfrec_run_tests.CELLS.items():
        opts = machine.split(',')
        exc_level = 3 if 'secure=on' in opts else 2 if 'virtualization=on' in opts else 1
        gic = 3 if 'gic-version=3' in opts else 2
        named = re.match(r'el(\d)-gicv(\d)', name)
        if named and (int(named.group(1)), int(named.group(2))) != (exc_level, gic):
            raise DocError(f'perfrec_run_tests.py: cell {name} runs EL{exc_level} with '
                           f'GICv{gic} (-M {machine})')
        rows.append([lit(name), str(exc_level), f'v{gic}', lit(machine),
                     lit(icount) if icount else 'off', str(smp), lit(cpu)])
    return rows


def arm32_cells():
    """Rows of the 32-bit Arm cells"""
    return [[lit(name), 'Hyp' if 'virtualization=on' in machine else 'SVC', lit(machine),
             lit(icount), lit(cpu)]
            for name, (machine, icount, cpu) in perfrec_run_tests.ARM32_CELLS.items()]


def board_cells():
    """Rows of the real boards' cells"""
    return [[lit(name), lit(cell['board']), lit(cell['machine']), lit(cell['icount']),
             "the ``make lab-host`` chroot's" if cell.get('lab') else "the host's"]
            for name, cell in perfrec_run_tests.BOARD_CELLS.items()]


def cells_fragment():
    """The cells each release runs and the make target that runs them, then
    what each cell is"""
    with open(MAKEFILE, encoding='utf-8') as inf:
        text = inf.read()
    check_guards(text)
    real = REAL_RELEASES.search(recipe(text, 'check-real-boards'))
    if not real:
        raise DocError('Makefile: check-real-boards no longer loops "for args in ... '
                       '$$newest": the cells table (perfrec_doc_tables.py) needs updating')
    val = make_vars(MAKE_VARS)
    with_newest = make_vars(['MIDDLE_EARLY_CELLS'], ['NEWEST_SRC=/newest'])
    early, spl, smallest = (('early-boot', 'EARLY_CELLS'), ('SPL', 'SPL_CELLS'),
                            ('smallest', 'SMALLEST_CELLS'))
    arm32 = ('32-bit Arm', 'ARM32_CELLS')
    thumb = ('32-bit Arm in Thumb-2', 'ARM32_THUMB_CELLS')
    no_el1 = ('32-bit Arm without SVC mode', 'ARM32_NO_EL1_CELLS')
    up_arm32 = ('32-bit Arm', 'UPSTREAM_ARM32_CELLS')
    middle_early = cells_of('MIDDLE_EARLY_CELLS', val)
    if with_newest['MIDDLE_EARLY_CELLS'] != val['MIDDLE_EARLY_CELLS']:
        middle_early += f', {lits(with_newest["MIDDLE_EARLY_CELLS"]) or "none"} with ' \
            '``NEWEST_SRC=``'
    boards = '; '.join(f'{lit(board)}: {lits(cells.split(","))}'
                       for board, cells in (bc.split('=', 1) for bc in val['REAL_BOARDS']))
    rows = [
        ['``make check``', f'Debian {lits(val["UBOOT_SUITE"])} (``UBOOT_SUITE``), the default',
         cells_of('DEFAULT_CELLS', val), others(val, early, spl, smallest, arm32, thumb, no_el1)],
        ['``make check``', f'the newest: ``NEWEST_SRC=``, else Debian {lits(val["NEWEST_SUITE"])} '
         f'(``NEWEST_SUITE``), else {lits(val["MIDDLE_SUITE"])} stands in',
         cells_of('CELLS', val), others(val, early, arm32)],
        ['``make check``', f'Debian {lits(val["MIDDLE_SUITE"])} (``MIDDLE_SUITE``) when it does '
         'not stand in for the newest; lean',
         cells_of('MIDDLE_CELLS', val), 'early-boot: ' + middle_early],
        ['``make check MASTER_SRC=``', '``MASTER_SRC``; lean', cells_of('MASTER_CELLS', val), ''],
        ['``make check-upstream``', '``NEWEST_SRC``; lean', cells_of('UPSTREAM_CELLS', val),
         others(val, ('early-boot', 'UPSTREAM_EARLY_CELLS'), up_arm32)],
        ['``make check-upstream``', '``MASTER_SRC``; lean', cells_of('UPSTREAM_CELLS', val),
         others(val, up_arm32)],
        ['``make check-qemu``', 'the one chosen (``UBOOT_SUITE=``, ``UBOOT_SRC=``; '
         '``LEAN=1``: lean)', cells_of('CELLS', val),
         others(val, early, spl, smallest, arm32, thumb, no_el1)],
        ['``make check-real-boards``',
         f"{lits(real.group(1).split())} and the newest, each board's own build"
         if real.group(1) else "the newest, ``make check-boards``' builds",
         boards + ' (``REAL_BOARDS``)', ''],
    ]
    return join([
        list_table(['target', 'U-Boot release', "the test build's cells",
                    "other builds' cells"], rows),
        wrap('The QEMU virt cells (``CELLS`` of ``scripts/perfrec_run_tests.py``):', ''),
        list_table(['cell', 'EL', 'GIC', '``-M``', '``-icount``', '``-smp``', '``-cpu``'],
                   virt_cells()),
        wrap('The 32-bit Arm cells (``ARM32_CELLS`` of the same script), qemu_arm_defconfig '
             'through ``qemu-system-arm``, 512 MiB:', ''),
        list_table(['cell', 'mode', '``-M``', '``-icount``', '``-cpu``'], arm32_cells()),
        wrap("The real boards' cells (``BOARD_CELLS`` of the same script), on the boards' "
             'defconfigs:', ''),
        list_table(['cell', 'board', '``-M``', '``-icount``', 'QEMU'], board_cells()),
    ])


def fragments():
    """{name: its reStructuredText, no blank line at either end} for NAMES"""
    makers = {'overlay-edits': overlay_fragment, 'series': series_fragment,
              'cells': cells_fragment, 'packages': packages_fragment}
    try:
        return {name: makers[name]() for name in NAMES}
    except SystemExit as exc:       # perfrec_series.assign() refusing PARTS
        raise DocError(str(exc)) from exc


def find_markers(lines):
    """{name: (start line index, end line index)} of every fragment in @lines

    Raises DocError naming each marker that is missing, doubled or after its
    end, and fragments that overlap.
    """
    stripped = [line.rstrip() for line in lines]
    spans, problems = {}, []
    for name in NAMES:
        start, end = f'.. {name}:start', f'.. {name}:end'
        counts = (stripped.count(start), stripped.count(end))
        if counts != (1, 1):
            problems.append(f'needs exactly one line "{start}" and one "{end}", has '
                            f'{counts[0]} and {counts[1]}')
        elif stripped.index(end) < stripped.index(start):
            problems.append(f'"{end}" comes before "{start}"')
        else:
            spans[name] = (stripped.index(start), stripped.index(end))
    order = sorted(spans.items(), key=lambda item: item[1])
    for (one, span), (other, next_span) in zip(order, order[1:]):
        if next_span[0] < span[1]:
            problems.append(f'{other} is inside {one}')
    if problems:
        raise DocError('; '.join(problems))
    return spans


def splice(text, frags):
    """(new text, [(name, old lines, new lines)] of what differs) of @text
    with @frags between their markers"""
    lines = text.split('\n')
    spans = find_markers(lines)
    stale = []
    for name, (start, end) in sorted(spans.items(), key=lambda item: -item[1][0]):
        eol = '\r' if lines[start].endswith('\r') else ''
        new = [''] + frags[name].split('\n') + ['']
        new = [line + eol for line in new]
        if lines[start + 1:end] != new:
            stale.append((name, lines[start + 1:end], new))
            lines[start + 1:end] = new
    return '\n'.join(lines), sorted(stale, key=lambda item: NAMES.index(item[0]))


def main(argv=None):
    """Rewrite or check FILE.rst's tables; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--check', action='store_true',
                        help='write nothing; exit 1 with a diff if a table is stale')
    parser.add_argument('file', help='the .rst file with the marker lines')
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding='utf-8', newline='') as inf:
            text = inf.read()
        find_markers(text.split('\n'))
        new, stale = splice(text, fragments())
    except (OSError, UnicodeDecodeError, DocError) as exc:
        print(f'perfrec_doc_tables: {args.file}: {exc}', file=sys.stderr)
        return 1
    names = ', '.join(name for name, _, _ in stale)
    if args.check:
        for name, old, now in stale:
            sys.stdout.writelines(difflib.unified_diff(
                [line + '\n' for line in old], [line + '\n' for line in now],
                f'{args.file} ({name}, as it is)', f'{args.file} ({name}, from the code)'))
        if stale:
            print(f'perfrec_doc_tables: {args.file}: stale: {names} (make doc-tables writes '
                  'them)', file=sys.stderr)
            return 1
        return 0
    if stale:
        with open(args.file, 'w', encoding='utf-8', newline='') as outf:
            outf.write(new)
        print(f'perfrec_doc_tables: {args.file}: wrote {names}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
