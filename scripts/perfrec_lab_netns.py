# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""The processes, ports and network namespace of perfrec_loopback_lab.py's lab.

Everything the lab starts carries MARKER=<run id> in its environment, so that
marked() finds what a run left behind; the servers listen on 127.0.0.1 ports
(free_port(), wait_port(), listeners()) in a network namespace that has only
'lo' (only_loopback()). LabError is the lab's one error.
"""

import os
import socket
import subprocess
import time

MARKER = 'PERFREC_LAB_RUN'
# How long a server may take to listen (s)
START_SECS = 30


class LabError(Exception):
    """The lab did not come up, or did not go down cleanly"""


def free_port():
    """A TCP port free on 127.0.0.1 now"""
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def wait_port(port, proc, what):
    """Wait until 127.0.0.1:@port accepts connections; @proc must not exit"""
    end = time.monotonic() + START_SECS
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise LabError('%s exited (%d) before listening on 127.0.0.1:%d' %
                           (what, proc.returncode, port))
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise LabError('%s did not listen on 127.0.0.1:%d within %d s' % (what, port, START_SECS))


def listeners():
    """The TCP ports something listens on in this network namespace"""
    out = subprocess.run(['ss', '-Hltn'], capture_output=True, text=True, check=True).stdout
    return sorted({int(line.split()[3].rsplit(':', 1)[1]) for line in out.splitlines()})


def marked(run_id):
    """The PIDs whose environment carries this run's marker"""
    want = ('%s=%s' % (MARKER, run_id)).encode() + b'\0'
    pids = []
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open('/proc/%s/environ' % name, 'rb') as inf:
                if want in inf.read():
                    pids.append(int(name))
        except OSError:
            pass
    return pids


def only_loopback():
    """None if this network namespace has only 'lo' (and bring it up), else why
    not. lo also gets 127.0.0.2: ser2net resolves its port with glibc's
    AI_ADDRCONFIG, which finds no address where 127.0.0.1 is the only one"""
    out = subprocess.run(['ip', '-o', 'link', 'show'], capture_output=True, text=True,
                         check=True).stdout
    links = [line.split(':')[1].strip().split('@')[0] for line in out.splitlines()]
    if links != ['lo']:
        return 'this network namespace has %s, not only lo' % ', '.join(links)
    subprocess.run(['ip', 'link', 'set', 'lo', 'up'], check=True)
    subprocess.run(['ip', 'addr', 'replace', '127.0.0.2/32', 'dev', 'lo'], check=True)
    return None


def comm(pid):
    """A process's command name"""
    try:
        with open('/proc/%d/comm' % pid, encoding='utf-8') as inf:
            return inf.read().strip()
    except OSError:
        return '?'
