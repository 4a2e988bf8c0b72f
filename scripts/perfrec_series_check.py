#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Check the patch series perfrec_series.py wrote: apply, bisect, checkpatch, docs, pylint

Usage:
    perfrec_series_check.py check --base <pristine tree> --work <dir> --out <dir> \\
        --cross-compile <prefix> --fragments <config>... [--sandbox-fragment <config>]

'check' applies the patches with 'git am' to another copy of the pristine
tree, compares the result with the written series, builds every commit
(qemu_arm64 with perfrec's fragments) and the last one for sandbox too
(sandbox_defconfig, with --sandbox-fragment merged if given), where
perfrec's 'ut lib' tests run, runs checkpatch on every patch on its own,
kernel-doc and Sphinx on perfrec's documentation, and pylint (U-Boot's
rules, docparams) on its Python. Each check prints one line per problem it
finds; the exit code is 1 when any check found one.
"""

import concurrent.futures
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import perfrec_get_uboot
import perfrec_series
import perfrec_unpack_uboot
from perfrec_series import base_commit, git

TOP = perfrec_series.TOP

SPHINX_CONF = '''# perfrec_series_check: U-Boot's doc/conf.py without missing extensions
import importlib.util
import os
import sys
_DOC = %r
sys.path.insert(0, os.path.join(_DOC, 'sphinx'))
_CWD = os.getcwd()
os.chdir(_DOC)
with open('conf.py', encoding='utf-8') as inf:
    exec(compile(inf.read(), os.path.join(_DOC, 'conf.py'), 'exec'))
os.chdir(_CWD)
kerneldoc_bin = os.path.join(_DOC, '..', 'scripts', 'kernel-doc')
kerneldoc_srctree = os.path.join(_DOC, '..')
html_static_path = [os.path.join(_DOC, p) for p in html_static_path]
if html_logo:
    html_logo = os.path.join(_DOC, html_logo)
# binman_docs writes binman's pages into the source tree it is given
extensions = [e for e in extensions if e != 'binman_docs' and
              (e.startswith('sphinx.') or importlib.util.find_spec(e) is not None)]
'''

PYLINTRC = '[MASTER]\nload-plugins=pylint.extensions.docparams\n'


def patches(out):
    """Return the series' patch files, without the cover letter"""
    return sorted(os.path.abspath(p) for p in glob.glob(os.path.join(out, '*.patch'))
                  if not os.path.basename(p).startswith('0000-'))


def base_name(base):
    """What the base tree is, from its stamp: 'master 6073c36b2c8
    (u-boot-master-6073c36b2c8.tar.xz)', 'u-boot-2026.07.tar.xz', 'Debian
    trixie's u-boot 2025.01', else the folder"""
    for stamp in (perfrec_unpack_uboot.STAMP, perfrec_get_uboot.STAMP):
        path = os.path.join(base, stamp)
        if not os.path.isfile(path):
            continue
        with open(path, encoding='utf-8') as inf:
            words = inf.read().split()
        if stamp == perfrec_get_uboot.STAMP and len(words) == 2:
            return "Debian %s's u-boot %s" % tuple(words)
        commit = words and perfrec_unpack_uboot.master_commit(words[0])
        if commit:
            return 'master %s (%s)' % (commit, words[0])
        if words:
            return words[0]
    return base


def apply(args, tree):
    """Apply the patches with git am to a fresh copy of the base; return problems"""
    perfrec_series.git_init(args.base, tree)
    res = subprocess.run(['git', 'am', '-q'] + patches(args.out), cwd=tree,
                         env=perfrec_series.git_env(), capture_output=True, text=True,
                         check=False)
    if res.returncode:
        return ['git am failed: %s' % (res.stdout + res.stderr).strip()[-2000:]]
    written = git(os.path.join(args.work, 'series'), 'rev-parse', 'HEAD^{tree}')
    applied = git(tree, 'rev-parse', 'HEAD^{tree}')
    if written != applied:
        return ['the applied series (tree %s) differs from the written one (%s)' %
                (applied, written)]
    return []


