# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of tools/perfrec/perfrec_extract.py, the 'perfrec dump' console extractor

"""Host tests of tools/perfrec/perfrec_extract.py: the encoder and the command line.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_extract*.py

Here: the tool's reference encoder (encode_block), pinned by golden blocks
that test_perfrec_frame.py holds the C encoder to as well, and the command
line, run as a subprocess (stdin, -o, --list, --all, --device on a
pseudo-terminal standing in for the board). The decoder's tests are in
test_extract_frames.py (each block, its damage at its exact log line) and
test_extract_recordings.py (several blocks and recordings, streams, fuzz);
extract_helpers.py builds the logs they all use: blocks of the reference
encoder wrapped in console noise. Every damaged log checks the exact log
line each problem is reported at, that nothing is written from a damaged
block and the exit status. Nothing here skips.
"""

import binascii
import gzip
import os
import select
import subprocess
import time
import zlib

import pytest

from extract_helpers import (BEGIN_AT, DATA, ID_A, ID_B, PE, REPO, compressible, flip,
                             noisy_log, perf_file, pipe_chunks, stream_blocks, stream_lines,
                             to_bytes, wrap)

TOOL = os.path.join('tools', 'perfrec', 'perfrec_extract.py')
PYTHON = '/usr/bin/python3'


def run_tool(args, stdin=None, cwd=REPO):
    """Run the tool as U-Boot's users do; return the CompletedProcess"""
    tool = TOOL if cwd == REPO else os.path.join(REPO, TOOL)
    return subprocess.run([PYTHON, tool] + list(args), input=stdin, capture_output=True,
                          cwd=cwd, check=False, timeout=60)


def write_log(tmp_path, lines, eol='\r\n', name='console.log'):
    """Write the log @lines to @tmp_path/@name; return its path"""
    path = tmp_path / name
    path.write_bytes(to_bytes(lines, eol))
    return str(path)


# The encoder


def test_crc16_is_xmodem():
    """The payload line check is CRC-16/XMODEM (check value 0x31c3)"""
    assert PE.crc16(b'123456789') == 0x31c3


# Blocks pinned byte for byte: (payload, id, seq, kind, compress, lines). Also the
# C encoder's reference (test_perfrec_frame.py)
GOLDEN_BLOCKS = [
    (b'PERFILE2' + bytes(range(60)), 0x1a2b3c4d, 0, 'file', False, [
        'perfrec-begin 1 1a2b3c4d 0 file 68 d533756b b64 68 2',
        '0:UEVSRklMRTIAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8w:9346',
        '1:MTIzNDU2Nzg5Ojs=:b2ed',
        'perfrec-end 1a2b3c4d 0']),
    (b'', 'deadbeef', 3, 'pipe', False, [
        'perfrec-begin 1 deadbeef 3 pipe 0 00000000 b64 0 0', 'perfrec-end deadbeef 3']),
    (b'', 'deadbeef', 3, 'pipe', True, [
        'perfrec-begin 1 deadbeef 3 pipe 0 00000000 b64z 20 1',
        '0:H4sIAAAAAAACAwMAAAAAAAAAAAA=:10b4', 'perfrec-end deadbeef 3']),
]


def test_encode_golden():
    """The reference encoder's output, pinned"""
    for data, rec_id, seq, kind, compress, lines in GOLDEN_BLOCKS:
        assert PE.encode_block(data, rec_id, seq, kind, compress) == lines


@pytest.mark.parametrize('compress', [False, True])
def test_encode_structure(compress):
    """Every field of an encoded block follows the format"""
    data = perf_file(57 * 20 + 5, seed=3)
    lines = PE.encode_block(data, 0xabc, 12, 'pipe', compress)
    wire = gzip.compress(data, mtime=0) if compress else data
    nlines = (len(wire) + 56) // 57
    assert lines[0].split() == [
        'perfrec-begin', '1', '00000abc', '12', 'pipe', str(len(data)),
        '%08x' % zlib.crc32(data), 'b64z' if compress else 'b64', str(len(wire)), str(nlines)]
    assert lines[-1] == 'perfrec-end 00000abc 12'
    assert len(lines) == nlines + 2
    got = b''
    for idx, line in enumerate(lines[1:-1]):
        num, b64, crc = line.split(':')
        assert num == '%x' % idx
        chunk = binascii.a2b_base64(b64)
        assert len(chunk) == (57 if idx < nlines - 1 else len(wire) - 57 * idx)
        assert crc == '%04x' % binascii.crc_hqx(chunk, 0)
        got += chunk
    assert got == wire


def test_encode_bad_arguments():
    """encode_block() rejects bad arguments with UsageError only"""
    for args in ((b'x', 'ABCDEF12', 0, 'file', False), (b'x', 1 << 32, 0, 'file', False),
                 (b'x', 1, 1, 'file', False), (b'x', 1, -1, 'pipe', False),
                 (b'x', 1, 0, 'stream', False)):
        with pytest.raises(PE.UsageError):
            PE.encode_block(*args)


