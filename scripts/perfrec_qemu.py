#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Drive U-Boot on QEMU virt through its console, for the demo and benchmarks.

Usage (as a module):
    with Board(build_dir, machine='virt,virtualization=on', icount='shift=0') as b:
        out = b.run('perfrec record -- crc32 0x40000000 0x1000000')

Usage (as a program, prints the transcript):
    perfrec_qemu.py --build-dir build/qemu_arm64_perfrec [-M virt] [--icount shift=0] \\
        'command' ['command' ...]

The tests use U-Boot's own test/py harness instead (test/hooks).
"""

import argparse
import os
import select
import subprocess
import sys
import time

PROMPT = b'=> '
AUTOBOOT = b'Hit any key'


class BoardError(Exception):
    """QEMU or U-Boot did not answer as expected"""


class Board:
    """One QEMU virt board running U-Boot, driven over stdin/stdout"""

    # Many knobs, each with the virt board's default
    # pylint: disable-next=too-many-arguments
    def __init__(self, build_dir, machine='virt', icount='', cpu='cortex-a57', smp=1,
                 extra=None, echo=False, cwd=None, qemu='qemu-system-aarch64', dtb=None):
        """@dtb: a real board's own device tree: U-Boot is booted as a kernel
        with it (as the Raspberry Pi's firmware does), its console the second
        UART and its prompt 'U-Boot> ' (raspi3b's model, rpi_arm64_defconfig)"""
        image = os.path.join(build_dir, 'u-boot.bin')
        if dtb:
            self.args = [qemu, '-M', machine, '-m', '1G', '-nic', 'none', '-display', 'none',
                         '-monitor', 'none', '-serial', 'null', '-serial', 'stdio',
                         '-kernel', image, '-dtb', dtb]
            self.prompt = b'U-Boot> '
        else:
            self.args = [qemu, '-M', machine, '-cpu', cpu, '-m', '1G',
                         '-smp', str(smp), '-semihosting', '-nic', 'none', '-nographic',
                         '-monitor', 'none', '-bios', image]
            self.prompt = PROMPT
        if icount:
            self.args += ['-icount', icount]
        self.args += extra or []
        self.echo = echo
        self.cwd = cwd
        self.proc = None
        self.buf = b''
        self.boot_log = ''

    def __enter__(self):
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, cwd=self.cwd)
        try:
            # Stop autoboot at its countdown rather than wait for it
            if self._wait((AUTOBOOT, self.prompt), 60) == AUTOBOOT:
                self.proc.stdin.write(b' ')
                self.proc.stdin.flush()
                self._wait((self.prompt,), 60)
            self.boot_log = self.buf.decode(errors='replace').replace('\r', '')
            self.buf = b''
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        if self.proc:
            self.proc.kill()
            self.proc.wait()

    def _wait(self, patterns, timeout):
        """Read until one of @patterns has arrived; return it"""
        end = time.monotonic() + timeout
        while not any(pat in self.buf for pat in patterns):
            left = end - time.monotonic()
            if left <= 0:
                raise BoardError('no %s within %d s (QEMU: %s); output ends:\n%s' %
                                 (' or '.join(repr(p) for p in patterns), timeout,
                                  ' '.join(self.args),
                                  self.buf[-500:].decode(errors='replace')))
            ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 0.5))
            if ready:
                data = os.read(self.proc.stdout.fileno(), 65536)
                if not data:
                    raise BoardError('QEMU exited: %s' %
                                     self.buf[-500:].decode(errors='replace'))
                if self.echo:
                    sys.stdout.write(data.decode(errors='replace'))
                    sys.stdout.flush()
                self.buf += data
        return next(pat for pat in patterns if pat in self.buf)

    def send(self, cmd, until, timeout=600):
        """Send @cmd; return the output up to @until (bytes), for a command
        that never comes back to the prompt (an OS boot)"""
        self.buf = b''
        self.proc.stdin.write(cmd.encode() + b'\n')
        self.proc.stdin.flush()
        self._wait((until,), timeout)
        return self.buf.decode(errors='replace').replace('\r', '')

    def run(self, cmd, timeout=600):
        """Run one command; return its output (without the echo and prompt)"""
        self.buf = b''
        self.proc.stdin.write(cmd.encode() + b'\n')
        self.proc.stdin.flush()
        self._wait((b'\n' + self.prompt,), timeout)
        out = self.buf.decode(errors='replace').replace('\r', '')
        out = out.rsplit('\n' + self.prompt.decode(), 1)[0]
        first, _, rest = out.partition('\n')
        return rest if cmd in first else out


def main(argv=None):
    """Run commands on a fresh board; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True)
    parser.add_argument('-M', '--machine', default='virt')
    parser.add_argument('--icount', default='')
    parser.add_argument('--cpu', default='cortex-a57')
    parser.add_argument('commands', nargs='*')
    args = parser.parse_args(argv)
    with Board(args.build_dir, args.machine, args.icount, cpu=args.cpu) as board:
        for cmd in args.commands:
            print('=> ' + cmd)
            print(board.run(cmd))
    return 0


if __name__ == '__main__':
    sys.exit(main())
