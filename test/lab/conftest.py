# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""make check-lab: a skipped test is a failed one (nothing here may be left out)"""


def pytest_runtest_logreport(report):
    """Turn a skip into a failure"""
    if report.skipped:
        report.outcome = 'failed'
        report.longrepr = 'skipped, which make check-lab counts as a failure: %s' % (
            report.longrepr,)
