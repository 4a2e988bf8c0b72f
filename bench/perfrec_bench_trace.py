# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec_bench.py's trace analysis: the ELF and QEMU's execution trace.

Image finds perfrec's vector tables and the code of its IRQ path in the
ELF (nm, objdump) and attributes each instruction to a category by its
innermost inlined function (addr2line); parse_trace reads the executed
PCs of a QEMU -d exec log. CATEGORIES and FUNC_CATEGORY (the categories
and which function goes to which) and IRQ_ENTRIES (where a vector table's
IRQ entries are) go with them.
"""

import bisect
import os
import re
import shutil
import subprocess
import threading

from perfrec_bench_runner import BenchError

CATEGORIES = ['entry/exit', 'GIC', 'PMU', 'record', 'dispatch/other']

# Innermost inlined function -> category; names not listed (readl,
# __read_once_size, ...) defer to the function they are inlined into.
FUNC_CATEGORY = {
    'perfrec_gic_ack': 'GIC',
    'perfrec_gic_intid': 'GIC',
    'perfrec_gic_eoi': 'GIC',
    'read_icc_iar1': 'GIC',
    'write_icc_eoir1': 'GIC',
    'read_pmovsclr': 'PMU',
    'write_pmovsclr': 'PMU',
    'read_pmccntr': 'PMU',
    'write_pmccntr': 'PMU',
    'read_pmevcntrn': 'PMU',
    'write_pmevcntrn': 'PMU',
    'perfrec_irq_read_counter': 'PMU',
    'perfrec_irq_write_counter': 'PMU',
    'perfrec_irq_reload': 'PMU',
    'perfrec_irq_adjust': 'PMU',
    'read_cntpct': 'record',
    'perfrec_irq_now_ns': 'record',
    'perfrec_irq_sample': 'record',
    'perfrec_irq_put': 'record',
    'perfrec_irq_flat': 'record',
    'perfrec_ring_reserve': 'record',
    'perfrec_ring_publish': 'record',
    'perfrec_irq_late': 'PMU',
    'perfrec_irq_cpuif': 'GIC',
    'perfrec_irq_not_ours': 'GIC',
    'perfrec_irq_handler': 'dispatch/other',
}

# perfrec's vector tables, by the EL each serves (32-bit Arm: SVC mode is
# EL1, Hyp mode EL2)
VECTOR_TABLES = {'perfrec_vectors_el1': 1, 'perfrec_vectors_el2': 2, 'perfrec_vectors_el3': 3,
                 'perfrec_vectors_svc': 1, 'perfrec_vectors_hyp': 2}

# Offsets of the IRQ/FIQ entries in a vector table (current EL, SP0/SPx)
IRQ_ENTRIES = (0x080, 0x100, 0x280, 0x300)
# 32-bit Arm: the IRQ entry of an AArch32 table, and the build's binutils
ARM32_IRQ_ENTRIES = (0x18,)
ARM32_CROSS = 'arm-linux-gnueabihf-'

RE_TRACE = re.compile(r'^Trace \d+: \S+ \[[0-9a-fA-F]+/([0-9a-fA-F]+)/')
# QEMU's notes that the TB logged just before retired no instruction
RE_UNDONE = (re.compile(r'cpu_io_recompile: rewound execution of TB to '
                        r'([0-9a-fA-F]+)'),
             re.compile(r'Stopped execution of TB chain before \S+ '
                        r'\[([0-9a-fA-F]+)\]'))


# --- The ELF: where perfrec's IRQ code is and what each instruction is --------

class Image:
    """Addresses and source attribution of perfrec's IRQ path in the ELF"""

    def __init__(self, args, arm32=False):
        """@arm32: the 32-bit Arm build's (--arm32-build-dir): its tables are
        SVC mode's and Hyp mode's, the IRQ entry at 0x18 of each"""
        self.arm32 = arm32
        self.elf = os.path.join(args.arm32_build_dir if arm32 else args.build_dir, 'u-boot')
        self.cross = ARM32_CROSS if arm32 else args.cross_compile
        self.irq_entries = ARM32_IRQ_ENTRIES if arm32 else IRQ_ENTRIES
        for tool in ('nm', 'objdump', 'addr2line'):
            if not shutil.which(self.cross + tool):
                raise BenchError('%s%s not found (install binutils-aarch64-linux-gnu '
                                 'or set --cross-compile)' % (self.cross, tool))
        if not os.path.isfile(self.elf):
            raise BenchError('%s: no such file' % self.elf)
        self.vectors = {}  # el -> (start, size)
        self.vector_names = {}  # el -> the table's symbol
        self.funcs = []  # (start, size, name) of the IRQ path's C code
        self._find_symbols()
        self.ranges = sorted([v for v in self.vectors.values()] +
                             [(s, n) for s, n, _ in self.funcs])
        self.counter_read, self.counter_write = self._counter_accesses()
        self.category = {}
        self.inner = {}
        self.lock = threading.Lock()  # cells are traced in parallel

    def _tool(self, name, *argv):
        res = subprocess.run([self.cross + name] + list(argv), check=True,
                             stdout=subprocess.PIPE, universal_newlines=True)
        return res.stdout

    def _find_symbols(self):
        allsyms = []
        for line in self._tool('nm', '-n', '-S', '-l', '--defined-only',
                               self.elf).splitlines():
            left, _, where = line.partition('\t')
            parts = left.split()
            if len(parts) == 4:
                addr, size, kind, name = parts
                size = int(size, 16)
            elif len(parts) == 3:
                addr, kind, name = parts
                size = None
            else:
                continue
            allsyms.append((int(addr, 16), size, kind, name, where))
        starts = sorted({a for a, _, k, _, _ in allsyms if k in 'tTwW'})
        for addr, size, kind, name, where in allsyms:
            if name in VECTOR_TABLES:
                # A table is 2 KiB at most; its last entry is one branch, so
                # the next symbol may start inside that 2 KiB
                nxt = bisect.bisect_right(starts, addr)
                end = starts[nxt] if nxt < len(starts) else addr + 0x800
                self.vectors[VECTOR_TABLES[name]] = (addr, min(0x800, end - addr))
                self.vector_names[VECTOR_TABLES[name]] = name
            elif kind in 'tT' and size and re.search(r'/perfrec_(irq|unwind)\.c:\d', where):
                self.funcs.append((addr, size, name))
        if sorted(self.vectors) != ([1, 2] if self.arm32 else [1, 2, 3]):
            raise BenchError('%s: perfrec\'s vector tables not found' % self.elf)
        if not any(n == 'perfrec_irq_handler' for _, _, n in self.funcs):
            raise BenchError('%s: perfrec_irq_handler (perfrec_irq.c) not found; '
                             'is the ELF built with debug info?' % self.elf)

    def _counter_accesses(self):
        """PCs of the handler's PMCCNTR_EL0 read and write (on 32-bit Arm,
        cp15's c9, c13, 0)"""
        reads, writes = set(), set()
        for start, size, _ in self.funcs:
            dis = self._tool('objdump', '-d', '--start-address=%#x' % start,
                             '--stop-address=%#x' % (start + size), self.elf)
            for line in dis.splitlines():
                m = re.match(r'\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+(mrs|msr|mrc|mcr)\s+(.*)', line)
                if not m or not ('pmccntr_el0' in m.group(3) or
                                 re.search(r'cr9, cr13, \{0\}', m.group(3))):
                    continue
                (reads if m.group(2) in ('mrs', 'mrc') else writes).add(int(m.group(1), 16))
        return reads, writes

    def filter_arg(self, reloc):
        """-dfilter value: the relocated vector tables and the IRQ path's C code"""
        return ','.join('%#x+%#x' % (start + reloc, size) for start, size in self.ranges)

    def in_range(self, addr):
        return any(s <= addr < s + n for s, n in self.ranges)

    def vector_el(self, addr):
        for el, (start, size) in self.vectors.items():
            if start <= addr < start + size:
                return el
        return None

    def attribute(self, addrs):
        """Fill self.category and self.inner for ELF addresses @addrs"""
        with self.lock:
            self._attribute(addrs)

    def _attribute(self, addrs):
        todo = sorted(a for a in set(addrs) if a not in self.category)
        for addr in todo:
            if self.vector_el(addr):
                self.category[addr] = 'entry/exit'
                self.inner[addr] = self.vector_names[self.vector_el(addr)]
        todo = [a for a in todo if a not in self.category]
        if not todo:
            return
        out = self._tool('addr2line', '-a', '-f', '-i', '-e', self.elf,
                         *['%#x' % a for a in todo])
        chains = {}
        cur = None
        lines = out.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if re.fullmatch(r'0x[0-9a-f]+', line):
                cur = int(line, 16)
                chains[cur] = []
                i += 1
                continue
            chains[cur].append(line)  # function name, then file:line
            i += 2
        for addr in todo:
            names = chains.get(addr, [])
            cat = None
            for name in names:
                if name in FUNC_CATEGORY:
                    cat = FUNC_CATEGORY[name]
                    break
            self.category[addr] = cat or 'dispatch/other'
            self.inner[addr] = names[0] if names else '??'


def parse_trace(path):
    """Executed PCs of a -d exec -singlestep log; return (pcs, dropped)

    A "Trace" line is printed when QEMU enters a TB (here one instruction),
    which is not always when the instruction retires: under icount an MMIO
    access makes QEMU rewind the TB and run it again ("cpu_io_recompile:
    rewound ..."), and a TB can exit at its start, before its instruction,
    for a pending interrupt or an icount deadline ("Stopped execution of TB
    chain before ..."). Both notes follow the Trace line of the attempt that
    retired nothing: those lines are dropped.
    """
    pcs = []
    dropped = 0
    with open(path, errors='replace') as fh:
        for line in fh:
            m = RE_TRACE.match(line)
            if m:
                pcs.append(int(m.group(1), 16))
                continue
            for regex in RE_UNDONE:
                m = regex.search(line)
                if m and pcs and pcs[-1] == int(m.group(1), 16):
                    pcs.pop()
                    dropped += 1
    return pcs, dropped
