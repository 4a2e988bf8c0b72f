# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the offline flame graph: perf's flamegraph.py, d3-flame-graph, Chromium

"""Host tests of tools/perfrec/perfrec_flamegraph.py and its browser check.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_flamegraph.py

The perf.data files here come from the Python builder of test_perfrec_data.py,
for test/host/flame_fixture.c: a small aarch64 image with a known call tree
(test_perfrec_callgraph.py makes a graph of a real -g recording on QEMU). The callchains hold its real return
addresses, read off objdump's call sites. The host perf's own flame graph
script turns them into a page with d3-flame-graph's offline template (npm,
tools/perfrec/flamegraph/); the page must load nothing from outside, and
Debian's headless Chromium (through playwright-core) must draw it without a
single error, with the hottest function as a labelled frame as wide as its
share of the samples. A recording without callchains gives a graph of the
root and the comm alone: that is what perf's script does.

Needs: linux-perf, nodejs, chromium (scripts/perfrec-deps.sh) and the npm
packages ('npm ci' in tools/perfrec/flamegraph). A missing one fails the tests.
PERFREC_FLAME_PNG=PATH copies the callchain test's picture there (the README's).
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys

import pytest

from conftest import CROSS_COMPILE, GEN_BASE, PERF, REPO, build_fixture, perfrec_data, run, tool
from test_perfrec_data import BASIC, CONTEXT_USER, build

sys.path.insert(0, os.path.join(REPO, 'tools', 'perfrec'))
# pylint: disable=wrong-import-position
import perfrec_flamegraph  # noqa: E402

P = perfrec_data
NPM_DIR = os.path.join(REPO, 'tools', 'perfrec', 'flamegraph')
SCRIPT = os.path.join(REPO, 'tools', 'perfrec', 'perfrec_flamegraph.py')
CHECKER = os.path.join(NPM_DIR, 'check-flamegraph.mjs')
COMM = 'u-boot (1)'         # perf's script names the process "comm (pid)"
PNG_WIDTH = 1200

# Call paths from _start to the sampled function, and how many samples each
MAIN = ('_start', 'flame_main')
PLAN = (
    (MAIN + ('flame_command', 'flame_crc32', 'flame_crc32_loop'), 12),
    (MAIN + ('flame_command', 'flame_copy'), 4),
    (MAIN + ('flame_init', 'flame_init_dram'), 2),
    (MAIN + ('flame_command',), 1),
)
HOTTEST = 'flame_crc32_loop'
TOTAL = sum(count for _, count in PLAN)


@pytest.fixture(scope='module')
def npm_installed():
    """The npm packages of tools/perfrec/flamegraph, which 'npm ci' installs"""
    for pkg in ('d3-flame-graph', 'playwright-core'):
        if not os.path.isdir(os.path.join(NPM_DIR, 'node_modules', pkg)):
            pytest.fail('%s is not installed: run "npm ci" in %s (scripts/perfrec-deps.sh '
                        'does)' % (pkg, NPM_DIR))
    return tool('node')


@pytest.fixture(scope='module')
def flame_elf(tmp_path_factory):
    """flame_fixture.c linked at 0, and its call sites: (caller, callee) -> return address"""
    elf = build_fixture(str(tmp_path_factory.mktemp('flamesymfs')), 0, source='flame_fixture.c')
    out = run([tool(CROSS_COMPILE + 'objdump'), '-d', elf.path]).stdout
    sites = {}
    func = None
    for line in out.splitlines():
        mat = re.match(r'^[0-9a-f]+ <(\w+)>:$', line)
        if mat:
            func = mat.group(1)
            continue
        mat = re.match(r'^\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+bl\s+[0-9a-f]+ <(\w+)>$', line)
        if mat:
            ret = int(mat.group(1), 16) + 4
            assert elf.function_at(ret) == func, 'call at the end of %s' % func
            sites[(func, mat.group(2))] = ret
    elf.sites = sites
    return elf


def callchain(elf, path):
    """The run-time callchain of a sample in the last function of call @path"""
    ip = elf.runtime(path[-1], GEN_BASE)
    rets = [elf.sites[(caller, callee)] - elf.text_base + GEN_BASE
            for caller, callee in zip(path, path[1:])]
    return ip, [CONTEXT_USER, ip] + rets[::-1]


def make_data(elf, path, with_callchain):
    """Write the PLAN's samples, interleaved, to @path; return it"""
    left = [[p, n] for p, n in PLAN]
    samples = []
    while any(n for _, n in left):
        for item in left:
            if item[1]:
                ip, chain = callchain(elf, item[0])
                samples.append((ip, chain if with_callchain else None, 0))
                item[1] -= 1
    stype = BASIC | P.SAMPLE_IDENTIFIER | (P.SAMPLE_CALLCHAIN if with_callchain else 0)
    with open(path, 'wb') as outf:
        outf.write(build(stype, 1, samples, GEN_BASE, elf.image_len, elf.pgoff))
    assert len(P.load(path).samples) == TOTAL
    return path