# The command line


def test_cli_stdin(tmp_path):
    data = compressible(5000)
    log = to_bytes(noisy_log([PE.encode_block(data, ID_A, 0, 'file', True)]))
    out = tmp_path / 'out.data'
    proc = run_tool(['-o', str(out), '-'], stdin=log)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == data
    assert proc.stderr.decode() == 'wrote %s: recording %s, file, 5000 bytes\n' % (out, ID_A)
    proc = run_tool(['-q', '-o', '-', '-'], stdin=log)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, data, b'')


def test_cli_default_output(tmp_path):
    path = write_log(tmp_path, wrap(PE.encode_block(DATA, ID_A, 0, 'file', False)))
    proc = run_tool([path], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / 'perf.data').read_bytes() == DATA


def test_cli_last_and_all(tmp_path):
    data_a, data_b = perf_file(400, 1), perf_file(900, 2)
    chunks = pipe_chunks(3)
    path = write_log(tmp_path, wrap(PE.encode_block(data_a, ID_A, 0, 'file', False),
                                    *stream_blocks(chunks, rec_id='00000001'),
                                    PE.encode_block(data_b, ID_B, 0, 'file', True)))
    out = str(tmp_path / 'perf.data')
    proc = run_tool([path, '-o', out])
    assert proc.returncode == 0, proc.stderr
    assert open(out, 'rb').read() == data_b
    assert sorted(os.listdir(tmp_path)) == ['console.log', 'perf.data']
    os.unlink(out)
    proc = run_tool([path, '-o', out, '--all'])
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path)) == ['console.log', 'perf.data.00000001',
                                            'perf.data.1a2b3c4d', 'perf.data.deadbeef']
    assert open(out + '.' + ID_A, 'rb').read() == data_a
    assert open(out + '.00000001', 'rb').read() == b''.join(chunks)
    assert open(out + '.' + ID_B, 'rb').read() == data_b
    assert 'pipe stream of 3 chunks' in proc.stderr.decode()
    proc = run_tool([path, '-o', out, '--id', ID_A])
    assert proc.returncode == 0, proc.stderr
    assert open(out, 'rb').read() == data_a
    proc = run_tool([path, '-o', out, '--id', '99999999'])
    assert proc.returncode == 1
    assert 'no recording 99999999' in proc.stderr.decode()


def test_cli_list(tmp_path):
    chunks = pipe_chunks(2)
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    bad = list(blk)
    bad[3] = flip(bad[3], 9)
    path = write_log(tmp_path, wrap(blk, *stream_blocks(chunks), bad), eol='\r\r\n')
    out = tmp_path / 'out'
    proc = run_tool(['--list', '-o', str(out), path])
    # Listing writes nothing; the last recording is intact thanks to its first copy
    assert not out.exists()
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.decode().splitlines()]
    starts = [BEGIN_AT, BEGIN_AT + 9, BEGIN_AT + 9 + len(stream_blocks(chunks)[0]) + 1]
    starts.append(starts[2] + len(stream_blocks(chunks)[1]) + 1)
    assert rows == [
        [ID_A, '0', 'file', '300', 'ok', 'line', str(starts[0])],
        [ID_B, '0', 'pipe', '200', 'ok', 'line', str(starts[1])],
        [ID_B, '1', 'pipe', '201', 'ok', 'line', str(starts[2])],
        [ID_A, '0', 'file', '300', 'damaged', 'line', str(starts[3])]]
    assert '%s:%d: warning: crc16 mismatch' % (path, starts[3] + 3) in proc.stderr.decode()


def test_cli_damaged(tmp_path):
    """A damaged recording: exit 1, one line per problem, the old output untouched"""
    blk = PE.encode_block(DATA, ID_A, 0, 'file', False)
    del blk[3]
    path = write_log(tmp_path, wrap(PE.encode_block(perf_file(100), ID_B, 0, 'file', False),
                                    blk))
    out = tmp_path / 'perf.data'
    out.write_bytes(b'old')
    proc = run_tool([path, '-o', str(out)])
    assert proc.returncode == 1
    assert out.read_bytes() == b'old'
    at = BEGIN_AT + 5
    assert proc.stderr.decode().splitlines() == [
        '%s:%d: payload line 2 missing in block %s/0' % (path, at + 3, ID_A),
        '%s:%d: recording %s (file) has no intact block: nothing written' % (path, at, ID_A),
        '%s: note: intact earlier recording: %s (use --id)' % (path, ID_B)]
    proc = run_tool([path, '-o', str(out), '--all'])
    assert proc.returncode == 1
    assert (tmp_path / ('perf.data.' + ID_B)).exists()
    assert not (tmp_path / ('perf.data.' + ID_A)).exists()


