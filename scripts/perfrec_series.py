#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Write perfrec as a patch series for U-Boot.

Usage:
    perfrec_series.py write --base <pristine tree> --work <dir> --out <dir>

(perfrec_series_check.py, its user, checks what it wrote.)

'write' commits perfrec onto a git copy of a pristine U-Boot tree, one commit
per part of PARTS, in the order a reviewer reads, and writes them with
'git format-patch' and a cover letter to --out. The parts take the project's
own files and the overlay's own edit table (scripts/perfrec_overlay.py): the
series is no second copy of perfrec. drivers/perf/Kconfig and the
Makefiles of drivers/perf/ and lib/perfrec/ grow with the parts: each
commit has the options and objects of its part and of the ones before.
"""

import argparse
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))

import perfrec_overlay  # pylint: disable=wrong-import-position
import perfrec_overlay_lds  # pylint: disable=wrong-import-position

AUTHOR = 'perfrec developers <perfrec@localhost>'

# perfrec's Kconfig, and the Makefiles whose objects follow its options
KCONFIG = 'drivers/perf/Kconfig'
MAKEFILES = ['drivers/perf/Makefile', 'drivers/perf/arm64/Makefile', 'lib/perfrec/Makefile']

# checkpatch's checks that U-Boot's .checkpatch.conf keeps and perfrec's code
# answers otherwise (the Makefile's checkpatch target says why for each)
CHECKPATCH_IGNORE = 'CAMELCASE,CMD_TEST,MACRO_ARG_REUSE,LIVETREE'


class Part:
    """One patch: its files, its edits of U-Boot's files and its options

    Members:
        subject: the commit's subject line
        body: why the change is needed, for the commit message
        files: globs of project files (as the overlay copies them)
        edits: prefixes of the 'why' texts of the overlay's EDITS
        symbols: the Kconfig options of drivers/perf/Kconfig it adds
    """

    def __init__(self, subject, body, files=(), edits=(), symbols=()):
        self.subject = subject
        self.body = body
        self.files = list(files)
        self.edits = list(edits)
        self.symbols = list(symbols)


# The series, in the order a reviewer reads it: fixes to U-Boot that stand
# on their own, the writer, the driver, the command, the hooks perfrec needs
# in U-Boot's core, the tests
# perfrec-verdict's shim headers, each named (the tests' part globs tools/perfrec/*)
HOST_SHIMS = sorted(os.path.relpath(os.path.join(root, name), TOP)
                    for root, _, names in os.walk(os.path.join(TOP, 'tools/perfrec/host'))
                    for name in names)

PARTS = [
    Part('kallsyms: build the symbol table from a file, and only when relinking',
         '''U-Boot passes its whole symbol table to the compiler as one -D argument,
which Linux limits to 128 KiB (MAX_ARG_STRLEN): the table of a 2025 build
with most commands is larger, and the build fails. Write the table into a
generated C file instead.

With CONFIG_KALLSYMS the table was regenerated and u-boot linked a second
time at every make, even when nothing had changed. Both now run only when
the first link does (if_changed's own condition), and the table goes to
the linker as an argument of cmd_u-boot__. kallsyms.c includes what it
uses.''',
         edits=['pass the kallsyms table', 'build and link the kallsyms table',
                'build the kallsyms table from a file', 'include what it uses']),
    Part('Makefile: a second make relinks nothing',
         '''A make with nothing changed must not relink u-boot: a profile recorded
on the board is symbolised with the ELF of the same link, and a relink
changes its build-id. Keep the generated objects that are rebuilt
needlessly in $(targets) and read the saved commands of the top-level
targets again.''',
         edits=['env.txt only', 'env.in only', 'keep dtbdump.o', 'keep initrddump.o',
                'keep the miniapps', 'read the saved commands']),
    Part('fs: semihosting: create and truncate the file written from offset 0',
         '''"save hostfs" opened the host file for update (mode "r+b"), which fails
when the file does not exist and leaves old bytes behind a shorter write.
Open it with "wb" when writing from offset 0, as on other filesystems, so
that saving a perf.data (or any file) to the host works the first time
and gives exactly the bytes written.''',
         edits=['"save hostfs" creates']),
    Part('perf: add a perf.data writer',
         '''perf.data is the file format of Linux's perf tools. This writer lays out
its header, event attributes, sample records and the feature sections host
perf 6.x reads (build-id, the CPU description, event names), as a file in
a caller's buffer or as a pipe stream. It knows nothing of PMUs and uses
no driver model: a profiler fills it, and unit tests run it on sandbox
('ut lib perf_data_*').''',
         files=['include/perf_data.h', 'lib/perf_data.c', 'lib/perf_data_internal.h',
                'lib/perf_data_pipe.c', 'test/lib/perf_data.c', 'test/lib/perf_data_pipe.c',
                'test/lib/perf_data_ut.h'],
         edits=['source the perfrec Kconfig menu', 'build the perf.data writer',
                'maintainer entry'],
         symbols=['PERF_DATA', 'UT_PERF_DATA']),
    Part('perf: add an Arm PMUv3 sampling driver',
         '''Sample where the CPU spends its time with the Armv8 Performance
Monitors Extension: the driver binds to the device tree's PMU node, arms
the counters in sampling mode, takes their overflow interrupt through the
GIC (v2 or v3, from the device tree) with its own exception vectors at
EL1, EL2 or EL3, and writes each sample, with its call chain when asked,
as a perf.data record. Every register it touches (VBAR, DAIF, HCR_EL2, the
PMU, the GIC) is saved before arming and restored after.

It also places and checks the sample buffer against lmb, reports the
hottest functions from U-Boot's own symbol table and reserves the buffer
in the OS's device tree. What is AArch64's alone (the vectors, the CPU
state, the page-table walk, the unwinder) is in drivers/perf/arm64/,
behind one header, perfrec_arch.h; drivers/perf/arm/ has the same for
32-bit Arm (cp15; the Armv7 PMU and PMUv3 in AArch32, with 32-bit
counters; SVC and Hyp mode; call graphs in ARM state). A board leaves
out what it does not need: events besides cycles, an EL, an interrupt
controller.
Unit tests of what needs no PMU run on sandbox ('ut lib perfrec_*').''',
         files=['drivers/perf/*', 'lib/perfrec/*', 'include/perfrec.h', 'include/perfrec_compat.h',
                'include/perfrec_dt.h', 'include/perfrec_frame.h', 'include/perfrec_hw.h',
                'include/perfrec_period.h', 'include/perfrec_pmu.h', 'include/perfrec_report.h',
                'include/perfrec_ring.h',
                'include/perfrec_snapshot.h', 'include/perfrec_stream.h',
                'test/lib/perfrec.c', 'test/lib/perfrec_hw.c'],
         edits=['build the unit tests of perfrec', 'build drivers/perf/',
                'build the perfrec library'],
         symbols=['PERFREC_PMUV3', 'PERFREC_LIB', 'UT_PERFREC', 'PERFREC_FDT_RESERVE',
                  'PERFREC_EVENTS', 'PERFREC_EL1', 'PERFREC_EL3', 'PERFREC_GICV2',
                  'PERFREC_GICV3', 'PERFREC_BCM2836', 'PERFREC_A9_GTIMER']),
    Part('cmd: add perfrec, a sampling profiler',
         '''perfrec runs any U-Boot command while the PMU samples it, and leaves a
perf.data in memory for the host's perf report, perf script and perf
annotate (and hotspot): 'perfrec record -- bootm ...'. It can also
record while the shell runs other commands (start/stop), count events
(stat), stream to the console or the host, list the CPU's events and
report the hottest functions on the board. After linking, a post-link
step records the image's ELF file offset in the image, so that perf maps
samples of the relocated U-Boot to its ELF; it reads the ELF with
tools/perfrec/perfrec_elf.py, the reader the host tools share.''',
         files=['cmd/perfrec.c', 'cmd/perfrec_dump.c', 'cmd/perfrec_dump.h',
                'cmd/perfrec_opts.c', 'cmd/perfrec_opts.h',
                'cmd/perfrec_show.c', 'cmd/perfrec_show.h',
                'doc/usage/cmd/perfrec.rst', 'doc/usage/perfrec.rst', 'doc/api/perf.rst',
                'doc/develop/perfrec.rst',
                'arch/arm/Makefile.postlink', 'scripts/perfrec_pgoff.py',
                'tools/perfrec/perfrec_elf.py'],
         edits=['build the perfrec command', 'list the perfrec page', 'list the perfrec guide',
                'list the page of perfrec', 'list perfrec\'s developer page'],
         symbols=['CMD_PERFREC', 'PERFREC_CALLCHAIN', 'PERFREC_CALLCHAIN_DEPTH',
                  'PERFREC_STAT', 'PERFREC_REPORT', 'KALLSYMS', 'PERFREC_DUMP_GZIP',
                  'PERFREC_DUMP_STREAM',
                  'PERFREC_DEFAULT_BUF_SIZE', 'PERFREC_EARLY', 'PERFREC_EARLY_OPTIONS',
                  'PERFREC_EARLY_UNTIL_PROMPT']),
    Part('board_f, crt0_64, bootstage: let perfrec record the whole boot',
         '''With CONFIG_PERFREC_BOOT perfrec starts recording in board_init_f(),
right after fdtdec_setup(), and samples through relocate_code() into
board_init_r(), where the recording becomes the early one. Its state lives
in a fixed DRAM buffer until then (nothing else is writable before
relocation), every address is stored as an offset into the image when it is
recorded (a chain taken in relocate_code() holds both places), and each
boot phase is a thread of its own in the perf.data, named after the
bootstage mark that starts it (lib/perfrec/perfrec_boot.c, in the
driver's patch, is built from this one on).

The hooks: board_f.c starts the recording after fdtdec_setup(), says why
it did not start once the console is up, and gives it the relocated place
after setup_reloc() (in both shapes of the list: the array, and the
INITCALL()s of 2025.07 on). crt0_64.S masks IRQs while U-Boot's relocated
vectors are in place, whose IRQ entry panics, and calls perfrec right after
c_runtime_cpu_setup() to put its own back. bootstage_add_record() tells
perfrec of each mark.''',
         edits=['declare the boot recording', 'start the boot recording',
                'say why the boot recording', 'give the boot recording',
                'mask IRQs while U-Boot', 'put the boot recording',
                'start a boot phase'],
         symbols=['PERFREC_BOOT', 'PERFREC_BOOT_ADDR', 'PERFREC_BOOT_SIZE',
                  'PERFREC_BOOT_EVENT', 'PERFREC_BOOT_PERIOD', 'PERFREC_BOOT_CALLCHAIN']),
    Part('arm: link U-Boot with a build-id note for perfrec',
         '''perf matches a recording with the ELF that made it by the GNU build-id:
link u-boot with one (sha1), place the note inside the image with symbols
at its bounds, and keep it in u-boot.bin, so that perfrec writes it into
every perf.data and a recording of another build shows as such instead of
with wrong symbols.''',
         edits=['link with a build-id note', 'place the build-id note',
                'keep the build-id note'],
         symbols=['PERFREC_BUILD_ID']),
    Part('Makefile: frame records in every function for perfrec -g',
         '''perfrec's call graphs walk the frame records (x29; r11 in 32-bit ARM
state). With CONFIG_PERFREC_FRAME_POINTERS every function keeps one, leaf
functions included (-mno-omit-leaf-frame-pointer where the compiler has
it: 32-bit Arm's keeps leaves' records without), and no call becomes a
jump, so a chain skips no caller. It costs about 1% of u-boot.bin on
QEMU virt.''',
         edits=['frame records in every function'],
         symbols=['PERFREC_FRAME_POINTERS']),
    Part('qemu-arm: SPL from the flash, as a test vehicle',
         '''No arm64 configuration runs SPL on QEMU. Let qemu_arm64 build one, as a
test vehicle for what runs before U-Boot proper: SPL runs in place from
the flash at 0 (QEMU's -bios), with its BSS, stack and early malloc in
DRAM, starts its console, and copies u-boot.img, which follows it in the
flash at CONFIG_SPL_PAD_TO, to CONFIG_TEXT_BASE in DRAM. save_boot_params()
must not store x0-x3 into .data, which is in the flash. perfrec's tests
boot U-Boot proper this way and record its whole boot.''',
         edits=['let qemu_arm64 build SPL', 'declare SPL\'s hang', 'declare SPL\'s boot devices',
                'boot SPL from the flash', 'find u-boot.img after SPL']),
    Part('tools: perfrec-verdict, perfrec\'s verdict on a board\'s device tree',
         '''Before flashing, a board's developer wants to know what perfrec will
sample with there. perfrec-verdict runs perfrec's own device-tree rules,
the same C files U-Boot builds (the walk, the interrupt rules, the boot
buffer's checks, the messages), on the host over a DTB, through small
shim headers (an ofnode is an offset into the DTB), and prints the PMU's
interrupt and controller, the timer's interrupt at each EL, the sampler
perfrec takes, or perfrec's own reason for none.''',
         files=['tools/perfrec/perfrec_verdict.c'] + HOST_SHIMS),
    Part('test: py: add perfrec tests',
         '''Tests of perfrec on QEMU virt at EL1, EL2 and EL3 with GICv2 and GICv3:
what perf report, perf script and hotspot's parser read from the
recordings, exact relations under -icount, call graphs, every subcommand's
bad input, registers restored. perfrec_test gives workloads with known
profiles; the host tools turn a console dump into a perf.data, print a
report, compare two recordings (a CI gate) and draw flame graphs.''',
         files=['cmd/perfrec_test.c', 'cmd/perfrec_test_regs.S', 'include/perfrec_test.h',
                'test/py/tests/*', 'tools/perfrec/*'],
         edits=['build the perfrec_test command', 'and its register-integrity'],
         symbols=['CMD_PERFREC_TEST']),
    Part('command: let perfrec stream at command boundaries',
         ''''perfrec start -S' streams samples while the shell runs other commands.
Writing to the console from the interrupt would interleave with the
commands' own output, so the stream is drained between commands: with
CONFIG_PERFREC_STREAM the command loop calls perfrec_command_done() after
each one. The one change to U-Boot's command loop, last in the series so
that it can be dropped: without it 'perfrec dump -i' still sends what is
new, when asked.''',
         edits=['declare perfrec_command_done', 'let perfrec stream'],
         symbols=['PERFREC_STREAM']),
]

COVER = '''perfrec: a sampling profiler for U-Boot on Arm

U-Boot can trace (CONFIG_TRACE) and time stages (bootstage), but it cannot
say where a command spends its time without being rebuilt for it. perfrec
samples: 'perfrec record -- <any command>' arms the PMU's counters in
sampling mode, takes their overflow interrupt with its own vectors, and
writes every sample to a perf.data file in memory, on the console or on the
host through semihosting. On the host the real perf report, perf script,
perf annotate and hotspot read it and name U-Boot's functions, with call
graphs from frame records.

The series: three fixes to U-Boot's build and semihosting that stand on
their own; the perf.data writer with its unit tests; the PMUv3/GIC/IRQ
driver and the recorder; the command and its documentation; the small hooks
it needs in U-Boot's core (the whole boot from board_init_f(), a build-id
note, frame records), each with its reason; the tests. Last, the one change
to U-Boot's command loop, for streaming at command boundaries: it can be
dropped, and 'perfrec dump -i' still sends what is new.

Tested on QEMU virt (cortex-a57 and max, EL1/EL2/EL3, GICv2/GICv3, with
and without -icount; 32-bit: cortex-a15 and max in SVC and Hyp mode) with
test/py on U-Boot %(version)s, and on sandbox
('ut lib perf_data_*', 'ut lib perfrec_*'); built for rpi_arm64,
xilinx_versal_virt and an i.MX8M board. Every patch builds and passes
checkpatch. The QEMU hook scripts are in the u-boot-test-hooks layout in
perfrec's repository.
'''


def git(tree, *args, env=None, stdin=None):
    """Run git in @tree; raise SystemExit naming the command if it fails

    Args:
        tree (str): the repository
        args (str): git's arguments
        env (dict): its environment, or None for ours
        stdin (str): what to give it on standard input

    Returns:
        str: its output, stripped
    """
    res = subprocess.run(['git'] + list(args), cwd=tree, env=env, input=stdin,
                         capture_output=True, text=True, check=False)
    if res.returncode:
        raise SystemExit('perfrec_series: git %s failed (%d): %s' %
                         (' '.join(args), res.returncode, res.stderr.strip()[-2000:]))
    return res.stdout.strip()


def base_commit(tree):
    """Return the commit of the pristine tree, the one the series goes on"""
    return git(tree, 'rev-list', '--max-parents=0', 'HEAD')


def git_env():
    """Return an environment giving git a fixed author, committer and date"""
    name, mail = AUTHOR[:-1].split(' <')
    date = subprocess.run([os.path.join(TOP, 'scripts/perfrec_source_date.sh'), TOP],
                          capture_output=True, text=True, check=False).stdout.strip()
    date = (date or '0') + ' +0000'
    return dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=mail,
                GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=mail,
                GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)


def git_init(base, tree):
    """Copy the pristine tree @base to @tree as a git repository with one commit"""
    if os.path.exists(tree):
        shutil.rmtree(tree)
    shutil.copytree(base, tree, symlinks=True,
                    ignore=shutil.ignore_patterns('.perfrec-*', '.git'))
    env = git_env()
    git(tree, 'init', '-q', '-b', 'master', env=env)
    git(tree, 'add', '-A', '-f', env=env)
    git(tree, 'commit', '-q', '-m', 'U-Boot as fetched', env=env)


def part_of(parts, rel):
    """Return the indexes of the parts that hold project file @rel

    A part that names the file holds it; otherwise the parts whose globs
    match it do.
    """
    named = [i for i, part in enumerate(parts) if rel in part.files]
    return named or [i for i, part in enumerate(parts)
                     if any(fnmatch.fnmatch(rel, pat) for pat in part.files)]


def assign(parts):
    """Map every project file, overlay edit and option to one part

    Raises SystemExit naming what belongs to no part or to more than one, so
    the series cannot silently leave out what the overlay puts in.

    Args:
        parts (list of Part): the series

    Returns:
        tuple: ({file: part index}, {edit index: part index})
    """
    files, edits, problems = {}, {}, []
    for rel in perfrec_overlay.project_files():
        if rel == KCONFIG or rel in MAKEFILES:
            continue
        hits = part_of(parts, rel)
        if len(hits) != 1:
            problems.append('file %s is in %d parts' % (rel, len(hits)))
        else:
            files[rel] = hits[0]
    for idx, edit in enumerate(perfrec_overlay.EDITS):
        hits = [i for i, part in enumerate(parts)
                if any(edit[1].startswith(w) for w in part.edits)]
        if len(hits) != 1:
            problems.append('edit "%s" (%s) is in %d parts' % (edit[1], edit[0], len(hits)))
        else:
            edits[idx] = hits[0]
    symbols = [s for part in parts for s in part.symbols]
    kconfig = re.findall(r'^config (\w+)', read(os.path.join(TOP, KCONFIG)), re.M)
    for sym in sorted(set(kconfig) ^ set(symbols)):
        problems.append('option %s is in %s' %
                        (sym, 'no part' if sym in kconfig else 'a part, not in Kconfig'))
    if problems:
        raise SystemExit('perfrec_series: PARTS does not cover the overlay:\n  ' +
                         '\n  '.join(problems))
    return files, edits


def read(path):
    """Return the text of @path"""
    with open(path, encoding='utf-8') as inf:
        return inf.read()


def kconfig_for(symbols):
    """Return KCONFIG with only the options in @symbols"""
    text = read(os.path.join(TOP, KCONFIG))
    blocks = re.split(r'(?m)^(?=config |endmenu)', text)
    out = []
    for block in blocks:
        match = re.match(r'config (\w+)', block)
        if not match or match.group(1) in symbols:
            out.append(block)
    return ''.join(out)


def makefile_for(symbols, rel='drivers/perf/Makefile'):
    """Return the Makefile @rel with only the objects of @symbols' options,
    or None if none of them builds an object there"""
    text = read(os.path.join(TOP, rel))
    paras = text.split('\n\n')
    objs = set()
    out = [paras[0]]
    for para in paras[1:]:
        lines, dropped = [], False
        for line in para.splitlines():
            if dropped and line.startswith('\t'):
                continue        # the continuation of a line left out
            dropped = False
            obj = re.match(r'obj-\$\(CONFIG_(\w+)\) \+= (\S+)', line)
            if obj:
                if obj.group(1) in symbols:
                    objs.add(obj.group(2))
                    lines.append(line)
                continue
            flags = re.match(r'CFLAGS_REMOVE_(\S+) ', line)
            if flags and flags.group(1) not in objs:
                dropped = True
                continue
            lines.append(line)
        body = [ln for ln in lines if not ln.startswith('#') and not ln.startswith('\t')]
        if body:
            out.append('\n'.join(lines))
    if not objs:
        return None
    return '\n\n'.join(out).rstrip('\n') + '\n'


def apply_part(tree, idx, files, edits):
    """Write part @idx of the series (and the growing Kconfig/Makefile) into @tree"""
    for rel, owner in files.items():
        if owner == idx:
            dst = os.path.join(tree, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(TOP, rel), dst)
            shutil.copymode(os.path.join(TOP, rel), dst)
    for eidx, owner in edits.items():
        if owner != idx:
            continue
        edit = perfrec_overlay.EDITS[eidx]
        path = os.path.join(tree, edit[0])
        text = read(path)
        try:
            new = perfrec_overlay.apply_edit(text, edit)
        except perfrec_overlay.HookMissing as exc:
            raise SystemExit('perfrec_series: %s' % exc) from exc
        with open(path, 'w', encoding='utf-8') as outf:
            outf.write(new)
    if any(perfrec_overlay_lds.WHY.startswith(w) for w in PARTS[idx].edits):
        for edit in perfrec_overlay_lds.edits(tree):
            path = os.path.join(tree, edit[0])
            new = perfrec_overlay.apply_edit(read(path), edit)
            with open(path, 'w', encoding='utf-8') as outf:
                outf.write(new)
    if any(owner == idx for owner in files.values()):
        maintainers(tree, [rel for rel, owner in files.items() if owner <= idx])
    symbols = [s for part in PARTS[:idx + 1] for s in part.symbols]
    if symbols:
        grown = [(KCONFIG, kconfig_for(symbols))]
        grown += [(rel, makefile_for(symbols, rel)) for rel in MAKEFILES]
        for rel, text in grown:
            if text is None:
                continue
            os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
            with open(os.path.join(tree, rel), 'w', encoding='utf-8') as outf:
                outf.write(text)


def maintainers(tree, present):
    """Give perfrec's MAINTAINERS entry the F: lines of the files in @present

    The entry grows with the series (checkpatch asks for it with every new
    file); with all parts it is the overlay's entry.
    """
    full = perfrec_overlay.MAINTAINERS_ENTRY
    lines = [ln for ln in full.splitlines(keepends=True)
             if not ln.startswith('F:\t') or
             any(fnmatch.fnmatch(rel, ln[3:].strip()) or rel.startswith(ln[3:].strip())
                 for rel in present)]
    entry = ''.join(lines)
    path = os.path.join(tree, 'MAINTAINERS')
    text = read(path)
    start = text.find(full.split('\n', 1)[0] + '\n')
    if start >= 0:
        end = text.index('\n\n', start) + 2
        text = text[:start] + entry + text[end:]
    with open(path, 'w', encoding='utf-8') as outf:
        outf.write(text)


def uboot_version(tree):
    """Return the U-Boot version of @tree, as its Makefile gives it"""
    text = read(os.path.join(tree, 'Makefile'))
    fields = dict(re.findall(r'^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION) = ?(\S*)', text,
                             re.M))
    version = '%s.%s' % (fields.get('VERSION'), fields.get('PATCHLEVEL'))
    if fields.get('SUBLEVEL'):
        version += '.' + fields['SUBLEVEL']
    return version + fields.get('EXTRAVERSION', '')


def write(args):
    """Commit the parts onto a copy of the base tree and format the patches"""
    files, edits = assign(PARTS)
    tree = os.path.join(args.work, 'series')
    git_init(args.base, tree)
    env = git_env()
    for idx, part in enumerate(PARTS):
        apply_part(tree, idx, files, edits)
        git(tree, 'add', '-A', '-f', env=env)
        staged = subprocess.run(['git', 'diff', '--cached', '--quiet'], cwd=tree,
                                check=False).returncode
        if not staged:
            print('perfrec_series: "%s": nothing to change in this tree, left out' %
                  part.subject)
            continue
        msg = '%s\n\n%s\n\nSigned-off-by: %s\n' % (part.subject, part.body, AUTHOR)
        git(tree, 'commit', '-q', '-F', '-', env=env, stdin=msg)
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    git(tree, 'format-patch', '-q', '--cover-letter', '--no-signature', '-o',
        os.path.abspath(args.out), base_commit(tree), env=env)
    cover = glob.glob(os.path.join(args.out, '0000-*.patch'))[0]
    text = read(cover)
    version = uboot_version(args.base)
    subject, body = (COVER % {'version': version}).split('\n\n', 1)
    text = text.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body)
    with open(cover, 'w', encoding='utf-8') as outf:
        outf.write(text)
    print('perfrec_series: %s patches for U-Boot %s in %s' %
          (git(tree, 'rev-list', '--count', base_commit(tree) + '..HEAD'), version, args.out))


def arguments(action, doc):
    """The command line of @action ('write', or the checker's 'check'), described by @doc"""
    parser = argparse.ArgumentParser(description=doc.split('\n', 1)[0])
    parser.add_argument('action', choices=[action])
    parser.add_argument('--base', required=True, help='pristine U-Boot tree')
    parser.add_argument('--work', required=True, help='scratch directory')
    parser.add_argument('--out', required=True, help='where the patches go')
    parser.add_argument('--cross-compile', default='aarch64-linux-gnu-')
    parser.add_argument('--fragments', nargs='*', default=[])
    parser.add_argument('--sandbox-fragment',
                        help='merged onto sandbox_defconfig for the last patch\'s sandbox build')
    parser.add_argument('-j', '--jobs', type=int, default=os.cpu_count())
    parser.add_argument('--overlaid', help='the overlay on the same base, which the '
                        "series' whole tree must equal")
    parser.add_argument('--no-build', action='store_true',
                        help='check: skip building every patch (quick iterations)')
    return parser


def main(argv=None):
    """Write the series; return the exit code"""
    write(arguments('write', __doc__).parse_args(argv))
    return 0


if __name__ == '__main__':
    sys.exit(main())
