# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""A board's console in perfrec_loopback_lab.py's lab: the pty relay.

The pty exists while the board is off (the exporter exports it as a
RawSerialPort); while the board's QEMU runs, Relay copies between the pty
and the QEMU UART's socket, and can lose part of the output once for a
fault test.
"""

import errno
import os
import pty
import select
import socket
import termios
import threading
import tty

from perfrec_lab_netns import LabError

# The console relay's backlog while ser2net does not read (a UART drops the rest)
BACKLOG = 1 << 20


class Relay(threading.Thread):
    """A board's console: a pty that exists while the board is off, relayed
    to the QEMU that connects to @sock while one runs

    A fault file (@fault) makes the relay lose part of the board's output
    once, as a console that drops: 'drop MARK SKIP LEN' loses LEN bytes,
    SKIP bytes after the next MARK. The file is removed when it has acted.
    """

    def __init__(self, sock, fault):
        super().__init__(daemon=True)
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.fault = fault
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(sock)
        self.listener.listen(1)
        self.conn = None
        self.backlog = bytearray()
        self.stopping = threading.Event()
        self.dropping = None    # [mark, skip, length, seen] while a fault is armed

    def stop(self):
        """Stop relaying and close the pty"""
        self.stopping.set()
        self.join(5)
        for sock in (self.conn, self.listener):
            if sock:
                sock.close()
        for fd in (self.master, self.slave):
            os.close(fd)

    def _arm(self):
        """Read the fault file, if any, once per board connection"""
        try:
            with open(self.fault, encoding='utf-8') as inf:
                words = inf.read().split()
        except FileNotFoundError:
            self.dropping = None
            return
        if len(words) != 4 or words[0] != 'drop':
            raise LabError('%s: want "drop MARK SKIP LEN", not %r' % (self.fault, words))
        self.dropping = [words[1].encode(), int(words[2]), int(words[3]), b'']

    def _filter(self, data):
        """@data less what an armed fault loses"""
        if not self.dropping:
            return data
        mark, skip, length, seen = self.dropping
        if mark:
            seen += data
            at = seen.find(mark)
            if at < 0:
                self.dropping[3] = seen[-len(mark):]
                return data
            # The mark may straddle reads: count from its start in @data
            start = len(data) - (len(seen) - at)
            self.dropping[0] = b''
            keep, data = data[:max(start, 0)], data[max(start, 0):]
        else:
            keep = b''
        if skip >= len(data):
            self.dropping[1] = skip - len(data)
            return keep + data
        keep += data[:skip]
        data = data[skip:]
        self.dropping[1] = 0
        self.dropping[2] = max(length - len(data), 0)
        if self.dropping[2] == 0:
            self.dropping = None
            os.remove(self.fault)
        return keep + data[length:]

    def _to_console(self, data):
        """Queue @data for the pty (dropping the oldest past BACKLOG)"""
        self.backlog += data
        if len(self.backlog) > BACKLOG:
            del self.backlog[:len(self.backlog) - BACKLOG]
        try:
            done = os.write(self.master, self.backlog)
            del self.backlog[:done]
        except BlockingIOError:
            pass

    def run(self):
        while not self.stopping.is_set():
            rlist = [self.listener, self.master] + ([self.conn] if self.conn else [])
            wlist = [self.master] if self.backlog else []
            ready, writable, _ = select.select(rlist, wlist, [], 0.2)
            if writable:
                self._to_console(b'')
            if self.listener in ready:
                conn, _ = self.listener.accept()
                if self.conn:
                    self.conn.close()
                self.conn = conn
                # A board powered on: what the last one printed is not its
                termios.tcflush(self.slave, termios.TCIFLUSH)
                self.backlog.clear()
                self._arm()
            if self.master in ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EIO):
                        raise
                    data = b''
                if data and self.conn:
                    try:
                        self.conn.sendall(data)
                    except OSError:
                        self.conn.close()
                        self.conn = None
            if self.conn and self.conn in ready:
                try:
                    data = self.conn.recv(65536)
                except OSError:
                    data = b''
                if not data:
                    self.conn.close()
                    self.conn = None
                else:
                    self._to_console(self._filter(data))
