#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Check perfrec's layout: no circle between files, no file or function too long.

Usage:
    perfrec_layout.py [--top <dir>]

Each layer calls only down. The check builds two graphs and reports every
circle (a strongly connected component of more than one file):

- C: file A depends on file B when A names a function or variable that B
  defines without 'static', or includes B's private header (foo.h beside
  foo.c, found by its name wherever it is outside include/). Tokens are
  read with comments, strings and struct, enum and union tags removed, so
  a name in a comment or a type is no call;
- Python: file A depends on B when A imports B (a project module, by name).

A header must not call into a file that includes it: a name an inline
function or a macro of header H calls, defined by C file C, where C
includes H (directly or through other project headers: a quoted name is
looked for beside the file first, then as any project header of that name,
as the build's -I paths find the architecture's perfrec_arch.h) is
reported as 'header: H C'. Such a header compiles only because C's
prototype is seen first, and it ties the layers below C to C.

Each C file also has a layer (LAYERS): the command over the recorder in
lib/perfrec/, over the hardware in drivers/perf/, over the perf.data writer.
A dependency of a file on a higher layer is reported too ('up: A B').

The recorder reaches the hardware through its public headers only
(include/): a file of lib/perfrec/ that includes a header of drivers/
(found as above) is reported as 'private: A H', and an include path into
drivers/ in lib/perfrec/Makefile as 'include path: lib/perfrec/Makefile'.

Then the limits: no C file, header or Python file over LINE_LIMIT lines, no
C function over FUNC_LIMIT lines (a function may carry its reason for more
in a comment holding FUNC_EXEMPT).

