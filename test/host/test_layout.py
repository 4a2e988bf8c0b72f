# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Host tests of scripts/perfrec_layout.py: circles between files, and limits.

The project itself must hold exactly what KNOWN lists (a finding fixed is
taken off it, a new one fails). Synthetic trees show that each rule finds
what it should and nothing else: a call circle between C files, one through
a private header, a header calling into a C file that includes it, the
recorder including a header of drivers/, an import circle in Python, a
file and a function over their limits; a static function, a name in a comment, a struct tag and a
public header are no edge.
"""

import os
import sys

from test_overlay import REPO

sys.path.insert(0, os.path.join(REPO, 'scripts'))

# pylint: disable=wrong-import-position
import perfrec_layout as LA  # noqa: E402  # pylint: disable=import-error


def write(top, rel, text):
    """Write @text to @rel under @top"""
    path = os.path.join(str(top), rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as outf:
        outf.write(text)


def test_project_as_known(capsys):
    """The project's findings are exactly KNOWN"""
    assert LA.main([]) == 0, capsys.readouterr().out


def test_c_call_circle(tmp_path):
    """a.c calls b.c's function and b.c calls a.c's: one circle"""
    write(tmp_path, 'drivers/perf/a.c', 'int a_fn(void)\n{\n\treturn b_fn();\n}\n')
    write(tmp_path, 'drivers/perf/b.c', 'int b_fn(void)\n{\n\treturn a_fn();\n}\n')
    assert LA.findings(str(tmp_path)) == {'circle: drivers/perf/a.c drivers/perf/b.c'}


def test_c_no_false_edges(tmp_path):
    """Down calls only, plus what must not count: a static function of the
    same name, a name in a comment or a string, a struct tag, a public header"""
    write(tmp_path, 'include/shared.h', 'struct lower;\nint lower_fn(void);\n')
    write(tmp_path, 'lib/lower.c',
          '#include <shared.h>\n'
          '/* upper_fn() calls us */\n'
          'static int upper_fn(void)\n{\n\treturn 0;\n}\n\n'
          'int lower_fn(void)\n{\n\tputs("upper_var");\n\treturn upper_fn();\n}\n'
          'struct upper_var *p;\n')
    write(tmp_path, 'cmd/upper.c',
          '#include <shared.h>\n'
          'int upper_var;\n\n'
          'int upper_fn(void)\n{\n\treturn lower_fn();\n}\n')
    graph = LA.c_graph(str(tmp_path), LA.project_files(str(tmp_path), LA.C_DIRS, ('.c', '.h')))
    assert graph == {'cmd/upper.c': {'lib/lower.c'}, 'lib/lower.c': set()}
    assert not LA.findings(str(tmp_path))


def test_c_private_header_circle(tmp_path):
    """b.c includes a.c's private header, a.c calls b.c: a circle"""
    write(tmp_path, 'drivers/perf/a.h', 'static inline int a_inline(void) { return 1; }\n')
    write(tmp_path, 'drivers/perf/a.c', 'int a_fn(void)\n{\n\treturn b_fn();\n}\n')
    write(tmp_path, 'drivers/perf/b.c',
          '#include "a.h"\n\nint b_fn(void)\n{\n\treturn a_inline();\n}\n')
    assert LA.findings(str(tmp_path)) == {'circle: drivers/perf/a.c drivers/perf/b.c'}


def test_header_calls_into_its_includer(tmp_path):
    """An architecture's header whose inline function calls a function of a
    C file that includes it (through another header, found as the build's
    -I path finds it) is a circle; the same header only declaring it is not"""
    write(tmp_path, 'drivers/perf/arm/x_arch.h',
          'u64 x_read(uint n);\n\nstatic inline u64 read_x0(void)\n{\n'
          '\treturn x_read(0);\n}\n')
    write(tmp_path, 'drivers/perf/x_cpu.h', '#include "x_arch.h"\n')
    write(tmp_path, 'drivers/perf/arm/x_cpu.c',
          '#include "x_cpu.h"\n\nu64 x_read(uint n)\n{\n\treturn n;\n}\n')
    assert LA.findings(str(tmp_path)) == {
        'header: drivers/perf/arm/x_arch.h drivers/perf/arm/x_cpu.c'}
    write(tmp_path, 'drivers/perf/arm/x_arch.h', 'u64 x_read(uint n);\n')
    assert not LA.findings(str(tmp_path))