# What checkpatch says that the series keeps, by message type and file, and why
ACCEPTED = [
    ('PREFER_IF', 'common/board_f.c',
     "board_f.c's list of steps wraps every optional one in #if (TRACE_EARLY's "
     "too): an array entry cannot be an if (), and initcall_run_f() asks for none"),
    ('PREFER_IF', 'board/emulation/qemu-arm/qemu-arm.c',
     "the SPL test vehicle's functions exist in SPL only (spl_boot_device(), "
     "board_init_f(), save_boot_params()): a definition cannot be an if (); "
     "qemu-riscv.c guards its spl_boot_device() the same way"),
    ('PREFER_IF', 'cmd/perfrec.c',
     "the help names only what the build has, and a string literal cannot be an "
     "if (): cmd/mmc.c's help does the same"),
    ('MACRO_ARG_UNUSED', 'drivers/perf/pmuv3_events.c',
     "the event table is an X-macro: each expander takes the list's three fields "
     "(number, name, description) and uses the ones it lays out"),
    ('PREFER_IF', 'drivers/perf/pmuv3_events.c',
     "the event table builds for the host too (USE_HOSTCC), where there is no "
     "IS_ENABLED()"),
    ('NEW_TYPEDEFS', 'tools/perfrec/host/dm/ofnode.h',
     "the host shim of <dm/ofnode.h> gives perfrec's device-tree code the type it "
     "uses by U-Boot's name, as U-Boot's header defines it"),
    ('MACRO_ARG_UNUSED', 'tools/perfrec/host/linux/kconfig.h',
     "the host shim of <linux/kconfig.h> is U-Boot's IS_ENABLED(): __take_second_arg() "
     "drops its first argument by design"),
    ('IS_ENABLED_CONFIG', 'tools/perfrec/host/linux/kconfig.h',
     "the definition of IS_ENABLED() itself, as U-Boot's <linux/kconfig.h> has it"),
    ('PREFER_DEFINED_ATTRIBUTE_MACRO', 'tools/perfrec/perfrec_verdict.c',
     "a host build: glibc's headers have no __printf(), which the tool defines as "
     "U-Boot's <linux/compiler_attributes.h> does"),
    ('PREFER_IF', 'test/lib/perfrec_hw.c',
     "sandbox's readl()/writel() reach the BCM2836 test's registers in memory only "
     "with sandbox_set_enable_memio(), declared in sandbox's <asm/test.h> alone"),
]


def unaccepted(text):
    """The messages of checkpatch --show-types output @text not in ACCEPTED"""
    left = []
    for block in re.split(r'\n\s*\n', text):
        head = re.match(r'(ERROR|WARNING|CHECK):(\w+):', block.strip())
        if not head:
            continue
        where = re.search(r'FILE: ([^:\s]+):', block)
        if not any(head.group(2) == kind and where and where.group(1) == path
                   for kind, path, _ in ACCEPTED):
            left.append(block.strip())
    return left


def checkpatch(tree, out, jobs):
    """Run U-Boot's checkpatch on each patch on its own, @jobs at a time;
    return problems (what ACCEPTED does not keep)"""
    def run(patch):
        return patch, subprocess.run(['./scripts/checkpatch.pl', '--show-types', '--ignore',
                                      perfrec_series.CHECKPATCH_IGNORE, patch],
                                     cwd=tree, capture_output=True, text=True,
                                     check=False).stdout

    problems = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for patch, text in pool.map(run, patches(out)):
            total = re.search(r'total: (\d+) errors, (\d+) warnings, (\d+) checks', text)
            left = unaccepted(text)
            if not total or left:
                problems.append('checkpatch %s:\n%s' % (os.path.basename(patch),
                                                       '\n\n'.join(left)[-3000:] or
                                                       text.strip()[-3000:]))
    return problems


def our_files(tree, base):
    """Return the series' files in @tree: what it adds and changes against @base"""
    names = git(tree, 'diff', '--name-only', '--diff-filter=AM', base, 'HEAD').split('\n')
    return [n for n in names if n]


