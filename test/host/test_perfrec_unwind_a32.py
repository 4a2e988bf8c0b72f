# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of perfrec's 32-bit Arm call-graph walker on synthetic code and stacks

"""drivers/perf/arm/perfrec_unwind.c, built natively (UBSan) into
test/host/perfrec_unwind_run.c with -DPERFREC_UNWIND_A32, walked over
synthetic A32 code and stacks below 4 GiB, each ending at an inaccessible
page.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perfrec_unwind_a32.py

The code is a few functions with the frame records GCC lays out in ARM
state with -fno-omit-frame-pointer ("push {fp, lr}; add fp, sp, #4": r11
points at the saved LR, the caller's r11 in the word below). The PC is put
on the prologue's instructions, in a body, in a leaf that keeps no record,
and r11, lr, the records and the return addresses are spoilt in the ways
the walker must refuse (test_perfrec_unwind.py has the same for A64).

At -O2 and -Og GCC gives a leaf that needs no other register a record of
r11 alone ("str fp, [sp, #-4]!; add fp, sp, #0": r11 points at the
caller's r11, LR stays in its register): synthetic code has it too, and
test/host/unwind_a32_fixture.c, built by arm-linux-gnueabihf-gcc at -Os,
-O2 and -Og, is walked at every instruction of its leaf, on the stack its
own frame instructions lay out.
"""

import pytest

import unwind_helpers
from conftest import ARM32_CROSS_COMPILE, build_fixture, run, tool

# A32 encodings (Arm ARM F5), condition AL
PUSH_FP_LR = 0xe92d4800         # push {fp, lr}
ADD_FP_SP_4 = 0xe28db004        # add fp, sp, #4
POP_FP_PC = 0xe8bd8800          # pop {fp, pc}
BX_LR = 0xe12fff1e              # bx lr
BLX_R3 = 0xe12fff33             # blx r3
WORK = 0xe2800001               # add r0, r0, #1
# A leaf's record of r11 alone (GCC at -O2 and -Og)
STR_FP = 0xe52db004             # str fp, [sp, #-4]! (push {fp})
ADD_FP_SP_0 = 0xe28db000        # add fp, sp, #0
ADD_SP_FP_0 = 0xe28bd000        # add sp, fp, #0
LDR_FP = 0xe49db004             # ldr fp, [sp], #4 (pop {fp})


class Code(unwind_helpers.Code):
    """A32 code: bl's offset counts instructions from 8 bytes past the bl"""

    @staticmethod
    def bl(at, target):  # pylint: disable=invalid-name
        """bl from instruction index @at to index @target (the PC reads 8 ahead)"""
        return 0xeb000000 | ((target - at - 2) & 0xffffff)


def framed(*calls):
    """Offsets: 0 push, 1 add fp, 2 work, then per call a bl and a work, then pop"""
    return unwind_helpers.framed([PUSH_FP_LR, ADD_FP_SP_4], WORK, [POP_FP_PC], calls)


CODE = Code(('low', framed()),
            ('main', framed('f', 'h')),
            ('f', framed('g', 'low')),
            ('g', framed()),
            ('h', framed('leaf')),
            ('leaf', [WORK, WORK, BX_LR]))
PUSH, ADD, BODY = 0, 1, 2
OUTSIDE = '40'
JUNK = '5a5a5a5a'


def stack(records, words=16):
    """@words stack words; @records maps the saved LR's word index to (saved r11, saved lr)"""
    return unwind_helpers.stack(records, words, JUNK, -1)


# main (called from outside) -> f -> g: records (r11 at the saved LR) at s13, s9, s5
MAIN_F_G = stack({13: ('0', OUTSIDE), 9: ('s13', CODE.ret_to('main', 'f')),
                  5: ('s9', CODE.ret_to('f', 'g'))})
ABOVE_G = [CODE.ret_to('f', 'g'), CODE.ret_to('main', 'f')]
MAIN_H = stack({13: ('0', OUTSIDE), 9: ('s13', CODE.ret_to('main', 'h'))})


