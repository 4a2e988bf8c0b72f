# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec's MAINTAINERS entry, and the entries earlier overlays wrote.

The overlay (perfrec_overlay.py) puts MAINTAINERS_ENTRY into the tree, in
place of any of OLD_ENTRIES a tree overlaid before holds; the series
(perfrec_series.py) grows it patch by patch, each adding the F: lines of
its new files.
"""

import re

MAINTAINERS_ENTRY = '''PERFREC SAMPLING PROFILER
M:	perfrec developers <perfrec@localhost>
S:	Maintained
F:	arch/arm/Makefile.postlink
F:	cmd/perfrec*
F:	doc/api/perf.rst
F:	doc/develop/perfrec.rst
F:	doc/usage/cmd/perfrec.rst
F:	doc/usage/perfrec.rst
F:	drivers/perf/
F:	include/perf_data.h
F:	include/perfrec*.h
F:	lib/perf_data*
F:	lib/perfrec/
F:	scripts/perfrec_pgoff.py
F:	test/lib/perf_data*
F:	test/lib/perfrec*.c
F:	test/py/tests/*perfrec*
F:	test/py/tests/perfparser_stream.py
F:	tools/perfrec/*.py
F:	tools/perfrec/flamegraph/
F:	tools/perfrec/host/
F:	tools/perfrec/perfrec_verdict.c

'''

# The entry before the verdict tool, with one line for all of tools/perfrec/
ENTRY_ONE_TOOLS = re.sub(r'(F:\ttools/perfrec/\S+\n)+', 'F:\ttools/perfrec/\n', MAINTAINERS_ENTRY)
# The entry before the guide
ENTRY_NO_GUIDE = ENTRY_ONE_TOOLS.replace('F:\tdoc/usage/perfrec.rst\n', '')
# The entry before the recorder moved to lib/ and the unit tests split
ENTRY_NO_LIB = (ENTRY_NO_GUIDE.replace('F:\tlib/perf_data*\nF:\tlib/perfrec/\n', '')
                .replace('F:\ttest/lib/perf_data*\n', 'F:\ttest/lib/perf_data.c\n')
                .replace('F:\ttest/lib/perfrec*.c\n', 'F:\ttest/lib/perfrec.c\n'))
# The entry before it named the perfrec files it had missed
ENTRY_BEFORE = (ENTRY_NO_LIB.replace('F:\tarch/arm/Makefile.postlink\n', '')
                .replace('F:\tcmd/perfrec*\n', 'F:\tcmd/perfrec*.c\n')
                .replace('F:\ttest/py/tests/perfparser_stream.py\n', ''))

# What earlier overlays wrote, newest first: each is swapped for the entry
OLD_ENTRIES = [
    ENTRY_ONE_TOOLS,
    ENTRY_NO_GUIDE,
    ENTRY_NO_LIB,
    ENTRY_BEFORE.replace('F:\ttest/lib/perf_data.c\n', '').replace('F:\ttest/lib/perfrec.c\n', ''),
    ENTRY_BEFORE.replace('F:\ttest/lib/perfrec.c\n', ''),
    ENTRY_BEFORE,
    ENTRY_NO_LIB.replace('F:\tdoc/develop/perfrec.rst\n', ''),
]
