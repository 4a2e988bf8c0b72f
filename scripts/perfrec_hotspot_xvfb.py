# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""The private X server of perfrec_hotspot_shot.py and what runs on it.

Starts Xvfb on a free display with its own MIT-MAGIC-COOKIE-1 Xauthority
file and a memory-mapped XWD frame buffer (-fbdir), builds the throw-away
HOME/XDG environment its clients run in, drives windows with xdotool, reads
the screen from the frame buffer and stops processes with their children.
Also the run's common pieces: ShotError, Deadline and log().
"""

import hashlib
import os
import select
import signal
import struct
import subprocess
import sys
import time

# Poll interval in seconds
POLL_SECS = 0.25

# Unix permission for the private directories
PRIVATE_MODE = 0o700


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


def log(args, msg):
    """Show a progress message if verbose

    Args:
        args (argparse.Namespace): Arguments
        msg (str): Message to show
    """
    if args.verbose:
        print(f'hotspot-shot: {msg}', file=sys.stderr)


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