def tree(node):
    """perf's stacks JSON as {name: (self samples, {children})}"""
    return {node['n']: (node['v'], {k: v for child in node['c'] for k, v in tree(child).items()})}


def expected_tree():
    """The tree perf's script should make of the PLAN"""
    root = {}
    level = None
    for path, count in PLAN:
        level = root.setdefault(COMM, [0, {}])
        for name in path:
            level = level[1].setdefault(name, [0, {}])
        level[0] += count

    def freeze(nodes):
        return {name: (val[0], freeze(val[1])) for name, val in nodes.items()}
    return {'all': (0, freeze(root))}


def page_stacks(html_path):
    """The stacks perf's script put in the page"""
    with open(html_path, encoding='utf-8') as inf:
        text = inf.read()
    mat = re.search(r'const stacks = \[(.*?)\];\s*const options', text, re.S)
    assert mat, 'no stacks in %s' % html_path
    return tree(json.loads(mat.group(1)))


def make_page(data, elf, html_path, extra=()):
    """Run perfrec_flamegraph.py; return the CompletedProcess, checked"""
    proc = run(['/usr/bin/python3', SCRIPT, '-i', data, '--symfs', elf.symfs, '-o', html_path] +
               list(extra), env=dict(os.environ, PERF=PERF))
    assert proc.stderr == '', proc.stderr
    with open(html_path, encoding='utf-8') as inf:
        assert not perfrec_flamegraph.remote_refs(inf.read())
    assert perfrec_flamegraph.check_page(html_path) == []
    return proc


def browser(html_path, check=True, hover=None):
    """check-flamegraph.mjs --json on @html_path; return (exit code, result or None, stderr)"""
    args = [tool('node'), CHECKER, '--json', html_path]
    if hover:
        args += ['--hover', hover]
    proc = subprocess.run(args, capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL, timeout=120)
    if check:
        assert proc.returncode == 0 and proc.stderr == '', \
            'browser check failed (%d):\n%s' % (proc.returncode, proc.stderr)
    result = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, result, proc.stderr


def png_size(path):
    """(width, height) of PNG @path"""
    with open(path, 'rb') as inf:
        head = inf.read(24)
    assert head[:8] == b'\x89PNG\r\n\x1a\n' and head[12:16] == b'IHDR', '%s is no PNG' % path
    return struct.unpack('>II', head[16:24])


@pytest.mark.usefixtures('npm_installed')
def test_callchain_flamegraph(flame_elf, tmp_path):
    """Callchains become named frames; Chromium draws them offline, the hottest widest"""
    data = make_data(flame_elf, str(tmp_path / 'perf.data'), True)
    html_path = str(tmp_path / 'flame.html')
    png = str(tmp_path / 'flame.png')
    proc = make_page(data, flame_elf, html_path, ['--png', png, '--hover', HOTTEST])

    # perf's script built exactly the call tree of the samples
    assert page_stacks(html_path) == expected_tree()

    # The script printed the labels Chromium drew, outermost first, and made the PNG
    lines = proc.stdout.splitlines()
    assert lines[0] == 'perfrec_flamegraph: wrote %s (%d bytes, offline)' % (
        html_path, os.path.getsize(html_path))
    assert lines[-1] == 'perfrec_flamegraph: wrote %s' % png
    names = {name for path, _ in PLAN for name in path}
    assert lines[1:3] == ['all', COMM]
    assert set(lines[3:-1]) == names
    width, height = png_size(png)
    assert width == PNG_WIDTH and 150 < height < 400, (width, height)
    if os.environ.get('PERFREC_FLAME_PNG'):
        shutil.copyfile(png, os.environ['PERFREC_FLAME_PNG'])

    # The hottest function is a labelled frame as wide as its share of the samples,
    # which the line under the graph tells when the pointer is on it
    _, result, _ = browser(html_path, hover=HOTTEST)
    assert result['details'] == '%s (%.3f%%, 12 samples)' % (HOTTEST, 100 * 12 / TOTAL)
    frames = {f['name']: f for f in result['frames']}
    assert set(frames) == names | {'all', COMM}
    hot = frames[HOTTEST]
    assert hot['shown'] and hot['label'] == HOTTEST
    assert hot['title'].startswith('%s (%.3f%%, 12 samples)' % (HOTTEST, 100 * 12 / TOTAL))
    assert abs(hot['width'] - frames['all']['width'] * 12 / TOTAL) <= 2
    assert hot['width'] > frames['flame_copy']['width'] > frames['flame_init_dram']['width']
    # Callees sit above their callers, and the root at the bottom
    assert hot['y'] < frames['flame_crc32']['y'] < frames['flame_command']['y'] < \
        frames['flame_main']['y'] < frames['_start']['y'] < frames[COMM]['y'] < \
        frames['all']['y']


