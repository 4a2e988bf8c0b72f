# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of scripts/perfrec_series.py, which writes perfrec as a patch series

"""Host tests of scripts/perfrec_series.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_series.py

PARTS must give every project file, overlay edit and Kconfig option to
exactly one part, and a copy of PARTS with one of them taken away or
doubled must be refused, naming it. drivers/perf/Kconfig and Makefile grow
with the parts: after every part they hold exactly that part's options and
objects and of the ones before, whose own dependencies are there too, and
with all parts they are the project's files. The parts applied in turn to a
synthetic tree (test_overlay.synthetic_tree, no U-Boot needed) must give
the tree the overlay gives. No git, no build.
"""

import copy
import os
import re
import sys

import pytest

from test_overlay import REPO, hashes, synthetic_tree

sys.path.insert(0, os.path.join(REPO, 'scripts'))

# pylint: disable=wrong-import-position
import perfrec_overlay as OV  # noqa: E402  # pylint: disable=import-error
import perfrec_series as SE  # noqa: E402  # pylint: disable=import-error
import perfrec_series_check as SC  # noqa: E402  # pylint: disable=import-error

KCONFIG = os.path.join(REPO, SE.KCONFIG)
WRITER = 3      # the index of 'perf: add a perf.data writer' in PARTS


def read(path):
    """Return the text of @path"""
    with open(path, encoding='utf-8') as inf:
        return inf.read()


def configs(text):
    """Return the options a Kconfig text defines, in order"""
    return re.findall(r'^config (\w+)', text, re.M)


def cumulative(count):
    """Return the options of the first @count parts of PARTS"""
    return [sym for part in SE.PARTS[:count] for sym in part.symbols]


def refused(parts):
    """Return the message assign() raises SystemExit with for @parts"""
    with pytest.raises(SystemExit) as exc:
        SE.assign(parts)
    return str(exc.value)


def test_assign_covers_all():
    """assign(PARTS) gives every file, edit and option of the overlay a part"""
    files, edits = SE.assign(SE.PARTS)
    rels = set(OV.project_files()) - {SE.KCONFIG} - set(SE.MAKEFILES)
    assert set(files) == rels
    assert sorted(edits) == list(range(len(OV.EDITS)))
    assert sorted(cumulative(len(SE.PARTS))) == sorted(configs(read(KCONFIG)))


def test_assign_edit_order():
    """An edit whose hook line another edit adds comes in the same part or later"""
    _, edits = SE.assign(SE.PARTS)
    checked = 0
    for idx, edit in enumerate(OV.EDITS):
        for oidx, other in enumerate(OV.EDITS):
            if oidx != idx and other[0] == edit[0] and edit[2] in other[3] \
                    and edit[4] != 'sorted':
                assert edits[idx] >= edits[oidx], edit[1]
                checked += 1
    assert checked


def test_assign_part_order():
    """The writer comes before the driver, the driver before the command"""
    subjects = [part.subject for part in SE.PARTS]
    assert subjects[WRITER] == 'perf: add a perf.data writer'
    assert 'PERF_DATA' in SE.PARTS[WRITER].symbols
    assert subjects.index('cmd: add perfrec, a sampling profiler') > WRITER + 1


@pytest.mark.parametrize('glob, named', [
    ('cmd/perfrec.c', 'cmd/perfrec.c'),
    ('tools/perfrec/*', 'tools/perfrec/perfrec_report.py'),
    ('include/perf_data.h', 'include/perf_data.h'),
])
def test_assign_file_left_out(glob, named):
    """A project file that no part holds is refused, by name"""
    parts = copy.deepcopy(SE.PARTS)
    (part,) = [p for p in parts if glob in p.files]
    part.files.remove(glob)
    assert f'file {named} is in 0 parts' in refused(parts)