@pytest.fixture(scope='module')
def walk(tmp_path_factory):
    """Return a function that walks (stack, pc, fp, lr, sp[, code, max]) to a
    chain, with UBSan (the harness puts code and stack below 4 GiB itself)"""
    return unwind_helpers.walker(tmp_path_factory.mktemp('unwind_a32'), 'arm', CODE,
                                 ['-fsanitize=undefined', '-DPERFREC_UNWIND_A32'])


def test_body_of_framed_function(walk):
    """In a body, r11 is the function's record: lr (the same LR) is not added twice"""
    assert walk(MAIN_F_G, CODE.at('g', BODY), 's5', CODE.ret_to('f', 'g'), 's4') == \
        [CODE.at('g', BODY)] + ABOVE_G


def test_body_after_call(walk):
    """After a call returned, lr is stale (a return into f itself): it is left out"""
    pc = CODE.ret_to('f', 'g')
    stk = stack({13: ('0', OUTSIDE), 9: ('s13', CODE.ret_to('main', 'f'))})
    assert walk(stk, pc, 's9', CODE.ret_to('f', 'g'), 's8') == [pc, CODE.ret_to('main', 'f')]


def test_pc_just_below_callee_of_lr(walk):
    """On h's pop, the last instruction before leaf, a stale lr (h's bl leaf
    returned) is left out: the bl's target, read 8 ahead, lies above the PC
    (4 bytes less would be the PC itself)"""
    before_leaf = CODE.at('leaf', -1)
    assert walk(MAIN_H, before_leaf, 's9', CODE.ret_to('h', 'leaf'), 's8') == \
        [before_leaf, CODE.ret_to('main', 'h')]


@pytest.mark.parametrize('offset, sp', [(PUSH, 's8'), (ADD, 's6')], ids=['push', 'add-fp'])
def test_prologue_adds_lr(walk, offset, sp):
    """On the push and the add fp, lr is the caller's return address (r11 is
    still f's, whose push left sp at s8)"""
    pc = CODE.at('g', offset)
    assert walk(MAIN_F_G, pc, 's9', CODE.ret_to('f', 'g'), sp) == [pc] + ABOVE_G


@pytest.mark.parametrize('offset', [0, 1, 2], ids=['entry', 'body', 'bx-lr'])
def test_leaf_without_record(walk, offset):
    """A leaf keeps no record: r11 is its caller's, lr returns into the caller"""
    pc = CODE.at('leaf', offset)
    assert walk(MAIN_H, pc, 's9', CODE.ret_to('h', 'leaf'), 's8') == \
        [pc, CODE.ret_to('h', 'leaf'), CODE.ret_to('main', 'h')]


@pytest.mark.parametrize('offset', [PUSH, ADD], ids=['push', 'add-fp'])
def test_prologue_after_call_through_register(walk, offset):
    """Entered through a blx (no bl to tell the callee by), the push and the
    add fp alone say that lr is the caller's return address"""
    code = Code(('main', framed('f')),
                ('f', [PUSH_FP_LR, ADD_FP_SP_4, BLX_R3, WORK, POP_FP_PC]),
                ('g', framed()))
    stk = stack({13: ('0', OUTSIDE), 9: ('s13', code.ret_to('main', 'f'))})
    lr = code.at('f', 3)
    pc = code.at('g', offset)
    assert walk(stk, pc, 's9', lr, 's6', code=code) == [pc, lr, code.ret_to('main', 'f')]


def test_call_through_register_leaves_lr_out(walk):
    """After a blx the callee is unknown: only the prologue/bx lr test adds lr"""
    code = Code(('main', framed('f')),
                ('f', [PUSH_FP_LR, ADD_FP_SP_4, BLX_R3, WORK, POP_FP_PC]),
                ('leaf', [WORK, WORK, BX_LR]))
    stk = stack({13: ('0', OUTSIDE), 9: ('s13', code.ret_to('main', 'f'))})
    lr = code.at('f', 3)
    assert walk(stk, code.at('leaf', 1), 's9', lr, 's8', code=code) == \
        [code.at('leaf', 1), code.ret_to('main', 'f')]
    assert walk(stk, code.at('leaf', 2), 's9', lr, 's8', code=code) == \
        [code.at('leaf', 2), lr, code.ret_to('main', 'f')]


