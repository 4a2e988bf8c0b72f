// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's call-graph walker on 32-bit Arm: ARM-state frame records (IRQ context)
 *
 * The rules of drivers/perf/arm64/perfrec_unwind.c, for the frame records
 * GCC lays out in ARM state with -fno-omit-frame-pointer: a function
 * pushes its frame pointer (r11) and LR with others ("push {..., fp, lr}")
 * and points r11 at the saved LR ("add fp, sp, #n"), so that the caller's
 * r11 lies in the word below:
 *
 *   higher addresses
 *   |  caller's record: | saved r11 (its caller's) | saved lr |  <- ...
 *   |  ...                       ^
 *   |  callee's record: | saved r11 ---------------+ | saved lr |  <- r11
 *   lower addresses (sp)
 *
 * Each saved LR is a return address into the function one level up.
 *
 * A leaf that saves no other register keeps LR in its register at -O1,
 * -O2, -O3 and -Og (GCC 12; at -Os it pushes {fp, lr} as above): it saves
 * r11 alone ("str fp, [sp, #-4]!") and points r11 at that word ("add fp,
 * sp, #0"):
 *
 *   |  caller's record: | saved r11 | saved lr |
 *   |                                  ^
 *   |  leaf's record:   | saved r11 ---+  <- r11
 *
 * The word at r11 is then the caller's r11, an address in the stack above
 * it, where a full record holds a return address into the code: LR is the
 * caller's return address, and the walk goes on at the caller's record.
 *
 * A Thumb-2 build keeps its frame pointer (r7) at the bottom of each
 * frame's locals, where no walker finds the record: CONFIG_PERFREC_CALLCHAIN
 * is built for ARM state only. The same IRQ-context rules as on AArch64: no
 * printing, no allocation, no gd, nothing read outside the code and the
 * stack it is given; it touches no register and no global.
 */

#ifdef USE_HOSTCC
#include <stdbool.h>
#include <linux/types.h>
#define notrace
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
#else
#include <linux/compiler.h>
#endif
#include "perfrec_unwind_rules.h"

/* A32 encodings (Arm ARM F5) the walker looks at, condition AL */
#define PERFREC_A32_PUSH_FP_LR		0xe92d4800	/* push {..., fp, lr} */
#define PERFREC_A32_PUSH_MASK		0xffff4800	/* stmdb sp!, with fp and lr */
#define PERFREC_A32_ADD_FP_SP		0xe28db000	/* add fp, sp, #n */
#define PERFREC_A32_ADD_FP_SP_MASK	0xfffff000
#define PERFREC_A32_STR_FP		0xe52db004	/* str fp, [sp, #-4]! (push {fp}) */
#define PERFREC_A32_BX_LR		0xe12fff1e	/* bx lr */
#define PERFREC_A32_BL			0xeb000000	/* bl <label> */
#define PERFREC_A32_BL_MASK		0xff000000
#define PERFREC_A32_BL_IMM		0x00ffffff
/* A record: the saved r11 in the word below the saved LR, at r11 */
#define PERFREC_A32_RECORD_LOW		4

/* The target of the bl that a return address @ret follows, or 0 */
static notrace u64 perfrec_unwind_call_target(const struct perfrec_unwind_area *area, u64 ret)
{
	u32 insn = perfrec_unwind_insn(area, ret - 4);
	s32 off;

	if ((insn & PERFREC_A32_BL_MASK) != PERFREC_A32_BL)
		return 0;
	off = (s32)((insn & PERFREC_A32_BL_IMM) << 8) >> 6;	/* imm24 * 4 */

	return ret - 4 + 8 + off;	/* the PC reads 8 ahead */
}

static notrace bool perfrec_unwind_at_edge(u32 insn)
{
	return (insn & PERFREC_A32_PUSH_MASK) == PERFREC_A32_PUSH_FP_LR ||
	       insn == PERFREC_A32_STR_FP ||
	       (insn & PERFREC_A32_ADD_FP_SP_MASK) == PERFREC_A32_ADD_FP_SP ||
	       insn == PERFREC_A32_BX_LR;
}

/* Whether a record at @fp (its two words below and at @fp) lies in the stack, at or above @low */
static inline notrace bool perfrec_unwind_in_stack(const struct perfrec_unwind_area *area,
						   u64 low, u64 fp)
{
	return !(fp & 3) && fp >= low + PERFREC_A32_RECORD_LOW && fp <= area->stack_top - 4;
}

/* The LR saved in the record at @fp, if @fp is a plausible record, else 0 */
static notrace u64 perfrec_unwind_saved_lr(const struct perfrec_unwind_area *area, u64 fp)
{
	if (area->stack_top < 8 || !perfrec_unwind_in_stack(area, area->stack_low, fp))
		return 0;

	return *(const u32 *)(uintptr_t)fp;
}

/*
 * The caller's r11 if @fp points at a leaf's record of r11 alone, else 0:
 * the word at @fp, in the stack, is no return address but a record in the
 * stack above it
 */
static notrace u64 perfrec_unwind_leaf_record(const struct perfrec_unwind_area *area, u64 fp)
{
	u64 caller;

	if (area->stack_top < 8 || (fp & 3) || fp < area->stack_low || fp > area->stack_top - 4)
		return 0;
	caller = *(const u32 *)(uintptr_t)fp;
	if (!perfrec_unwind_in_stack(area, fp + 4, caller))
		return 0;

	return caller;
}

/*
 * Every record must lie in the stack between the interrupted stack pointer
 * and the stack's top, be word aligned and above the one before, and every
 * return address must be in the image's code: anything else ends the
 * chain, so a corrupt or foreign stack is never followed (or faulted on).
 */
unsigned int notrace perfrec_unwind(const struct perfrec_unwind_area *area, u64 pc, u64 fp,
				    u64 lr, u64 *chain, unsigned int max)
{
	u64 low = area->stack_low, caller_fp, val;
	u64 *out = chain, *end = chain + max;

	*out++ = pc;
	/* In a leaf's record of r11 alone, LR is the caller's return address */
	caller_fp = perfrec_unwind_leaf_record(area, fp);
	if (perfrec_unwind_code(area, lr, &val) &&
	    (caller_fp ||
	     perfrec_unwind_lr_is_caller(area, pc, lr, perfrec_unwind_saved_lr(area, fp))))
		*out++ = val;
	if (caller_fp) {
		low = fp + 4;
		fp = caller_fp;
	}
	if (area->stack_top < 8)
		return out - chain;
	while (out < end && perfrec_unwind_in_stack(area, low, fp)) {
		const u32 *record = (const u32 *)(uintptr_t)fp;

		if (!perfrec_unwind_code(area, record[0], &val))
			break;
		*out++ = val;
		low = fp + 4;
		fp = record[-1];
	}

	return out - chain;
}
