# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Synthetic code and stacks for the host tests of perfrec's call-graph walkers

"""Synthetic code and stacks for the host tests of perfrec's call-graph walkers.

test_perfrec_unwind.py (A64, drivers/perf/arm64) and test_perfrec_unwind_a32.py
(A32, drivers/perf/arm) share these: Code, functions laid out one after the
other, whose subclass gives the architecture's bl; framed(), a function with a
frame record from the architecture's prologue, work and epilogue; stack(),
stack words holding frame records; and walker(), test/host/perfrec_unwind_run.c
built with one walker, as a function that walks a stack to a chain.
"""

import os

from conftest import HOSTCC, REPO, run, tool


class Code:
    """Functions laid out one after the other; t<i> names instruction i

    A function is a list of instruction words or ('bl', name) calls; call
    targets may come later. ret_to(caller, callee) is the return address of
    the caller's call to callee. A subclass gives bl(), the architecture's
    encoding of a call.
    """

    def __init__(self, *funcs):
        self.entry = {}
        self.calls = {}
        body = []
        for name, insns in funcs:
            self.entry[name] = len(body)
            for insn in insns:
                if isinstance(insn, tuple):
                    self.calls[(name, insn[1])] = len(body)
                body.append(insn)
        self.words = [self.bl(i, self.entry[w[1]]) if isinstance(w, tuple) else w
                      for i, w in enumerate(body)]

    @staticmethod
    def bl(at, target):  # pylint: disable=invalid-name
        """bl from instruction index @at to index @target"""
        raise NotImplementedError

    def at(self, name, offset=0):  # pylint: disable=invalid-name
        """Instruction @offset of function @name, as t<i>"""
        return f't{self.entry[name] + offset}'

    def ret_to(self, caller, callee):
        """The return address of @caller's call to @callee"""
        return f't{self.calls[(caller, callee)] + 1}'


def framed(prologue, work, epilogue, calls):
    """A function with a frame record that calls @calls in turn

    Offsets: the @prologue, a @work instruction, then per call a bl and a
    @work instruction, then the @epilogue.
    """
    body = list(prologue) + [work]
    for callee in calls:
        body += [('bl', callee), work]
    return body + list(epilogue)


def stack(records, words, junk, fp_at):
    """@words stack words of @junk; @records maps a word index to (saved
    frame pointer, saved return address), the pair starting @fp_at words
    from that index"""
    out = [junk] * words
    for idx, pair in records.items():
        out[idx + fp_at:idx + fp_at + 2] = list(pair)
    return out


def walker(tmp_dir, arch, default_code, cflags):
    """perfrec_unwind_run built into @tmp_dir with drivers/perf/@arch's walker
    and @cflags; return a function that walks (stack, pc, fp, lr, sp[, code,
    max_entries, top, offsets]) over @default_code unless given another"""
    path = str(tmp_dir / 'perfrec_unwind_run')
    run([tool(HOSTCC), '-Wall', '-Wextra', '-Werror', *cflags,
         '-fno-sanitize-recover=all', '-DUSE_HOSTCC',
         '-I', os.path.join(REPO, 'drivers', 'perf'), '-o', path,
         os.path.join(REPO, 'test', 'host', 'perfrec_unwind_run.c'),
         os.path.join(REPO, 'drivers', 'perf', arch, 'perfrec_unwind.c')])

    # Many arguments: a walk's registers, then optional knobs by keyword
    # pylint: disable-next=too-many-arguments,invalid-name
    def do_walk(stk, pc, fp, lr, sp, code=default_code, max_entries=None, top=None,
                offsets=False):
        args = [path] + (['-o'] if offsets else []) + [
            '-t', ','.join(f'{w:08x}' for w in code.words), '-s', ','.join(stk)]
        if max_entries is not None:
            args += ['-m', str(max_entries)]
        if top is not None:
            args += ['-T', top]
        proc = run(args + [pc, fp, lr, sp])
        assert not proc.stderr, proc.stderr
        return proc.stdout.split()

    return do_walk