@pytest.mark.parametrize('fp', ['0', 'deadbeef', 's16', 's4', 's5', 's5+2', 's3', 't4'],
                         ids=['null', 'garbage', 'stack-top', 'record-below-sp',
                              'saved-r11-below-sp', 'misaligned', 'below-sp', 'in-code'])
def test_bad_r11_is_not_followed(walk, fp):
    """An r11 whose record is outside [sp, top) or misaligned is never read"""
    pc = CODE.at('g', BODY)
    assert walk(MAIN_F_G, pc, fp, CODE.ret_to('f', 'g'), 's5') == [pc, CODE.ret_to('f', 'g')]


@pytest.mark.parametrize('lr', ['0', 'fffff000', OUTSIDE, CODE.at('f', 1) + '+2',
                                't%d' % len(CODE.words)],
                         ids=['null', 'high', 'below-code', 'misaligned', 'code-end'])
def test_bad_lr_is_left_out(walk, lr):
    """An lr outside the code, or misaligned, is no return address"""
    pc = CODE.at('g', PUSH)
    assert walk(MAIN_F_G, pc, 's9', lr, 's8') == [pc, CODE.ret_to('main', 'f')]


@pytest.mark.parametrize('saved', ['s9', 's7', 's1'], ids=['itself', 'down', 'below-sp'])
def test_record_not_moving_up_ends_chain(walk, saved):
    """A record whose saved r11 is not above it ends the chain (no loop)"""
    stk = stack({5: (saved, CODE.ret_to('f', 'g'))})
    stk[8] = saved  # the word below s9, if it is read as a record
    assert walk(stk, CODE.at('g', BODY), 's5', CODE.ret_to('f', 'g'), 's4')[:2] == \
        [CODE.at('g', BODY), CODE.ret_to('f', 'g')]
    assert len(walk(stk, CODE.at('g', BODY), 's5', CODE.ret_to('f', 'g'), 's4')) <= 3


@pytest.mark.parametrize('ret', [OUTSIDE, CODE.ret_to('main', 'f') + '+2',
                                 't%d' % len(CODE.words), 's0'],
                         ids=['below-code', 'misaligned', 'code-end', 'in-stack'])
def test_return_address_outside_code_ends_chain(walk, ret):
    """A saved LR that is not an instruction of the code ends the chain"""
    stk = stack({13: ('0', OUTSIDE), 9: ('s13', ret), 5: ('s9', CODE.ret_to('f', 'g'))})
    assert walk(stk, CODE.at('g', BODY), 's5', CODE.ret_to('f', 'g'), 's4') == \
        [CODE.at('g', BODY), CODE.ret_to('f', 'g')]


def test_record_at_stack_top_is_read(walk):
    """The last record may sit at the stack's very top: its two words are the last"""
    stk = stack({15: ('0', OUTSIDE), 11: ('s15', CODE.ret_to('main', 'f')),
                 7: ('s11', CODE.ret_to('f', 'g'))})
    assert walk(stk, CODE.at('g', BODY), 's7', CODE.ret_to('f', 'g'), 's6') == \
        [CODE.at('g', BODY)] + ABOVE_G


def test_chain_stops_at_max(walk):
    """No more entries than the room given"""
    assert walk(MAIN_F_G, CODE.at('g', BODY), 's5', CODE.ret_to('f', 'g'), 's4',
                max_entries=2) == [CODE.at('g', BODY), CODE.ret_to('f', 'g')]


