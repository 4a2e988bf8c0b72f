#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec built into every Arm board a Debian release ships, resumably.

Usage:
    perfrec_board_builds.py build --src TREE --results DIR --work DIR
                                  [--verdict TOOL] [--only NAME]... [--jobs N]
    perfrec_board_builds.py table --results DIR [--check] FILE.rst

build: every arm64 and armhf target of TREE's debian/targets.mk (Debian's
u-boot source package) built with perfrec (scripts/perfrec_board.py, the
guide's fragment, binman's missing-blob option: Debian's BL31 and SCP blobs
are not here). One result file a board, DIR/<target>.json, keyed by
perfrec's inputs (a hash of every file the overlay puts into the tree, the
fragment and the build scripts) and the tree (its Debian version): a rerun
builds only the boards whose result is stale, so that the whole run (some
four hours on two cores) can be spread over several sittings; an
interrupted board leaves no result. A board that fails with perfrec is
built again without it, to tell perfrec's failures from the board's own.

table: the results as the reStructuredText table between '.. boards:start'
and '.. boards:end' of FILE.rst (--check: write nothing, exit 1 when the
table and the results disagree).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
# pylint: disable=wrong-import-position
import perfrec_overlay

FRAGMENT = os.path.join(TOP, 'configs', 'perfrec-board.config')
# What a build with perfrec depends on, beside the files the overlay copies
BUILD_INPUTS = ['configs/perfrec-board.config', 'scripts/perfrec_board.py',
                'scripts/perfrec_kconfig_deps.py', 'scripts/perfrec_overlay.py',
                'scripts/perfrec_overlay_lds.py']
# Of the host tools the overlay copies, those a board's result comes from
# (the post-link step's ELF reader, the symfs, the DTB verdict and its
# shim headers, tools/perfrec/host/)
TOOL_INPUTS = ['tools/perfrec/perfrec_elf.py', 'tools/perfrec/perfrec_symfs.py',
               'tools/perfrec/perfrec_verdict.c']
# The target list the results are of
TARGETS = 'targets.list'
# targets.mk's sections of the two Arm architectures perfrec samples
ARCHES = {'arm64': 'arm64', 'armhf': 'arm'}


def targets(tree):
    """[(target, Debian architecture, package)] of @tree's debian/targets.mk, in its order"""
    out, arch = [], None
    with open(os.path.join(tree, 'debian', 'targets.mk'), encoding='utf-8') as inf:
        for line in inf:
            mat = re.match(r'^(?:else )?ifeq \(\$\{DEB_HOST_ARCH\},(\w+)\)', line)
            if mat:
                arch = mat.group(1)
            elif line.startswith('endif'):
                arch = None
            mat = re.match(r'^\s+(u-boot-[\w-]+?)(?:-binaries)?_platforms \+= (\S+)', line)
            if mat and arch in ARCHES:
                out.append((mat.group(2), arch, mat.group(1)[len('u-boot-'):]))
    return out


def inputs_key():
    """A hash of what perfrec puts into a board's build"""
    digest = hashlib.sha256()
    files = [f for f in perfrec_overlay.project_files()
             if not f.startswith(('doc/', 'test/py/', 'tools/perfrec/')) or f in TOOL_INPUTS or
             f.startswith('tools/perfrec/host/')]
    for rel in sorted(files + BUILD_INPUTS):
        with open(os.path.join(TOP, rel), 'rb') as inf:
            digest.update(rel.encode() + b'\0' + hashlib.sha256(inf.read()).digest())
    return digest.hexdigest()[:16]


def tree_key(tree):
    """The tree's Debian version (or its U-Boot version)"""
    res = subprocess.run(['dpkg-parsechangelog', '-l', os.path.join(tree, 'debian/changelog'),
                          '-SVersion'], capture_output=True, text=True, check=False)
    return res.stdout.strip() or os.path.basename(tree)


def commit():
    """perfrec's commit (with '+' when the work tree differs)"""
    head = subprocess.run(['git', '-C', TOP, 'rev-parse', '--short=12', 'HEAD'],
                          capture_output=True, text=True, check=False).stdout.strip()
    dirty = subprocess.run(['git', '-C', TOP, 'status', '--porcelain', '--untracked-files=no'],
                           capture_output=True, text=True, check=False).stdout.strip()
    return head + ('+' if dirty else '')


def debian_defconfig(src, name, arch):
    """Make configs/@name_defconfig the way Debian does where targets.mk derives it
    from another (am335x_boneblack from am335x_evm, stm32mp157c-dk2 from
    stm32mp15_basic, by sed)"""
    rel = 'configs/%s_defconfig' % name
    if not os.path.exists(os.path.join(src, rel)):
        subprocess.run(['make', '-s', '-C', src, '-f', 'debian/targets.mk',
                        'DEB_HOST_ARCH=' + arch, rel], capture_output=True, check=False)


