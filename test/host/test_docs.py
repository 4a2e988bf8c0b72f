# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host test: the docs' shape, and what they say about the code

"""The README is a first screen, the command's page has U-Boot's cmd page
shape, no doc names a tracker issue or carries a CI trial's log, and what
the docs say about the code is there: every make target they name is the
Makefile's, every perfrec option they name is in Kconfig and every option a
user sets is described, and the guide's board fragment is the file the tests
build with.
"""

import os
import re

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = 'README.md'
CMD_PAGE = 'doc/usage/cmd/perfrec.rst'
GUIDE = 'doc/usage/perfrec.rst'
DEVELOP = 'doc/develop/perfrec.rst'
DOCS = (README, CMD_PAGE, GUIDE, DEVELOP, 'doc/api/perf.rst', 'bench/README.md')
CMD_SECTIONS = ['Synopsis', 'Description', 'Examples', 'Configuration', 'Return value']
# Generated blocks (.. name:start / .. name:end) are tables, not prose
GENERATED = re.compile(r'^\.\. ([\w-]+):start$.*?^\.\. \1:end$', re.M | re.S)


def read(path):
    """The text of @path in the repository"""
    with open(os.path.join(REPO, path), encoding='utf-8') as inf:
        return inf.read()


def headings(text, underline):
    """The titles underlined with @underline in reStructuredText @text"""
    lines = text.split('\n')
    return [lines[i - 1] for i in range(1, len(lines))
            if lines[i] and set(lines[i]) == {underline} and
            len(lines[i]) >= len(lines[i - 1]) > 0]


def test_readme_first_screen():
    """At most 300 lines, the two commands in its first section, the demo's
    transcript filled in"""
    text = read(README)
    assert len(text.splitlines()) <= 300, len(text.splitlines())
    two = text.split('## The two commands', 1)[1].split('\n## ', 1)[0]
    assert re.search(r'^make demo\b', two, re.M) and re.search(r'^make check\b', two, re.M)
    demo = text.split('<!-- demo:start -->', 1)[1].split('<!-- demo:end -->', 1)[0]
    assert '=> perfrec record' in demo and '$ perf report' in demo, demo


def test_cmd_page_shape():
    """U-Boot's cmd page: an index entry, the five sections in order, at most
    400 lines of at most 80 columns"""
    text = read(CMD_PAGE)
    lines = text.splitlines()
    assert len(lines) <= 400, len(lines)
    assert [n for n, line in enumerate(lines, 1) if len(line) > 80] == []
    assert re.search(r'^\.\. index::\n   single: perfrec \(command\)$', text, re.M)
    assert headings(text, '-') == CMD_SECTIONS


@pytest.mark.parametrize('path', [GUIDE, DEVELOP])
def test_guides_80_columns(path):
    """The guides' prose and examples fit 80 columns (generated tables aside)"""
    text = GENERATED.sub('', read(path))
    assert [line for line in text.splitlines() if len(line) > 80] == []


@pytest.mark.parametrize('path', DOCS + ('drivers/perf/Kconfig',))
def test_no_tracker_or_trial_log(path):
    """No tracker issue by number, no CI trial with its commit or date"""
    text = read(path)
    found = re.findall(r'\b[Ii]ssues? #?\d+|\bCI (?:trial|run) (?:of|on) [0-9a-f]{7}|'
                       r'fresh clone of [0-9a-f]{7}|\b20\d\d-\d\d-\d\d\b', text)
    assert found == []


def makefile_targets():
    """Every target the Makefile defines, and its phony ones"""
    text = read('Makefile')
    targets = set(re.findall(r'^([a-z][\w-]*)\s*:(?!=)', text, re.M))
    for phony in re.findall(r'^\.PHONY:((?:.*\\\n)*.*)$', text, re.M):
        targets.update(phony.replace('\\', ' ').split())
    return targets


@pytest.mark.parametrize('path', DOCS)
def test_make_targets_exist(path):
    """Every 'make <target>' a doc names in code is a target of the Makefile"""
    # In code: `make x`, ``make x``, or a command line starting with it
    named = set(re.findall(r'(?:^|`)make ((?:[a-z]\w*-)*[a-z]\w*)\b(?![.\w/-])', read(path),
                           re.M))
    assert not named - makefile_targets(), sorted(named - makefile_targets())


def kconfig_options():
    """{option: has a prompt} of drivers/perf/Kconfig"""
    found = {}
    for block in re.split(r'^(?=config )', read('drivers/perf/Kconfig'), flags=re.M)[1:]:
        name = block.split()[1]
        found[name] = bool(re.search(r'^\t(?:bool|int|hex|string) "', block, re.M))
    return found


def test_kconfig_options_documented():
    """Every perfrec option the docs name exists, and every one a user sets
    is named in the command's page or the guide"""
    options = kconfig_options()
    named = set()
    for path in DOCS:
        named.update(re.findall(r'CONFIG_((?:CMD_|UT_)?PERF(?:REC)?_\w+)', read(path)))
    assert not named - set(options), sorted(named - set(options))
    user = read(CMD_PAGE) + read(GUIDE)
    missing = [o for o, prompt in options.items() if prompt and 'CONFIG_' + o not in user]
    assert missing == []


def test_board_fragment_in_guide():
    """The guide's Kconfig fragment is configs/perfrec-board.config, which the
    Makefile's builds (tests and real boards) merge"""
    fragment = read('configs/perfrec-board.config')
    block = re.search(r'``configs/perfrec-board.config``.*?::\n\n((?:    [^\n]*\n)+)', read(GUIDE),
                      re.S)
    assert block, 'the guide shows no fragment'
    assert re.sub(r'^    ', '', block.group(1), flags=re.M) == fragment
    assert 'configs/perfrec-board.config' in re.search(
        r'^PERFREC_FRAGMENT\s*:=(.*)$', read('Makefile'), re.M).group(1)