def leaf_r11_only():
    """A leaf as GCC lays it out at -O2: 0 work scheduled before the
    prologue, 1 str fp, 2 add fp, 3 work, 4 add sp, 5 ldr fp, 6 bx lr"""
    return [WORK, STR_FP, ADD_FP_SP_0, WORK, ADD_SP_FP_0, LDR_FP, BX_LR]


# main (called from outside) -> h -> leaf: h's record at s9, the leaf's r11 at s7
LEAF_CODE = Code(('main', framed('h')), ('h', framed('leaf')), ('leaf', leaf_r11_only()))
LEAF_STACK = stack({13: ('0', OUTSIDE), 9: ('s13', LEAF_CODE.ret_to('main', 'h'))})
LEAF_STACK[7] = 's9'


@pytest.mark.parametrize('offset, fp, sp', [(0, 's9', 's8'), (1, 's9', 's8'), (2, 's9', 's7'),
                                            (3, 's7', 's7'), (4, 's7', 's7'), (5, 's7', 's7'),
                                            (6, 's9', 's8')],
                         ids=['before-str', 'str-fp', 'add-fp', 'body', 'add-sp', 'ldr-fp',
                              'bx-lr'])
def test_leaf_saving_r11_alone(walk, offset, fp, sp):
    """A leaf whose record is r11 alone (r11 points at the caller's r11):
    lr, then the caller's record; before the add fp and after the ldr fp,
    r11 is the caller's"""
    pc = LEAF_CODE.at('leaf', offset)
    assert walk(LEAF_STACK, pc, fp, LEAF_CODE.ret_to('h', 'leaf'), sp, code=LEAF_CODE) == \
        [pc, LEAF_CODE.ret_to('h', 'leaf'), LEAF_CODE.ret_to('main', 'h')]


# The same through a blx: f's record at s9, the leaf's r11 at s7, the return into f
BLX_CODE = Code(('main', framed('f')),
                ('f', [PUSH_FP_LR, ADD_FP_SP_4, BLX_R3, WORK, POP_FP_PC]),
                ('leaf', leaf_r11_only()))
BLX_STACK = stack({13: ('0', OUTSIDE), 9: ('s13', BLX_CODE.ret_to('main', 'f'))})
BLX_STACK[7] = 's9'
BLX_LR = BLX_CODE.at('f', 3)


@pytest.mark.parametrize('offset, fp, sp, gives_lr',
                         [(0, 's9', 's8', False), (1, 's9', 's8', True), (2, 's9', 's7', True),
                          (3, 's7', 's7', True), (4, 's7', 's7', True), (5, 's7', 's7', True),
                          (6, 's9', 's8', True)],
                         ids=['before-str', 'str-fp', 'add-fp', 'body', 'add-sp', 'ldr-fp',
                              'bx-lr'])
def test_leaf_saving_r11_alone_through_register(walk, offset, fp, sp, gives_lr):
    """Entered through a blx, such a leaf still gives lr: on the str fp and
    the add fp (edges), while r11 points at its record, and on the bx lr;
    only the work GCC schedules before the str leaves lr out, as in a leaf
    without a record"""
    pc = BLX_CODE.at('leaf', offset)
    assert walk(BLX_STACK, pc, fp, BLX_LR, sp, code=BLX_CODE) == \
        [pc] + [BLX_LR] * gives_lr + [BLX_CODE.ret_to('main', 'f')]


@pytest.mark.parametrize('saved', ['s7', 's5', 's8', 's16', 's9+2', '0', JUNK],
                         ids=['itself', 'down', 'next-word', 'stack-top', 'misaligned', 'null',
                              'garbage'])
def test_bad_leaf_record_is_not_followed(walk, saved):
    """A word at r11 that is neither a return address nor the address of a
    record above r11 in the stack is no leaf's saved r11: neither it nor lr
    (after a blx, only a leaf's record vouches for lr there) is taken"""
    stk = list(BLX_STACK)
    stk[7] = saved
    pc = BLX_CODE.at('leaf', 3)
    assert walk(stk, pc, 's7', BLX_LR, 's7', code=BLX_CODE) == [pc]


