// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's call-graph walker: AArch64 frame records, prologues and epilogues (IRQ context)
 *
 * Called from the IRQ handler (perfrec_irq.c) for `perfrec record -g`, so
 * the same rules hold: no printing, no allocation, no driver model, no gd,
 * every function notrace, nothing read outside the code and the stack it is
 * given. It touches no register and no global, and so builds for the host
 * too (USE_HOSTCC), where test/host/test_perfrec_unwind.py runs it over
 * synthetic code and stacks.
 *
 * A frame record is the pair {x29, x30} a function stores on entry with
 * "stp x29, x30, [sp, #-n]!" and points x29 at ("mov x29, sp"):
 *
 *   higher addresses
 *   |  caller's record: | saved x29 (its caller's) | saved x30 |  <- ...
 *   |  ...                     ^
 *   |  callee's record: | saved x29 --+             | saved x30 |  <- x29
 *   lower addresses (sp)
 *
 * Each saved x30 is a return address into the function one level up.
 */

#ifdef USE_HOSTCC
#include <stdbool.h>
#include <linux/types.h>
#define notrace
#define GENMASK(h, l)		((~0U << (l)) & (~0U >> (31 - (h))))
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;
#else
#include <linux/bitops.h>
#include <linux/compiler.h>
#endif
#include "perfrec_unwind.h"

/* A64 encodings (Arm ARM C6) the walker looks at */
#define PERFREC_A64_STP_FP_LR_PRE	0xa9807bfd	/* stp x29, x30, [sp, #-n]! */
#define PERFREC_A64_STP_FP_LR_OFF	0xa9007bfd	/* stp x29, x30, [sp, #n] */
#define PERFREC_A64_PAIR_MASK		0xffc07fff	/* all but imm7 */
#define PERFREC_A64_ADD_FP_SP		0x910003fd	/* add x29, sp, #n (mov x29, sp) */
#define PERFREC_A64_ADDSUB_MASK		0xffc003ff	/* all but imm12 */
#define PERFREC_A64_RET			0xd65f03c0	/* ret */
#define PERFREC_A64_BL			0x94000000	/* bl <label> */
#define PERFREC_A64_BL_MASK		0xfc000000
#define PERFREC_A64_BL_IMM		GENMASK(25, 0)

/*
 * Whether @addr is an instruction's address in the code, in either place;
 * if so, *@valp is what a chain holds for it: @addr, or its offset from
 * the start of its place (@area->offsets). The place the code runs in is
 * tried first.
 */
static __always_inline notrace bool perfrec_unwind_code(const struct perfrec_unwind_area *area,
							u64 addr, u64 *valp)
{
	u64 off = addr - area->text_start;

	if (addr & 3)
		return false;
	if (off >= area->text_end - area->text_start) {
		off = addr - area->alt_start;
		if (off >= area->alt_end - area->alt_start)
			return false;
	}
	*valp = area->offsets ? off : addr;

	return true;
}

static notrace bool perfrec_unwind_in_text(const struct perfrec_unwind_area *area, u64 addr)
{
	u64 val;

	return perfrec_unwind_code(area, addr, &val);
}

static notrace u32 perfrec_unwind_insn(const struct perfrec_unwind_area *area, u64 addr)
{
	return perfrec_unwind_in_text(area, addr) ? *(const u32 *)addr : 0;
}

/* The target of the bl that a return address @ret follows, or 0 */
static notrace u64 perfrec_unwind_call_target(const struct perfrec_unwind_area *area, u64 ret)
{
	u32 insn = perfrec_unwind_insn(area, ret - 4);
	s64 off;

	if ((insn & PERFREC_A64_BL_MASK) != PERFREC_A64_BL)
		return 0;
	off = (s64)((u64)(insn & PERFREC_A64_BL_IMM) << 38) >> 36;	/* imm26 * 4 */

	return ret - 4 + off;
}