def test_assign_file_twice():
    """A project file two parts name is refused"""
    parts = copy.deepcopy(SE.PARTS)
    parts[0].files.append('cmd/perfrec.c')
    assert 'file cmd/perfrec.c is in 2 parts' in refused(parts)


def test_assign_edit_left_out():
    """An overlay edit that no part holds is refused, with its file"""
    parts = copy.deepcopy(SE.PARTS)
    parts[0].edits.remove('include what it uses')
    msg = refused(parts)
    assert 'edit "include what it uses (2025.01 dropped <common.h>)" ' \
           '(common/kallsyms.c) is in 0 parts' in msg
    assert len(msg.splitlines()) == 2


def test_assign_edit_twice():
    """An overlay edit that two parts claim is refused"""
    parts = copy.deepcopy(SE.PARTS)
    parts[-1].edits.append('maintainer entry')
    assert 'edit "maintainer entry" (MAINTAINERS) is in 2 parts' in refused(parts)


def test_assign_option_left_out():
    """A Kconfig option that no part adds, or one Kconfig lacks, is refused"""
    parts = copy.deepcopy(SE.PARTS)
    parts[WRITER].symbols.remove('UT_PERF_DATA')
    parts[WRITER].symbols.append('NO_SUCH_OPTION')
    msg = refused(parts)
    assert 'option UT_PERF_DATA is in no part' in msg
    assert 'option NO_SUCH_OPTION is in a part, not in Kconfig' in msg


def test_kconfig_all():
    """With every option, kconfig_for() gives drivers/perf/Kconfig exactly"""
    assert SE.kconfig_for(configs(read(KCONFIG))) == read(KCONFIG)
    assert SE.kconfig_for(cumulative(len(SE.PARTS))) == read(KCONFIG)


@pytest.mark.parametrize('rel', SE.MAKEFILES)
def test_makefile_all(rel):
    """With every option, makefile_for() gives each Makefile exactly"""
    assert SE.makefile_for(configs(read(KCONFIG)), rel) == read(os.path.join(REPO, rel))
    assert SE.makefile_for(cumulative(len(SE.PARTS)), rel) == read(os.path.join(REPO, rel))


@pytest.mark.parametrize('count', range(1, len(SE.PARTS) + 1))
def test_kconfig_grows(count):
    """After each part the Kconfig has exactly the options so far

    Every option of drivers/perf/Kconfig that a kept option selects or
    depends on is kept too, so that each commit's Kconfig stands alone.
    """
    symbols = cumulative(count)
    full = read(KCONFIG)
    text = SE.kconfig_for(symbols)
    assert configs(text) == [sym for sym in configs(full) if sym in symbols]
    assert text.startswith(full[:full.index('\nconfig ')])
    assert text.endswith('endmenu\n')
    ours = set(configs(full))
    for block in re.split(r'(?m)^(?=config )', text)[1:]:
        for line in block.splitlines():
            if re.match(r'\s+(select|depends on|imply)\s', line):
                refs = set(re.findall(r'\b[A-Z][A-Z0-9_]+\b', line)) & ours
                assert refs <= set(symbols), (block.split('\n')[0], line)


@pytest.mark.parametrize('rel', SE.MAKEFILES)
@pytest.mark.parametrize('count', range(1, len(SE.PARTS) + 1))
def test_makefile_grows(count, rel):
    """After each part each Makefile builds the objects of the options so
    far; one that would build none is not written yet"""
    symbols = cumulative(count)
    full = read(os.path.join(REPO, rel))
    text = SE.makefile_for(symbols, rel)
    want = [line for line in full.splitlines()
            if re.match(r'obj-\$\(CONFIG_(\w+)\)', line) and
            re.match(r'obj-\$\(CONFIG_(\w+)\)', line).group(1) in symbols]
    if not want:
        assert text is None
        return
    got = [line for line in text.splitlines() if line.startswith('obj-')]
    assert got == want
    objs = {line.split()[-1] for line in got}
    lines = text.splitlines()
    for idx, line in enumerate(lines):
        flags = re.match(r'CFLAGS_REMOVE_(\S+) ', line)
        if flags:
            assert flags.group(1) in objs, line
        if line.startswith('\t'):
            assert lines[idx - 1].endswith('\\'), line
    assert text.startswith(full.split('\n\n')[0] + '\n')


