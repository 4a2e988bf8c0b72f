# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host test: the benchmarks' tables in the doc page (reStructuredText)

"""The bench scripts (make bench, bench-boot, bench-size, bench-diff) print
Markdown and put it between marker lines of doc/develop/perfrec.rst:
bench/perfrec_bench_rst.py's markdown_to_rst must give reStructuredText
that docutils reads without a message and with the same text, and
update_readme must change nothing outside the markers. A Markdown file
keeps its HTML-comment markers and gets the Markdown as it is.
"""

import io
import os
import sys

import docutils.core
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))
sys.path.insert(0, os.path.join(REPO, 'bench'))

# pylint: disable=wrong-import-position
import perfrec_bench  # noqa: E402
import perfrec_boot_bench  # noqa: E402
import perfrec_diff_bench  # noqa: E402
import perfrec_exact_bench  # noqa: E402
import perfrec_size  # noqa: E402
from perfrec_bench_report import (markdown_to_rst, readme_markers,  # noqa: E402
                                  update_readme)
from perfrec_bench_runner import BenchError  # noqa: E402

# Markdown as the bench scripts write it, with what reStructuredText reads
# otherwise: *, |x|, name_, __x__, a literal touching a word, a trailing
# '::', an option-list start, a backslash, entities, empty cells, a short row
MARKDOWN = r'''Figures over `crc32 0x40000000 0x1000000`: *x, |sub|, name_ and __init__,
`-g`s, 2 * 3, a `literal`_, and **bold** text::

-c 10000 is no option: C:\path, a \* star, a &lt;tag&gt; and a\_b.

| cell | one event<br>`-c 20000` | a \| b |
|---|---:|:---:|
| EL1 / GICv2 | 112 | - |
| +1.5% | 2. | `x` |
| trace_ | |

- first *item*
- second|third
'''

PARAGRAPHS = [
    'Figures over crc32 0x40000000 0x1000000: *x, |sub|, name_ and __init__, -gs, 2 * 3, '
    'a literal_, and bold text::',
    '-c 10000 is no option: C:\\path, a * star, a <tag> and a_b.',
    'first item',
    'second|third',
]
CELLS = ['cell', 'one event -c 20000', 'a | b',
         'EL1 / GICv2', '112', '-',
         '+1.5%', '2.', 'x',
         'trace_', '', '']


def doctree(rst):
    """Parse @rst with docutils; fail on any message, even an informational one"""
    stream = io.StringIO()
    doc = docutils.core.publish_doctree(rst, settings_overrides={
        'report_level': 1, 'halt_level': 5, 'warning_stream': stream})
    msgs = [m.astext() for m in doc.findall(lambda n: n.tagname == 'system_message')]
    assert not stream.getvalue() and not msgs, f'{stream.getvalue()}{msgs}\n{rst}'
    return doc


def texts(doc, tagname, inside_table=None):
    """Whitespace-normalised text of @doc's @tagname nodes (inside a table's
    entries or outside them, if @inside_table is not None)"""
    out = []
    for node in doc.findall(lambda n: n.tagname == tagname):
        if inside_table is not None and (node.parent.tagname == 'entry') != inside_table:
            continue
        out.append(' '.join(node.astext().split()))
    return out


def test_markdown_to_rst():
    """The Markdown becomes reStructuredText docutils reads back unchanged"""
    rst = markdown_to_rst(MARKDOWN)
    doc = doctree(rst)
    assert texts(doc, 'paragraph', inside_table=False) == PARAGRAPHS, rst
    assert texts(doc, 'entry') == CELLS, rst
    assert texts(doc, 'thead') == [' '.join(CELLS[:3])]
    assert len(list(doc.findall(lambda n: n.tagname == 'table'))) == 1
    assert len(list(doc.findall(lambda n: n.tagname == 'list_item'))) == 2
    assert texts(doc, 'literal') == ['crc32 0x40000000 0x1000000', '-g', 'literal',
                                     '-c 20000', 'x']
    assert texts(doc, 'strong') == ['bold']
    assert texts(doc, 'emphasis') == ['item']
    assert max(len(line) for line in rst.split('\n')) < 100


def test_markdown_to_rst_bench_tables():
    """A table as perfrec_bench_report.table() writes it, with <br> in a header"""
    text = '\n'.join(perfrec_bench.table(['cell', 'one<br>`-c 1`', 'total'],
                                       [['EL1 / GICv2', '1', '2'], ['floor: 128']])) + '\n'
    doc = doctree(markdown_to_rst(text))
    assert texts(doc, 'entry') == ['cell', 'one -c 1', 'total', 'EL1 / GICv2', '1', '2',
                                   'floor: 128', '', '']


