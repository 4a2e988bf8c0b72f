# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of the PMUv3 common-event table and of the PMCEID decoding

"""drivers/perf/pmuv3_events.c, built natively with ASan/UBSan, checked
against the Arm ARM's list of common events (DDI 0487, "Common event
numbers"), against PMCEID bitmaps whose meaning is known, and for the width
of each PMU's event number field.
"""

import os
import re

import pytest

from conftest import HOSTCC, REPO, run, tool

# The Arm ARM's common architectural and microarchitectural events: the
# whole 0x0000-0x003f range, and the defined events of 0x4000-0x403f
ARM_ARM_EVENTS = {
    0x0000: 'SW_INCR', 0x0001: 'L1I_CACHE_REFILL', 0x0002: 'L1I_TLB_REFILL',
    0x0003: 'L1D_CACHE_REFILL', 0x0004: 'L1D_CACHE', 0x0005: 'L1D_TLB_REFILL',
    0x0006: 'LD_RETIRED', 0x0007: 'ST_RETIRED', 0x0008: 'INST_RETIRED',
    0x0009: 'EXC_TAKEN', 0x000a: 'EXC_RETURN', 0x000b: 'CID_WRITE_RETIRED',
    0x000c: 'PC_WRITE_RETIRED', 0x000d: 'BR_IMMED_RETIRED', 0x000e: 'BR_RETURN_RETIRED',
    0x000f: 'UNALIGNED_LDST_RETIRED', 0x0010: 'BR_MIS_PRED', 0x0011: 'CPU_CYCLES',
    0x0012: 'BR_PRED', 0x0013: 'MEM_ACCESS', 0x0014: 'L1I_CACHE', 0x0015: 'L1D_CACHE_WB',
    0x0016: 'L2D_CACHE', 0x0017: 'L2D_CACHE_REFILL', 0x0018: 'L2D_CACHE_WB',
    0x0019: 'BUS_ACCESS', 0x001a: 'MEMORY_ERROR', 0x001b: 'INST_SPEC',
    0x001c: 'TTBR_WRITE_RETIRED', 0x001d: 'BUS_CYCLES', 0x001e: 'CHAIN',
    0x001f: 'L1D_CACHE_ALLOCATE', 0x0020: 'L2D_CACHE_ALLOCATE', 0x0021: 'BR_RETIRED',
    0x0022: 'BR_MIS_PRED_RETIRED', 0x0023: 'STALL_FRONTEND', 0x0024: 'STALL_BACKEND',
    0x0025: 'L1D_TLB', 0x0026: 'L1I_TLB', 0x0027: 'L2I_CACHE', 0x0028: 'L2I_CACHE_REFILL',
    0x0029: 'L3D_CACHE_ALLOCATE', 0x002a: 'L3D_CACHE_REFILL', 0x002b: 'L3D_CACHE',
    0x002c: 'L3D_CACHE_WB', 0x002d: 'L2D_TLB_REFILL', 0x002e: 'L2I_TLB_REFILL',
    0x002f: 'L2D_TLB', 0x0030: 'L2I_TLB', 0x0031: 'REMOTE_ACCESS', 0x0032: 'LL_CACHE',
    0x0033: 'LL_CACHE_MISS', 0x0034: 'DTLB_WALK', 0x0035: 'ITLB_WALK',
    0x0036: 'LL_CACHE_RD', 0x0037: 'LL_CACHE_MISS_RD', 0x0038: 'REMOTE_ACCESS_RD',
    0x0039: 'L1D_CACHE_LMISS_RD', 0x003a: 'OP_RETIRED', 0x003b: 'OP_SPEC',
    0x003c: 'STALL', 0x003d: 'STALL_SLOT_BACKEND', 0x003e: 'STALL_SLOT_FRONTEND',
    0x003f: 'STALL_SLOT',
    0x4000: 'SAMPLE_POP', 0x4001: 'SAMPLE_FEED', 0x4002: 'SAMPLE_FILTRATE',
    0x4003: 'SAMPLE_COLLISION', 0x4004: 'CNT_CYCLES', 0x4005: 'STALL_BACKEND_MEM',
    0x4006: 'L1I_CACHE_LMISS', 0x4009: 'L2D_CACHE_LMISS_RD', 0x400a: 'L2I_CACHE_LMISS',
    0x400b: 'L3D_CACHE_LMISS_RD', 0x400c: 'TRB_WRAP', 0x400e: 'TRB_TRIG',
    0x4010: 'TRCEXTOUT0', 0x4011: 'TRCEXTOUT1', 0x4012: 'TRCEXTOUT2',
    0x4013: 'TRCEXTOUT3', 0x4018: 'CTI_TRIGOUT4', 0x4019: 'CTI_TRIGOUT5',
    0x401a: 'CTI_TRIGOUT6', 0x401b: 'CTI_TRIGOUT7', 0x4020: 'LDST_ALIGN_LAT',
    0x4021: 'LD_ALIGN_LAT', 0x4022: 'ST_ALIGN_LAT', 0x4024: 'MEM_ACCESS_CHECKED',
    0x4025: 'MEM_ACCESS_CHECKED_RD', 0x4026: 'MEM_ACCESS_CHECKED_WR',
}


