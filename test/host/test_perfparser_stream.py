# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of perfparser_stream against host perf and hand-made streams

"""Tests of perfparser_stream.py

A small native program with inlined functions is recorded with the host
perf; hotspot-perfparser's view of it, decoded by the module, must match
'perf report' and 'perf script'. Hand-made streams check the framing, the
version check and the errors. A missing tool fails the tests.
"""

import collections
import os
import re
import shutil
import struct
import subprocess
import time

import pytest

import perfparser_stream as pps

PROGRAM = r'''
#include <stdlib.h>
volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) unsigned long leaf_fn(unsigned long x)
{
	return mix(x) ^ mix(x + 1);
}

__attribute__((noinline)) unsigned long mid_fn(unsigned long x)
{
	unsigned long s = 0;

	for (int i = 0; i < 1000; i++)
		s += leaf_fn(x + i);
	return s;
}

int main(int argc, char **argv)
{
	long n = atol(argv[1]);

	for (long i = 0; i < n; i++)
		sink += mid_fn(i);
	return 0;
}
'''


# The program's own functions. A sample may also land in the C runtime's
# code linked into it (__do_global_dtors_aux as it exits, at any host speed),
# which perfparser does not always name as perf does: the tests compare the
# program's functions, the parser's subject here.
OWN = {'leaf_fn', 'mid_fn', 'main'}


def run(args, **kwargs):
    """Run @args; fail the test on a non-zero exit; return stdout"""
    proc = subprocess.run(args, capture_output=True, text=True, check=False,
                          env=dict(os.environ, LC_ALL='C', PAGER='cat'),
                          stdin=subprocess.DEVNULL, **kwargs)
    assert proc.returncode == 0, '%s: %s' % (' '.join(args), proc.stderr)
    return proc.stdout


@pytest.fixture(scope='session', autouse=True)
def home(tmp_path_factory):
    """A HOME of their own for perf and perfparser

    perf keeps copies of the ELFs it saw in ~/.debug and perfparser looks
    there by default (--debug), which would hide a missing ELF.
    """
    mpatch = pytest.MonkeyPatch()
    mpatch.setenv('HOME', str(tmp_path_factory.mktemp('home')))
    yield
    mpatch.undo()


@pytest.fixture(scope='module')
def rec(tmp_path_factory):
    """Record the program; return (perf.data, app dir, its stream bytes)"""
    tmp = tmp_path_factory.mktemp('rec')
    src, app = tmp / 'inl.c', tmp / 'app'
    src.write_text(PROGRAM)
    app.mkdir()
    run(['gcc', '-O2', '-g', '-fno-omit-frame-pointer', '-o',
         str(app / 'inl'), str(src)])
    data = str(tmp / 'perf.data')
    run(['perf', 'record', '-N', '-e', 'cpu-clock', '-g', '-o', data, '--',
         str(app / 'inl'), '2000'])
    qps = str(tmp / 'out.qps')
    pps.run_perfparser(data, str(app), output=qps)
    with open(qps, 'rb') as inf:
        return data, str(app), inf.read()


def perf_script(data):
    """Samples of 'perf script': (tid, time) -> [(ip, sym, dso)]"""
    out = run(['perf', 'script', '-i', data, '--ns', '-F',
               'tid,time,ip,sym,dso'])
    samples = {}
    for block in out.strip().split('\n\n'):
        head, *lines = block.splitlines()
        tid, stamp = head.split()
        samples[int(tid), int(stamp.rstrip(':').replace('.', ''))] = [
            (int(m[1], 16), m[2], m[3]) for m in
            (re.match(r'\s*([0-9a-f]+) (.*) \((.*)\)$', ln) for ln in lines)]
    return samples


def own_frames(smp):
    """The non-inlined frames of @smp in the program itself"""
    return [f for f in smp.frames if f.binary == 'inl' and not f.inlined]


def test_samples_match_perf(rec):
    """Every sample perf has is there, at the same time and thread"""
    data, app, raw = rec
    st = pps.parse_bytes(raw)
    assert st.version == 19 and st.errors == [] and st.unknown == []
    script = perf_script(data)
    assert len(st.samples) == len(script) > 100
    assert {(s.tid, s.time) for s in st.samples} == set(script)
    assert st.features['arch'] == 'x86_64'
    assert [st.string(a.name) for a in st.attributes.values()] == [
        'cpu-clock']
    comms = [e.payload for e in st.events if e.kind == 'Command']
    assert comms[-1] == 'inl'


def test_self_counts_match_perf_report(rec):
    """Self samples per function of the program agree with perf report"""
    data, app, raw = rec
    out = run(['perf', 'report', '-i', data, '--stdio', '--no-children',
               '-n', '--sort', 'dso,sym', '-g', 'none'])
    want = collections.Counter()
    for mat in re.finditer(r'^\s+[\d.]+%\s+(\d+)\s+inl\s+\[\.\] (\S+)', out,
                           re.M):
        if mat[2] in OWN:
            want[mat[2]] += int(mat[1])
    got = collections.Counter(own_frames(s)[0].symbol for s in
                              pps.parse_bytes(raw).samples
                              if s.frames[0].binary == 'inl')
    assert want['leaf_fn'] > 50
    assert {name: count for name, count in got.items() if name in OWN} == want