def test_cli_stream_gap(tmp_path):
    """A stream with a missing middle chunk: chunks before the gap written, exit 1"""
    chunks = pipe_chunks(4)
    lines, starts = stream_lines(chunks, [0, 1, 3], compress=True)
    path = write_log(tmp_path, lines)
    out = tmp_path / 'perf.data'
    proc = run_tool([path, '-o', str(out)])
    assert proc.returncode == 1
    assert out.read_bytes() == chunks[0] + chunks[1]
    err = proc.stderr.decode().splitlines()
    assert err == ['%s:%d: stream %s: chunk 2 missing: writing chunks 0-1 only; chunk 3 after it '
                   '(from line %d) not used' % (path, starts[2], ID_B, starts[2]),
                   'wrote %s: recording %s, pipe stream of 2 chunks, %d bytes (INCOMPLETE)' %
                   (out, ID_B, len(chunks[0] + chunks[1]))]


@pytest.mark.parametrize('args,code,message', [
    ([], 2, 'give either a log file (or -) or --device'),
    (['/nonexistent/log'], 2, 'cannot read /nonexistent/log: No such file or directory'),
    (['-', '--all', '--id', ID_A], 2, '--all and --id exclude each other'),
    (['-', '--id', 'xyz'], 2, "bad --id 'xyz'"),
    (['-', '--timeout', '3'], 2, '--timeout, --command and --log go with --device'),
    (['-', '--bogus'], 2, 'unrecognized arguments: --bogus'),
    (['-'], 1, '<stdin>: no perfrec dump found')])
def test_cli_usage(args, code, message):
    proc = run_tool(args, stdin=b'=> help\r\n')
    assert proc.returncode == code
    assert message in proc.stderr.decode()


def test_cli_help():
    proc = run_tool(['--help'])
    assert proc.returncode == 0
    assert b'--device' in proc.stdout


def test_main_in_process(tmp_path, capsys):
    """main() returns the exit status rather than exiting"""
    path = write_log(tmp_path, wrap(PE.encode_block(DATA, ID_A, 0, 'pipe', True)))
    out = str(tmp_path / 'x')
    assert PE.main([path, '-o', out]) == 0
    assert open(out, 'rb').read() == DATA
    assert 'does not start with a pipe-mode perf.data header' in capsys.readouterr().err
    assert PE.main(['--nope']) == 2


# The serial port, played by a pseudo-terminal


class FakeBoard:
    """The master side of a pty: what U-Boot would send and receive"""

    def __init__(self):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)

    def wait_for(self, text, timeout=20):
        """Read what the tool sends until @text arrives"""
        got = b''
        end = time.monotonic() + timeout
        while text not in got:
            left = end - time.monotonic()
            assert left > 0, 'the tool never sent %r (got %r)' % (text, got)
            if select.select([self.master], [], [], left)[0]:
                got += os.read(self.master, 1024)
        return got

    def send(self, data):
        os.write(self.master, data)

    def close(self):
        os.close(self.slave)
        os.close(self.master)


def test_device_file(tmp_path):
    """--device: type the command, read one file block, stop at its end line"""
    data = perf_file(20000, seed=4)
    board = FakeBoard()
    out, saved = tmp_path / 'perf.data', tmp_path / 'console.txt'
    try:
        proc = subprocess.Popen(  # pylint: disable=consider-using-with
            [PYTHON, TOOL, '--device', board.path, '--baud', '115200', '--command',
             'perfrec dump', '--log', str(saved), '-o', str(out)], cwd=REPO,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        board.wait_for(b'perfrec dump\r')
        log = to_bytes(['perfrec dump'] + PE.encode_block(data, ID_A, 0, 'file', False) +
                       ['=> '])
        board.send(log)
        _, err = proc.communicate(timeout=30)
    finally:
        board.close()
    err = err.decode()
    assert proc.returncode == 0, err
    assert out.read_bytes() == data
    assert saved.read_bytes() == log[:len(saved.read_bytes())]
    assert '/%d lines' % ((len(data) + 56) // 57) in err
    assert 'KiB/s' in err and 'wrote %s' % out in err


def test_device_stream_timeout(tmp_path):
    """--device with a stream: read until --timeout seconds of silence"""
    chunks = pipe_chunks(3)
    board = FakeBoard()
    out = tmp_path / 'perf.data'
    try:
        proc = subprocess.Popen(  # pylint: disable=consider-using-with
            [PYTHON, TOOL, '--device', board.path, '--timeout', '1', '--command', 'perfrec dump',
             '-o', str(out)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        board.wait_for(b'perfrec dump\r')
        for blk in stream_blocks(chunks):
            board.send(to_bytes(blk))
        board.send(b'=> ')
        _, err = proc.communicate(timeout=30)
    finally:
        board.close()
    err = err.decode()
    assert proc.returncode == 0, err
    assert out.read_bytes() == b''.join(chunks)
    assert '1 s of silence: stopping' in err


def test_device_not_a_tty(tmp_path):
    path = tmp_path / 'plain'
    path.write_bytes(b'')
    proc = run_tool(['--device', str(path)])
    assert proc.returncode == 2
    assert 'is not a terminal' in proc.stderr.decode()
