# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of perfrec's call-graph walker on synthetic code and stacks

"""drivers/perf/arm64/perfrec_unwind.c, built natively with ASan/UBSan into
test/host/perfrec_unwind_run.c, walked over synthetic A64 code and stacks.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perfrec_unwind.py

The code is a few functions with frame records, as U-Boot's are built with
CONFIG_PERFREC_FRAME_POINTERS; the PC is put on each instruction of a
prologue and an epilogue, in a body after a call, in a leaf that keeps no
record, and x29/x30, the records and the return addresses are spoilt in
every way the walker must refuse: outside the stack, misaligned, not moving
up, outside the code. ASan guards the edges of code and stack, so a read
the walker should not make fails the test.
"""

import pytest

import unwind_helpers

# A64 encodings (Arm ARM C6)
NOP = 0xd503201f
RET = 0xd65f03c0
MOV_FP_SP = 0x910003fd          # mov x29, sp (add x29, sp, #0)
LDP_FP_LR_POST16 = 0xa8c17bfd   # ldp x29, x30, [sp], #16
BLR_X1 = 0xd63f0020             # blr x1
WORK = 0x91000400               # add x0, x0, #1


def stp_fp_lr_pre(nbytes):
    """stp x29, x30, [sp, #-nbytes]!"""
    return 0xa9807bfd | ((-nbytes // 8) & 0x7f) << 15


def stp_fp_lr_off(nbytes):
    """stp x29, x30, [sp, #nbytes]"""
    return 0xa9007bfd | (nbytes // 8) << 15


def add_fp_sp(nbytes):
    """add x29, sp, #nbytes"""
    return 0x910003fd | nbytes << 10


def sub_sp(nbytes):
    """sub sp, sp, #nbytes"""
    return 0xd10003ff | nbytes << 10


class Code(unwind_helpers.Code):
    """A64 code: bl's offset counts instructions from the bl itself"""

    @staticmethod
    def bl(at, target):  # pylint: disable=invalid-name
        """bl from instruction index @at to index @target"""
        return 0x94000000 | ((target - at) & 0x3ffffff)


def framed(*calls):
    """A function with a frame record that calls @calls in turn

    Offsets: 0 stp, 1 mov x29, 2 work, then per call a bl and a work
    instruction, then ldp and ret.
    """
    return unwind_helpers.framed([stp_fp_lr_pre(16), MOV_FP_SP], WORK,
                                 [LDP_FP_LR_POST16, RET], calls)


# ld places main, f, g in this order; low below them all, leaf above
CODE = Code(('low', framed()),
            ('main', framed('f', 'h')),
            ('f', framed('g', 'low')),
            ('g', framed()),
            ('h', framed('leaf')),
            ('leaf', [WORK, WORK, RET]))
# Offsets into framed(): the prologue, the body, the epilogue (no calls)
STP, MOV, BODY, LDP, RET_AT = 0, 1, 2, 3, 4

# Outside the code: a return address that ends the chain
OUTSIDE = '40'
JUNK = '5a5a5a5a5a5a5a5a'


def stack(records, words=16):
    """A stack of @words words; @records maps a word index to (saved x29, saved x30)"""
    return unwind_helpers.stack(records, words, JUNK, 0)


# main (called from outside the code) -> f -> g, records at s12, s8, s4
MAIN_F_G = stack({12: ('0', OUTSIDE), 8: ('s12', CODE.ret_to('main', 'f')),
                  4: ('s8', CODE.ret_to('f', 'g'))})
# The chain above g
ABOVE_G = [CODE.ret_to('f', 'g'), CODE.ret_to('main', 'f')]
# main -> h -> leaf (no record of its own): records at s12 and s8
MAIN_H = stack({12: ('0', OUTSIDE), 8: ('s12', CODE.ret_to('main', 'h'))})


@pytest.fixture(scope='module')
def walk(tmp_path_factory):
    """Return a function that walks (stack, pc, fp, lr, sp[, code, max, top,
    offsets]) to a chain, with ASan guarding the edges of code and stack"""
    return unwind_helpers.walker(tmp_path_factory.mktemp('unwind'), 'arm64', CODE,
                                 ['-fsanitize=address,undefined'])


# Frame records in place


def test_body_of_framed_function(walk):
    """In a body, x29 is the function's record: x30 (the same LR) is not added twice"""
    assert walk(MAIN_F_G, CODE.at('g', BODY), 's4', CODE.ret_to('f', 'g'), 's4') == \
        [CODE.at('g', BODY)] + ABOVE_G


def test_body_after_call_to_higher_function(walk):
    """After a call returned, x30 is stale (a return into f itself): it is left out"""
    pc = CODE.ret_to('f', 'g')
    stk = stack({12: ('0', OUTSIDE), 8: ('s12', CODE.ret_to('main', 'f'))})
    assert walk(stk, pc, 's8', CODE.ret_to('f', 'g'), 's8') == [pc, CODE.ret_to('main', 'f')]


def test_body_after_call_to_lower_function(walk):
    """The same when the callee lies below the caller: x30 is inside [f, pc]"""
    pc = CODE.ret_to('f', 'low')
    stk = stack({12: ('0', OUTSIDE), 8: ('s12', CODE.ret_to('main', 'f'))})
    assert walk(stk, pc, 's8', CODE.ret_to('f', 'low'), 's8') == [pc, CODE.ret_to('main', 'f')]


def test_pc_just_below_callee_of_lr(walk):
    """f ends in a call that does not return, g right after it: on that bl, a
    stale x30 (f's bl g returned) is left out, g's entry lying above the PC
    (the bl's offset counts from the bl: 4 bytes less would be the PC itself)"""
    code = Code(('low', framed()),
                ('main', framed('f')),
                ('f', [stp_fp_lr_pre(16), MOV_FP_SP, ('bl', 'g'), WORK, ('bl', 'low')]),
                ('g', framed()))
    before_g = code.at('g', -1)
    stk = stack({12: ('0', OUTSIDE), 8: ('s12', code.ret_to('main', 'f'))})
    assert walk(stk, before_g, 's8', code.ret_to('f', 'g'), 's8', code=code) == \
        [before_g, code.ret_to('main', 'f')]


def test_body_after_call_caller_unknown(walk):
    """Stale x30 in [entry, pc] of its callee is left out, even if f's own caller is unknown"""
    code = Code(('low', framed()),
                ('main', [stp_fp_lr_pre(16), MOV_FP_SP, BLR_X1, WORK, LDP_FP_LR_POST16, RET]),
                ('f', framed('low')))
    pc = code.ret_to('f', 'low')
    stk = stack({12: ('0', OUTSIDE), 8: ('s12', code.at('main', 3))})
    assert walk(stk, pc, 's8', pc, 's8', code=code) == [pc, code.at('main', 3)]


# Prologue and epilogue: the record is not (yet, or any more) in place


@pytest.mark.parametrize('offset, fp, sp', [(STP, 's8', 's6'), (MOV, 's8', 's4'),
                                            (RET_AT, 's8', 's6')],
                         ids=['stp', 'mov-x29-sp', 'ret'])
def test_prologue_and_epilogue_add_lr(walk, offset, fp, sp):
    """On the stp, the mov x29, sp and the ret, x30 is the caller's return address"""
    pc = CODE.at('g', offset)
    assert walk(MAIN_F_G, pc, fp, CODE.ret_to('f', 'g'), sp) == [pc] + ABOVE_G


def test_epilogue_ldp_record_still_in_place(walk):
    """On the ldp, x29 still points at the record: the chain is the body's"""
    pc = CODE.at('g', LDP)
    assert walk(MAIN_F_G, pc, 's4', CODE.ret_to('f', 'g'), 's4') == [pc] + ABOVE_G


@pytest.mark.parametrize('insn', [stp_fp_lr_off(16), add_fp_sp(16)],
                         ids=['stp-offset', 'add-x29-sp'])
def test_large_frame_prologue(walk, insn):
    """A large frame's prologue (sub sp; stp x29, x30, [sp, #n]; add x29, sp, #n)"""
    code = Code(('main', framed('big')),
                ('big', [sub_sp(32), stp_fp_lr_off(16), add_fp_sp(16), WORK,
                         0x910083ff, RET]))     # add sp, sp, #32
    pc = code.at('big', 1 if insn == stp_fp_lr_off(16) else 2)
    stk = stack({12: ('0', OUTSIDE)})
    assert walk(stk, pc, 's12', code.ret_to('main', 'big'), 's8', code=code) == \
        [pc, code.ret_to('main', 'big')]


# Leaf functions without a record


@pytest.mark.parametrize('offset', [0, 1, 2], ids=['entry', 'body', 'ret'])
def test_leaf_without_record(walk, offset):
    """A leaf keeps no record: x29 is its caller's, x30 returns into the caller"""
    pc = CODE.at('leaf', offset)
    assert walk(MAIN_H, pc, 's8', CODE.ret_to('h', 'leaf'), 's8') == \
        [pc, CODE.ret_to('h', 'leaf'), CODE.ret_to('main', 'h')]


def test_call_through_register_leaves_lr_out(walk):
    """After a blr the callee is unknown: only the prologue/epilogue test adds x30"""
    code = Code(('main', framed('f')),
                ('f', [stp_fp_lr_pre(16), MOV_FP_SP, BLR_X1, WORK, LDP_FP_LR_POST16, RET]),
                ('leaf', [WORK, WORK, RET]))
    stk = stack({12: ('0', OUTSIDE), 8: ('s12', code.ret_to('main', 'f'))})
    lr = code.at('f', 3)
    assert walk(stk, code.at('leaf', 1), 's8', lr, 's8', code=code) == \
        [code.at('leaf', 1), code.ret_to('main', 'f')]
    assert walk(stk, code.at('leaf', 2), 's8', lr, 's8', code=code) == \
        [code.at('leaf', 2), lr, code.ret_to('main', 'f')]


# Garbage in x29 and x30


@pytest.mark.parametrize('fp', ['0', 'deadbeef', 's16', 's2', 's4+8', 's15', 't4'],
                         ids=['null', 'garbage', 'stack-top', 'below-sp', 'misaligned',
                              'last-word', 'in-code'])
def test_bad_x29_is_not_followed(walk, fp):
    """An x29 outside [sp, top - 16] or misaligned is never read"""
    pc = CODE.at('g', BODY)
    # x30 is the record's return address: with no record, g's caller
    assert walk(MAIN_F_G, pc, fp, CODE.ret_to('f', 'g'), 's4') == [pc, CODE.ret_to('f', 'g')]


def test_misaligned_x29_is_not_read_for_lr(walk):
    """A misaligned x29 is no record, even where the word after it equals x30"""
    stk = stack({12: ('0', OUTSIDE), 6: (CODE.ret_to('f', 'g'), JUNK)})
    pc = CODE.at('g', BODY)
    assert walk(stk, pc, 's5', CODE.ret_to('f', 'g'), 's4') == [pc, CODE.ret_to('f', 'g')]


@pytest.mark.parametrize('lr', ['0', 'ffffffffffff0000', OUTSIDE, CODE.at('f', 1) + '+2',
                                't%d' % len(CODE.words)],
                         ids=['null', 'high', 'below-code', 'misaligned', 'code-end'])
def test_bad_x30_is_left_out(walk, lr):
    """An x30 outside the code, or misaligned, is no return address"""
    pc = CODE.at('g', RET_AT)
    assert walk(MAIN_F_G, pc, 's8', lr, 's6') == [pc, CODE.ret_to('main', 'f')]


def test_x30_at_code_start(walk):
    """x30 at the code's first instruction: the bl before it is not read"""
    pc = CODE.at('g', BODY)
    assert walk(MAIN_F_G, pc, 's4', 't0', 's4') == [pc] + ABOVE_G


# Bad frame records


def test_record_outside_stack_ends_chain(walk):
    """A saved x29 above the stack's top (or garbage) ends the chain after its LR"""
    for saved in ('s16', '7fff0000', '0'):
        stk = stack({8: (saved, CODE.ret_to('main', 'f')), 4: ('s8', CODE.ret_to('f', 'g'))})
        assert walk(stk, CODE.at('g', BODY), 's4', CODE.ret_to('f', 'g'), 's4') == \
            [CODE.at('g', BODY)] + ABOVE_G, saved


@pytest.mark.parametrize('top', ['0', '8', 's4', 's4+8'])
def test_no_stack_above_sp_follows_nothing(walk, top):
    """A stack top at or below the interrupted sp (0: a boot recording's
    second stack when there is none, and sp on a stack of its own, a
    uthread's or a payload's) follows no record: 'top - 16' once wrapped
    below zero and let every record at or above sp through"""
    assert walk(MAIN_F_G, CODE.at('g', BODY), 's4', CODE.ret_to('f', 'g'), 's4', top=top) == \
        [CODE.at('g', BODY), CODE.ret_to('f', 'g')]


def test_record_misaligned_ends_chain(walk):
    """A saved x29 that is not 16-byte aligned ends the chain"""
    stk = stack({12: ('0', OUTSIDE), 8: ('s12', CODE.ret_to('main', 'f')),
                 4: ('s8+8', CODE.ret_to('f', 'g'))})
    assert walk(stk, CODE.at('g', BODY), 's4', CODE.ret_to('f', 'g'), 's4') == \
        [CODE.at('g', BODY), CODE.ret_to('f', 'g')]


@pytest.mark.parametrize('saved', ['s4', 's2', 's0'], ids=['itself', 'down', 'below-sp'])
def test_record_not_moving_up_ends_chain(walk, saved):
    """A record whose saved x29 is not above it ends the chain (no loop)"""
    stk = stack({4: (saved, CODE.ret_to('f', 'g'))})
    assert walk(stk, CODE.at('g', BODY), 's4', CODE.ret_to('f', 'g'), 's2') == \
        [CODE.at('g', BODY), CODE.ret_to('f', 'g')]


@pytest.mark.parametrize('ret', [OUTSIDE, CODE.ret_to('main', 'f') + '+2',
                                 't%d' % len(CODE.words), 's0'],
                         ids=['below-code', 'misaligned', 'code-end', 'in-stack'])
def test_return_address_outside_code_ends_chain(walk, ret):
    """A saved x30 that is not an instruction of the code ends the chain"""
    stk = stack({12: ('0', OUTSIDE), 8: ('s12', ret), 4: ('s8', CODE.ret_to('f', 'g'))})
    assert walk(stk, CODE.at('g', BODY), 's4', CODE.ret_to('f', 'g'), 's4') == \
        [CODE.at('g', BODY), CODE.ret_to('f', 'g')]


# Depth


def deep_stack(depth):
    """f's records @depth deep (f calls itself through g), the outermost from main"""
    words = 2 * depth + 4
    records = {words - 2: ('0', OUTSIDE), words - 4: ('s%d' % (words - 2),
                                                      CODE.ret_to('main', 'f'))}
    for i in range(depth - 1):
        at = words - 6 - 2 * i
        records[at] = ('s%d' % (at + 2), CODE.ret_to('f', 'g'))
    return stack(records, words), 's%d' % (words - 4 - 2 * (depth - 1))


@pytest.mark.parametrize('max_entries', [2, 3, 10, 33])
def test_chain_stops_at_max(walk, max_entries):
    """The chain holds at most @max entries, the PC included"""
    stk, fp = deep_stack(40)
    pc = CODE.at('g', BODY)
    chain = walk(stk, pc, fp, CODE.ret_to('f', 'g'), fp, max_entries=max_entries)
    assert chain == [pc] + [CODE.ret_to('f', 'g')] * (max_entries - 1)


def test_deep_chain_to_the_end(walk):
    """Below the limit, the whole chain: every record, then main's caller ends it"""
    stk, fp = deep_stack(40)
    pc = CODE.at('g', BODY)
    chain = walk(stk, pc, fp, CODE.ret_to('f', 'g'), fp, max_entries=66)
    assert chain == [pc] + [CODE.ret_to('f', 'g')] * 39 + [CODE.ret_to('main', 'f')]


def test_lr_fills_the_last_place(walk):
    """With room for two, a prologue's chain is the PC and x30"""
    pc = CODE.at('g', STP)
    assert walk(MAIN_F_G, pc, 's8', CODE.ret_to('f', 'g'), 's6', max_entries=2) == \
        [pc, CODE.ret_to('f', 'g')]


@pytest.mark.parametrize('where', ['body', 'prologue', 'leaf'])
def test_offsets_are_the_same_chain(walk, where):
    """A boot recording's chain holds offsets in the code: the same entries,
    less the code's start, x30 and the records' alike, the PC as it is"""
    regs = {'body': (MAIN_F_G, CODE.at('g', BODY), 's4', CODE.ret_to('f', 'g'), 's4'),
            'prologue': (MAIN_F_G, CODE.at('g', STP), 's8', CODE.ret_to('f', 'g'), 's6'),
            'leaf': (MAIN_H, CODE.at('leaf', 1), 's8', CODE.ret_to('h', 'leaf'), 's8')}[where]
    chain = walk(*regs)
    assert len(chain) >= 3
    assert walk(*regs, offsets=True) == chain
