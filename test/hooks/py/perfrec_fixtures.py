# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""pytest plugin for test/py trees older than 2025.07

U-Boot 2025.07 renamed test/py's console fixture from u_boot_console to
ubman, the name perfrec's tests use. On older trees this plugin (loaded with
-p by scripts/perfrec_run_tests.py) gives ubman as that older fixture; on
newer trees conftest.py's own ubman takes precedence and this one is unused.
"""

import pytest


@pytest.fixture(scope='function')
def ubman(request):
    """The U-Boot console of trees that call it u_boot_console"""
    return request.getfixturevalue('u_boot_console')
