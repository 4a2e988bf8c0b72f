# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# perfrec's unit tests ('ut lib') in the QEMU test build

"""The unit tests of the perf.data writer (test/lib/perf_data.c) and of
perfrec's PMU-free code (test/lib/perfrec.c and perfrec_hw.c: report engine, stream refill,
buffer checks, page-table walk) run in the test build itself, on arm64,
the architecture the profiler runs on. Every test the sources define must
have run, with no failure: a test that silently stops being built or run
fails here. (make check-sandbox runs the same suites on sandbox.)
"""

import os
import re

import pytest

from perfrec_helpers import TIMEOUT_MS, run_rc


def defined(cons, sources, prefix):
    """The names of the LIB_TEST()s in @sources whose name starts with @prefix"""
    names = []
    for source in sources:
        with open(os.path.join(cons.config.source_dir, source), encoding='utf-8') as inf:
            names += re.findall(rf'^[A-Z_]*TEST\(lib_test_({prefix}\w*)', inf.read(), re.M)
    return names


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('ut_perf_data')
@pytest.mark.buildconfigspec('ut_perfrec')
@pytest.mark.parametrize('prefix,sources', [
    ('perf_data_', ['test/lib/perf_data.c', 'test/lib/perf_data_pipe.c']),
    ('perfrec_', ['test/lib/perfrec.c', 'test/lib/perfrec_hw.c'])])
def test_perfrec_ut(ubman, prefix, sources):
    """'ut lib <prefix>*' runs every test of @sources, and none fails"""
    cons = ubman
    want = defined(cons, sources, prefix)
    assert want, sources
    with cons.temporary_timeout(TIMEOUT_MS):
        out, ret = run_rc(cons, f'ut lib {prefix}*')
    # 'Test: lib_test_<name>: <file>' up to 2025.07, 'Test: <name>' after
    ran = re.findall(rf'^Test: (?:lib_test_)?({prefix}\w*)', out, re.M)
    assert sorted(ran) == sorted(want), out
    assert re.search(r'^(Failures: 0|Tests run: \d+, .*failures: 0)\s*$', out, re.M), out
    assert ret == 0, out
