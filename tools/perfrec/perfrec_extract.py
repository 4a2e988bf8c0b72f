#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Extract the perf.data recordings that 'perfrec dump' printed on a serial console

"""Extract the perf.data recordings that 'perfrec dump' printed on a console.

Usage:
    perfrec_extract.py [-o perf.data] [--all | --id ID] [--list] LOG
    perfrec_extract.py [options] -                  (the log on stdin)
    perfrec_extract.py [options] --device /dev/ttyUSB0 [--baud 115200]
                       [--timeout SECONDS] [--command 'perfrec dump'] [--log FILE]

LOG is a console log (CRLF or LF line ends, prompts and other output around
the dumps do not matter). -o receives the last recording in the log (or the
one --id names); --all writes every recording as PATH.<id>; --list prints one
line per block (id, seq, kind, size, status, log line) and writes nothing.
With --device the serial port is opened raw at --baud and read until a file
block is complete, or, for a pipe stream, until Ctrl-C or --timeout seconds of
silence; progress goes to stderr, --log keeps a copy of what was received.

Exit status: 0 if what was asked for was extracted intact, 1 if a recording
is damaged or incomplete (one line per problem on stderr, each naming the log
line; nothing is written from a damaged block, though the chunks of a pipe
stream before a gap are), 2 on a usage error.

The frame format and its decoding are perfrec_frames.py's (the blocks) and
perfrec_reassemble.py's (the recordings); this file is the command line.

As a module (tests, host-side round trips, fuzzing), with the names of
those two modules re-exported here:
    lines = perfrec_extract.encode_block(data, 0x1234abcd, 0, 'file', True)
    recordings, problems = perfrec_extract.extract(lines)
    recordings[-1].data          # bytes, or None when nothing is usable
extract() never raises on garbage; UsageError is the only exception the
module raises on purpose (bad arguments).
"""

import argparse
import os
import select
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
from perfrec_frames import (  # noqa: E402
    BEGIN_FIELDS, BEGIN_MARK, ENCODINGS, END_MARK, FORMAT_VERSION, ID_RE, KINDS, LINE_BYTES,
    PERF_MAGIC, PIPE_HEADER_SIZE, Block, Parser, Problem, UsageError, crc16, encode_block,
    frame_lines, split_log)
from perfrec_reassemble import Recording, assemble, extract  # noqa: E402

# What other code takes from here: the decoder's names, and the command line's
__all__ = [
    'BEGIN_FIELDS', 'BEGIN_MARK', 'ENCODINGS', 'END_MARK', 'FORMAT_VERSION', 'ID_RE', 'KINDS',
    'LINE_BYTES', 'PERF_MAGIC', 'PIPE_HEADER_SIZE', 'Block', 'Parser', 'Problem', 'Recording',
    'UsageError', 'assemble', 'crc16', 'encode_block', 'extract', 'frame_lines', 'list_lines',
    'main', 'parse_args', 'read_device', 'run', 'split_log']


def list_lines(blocks):
    """The --list lines: id, seq, kind, size, status and log line of each block"""
    out = []
    for blk in blocks:
        out.append(f"{blk.rec_id or '?':<8} {'?' if blk.seq is None else blk.seq:>4} "
                   f"{blk.kind or '?':<4} {'?' if blk.size is None else blk.size:>10} "
                   f"{blk.status:<9} line {blk.lineno}")
    return out


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def parse_args(argv):
    """Parse the command line @argv (without the program name)"""
    parser = _ArgumentParser(
        description='Extract the perf.data recordings that perfrec dump printed on a console.')
    parser.add_argument('log', nargs='?', help="console log file, or '-' for stdin")
    parser.add_argument('-o', '--output', default='perf.data',
                        help="output file (default perf.data, '-' for stdout)")
    parser.add_argument('--all', action='store_true',
                        help='write every recording as OUTPUT.<id>')
    parser.add_argument('--id', help='write the recording with this id, not the last one')
    parser.add_argument('--list', action='store_true',
                        help='list the blocks found; write nothing')
    parser.add_argument('--device', help='read a serial port (e.g. /dev/ttyUSB0)')
    parser.add_argument('--baud', type=int, default=115200,
                        help='serial port speed (default 115200)')
    parser.add_argument('--timeout', type=float,
                        help='with --device: stop after this many seconds of silence')
    parser.add_argument('--command',
                        help="with --device: type this command first (e.g. 'perfrec dump')")
    parser.add_argument('--log', dest='save_log', metavar='FILE',
                        help='with --device: keep what was received in FILE')
    parser.add_argument('-q', '--quiet', action='store_true',
                        help='no progress or summary on stderr, only problems')
    args = parser.parse_args(argv)
    if (args.log is None) == (args.device is None):
        raise UsageError('give either a log file (or -) or --device')
    if args.device is None and (args.timeout is not None or args.command or args.save_log):
        raise UsageError('--timeout, --command and --log go with --device')
    if args.all and args.id:
        raise UsageError('--all and --id exclude each other')
    if args.all and args.output == '-':
        raise UsageError('--all cannot write to stdout')
    if args.id is not None and not ID_RE.match(args.id):
        raise UsageError(f'bad --id {args.id!r}: want 8 lowercase hex digits')
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError('--timeout must be positive')
    return args


