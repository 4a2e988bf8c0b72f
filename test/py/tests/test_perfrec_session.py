# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of recordings across commands, of getting them off the board, and of the OS handoff

"""perfrec start/stop, perfrec dump (framed text on the console, decoded by
tools/perfrec/perfrec_extract.py), -H host files through semihosting, and
a recording still running when U-Boot boots an OS: a small test payload
(perfrec_payload.S) reports the PMU, GIC and VBAR state it is handed.
"""

import os
import re
import subprocess
import time

import pytest

import perfrec_payload
from perfrec_data import PerfData
from perfrec_helpers import (BUF, BUF_SIZE, events, fetch, icount, perf, record, registers,
                             run_rc, status)

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), 'tools', 'perfrec')

SHORT_CRC = 'crc32 0x40000000 0x100000'
# A frame's wire bytes a line (PERFREC_FRAME_WIRE_PER_LINE), and its first line
WIRE_PER_LINE = 86
BEGIN = re.compile(r'^perfrec-begin 1 \w+ (\d+) pipe \d+ \w+ b64z? \d+ (\d+)\s*$', re.M)
STOPPED = re.compile(r'perfrec: (\d+) samples, (\d+) lost, (\d+) bytes of perf.data at '
                     r'(0x[0-9a-f]+)\s*$', re.M)


def extract(log, out, *args):
    """Run the host extractor on console text; return (exit code, stderr)"""
    proc = subprocess.run(['/usr/bin/python3', os.path.join(TOOLS, 'perfrec_extract.py'),
                           '-o', out] + list(args) + ['-'], input=log, capture_output=True,
                          text=True, check=False)
    return proc.returncode, proc.stderr


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_start_stop(ubman, tmp_path):
    """start/stop records across several commands; status follows it"""
    cons = ubman
    before = registers(cons)
    out = cons.run_command(f'perfrec start -c 20000 -o {BUF:#x} -s {BUF_SIZE:#x}')
    assert "'perfrec stop' ends it" in out
    assert status(cons)[0] == 'recording'
    cons.run_command(SHORT_CRC)
    out = cons.run_command('perfrec status')
    used = re.search(r'samples use (\d+) of (\d+)', out)
    assert used and int(used.group(1)) > 0, out
    # Long enough (16 MiB) that cmp is sampled without icount too, where the
    # shell's own time between the commands takes most samples
    cons.run_command('cmp.l 0x40000000 0x40000000 0x400000')
    out, ret = run_rc(cons, 'perfrec start')
    assert ret == 1 and 'perfrec is already recording' in out
    out = cons.run_command('perfrec stop')
    match = STOPPED.search(out)
    assert match, out
    assert registers(cons) == before
    out, ret = run_rc(cons, 'perfrec stop')
    assert ret == 1 and 'perfrec is not recording' in out

    count, period, late, _ = events(cons)['cycles']
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    assert len(pdata.samples) == int(match.group(1))
    assert len(pdata.samples) + late == count // period
    assert pdata.cmdline == ['perfrec', 'start', '-c', '20000', '-o', hex(BUF), '-s', hex(BUF_SIZE)]
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--sort', 'symbol'])
    # Both workloads are in the one profile
    assert 'crc32_no_comp' in report and 'do_mem_cmp' in report, report


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_dump_uart(ubman, tmp_path):
    """The UART path: dump, extract on the host, same bytes as through semihosting"""
    cons = ubman
    record(cons, f'-c 50000 -o {BUF:#x} -s {BUF_SIZE:#x}', SHORT_CRC)
    _, data = fetch(cons, tmp_path, 'semihosting.data')
    for args in ('', '-z'):
        log = cons.run_command(f'perfrec dump {args}')
        assert log.count('perfrec-begin') == 1 and 'perfrec-end' in log
        assert ('b64z' in log) == (args == '-z')
        out = os.path.join(str(tmp_path), f'uart{args}.data')
        ret, err = extract(log, out)
        assert ret == 0, err
        with open(out, 'rb') as inf:
            assert inf.read() == data
        perf(tmp_path, ['report', '-i', out, '--stdio'])


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_dump_broken_transfer(ubman, tmp_path):
    """A dump damaged on the way is reported with its line, never written"""
    cons = ubman
    record(cons, f'-c 50000 -o {BUF:#x} -s {BUF_SIZE:#x}', SHORT_CRC)
    log = cons.run_command('perfrec dump')
    lines = log.splitlines()
    payload = [i for i, line in enumerate(lines) if re.match(r'^[0-9a-f]+:', line.strip())]
    out = os.path.join(str(tmp_path), 'broken.data')
    # A dropped line
    ret, err = extract('\n'.join(lines[:payload[3]] + lines[payload[3] + 1:]), out)
    assert ret == 1 and 'missing' in err, err
    assert not os.path.exists(out)
    # A flipped character
    line = lines[payload[5]]
    idx = line.index(':') + 10
    flipped = line[:idx] + ('A' if line[idx] != 'A' else 'B') + line[idx + 1:]
    ret, err = extract('\n'.join(lines[:payload[5]] + [flipped] + lines[payload[5] + 1:]), out)
    assert ret == 1 and not os.path.exists(out), err
    # Cut off before its end
    ret, err = extract('\n'.join(lines[:payload[-2]]), out)
    assert ret == 1 and 'truncated' in err.lower(), err
    assert not os.path.exists(out)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.buildconfigspec('semihosting')
