#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Make an interactive, offline flame graph page of a perf.data.

Usage:
    perfrec_flamegraph.py -i perf.data --symfs DIR -o flame.html [--template PATH]
                          [--browser] [--png flame.png] [--hover NAME]

Runs the host perf's own flame graph script (perf script -s flamegraph.py, the
script behind 'perf script report flamegraph') with d3-flame-graph's template,
whose scripts and styles are inlined, so the page needs no network to view.
The template and the browser check come from npm and are installed by 'npm ci'
in tools/perfrec/flamegraph/. The page must then exist, hold the samples and
load nothing from outside: no script, style, link, image or frame from a
remote address. --browser loads it in headless Chromium
(tools/perfrec/flamegraph/check-flamegraph.mjs), which fails on any error or
outside request and prints the frame labels it drew; --png also writes a
screenshot of it (--hover NAME: with the pointer on that frame, whose share
the line under the graph then tells).

perf's script makes its stacks from the samples' callchains
(PERF_SAMPLE_CALLCHAIN); a recording without them gives a single frame per
command (its comm and pid) over the root "all". Frame sizes are sample
counts, not periods. Standard library only; exit code 0 when all went well.
"""

import argparse
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The npm packages: next to this script, or where PERFREC_NPM_DIR says (a copy
# of the script in a U-Boot tree uses the project's)
NPM_DIR = os.environ.get('PERFREC_NPM_DIR') or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), 'flamegraph')
TEMPLATE = os.path.join(NPM_DIR, 'node_modules', 'd3-flame-graph', 'dist', 'templates',
                        'd3-flamegraph-base.html')
CHECKER = os.path.join(NPM_DIR, 'check-flamegraph.mjs')
PERF = os.environ.get('PERF', '/usr/bin/perf')
PERF_SCRIPT = '/usr/lib/perf-core/scripts/python/flamegraph.py'

# What the template holds until perf's script fills it in
PLACEHOLDERS = ('/** @flamegraph_json **/', '/** @options_json **/')
# perf's stderr lines that say nothing is wrong
PERF_HARMLESS = (
    re.compile(r'unwind: target platform=arm64 is not supported'),
)
# An address that leaves the page: a scheme with an authority, or "//host"
REMOTE = re.compile(r'^\s*(?:[a-z][a-z0-9+.-]*:)?//', re.I)
CSS_REMOTE = re.compile(r'(?:url\(\s*[\'"]?|@import\s+[\'"])\s*(?:[a-z][a-z0-9+.-]*:)?//', re.I)
URL_ATTRS = {'src', 'href', 'data', 'poster', 'action', 'formaction', 'background',
             'xlink:href', 'manifest', 'ping'}


class _RefFinder(html.parser.HTMLParser):
    """Collect the page's references to remote addresses"""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self._in_style = tag == 'style'
        for name, value in attrs:
            if value is None:
                continue
            name = name.lower()
            if name in URL_ATTRS and REMOTE.match(value):
                self.refs.append(f'<{tag} {name}="{value}">')
            elif name == 'srcset' and any(REMOTE.match(part)
                                          for part in value.split(',')):
                self.refs.append(f'<{tag} srcset="{value}">')
            elif name == 'style' and CSS_REMOTE.search(value):
                self.refs.append(f'<{tag} style="{value}">')
            elif (tag == 'meta' and name == 'content' and
                  re.search(r'url\s*=\s*(?:[a-z][a-z0-9+.-]*:)?//', value, re.I)):
                self.refs.append(f'<meta content="{value}">')

    def handle_endtag(self, tag):
        if tag == 'style':
            self._in_style = False

    def handle_data(self, data):
        if self._in_style and CSS_REMOTE.search(data):
            self.refs.append(f'<style> {CSS_REMOTE.search(data).group(0)}')


def remote_refs(text):
    """Return the references to remote addresses in HTML @text (empty: none)

    Script bodies are not read (d3's code names XML namespaces with http://
    strings that load nothing); the browser check catches what scripts load.
    """
    finder = _RefFinder()
    finder.feed(text)
    finder.close()
    return finder.refs


def check_page(path):
    """Return a list of problems with the flame graph page at @path (empty: good)"""
    if not os.path.isfile(path) or not os.path.getsize(path):
        return [f'{path} was not written']
    with open(path, encoding='utf-8') as inf:
        text = inf.read()
    problems = [f'{path} still holds the template placeholder {ph}'
                for ph in PLACEHOLDERS if ph in text]
    if '"n": "all"' not in text:
        problems.append(f'{path} holds no stacks')
    problems += [f'{path} refers to a remote address: {ref}'
                 for ref in remote_refs(text)]
    return problems


