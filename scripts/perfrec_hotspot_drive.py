# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Driving hotspot for perfrec_hotspot_shot.py, and checking its picture.

Starts hotspot on the perf.data under the private X server of
perfrec_hotspot_xvfb.py, waits until its process tree and the screen are
idle, switches to the Flame Graph tab with key presses, checks that a flame
graph is shown (flame_coverage()) and writes the window as a PNG file.
"""

import os
import struct
import subprocess
import time
import zlib

from perfrec_hotspot_xvfb import (POLL_SECS, ShotError, log, make_env, read_screen,
                                  screen_digest, start_xvfb, stop, wait_window, xdotool)

# Tab order in hotspot 1.3's results page: Summary, Bottom Up, Top Down,
# Flame Graph, Caller / Callee.  Summary is selected when a file is opened.
FLAME_GRAPH_TAB_INDEX = 3
TAB_COUNT = 5

# Fraction of a pixel row that must be in flame-graph colours, see
# flame_coverage()
MIN_COVERAGE = 0.5

# Seconds the hotspot process tree and the screen must stay unchanged
# before we consider hotspot to be done with its work
SETTLE_SECS = 1.5

# Name of hotspot's parser process as shown in /proc (truncated to 15 chars)
PARSER_COMM = 'hotspot-perfpar'


def start_hotspot(args, env):
    """Start hotspot on the perf.data file

    Args:
        args (argparse.Namespace): Arguments
        env (dict): Environment to use

    Returns:
        subprocess.Popen: hotspot process
    """
    width, height = args.size
    cmd = ['hotspot', '-geometry', f'{width}x{height}+0+0']
    for opt, val in (('--appPath', args.app_path),
                     ('--debugPaths', args.debug_paths),
                     ('--extraLibPaths', args.extra_lib_paths),
                     ('--sysroot', args.sysroot),
                     ('--kallsyms', args.kallsyms),
                     ('--arch', args.arch)):
        if val:
            cmd += [opt, val]
    cmd += ['--', os.path.abspath(args.input)]
    log(args, ' '.join(cmd))
    out = None if args.verbose else subprocess.DEVNULL
    return subprocess.Popen(cmd, env=env, cwd=env['HOME'],
                            stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                            start_new_session=True)


def process_tree(pid):
    """Get a process and all its descendants

    Args:
        pid (int): Process ID of the root

    Returns:
        list of tuple: (pid, comm) for each process, starting with the root
    """
    children = {}
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open(f'/proc/{name}/stat', encoding='utf-8') as inf:
                comm, _, rest = inf.read().partition(' (')[2].rpartition(')')
        except OSError:
            continue
        ppid = int(rest.split()[1])
        children.setdefault(ppid, []).append((int(name), comm))
    procs = [(pid, 'hotspot')]
    for item, _ in procs:
        procs += children.get(item, [])
    return procs


def tree_activity(pid):
    """Measure how busy hotspot's process tree is

    Args:
        pid (int): Process ID of hotspot

    Returns:
        tuple:
            int: CPU clock ticks used by the tree, including reaped children
            bool: True if any thread is running or in uninterruptible sleep,
                or hotspot-perfparser is still there
    """
    ticks = 0
    busy = False
    for item, comm in process_tree(pid):
        if comm.startswith(PARSER_COMM):
            busy = True
        try:
            with open(f'/proc/{item}/stat', encoding='utf-8') as inf:
                fields = inf.read().rpartition(')')[2].split()
            # utime, stime, cutime, cstime
            ticks += sum(int(val) for val in fields[11:15])
            for tid in os.listdir(f'/proc/{item}/task'):
                with open(f'/proc/{item}/task/{tid}/stat',
                          encoding='utf-8') as inf:
                    state = inf.read().rpartition(')')[2].split()[0]
                if state in 'RD':
                    busy = True
        except OSError:
            # Process or thread went away: count as activity
            busy = True
    return ticks, busy


def wait_idle(args, proc, fbfile, deadline, what):
    """Wait until hotspot is idle and the screen has stopped changing

    hotspot parses in a child process (hotspot-perfparser) and then
    post-processes in worker threads; once nothing in its process tree has
    run for SETTLE_SECS and the screen is unchanged, it is done.

    Args:
        args (argparse.Namespace): Arguments
        proc (subprocess.Popen): hotspot process
        fbfile (str): XWD file written by Xvfb -fbdir
        deadline (Deadline): Time limit
        what (str): Description of what we are waiting for

    Raises:
        ShotError: hotspot exited or the time is up
    """
    start = time.monotonic()
    last = None
    quiet_since = None
    while True:
        if proc.poll() is not None:
            raise ShotError(f'hotspot exited with code {proc.returncode} '
                            f'while waiting for {what}')
        ticks, busy = tree_activity(proc.pid)
        state = (ticks, screen_digest(fbfile))
        now = time.monotonic()
        if busy or state != last:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= SETTLE_SECS:
            log(args, f'{what}: done after {now - start:.1f}s')
            return
        last = state
        deadline.check(what)
        time.sleep(POLL_SECS)


def flame_coverage(width, rgb, box):
    """Measure how much of the widest pixel row is covered by flame frames

    hotspot draws frames in flamegraph.pl's 'hot' colours (red 205-255, green
    0-230, blue 0-55) at about 50% opacity on white. The frames of a flame
    graph's outermost level together span its whole width, so one pixel row is
    mostly in these colours; no other hotspot page has such a row.

    Args:
        width (int): Screen width
        rgb (bytes): Screen pixels
        box (tuple): (x, y, width, height) of the window

    Returns:
        float: Largest fraction of a row's pixels in the 'hot' range, 0 to 1
    """
    x0, y0, bwidth, bheight = box
    best = 0
    for y in range(y0, y0 + bheight):
        pos = (y * width + x0) * 3
        row = rgb[pos:pos + bwidth * 3]
        hits = 0
        for i in range(0, len(row), 6):
            red, green, blue = row[i:i + 3]
            if red >= 225 and green <= 245 and 120 <= blue <= 165:
                hits += 1
        best = max(best, hits * 2 / bwidth)
    return best


def write_png(fname, width, rgb, box):
    """Write part of the screen as a PNG file

    Args:
        fname (str): File to write
        width (int): Screen width
        rgb (bytes): Screen pixels
        box (tuple): (x, y, width, height) of the area to write
    """
    x0, y0, bwidth, bheight = box
    raw = bytearray()
    for y in range(y0, y0 + bheight):
        pos = (y * width + x0) * 3
        raw += b'\0' + rgb[pos:pos + bwidth * 3]

    def chunk(kind, body):
        return (struct.pack('>I', len(body)) + kind + body +
                struct.pack('>I', zlib.crc32(kind + body)))

    png = (b'\x89PNG\r\n\x1a\n' +
           chunk(b'IHDR', struct.pack('>IIBBBBB', bwidth, bheight, 8, 2, 0,
                                      0, 0)) +
           chunk(b'IDAT', zlib.compress(bytes(raw), 9)) +
           chunk(b'IEND', b''))
    tmpname = fname + '.tmp'
    with open(tmpname, 'wb') as outf:
        outf.write(png)
    os.replace(tmpname, fname)


def take_shot(args, tmp, deadline):
    """Run Xvfb and hotspot and save the screenshot

    Args:
        args (argparse.Namespace): Arguments
        tmp (str): Private temporary directory
        deadline (Deadline): Time limit

    Raises:
        ShotError: Something went wrong
    """
    xvfb = hotspot = None
    try:
        xvfb, display, fbfile, xauth = start_xvfb(args, tmp, deadline)
        env = make_env(tmp, display, xauth, args.icon_theme)
        hotspot = start_hotspot(args, env)
        wid, xpos, ypos, width, height = wait_window(hotspot, env, deadline)
        log(args, f'window {wid} at {xpos},{ypos} size {width}x{height}')
        scr_width, scr_height, _ = read_screen(fbfile)
        box = (max(xpos, 0), max(ypos, 0),
               min(width, scr_width - max(xpos, 0)),
               min(height, scr_height - max(ypos, 0)))

        wait_idle(args, hotspot, fbfile, deadline, 'parsing')
        keys = ['ctrl+Tab'] * FLAME_GRAPH_TAB_INDEX
        if not args.timeline:
            keys.append('ctrl+t')
        for attempt in range(TAB_COUNT):
            # Without a window manager, hotspot only gets key events once it
            # has the X input focus
            xdotool(env, 'windowfocus', '--sync', wid)
            time.sleep(POLL_SECS)
            xdotool(env, 'key', '--clearmodifiers', '--delay', '100', *keys)
            wait_idle(args, hotspot, fbfile, deadline, 'the flame graph')
            scr_width, _, rgb = read_screen(fbfile)
            coverage = flame_coverage(scr_width, rgb, box)
            log(args, f'flame-graph row coverage {coverage:.0%}')
            if coverage >= MIN_COVERAGE:
                break
            # Key presses were lost or went elsewhere: step through the tabs
            keys = ['ctrl+Tab']
            log(args, f'no flame graph after attempt {attempt + 1}')
        else:
            msg = 'hotspot shows no flame graph (did parsing fail?)'
            if args.failed_shot:
                write_png(args.failed_shot, scr_width, rgb, box)
                msg += f', see {args.failed_shot}'
            raise ShotError(msg)
        write_png(args.output, scr_width, rgb, box)
    finally:
        stop(hotspot, 'hotspot', args)
        stop(xvfb, 'Xvfb', args)
