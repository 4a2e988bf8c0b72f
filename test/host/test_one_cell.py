# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host test: the tests that run in one cell per release are real tests, argued for

"""perfrec_fixtures.py's ONE_CELL names the test/py tests that run in one
cell per release only. Each name must be a test function in
test/py/tests/test_perfrec*.py (a renamed test would otherwise quietly run
everywhere, or a stale name hide nothing), none an early-boot test (those
run in cells of their own), and doc/develop/perfrec.rst's "Where each test
runs" must name each one, since that is where the argument for moving it is
made.
"""

import ast
import glob
import importlib.util
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one_cell():
    """perfrec_fixtures.ONE_CELL"""
    path = os.path.join(REPO, 'test/hooks/py/perfrec_fixtures.py')
    spec = importlib.util.spec_from_file_location('perfrec_fixtures', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.ONE_CELL


def collected_tests():
    """{name: file} of every test function in perfrec's test/py files"""
    found = {}
    for path in glob.glob(os.path.join(REPO, 'test/py/tests/test_perfrec*.py')):
        with open(path, encoding='utf-8') as inf:
            tree = ast.parse(inf.read())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith('test_'):
                found[node.name] = os.path.basename(path)
    return found


def docs_section():
    """The text of doc/develop/perfrec.rst's "Where each test runs" section,
    up to the next heading"""
    with open(os.path.join(REPO, 'doc/develop/perfrec.rst'), encoding='utf-8') as inf:
        text = inf.read()
    match = re.search(r'^Where each test runs\n~+\n(.*?)(?=^\S[^\n]*\n[-~=^]{3,}$)', text,
                      re.M | re.S)
    assert match, 'doc/develop/perfrec.rst has no "Where each test runs" section'
    return match.group(1)


def test_one_cell_names_are_tests():
    """Every listed name is a test function, and not an early-boot one"""
    funcs = collected_tests()
    names = one_cell()
    assert names and not names - set(funcs), sorted(names - set(funcs))
    assert not [n for n in names if funcs[n] == 'test_perfrec_early.py']


def test_one_cell_argued_in_docs():
    """The developer docs' argument names every moved test, and every other
    test it names (those kept in every cell) exists"""
    named = set(re.findall(r'``(test_perfrec_\w+)``', docs_section()))
    names = one_cell()
    assert not names - named, sorted(names - named)
    unknown = named - names - set(collected_tests())
    assert not unknown, sorted(unknown)