@pytest.mark.parametrize('crlf', [False, True])
def test_update_rst(tmp_path, crlf):
    """A .rst file changes only between its marker lines, the same each time"""
    eol = '\r\n' if crlf else '\n'
    head = eol.join(['.. SPDX-License-Identifier: GPL-2.0+', '', 'Benchm\u00e4rks',
                     '==========', '', 'Before.', '', '.. bench:start']).encode('utf-8') + \
        eol.encode()
    tail = eol.join(['.. bench:end', '', 'After, with no newline at the end']).encode('utf-8')
    path = tmp_path / 'perfrec.rst'
    path.write_bytes(head + ('old' + eol + '' + eol).encode() + tail)
    for _ in range(2):
        update_readme(str(path), MARKDOWN)
        data = path.read_bytes()
        assert data.startswith(head) and data.endswith(tail)
        body = data[len(head):-len(tail)].decode('utf-8')
        assert body == ('\n' + markdown_to_rst(MARKDOWN) + '\n').replace('\n', eol)
    doc = doctree(data.decode('utf-8'))
    assert texts(doc, 'entry') == CELLS
    assert [c.astext() for c in doc.findall(lambda n: n.tagname == 'comment')] == \
        ['SPDX-License-Identifier: GPL-2.0+', 'bench:start', 'bench:end']

    # Another block's markers in the same file
    path.write_bytes(data.replace(b'After', eol.join(['.. size:start', '', '.. size:end',
                                                       'After']).encode()))
    update_readme(str(path), 'Sizes.\n', 'size')
    assert path.read_bytes() == data.replace(b'After', eol.join(
        ['.. size:start', '', 'Sizes.', '', '.. size:end', 'After']).encode())


@pytest.mark.parametrize('text, found', [
    ('Nothing here.\n', 'found 0 and 0'),
    ('.. bench:start\n\n.. bench:end\n\n.. bench:end\n', 'found 1 and 2'),
    ('.. bench:start\n\n.. bench:start\n\n.. bench:end\n', 'found 2 and 1'),
    ('<!-- bench:start -->\n<!-- bench:end -->\n', 'found 0 and 0'),
    ('.. note::\n\n   .. bench:start\n\n   .. bench:end\n', 'found 0 and 0'),
])
def test_rst_markers_wrong(tmp_path, text, found):
    """A .rst file without exactly one pair of markers is refused, untouched"""
    path = tmp_path / 'perfrec.rst'
    path.write_text(text, encoding='utf-8')
    with pytest.raises(BenchError) as exc:
        update_readme(str(path), MARKDOWN)
    msg = str(exc.value)
    assert str(path) in msg and found in msg, msg
    assert 'needs exactly one line ".. bench:start" and one line ".. bench:end"' in msg
    assert path.read_text(encoding='utf-8') == text


def test_rst_markers_order(tmp_path):
    """An end marker before the start one is refused"""
    path = tmp_path / 'perfrec.rst'
    path.write_text('.. bench:end\n\n.. bench:start\n', encoding='utf-8')
    with pytest.raises(BenchError, match='".. bench:end" comes before ".. bench:start"'):
        readme_markers(str(path))


def test_update_md(tmp_path):
    """A Markdown file gets the Markdown as it is between its HTML comments"""
    path = tmp_path / 'README.md'
    path.write_text('# Top\n<!-- bench-diff:start -->\nold\n<!-- bench-diff:end -->\nend\n')
    update_readme(str(path), '| a |\n|---|\n| `1` |\n', 'bench-diff')
    assert path.read_text() == ('# Top\n<!-- bench-diff:start -->\n| a |\n|---|\n| `1` |\n'
                                '<!-- bench-diff:end -->\nend\n')
    path.write_text('.. bench:start\n\n.. bench:end\n')
    with pytest.raises(BenchError, match='"<!-- bench:start -->"'):
        update_readme(str(path), 'x\n')


@pytest.mark.parametrize('opt', ['--doc', '--readme'])
@pytest.mark.parametrize('script, args, name', [
    (perfrec_bench, ['--build-dir', '/nonexistent'], 'bench'),
    (perfrec_boot_bench, ['--build-dir', '/nonexistent', '--off-dir', '/nonexistent',
                         '--plugin', '/nonexistent', '--rpi-dir', '/nonexistent'], 'bench-boot'),
    (perfrec_size, ['--full', '/nonexistent'], 'size'),
    (perfrec_diff_bench, ['--build-dir', '/nonexistent', '--out', '/nonexistent'],
     'bench-diff'),
    (perfrec_exact_bench, ['--build-dir', '/nonexistent', '--early-dir', '/nonexistent',
                           '--plugin', '/nonexistent', '--out', '/nonexistent'], 'bench-exact'),
])
def test_scripts_check_markers_first(  # pylint: disable=too-many-arguments
        tmp_path, capsys, opt, script, args, name):
    """Each script takes --doc (or --readme) and fails on a page without its
    markers before it boots anything"""
    path = tmp_path / 'perfrec.rst'
    path.write_text('Title\n=====\n', encoding='utf-8')
    assert script.main(args + [opt, str(path)]) == 1
    err = capsys.readouterr().err
    assert f'".. {name}:start"' in err and str(path) in err, err