def run_board(args, name, fragments):
    """scripts/perfrec_board.py for @name; return (exit code, its output lines)"""
    out = os.path.join(args.work, name)
    shutil.rmtree(out, ignore_errors=True)
    cmd = ['/usr/bin/python3', os.path.join(TOP, 'scripts', 'perfrec_board.py'), '--src',
           args.src, '--out', out, '--defconfig', name + '_defconfig', '--jobs',
           str(args.jobs), '--uboot-flag', 'BINMAN_ALLOW_MISSING=1']
    cmd += [x for f in fragments for x in ('--fragment', f)]
    if args.ccache:
        cmd += ['--ccache', args.ccache]
    if args.verdict and fragments:
        cmd += ['--verdict', args.verdict]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return res.returncode, res.stdout.rstrip('\n').splitlines()


def parse_line(line):
    """The numbers of perfrec_board.py's line"""
    mat = re.match(r'^perfrec: \S+ \((\w+)\): (\S+) (\d+) bytes, perfrec (\d+) bytes of it '
                   r'\([\d.]+%[^)]*\)(?: and its symbol table (\d+))?, (.*)$', line)
    if not mat:
        return {}
    return {'arch': mat.group(1), 'image': os.path.basename(mat.group(2)),
            'image_bytes': int(mat.group(3)), 'perfrec_bytes': int(mat.group(4)),
            'table_bytes': int(mat.group(5) or 0),
            'blobs_missing': 'blobs missing' in mat.group(6),
            'limit': mat.group(6).split(';')[0]}


def build_one(args, name, arch, family, key):
    """Build @name with perfrec (and without, if that failed); return its result"""
    start = time.time()
    result = dict(key, board=name, debian_arch=arch, family=family, commit=commit())
    debian_defconfig(args.src, name, arch)
    code, lines = run_board(args, name, [FRAGMENT])
    if code == 0:
        result.update(parse_line(lines[0]), status='built',
                      verdict=lines[2:])
    else:
        result['error'] = lines[-1][len('perfrec: '):] if lines else 'no output'
        code, plain = run_board(args, name, [])
        built = code == 0
        result['status'] = 'failed' if built else 'board fails'
        if not built:
            result['plain_error'] = plain[-1][len('perfrec: '):] if plain else 'no output'
    result['seconds'] = round(time.time() - start)
    shutil.rmtree(os.path.join(args.work, name), ignore_errors=True)
    return result


def write_targets(results, boards, tree):
    """The target list the table must cover: DIR/targets.list"""
    with open(os.path.join(results, TARGETS), 'w', encoding='utf-8') as outf:
        outf.write('# Debian\'s u-boot %s: target, Debian architecture, family\n' % tree)
        outf.writelines('%s %s %s\n' % board for board in boards)


def read_targets(results):
    """[(target, Debian architecture, family)] of DIR/targets.list"""
    with open(os.path.join(results, TARGETS), encoding='utf-8') as inf:
        return [tuple(line.split()) for line in inf if not line.startswith('#')]


def build(args):
    """Build every stale board; return the exit code"""
    os.makedirs(args.results, exist_ok=True)
    key = {'perfrec_inputs': inputs_key(), 'tree': tree_key(args.src)}
    listed = targets(args.src)
    write_targets(args.results, listed, key['tree'])
    boards = [b for b in listed if not args.only or b[0] in args.only]
    todo = []
    for name, arch, family in boards:
        path = os.path.join(args.results, name + '.json')
        if os.path.exists(path):
            with open(path, encoding='utf-8') as inf:
                old = json.load(inf)
            if all(old.get(k) == v for k, v in key.items()):
                continue
        todo.append((name, arch, family))
    print('perfrec: %d of %d boards to build (%s; perfrec inputs %s)' %
          (len(todo), len(boards), key['tree'], key['perfrec_inputs']), flush=True)
    for idx, (name, arch, family) in enumerate(todo):
        result = build_one(args, name, arch, family, key)
        path = os.path.join(args.results, name + '.json')
        with open(path + '.tmp', 'w', encoding='utf-8') as outf:
            json.dump(result, outf, indent=1, sort_keys=True)
            outf.write('\n')
        os.replace(path + '.tmp', path)
        print('perfrec: [%d/%d] %s: %s (%d s)%s' %
              (idx + 1, len(todo), name, result['status'], result['seconds'],
               ': ' + result['error'] if 'error' in result else ''), flush=True)
    return 0


def load(results):
    """A row for every target of DIR/targets.list: its result, or one that says it
    has none yet; sorted by architecture, family and board"""
    rows = []
    for name, arch, family in read_targets(results):
        path = os.path.join(results, name + '.json')
        if os.path.exists(path):
            with open(path, encoding='utf-8') as inf:
                rows.append(json.load(inf))
        else:
            rows.append({'board': name, 'debian_arch': arch, 'family': family,
                         'status': 'not built yet'})
    return sorted(rows, key=lambda r: (r['debian_arch'], r['family'], r['board']))


# A failure that says the board has no core perfrec samples (a Cortex-R5's
# SPL, an Armv5): perfrec does not apply there, rather than failing
NOT_A_CORE = re.compile(r'did not stick: .* this board has not \(ARM64 \|\| CPU_V7A\)$')