def test_leaf_record_below_sp_is_not_read(walk):
    """An r11 below sp is no leaf's record, whatever the word there holds"""
    stk = list(BLX_STACK)
    stk[6] = 's9'
    pc = BLX_CODE.at('leaf', 3)
    assert walk(stk, pc, 's6', BLX_LR, 's7', code=BLX_CODE) == [pc]


# Real code: arm-linux-gnueabihf-gcc's frame instructions (A32, condition AL)
REGS_MASK, PUSH_REGS = 0xffff0000, 0xe92d0000     # push {<registers>}
POP_REGS = 0xe8bd0000                             # pop {<registers>}
FP_SP_IMM, FP_SP_MASK = 0xe28db000, 0xffffff00    # add fp, sp, #imm8
SP_FP_ADD, SP_FP_SUB = 0xe28bd000, 0xe24bd000     # add/sub sp, fp, #imm8
SP_SP_SUB = 0xe24dd000                            # sub sp, sp, #imm8
BL_MASK, BL = 0xff000000, 0xeb000000
FP, SP, LR, PC = 11, 13, 14, 15


def bl_target(words, at):
    """The instruction index a bl at index @at calls, or None if it is no bl"""
    if words[at] & BL_MASK != BL:
        return None
    return at + 2 + ((words[at] & 0xffffff) ^ 0x800000) - 0x800000


def register_written(insn):
    """The register an A32 data-processing or multiply instruction writes,
    None for any other instruction"""
    if insn & 0x0fc000f0 == 0x00000090:         # mul, mla
        return insn >> 16 & 0xf
    if insn & 0x0c000000 or insn & 0x0e000090 == 0x00000090 or \
            insn & 0x0f900000 == 0x01000000:    # load/store, branch; misc
        return None
    return insn >> 12 & 0xf


class Frames:
    """Runs the frame instructions of real A32 code on a stack of @words
    words: push, pop, str/ldr fp, add/sub with fp and sp, bl and bx lr.
    Any other instruction must be data-processing or multiply and write no
    register of the frame (r11, sp, lr, pc); a conditional one fails the
    test, as this runs straight through."""

    def __init__(self, code, words=16):
        self.code = code
        self.stk = [JUNK] * words
        self.sp = words
        self.fp = '0'
        self.lr = OUTSIDE

    @staticmethod
    def reglist(insn):
        """The registers of a push or pop, lowest first"""
        return [reg for reg in range(16) if insn >> reg & 1]

    def step(self, pc):
        """Run the instruction at index @pc; return the next index, or None on a return"""
        insn = self.code.words[pc]
        assert insn >> 28 == 0xe, f'conditional instruction {insn:08x} at t{pc}'
        imm = (insn & 0xff) // 4
        if insn & REGS_MASK == PUSH_REGS:
            regs = self.reglist(insn)
            self.sp -= len(regs)
            self.stk[self.sp:self.sp + len(regs)] = [
                {FP: self.fp, LR: self.lr}.get(reg, JUNK) for reg in regs]
        elif insn & REGS_MASK == POP_REGS:
            regs = self.reglist(insn)
            vals = dict(zip(regs, self.stk[self.sp:self.sp + len(regs)]))
            self.sp += len(regs)
            self.fp = vals.get(FP, self.fp)
            self.lr = vals.get(LR, self.lr)
            if PC in vals:
                return None
        elif insn == STR_FP:
            self.sp -= 1
            self.stk[self.sp] = self.fp
        elif insn == LDR_FP:
            self.fp = self.stk[self.sp]
            self.sp += 1
        elif insn & FP_SP_MASK == FP_SP_IMM:
            self.fp = f's{self.sp + imm}'
        elif insn & FP_SP_MASK in (SP_FP_ADD, SP_FP_SUB):
            self.sp = int(self.fp[1:]) + (imm if insn & FP_SP_MASK == SP_FP_ADD else -imm)
        elif insn & FP_SP_MASK == SP_SP_SUB:
            self.sp -= imm
        elif insn == BX_LR:
            return None
        elif bl_target(self.code.words, pc) is not None:
            self.lr = f't{pc + 1}'
            return bl_target(self.code.words, pc)
        else:
            assert register_written(insn) not in (None, FP, SP, LR, PC), \
                f'unexpected instruction {insn:08x} at t{pc}'
        return pc + 1

    def states(self, start, leaf):
        """Run from index @start (r11 0, lr outside the code) until the
        function at index @leaf returns; return (pc, r11, lr, sp, stack
        words) before each of its instructions, in the harness's notation"""
        out = []
        pc = start
        while pc is not None:
            assert 0 <= pc < len(self.code.words)
            if out or pc == leaf:
                out.append((f't{pc}', self.fp, self.lr, f's{self.sp}', list(self.stk)))
            pc = self.step(pc)
            if out and pc is None:
                return out
        pytest.fail('the code returned before reaching the leaf')
        return out


