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
"""

import argparse
import hashlib
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

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

# Poll interval in seconds
POLL_SECS = 0.25

# Unix permission for the private directories
PRIVATE_MODE = 0o700

TOOLS = {
    'hotspot': 'hotspot',
    'Xvfb': 'xvfb',
    'xdotool': 'xdotool',
}


class ShotError(Exception):
    """A failure which is reported as a one-line message"""


class Deadline:
    """Overall time limit for the whole run

    Args:
        secs (float): Number of seconds from now
    """

    def __init__(self, secs):
        self.end = time.monotonic() + secs

    def left(self):
        """Get the number of seconds left, which may be negative

        Returns:
            float: Seconds left
        """
        return self.end - time.monotonic()

    def check(self, what):
        """Raise ShotError if the time is up

        Args:
            what (str): Description of what we are waiting for
        """
        if self.left() <= 0:
            raise ShotError(f'timed out waiting for {what}')


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


def log(args, msg):
    """Show a progress message if verbose

    Args:
        args (argparse.Namespace): Arguments
        msg (str): Message to show
    """
    if args.verbose:
        print(f'hotspot-shot: {msg}', file=sys.stderr)


def find_tools():
    """Check that the needed programs are installed

    Raises:
        ShotError: A program is missing
    """
    for prog, pkg in TOOLS.items():
        if not shutil.which(prog):
            raise ShotError(f'{prog} not found (install the Debian package '
                            f"'{pkg}')")


def write_xauth(fname, display, cookie):
    """Write an Xauthority file with one MIT-MAGIC-COOKIE-1 entry

    The entry uses the FamilyWild address so it matches any host name.

    Args:
        fname (str): File to write
        display (int or None): Display number, None for any
        cookie (bytes): 16-byte cookie
    """
    def field(data):
        return struct.pack('>H', len(data)) + data

    family_wild = 0xffff
    num = b'' if display is None else str(display).encode()
    data = (struct.pack('>H', family_wild) + field(b'') + field(num) +
            field(b'MIT-MAGIC-COOKIE-1') + field(cookie))
    with open(fname, 'wb') as outf:
        outf.write(data)


def start_xvfb(args, tmp, deadline):
    """Start a private Xvfb server on a free display

    Args:
        args (argparse.Namespace): Arguments
        tmp (str): Private temporary directory
        deadline (Deadline): Time limit

    Returns:
        tuple:
            subprocess.Popen: Xvfb process
            int: Display number
            str: Name of the frame-buffer file
            str: Name of the client Xauthority file
    """
    width, height = args.size
    fbdir = os.path.join(tmp, 'fb')
    os.mkdir(fbdir, PRIVATE_MODE)
    cookie = os.urandom(16)
    server_auth = os.path.join(tmp, 'server.xauth')
    write_xauth(server_auth, None, cookie)

    rfd, wfd = os.pipe()
    cmd = ['Xvfb', '-displayfd', str(wfd), '-screen', '0',
           f'{width}x{height}x24', '-dpi', '96', '-nolisten', 'tcp',
           '-nocursor', '-fbdir', fbdir, '-auth', server_auth, '-noreset']
    log(args, ' '.join(cmd))
    try:
        proc = subprocess.Popen(
            cmd, pass_fds=(wfd,), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=None if args.verbose else subprocess.DEVNULL,
            start_new_session=True)
    finally:
        os.close(wfd)

    text = b''
    try:
        while not text.endswith(b'\n'):
            deadline.check('Xvfb to start')
            ready, _, _ = select.select([rfd], [], [], POLL_SECS)
            if ready:
                data = os.read(rfd, 64)
                if not data:
                    break
                text += data
            elif proc.poll() is not None:
                break
    finally:
        os.close(rfd)
    if not text.strip().isdigit():
        proc.kill()
        proc.wait()
        raise ShotError('Xvfb failed to start (run with -v to see why)')
    display = int(text)

    client_auth = os.path.join(tmp, 'client.xauth')
    write_xauth(client_auth, display, cookie)
    return proc, display, os.path.join(fbdir, 'Xvfb_screen0'), client_auth


def make_env(tmp, display, xauth, icon_theme):
    """Create a minimal, private environment for hotspot and xdotool

    Nothing is read from or written to the user's configuration. The D-Bus
    session bus is pointed at a non-existent socket so that no bus daemon is
    auto-launched.

    Args:
        tmp (str): Private temporary directory
        display (int): X display number
        xauth (str): Xauthority file for clients
        icon_theme (str or None): Icon theme to use, None for none

    Returns:
        dict: Environment
    """
    home = os.path.join(tmp, 'home')
    dirs = {
        'XDG_CONFIG_HOME': os.path.join(home, '.config'),
        'XDG_DATA_HOME': os.path.join(home, '.local', 'share'),
        'XDG_CACHE_HOME': os.path.join(home, '.cache'),
        'XDG_RUNTIME_DIR': os.path.join(tmp, 'runtime'),
        'XDG_CONFIG_DIRS': os.path.join(tmp, 'xdg-config'),
    }
    for path in [home] + list(dirs.values()):
        os.makedirs(path, PRIVATE_MODE, exist_ok=True)
    env = {
        'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
        'HOME': home,
        'DISPLAY': f':{display}',
        'XAUTHORITY': xauth,
        'LANG': 'C.UTF-8',
        'LC_ALL': 'C.UTF-8',
        'XDG_DATA_DIRS': '/usr/local/share:/usr/share',
        'DBUS_SESSION_BUS_ADDRESS': 'unix:path=' +
                                    os.path.join(tmp, 'no-dbus'),
        'QT_QPA_PLATFORM': 'xcb',
        'QT_QPA_PLATFORMTHEME': 'generic',
        'QT_STYLE_OVERRIDE': 'Fusion',
        'QT_HASH_SEED': '0',
        'QT_AUTO_SCREEN_SCALE_FACTOR': '0',
        'QT_ENABLE_HIGHDPI_SCALING': '0',
        'QT_SCALE_FACTOR': '1',
        'QT_FONT_DPI': '96',
        'QT_ACCESSIBILITY': '0',
        'NO_AT_BRIDGE': '1',
        'QT_LOGGING_RULES': 'kf.i18n*=false',
    }
    env.update(dirs)
    if icon_theme:
        setup_icon_theme(home, icon_theme)
    return env


def setup_icon_theme(home, theme):
    """Make Qt's generic platform theme find icons in the given theme

    Qt's 'generic' platform theme only looks in the 'hicolor' theme. We put a
    private hicolor/index.theme first in the search path, which inherits from
    the wanted theme.

    Args:
        home (str): Private home directory
        theme (str): Icon theme, e.g. 'Adwaita'

    Raises:
        ShotError: Theme is not installed
    """
    for base in ('/usr/local/share/icons', '/usr/share/icons'):
        if os.path.exists(os.path.join(base, theme, 'index.theme')):
            break
    else:
        raise ShotError(f"icon theme '{theme}' not found in /usr/share/icons")
    hicolor = os.path.join(home, '.icons', 'hicolor')
    os.makedirs(hicolor, PRIVATE_MODE)
    with open(os.path.join(hicolor, 'index.theme'), 'w',
              encoding='utf-8') as outf:
        outf.write(f'[Icon Theme]\nName=Hicolor\nInherits={theme}\n'
                   'Directories=\n')


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


def xdotool(env, *cmd):
    """Run xdotool

    Args:
        env (dict): Environment to use
        cmd (list of str): xdotool arguments

    Returns:
        str: Output of xdotool
    """
    res = subprocess.run(['xdotool'] + list(cmd), env=env, check=False,
                         stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=30)
    return res.stdout


def wait_window(proc, env, deadline):
    """Wait for hotspot's main window to be mapped

    Args:
        proc (subprocess.Popen): hotspot process
        env (dict): Environment to use
        deadline (Deadline): Time limit

    Returns:
        tuple: (window_id, x, y, width, height)

    Raises:
        ShotError: hotspot died or the window did not appear in time
    """
    while True:
        if proc.poll() is not None:
            raise ShotError(f'hotspot exited with code {proc.returncode} '
                            'before showing its window')
        for wid in xdotool(env, 'search', '--onlyvisible', '--pid',
                           str(proc.pid)).split():
            geom = {}
            for line in xdotool(env, 'getwindowgeometry', '--shell',
                                wid).splitlines():
                key, _, val = line.partition('=')
                geom[key] = val
            if 'WIDTH' in geom and int(geom['WIDTH']) > 100:
                return (wid, int(geom['X']), int(geom['Y']),
                        int(geom['WIDTH']), int(geom['HEIGHT']))
        if deadline.left() <= 0:
            raise ShotError('hotspot window never appeared')
        time.sleep(POLL_SECS)


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


def read_screen(fbfile):
    """Read the Xvfb frame buffer

    Args:
        fbfile (str): XWD file written by Xvfb -fbdir

    Returns:
        tuple:
            int: Screen width
            int: Screen height
            bytes: Pixels as 24-bit RGB, row by row

    Raises:
        ShotError: Frame buffer has an unsupported format
    """
    with open(fbfile, 'rb') as inf:
        data = inf.read()
    (header_size, _, _, _, width, height, _, byte_order, _, _, _, bpp,
     bytes_per_line, _, red_mask, green_mask, blue_mask, _, _,
     ncolours) = struct.unpack('>20I', data[:80])
    if (bpp != 32 or (red_mask, green_mask, blue_mask) !=
            (0xff0000, 0xff00, 0xff)):
        raise ShotError(f'unsupported Xvfb frame buffer ({bpp} bpp)')
    start = header_size + ncolours * 12
    pixels = data[start:start + bytes_per_line * height]
    # Pixel 0x00RRGGBB in memory: B G R 0 (LSBFirst) or 0 R G B (MSBFirst)
    if byte_order == 0:
        red, green, blue = 2, 1, 0
    else:
        red, green, blue = 1, 2, 3
    rgb = bytearray(width * height * 3)
    for row in range(height):
        line = pixels[row * bytes_per_line:row * bytes_per_line + width * 4]
        out = row * width * 3
        rgb[out:out + width * 3:3] = line[red::4]
        rgb[out + 1:out + width * 3:3] = line[green::4]
        rgb[out + 2:out + width * 3:3] = line[blue::4]
    return width, height, bytes(rgb)


def screen_digest(fbfile):
    """Get a hash of the current screen contents

    Args:
        fbfile (str): XWD file written by Xvfb -fbdir

    Returns:
        bytes: Digest of the frame buffer
    """
    with open(fbfile, 'rb') as inf:
        return hashlib.sha1(inf.read()).digest()


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


def stop(proc, name, args):
    """Stop a process and everything in its process group

    Args:
        proc (subprocess.Popen or None): Process to stop; it was started in a
            new session, so its process group holds its children too
        name (str): Name for messages
        args (argparse.Namespace): Arguments
    """
    if not proc:
        return
    if proc.poll() is not None:
        # The leader is gone; make sure no child of it lingers
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        return
    for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 3)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            log(args, f'{name} did not stop on signal {sig}')


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
