# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of perfrec's events: 'perfrec list', 'perfrec stat', several events, periods

"""Events on QEMU virt. QEMU 7.2 counts SW_INCR, CPU_CYCLES, INST_RETIRED
(with icount only) and claims STALL_* on some CPUs, so these tests use what
it counts and check the rest of the table on the host (test/host).

QEMU 7.2 signals an event counter's overflow late under -icount shift=0
(only at the next PMU access or exception): perfrec then counts the periods
that passed without a sample as 'late', and the exact relation
samples + late == floor(count / period) still holds. With shift=1 event
counters interrupt on time, and the cell with -cpu max has 64-bit ones.
"""

import re
import time

import pytest

from perfrec_data import PerfData
from perfrec_helpers import (BUF, BUF_SIZE, events, fetch, icount, icount_shift, perf,
                             record, registers, run_rc, stat)

# 64 MiB of CRC-32 for rate measurements
LONG_CRC = 'crc32 0x40000000 0x4000000'
SHORT_CRC = 'crc32 0x40000000 0x100000'
LIST_ROW = re.compile(r'^  (\S+)\s+\[(generic|common)\]\s+(0x[0-9a-f]+)  (.*)$', re.M)


def pmu(cons, args=''):
    """Parse 'perfrec list': (header facts, {name: (kind, number, implemented)})"""
    out = cons.run_command(f'perfrec list {args}')
    head = re.search(r'PMU: (\S+) \(PMUVer (\d+)\), (\d+) event counters of (\d+) bits', out)
    regs = re.search(r'Counts at EL(\d); PMCEID0_EL0 (0x[0-9a-f]+), PMCEID1_EL0 (0x[0-9a-f]+)',
                     out)
    assert head and regs, out
    facts = {'name': head.group(1), 'version': int(head.group(2)),
             'counters': int(head.group(3)), 'bits': int(head.group(4)),
             'el': int(regs.group(1)), 'pmceid0': int(regs.group(2), 16),
             'pmceid1': int(regs.group(3), 16)}
    rows = {m.group(1): (m.group(2), int(m.group(3), 16),
                         not m.group(4).strip().endswith('(not implemented)'))
            for m in LIST_ROW.finditer(out)}
    return facts, rows


def decode_pmceid(pmceid0, pmceid1, version):
    """The event numbers PMCEID0/1_EL0 say are implemented (Arm ARM D23.x)"""
    nums = [bit for bit in range(32) if pmceid0 >> bit & 1]
    nums += [0x20 + bit for bit in range(32) if pmceid1 >> bit & 1]
    if version >= 4:
        nums += [0x4000 + bit for bit in range(32) if pmceid0 >> (32 + bit) & 1]
        nums += [0x4020 + bit for bit in range(32) if pmceid1 >> (32 + bit) & 1]
    return nums