@pytest.fixture(scope='module')
def dump(tmp_path_factory):
    """The table's host driver, built with ASan and UBSan"""
    path = str(tmp_path_factory.mktemp('events') / 'pmuv3_events_dump')
    run([tool(HOSTCC), '-Wall', '-Wextra', '-Werror', '-fsanitize=address,undefined',
         '-fno-sanitize-recover=all', '-DUSE_HOSTCC',
         '-I', os.path.join(REPO, 'drivers', 'perf'), '-o', path,
         os.path.join(REPO, 'test', 'host', 'pmuv3_events_dump.c'),
         os.path.join(REPO, 'drivers', 'perf', 'pmuv3_events.c')])
    return path


def implemented(dump, pmceid0, pmceid1, version):
    """The event numbers the decoding reports for these bitmaps"""
    return implemented_each(dump, [(pmceid0, pmceid1, version)])[0]


def implemented_each(dump, cases):
    """implemented() of each (pmceid0, pmceid1, version) in @cases, in one run
    (the sanitized driver takes a tenth of a second to start)"""
    args = [str(arg) if i % 3 == 2 else hex(arg)
            for case in cases for i, arg in enumerate(case)]
    out = run([dump, 'implemented'] + args).stdout
    found = [[int(line, 16) for line in part.split()] for part in out.split('--\n')]
    assert found[-1] == [] and len(found) == len(cases) + 1, out
    return found[:-1]


def test_table_is_the_arm_arm_list(dump):
    """Every Arm ARM common event is in the table with its number and name, nothing else"""
    rows = [line.split() for line in run([dump, 'table']).stdout.splitlines()]
    table = {int(num, 16): name for num, name in rows}
    assert len(table) == len(rows), 'duplicate numbers'
    assert table == {num: name.lower() for num, name in ARM_ARM_EVENTS.items()}
    assert len({name for _, name in rows}) == len(rows), 'duplicate names'


def test_lookup_by_name(dump):
    """Names resolve to their numbers; unknown names do not resolve"""
    assert run([dump, 'name', 'l1d_cache_refill']).stdout.strip() == '0x0003'
    assert run([dump, 'name', 'stall_slot']).stdout.strip() == '0x003f'
    assert run([dump, 'name', 'L1D_CACHE_REFILL'], check=False).returncode == 1
    assert run([dump, 'name', 'cycles'], check=False).returncode == 1


def test_pmceid_qemu_cortex_a57(dump):
    """QEMU 7.2's cortex-a57 with icount: SW_INCR, INST_RETIRED, CPU_CYCLES"""
    assert implemented(dump, 0x20101, 0, 1) == [0x00, 0x08, 0x11]


def test_pmceid_low_words(dump):
    """PMCEID0 bits 0-31 are events 0x00-0x1f, PMCEID1 bits 0-31 events 0x20-0x3f"""
    cases = [(1 << bit, 0, 1) for bit in range(32)] + [(0, 1 << bit, 1) for bit in range(32)]
    assert implemented_each(dump, cases) == [[bit] for bit in range(0x40)]
    assert implemented(dump, 0xffffffff, 0xffffffff, 1) == list(range(0x40))


def test_pmceid_high_words(dump):
    """Bits 32-63 are events 0x4000-0x403f, but only from PMUv3p1 (PMUVer 4) on"""
    bits = range(32)
    cases = ([(1 << (32 + bit), 0, 4) for bit in bits] + [(0, 1 << (32 + bit), 6) for bit in bits] +
             [(1 << (32 + bit), 1 << (32 + bit), 1) for bit in bits])
    assert implemented_each(dump, cases) == ([[0x4000 + bit] for bit in bits] +
                                             [[0x4020 + bit] for bit in bits] + [[]] * 32)
    both = implemented(dump, (1 << 64) - 1, (1 << 64) - 1, 4)
    assert both == list(range(0x40)) + list(range(0x4000, 0x4040))