def kernel_doc(tree, files):
    """Run kernel-doc on the series' C sources and headers; return problems"""
    sources = [f for f in files if f.endswith(('.c', '.h')) and
               ('perf' in os.path.basename(f) or f.startswith(('drivers/perf/', 'lib/perfrec/')))]
    res = subprocess.run(['./scripts/kernel-doc', '-none'] + sources, cwd=tree,
                         capture_output=True, text=True, check=False)
    lines = [ln for ln in (res.stdout + res.stderr).splitlines() if ln.strip()]
    return ['kernel-doc: %s' % ln for ln in lines]


def sphinx(tree, work, files):
    """Build the series' pages with U-Boot's Sphinx setup, warnings as errors

    Its pages (what it adds under doc/, not the indexes it edits) are built
    alone: Debian's Sphinx may be older than U-Boot's pin, and U-Boot's own
    pages are not judged.
    """
    pages = [f for f in files if f.startswith('doc/') and f.endswith('.rst') and
             os.path.basename(f) != 'index.rst']
    src = os.path.join(work, 'doc-src')
    if os.path.exists(src):
        shutil.rmtree(src)
    for page in pages:
        dst = os.path.join(src, os.path.relpath(page, 'doc'))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(tree, page), dst)
    with open(os.path.join(src, 'index.rst'), 'w', encoding='utf-8') as outf:
        outf.write('perfrec\n=======\n\n.. toctree::\n\n' +
                   ''.join('   %s\n' % os.path.splitext(os.path.relpath(p, 'doc'))[0]
                           for p in pages))
    # U-Boot's conf.py, less the extensions this Sphinx lacks (newer trees
    # want sphinx_reredirects & co. for their own pages, not for ours)
    conf = os.path.join(work, 'conf')
    os.makedirs(conf, exist_ok=True)
    with open(os.path.join(conf, 'conf.py'), 'w', encoding='utf-8') as outf:
        outf.write(SPHINX_CONF % os.path.join(tree, 'doc'))
    res = subprocess.run(['sphinx-build', '-q', '-b', 'html', '-W', '--keep-going',
                          '-c', conf, '-d', os.path.join(work, 'doctrees'),
                          src, os.path.join(work, 'html')],
                         cwd=os.path.join(tree, 'doc'), capture_output=True, text=True,
                         check=False)
    if res.returncode:
        text = '\n'.join(ln for ln in (res.stdout + res.stderr).splitlines()
                         if 'sphinx_rtd_theme' not in ln)
        return ['sphinx: %s' % text.strip()[-3000:]]
    return []


def pylint(tree, files, work, jobs):
    """Run pylint (docparams) on the series' Python, @jobs files at a time;
    return problems"""
    rcfile = os.path.join(work, 'pylintrc')
    with open(rcfile, 'w', encoding='utf-8') as outf:
        outf.write(PYLINTRC)
    paths = os.pathsep.join(os.path.join(tree, d) for d in
                            ('test/py/tests', 'test/py', 'tools/perfrec', 'scripts'))
    def run(name):
        return name, subprocess.run(['pylint', '--rcfile', rcfile, '--reports=y',
                                     '--exit-zero', '-f', 'parseable', '--ignore-imports=yes',
                                     name], cwd=tree, env=dict(os.environ, PYTHONPATH=paths),
                                    capture_output=True, text=True, check=False).stdout

    problems = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for name, text in pool.map(run, [f for f in files if f.endswith('.py')]):
            score = re.search(r'rated at ([-0-9.]+)/10', text)
            if not score or score.group(1) != '10.00':
                msgs = [ln for ln in text.splitlines() if ln.startswith(name)]
                problems.append('pylint %s: %s/10\n  %s' % (name, score and score.group(1),
                                                           '\n  '.join(msgs[:20])))
    return problems