/*
 * The rule for the link register. The interrupted function's own frame
 * record is either in place (x29 points at it, its saved LR returns into the
 * caller, and x30 holds nothing useful: a return address into the function
 * itself after a call, or the same LR) or not yet / no longer in place
 * (prologue before "mov x29, sp", epilogue after "ldp x29, x30": x29 still
 * points at the caller's record, and x30 is the return address into the
 * caller, which the chain needs as its second entry). x30 counts as the
 * caller's return address when:
 *  - the interrupted instruction is the stp of x29/x30, the add/mov that
 *    sets x29, or the ret; or
 *  - x30 differs from the record's saved LR and lies outside [entry, pc] of
 *    the function the call before x30 entered, and that bl (at x30 - 4)
 *    entered the function holding the PC more closely than the bl before
 *    the record's saved LR did: the entry it called is at or below the PC
 *    and above the other entry (or the other is unknown or above the PC).
 * Calls through a register (blr) leave the entry unknown: then only the
 * first test applies. Every function must keep a frame record
 * (CONFIG_PERFREC_FRAME_POINTERS) for the chain to skip no caller.
 */
static notrace bool perfrec_unwind_lr_is_caller(const struct perfrec_unwind_area *area, u64 pc,
						u64 lr, u64 saved_lr)
{
	u32 insn = perfrec_unwind_insn(area, pc);
	u32 pair = insn & PERFREC_A64_PAIR_MASK;
	u64 entry_lr, entry_saved;

	if (pair == PERFREC_A64_STP_FP_LR_PRE || pair == PERFREC_A64_STP_FP_LR_OFF ||
	    (insn & PERFREC_A64_ADDSUB_MASK) == PERFREC_A64_ADD_FP_SP ||
	    insn == PERFREC_A64_RET)
		return true;
	if (lr == saved_lr)
		return false;
	entry_lr = perfrec_unwind_call_target(area, lr);
	if (!entry_lr || entry_lr > pc || (lr >= entry_lr && lr <= pc))
		return false;
	entry_saved = perfrec_unwind_call_target(area, saved_lr);

	return !entry_saved || entry_saved > pc || entry_saved < entry_lr;
}

/*
 * Whether a 16-byte frame record at @fp lies in the stack, at or above @low
 * and aligned. A stack top below 16 (0: no stack above the interrupted sp)
 * admits nothing: perfrec_unwind() reads no record then, and 'top - 16'
 * never wraps here.
 */
static __always_inline notrace bool perfrec_unwind_in_stack(const struct perfrec_unwind_area *area,
							    u64 low, u64 fp)
{
	return !(fp & 15) && fp >= low && fp <= area->stack_top - 16;
}

/* The LR saved in the frame record at @fp, if @fp is a plausible record, else 0 */
static notrace u64 perfrec_unwind_saved_lr(const struct perfrec_unwind_area *area, u64 fp)
{
	if (area->stack_top < 16 || !perfrec_unwind_in_stack(area, area->stack_low, fp))
		return 0;

	return ((const u64 *)fp)[1];
}

/*
 * Every frame record must lie in the stack between the interrupted stack
 * pointer and the stack's top, be 16-byte aligned and above the one before,
 * and every return address must be in the image's code: anything else ends
 * the chain, so a corrupt or foreign stack is never followed (or faulted on).
 */
unsigned int notrace perfrec_unwind(const struct perfrec_unwind_area *area, u64 pc, u64 fp,
				    u64 lr, u64 *chain, unsigned int max)
{
	/* In registers: the chain's stores may alias @area, and the loop reads it often */
	u64 text = area->text_start, text_bytes = area->text_end - text;
	u64 alt = area->alt_start, alt_bytes = area->alt_end - alt;
	u64 top = area->stack_top, low = area->stack_low, val;
	/* What a return address in either place less this is, the chain holds */
	u64 text_adj = area->offsets ? text : 0, alt_adj = area->offsets ? alt : 0;
	u64 *out = chain, *end = chain + max;

	*out++ = pc;
	if (perfrec_unwind_code(area, lr, &val) &&
	    perfrec_unwind_lr_is_caller(area, pc, lr, perfrec_unwind_saved_lr(area, fp)))
		*out++ = val;
	if (top < 16)
		return out - chain;
	top -= 16;
	/* perfrec_unwind_in_stack() and perfrec_unwind_code(), on the registers */
	while (out < end && !(fp & 15) && fp >= low && fp <= top) {
		const u64 *record = (const u64 *)fp;
		u64 ret = record[1];

		if (ret & 3)
			break;
		if (ret - text < text_bytes)
			*out++ = ret - text_adj;
		else if (ret - alt < alt_bytes)
			*out++ = ret - alt_adj;
		else
			break;
		low = fp + 16;
		fp = record[0];
	}

	return out - chain;
}
