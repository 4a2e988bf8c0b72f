# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of scripts/perfrec_doc_tables.py, the developer page's tables

"""Host tests of scripts/perfrec_doc_tables.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_doc_tables.py

On a synthetic page with the four marker pairs: a write, then --check
passes, and every byte outside the markers is kept; a changed row makes
--check fail naming its fragment; a missing marker fails, naming it, and
leaves the file as it was. Each fragment is reStructuredText that docutils
reads without a warning; the series' table has a row per part of PARTS, the
overlay's one per edit of EDITS. A Makefile whose recipes no longer say
what the cells table takes from them is refused. Last, the real check:
doc/develop/perfrec.rst is up to date (make doc-tables).
"""

import io
import os
import re
import subprocess
import sys

import docutils.core
from docutils import nodes
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))

# pylint: disable=wrong-import-position
import perfrec_doc_tables as DT  # noqa: E402  # pylint: disable=import-error
import perfrec_overlay as OV  # noqa: E402  # pylint: disable=import-error
import perfrec_run_tests as RT  # noqa: E402  # pylint: disable=import-error
import perfrec_series as SE  # noqa: E402  # pylint: disable=import-error

SCRIPT = os.path.join(REPO, 'scripts', 'perfrec_doc_tables.py')
DEVELOP = os.path.join(REPO, 'doc', 'develop', 'perfrec.rst')

# A page with every marker pair, in another order than the script's, with
# old text between some, none between others, and no newline at its end
PAGE = '''.. SPDX-License-Identifier: GPL-2.0+

A page
======

Prose before, with trailing spaces<SP>
and a ``literal``.

.. cells:start

an old table

.. cells:end

.. series:start
.. series:end

Between.

.. packages:start


.. packages:end
.. overlay-edits:start

* stale
* list

.. overlay-edits:end

The end, with no newline'''.replace('<SP>', '   ')
MARKED = re.compile(r'^(\.\. ([\w-]+):start\n).*?^(\.\. \2:end)$', re.M | re.S)


def run(*args):
    """Run the script with @args; return its CompletedProcess"""
    return subprocess.run([SCRIPT] + list(args), capture_output=True, text=True, check=False)


def outside(text):
    """@text with what is between each pair of markers taken out"""
    return MARKED.sub(r'\1\3', text)


def read(path):
    """The text of @path, its line ends as they are"""
    with open(path, encoding='utf-8', newline='') as inf:
        return inf.read()


def write(path, text):
    """Write @text to @path as it is"""
    with open(path, 'w', encoding='utf-8', newline='') as outf:
        outf.write(text)


@pytest.fixture(name='page')
def fixture_page(tmp_path):
    """A copy of PAGE in a temporary directory"""
    path = str(tmp_path / 'page.rst')
    write(path, PAGE)
    return path


@pytest.fixture(name='frags', scope='module')
def fixture_frags():
    """The four fragments, as the script makes them"""
    return DT.fragments()


def test_write_then_check(page, frags):
    """A write puts each fragment between its markers, a blank line on each
    side, and keeps every other byte; --check then passes, and a second
    write changes nothing"""
    res = run(page)
    assert res.returncode == 0, res.stderr
    text = read(page)
    assert outside(text) == outside(PAGE)
    for name in DT.NAMES:
        start, end = f'.. {name}:start\n', f'.. {name}:end'
        assert start + '\n' + frags[name] + '\n\n' + end in text, name
    res = run('--check', page)
    assert (res.returncode, res.stdout, res.stderr) == (0, '', '')
    res = run(page)
    assert (res.returncode, res.stdout) == (0, '')
    assert read(page) == text


def test_changed_row_fails_check(page):
    """A row changed by hand: --check fails naming its fragment only, with a
    diff, and writes nothing"""
    assert run(page).returncode == 0
    subject = DT.esc(SE.PARTS[0].subject)
    text = read(page)
    assert text.count(f'     - {subject}\n') == 1
    changed = text.replace(f'     - {subject}\n', '     - a subject of my own\n')
    write(page, changed)
    res = run('--check', page)
    assert res.returncode == 1
    assert 'stale: series (' in res.stderr, res.stderr
    for name in DT.NAMES:
        assert (f'{page} ({name}, as it is)' in res.stdout) == (name == 'series')
    assert '-     - a subject of my own\n' in res.stdout
    assert f'+     - {subject}\n' in res.stdout
    assert read(page) == changed
    assert run(page).returncode == 0
    assert run('--check', page).returncode == 0


@pytest.mark.parametrize('check', [False, True])
def test_missing_marker(page, check):
    """A marker missing: exit 1 naming it, the file as it was"""
    text = PAGE.replace('.. packages:end\n', '')
    write(page, text)
    res = run(*(['--check'] if check else []) + [page])
    assert res.returncode == 1
    assert '.. packages:end' in res.stderr, res.stderr
    assert 'overlay-edits' not in res.stderr
    assert read(page) == text


def rst_tables(text):
    """The tables docutils reads in @text; fail on any warning"""
    warnings = io.StringIO()
    tree = docutils.core.publish_doctree(text, settings_overrides={
        'report_level': 2, 'halt_level': 2, 'warning_stream': warnings})
    assert warnings.getvalue() == ''
    return list(tree.findall(nodes.table))


def body_rows(table):
    """The number of rows of @table under its header"""
    return sum(len(body.children) for body in table.findall(nodes.tbody))


@pytest.mark.parametrize('name', DT.NAMES)
def test_fragment_is_rst(frags, name):
    """Each fragment is reStructuredText without a warning, in 80 columns"""
    tables = rst_tables(frags[name])
    assert tables, name
    assert [line for line in frags[name].split('\n') if len(line) > 80] == []


def test_fragment_rows(frags):
    """A row per patch of the series, per edit of the overlay, per cell"""
    assert [body_rows(t) for t in rst_tables(frags['series'])] == [len(SE.PARTS)]
    assert [body_rows(t) for t in rst_tables(frags['overlay-edits'])] == [len(OV.EDITS)]
    assert [body_rows(t) for t in rst_tables(frags['cells'])][1:] == \
        [len(RT.CELLS), len(RT.ARM32_CELLS), len(RT.BOARD_CELLS)]
    deps = subprocess.run([DT.DEPS, '--list'], capture_output=True, text=True, check=True)
    assert [body_rows(t) for t in rst_tables(frags['packages'])] == \
        [len(deps.stdout.splitlines())]


def test_makefile_guards():
    """The Makefile as it is passes; one whose recipe no longer passes a
    variable the cells table shows is refused, naming the target"""
    text = read(DT.MAKEFILE)
    DT.check_guards(text)
    other = text.replace('CELLS="$(MASTER_CELLS)"', 'CELLS="$(MIDDLE_CELLS)"')
    assert other != text
    with pytest.raises(DT.DocError, match='check-releases'):
        DT.check_guards(other)


def test_develop_page_up_to_date():
    """doc/develop/perfrec.rst's tables are the code's (else: make doc-tables)"""
    res = run('--check', DEVELOP)
    assert res.returncode == 0, res.stdout + res.stderr