def test_makefile_writer():
    """The writer's part builds lib/perf_data.o (lib/Makefile's edit) and
    nothing of perfrec's own Makefiles"""
    for rel in SE.MAKEFILES:
        assert SE.makefile_for(cumulative(WRITER + 1), rel) is None
    edits = [OV.EDITS[idx] for idx, owner in SE.assign(SE.PARTS)[1].items() if owner == WRITER]
    assert [(edit[0], edit[3]) for edit in edits if edit[0] == 'lib/Makefile'] == \
        [('lib/Makefile', 'obj-$(CONFIG_PERF_DATA) += perf_data.o\n'),
         ('lib/Makefile', 'obj-$(CONFIG_PERF_DATA) += perf_data_pipe.o\n')]


@pytest.mark.parametrize('fields, version', [
    ('VERSION = 2025\nPATCHLEVEL = 01\nSUBLEVEL =\nEXTRAVERSION =\n', '2025.01'),
    ('VERSION = 2026\nPATCHLEVEL = 10\nSUBLEVEL =\nEXTRAVERSION = -rc2\n', '2026.10-rc2'),
    ('VERSION = 2023\nPATCHLEVEL = 01\nSUBLEVEL = 3\nEXTRAVERSION =\n', '2023.01.3'),
])
def test_uboot_version(tmp_path, fields, version):
    """uboot_version() reads the version as U-Boot's Makefile gives it"""
    (tmp_path / 'Makefile').write_text('# SPDX\n\n' + fields + 'NAME =\n\nall:\n',
                                       encoding='utf-8')
    assert SE.uboot_version(str(tmp_path)) == version


def maintainers_text(tmp_path, present):
    """Return MAINTAINERS after maintainers() with @present, from the full entry"""
    (tmp_path / 'MAINTAINERS').write_text('PCI\nS:\tMaintained\n\n' + OV.MAINTAINERS_ENTRY +
                                          'POWER\nS:\tMaintained\n', encoding='utf-8')
    SE.maintainers(str(tmp_path), present)
    return read(tmp_path / 'MAINTAINERS')


def test_maintainers_writer(tmp_path):
    """The writer's commit names only the writer's files in MAINTAINERS"""
    files, _ = SE.assign(SE.PARTS)
    present = [rel for rel, owner in files.items() if owner <= WRITER]
    text = maintainers_text(tmp_path, present)
    fls = re.findall(r'^F:\t(\S+)$', text, re.M)
    assert fls == ['include/perf_data.h', 'lib/perf_data*', 'test/lib/perf_data*']
    assert text.startswith('PCI\nS:\tMaintained\n\nPERFREC SAMPLING PROFILER\n')
    assert text.endswith('\n\nPOWER\nS:\tMaintained\n')


def test_maintainers_all(tmp_path):
    """With every file the entry is the overlay's"""
    files, _ = SE.assign(SE.PARTS)
    text = maintainers_text(tmp_path, list(files))
    assert OV.MAINTAINERS_ENTRY + 'POWER\n' in text


def test_maintainers_cover_all():
    """Every file the overlay copies is named by an F: line of the entry"""
    pats = re.findall(r'^F:\t(\S+)$', OV.MAINTAINERS_ENTRY, re.M)
    files, _ = SE.assign(SE.PARTS)
    left = [rel for rel in files
            if not any(re.fullmatch(re.escape(pat).replace(r'\*', '[^/]*'), rel) or
                       pat.endswith('/') and rel.startswith(pat) for pat in pats)]
    assert not left


