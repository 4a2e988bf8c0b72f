# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of tools/perfrec/perfrec_report.py

"""Host tests of tools/perfrec/perfrec_report.py, the one-step host helper.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perfrec_report_tool.py

Recordings come from the writer's host driver for the fixture image with a
sha1 build-id (test_perf_data_buildid.py's PLAN: 30, 10 and 2 samples). The
helper must print perf's report with the right names through --symfs or
the build-id cache, annotate the hottest function, fold the stacks of a
call-chain recording exactly, and refuse an ELF of another build.
"""

import os
import subprocess

from conftest import REPO
from test_flamegraph import PLAN as FLAME_PLAN, flame_elf, make_data  # noqa: F401 (fixture)
from test_perf_data_buildid import PLAN, write

TOOL = os.path.join(REPO, 'tools', 'perfrec', 'perfrec_report.py')


def run_tool(tmp_path, *args, script=TOOL):
    """Run @script (the helper) with a private perf HOME; return the CompletedProcess"""
    home = tmp_path / 'home'
    home.mkdir(exist_ok=True)
    return subprocess.run(['/usr/bin/python3', script] + [str(a) for a in args],
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=str(home), PAGER='cat'))


def shares(out):
    """{symbol: samples} of a perf report --stdio -n"""
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[-2] == '[.]':
            rows[parts[-1]] = int(parts[1])
    return rows


def test_report_symfs_and_cache(gen, elf_sha1, tmp_path):
    """The report names the plan's functions through --symfs, and through the cache"""
    path, _ = write(gen, elf_sha1, tmp_path, 'file', elf_sha1.build_id)
    for extra in ([], ['--cache']):
        proc = run_tool(tmp_path, path, elf_sha1.symfs, *extra, '--', '-n')
        assert proc.returncode == 0, proc.stderr
        assert shares(proc.stdout) == dict(PLAN), proc.stdout
    # The cache now holds the ELF: plain perf finds it with no --symfs
    listed = subprocess.run(['perf', 'buildid-list', '-i', str(path)], capture_output=True,
                            text=True, check=True,
                            env=dict(os.environ, HOME=str(tmp_path / 'home'))).stdout
    assert elf_sha1.build_id.hex() in listed
    assert os.path.isdir(tmp_path / 'home' / '.debug' / '.build-id')


def test_mismatch_refused(gen, elf_sha1, elf_sha1_other, tmp_path):
    """An ELF of another build: one line naming both build-ids, exit 1, no report"""
    path, _ = write(gen, elf_sha1, tmp_path, 'file', elf_sha1.build_id)
    proc = run_tool(tmp_path, path, elf_sha1_other.symfs)
    assert proc.returncode == 1 and proc.stdout == ''
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert elf_sha1.build_id.hex() in lines[0] and elf_sha1_other.build_id.hex() in lines[0]


def test_no_build_id_warns(gen, elf, tmp_path):
    """A recording without a build-id is reported through --symfs, with a note"""
    path, _ = write(gen, elf, tmp_path, 'file', None)
    proc = run_tool(tmp_path, path, elf.symfs, '--', '-n')
    assert proc.returncode == 0
    assert 'carries no build-id' in proc.stderr
    assert shares(proc.stdout) == dict(PLAN)
    assert run_tool(tmp_path, path, elf.symfs, '--cache').returncode == 1


def test_annotate_hottest(gen, elf_sha1, tmp_path):
    """--annotate with no name annotates the function with the most samples"""
    path, _ = write(gen, elf_sha1, tmp_path, 'file', elf_sha1.build_id)
    proc = run_tool(tmp_path, path, elf_sha1.symfs, '--annotate')
    assert proc.returncode == 0, proc.stderr
    hot = max(PLAN, key=lambda p: p[1])[0]
    assert 'Disassembly of section .text' in proc.stdout or hot in proc.stdout, proc.stdout
    assert 'Percent' in proc.stdout and hot in proc.stdout
    others = [name for name, _ in PLAN if name != hot]
    assert not any('<%s>:' % name in proc.stdout for name in others)


def test_folded_stacks(flame_elf, tmp_path):
    """--folded gives each call path once, outermost first, with its sample count"""
    data = make_data(flame_elf, str(tmp_path / 'perf.data'), True)
    proc = run_tool(tmp_path, data, flame_elf.symfs, '--folded')
    assert proc.returncode == 0, proc.stderr
    folded = {}
    for line in proc.stdout.splitlines():
        stack, count = line.rsplit(' ', 1)
        folded[stack] = int(count)
    assert folded == {';'.join(('u-boot',) + path): count for path, count in FLAME_PLAN}


def test_missing_files(tmp_path):
    """A missing perf.data or ELF: one line naming it, exit 1"""
    proc = run_tool(tmp_path, tmp_path / 'nope.data', tmp_path)
    assert proc.returncode == 1 and 'nope.data: no such file' in proc.stderr
