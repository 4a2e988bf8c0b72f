# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""scripts/perfrec_perf_versions.py's rule for perf 6.1's and perf 7's
'perf script -F ip,sym' lines: the same names, the same sample addresses,
chain addresses one constant apart (perf 6.1 prints them map-relative)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'scripts'))
# pylint: disable-next=wrong-import-position
from perfrec_perf_versions import differ  # noqa: E402

OLD = ['    7fe84bf0 crc32_no_comp', '\t           10bec crc32_no_comp',
       '\t            3f00 do_mem_crc', '']
NEW = ['    7fe84bf0 crc32_no_comp', '\t        7fe84bec crc32_no_comp',
       '\t        7fe77f00 do_mem_crc', '']


def test_perf_versions_agree():
    """Names and sample addresses equal, chain addresses one map start apart,
    an address in no map the same in both"""
    assert differ(OLD, NEW) is None
    assert differ(OLD, OLD) is None
    unmapped = '\t    8000000000001234 [unknown]'
    assert differ(OLD[:1] + [unmapped] + OLD[1:], NEW[:1] + [unmapped] + NEW[1:]) is None


def test_perf_versions_differ():
    """Each kind of difference is named, with its line"""
    assert differ(OLD, NEW[:2]) == '4 lines from perf 6.1, 2 from perf 7'
    name = NEW[:2] + ['\t        7fe77f00 [unknown]', '']
    assert differ(OLD, name).startswith('line 3: perf 6.1 ')
    addr = ['    7fe84bf4 crc32_no_comp'] + NEW[1:]
    assert differ(OLD, addr) == 'line 1: sample address perf 6.1 7fe84bf0, perf 7 7fe84bf4'
    shift = NEW[:2] + ['\t        7fe77f04 do_mem_crc', '']
    assert differ(OLD, shift) == ('line 3: chain address perf 6.1 3f00, perf 7 7fe77f04: '
                                  'not 0x7fe74000 apart')
    moved = NEW[:3] + ['\t        1235 [unknown]']
    assert differ(OLD[:3] + ['\t        1234 [unknown]'], moved) == \
        'line 4: unmapped chain address perf 6.1 1234, perf 7 1235'