class GccCode:
    """test/host/unwind_a32_fixture.c as arm-linux-gnueabihf-gcc built it:
    its instruction words and each function's first and last index"""

    def __init__(self, elf):
        out = elf.path + '.text'
        run([tool(ARM32_CROSS_COMPILE + 'objcopy'), '-O', 'binary', '-j', '.text', elf.path,
             out])
        with open(out, 'rb') as inf:
            data = inf.read()
        self.words = [int.from_bytes(data[i:i + 4], 'little') for i in range(0, len(data), 4)]
        self.funcs = {name: (sym.addr // 4, (sym.addr + sym.size) // 4)
                      for name, sym in elf.symbols.items()}

    def body(self, name):
        """The words of function @name"""
        return self.words[slice(*self.funcs[name])]

    def ret_to(self, caller, callee):
        """The index after @caller's one bl to @callee, as t<i>"""
        first, end = self.funcs[caller]
        rets = [i + 1 for i in range(first, end)
                if bl_target(self.words, i) == self.funcs[callee][0]]
        assert len(rets) == 1, f'{caller} calls {callee} {len(rets)} times'
        return f't{rets[0]}'


@pytest.mark.parametrize('opt, leaf_prologue', [('-Os', PUSH_FP_LR), ('-O2', STR_FP),
                                                ('-Og', STR_FP)],
                         ids=['Os-push-fp-lr', 'O2-str-fp', 'Og-str-fp'])
def test_gcc_leaf_two_calls_deep(walk, tmp_path, opt, leaf_prologue):
    """At every instruction of a leaf that GCC built, called by two functions
    in turn, the chain is the PC, the return into its caller, then the
    return into that one's caller: at -Os the leaf pushes {fp, lr}, at -O2
    and -Og it saves r11 alone"""
    elf = build_fixture(str(tmp_path), 0, source='unwind_a32_fixture.c',
                        cross=ARM32_CROSS_COMPILE,
                        cflags=('-marm', opt, '-fno-omit-frame-pointer',
                                '-fno-optimize-sibling-calls'))
    code = GccCode(elf)
    assert leaf_prologue in code.body('unwind_leaf')
    assert PUSH_FP_LR in code.body('unwind_mid') and PUSH_FP_LR in code.body('unwind_top')
    above = [code.ret_to('unwind_mid', 'unwind_leaf'), code.ret_to('unwind_top', 'unwind_mid')]
    states = Frames(code).states(code.funcs['unwind_top'][0], code.funcs['unwind_leaf'][0])
    assert [pc for pc, *_ in states] == \
        [f't{i}' for i in range(*code.funcs['unwind_leaf'])]
    wrong = {}
    for pc, fp, lr, sp, stk in states:
        chain = walk(stk, pc, fp, lr, sp, code=code)
        if chain != [pc] + above:
            wrong[pc] = (f'{code.words[int(pc[1:])]:08x}', chain)
    assert not wrong, f'{opt}: expected [pc] + {above}, got (insn, chain): {wrong}'