def events_on_time(cons):
    """Does QEMU signal event-counter overflows on time in this cell?"""
    return icount_shift(cons) != 0


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_list(ubman):
    """'perfrec list' shows the PMU and exactly the common events PMCEID claims"""
    cons = ubman
    facts, rows = pmu(cons)
    assert facts['el'] == int(cons.config.env['env__perfrec_cell'][2])
    assert facts['counters'] >= 1
    assert facts['bits'] == (64 if facts['version'] >= 6 else 32)
    claimed = set(decode_pmceid(facts['pmceid0'], facts['pmceid1'], facts['version']))
    common = {num for kind, num, _ in rows.values() if kind == 'common'}
    assert common == claimed & common and all(imp for _, _, imp in rows.values())
    assert 'cycles' in rows and 'cpu_cycles' in rows
    assert ('instructions' in rows) == (0x08 in claimed)
    assert ('inst_retired' in rows) == icount(cons)

    _, every = pmu(cons, '-a')
    assert set(rows) < set(every)
    assert every['l1d_cache_refill'] == ('common', 0x03, 0x03 in claimed)
    for name in rows:
        out, ret = run_rc(cons, f'perfrec stat -e {name} -- true')
        assert ret == 0, out


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_list_unimplemented_refused(ubman):
    """Every known event the CPU does not implement is refused before anything is armed"""
    cons = ubman
    _, every = pmu(cons, '-a')
    missing = [name for name, (_, _, imp) in every.items() if not imp]
    assert missing
    before = registers(cons)
    for name in missing[:8]:
        out, ret = run_rc(cons, f'perfrec record -e {name} -- true')
        assert ret == 1 and f"Event '{name}' is not implemented by this CPU" in out, out
    assert registers(cons) == before


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_stat_exact(ubman):
    """perfrec stat: CPU_CYCLES = 2^shift x INST_RETIRED exactly; r11 counts cycles"""
    cons = ubman
    shift = icount_shift(cons)
    if shift is not None:
        counts, secs, ret = stat(cons, '-e cycles,instructions,r11,inst_retired,r8')
        assert ret == 0
        assert counts['cycles'] == (1 << shift) * counts['instructions'], counts
        assert counts['r11'] == counts['cycles'], counts
        assert counts['r8'] == counts['instructions'] == counts['inst_retired'], counts
        # One cycle is one ns of QEMU's virtual time
        assert abs(secs - counts['cycles'] / 1e9) < 1e-5, (secs, counts)
    else:
        out, ret = run_rc(cons, 'perfrec stat -e instructions -- true')
        assert ret == 1 and "Event 'instructions' is not implemented" in out, out
        counts, secs, ret = stat(cons, '-e cycles,r11,cpu_cycles')
        assert ret == 0
        low, high = min(counts.values()), max(counts.values())
        assert high - low < high / 1000, counts
    assert counts['cycles'] > 10 * (1 << 20)     # 16 MiB CRC-32 takes a while


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_stat_wrap(ubman):
    """Counters that wrap during 'stat' are extended to 64 bits: counts stay exact

    With -w 10000 every counter wraps each 10000 events, about 10^4 times
    here. A lost or doubled wrap puts a count 10000 (or 2^32) off. What else
    differs between two runs is the path around the workload, perfrec's and
    U-Boot's, which changes with -w and with what ran before by a few hundred
    instructions either way (measured: -192 to +388 on 2026.07, +110 on
    2023.01), so under icount each count must be within half a wrap of the
    plain run's. A first run warms up what U-Boot does once.
    """
    cons = ubman
    wrap = 10000
    names = '-e cycles,r11' + (',instructions' if icount(cons) else '')
    stat(cons, names)
    runs = []
    for args in (names, f'{names} -w {wrap}'):
        start = time.monotonic_ns()
        counts, _, _ = stat(cons, args)
        runs.append((counts, time.monotonic_ns() - start))
    plain, wrapped = runs[0][0], runs[1][0]
    if icount(cons):
        for name, count in plain.items():
            assert abs(wrapped[name] - count) < wrap // 2, (name, plain, wrapped)
    else:
        # Real time: two runs differ by what the host gives QEMU, so each run
        # is judged alone. Its counters count the same nanoseconds, none more
        # than the host took for it; a lost or doubled wrap would be 2^32 off.
        for counts, nanos in runs:
            assert all(0 < count <= nanos for count in counts.values()), (counts, nanos)
            assert abs(counts['r11'] - counts['cycles']) < 1 << 31, counts
    if icount(cons):
        shift = icount_shift(cons)
        assert wrapped['cycles'] == (1 << shift) * wrapped['instructions'], wrapped


