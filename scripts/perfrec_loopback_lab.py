#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""A labgrid lab on loopback: boards on QEMU behind a real coordinator,
exporter, ser2net and pdudaemon, in a network namespace of their own.

Usage (under scripts/perfrec_lab_host.py run, which sets PERFREC_LAB_ROOT):
    perfrec_loopback_lab.py --work DIR --place NAME=CELL@BUILD [--place ...]
                            [--tag NAME:KEY=VALUE]... -- COMMAND...

The lab is made of labgrid 26's own servers, from the trixie chroot:
labgrid-coordinator (--listen 127.0.0.1:PORT, its places.yaml in
DIR/coordinator), labgrid-exporter (DIR/exporter.yaml; it starts ser2net for
a serial port when its place is acquired) and pdudaemon (DIR/pdudaemon.conf,
its localcmdline driver). Each is in a session of its own (a Ctrl-C at the
terminal reaches COMMAND, not them) and carries PERFREC_LAB_RUN=<id> in its
environment, as does everything it starts.

Each place is a board the way a lab has one:
- its console is a pty that exists while the board is off: this script holds
  it, exported by the exporter as a RawSerialPort (ser2net, telnet/RFC2217),
  and relays it to the UART of the board's QEMU while one runs (QEMU
  connects to DIR/places/N/console.sock);
- its power is a PDUDaemonPort: pdudaemon's 'on' runs
  scripts/perfrec_lab_power.sh, which starts the board's QEMU with the image
  in DIR/places/N (the test/py console hook's command line, from the cell's
  environment in DIR/places/N/qemu.env), and 'off' stops it by its pidfile;
- its image is deployed to DIR/places/N (u-boot.bin and, for the Raspberry
  Pi, its device tree; for Versal the image with QEMU's device tree
  appended), where the next power-on boots it.
The glue is the pty relay, the power script and the configuration files.
(The relay is in perfrec_lab_relay.py, the processes, ports and network
namespace checks in perfrec_lab_netns.py.)

NAME=CELL@BUILD: a place NAME booting BUILD's image as scripts/
perfrec_run_tests.py's cell CELL (el2-gicv3, raspi3b, versal, ...). Its tags:
board=<U-Boot board>, cell=<CELL>, and each --tag NAME:KEY=VALUE.

COMMAND runs in the namespace with LG_COORDINATOR, LG_ENV (DIR/env.yaml,
RemotePlace !template $LG_PLACE) and PERFREC_LAB_DIR set. Afterwards, and
after SIGINT or SIGTERM at any point, the lab is torn down: every place
released and powered off, the servers stopped by their PIDs, and a teardown
check that prints one line: 'teardown: clean' or what is left (a process
this run started, a TCP port still listening, a place still acquired).

Exit status: COMMAND's; 130 after SIGINT or SIGTERM; 3 when the lab did not
start or the teardown check found something left (one line on stderr).

