#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Screenshot hotspot's Flame Graph tab for a perf.data file under Xvfb.

Starts a private Xvfb server, opens the given perf.data in hotspot with a
throw-away HOME/XDG configuration, waits until hotspot has finished parsing
(its process tree is idle), switches to the "Flame Graph" tab with Ctrl+Tab
key presses sent by xdotool, waits until the flame graph is drawn and saves
the hotspot window as a PNG.  The screen is read from Xvfb's memory-mapped
XWD frame buffer (-fbdir) and encoded with zlib, so no image tools are
needed.

Needs: hotspot, xvfb and xdotool (Debian packages of the same names);
adwaita-icon-theme only with --icon-theme Adwaita.

Example:
    perfrec_hotspot_shot.py -i perf.data -o doc/hotspot.png \\
        --arch aarch64 --app-path build --debug-paths build

The X server side (Xvfb, xdotool, the frame buffer) is in
perfrec_hotspot_xvfb.py, driving hotspot and the image checks in
perfrec_hotspot_drive.py.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from perfrec_hotspot_drive import take_shot
from perfrec_hotspot_xvfb import Deadline, ShotError, log

TOOLS = {
    'hotspot': 'hotspot',
    'Xvfb': 'xvfb',
    'xdotool': 'xdotool',
}


def parse_size(text):
    """Parse a screen size like '1280x800'

    Args:
        text (str): Size as WIDTHxHEIGHT

    Returns:
        tuple: (width, height) as int
    """
    try:
        width, height = (int(val) for val in text.lower().split('x'))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad size '{text}'") from None
    if not (320 <= width <= 8192 and 240 <= height <= 8192):
        raise argparse.ArgumentTypeError(f"size '{text}' out of range")
    return width, height


def parse_args(argv):
    """Parse the command line

    Args:
        argv (list of str): Arguments, without the program name

    Returns:
        argparse.Namespace: Parsed arguments
    """
    parser = argparse.ArgumentParser(
        description="Save a screenshot of hotspot's Flame Graph tab")
    parser.add_argument('-i', '--input', required=True,
                        help='perf.data file to show')
    parser.add_argument('-o', '--output', required=True,
                        help='PNG file to write')
    parser.add_argument('--app-path',
                        help="passed to hotspot's --appPath")
    parser.add_argument('--debug-paths',
                        help="passed to hotspot's --debugPaths "
                        '(colon-separated)')
    parser.add_argument('--extra-lib-paths',
                        help="passed to hotspot's --extraLibPaths "
                        '(colon-separated)')
    parser.add_argument('--sysroot', help="passed to hotspot's --sysroot")
    parser.add_argument('--kallsyms', help="passed to hotspot's --kallsyms")
    parser.add_argument('--arch',
                        help="passed to hotspot's --arch, e.g. aarch64")
    parser.add_argument('--size', type=parse_size, default=(1280, 800),
                        help='screen and window size (default 1280x800)')
    parser.add_argument('--timeout', type=float, default=120,
                        help='give up after this many seconds (default 120)')
    parser.add_argument('--timeline', action='store_true',
                        help='keep the time line below the flame graph')
    parser.add_argument('--icon-theme',
                        help='icon theme for the buttons, e.g. Adwaita '
                        '(default: none, buttons have no icons)')
    parser.add_argument('--failed-shot', metavar='PNG',
                        help='on failure, save what hotspot shows here')
    parser.add_argument('-v', '--verbose', action='store_true',
                        help='show progress and hotspot output')
    return parser.parse_args(argv)


def find_tools():
    """Check that the needed programs are installed

    Raises:
        ShotError: A program is missing
    """
    for prog, pkg in TOOLS.items():
        if not shutil.which(prog):
            raise ShotError(f'{prog} not found (install the Debian package '
                            f"'{pkg}')")


def on_signal(signum, _frame):
    """Turn SIGTERM/SIGHUP into an exception so that clean-up runs

    Args:
        signum (int): Signal number
    """
    raise ShotError(f'killed by signal {signum}')


def main(argv=None):
    """Program entry point

    Args:
        argv (list of str): Arguments, without the program name

    Returns:
        int: Exit code
    """
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    start = time.monotonic()
    try:
        find_tools()
        if not os.path.isfile(args.input):
            raise ShotError(f"cannot read '{args.input}'")
        with tempfile.TemporaryDirectory(prefix='hotspot-shot-') as tmp:
            take_shot(args, tmp, Deadline(args.timeout))
    except (ShotError, OSError, subprocess.SubprocessError) as exc:
        print(f'hotspot-shot: error: {exc}', file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print('hotspot-shot: interrupted', file=sys.stderr)
        return 1
    log(args, f'wrote {args.output} in {time.monotonic() - start:.1f}s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