def _read_log(path):
    """Return the lines of log @path ('-' for stdin)"""
    try:
        if path == '-':
            return split_log(sys.stdin.buffer.read())
        with open(path, 'rb') as inf:
            return split_log(inf.read())
    except OSError as err:
        raise UsageError(f'cannot read {path}: {err.strerror or err}') from err


def _configure_tty(tty, baud):
    """Put the terminal @tty in raw mode, 8N1, no flow control, at @baud"""
    import termios  # pylint: disable=import-outside-toplevel

    speed = getattr(termios, f'B{baud}', None)
    if speed is None:
        raise UsageError(f'unsupported --baud {baud}')
    iflag, oflag, cflag, lflag, _, _, ccs = termios.tcgetattr(tty)
    iflag &= ~(termios.IGNBRK | termios.BRKINT | termios.PARMRK | termios.ISTRIP |
               termios.INLCR | termios.IGNCR | termios.ICRNL | termios.IXON |
               termios.IXOFF | termios.IXANY | termios.INPCK)
    oflag &= ~termios.OPOST
    lflag &= ~(termios.ECHO | termios.ECHONL | termios.ICANON | termios.ISIG |
               termios.IEXTEN)
    cflag &= ~(termios.CSIZE | termios.PARENB | termios.CSTOPB |
               getattr(termios, 'CRTSCTS', 0))
    cflag |= termios.CS8 | termios.CREAD | termios.CLOCAL
    ccs = list(ccs)
    ccs[termios.VMIN] = 0
    ccs[termios.VTIME] = 0
    termios.tcsetattr(tty, termios.TCSANOW, [iflag, oflag, cflag, lflag, speed, speed, ccs])


class _Progress:
    """Progress of the block being received, on stderr"""

    def __init__(self, quiet):
        self.quiet = quiet
        self.block = None
        self.start = 0.0
        self.shown = 0.0
        self.dirty = False

    def update(self, block, force=False):
        """Show the state of @block (the open block, or the one just closed)"""
        if self.quiet or block is None:
            return
        now = time.monotonic()
        if block is not self.block:
            self.block = block
            self.start = now
        if not force and now - self.shown < 0.2:
            return
        self.shown = now
        rate = block.rx_bytes / max(now - self.start, 1e-3) / 1024
        total = '?' if block.nlines is None else block.nlines
        sys.stderr.write(f'\rblock {block.name}: {block.lines_seen}/{total} lines, '
                         f'{block.rx_bytes} bytes, {rate:.1f} KiB/s ')
        sys.stderr.flush()
        self.dirty = True

    def done(self):
        """End the progress line"""
        if self.dirty:
            sys.stderr.write('\n')
            sys.stderr.flush()
            self.dirty = False