def fits_each(dump, cases):
    """(width of the PMU's event number field, whether the number fits it)
    for each (pmuver, number) in @cases, in one run"""
    out = run([dump, 'fits'] + [str(arg) for case in cases for arg in case]).stdout
    rows = [tuple(int(field) for field in line.split()) for line in out.splitlines()]
    assert len(rows) == len(cases), out
    return [(bits, bool(fits)) for bits, fits in rows]


@pytest.mark.parametrize('pmuver, bits', [(1, 10), (4, 16), (5, 16), (6, 16), (7, 16), (8, 16),
                                          (9, 16)],
                         ids=['v3', 'v3p1', 'v3p4', 'v3p5', 'v3p7', 'v3p8', 'v3p9'])
def test_event_field_pmuv3(dump, pmuver, bits):
    """PMEVTYPER<n>.evtCount is 10 bits wide in PMUv3 (PMUVer 1) and 16 bits
    from PMUv3p1 (PMUVer 4) on: the widest number fits, one more does not"""
    widest = (1 << bits) - 1
    assert fits_each(dump, [(pmuver, widest), (pmuver, widest + 1), (pmuver, 0)]) == \
        [(bits, True), (bits, False), (bits, True)]


def pmuver(name):
    """PMUV3_PMUVER_<name> as drivers/perf/pmuv3_regs.h defines it"""
    with open(os.path.join(REPO, 'drivers', 'perf', 'pmuv3_regs.h'), encoding='utf-8') as inf:
        found = re.findall(rf'^#define\s+PMUV3_PMUVER_{name}\s+(0x[0-9a-f]+|\d+)\b', inf.read(),
                           re.M)
    assert len(found) == 1, name
    return int(found[0], 0)


def test_event_field_armv7(dump):
    """The Armv7 PMU's PMXEVTYPER.evtCount is 8 bits wide (Linux's
    ARMV7_EVTYPE_EVENT, 0xff): rff fits, r1ff and r100 do not, where
    PMUv3 (PMUVer 1) takes all three"""
    armv7, v3 = pmuver('ARMV7'), pmuver('V3')
    assert v3 == 1 and armv7 not in (0, 1, 4, 0xf)
    assert fits_each(dump, [(armv7, 0xff), (armv7, 0x1ff), (armv7, 0x100), (armv7, 0x11),
                            (v3, 0xff), (v3, 0x1ff), (v3, 0x100)]) == \
        [(8, True), (8, False), (8, False), (8, True), (10, True), (10, True), (10, True)]


def implemented_aarch32(dump, cases):
    """implemented() of each (pmceid0, pmceid1, pmceid2, pmceid3, version) in
    @cases, AArch32's four registers joined as 32-bit Arm's reader joins them"""
    args = [str(arg) if i == 4 else hex(arg) for case in cases for i, arg in enumerate(case)]
    out = run([dump, 'aarch32'] + args).stdout
    found = [[int(line, 16) for line in part.split()] for part in out.split('--\n')]
    assert found[-1] == [] and len(found) == len(cases) + 1, out
    return found[:-1]


def test_pmceid_aarch32(dump):
    """32-bit Arm: PMCEID2 is PMCEID0_EL0[63:32] (events 0x4000-0x401f),
    PMCEID3 PMCEID1_EL0[63:32] (0x4020-0x403f), from PMUv3p1 on (ID_DFR0.PerfMon
    4, as PMUVer); before it (PMUv3, the Armv7 PMU) they do not exist and
    count for nothing. QEMU implements no event of 0x4000-0x403f, so no QEMU
    cell can show this."""
    bits = range(32)
    cases = ([(0, 0, 1 << bit, 0, 4) for bit in bits] + [(0, 0, 0, 1 << bit, 6) for bit in bits] +
             [(0, 0, 1 << bit, 1 << bit, ver) for bit in bits for ver in (1, 2)])
    assert implemented_aarch32(dump, cases) == ([[0x4000 + bit] for bit in bits] +
                                                [[0x4020 + bit] for bit in bits] + [[]] * 64)
    # The low words as AArch64's: QEMU's -cpu max in AArch32 (PMUv3p5), and
    # every event of both ranges
    assert implemented_aarch32(dump, [(0x20101, 0x10000018, 0, 0, 6)]) == \
        [[0x00, 0x08, 0x11, 0x23, 0x24, 0x3c]]
    ones = 0xffffffff
    cases = [(ones, ones, ones, ones, 4), (ones, ones, ones, ones, 1)]
    assert implemented_aarch32(dump, cases) == \
        [list(range(0x40)) + list(range(0x4000, 0x4040)), list(range(0x40))]