# Many locals: one scenario reads more clearly in one function than split up
@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_multi_event(ubman, tmp_path):  # pylint: disable=too-many-locals
    """Several events in one file: own ids and attrs, separated by name in perf"""
    cons = ubman
    names = ['cycles', 'instructions' if icount(cons) else 'r11']
    period = 50000
    res = record(cons, f"-e {','.join(names)} -c {period} -o {BUF:#x} -s {BUF_SIZE:#x}")
    evs = events(cons)
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    assert [name for _, name, _ in pdata.event_desc] == names
    assert len({a.ids[0] for a in pdata.attrs}) == 2
    for _, name, ids in pdata.event_desc:
        count, _, late, counter = evs[name]
        samples = [s for s in pdata.samples if s.id == ids[0]]
        assert samples and all(s.period == period for s in samples)
        assert len(samples) + late == count // period, (name, count, late, len(samples))
        assert (counter == 31) == (name == 'cycles')
        if events_on_time(cons) and icount(cons):
            assert late == 0, evs
    assert len(pdata.samples) == res['samples']

    evlist = perf(tmp_path, ['evlist', '-i', path])
    assert evlist.split() == names
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio'])
    for name in names:
        assert f"of event '{name}'" in report, report


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_r11_samples_cycles(ubman, tmp_path):
    """r11 (CPU_CYCLES on an event counter) samples like cycles, named r11 in perf"""
    cons = ubman
    period = 40000
    record(cons, f'-e r11 -c {period} -o {BUF:#x} -s {BUF_SIZE:#x}')
    count, _, late, counter = events(cons)['r11']
    assert counter != 31
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    assert pdata.attrs[0].type == 4 and pdata.attrs[0].config == 0x11    # PERF_TYPE_RAW
    assert len(pdata.samples) + late == count // period
    if events_on_time(cons) and icount(cons):
        assert late == 0
    assert perf(tmp_path, ['evlist', '-i', path]).split() == ['r11']


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_event_terms(ubman, tmp_path):
    """perf's /period=/ and /freq=/ terms set each event's own period or rate"""
    cons = ubman
    record(cons, f'-e cycles/period=30000/,r11/period=70000/ -F 1000 -o {BUF:#x} -s '
                 f'{BUF_SIZE:#x}', SHORT_CRC)
    evs = events(cons)
    assert evs['cycles'][1] == 30000 and evs['r11'][1] == 70000
    _, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    periods = {name: attr.sample_period for attr, name, _ in pdata.event_desc}
    assert periods == {'cycles': 30000, 'r11': 70000}
    for attr, name, ids in pdata.event_desc:
        assert not attr.flags & (1 << 10)                     # attr.freq
        assert all(s.period == periods[name] for s in pdata.samples if s.id == ids[0])

    record(cons, f'-e cycles/freq=2000/,r11 -c 100000 -o {BUF:#x} -s {BUF_SIZE:#x}',
           SHORT_CRC)
    _, data = fetch(cons, tmp_path, 'freq.data')
    attrs = {name: attr for attr, name, _ in PerfData(data).event_desc}
    assert attrs['cycles'].flags & (1 << 10) and attrs['cycles'].sample_period == 2000
    assert not attrs['r11'].flags & (1 << 10) and attrs['r11'].sample_period == 100000


def adjusted(period, dt_ns, target_ns, max_period):
    """The period -F takes after @period events took @dt_ns: an eighth of the
    way to the one that would have taken @target_ns, the step rounded away
    from zero (perfrec_irq_adjust())"""
    if not dt_ns:
        return period
    if period >> 32:
        ideal = period // dt_ns * target_ns
    else:
        ideal = period * target_ns // dt_ns
    delta = ideal - period
    step = (delta + 7) // 8 if delta >= 0 else -((7 - delta) // 8)
    return min(max(period + step, 1), max_period)