As a module (make check-lab's tests, already in a namespace of their own):
    lab = Lab(root, work, places); lab.start(); ...; lab.stop()
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
# pylint: disable-next=wrong-import-position
from perfrec_lab_netns import (LabError, MARKER, START_SECS, comm, free_port,  # noqa: E402
                               listeners, marked, only_loopback, wait_port)
# pylint: disable-next=wrong-import-position
from perfrec_lab_relay import Relay  # noqa: E402
# pylint: disable-next=wrong-import-position
from perfrec_run_tests import BOARD_CELLS, CELLS, Job, cell_env  # noqa: E402

# pdudaemon's localcmdline command for an outlet
POWER = os.path.join(TOP, 'scripts/perfrec_lab_power.sh')
PDU = 'perfrec-lab'
EXPORTER = 'perfrec-lab'
# How long a client call may take to answer (s)
CLIENT_SECS = 30


def say(msg):
    """One line on stderr"""
    print('perfrec_loopback_lab: ' + msg, file=sys.stderr, flush=True)


def place_env(cell, build, where):
    """The console hook's environment for @cell booting @build's image, the
    image deployed into @where (the place's image path)"""
    board, env = cell_env(Job(cell, None, build, None, None, False, cell))
    env = dict(env, PERFREC_QEMU_LAB='', U_BOOT_BUILD_DIR=where)
    for key in ('PERFREC_QEMU_KERNEL', 'PERFREC_QEMU_DTB'):
        if env.get(key):
            shutil.copy(env[key], where)
            env[key] = os.path.join(where, os.path.basename(env[key]))
    if env.get('PERFREC_QEMU_LOADER'):
        image, addr = env['PERFREC_QEMU_LOADER'].rsplit('@', 1)
        shutil.copy(image, where)
        env['PERFREC_QEMU_LOADER'] = '%s@%s' % (
            os.path.join(where, os.path.basename(image)), addr)
    if cell in CELLS:
        shutil.copy(os.path.join(build, 'u-boot.bin'), where)
    return board, env


class Lab:
    """A labgrid lab on loopback in this network namespace (see the module's
    description); @places: [(name, cell, build, {tag: value})]"""

    def __init__(self, root, work, places, run_id=None):
        self.root = root
        self.work = os.path.abspath(work)
        self.places = places
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.procs = {}
        self.relays = {}
        self.boards = {}        # place: its U-Boot board type (cell_env()'s)
        self.coordinator = None
        self.pdu_port = None

    def env(self, **extra):
        """The environment of what the lab starts, marked as this run's"""
        return dict(os.environ, LC_ALL='C.UTF-8', **{MARKER: self.run_id}, **extra)

    def client_env(self):
        """What a client in this lab needs: LG_COORDINATOR, LG_ENV, PERFREC_LAB_DIR"""
        return {'LG_COORDINATOR': self.coordinator,
                'LG_ENV': os.path.join(self.work, 'env.yaml'),
                'PERFREC_LAB_DIR': self.work}

    def chroot(self, *cmd, cwd='/'):
        """@cmd run in the chroot, in @cwd (chroot itself goes to /)"""
        return ['chroot', self.root, 'env', '-C', cwd] + list(cmd)

    def client(self, *args, check=True, env=None):
        """labgrid-client @args against this lab's coordinator"""
        proc = subprocess.run(self.chroot('labgrid-client', '-x', self.coordinator, *args),
                              capture_output=True, text=True, timeout=CLIENT_SECS,
                              env=self.env(**(env or {})), check=False)
        if check and proc.returncode:
            raise LabError('labgrid-client %s: %s' % (' '.join(args), (
                proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:]))
        return proc

    def _server(self, name, cmd, cwd):
        """Start a server in a session of its own, its output in logs/NAME.log"""
        log = open(os.path.join(self.work, 'logs', name + '.log'), 'w',  # noqa: SIM115
                   encoding='utf-8')
        # pylint: disable-next=consider-using-with
        self.procs[name] = subprocess.Popen(self.chroot(*cmd, cwd=cwd), stdout=log,
                                            stderr=subprocess.STDOUT, env=self.env(),
                                            start_new_session=True)
        log.close()
        return self.procs[name]

    def _deploy(self):
        """Each place's directory, image and console; return the exporter's groups"""
        groups = {}
        for index, (name, cell, build, _tags) in enumerate(self.places, 1):
            where = os.path.join(self.work, 'places', str(index))
            os.makedirs(where)
            self.boards[name], env = place_env(cell, build, where)
            env['PERFREC_QEMU_CHARDEV'] = 'socket,id=con,path=%s/console.sock' % where
            with open(os.path.join(where, 'qemu.env'), 'w', encoding='utf-8') as outf:
                for key, value in sorted(env.items()):
                    outf.write("%s='%s'\n" % (key, value))
            with open(os.path.join(where, 'name'), 'w', encoding='utf-8') as outf:
                outf.write(name + '\n')
            relay = Relay(os.path.join(where, 'console.sock'), os.path.join(where, 'fault'))
            relay.start()
            self.relays[name] = relay
            groups[name] = (relay.path, index)
        return groups

    def write_configs(self, groups):
        """exporter.yaml, pdudaemon.conf, env.yaml"""
        places = os.path.join(self.work, 'places')
        with open(os.path.join(self.work, 'exporter.yaml'), 'w', encoding='utf-8') as outf:
            for name, (tty_path, index) in groups.items():
                outf.write(EXPORTER_GROUP.format(name=name, serial='RawSerialPort',
                                                 serial_key='port', serial_value=tty_path,
                                                 pdu_host='127.0.0.1:%d' % self.pdu_port,
                                                 pdu=PDU, index=index))
        conf = {'daemon': {'hostname': '127.0.0.1', 'port': self.pdu_port,
                           'logging_level': 'INFO', 'listener': 'http'},
                'pdus': {PDU: {'driver': 'localcmdline', 'retries': 1,
                               'cmd_on': '%s on %s/%%s' % (POWER, places),
                               'cmd_off': '%s off %s/%%s' % (POWER, places)}}}
        with open(os.path.join(self.work, 'pdudaemon.conf'), 'w', encoding='utf-8') as outf:
            json.dump(conf, outf, indent=2)
        shutil.copy(os.path.join(TOP, 'test/lab/env.yaml'), os.path.join(self.work, 'env.yaml'))

    def start(self):
        """Bring the lab up; LabError (with the lab stopped again) if it did not"""
        try:
            self._start()
        except BaseException:
            self.stop(quiet=True)
            raise

    def _start(self):
        why = only_loopback()
        if why:
            raise LabError(why)
        os.makedirs(os.path.join(self.work, 'logs'), exist_ok=True)
        os.makedirs(os.path.join(self.work, 'coordinator'), exist_ok=True)
        self.save()
        port = free_port()
        self.coordinator = '127.0.0.1:%d' % port
        proc = self._server('coordinator', ['labgrid-coordinator', '--listen',
                                            self.coordinator],
                            os.path.join(self.work, 'coordinator'))
        self.pdu_port = free_port()
        groups = self._deploy()
        self.write_configs(groups)
        wait_port(port, proc, 'labgrid-coordinator')
        say('coordinator listening on %s' % self.coordinator)
        pdu = self._server('pdudaemon', ['pdudaemon', '--conf',
                                         os.path.join(self.work, 'pdudaemon.conf')], self.work)
        wait_port(self.pdu_port, pdu, 'pdudaemon')
        self._server('exporter', ['labgrid-exporter', '-c', self.coordinator, '-n', EXPORTER,
                                  '--hostname', '127.0.0.1',
                                  os.path.join(self.work, 'exporter.yaml')], self.work)
        for name, cell, _build, tags in self.places:
            self.client('-p', name, 'create')
            self.client('-p', name, 'add-match', '%s/%s/*' % (EXPORTER, name))
            self.client('-p', name, 'set-tags', 'board=' + self.boards[name], 'cell=' + cell,
                        *('%s=%s' % item for item in sorted(tags.items())))
        # The exporter has registered every port when each place matches
        end = time.monotonic() + START_SECS
        while True:
            out = self.client('resources').stdout
            missing = [name for name, *_ in self.places
                       if '%s/%s/NetworkSerialPort' % (EXPORTER, name) not in out]
            if not missing:
                break
            if self.procs['exporter'].poll() is not None or time.monotonic() > end:
                raise LabError('the exporter did not export %s (logs/exporter.log)' %
                               ', '.join(missing))
            time.sleep(0.2)
        self.save()
        say('up: coordinator %s, %d places (%s)' % (
            self.coordinator, len(self.places), ', '.join(n for n, *_ in self.places)))

    def save(self):
        """DIR/lab.json: the run's id (its processes' marker), addresses, PIDs"""
        with open(os.path.join(self.work, 'lab.json'), 'w', encoding='utf-8') as outf:
            json.dump({'run_id': self.run_id, 'coordinator': self.coordinator,
                       'pdudaemon': self.pdu_port,
                       'pids': {n: p.pid for n, p in self.procs.items()},
                       'places': [name for name, *_ in self.places]}, outf, indent=2)

    def acquired(self):
        """The places the coordinator says are acquired (None: it does not answer)"""
        if not self.coordinator or not self.procs.get('coordinator') or \
                self.procs['coordinator'].poll() is not None:
            return None
        try:
            out = self.client('places', '--acquired', check=False).stdout
        except subprocess.TimeoutExpired:
            return None
        return out.split()

    def power_off_all(self):
        """Stop every board's QEMU (as pdudaemon's 'off' would)"""
        for index in range(1, len(self.places) + 1):
            where = os.path.join(self.work, 'places', str(index))
            if os.path.exists(os.path.join(where, 'qemu.pid')):
                subprocess.run([POWER, 'off', where], check=False)

    def stop(self, quiet=False):
        """Tear the lab down; return what is left ([] when clean) and say it"""
        left = []
        held = self.acquired()
        if held:
            left.append('places still acquired: %s' % ' '.join(held))
            for name in held:
                self.client('-p', name, 'release', '-k', check=False)
        self.power_off_all()
        # The exporter stops ser2net when a place is released; then the servers
        for name in ('exporter', 'pdudaemon', 'coordinator'):
            proc = self.procs.get(name)
            if proc and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        for relay in self.relays.values():
            relay.stop()
        self.relays = {}
        end = time.monotonic() + 5
        while marked(self.run_id) and time.monotonic() < end:
            time.sleep(0.1)
        pids = marked(self.run_id)
        if pids:
            left.append('processes of this run still running: %s' % ', '.join(
                '%d (%s)' % (pid, comm(pid)) for pid in pids))
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        ports = listeners()
        if ports:
            left.append('TCP ports still listening: %s' % ' '.join(map(str, ports)))
        if not quiet:
            say('teardown: ' + ('; '.join(left) if left else
                                'clean (no process of this run, no port listening, '
                                'no place acquired)'))
        return left


# One place in exporter.yaml: its serial port and its outlet (the README's
# real-lab file differs only in the serial and power lines)
EXPORTER_GROUP = '''{name}:
  {serial}:
    {serial_key}: {serial_value}
  PDUDaemonPort:
    host: {pdu_host}
    pdu: {pdu}
    index: {index}
'''


def parse_place(text):
    """NAME=CELL@BUILD -> (name, cell, build, {})"""
    match = re.fullmatch(r'([A-Za-z0-9_-]+)=([a-z0-9-]+)@(.+)', text)
    if not match:
        raise argparse.ArgumentTypeError("'%s' is not NAME=CELL@BUILD" % text)
    name, cell, build = match.groups()
    if cell not in CELLS and cell not in BOARD_CELLS:
        raise argparse.ArgumentTypeError("'%s': no cell '%s' (cells: %s)" % (
            text, cell, ', '.join(sorted(CELLS) + sorted(BOARD_CELLS))))
    if not os.path.exists(os.path.join(build, 'u-boot.bin')):
        raise argparse.ArgumentTypeError("'%s': %s has no u-boot.bin" % (text, build))
    return (name, cell, os.path.abspath(build), {})


def main(argv=None):
    """Bring the lab up, run COMMAND in it, tear it down; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--work', required=True, help='the lab directory (made afresh)')
    parser.add_argument('--place', action='append', type=parse_place, required=True,
                        metavar='NAME=CELL@BUILD')
    parser.add_argument('--tag', action='append', default=[], metavar='NAME:KEY=VALUE')
    parser.add_argument('command', nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ['--'] else args.command
    root = os.environ.get('PERFREC_LAB_ROOT')
    if not root:
        say('PERFREC_LAB_ROOT is not set: run under scripts/perfrec_lab_host.py run')
        return 3
    if os.environ.get('PERFREC_LAB_NETNS') != '1':
        # A network namespace of its own, with only lo: nothing the lab's
        # servers listen on (all addresses, for ser2net and pdudaemon's
        # default) is reachable from outside
        os.execvpe('unshare', ['unshare', '-n', '--', sys.executable] + sys.argv,
                   dict(os.environ, PERFREC_LAB_NETNS='1'))
    places = {p[0]: p for p in args.place}
    for tag in args.tag:
        name, _, item = tag.partition(':')
        key, _, value = item.partition('=')
        if name not in places or not key or not value:
            parser.error("--tag '%s': want NAME:KEY=VALUE for a --place NAME" % tag)
        places[name][3][key] = value
    if os.path.exists(args.work):
        shutil.rmtree(args.work)

    def stop(signum, _frame):
        raise KeyboardInterrupt('signal %d' % signum)

    signal.signal(signal.SIGTERM, stop)
    lab = Lab(root, args.work, list(places.values()))
    ret = 0
    try:
        lab.start()
        if command:
            with subprocess.Popen(command, env=lab.env(**lab.client_env())) as proc:
                try:
                    ret = proc.wait()
                except KeyboardInterrupt:
                    # COMMAND had its SIGINT from the terminal too: let it
                    # release what it holds, then tear down
                    try:
                        proc.wait(60)
                    except (subprocess.TimeoutExpired, KeyboardInterrupt):
                        proc.kill()
                    raise
    except KeyboardInterrupt as exc:
        say('stopped (%s)' % (exc or 'SIGINT'))
        ret = 130
    except LabError as exc:
        say(str(exc))
        return 3
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        left = lab.stop()
    return 3 if left and ret in (0, 1, 2) else ret


if __name__ == '__main__':
    sys.exit(main())