def test_call_chains_match_perf_script(rec):
    """Callers within the program and leaf addresses agree with perf script"""
    data, app, raw = rec
    script = perf_script(data)
    compared = 0
    for smp in pps.parse_bytes(raw).samples:
        frames = script[smp.tid, smp.time]
        if frames[0][2].endswith('/inl') and frames[0][1] in OWN:
            assert smp.frames[0].address & 0xfff == frames[0][0] & 0xfff
            assert [f.symbol for f in own_frames(smp)] == [
                f[1] for f in frames if f[2].endswith('/inl')]
            compared += 1
    assert compared > 50


def test_inlined_frames(rec):
    """Samples in the inlined loop show mix inlined into leaf_fn"""
    smps = [s for s in pps.parse_bytes(rec[2]).samples
            if s.frames[0].inlined and s.frames[0].binary == 'inl']
    assert len(smps) > 50
    for smp in smps:
        assert 'mix' in smp.frames[0].symbol
        assert smp.frames[0].file.endswith('inl.c')
        assert smp.frames[1].symbol == 'leaf_fn' and not smp.frames[1].inlined


def hotspot_view(data, out, count):
    """Run the hotspot GUI offscreen on @data until it has printed the
    @count samples of its parser's script output to @out; return them"""
    env = dict(os.environ, HOTSPOT_GENERATE_SCRIPT_OUTPUT='1',
               QT_QPA_PLATFORM='offscreen')
    with open(out, 'w') as outf:
        proc = subprocess.Popen(['hotspot', data], stdout=outf, env=env,
                                stdin=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    try:
        for _ in range(240):
            time.sleep(0.25)
            with open(out) as inf:
                text = inf.read()
            if text.count(':\t') >= count and text.endswith('\n\n'):
                break
    finally:
        proc.terminate()
        proc.wait(10)
    samples = []
    for block in text.strip().split('\n\n'):
        head, *lines = block.split('\n')
        mat = re.match(r'.*\t(-?\d+)\t(\d+)\.(\d{9}):\t(\d+) ', head)
        samples.append((int(mat[1]), int(mat[2] + mat[3]), int(mat[4]), [
            (int(m[1], 16), m[2], m[3]) for m in
            (re.match(r'\t([0-9a-f]+) (.*) \((.*)\)$', ln) for ln in lines)]))
    return samples


def test_same_as_hotspot(rec, tmp_path):
    """Every frame of every sample is what hotspot's own parser makes of it"""
    data, app, raw = rec
    smps = pps.parse_bytes(raw).samples
    want = hotspot_view(data, str(tmp_path / 'hotspot.txt'), len(smps))
    assert want == [(s.pid, s.time, s.values[0][1], [
        (f.address, f.symbol or '[unknown]', f.binary or '')
        for f in s.frames]) for s in smps]


def test_missing_elf(rec, tmp_path):
    """Without the ELF perfparser says MissingElfFile; --app finds it"""
    data, app, raw = rec
    moved = tmp_path / 'elsewhere'
    shutil.move(app, moved)
    try:
        st = pps.run_perfparser(data)
        assert ('MissingElfFile', 'Could not find ELF file for %s/inl. This'
                ' can break stack unwinding and lead to missing symbols.'
                % app) in st.errors
        assert not any(f.symbol == 'leaf_fn' for s in st.samples
                       for f in s.frames)
        st = pps.run_perfparser(data, str(moved))
        assert st.errors == []
        assert pps.parse_bytes(raw).samples == st.samples
    finally:
        shutil.move(moved, app)


def test_find_perfparser(monkeypatch):
    """dpkg -L hotspot finds it; $PERFPARSER and the argument override it"""
    monkeypatch.delenv('PERFPARSER', raising=False)
    path = pps.find_perfparser()
    assert path.endswith('/hotspot-perfparser') and os.access(path, os.X_OK)
    assert '4.12' in run([path, '--version'])
    monkeypatch.setenv('PERFPARSER', '/nowhere/perfparser')
    assert pps.find_perfparser() == '/nowhere/perfparser'
    assert pps.find_perfparser('/x/pp') == '/x/pp'
    with pytest.raises(FileNotFoundError):
        pps.run_perfparser('perf.data')


def msg(mtype, fmt='', *vals, tail=b''):
    """One framed message: size, type byte, big-endian @vals, @tail"""
    body = bytes([mtype]) + struct.pack('>' + fmt, *vals) + tail
    return struct.pack('<I', len(body)) + body


def qba(text):
    """QByteArray of @text"""
    data = text.encode()
    return struct.pack('>I', len(data)) + data


def stream(*msgs, version=19):
    """A whole stream of @msgs"""
    return pps.MAGIC + struct.pack('<i', version) + b''.join(msgs)


HAND = stream(
    msg(5, 'i', 0, tail=qba('leaf')), msg(5, 'i', 1, tail=qba('inl')),
    msg(5, 'i', 2, tail=qba('mix')), msg(5, 'i', 3, tail=qba('a.c')),
    msg(11, 'iIQi?Q', 0, 1, 0, 0, False, 10000),
    msg(2, 'iiQIi', 7, 7, 5, 0, 1),                      # Command
    msg(0, 'iiQIi', 7, 8, 6, 1, 7),                      # ThreadStart
    msg(12, 'iiQI?', 7, 8, 7, 1, True),                  # ContextSwitch
    msg(6, 'iiQI', 7, 8, 8, 1),                          # Lost
    # leaf at 0x1000, mix inlined at 0x1010 called from a.c:9, sample at 0x1014
    msg(3, 'iQiIiii', 0, 0x1000, 3, 7, 1, 0, -1),
    msg(4, 'iiii?', 0, 0, 1, -1, False),
    msg(3, 'iQiIiii', 1, 0x1010, 3, 7, 9, 2, 0),         # call site
    msg(3, 'iQiIiii', 2, 0x1010, 3, 7, 4, 1, 1),         # mix's entry
    msg(4, 'iiii?', 2, 2, 1, -1, False),
    msg(3, 'iQiIiii', 3, 0x1014, 3, 7, 5, 3, 2),         # sampled address
    msg(13, 'iiQIIiiBIiQ', 7, 8, 9, 1, 2, 3, 3, 1, 1, 0, 10000),
    msg(8, 'i', 2, tail=struct.pack('>I', 4) + 'ü?'.encode('utf-16-be')),
    msg(9, 'd', 0.5), msg(99, 'I', 1))


def test_hand_made_stream():
    """Each message's fields land where they should"""
    st = pps.parse_bytes(HAND)
    assert st.strings == ['leaf', 'inl', 'mix', 'a.c']
    assert [e[:2] + e[5:] for e in st.events] == [
        ('Command', 7, 'inl'), ('ThreadStart', 7, 7),
        ('ContextSwitchDefinition', 7, True), ('LostDefinition', 7, None)]
    assert st.attributes[0].period == 10000 and st.progress == 0.5
    assert st.errors == [('MissingElfFile', 'ü?')]
    assert st.unknown == [(99, 5)]
    smp, = st.samples
    assert (smp.pid, smp.tid, smp.time, smp.cpu) == (7, 8, 9, 1)
    assert smp.values == [(0, 10000)] and smp.guessed_frames == 1
    assert [(f.address, f.symbol, f.binary, f.line, f.inlined, f.guessed)
            for f in smp.frames] == [
        (0x1014, 'mix', 'inl', 5, True, False),
        (0x1010, 'leaf', 'inl', 9, False, False),
        (0x1014, 'mix', 'inl', 5, True, True),
        (0x1010, 'leaf', 'inl', 9, False, True)]


def test_real_stream_roundtrip(rec):
    """The header is what the sources say; every message is consumed"""
    raw = rec[2]
    assert raw[:16] == b'QPERFSTREAM\0\x13\0\0\0'
    assert pps.parse_bytes(raw).progress == pytest.approx(1, abs=0.01)


@pytest.mark.parametrize('cut', [3, 8, 20])
def test_truncated(rec, cut):
    """A stream cut short is refused"""
    raw = rec[2]
    with pytest.raises(pps.StreamError, match='truncated'):
        pps.parse_bytes(raw[:-cut])
    with pytest.raises(pps.StreamError, match='magic'):
        pps.parse_bytes(raw[:cut % 12])
    with pytest.raises(pps.StreamError, match='truncated header'):
        pps.parse_bytes(raw[:12 + cut % 4])


def test_corrupted():
    """Wrong magic, short or over-long messages are refused"""
    with pytest.raises(pps.StreamError, match='magic'):
        pps.parse_bytes(b'QPERFSTREAX' + HAND[11:])
    with pytest.raises(pps.StreamError, match='ends early'):
        pps.parse_bytes(stream(msg(3, 'iQ', 0, 1)))
    with pytest.raises(pps.StreamError, match='left over'):
        pps.parse_bytes(stream(msg(5, 'i', 0, tail=qba('x') + b'!')))
    with pytest.raises(pps.StreamError, match='location 5'):
        pps.parse_bytes(stream(msg(13, 'iiQIIiBI', 1, 1, 1, 0, 1, 5, 0, 0)))


@pytest.mark.parametrize('version', [12, 20, 21, -1])
def test_unknown_version(rec, version):
    """A QDataStream version other than Qt 5's is refused"""
    raw = rec[2]
    bad = raw[:12] + struct.pack('<i', version) + raw[16:]
    with pytest.raises(pps.StreamError,
                       match='unsupported QDataStream version %d' % version):
        pps.parse_bytes(bad)