# pylint: disable-next=too-many-arguments  # perf, its input, and the script's options
def run_perf(perf, data, symfs, template, output, script, colorscheme):
    """Run perf's flame graph script; return the CompletedProcess

    perf's script reads the report header with a plain 'perf report
    --header-only', that is of ./perf.data, so it runs in a temporary directory
    where perf.data is the input, with a HOME of its own (perf writes
    ~/.debug) and this perf first on PATH. A pipe-mode stream on standard
    input ('-') has no header to read, as the script knows.
    """
    with tempfile.TemporaryDirectory(prefix='perfrec-flamegraph-') as tmp:
        args = [perf, 'script', '-i', data if data == '-' else 'perf.data']
        if data != '-':
            os.symlink(os.path.abspath(data), os.path.join(tmp, 'perf.data'))
        if symfs:
            args.append('--symfs=' + os.path.abspath(symfs))
        args += ['-s', script, '--', '--format', 'html', '--template',
                 os.path.abspath(template), '--colorscheme', colorscheme,
                 '-o', os.path.abspath(output)]
        if data == '-':
            args += ['--input', '-']
        env = dict(os.environ, HOME=tmp, PAGER='cat',
                   PATH=os.path.dirname(os.path.abspath(perf)) + os.pathsep +
                   os.environ.get('PATH', '/usr/bin:/bin'))
        env.pop('PERF_CONFIG', None)
        return subprocess.run(args, cwd=tmp, env=env, capture_output=True, text=True,
                              check=False, stdin=None if data == '-' else subprocess.DEVNULL)


def browser_check(page, png=None, width=1200, hover=None, node='node'):
    """Load @page in headless Chromium; return (exit code, stdout, stderr)

    With @hover, the pointer rests on the frame of that name (for @png).

    Prints nothing itself: the caller shows the frame labels (stdout) and the
    problems (stderr) that check-flamegraph.mjs reported.
    """
    args = [node, CHECKER, '--width', str(width)]
    if png:
        args += ['--png', os.path.abspath(png)]
    if hover:
        args += ['--hover', hover]
    proc = subprocess.run(args + [os.path.abspath(page)], capture_output=True, text=True,
                          check=False, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def _missing_input(args):
    """Return what is missing of what @args names to read, or None"""
    npm_hint = f'run "make deps", or "npm ci" in {NPM_DIR}'
    for path, what, hint in ((args.template, 'template', npm_hint),
                             (args.script, "perf's flame graph script", 'install linux-perf'),
                             (args.perf, 'perf', 'install linux-perf')):
        if not os.path.isfile(path):
            return f'{what} {path} not found: {hint}'
    if args.input != '-' and not os.path.isfile(args.input):
        return f'no such file: {args.input}'
    if args.symfs and not os.path.isdir(args.symfs):
        return f'--symfs {args.symfs} is not a directory'
    return None


def _check_in_browser(args):
    """Load the page written for @args in the browser; return what failed, or None"""
    node = shutil.which('node')
    if not node:
        return 'node not found: install nodejs'
    if not os.path.isdir(os.path.join(NPM_DIR, 'node_modules', 'playwright-core')):
        return f'playwright-core not installed: run "make deps", or "npm ci" in {NPM_DIR}'
    code, out, err = browser_check(args.output, args.png, args.png_width, args.hover, node)
    sys.stdout.write(out)
    sys.stderr.write(err)
    if code:
        return f'the browser check of {args.output} failed (exit {code})'
    if args.png:
        print(f'perfrec_flamegraph: wrote {args.png}')
    return None


def main(argv=None):
    """Make the flame graph page (and picture); return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('-i', '--input', required=True,
                        help="perf.data to read ('-': a pipe-mode stream on stdin)")
    parser.add_argument('--symfs', help='directory holding the u-boot ELF, as for perf')
    parser.add_argument('-o', '--output', required=True, help='the HTML page to write')
    parser.add_argument('--template', default=TEMPLATE,
                        help="d3-flame-graph's offline template (default: npm's, %(default)s)")
    parser.add_argument('--perf', default=PERF, help='host perf (default %(default)s)')
    parser.add_argument('--script', default=PERF_SCRIPT,
                        help="perf's flame graph script (default %(default)s)")
    parser.add_argument('--colorscheme', default='blue-green', choices=('blue-green', 'orange'),
                        help='colours of the frames (default %(default)s)')
    parser.add_argument('--browser', action='store_true',
                        help='load the page in headless Chromium and print its frame labels')
    parser.add_argument('--png', help='write a screenshot of the page (implies --browser)')
    parser.add_argument('--hover', metavar='NAME',
                        help='in the browser, rest the pointer on frame NAME, whose share '
                        'the line under the graph then tells (for --png)')
    parser.add_argument('--png-width', type=int, default=1200,
                        help='page width for the screenshot, in pixels (default %(default)s)')
    args = parser.parse_args(argv)

    def fail(msg):
        print(f'perfrec_flamegraph: {msg}', file=sys.stderr)
        return 1

    missing = _missing_input(args)
    if missing:
        return fail(missing)
    for path in (args.output, args.png):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            if os.path.exists(path):
                os.remove(path)

    proc = run_perf(args.perf, args.input, args.symfs, args.template, args.output,
                    args.script, args.colorscheme)
    noise = [line for line in proc.stderr.splitlines() if line.strip() and
             not any(pat.fullmatch(line.strip()) for pat in PERF_HARMLESS)]
    if proc.returncode:
        return fail(f'perf script exited {proc.returncode}:\n' + '\n'.join(noise))
    for line in noise:
        print(f'perfrec_flamegraph: perf: {line}', file=sys.stderr)
    problems = check_page(args.output)
    if problems:
        return fail('\n'.join(problems))
    print(f'perfrec_flamegraph: wrote {args.output} ({os.path.getsize(args.output)} bytes, '
          'offline)')

    if args.browser or args.png or args.hover:
        failed = _check_in_browser(args)
        if failed:
            return fail(failed)
    return 0


if __name__ == '__main__':
    sys.exit(main())
