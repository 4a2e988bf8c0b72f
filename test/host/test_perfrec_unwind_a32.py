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
"""

import pytest

import unwind_helpers

# A32 encodings (Arm ARM F5), condition AL
PUSH_FP_LR = 0xe92d4800         # push {fp, lr}
ADD_FP_SP_4 = 0xe28db004        # add fp, sp, #4
POP_FP_PC = 0xe8bd8800          # pop {fp, pc}
BX_LR = 0xe12fff1e              # bx lr
BLX_R3 = 0xe12fff33             # blx r3
WORK = 0xe2800001               # add r0, r0, #1


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