def status(row):
    """The row's status, with a failure on a core perfrec does not sample told apart"""
    if row['status'] == 'failed' and NOT_A_CORE.search(row['error']):
        return 'not applicable'
    return row['status']


def verdict_cell(row):
    """The DTB verdict's sampler, in short (or why there is none)"""
    lines = row.get('verdict') or []
    for line in lines:
        if line.startswith('sampler: '):
            return line[len('sampler: '):]
    return lines[-1] if lines else ''


def result_cell(row):
    """What the build gave: the image and its size, or the first error"""
    if row['status'] == 'built':
        text = '``%s`` %d' % (row['image'], row['image_bytes'])
        return text + (' (not bootable: blobs missing)' if row.get('blobs_missing') else '')
    if row['status'] == 'board fails':
        return 'fails without perfrec too: %s' % row['plain_error']
    if status(row) in ('not built yet', 'not applicable'):
        return status(row) + ('' if row['status'] == 'not built yet' else
                              ': no AArch64 or Armv7-A core (%s)' % row['error'])
    return 'perfrec fails: %s' % row['error']


def summary(rows):
    """The table's first paragraph: how many built, and the ratio asked for"""
    done = [r for r in rows if r['status'] != 'not built yet']
    apart = [r for r in done if status(r) == 'not applicable']
    plain = [r for r in done if status(r) in ('built', 'failed')]
    built = [r for r in plain if r['status'] == 'built']
    trees = sorted({r['tree'] for r in done})
    keys = sorted({r['perfrec_inputs'] for r in done})
    return textwrap.wrap(
        '%d targets of Debian\'s u-boot %s (arm64 and armhf), %d of them built so far. Of '
        'the %d that build without perfrec and have a core it samples, %d build with it '
        '(%.1f%%); %d fail by themselves; %d have no AArch64 or Armv7-A core. perfrec\'s '
        'inputs: %s.' %
        (len(rows), ', '.join(trees) or 'its newest release', len(done), len(plain),
         len(built), 100.0 * len(built) / len(plain) if plain else 0.0,
         len(done) - len(plain) - len(apart), len(apart), ', '.join(keys) or 'none yet'), 79)


def table(rows):
    """The reStructuredText of the results"""
    lines = summary(rows) + ['', '.. list-table::', '   :header-rows: 1', '']
    head = ['Board', 'Arch', 'Family', 'Result', 'perfrec bytes', 'DTB verdict']
    for row in [head] + [[r['board'], r['debian_arch'], r['family'], result_cell(r),
                          '%d + %d' % (r['perfrec_bytes'], r['table_bytes'])
                          if r['status'] == 'built' else '', verdict_cell(r)] for r in rows]:
        for i, cell in enumerate(row):
            cell = cell.replace('*', '\\*').replace('|', '\\|') if i != 3 else cell
            lines.append(('   * - ' if i == 0 else '     - ') + (cell or '--'))
    return lines


def splice(path, lines, check):
    """Put @lines between the page's markers; with @check only compare. Return the exit code"""
    with open(path, encoding='utf-8') as inf:
        text = inf.read().split('\n')
    try:
        start, end = text.index('.. boards:start'), text.index('.. boards:end')
    except ValueError:
        print('perfrec_board_builds: %s has no ".. boards:start" and ".. boards:end" lines' %
              path)
        return 1
    new = text[:start + 1] + [''] + lines + [''] + text[end:]
    if new == text:
        return 0
    if check:
        print('perfrec_board_builds: the table in %s and the results disagree: run '
              'make board-table' % path)
        return 1
    with open(path, 'w', encoding='utf-8') as outf:
        outf.write('\n'.join(new))
    return 0


def main(argv=None):
    """Build or write the table; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    sub = parser.add_subparsers(dest='action', required=True)
    bld = sub.add_parser('build', help='build the stale boards')
    bld.add_argument('--src', required=True, help='the overlaid tree of Debian\'s source')
    bld.add_argument('--results', required=True, help='one result file a board')
    bld.add_argument('--work', required=True, help='where each board builds (then removed)')
    bld.add_argument('--verdict', help='the DTB verdict tool')
    bld.add_argument('--only', action='append', help='just this target (again: more)')
    bld.add_argument('--jobs', type=int, default=os.cpu_count())
    bld.add_argument('--ccache', help='compile through ccache, with this cache directory')
    tab = sub.add_parser('table', help='write the results\' table into the page')
    tab.add_argument('--results', required=True)
    tab.add_argument('--check', action='store_true', help='write nothing, compare')
    tab.add_argument('page', help='the .rst page with the marker lines')
    args = parser.parse_args(argv)
    if args.action == 'build':
        args.src, args.work = os.path.abspath(args.src), os.path.abspath(args.work)
        return build(args)
    return splice(args.page, table(load(args.results)), args.check)


if __name__ == '__main__':
    sys.exit(main())