def test_python_import_circle(tmp_path):
    """x imports y, y imports z, z imports x: one circle of three"""
    write(tmp_path, 'scripts/x.py', 'import y\n')
    write(tmp_path, 'scripts/y.py', 'from z import f\n')
    write(tmp_path, 'scripts/z.py', 'import os\nimport x\n\n\ndef f():\n    """f"""\n')
    assert LA.findings(str(tmp_path)) == {'circle: scripts/x.py scripts/y.py scripts/z.py'}


def test_limits(tmp_path):
    """A file one line over LINE_LIMIT, a function one line over FUNC_LIMIT
    (and one that says why it may be longer)"""
    write(tmp_path, 'tools/perfrec/big.py', '\n' * (LA.LINE_LIMIT + 1))
    write(tmp_path, 'tools/perfrec/fits.py', '\n' * LA.LINE_LIMIT)
    body = '\tx++;\n' * (LA.FUNC_LIMIT - 3)
    write(tmp_path, 'lib/f.c',
          f'int long_fn(int x)\n{{\n{body}\tx++;\n}}\n\n'
          f'int fits_fn(int x)\n{{\n{body}}}\n\n'
          f'/* {LA.FUNC_EXEMPT}: the fast path */\nint exempt_fn(int x)\n{{\n{body}\tx++;\n}}\n')
    assert LA.findings(str(tmp_path)) == {'lines: tools/perfrec/big.py',
                                          'function: lib/f.c long_fn'}


def test_layers(tmp_path):
    """The hardware calling the recorder is a call up, and so is including a
    recorder's private header from the hardware (found by its name, as an
    -I path finds it); the recorder calling the hardware is not"""
    write(tmp_path, 'lib/perfrec/rec.h', 'int rec_fn(void);\n')
    write(tmp_path, 'lib/perfrec/rec.c',
          '#include <hw.h>\n\nint rec_fn(void)\n{\n\treturn hw_fn();\n}\n')
    write(tmp_path, 'include/hw.h', 'int hw_fn(void);\n')
    write(tmp_path, 'drivers/perf/hw.c', 'int hw_fn(void)\n{\n\treturn 0;\n}\n')
    assert not LA.findings(str(tmp_path))
    write(tmp_path, 'drivers/perf/low.c', '#include "rec.h"\n\nint low_fn;\n')
    assert LA.findings(str(tmp_path)) == {'up: drivers/perf/low.c lib/perfrec/rec.c'}


def test_recorder_public_headers(tmp_path):
    """The recorder including a header of drivers/ (quoted, or found by an
    -I path), or its Makefile adding such a path, is a finding; a public
    header of include/ and its own private header are not"""
    write(tmp_path, 'include/hw.h', 'int hw_fn(void);\n')
    write(tmp_path, 'lib/perfrec/rec.h', 'int rec_fn(void);\n')
    write(tmp_path, 'lib/perfrec/rec.c', '#include <hw.h>\n#include "rec.h"\n\nint rec_var;\n')
    write(tmp_path, 'lib/perfrec/Makefile', 'obj-y += rec.o\n')
    write(tmp_path, 'drivers/perf/arm64/hw_arch.h', 'int hw_arch_fn(void);\n')
    assert not LA.findings(str(tmp_path))
    write(tmp_path, 'lib/perfrec/rec2.c', '#include "hw_arch.h"\n\nint rec2_var;\n')
    write(tmp_path, 'lib/perfrec/Makefile',
          'ccflags-y += -I$(srctree)/drivers/perf/arm64\nobj-y += rec.o\n')
    assert LA.findings(str(tmp_path)) == {
        'private: lib/perfrec/rec2.c drivers/perf/arm64/hw_arch.h',
        'include path: lib/perfrec/Makefile'}


def test_c_struct_global(tmp_path):
    """A global of a struct type is a name its file defines: another file
    that uses it depends on that file (a struct tag alone does not)"""
    write(tmp_path, 'lib/perfrec/state.c', 'struct state state;\n')
    write(tmp_path, 'lib/perfrec/user.c',
          'int user_fn(void)\n{\n\treturn state.count;\n}\n')
    write(tmp_path, 'lib/perfrec/tag.c', 'int tag_fn(struct state *s)\n{\n\treturn 0;\n}\n')
    graph = LA.c_graph(str(tmp_path), LA.project_files(str(tmp_path), LA.C_DIRS, ('.c', '.h')))
    assert graph == {'lib/perfrec/state.c': set(), 'lib/perfrec/tag.c': set(),
                     'lib/perfrec/user.c': {'lib/perfrec/state.c'}}
