# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host test: every script the docs tell you to run runs

"""Every script that README.md, bench/README.md or the docs pages run
directly (at the start of a command line, or of an inline command) exists,
starts with '#!' and has its run bit: 'tools/perfrec/perfrec_diff.py ...'
once answered "Permission denied". Every script of the project with a '#!'
line is executable too, so that the next one the docs name is.
"""

import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ('README.md', 'bench/README.md', 'doc/usage/cmd/perfrec.rst',
        'doc/usage/perfrec.rst', 'doc/develop/perfrec.rst')
SCRIPT_DIRS = ('tools/perfrec', 'scripts', 'bench')
PATH = r'((?:tools/perfrec|scripts|bench)/[\w./-]+\.(?:py|sh))'
# A command line in a code block ('$ ' or none before it), or an inline
# command: the path, then its arguments
RUN = re.compile(rf'^\s*(?:\$ )?{PATH}(?:\s|$)|`{PATH}\s[^`]*`', re.M)


def run_by_docs():
    """{script: doc} for each script a doc runs directly"""
    found = {}
    for doc in DOCS:
        with open(os.path.join(REPO, doc), encoding='utf-8') as inf:
            text = inf.read()
        for match in RUN.finditer(text):
            found.setdefault(match.group(1) or match.group(2), doc)
    return found


def has_shebang(path):
    """True if the file starts with '#!'"""
    with open(path, 'rb') as inf:
        return inf.read(2) == b'#!'


def test_docs_scripts_run():
    """Each script the docs run is there, with '#!' and its run bit"""
    found = run_by_docs()
    assert 'tools/perfrec/perfrec_diff.py' in found, found
    for script, doc in found.items():
        path = os.path.join(REPO, script)
        assert os.path.isfile(path), f'{doc} runs {script}, which is not there'
        assert has_shebang(path), f'{doc} runs {script}, which has no #! line'
        assert os.access(path, os.X_OK), f'{doc} runs {script}, which is not executable'


def test_scripts_executable():
    """Each of the project's scripts with a '#!' line has its run bit"""
    for folder in SCRIPT_DIRS:
        for name in sorted(os.listdir(os.path.join(REPO, folder))):
            path = os.path.join(REPO, folder, name)
            if os.path.isfile(path) and has_shebang(path):
                assert os.access(path, os.X_OK), f'{folder}/{name} is not executable'