# Many locals: one scenario reads more clearly in one function than split up
@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_frequency_per_event(ubman, tmp_path):  # pylint: disable=too-many-locals
    """-F adapts each event to its own rate: each period follows from the interval
    before; under icount the rate is within 10% of the target over a long run"""
    cons = ubman
    if events_on_time(cons):
        targets = {'cycles': 1000, 'r11': 5000}
        spec = 'cycles/freq=1000/,r11/freq=5000/'
    else:
        # QEMU signals the event counter late under shift=0: only PMCCNTR keeps time
        targets = {'cycles': 1000}
        spec = 'cycles/freq=1000/'
    res = record(cons, f'-e {spec} -o {BUF:#x} -s {BUF_SIZE:#x}', LONG_CRC)
    assert res['lost'] == 0
    bits = pmu(cons)[0]['bits']
    _, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    for _, name, ids in pdata.event_desc:
        samples = [s for s in pdata.samples if s.id == ids[0]]
        # Every period is the one the interval before asked for, as the
        # samples' own times give it (each sample's time is the handler's,
        # the period the one that ended there), whatever the host
        max_period = (1 << (64 if name == 'cycles' else bits)) - 1
        for prev, cur, nxt in zip(samples, samples[1:], samples[2:]):
            want = adjusted(cur.period, cur.time - prev.time, 10**9 // targets[name],
                            max_period)
            assert nxt.period == want, (name, prev, cur, nxt, want)
        times = [s.time for s in samples]
        rate = (len(times) - 1) * 1e9 / (times[-1] - times[0])
        if icount(cons):
            assert abs(rate - targets[name]) < targets[name] / 10, (name, rate)
        else:
            # QEMU's clock is then the host's: late interrupts stretch the
            # intervals, which shorter periods make up for only as far as the
            # host lets them, so the rate may fall short of the target. A
            # period shrinks only after an interval longer than the target
            # (as checked above): the rate never runs far ahead of it.
            assert rate < targets[name] * 2, (name, rate)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_jitter(ubman, tmp_path):
    """-j varies each period by at most the given percentage; no event goes uncounted"""
    cons = ubman
    period = 100000
    record(cons, f'-c {period} -j 10 -o {BUF:#x} -s {BUF_SIZE:#x}')
    count, _, late, _ = events(cons)['cycles']
    _, data = fetch(cons, tmp_path)
    periods = [s.period for s in PerfData(data).samples]
    assert all(period * 0.9 <= p <= period * 1.1 for p in periods), periods
    assert len(set(periods)) > len(periods) // 2
    assert late == 0 or not icount(cons)
    assert sum(periods) <= count < sum(periods) + (late + 1) * period * 1.1


def check_whole_period(cons, res, name, period):
    """@name sampled at @period (beyond 32 bits) kept all of it, not @period mod 2^32

    Under icount the workload is far shorter than the period: no sample.
    Without icount the count is the host's time, which a slow host can take
    past the period, but every sample still took a whole period: a period
    cut to 32 bits would add a period to the count every 50 ms.
    """
    count, last_period, late, _ = events(cons)[name]
    assert last_period == period
    assert res['samples'] + late == count // period, (name, count, late, res['samples'])
    if icount(cons):
        assert res['samples'] == 0, res
    else:
        assert count <= res['ns'], (name, count, res['ns'])
    return count


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_counter_width(ubman):
    """Periods beyond 32 bits work on 64-bit counters and are refused on 32-bit ones"""
    cons = ubman
    facts, _ = pmu(cons)
    period = (1 << 32) + 50000000
    # The cycle counter is always 64 bits: no sample, although -period mod 2^32 is small
    res = record(cons, f'-c {period} -o {BUF:#x} -s {BUF_SIZE:#x}')
    check_whole_period(cons, res, 'cycles', period)
    args = f'-e r11 -c {period} -o {BUF:#x} -s {BUF_SIZE:#x}'
    if facts['bits'] == 32:
        out, ret = run_rc(cons, f'perfrec record {args} -- true')
        assert ret == 1, out
        assert f"Period {period} of event 'r11' is too long for its 32-bit counter" in out
    else:
        res = record(cons, args)
        assert check_whole_period(cons, res, 'r11', period) > 10 * (1 << 20)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_too_many_events(ubman):
    """More events than counters is refused, not multiplexed"""
    cons = ubman
    facts, _ = pmu(cons)
    before = registers(cons)
    if facts['counters'] + 2 <= 8:
        spec = ','.join(['cycles'] + ['r11'] * (facts['counters'] + 1))
        out, ret = run_rc(cons, f'perfrec stat -e {spec} -- true')
        assert ret == 1, out
        assert (f"Too many events: {facts['counters'] + 2} given, this PMU has {facts['counters']} "
                "event counters and the cycle counter") in out, out
    out, ret = run_rc(cons, f"perfrec record -e {','.join(['r11'] * 9)} -- true")
    assert ret == 1 and 'at most 8' in out, out
    assert registers(cons) == before