What is still over a limit or in a circle is listed in KNOWN: the check
fails when it finds anything not listed, and when something listed is gone
(take it off the list). The exit code is 1 then, 0 otherwise.
"""

import argparse
import ast
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LINE_LIMIT = 600
FUNC_LIMIT = 80
FUNC_EXEMPT = 'perfrec-layout: long'

# Where the project's C and Python live (the tree's own build/ is not)
C_DIRS = ['arch', 'cmd', 'common', 'drivers/perf', 'include', 'lib', 'test/lib']
PY_DIRS = ['bench', 'scripts', 'test', 'tools/perfrec']

# The layers of the C files, highest first: a file may depend on its own
# layer and those below (a path prefix; unlisted files are not checked)
LAYERS = ['cmd/', 'lib/perfrec/', 'drivers/perf/', 'lib/perf_data']
# The recorder: public headers only of what is below it
RECORDER = 'lib/perfrec/'

# What is over a limit or in a circle today, each to be taken off as it is
# fixed: nothing now, and a finding that appears fails the check
KNOWN = set()

C_SKIP = re.compile(r'(^|/)(build|__pycache__)(/|$)')
TOKEN = re.compile(r'[A-Za-z_]\w*')
# A definition at column 0: 'type name(' or 'type *name(' (c_defines() takes
# 'static' off first); a variable's, with its struct tag gone (strip_c())
C_FUNC_DEF = re.compile(r'^(?!typedef\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(')
C_VAR_DEF = re.compile(r'^(?!extern\b)(?!typedef\b)(?:const\s+)?\w+[\s\*]+([A-Za-z_]\w*)\s*'
                       r'(?:\[[^\]]*\])?\s*[=;]')
C_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
# A call: a name and its opening parenthesis
C_CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
C_ANY_DEF = re.compile(r'^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;]*$')


def project_files(top, dirs, exts):
    """Project files under @dirs of @top with one of @exts, relative, sorted"""
    found = []
    for sub in dirs:
        for root, subdirs, files in os.walk(os.path.join(top, sub)):
            subdirs[:] = [d for d in subdirs if not C_SKIP.search(d)]
            for name in files:
                if name.endswith(exts):
                    found.append(os.path.relpath(os.path.join(root, name), top))
    return sorted(found)


def strip_c(text):
    """@text with comments, strings and character constants blanked (lines kept)"""
    out = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    out = re.sub(r'//[^\n]*', '', out)
    out = re.sub(r'^\s*#\s*include[^\n]*', '', out, flags=re.M)
    out = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', out)
    out = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", out)
    # The tag goes, the keyword stays: 'struct foo foo;' still defines foo
    return re.sub(r'\b(struct|enum|union)\s+\w+', r'\1', out)


def c_defines(text):
    """(names a C file defines for other files, names it defines 'static')"""
    names, statics = set(), set()
    depth = 0
    for line in text.splitlines():
        if depth == 0 and not line.startswith((' ', '\t', '#')):
            own = line.startswith('static')
            line = line[len('static'):].lstrip() if own else line
            func = C_FUNC_DEF.match(line)
            var = C_VAR_DEF.match(line)
            if func and not line.rstrip().endswith(';'):
                (statics if own else names).add(func.group(1))
            elif var:
                (statics if own else names).add(var.group(1))
        depth += line.count('{') - line.count('}')
    return names, statics


def c_owners(stripped):
    """({name: the C file that defines it for others}, {file: its static names})"""
    owner, statics = {}, {}
    for rel, text in stripped.items():
        if rel.endswith('.c'):
            names, statics[rel] = c_defines(text)
            for name in names:
                owner.setdefault(name, rel)
    return owner, statics


def c_texts(top, files):
    """({file: its text}, {file: its text through strip_c()}) for @files of @top"""
    texts = {}
    for rel in files:
        with open(os.path.join(top, rel), encoding='utf-8', errors='replace') as inf:
            texts[rel] = inf.read()
    return texts, {rel: strip_c(text) for rel, text in texts.items()}


def c_graph(top, files):
    """{file: set of files it depends on} for the C files"""
    texts, stripped = c_texts(top, files)
    owner, statics = c_owners(stripped)
    sources = {rel[:-2] for rel in files if rel.endswith('.c')}
    # A private header's C file: the one beside it with its name
    private = {os.path.basename(rel): rel[:-2] + '.c' for rel in files
               if rel.endswith('.h') and not rel.startswith('include/') and rel[:-2] in sources}
    graph = {}
    for rel, hidden in statics.items():
        # A static definition hides another file's name of the same spelling
        deps = {owner[name] for name in set(TOKEN.findall(stripped[rel])) - hidden
                if name in owner}
        deps |= {private[inc] for inc in C_INCLUDE.findall(texts[rel]) if inc in private}
        graph[rel] = deps - {rel}
    return graph


def header_calls(stripped):
    """The names @stripped (a header's text) calls from a function body or a macro"""
    calls, depth = set(), 0
    for line in stripped.splitlines():
        if depth or line.lstrip().startswith('#'):
            calls |= set(C_CALL.findall(line))
        depth += line.count('{') - line.count('}')
    return calls


def included(rel, name, names):
    """The project headers an include of @name in @rel finds (see the docstring)"""
    beside = os.path.normpath(os.path.join(os.path.dirname(rel), name))
    if beside in names.get(os.path.basename(name), ()):
        return [beside]
    return [dep for dep in names.get(os.path.basename(name), ())
            if dep.endswith('/' + name)]


def header_circles(top, files):
    """[(header, C file)]: the header calls a name the C file defines, which includes it"""
    texts, stripped = c_texts(top, files)
    owner, _ = c_owners(stripped)
    names = {}
    for rel in files:
        if rel.endswith('.h'):
            names.setdefault(os.path.basename(rel), []).append(rel)
    incs = {rel: {dep for name in C_INCLUDE.findall(text) for dep in included(rel, name, names)}
            for rel, text in texts.items()}
    found = []
    for hdr in sorted(incs):
        if not hdr.endswith('.h'):
            continue
        for name in sorted(header_calls(stripped[hdr])):
            src = owner.get(name)
            seen, todo = set(), [src] if src else []
            while todo:
                cur = todo.pop()
                for dep in incs.get(cur, ()):
                    if dep not in seen:
                        seen.add(dep)
                        todo.append(dep)
            if hdr in seen:
                found.append((hdr, src))
    return sorted(set(found))


def private_includes(top, files):
    """[(file, header)]: a file of the recorder that includes a header of drivers/"""
    texts, _ = c_texts(top, files)
    names = {}
    for rel in files:
        if rel.endswith('.h'):
            names.setdefault(os.path.basename(rel), []).append(rel)
    return sorted((rel, dep) for rel, text in texts.items() if rel.startswith(RECORDER)
                  for name in C_INCLUDE.findall(text) for dep in included(rel, name, names)
                  if dep.startswith('drivers/'))


def include_paths(top):
    """Whether the recorder's Makefile adds an include path into drivers/"""
    path = os.path.join(top, RECORDER, 'Makefile')
    if not os.path.exists(path):
        return False
    with open(path, encoding='utf-8') as inf:
        return bool(re.search(r'-I\S*\bdrivers/', inf.read()))


def layer(rel):
    """@rel's layer: 0 the highest, None if it has none"""
    return next((idx for idx, pre in enumerate(LAYERS) if rel.startswith(pre)), None)


def upward(graph):
    """The dependencies of @graph on a higher layer, as (file, file)"""
    return sorted((rel, dep) for rel, deps in graph.items() for dep in deps
                  if layer(rel) is not None and layer(dep) is not None and
                  layer(dep) < layer(rel))


def py_graph(top, files):
    """{file: set of files it imports} for the Python files, by module name"""
    modules = {}
    for rel in files:
        modules.setdefault(os.path.basename(rel)[:-3], rel)
    graph = {}
    for rel in files:
        with open(os.path.join(top, rel), encoding='utf-8') as inf:
            tree = ast.parse(inf.read(), rel)
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                dep = modules.get(name.split('.')[0])
                if dep and dep != rel:
                    deps.add(dep)
        graph[rel] = deps
    return graph


def circles(graph):
    """The strongly connected components of @graph with more than one node"""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        work = [(node, iter(sorted(graph.get(node, ()))))]
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        while work:
            cur, deps = work[-1]
            for dep in deps:
                if dep not in index:
                    index[dep] = low[dep] = len(index)
                    stack.append(dep)
                    on_stack.add(dep)
                    work.append((dep, iter(sorted(graph.get(dep, ())))))
                    break
                if dep in on_stack:
                    low[cur] = min(low[cur], index[dep])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[cur])
                if low[cur] == index[cur]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == cur:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def long_functions(text):
    """[(name, lines)] of the C functions in @text longer than FUNC_LIMIT"""
    found = []
    lines = text.splitlines()
    start = name = None
    for num, line in enumerate(lines):
        if start is None:
            match = C_ANY_DEF.match(line)
            if match and not line.startswith(('typedef', '#')):
                name, start = match.group(1), num
            continue
        if line.startswith('}'):
            body = lines[start:num + 1]
            if len(body) > FUNC_LIMIT and not any(FUNC_EXEMPT in part for part in
                                                  lines[max(0, start - 12):num]):
                found.append((name, len(body)))
            start = None
        elif line.rstrip().endswith(';') and not line.startswith((' ', '\t', '{')):
            start = None        # a prototype, not a definition
    return found