def test_parts_give_overlay(tmp_path, capsys):
    """The parts applied in turn give the tree the overlay gives

    Each part is applied to a synthetic tree as 'write' does (without git);
    the result is compared file by file with the overlay's on another copy.
    """
    files, edits = SE.assign(SE.PARTS)
    series = synthetic_tree(tmp_path / 'series')
    for idx in range(len(SE.PARTS)):
        SE.apply_part(str(series), idx, files, edits)
        if idx == WRITER:
            assert not os.path.exists(series / 'drivers/perf/Makefile')
            assert 'obj-$(CONFIG_PERF_DATA) += perf_data.o\n' in read(series / 'lib/Makefile')
    overlay = synthetic_tree(tmp_path / 'overlay')
    assert OV.main([str(overlay)]) == 0
    capsys.readouterr()
    assert hashes(series) == hashes(overlay)


def test_same_tree(tmp_path):
    """The series' whole tree against the overlaid one: stamps, caches and
    .git left out; a changed file, a file on one side only and a link to
    elsewhere each named"""
    import perfrec_series_check as SC  # pylint: disable=import-error,import-outside-toplevel
    series, overlaid = tmp_path / 'am', tmp_path / 'overlaid'
    for top, extra in ((series, '.checkpatch-camelcase.git.1234'),
                       (overlaid, '.perfrec-overlay')):
        (top / 'lib').mkdir(parents=True)
        (top / 'lib' / 'a.c').write_text('int a;\n')
        (top / 'Makefile').write_text('VERSION = 2026\n')
        os.symlink('a.c', top / 'lib' / 'b.c')
        (top / extra).write_text('stamp\n')
    (series / '.git').mkdir()
    (series / '.git' / 'HEAD').write_text('ref\n')
    assert not SC.same_tree(str(series), str(overlaid))

    (overlaid / 'lib' / 'a.c').write_text('int a = 1;\n')
    (series / 'lib' / 'c.c').write_text('int c;\n')
    os.remove(overlaid / 'lib' / 'b.c')
    os.symlink('../Makefile', overlaid / 'lib' / 'b.c')
    (overlaid / 'README').write_text('U-Boot\n')
    assert SC.same_tree(str(series), str(overlaid)) == [
        'only in the series: lib/c.c', 'only in the overlaid tree: README',
        'differs from the overlaid tree: lib/a.c', 'differs from the overlaid tree: lib/b.c']


CHECKPATCH_OUT = '''WARNING:PREFER_IF: Use 'if (IS_ENABLED(CONFIG...))' instead of '#if or #ifdef' where possible
#70: FILE: common/board_f.c:928:
+#if CONFIG_IS_ENABLED(PERFREC_BOOT)

WARNING:PREFER_IF: Use 'if (IS_ENABLED(CONFIG...))' instead of '#if or #ifdef' where possible
#113: FILE: common/bootstage.c:123:
+#if CONFIG_IS_ENABLED(PERFREC_BOOT)

WARNING:LONG_LINE: line length of 101 exceeds 100 columns
#520: FILE: common/board_f.c:305:
+		       why, perfrec_early_option("perfrec,boot-period", CONFIG_PERFREC_BOOT_PERIOD));

total: 0 errors, 3 warnings, 0 checks, 558 lines checked
'''


def test_checkpatch_accepted():
    """Only the accepted type in the accepted file is kept; the others are problems"""
    left = SC.unaccepted(CHECKPATCH_OUT)
    assert len(left) == 2
    assert 'common/bootstage.c' in left[0] and 'LONG_LINE' in left[1]
    assert SC.unaccepted(CHECKPATCH_OUT.split('\n\n')[0] + '\n') == []
    spl = CHECKPATCH_OUT.split('\n\n')[0].replace(
        'common/board_f.c:928', 'board/emulation/qemu-arm/qemu-arm.c:149')
    assert SC.unaccepted(spl + '\n') == []