@pytest.mark.usefixtures('npm_installed')
def test_flat_flamegraph(flame_elf, tmp_path):
    """Without callchains perf's script gives the root and the comm, nothing more"""
    data = make_data(flame_elf, str(tmp_path / 'flat.data'), False)
    html_path = str(tmp_path / 'flat.html')
    make_page(data, flame_elf, html_path)
    assert page_stacks(html_path) == {'all': (0, {COMM: (TOTAL, {})})}
    _, result, _ = browser(html_path)
    assert [(f['name'], f['label'], f['shown']) for f in result['frames']] == \
        [('all', 'all', True), (COMM, COMM, True)]


@pytest.mark.usefixtures('npm_installed')
def test_browser_check_fails_on_remote_and_errors(flame_elf, tmp_path):
    """The browser check stops requests for remote addresses and fails on errors"""
    data = make_data(flame_elf, str(tmp_path / 'perf.data'), True)
    good = str(tmp_path / 'good.html')
    make_page(data, flame_elf, good)
    with open(good, encoding='utf-8') as inf:
        text = inf.read()
    # Loopback only: the check aborts the request before it leaves the page
    bad = text.replace('<title>Flame Graph</title>', '<title>Flame Graph</title>'
                       '<script src="http://127.0.0.1:9/d3.js"></script>', 1)
    bad = bad.replace('flamegraph(stacks[0], options[0]);',
                      'flamegraph(stacks[0], options[0]); no_such_function();', 1)
    bad_path = str(tmp_path / 'bad.html')
    with open(bad_path, 'w', encoding='utf-8') as outf:
        outf.write(bad)
    assert perfrec_flamegraph.remote_refs(bad) == [
        '<script src="http://127.0.0.1:9/d3.js">']
    code, result, err = browser(bad_path, check=False)
    assert code == 1
    assert 'request for a remote address: http://127.0.0.1:9/d3.js' in err
    assert 'page error: no_such_function is not defined' in err
    assert result['problems'] and all(p in err for p in result['problems'])


@pytest.mark.parametrize('page, refs', [
    ('<script src="https://cdn.example/d3.js"></script>',
     ['<script src="https://cdn.example/d3.js">']),
    ('<link rel="stylesheet" href="//cdn.example/a.css">',
     ['<link href="//cdn.example/a.css">']),
    ('<style>body { background: url("http://x.example/a.png") }</style>',
     ['<style> url("http://']),
    ('<style>@import "https://x.example/a.css";</style>', ['<style> @import "https://']),
    ('<img srcset="a.png 1x, https://x.example/b.png 2x">',
     ['<img srcset="a.png 1x, https://x.example/b.png 2x">']),
    ('<meta http-equiv="refresh" content="0; url=https://x.example/">',
     ['<meta content="0; url=https://x.example/">']),
    ('<script src="local.js"></script><img src="data:image/png;base64,AAAA">'
     '<script>const ns = "http://www.w3.org/2000/svg";</script>'
     '<svg xmlns="http://www.w3.org/2000/svg"></svg>', []),
])
def test_remote_refs(page, refs):
    """Remote scripts, styles, links and images are found; inline code and namespaces are not"""
    assert perfrec_flamegraph.remote_refs(page) == refs


@pytest.mark.usefixtures('npm_installed')
def test_template_is_offline():
    """npm's d3-flame-graph template inlines everything and has both placeholders"""
    with open(perfrec_flamegraph.TEMPLATE, encoding='utf-8') as inf:
        text = inf.read()
    assert not perfrec_flamegraph.remote_refs(text)
    assert all(ph in text for ph in perfrec_flamegraph.PLACEHOLDERS)


def test_missing_template(flame_elf, tmp_path):
    """A missing template fails with a hint and writes nothing"""
    data = make_data(flame_elf, str(tmp_path / 'perf.data'), True)
    out = tmp_path / 'flame.html'
    proc = run(['/usr/bin/python3', SCRIPT, '-i', data, '--symfs', flame_elf.symfs,
                '-o', str(out), '--template', str(tmp_path / 'none.html')], check=False)
    assert proc.returncode == 1
    assert 'template' in proc.stderr and 'npm ci' in proc.stderr
    assert not out.exists()