def test_perfrec_host_file(ubman, tmp_path):
    """-H writes the host file in one step, creating or truncating it"""
    cons = ubman
    path = os.path.join(str(tmp_path), 'direct.data')
    with open(path, 'wb') as outf:
        outf.write(b'x' * (4 << 20))        # longer than the recording: must be truncated
    res = record(cons, f'-c 50000 -o {BUF:#x} -s {BUF_SIZE:#x} -H {path}', SHORT_CRC)
    assert f"perfrec: {res['size']} bytes written to host file {path}" in res['out']
    _, data = fetch(cons, tmp_path, 'saved.data')
    with open(path, 'rb') as inf:
        assert inf.read() == data
    # dump -H writes the last recording again
    again = os.path.join(str(tmp_path), 'again.data')
    out = cons.run_command(f'perfrec dump -H {again}')
    assert 'bytes written to host file' in out, out
    with open(again, 'rb') as inf:
        assert inf.read() == data
    out, ret = run_rc(cons, 'perfrec dump -H /nonexistent-dir/x.data')
    assert ret == 1 and "Cannot create host file '/nonexistent-dir/x.data'" in out, out


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_failed_arm_keeps_recording(ubman, tmp_path):
    """A 'perfrec record' refused at arming (more events than counters, found
    only when counters are assigned) leaves the last recording as it was:
    its status, and its perf.data byte for byte. It once took the new
    options and cleared the sample counts first."""
    cons = ubman
    res = record(cons, f'-c 50000 -o {BUF:#x} -s {BUF_SIZE:#x}', SHORT_CRC)
    first = os.path.join(str(tmp_path), 'first.data')
    cons.run_command(f'perfrec dump -H {first}')
    before = cons.run_command('perfrec status')
    counters = int(re.search(r'(\d+) event counters of', cons.run_command('perfrec list'))
                   .group(1))
    spec = ','.join(['cycles'] + ['r11'] * min(counters + 1, 7))
    out, ret = run_rc(cons, f'perfrec record -e {spec} -c 50000 -o {BUF + BUF_SIZE:#x} '
                      f'-s 0x100000 -- {SHORT_CRC}')
    assert ret == 1 and 'Too many events' in out, out
    assert cons.run_command('perfrec status') == before
    again = os.path.join(str(tmp_path), 'again.data')
    out = cons.run_command(f'perfrec dump -H {again}')
    assert f"{res['size']} bytes written to host file" in out, out
    with open(first, 'rb') as inf, open(again, 'rb') as inf2:
        assert inf.read() == inf2.read()


