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
#include "perfrec_unwind_rules.h"

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

static notrace bool perfrec_unwind_at_edge(u32 insn)
{
	u32 pair = insn & PERFREC_A64_PAIR_MASK;

	return pair == PERFREC_A64_STP_FP_LR_PRE || pair == PERFREC_A64_STP_FP_LR_OFF ||
	       (insn & PERFREC_A64_ADDSUB_MASK) == PERFREC_A64_ADD_FP_SP ||
	       insn == PERFREC_A64_RET;
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
