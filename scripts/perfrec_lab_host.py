#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""A modern tool host for tests: a Debian trixie chroot with trixie-backports.

Usage:
    perfrec_lab_host.py --dest build/lab-host make
    perfrec_lab_host.py --dest build/lab-host run [--bind DIR]... -- COMMAND...

'make' builds the chroot with debootstrap (minbase) from the mirror the
machine's own apt sources name for Debian, then installs from trixie-backports
the tools newer than bookworm's: QEMU, perf, and what a board lab needs
(labgrid, ser2net, pdudaemon). It is made once: a stamp written last lists
the exact versions, and a chroot without it (a run cut short) is made again
from nothing. The system's apt files are only read.

'run' mounts /proc, /sys and /dev into the chroot and bind-mounts each
--bind directory at the same path inside, runs COMMAND on this host with
PERFREC_LAB_ROOT set to the chroot (so that COMMAND's tools can reach the
chroot's: 'chroot $PERFREC_LAB_ROOT perf ...'), and unmounts all of it
whatever way COMMAND ends (exit, error, SIGINT, SIGTERM). The exit code is
COMMAND's.

Bookworm stays the default host: the chroot is a test tool. Where chroot or
mount is not permitted, one line says so (exit 2).
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable-next=wrong-import-position
from perfrec_get_uboot import enabled_deb_stanzas, os_codename  # noqa: E402

SUITE = 'trixie'
STAMP = '.perfrec-lab-host'
# From trixie-backports: name, why
BACKPORTS = (
    ('qemu-system-arm', 'QEMU 11: raspi4b, imx8mp-evk, and the boards on a newer QEMU'),
    ('linux-perf', 'perf 7.3: the newer judge of every perf.data'),
    ('labgrid-client', 'the board lab: its client'),
    ('labgrid-exporter', 'the board lab: the exporter of the boards'),
    ('labgrid-coordinator', 'the board lab: the coordinator'),
)
# From trixie itself
PACKAGES = (
    ('ser2net', "the lab's serial ports over TCP"),
    ('pdudaemon', "the lab's power switching"),
    ('iproute2', 'a network namespace of its own for the lab'),
    ('telnet', "labgrid-client console's terminal"),
    ('binutils-aarch64-linux-gnu', "perfrec_lab.py's symfs copies (objcopy)"),
)
# What a run mounts inside the chroot: source, where, how
SYSTEM_MOUNTS = (('proc', 'proc', ['-t', 'proc']), ('sys', 'sys', ['-t', 'sysfs']),
                 ('/dev', 'dev', ['--rbind']))


def say(msg):
    """One line on stderr"""
    print('perfrec_lab_host: ' + msg, file=sys.stderr, flush=True)


def mirrors():
    """(Debian mirror URI, security URI or None) from the machine's apt sources"""
    codename = os_codename()
    mirror = security = None
    for stanza in enabled_deb_stanzas():
        suites = stanza.get('Suites', '').split()
        uri = stanza['URIs'].split()[0]
        if codename in suites and not mirror:
            mirror = uri
        if codename + '-security' in suites and not security:
            security = uri
    if not mirror:
        raise SystemExit('perfrec_lab_host: no Debian "deb" entry for %s in /etc/apt' %
                         codename)
    return mirror, security


def sources(mirror, security):
    """The chroot's deb822 apt sources"""
    key = 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg'
    text = ('Types: deb\nURIs: %s\nSuites: %s %s-updates %s-backports\nComponents: main\n%s\n'
            % (mirror, SUITE, SUITE, SUITE, key))
    if security:
        text += '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n%s\n' % (
            security, SUITE, key)
    return text


# How long a stopped command's group has to end after SIGTERM (the loopback
# lab tears itself down: releases, powers off, stops its servers)
TERM_SECS = 60


def call(cmd, **kwargs):
    """Run @cmd in a process group of its own; return its exit code. Stopped
    (KeyboardInterrupt from SIGINT or SIGTERM), the whole group gets SIGTERM,
    then SIGKILL after TERM_SECS, and is waited for before the exception goes
    on: nothing it started (dpkg under debootstrap, QEMU under a test) writes
    into the chroot or holds a mount"""
    with subprocess.Popen(cmd, start_new_session=True, **kwargs) as proc:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(TERM_SECS)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            raise


def run(cmd, log, check=True):
    """Run @cmd with its output appended to @log; on failure show its end and stop"""
    with open(log, 'a', encoding='utf-8') as out:
        out.write('$ ' + ' '.join(cmd) + '\n')
        out.flush()
        ret = call(cmd, stdout=out, stderr=subprocess.STDOUT)
    if ret and check:
        with open(log, encoding='utf-8', errors='replace') as inf:
            sys.stderr.write(''.join(inf.readlines()[-20:]))
        raise SystemExit('perfrec_lab_host: %s failed (exit %d); the end of %s is above' %
                         (cmd[0], ret, log))
    return ret


def permitted():
    """None if this host may chroot and mount, else why not"""
    if os.geteuid() != 0:
        return 'chroot and mount need root (this is uid %d)' % os.geteuid()
    if not shutil.which('debootstrap'):
        return 'debootstrap is not installed (scripts/perfrec-deps.sh installs it)'
    probe = subprocess.run(['unshare', '--mount', 'true'], capture_output=True, check=False)
    if probe.returncode:
        return 'mounting is not permitted here (unshare --mount: %s)' % (
            probe.stderr.decode(errors='replace').strip() or probe.returncode)
    return None


def mounted_under(root):
    """The mount points under @root, deepest last (as /proc/self/mounts lists them)"""
    points = []
    with open('/proc/self/mounts', encoding='utf-8') as inf:
        for line in inf:
            point = line.split()[1].replace('\\040', ' ')
            if point.startswith(root + '/'):
                points.append(point)
    return points


def unmount_under(root):
    """Unmount everything under @root (ours, or debootstrap's when it was cut short)"""
    for point in reversed(mounted_under(root)):
        subprocess.run(['umount', '-l', point], check=False)


def guarded(root, body):
    """Run @body(); whatever way it ends (SIGINT and SIGTERM too), nothing stays
    mounted under @root"""
    def stop(signum, _frame):
        raise KeyboardInterrupt('signal %d' % signum)

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        return body()
    finally:
        unmount_under(root)
        for sig, handler in old.items():
            signal.signal(sig, handler)


def with_mounts(root, binds, body):
    """Run @body() with the chroot's system mounts and @binds in place"""
    def mounted():
        for src, sub, args in SYSTEM_MOUNTS:
            target = os.path.join(root, sub)
            os.makedirs(target, exist_ok=True)
            subprocess.run(['mount'] + args + [src, target], check=True)
            if '--rbind' in args:
                # No mount event inside goes back out to the host's /dev
                subprocess.run(['mount', '--make-rslave', target], check=True)
        for path in binds:
            path = os.path.abspath(path)
            os.makedirs(root + path, exist_ok=True)
            subprocess.run(['mount', '--bind', path, root + path], check=True)
        return body()

    return guarded(root, mounted)


def wanted():
    """The packages the chroot gets, in install order"""
    return [name for name, _ in BACKPORTS] + [name for name, _ in PACKAGES]


def stamp_ok(root):
    """The stamp is there and lists every wanted package"""
    path = os.path.join(root, STAMP)
    if not os.path.exists(path):
        return False
    with open(path, encoding='utf-8') as inf:
        listed = {line.split()[0] for line in inf if line.strip()}
    return set(wanted()) <= listed


def install(root, log, names):
    """apt-get install @names into the chroot (trixie-backports first); return
    the stamp's text: every wanted package and its version"""
    env = ['env', 'DEBIAN_FRONTEND=noninteractive', 'LC_ALL=C']
    run(['chroot', root] + env + ['apt-get', '-q', 'update'], log)
    say('apt-get install (%s-backports first): %s' % (SUITE, ' '.join(names)))
    run(['chroot', root] + env + ['apt-get', '-q', '-y', '--no-install-recommends',
                                  'install', '-t', SUITE + '-backports'] + names, log)
    run(['chroot', root, 'apt-get', 'clean'], log)
    return subprocess.run(['chroot', root, 'dpkg-query', '-W'] + wanted(),
                          capture_output=True, text=True, check=True).stdout


def write_stamp(root, versions):
    """The stamp, written last"""
    with open(os.path.join(root, STAMP), 'w', encoding='utf-8') as outf:
        outf.write(versions)
    say('made %s: %s' % (root, ', '.join(line.replace('\t', ' ')
                                        for line in versions.splitlines())))


def make(root, log):
    """Build the chroot unless its stamp says it is complete"""
    if stamp_ok(root):
        return 0
    why = permitted()
    if why:
        say(why)
        return 2
    if os.path.exists(os.path.join(root, STAMP)):
        # Complete once: only what was added to the lists since
        with open(os.path.join(root, STAMP), encoding='utf-8') as inf:
            listed = {line.split()[0] for line in inf if line.strip()}
        missing = [name for name in wanted() if name not in listed]
        os.remove(os.path.join(root, STAMP))
        write_stamp(root, with_mounts(root, [], lambda: install(root, log, missing)))
        return 0
    if os.path.exists(root):
        say('%s has no complete stamp: made again from nothing' % root)
        # A run killed outright may have left mounts: never delete through them
        unmount_under(root)
        if mounted_under(root):
            say('%s still has mounts: %s' % (root, ' '.join(mounted_under(root))))
            return 2
        shutil.rmtree(root)
    mirror, security = mirrors()
    os.makedirs(os.path.dirname(os.path.abspath(root)), exist_ok=True)
    say('debootstrap %s (minbase) into %s (log: %s)' % (SUITE, root, log))
    guarded(root, lambda: run(['debootstrap', '--variant=minbase', SUITE, root, mirror], log))
    with open(os.path.join(root, 'etc/apt/sources.list.d/perfrec.sources'), 'w',
              encoding='utf-8') as outf:
        outf.write(sources(mirror, security))
    if os.path.exists(os.path.join(root, 'etc/apt/sources.list')):
        os.remove(os.path.join(root, 'etc/apt/sources.list'))
    shutil.copy('/etc/resolv.conf', os.path.join(root, 'etc/resolv.conf'))

    write_stamp(root, with_mounts(root, [], lambda: install(root, log, wanted())))
    return 0


def main(argv=None):
    """Make the chroot, or run a command with it mounted; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--dest', required=True, help='the chroot directory')
    parser.add_argument('--log', help='where debootstrap and apt-get write (default: '
                        'DEST.log)')
    sub = parser.add_subparsers(dest='action', required=True)
    sub.add_parser('make', help='build the chroot (once)')
    runp = sub.add_parser('run', help='run a command with the chroot mounted')
    runp.add_argument('--bind', action='append', default=[],
                      help='a directory bind-mounted at the same path inside (repeatable)')
    runp.add_argument('command', nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    root = os.path.abspath(args.dest)
    log = args.log or root + '.log'
    if args.action == 'make':
        try:
            return make(root, log)
        except KeyboardInterrupt as exc:
            say('stopped (%s): nothing is mounted under %s; the next make starts again' %
                (exc, root))
            return 130
    if not stamp_ok(root):
        say('%s is not made: run make lab-host first' % root)
        return 2
    command = args.command[1:] if args.command[:1] == ['--'] else args.command
    if not command:
        parser.error('run: no command')

    def body():
        return call(command, env=dict(os.environ, PERFREC_LAB_ROOT=root))

    try:
        return with_mounts(root, args.bind, body)
    except KeyboardInterrupt as exc:
        say('stopped (%s); the chroot is unmounted' % exc)
        return 130


if __name__ == '__main__':
    sys.exit(main())