def boot_payload(cons, tmp_path, before_boot=()):
    """Boot the test payload with booti; return (console text, its register report)"""
    path = perfrec_payload.build(os.path.join(str(tmp_path), 'payload'))
    cons.run_command(f'load hostfs - $kernel_addr_r {path}')
    for cmd in before_boot:
        cons.run_command(cmd)
    try:
        cons.run_command('booti $kernel_addr_r - $fdtcontroladdr', wait_for_prompt=False)
        cons.wait_for(perfrec_payload.END)
        text = cons.p.before
    finally:
        cons.restart_uboot()
    regs = perfrec_payload.parse(text)
    regs.pop('X0_DTB', None)        # the DTB may move when perfrec adds its node
    return text, regs


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_os_handoff(ubman, tmp_path):
    """A recording running at booti ends cleanly: the OS gets the state it gets without one"""
    cons = ubman
    _, plain = boot_payload(cons, tmp_path)
    assert plain['PMCR_EL0'] & 1 == 0 and plain['DAIF'] & 0x80
    text, handed = boot_payload(cons, tmp_path, [
        f'perfrec start -c 20000 -o {BUF:#x} -s {BUF_SIZE:#x}', SHORT_CRC])
    assert re.search(r'perfrec: stopped for the OS: [1-9]\d* samples, 0 lost, \d+ bytes of '
                     rf'perf.data at {BUF:#x}', text), text
    assert handed == plain


def payload_uimage(cons, tmp_path):
    """The test payload as a legacy uImage for bootm (loaded and run at
    0x40400000); return its path"""
    mkimage = os.path.join(cons.config.build_dir, 'tools', 'mkimage')
    payload = perfrec_payload.build(os.path.join(str(tmp_path), 'payload'))
    uimage = os.path.join(str(tmp_path), 'payload.uimg')
    subprocess.run([mkimage, '-A', 'arm64', '-O', 'linux', '-T', 'kernel', '-C', 'none',
                    '-a', '0x40400000', '-e', '0x40400000', '-d', payload, uimage],
                   check=True, capture_output=True)
    return uimage


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.buildconfigspec('perfrec_fdt_reserve')
def test_perfrec_fdt_reserved_memory(ubman, tmp_path):
    """Booting while recording reserves the buffer in the OS device tree"""
    cons = ubman
    uimage = payload_uimage(cons, tmp_path)
    cons.run_command(f'load hostfs - 0x48000000 {uimage}')
    cons.run_command(f'perfrec start -c 100000 -o {BUF:#x} -s {BUF_SIZE:#x}')
    try:
        for sub in ('start 0x48000000 - $fdtcontroladdr', 'loados', 'prep'):
            out = cons.run_command(f'bootm {sub}')
        out = cons.run_command('fdt print /reserved-memory')
        assert re.search(rf'perfrec@{BUF:x} \{{', out), out
        assert 'no-map' in out and 'perfrec,buffer' in out, out
        assert re.search(rf'reg = <0x00000000 {BUF:#010x} 0x00000000 {BUF_SIZE:#010x}>', out), \
            out
        cons.run_command('bootm go', wait_for_prompt=False)
        cons.wait_for(perfrec_payload.END)
        assert 'perfrec: stopped for the OS' in cons.p.before
    finally:
        cons.restart_uboot()


def stream_log(cons, commands):
    """Run @commands; return everything they printed, in order"""
    return '\n'.join(cons.run_command(cmd) for cmd in commands)


def script_lines(cons, tmp_path, path):
    """perf script's sample lines for a perf.data (file or pipe mode)"""
    out = perf(tmp_path, ['script', '-i', path, '--symfs=' + cons.config.build_dir])
    return [line for line in out.splitlines() if line.strip()]