def no_frame_pointers(work):
    """A fragment without CONFIG_PERFREC_FRAME_POINTERS, in @work; return its path

    The option changes every file's flags: with it, the patch that adds it
    would rebuild all of U-Boot (about 3 minutes on master here). The
    series' whole tree, which has it, is the overlaid tree that make check
    builds with every option (same_tree() checks that they are one)."""
    path = os.path.join(work, 'no-frame-pointers.config')
    with open(path, 'w', encoding='utf-8') as outf:
        outf.write('# CONFIG_PERFREC_FRAME_POINTERS is not set\n')
    return path


def same_tree(tree, overlaid):
    """Compare the series' whole tree with the overlay's on the same base;
    return problems (their own stamps and caches left out)"""
    def files(top):
        found = {}
        for root, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if d != '.git']
            for name in names:
                if not name.startswith(('.perfrec-', '.checkpatch-camelcase')):
                    path = os.path.join(root, name)
                    found[os.path.relpath(path, top)] = path
        return found

    ours, theirs = files(tree), files(overlaid)
    problems = ['only in the series: %s' % rel for rel in sorted(set(ours) - set(theirs))]
    problems += ['only in the overlaid tree: %s' % rel for rel in sorted(set(theirs) - set(ours))]
    for rel in sorted(set(ours) & set(theirs)):
        one, two = ours[rel], theirs[rel]
        if os.path.islink(one) or os.path.islink(two):
            differ = not (os.path.islink(one) and os.path.islink(two) and
                          os.readlink(one) == os.readlink(two))
        else:
            differ = not filecmp.cmp(one, two, shallow=False)
        if differ:
            problems.append('differs from the overlaid tree: %s' % rel)
    return problems


# pylint: disable-next=too-many-arguments,too-many-locals
def build(tree, work, args, commit, board, configure=True):
    """Build one commit for @board: 'qemu' (qemu_arm64 with perfrec's
    fragments) or 'sandbox'; return (problems, seconds). Without
    @configure, on the build directory's .config as it is (a patch that
    changes no Kconfig file)"""
    started = time.monotonic()
    env = dict(os.environ, PATH='/usr/bin:' + os.environ.get('PATH', ''),
               SOURCE_DATE_EPOCH=git(tree, 'log', '-1', '--format=%ct'))
    out = os.path.join(work, 'build-' + board)
    # Without scripts/check-local-export, as the Makefile's builds (it cannot
    # fail in U-Boot, and costs a quarter of a build with Linux 6.1's kbuild)
    make = ['make', '-C', tree, 'O=' + out, 'PYTHON3=/usr/bin/python3', '-s',
            'cmd_check_local_export=']
    if board == 'qemu':
        make.append('CROSS_COMPILE=' + args.cross_compile)
        defconfig = 'qemu_arm64_defconfig'
        fragments = args.fragments + [no_frame_pointers(work)]
    else:
        # No display; no link-time optimisation (47 s of 2023.01's sandbox build)
        make += ['NO_SDL=1', 'NO_LTO=1']
        defconfig = 'sandbox_defconfig'
        fragments = [os.path.abspath(args.sandbox_fragment)] if args.sandbox_fragment else []
    steps = []
    if configure:
        steps.append(make + [defconfig])
        if fragments:
            steps.append(['scripts/kconfig/merge_config.sh', '-m', '-O', out,
                          os.path.join(out, '.config')] + fragments)
        steps.append(make + ['olddefconfig'])
    steps.append(make + ['-j%d' % args.jobs])
    for step in steps:
        res = subprocess.run(step, cwd=tree, env=env, capture_output=True, text=True,
                             check=False)
        warn = [ln for ln in (res.stdout + res.stderr).splitlines()
                if 'warning:' in ln and 'perf' in ln]
        if res.returncode or warn:
            return ['%s %s: %s' % (commit, board, '\n'.join(
                warn + (res.stdout + res.stderr).splitlines()[-15:]))], 0
    return [], time.monotonic() - started