def findings(top):
    """Every circle and every file or function over its limit, as KNOWN spells them"""
    found = set()
    c_files = project_files(top, C_DIRS, ('.c', '.h', '.S'))
    py_files = project_files(top, PY_DIRS, ('.py',))
    graph = c_graph(top, [f for f in c_files if not f.endswith('.S')])
    for comp in circles(graph):
        found.add('circle: ' + ' '.join(comp))
    for rel, dep in upward(graph):
        found.add(f'up: {rel} {dep}')
    for hdr, src in header_circles(top, [f for f in c_files if not f.endswith('.S')]):
        found.add(f'header: {hdr} {src}')
    for rel, hdr in private_includes(top, [f for f in c_files if not f.endswith('.S')]):
        found.add(f'private: {rel} {hdr}')
    if include_paths(top):
        found.add(f'include path: {RECORDER}Makefile')
    for comp in circles(py_graph(top, py_files)):
        found.add('circle: ' + ' '.join(comp))
    for rel in c_files + py_files:
        with open(os.path.join(top, rel), encoding='utf-8', errors='replace') as inf:
            text = inf.read()
        if text.count('\n') > LINE_LIMIT:
            found.add('lines: ' + rel)
        if rel.endswith('.c'):
            for name, _ in long_functions(text):
                found.add(f'function: {rel} {name}')
    return found


def main(argv=None):
    """Print what is new and what is fixed against KNOWN; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--top', default=TOP, help='the project tree')
    args = parser.parse_args(argv)
    found = findings(args.top)
    new = sorted(found - KNOWN)
    gone = sorted(KNOWN - found)
    for item in new:
        print(f'perfrec_layout: {item}')
    for item in gone:
        print(f'perfrec_layout: fixed, take it off KNOWN: {item}')
    print(f'perfrec_layout: {len(found)} known finding(s) left, {len(new)} new, '
          f'{len(gone)} fixed')
    return 1 if new or gone else 0


if __name__ == '__main__':
    sys.exit(main())