def cut_after_second_chunk(log):
    """@log as if the board died after the end line of its stream's chunk 1"""
    rec_id = re.search(r'perfrec-begin 1 (\w+)', log).group(1)
    cut = log[:log.index('perfrec-end', log.index(f'perfrec-begin 1 {rec_id} 1 '))]
    return cut[:cut.rindex('\n')] + '\n' + re.search(r'perfrec-end \w+ 1', log).group(0) + '\n'


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_stream')
@pytest.mark.requiredtool('perf')
def test_perfrec_stream(ubman, tmp_path):
    """start -S streams at command boundaries; the chunks are a pipe-mode perf.data"""
    cons = ubman
    # A rate, not a period: without icount QEMU's time is the host's, and
    # printing the stream must not feed it (test/py reads consoles slowly)
    log = stream_log(cons, [f'perfrec start -F 5000 -o {BUF:#x} -s 0x100000 -S 100000000'] +
                     ['crc32 0x40000000 0x400000'] * 3 + ['perfrec stop'])
    samples = int(re.search(r'perfrec: (\d+) samples, 0 lost, streamed', log).group(1))
    begins = re.findall(r'perfrec-begin 1 \w+ (\d+) pipe', log)
    assert [int(seq) for seq in begins] == list(range(len(begins))) and len(begins) >= 4
    assert 'end of stream' in log
    out, ret = run_rc(cons, 'perfrec dump')
    assert ret == 1 and "'perfrec dump -i' sends what is left" in out
    path = os.path.join(str(tmp_path), 'stream.data')
    ret, err = extract(log, path)
    assert ret == 0, err
    assert len(script_lines(cons, tmp_path, path)) == samples
    with open(path, 'rb') as inf:
        pdata = PerfData(inf.read())
    assert pdata.pipe and len(pdata.samples) == samples and pdata.sample_time
    assert [name for _, name, _ in pdata.event_desc] == ['cycles']

    # A board that dies after the second chunk: what came is still a profile
    part = os.path.join(str(tmp_path), 'part.data')
    ret, err = extract(cut_after_second_chunk(log), part)
    assert ret == 0, err
    got = len(script_lines(cons, tmp_path, part))
    assert 0 < got < samples
    with open(part, 'rb') as inf:
        pdata = PerfData(inf.read())
    assert pdata.pipe and len(pdata.samples) == got and pdata.sample_time is None


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_stream')
def test_perfrec_stream_rate(ubman):
    """-S is a limit: a slow line sends the header, then waits, and samples are lost"""
    cons = ubman
    rate = 1000
    start = time.monotonic_ns()
    log = stream_log(cons, [f'perfrec start -c 20000 -o {BUF:#x} -s 0x4000 -S {rate}'] +
                     [SHORT_CRC] * 3)
    if icount(cons):
        assert len(re.findall('perfrec-begin', log)) == 1
    else:
        # Without icount how many periods pass unsampled depends on the host:
        # the workload runs on until the ring has overflowed. The board's
        # time is then the host's, and the line's budget grows with it: all
        # it sent before its last chunk came out of rate x time.
        for _ in range(30):
            out = cons.run_command('perfrec status')
            log += '\n' + out
            if int(re.search(r'lost: (\d+)', out).group(1)):
                break
            log += '\n' + cons.run_command(SHORT_CRC)
        secs = (time.monotonic_ns() - start) / 1e9
        chunks = [(int(seq), int(lines)) for seq, lines in BEGIN.findall(log)]
        assert [seq for seq, _ in chunks] == list(range(len(chunks))) and chunks, log
        assert sum(lines for _, lines in chunks[:-1]) * WIRE_PER_LINE < rate * secs, \
            (chunks, secs)
    log = cons.run_command('perfrec stop')
    assert re.search(r'perfrec: \d+ samples, [1-9]\d* lost, streamed', log), log


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_dump_stream_after_record(ubman, tmp_path):
    """dump -i of a finished recording: the same samples as a pipe-mode stream"""
    cons = ubman
    res = record(cons, f'-c 50000 -o {BUF:#x} -s {BUF_SIZE:#x}', SHORT_CRC)
    file_path, _ = fetch(cons, tmp_path)
    log = cons.run_command('perfrec dump -i -z')
    assert 'b64z' in log and 'end of stream' in log
    assert 'nothing new' in cons.run_command('perfrec dump -i')
    path = os.path.join(str(tmp_path), 'pipe.data')
    ret, err = extract(log, path)
    assert ret == 0, err
    assert script_lines(cons, tmp_path, path) == script_lines(cons, tmp_path, file_path)
    assert len(script_lines(cons, tmp_path, path)) == res['samples']
    # The file-mode perf.data in memory is still whole
    assert 'perfrec-begin' in cons.run_command('perfrec dump')
