# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""pytest plugin of perfrec's QEMU matrix (loaded with -p by
scripts/perfrec_run_tests.py)

- The console fixture: U-Boot 2025.07 renamed test/py's console fixture from
  u_boot_console to ubman, the name perfrec's tests use. On older trees this
  plugin gives ubman as that older fixture; on newer trees conftest.py's own
  ubman takes precedence and this one is unused.
- Where each test runs: the tests in ONE_CELL prove nothing that differs
  between the cells (EL, GIC, icount, CPU), so they run in one cell per
  release, the one perfrec_run_tests.py starts with PERFREC_ALL_TESTS=1;
  every other cell deselects them. Deselected tests are not skipped ones:
  a skip still fails the cell. doc/develop/perfrec.rst ("Where each test
  runs") gives the argument for each group.
"""

import os

import pytest

# Test functions (parameters included) that run in one cell per release
ONE_CELL = {
    # Host side: perf.data read by host tools, on a recording whose
    # cell-dependent parts (samples, periods, chains) the per-cell tests check
    'test_perfrec_callgraph_flamegraph',
    'test_perfrec_diff_knob', 'test_perfrec_diff_gate', 'test_perfrec_diff_frequency',
    'test_perfrec_hotspot_names', 'test_perfrec_hotspot_controls',
    'test_perfrec_debug_info_truth',
    'test_perfrec_build_id',
    # The console and the extractor: the dump and the stream run in the
    # command loop with nothing armed, through the same UART driver in every cell
    'test_perfrec_dump_uart', 'test_perfrec_dump_broken_transfer',
    'test_perfrec_dump_stream_after_record', 'test_perfrec_stream',
    'test_perfrec_stream_rate',
    # PMU-free code in U-Boot: its unit tests ('ut lib'), the report engine
    # and the OS device tree's /reserved-memory fixup
    'test_perfrec_ut',
    'test_perfrec_report_matches_perf', 'test_perfrec_report_call_paths',
    'test_perfrec_fdt_reserved_memory',
    # The command line: parsed and refused before anything is armed (the
    # refusals that come after arming, such as a nested record, are in every
    # cell's soak)
    'test_perfrec_help', 'test_perfrec_bad_input', 'test_perfrec_event_errors',
    'test_perfrec_report_bad_input', 'test_perfrec_cpu_clock_bad_input',
    # A CPU without a PMU: its own boot (pmu=off); the fallback is the
    # cpu-clock path every cell proves, and the refusals come before arming
    'test_perfrec_no_pmu',
}


@pytest.fixture(scope='function')
def ubman(request):
    """The U-Boot console of trees that call it u_boot_console"""
    return request.getfixturevalue('u_boot_console')


def one_cell(item):
    """Whether a collected test runs in one cell per release only"""
    return getattr(item, 'originalname', item.name) in ONE_CELL


def pytest_collection_modifyitems(config, items):
    """Outside the cell that runs them all, deselect the ONE_CELL tests
    (PERFREC_ALL_TESTS=0; unset, as in a run by hand, runs everything)"""
    if os.environ.get('PERFREC_ALL_TESTS', '1') == '1':
        return
    keep = [item for item in items if not one_cell(item)]
    dropped = [item for item in items if one_cell(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
