/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * What perfrec's call-graph walkers share: where the code is, and the rule
 * for the link register (IRQ context; builds for the host too)
 *
 * Included by the walker of each architecture (drivers/perf/arm64/ and
 * drivers/perf/arm/perfrec_unwind.c) only, which defines the two functions
 * declared here for its instruction set.
 */

#ifndef __PERFREC_UNWIND_RULES_H
#define __PERFREC_UNWIND_RULES_H

#ifdef USE_HOSTCC
#include <stdint.h>
#endif
#include "perfrec_unwind.h"

/*
 * Whether the instruction @insn, interrupted, leaves the link register as
 * the caller's return address whatever the frame record says: the store of
 * the frame pointer and link register (or, in a 32-bit Arm leaf, of the
 * frame pointer alone), the instruction that sets the frame pointer, or
 * the return
 */
static notrace bool perfrec_unwind_at_edge(u32 insn);

/* The target of the call instruction that a return address @ret follows, or 0 */
static notrace u64 perfrec_unwind_call_target(const struct perfrec_unwind_area *area, u64 ret);

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

/* The instruction at @addr if it is in the code, else 0 */
static __always_inline notrace u32 perfrec_unwind_insn(const struct perfrec_unwind_area *area,
						       u64 addr)
{
	u64 val;

	return perfrec_unwind_code(area, addr, &val) ? *(const u32 *)(uintptr_t)addr : 0;
}

/*
 * The rule for the link register. The interrupted function's own frame
 * record is either in place (the frame pointer points at it, its saved LR
 * returns into the caller, and LR holds nothing useful: a return address
 * into the function itself after a call, or the same LR) or not yet / no
 * longer in place (prologue before the frame pointer is set, epilogue after
 * it is restored: the frame pointer still points at the caller's record,
 * and LR is the return address into the caller, which the chain needs as
 * its second entry). LR counts as the caller's return address when:
 *  - the interrupted instruction is at an edge (perfrec_unwind_at_edge());
 *    or
 *  - LR differs from the record's saved LR and lies outside [entry, pc] of
 *    the function the call before LR entered, and that call entered the
 *    function holding the PC more closely than the call before the record's
 *    saved LR did: the entry it called is at or below the PC and above the
 *    other entry (or the other is unknown or above the PC).
 * Calls through a register leave the entry unknown: then only the first
 * test applies. Every function must keep a frame record
 * (CONFIG_PERFREC_FRAME_POINTERS) for the chain to skip no caller.
 */
static notrace bool perfrec_unwind_lr_is_caller(const struct perfrec_unwind_area *area, u64 pc,
						u64 lr, u64 saved_lr)
{
	u64 entry_lr, entry_saved;

	if (perfrec_unwind_at_edge(perfrec_unwind_insn(area, pc)))
		return true;
	if (lr == saved_lr)
		return false;
	entry_lr = perfrec_unwind_call_target(area, lr);
	if (!entry_lr || entry_lr > pc || (lr >= entry_lr && lr <= pc))
		return false;
	entry_saved = perfrec_unwind_call_target(area, saved_lr);

	return !entry_saved || entry_saved > pc || entry_saved < entry_lr;
}

#endif /* __PERFREC_UNWIND_RULES_H */