def sandbox_ut(tree, work):
    """Run perfrec's 'ut lib' groups in the sandbox build; return problems"""
    problems = []
    for prefix, sources in (('perf_data_', ['test/lib/perf_data.c', 'test/lib/perf_data_pipe.c']),
                            ('perfrec_', ['test/lib/perfrec.c', 'test/lib/perfrec_hw.c'])):
        res = subprocess.run([os.path.join(TOP, 'scripts/perfrec_sandbox_ut.sh'),
                              os.path.join(work, 'build-sandbox'), 'lib', prefix] +
                             [os.path.join(tree, source) for source in sources],
                             capture_output=True, text=True, check=False)
        if res.returncode:
            problems.append('sandbox ut lib %s*: %s' % (prefix, (res.stdout + res.stderr)[-3000:]))
    return problems


def bisect(tree, work, args):
    """Build every commit of the series for qemu_arm64, in one build
    directory (U-Boot's make rebuilds what each patch changes; configured
    again where a patch changes a Kconfig file), and the last for sandbox,
    where perfrec's 'ut lib' tests run; return problems"""
    commits = git(tree, 'rev-list', '--reverse', base_commit(tree) + '..HEAD').split('\n')
    problems = []
    for num, commit in enumerate(commits):
        subject = git(tree, 'log', '-1', '--format=%s', commit)
        touched = git(tree, 'diff', '--name-only', commit + '^', commit).split('\n')
        git(tree, 'checkout', '-q', commit)
        found, secs = build(tree, work, args, commit[:12] + ' ' + subject, 'qemu',
                            configure=num == 0 or any(
                                os.path.basename(path).startswith('Kconfig')
                                for path in touched))
        print('  %-4s %s (%d s)' % ('ok' if not found else 'FAIL', subject, secs), flush=True)
        problems += found
    git(tree, 'checkout', '-q', commits[-1])
    found, secs = build(tree, work, args, commits[-1][:12] + ' (the series)', 'sandbox')
    if not found:
        found = sandbox_ut(tree, work)
    print('  %-4s sandbox%s, the whole series: ut lib perf_data_*, perfrec_* (%d s)' %
          ('ok' if not found else 'FAIL', ' + ' + os.path.basename(args.sandbox_fragment)
           if args.sandbox_fragment else '', secs), flush=True)
    return problems + found


def check(args):
    """Run every check of the series; return the exit code"""
    work = os.path.abspath(args.work)
    tree = os.path.join(work, 'am')
    args.fragments = [os.path.abspath(f) for f in args.fragments]
    problems = apply(args, tree)
    print('perfrec_series: git am of %d patches onto %s: %s' %
          (len(patches(args.out)), base_name(args.base), 'ok' if not problems else 'FAILED'),
          flush=True)
    if problems:
        print('\n'.join(problems))
        return 1
    files = our_files(tree, base_commit(tree))
    with tempfile.TemporaryDirectory(dir=work) as scratch:
        for name, run in (('checkpatch', lambda: checkpatch(tree, args.out, args.jobs)),
                          ('kernel-doc', lambda: kernel_doc(tree, files)),
                          ('sphinx', lambda: sphinx(tree, scratch, files)),
                          ('pylint', lambda: pylint(tree, files, scratch, args.jobs))):
            started = time.monotonic()
            found = run()
            print('perfrec_series: %s: %s (%d s)' % (
                name, 'ok' if not found else '%d problem(s)' % len(found),
                time.monotonic() - started), flush=True)
            problems += found
    if args.overlaid:
        found = same_tree(tree, args.overlaid)
        print('perfrec_series: the whole series is the overlaid tree %s: %s' %
              (args.overlaid, 'yes' if not found else 'NO'), flush=True)
        problems += found
    if not args.no_build:
        print('perfrec_series: building every patch (qemu_arm64 + perfrec, without frame '
              'pointers), then sandbox', flush=True)
        problems += bisect(tree, work, args)
    for problem in problems:
        print(problem)
    if problems:
        print('perfrec_series: %d problem(s)' % len(problems))
        return 1
    print('perfrec_series: the series applies%s and is clean' %
          ('' if args.no_build else ', builds at every patch'))
    return 0


def main(argv=None):
    """Check the series; return the exit code"""
    return check(perfrec_series.arguments('check', __doc__).parse_args(argv))


if __name__ == '__main__':
    sys.exit(main())