def read_device(args, parser):
    """Read the serial port args.device into @parser until the dump is over

    A file block ends the reading when its end line (or a truncation) arrives;
    a pipe stream is read until Ctrl-C or args.timeout seconds of silence.
    """
    try:
        tty = os.open(args.device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as err:
        raise UsageError(f'cannot open {args.device}: {err.strerror}') from err
    import termios  # pylint: disable=import-outside-toplevel

    saved = None
    logf = None
    progress = _Progress(args.quiet)
    try:
        try:
            saved = termios.tcgetattr(tty)
        except termios.error as err:
            raise UsageError(f'{args.device} is not a terminal') from err
        _configure_tty(tty, args.baud)
        if args.save_log:
            try:
                logf = open(args.save_log, 'wb')  # pylint: disable=consider-using-with
            except OSError as err:
                raise UsageError(f'cannot write {args.save_log}: {err.strerror}') from err
        if not args.quiet:
            until = '' if args.timeout else ' (Ctrl-C stops a pipe stream)'
            sys.stderr.write(f'reading {args.device} at {args.baud} baud{until}\n')
        if args.command:
            os.write(tty, args.command.encode() + b'\r')
        _read_loop(tty, args, parser, logf, progress)
    finally:
        progress.done()
        if logf:
            logf.close()
        if saved is not None:
            try:
                termios.tcsetattr(tty, termios.TCSADRAIN, saved)
            except termios.error:
                pass
        os.close(tty)


# pylint: disable-next=too-many-branches  # each way a read can end: clearer in one loop
def _read_loop(tty, args, parser, logf, progress):
    """The reading loop of read_device()"""
    pending = b''
    closed = 0
    try:
        while True:
            ready = select.select([tty], [], [], args.timeout)[0]
            if not ready:
                if not args.quiet:
                    progress.done()
                    sys.stderr.write(f'{args.timeout:g} s of silence: stopping\n')
                break
            try:
                data = os.read(tty, 65536)
            except BlockingIOError:
                continue
            except OSError:         # EIO: the other end hung up
                data = b''
            if not data:
                break
            if logf:
                logf.write(data)
            lines = (pending + data).split(b'\n')
            pending = lines.pop()
            for line in lines:
                parser.feed(line)
                progress.update(parser.block)
            progress.update(parser.block)
            for blk in parser.blocks[closed:]:
                if blk is parser.block:
                    break
                closed += 1
                if blk.begin_lineno is None:
                    continue
                progress.update(blk, force=True)
                progress.done()
                # A file dump is one block; a cut-off block is followed by another
                if blk.kind == 'file' and not blk.truncated:
                    return
    except KeyboardInterrupt:
        progress.done()
        if not args.quiet:
            sys.stderr.write('interrupted: stopping\n')
    finally:
        if pending:
            parser.feed(pending)


def _write(path, data):
    """Write @data to @path ('-': stdout); a regular file is replaced atomically"""
    if path == '-':
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, 'wb') as outf:
            outf.write(data)
        return
    handle, tmp = tempfile.mkstemp(prefix='.perfrec_extract.', dir=os.path.dirname(path) or '.')
    try:
        with os.fdopen(handle, 'wb') as outf:
            outf.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _describe(rec):
    if rec.kind == 'pipe':
        return f"pipe stream of {rec.chunks} chunk{'s'[:rec.chunks != 1]}, {len(rec.data)} bytes"
    return f'file, {len(rec.data)} bytes'


# pylint: disable-next=too-many-branches  # the command line's cases, one after the other
def run(args):
    """Carry out the parsed command line @args; return the exit status"""
    parser = Parser()
    if args.device:
        name = args.device
        read_device(args, parser)
    else:
        name = '<stdin>' if args.log == '-' else args.log
        for line in _read_log(args.log):
            parser.feed(line)
    blocks = parser.finish()
    recordings, _ = assemble(blocks)
    if args.list:
        for line in list_lines(blocks):
            print(line)
    loose = [p.as_warning() for blk in blocks if blk.rec_id is None for p in blk.problems]
    if not recordings:
        for prob in loose:
            print(prob.format(name), file=sys.stderr)
        print(f'{name}: no perfrec dump found', file=sys.stderr)
        return 1
    if args.all:
        chosen = recordings
    elif args.id:
        chosen = [rec for rec in recordings if rec.rec_id == args.id]
        if not chosen:
            print(f"{name}: no recording {args.id} (found: "
                  f"{', '.join(rec.rec_id for rec in recordings)})", file=sys.stderr)
            return 1
    else:
        chosen = recordings[-1:]
    for prob in loose + [p for rec in chosen for p in rec.problems]:
        print(prob.format(name), file=sys.stderr)
    status = 0 if all(rec.ok for rec in chosen) else 1
    if status and not args.all and not args.id and chosen[0].data is None:
        others = [rec.rec_id for rec in recordings[:-1] if rec.ok]
        if others:
            print(f"{name}: note: intact earlier recording{'s'[:len(others) > 1]}: "
                  f"{', '.join(others)} (use --id)", file=sys.stderr)
    if args.list:
        return status
    for rec in chosen:
        if rec.data is None:
            continue
        path = f'{args.output}.{rec.rec_id}' if args.all else args.output
        try:
            _write(path, rec.data)
        except OSError as err:
            print(f'cannot write {path}: {err.strerror or err}', file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"wrote {path}: recording {rec.rec_id}, "
                  f"{_describe(rec)}{'' if rec.ok else ' (INCOMPLETE)'}",
                  file=sys.stderr)
    return status


def main(argv=None):
    """Run the tool with @argv (default sys.argv[1:]); return the exit status"""
    try:
        return run(parse_args(sys.argv[1:] if argv is None else argv))
    except UsageError as err:
        print(f'perfrec_extract: {err}', file=sys.stderr)
        return 2
    except SystemExit as exc:      # --help
        return exc.code if isinstance(exc.code, int) else 0


if __name__ == '__main__':
    sys.exit(main())