EVENT_ERRORS = [
    ('record -e foo -- true', "Unknown event 'foo' (see 'perfrec list')"),
    ('record -e rxyz -- true', "Unknown event 'rxyz'"),
    ('record -e r12345 -- true', "Unknown event 'r12345'"),
    ('record -e cycles, -- true', "Invalid event list 'cycles,'"),
    ('record -e ,cycles -- true', "Invalid event list ',cycles'"),
    ('record -e cycles/period=0/ -- true', "Invalid event term 'period=0'"),
    ('record -e cycles/foo=1/ -- true', "Invalid event term 'foo=1'"),
    ('record -e cycles/period=100 -- true', "Invalid event terms in 'cycles/period=100'"),
    ('stat -e cycles/period=100/ -- true', 'stat takes no period or freq'),
    ('stat -c 100 -- true', "Unknown option '-c'"),
    ('record -w 100 -- true', "Unknown option '-w'"),
    ('record -j 51 -- true', "Invalid jitter '51'"),
    ('stat -w 0 -- true', "Invalid wrap distance '0'"),
    ('stat -e cycles', "Missing '--' before the command"),
    ('list -x', None),
]


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.parametrize('args,message', EVENT_ERRORS)
def test_perfrec_event_errors(ubman, args, message):
    """Bad events, terms and options: one clear line and rc 1, nothing armed"""
    cons = ubman
    before = registers(cons)
    out, ret = run_rc(cons, 'perfrec ' + args)
    assert ret == 1, out
    if message:
        assert message in out, out
    assert 'state: recording' not in cons.run_command('perfrec status')
    assert registers(cons) == before


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_event_width(ubman):
    """A raw event wider than PMEVTYPER<n>_EL0.evtCount is refused, naming the width

    The field is 10 bits before PMUv3p1 (cortex-a57: PMUVer 1) and 16 bits
    from it (-cpu max): the hardware would drop the high bits and count
    another event.
    """
    cons = ubman
    facts, _ = pmu(cons)
    bits = 16 if facts['version'] >= 4 else 10
    before = registers(cons)
    widest = (1 << bits) - 1
    for cmd in ('stat', 'record'):
        out, ret = run_rc(cons, f'perfrec {cmd} -e r{widest:x} -- true')
        assert ret == 0, out
    if bits == 16:
        out, ret = run_rc(cons, 'perfrec stat -e r9999 -- true')
        assert ret == 0, out
        return
    for raw in (1 << bits, 0x9999, 0xffff):
        for cmd in ('stat', 'record', 'start'):
            out, ret = run_rc(cons, f"perfrec {cmd} -e "
                                    f"cycles,r{raw:x}{'' if cmd == 'start' else ' -- true'}")
            lines = [line for line in out.splitlines()
                     if line.strip() and not line.startswith('rc:')]
            assert ret == 1 and lines == [
                f"Event number {raw:#x} ('r{raw:x}') does not fit this PMU's 10-bit event "
                "field"], out
            assert 'state: recording' not in cons.run_command('perfrec status')
            assert registers(cons) == before
    assert 'ok' in cons.run_command('echo ok')
