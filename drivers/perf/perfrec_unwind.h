/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's call-graph walker over frame records (IRQ context; builds for the host too)
 */

#ifndef __PERFREC_UNWIND_H
#define __PERFREC_UNWIND_H

#ifdef USE_HOSTCC
#include <stdbool.h>
#endif
#include <linux/types.h>

/**
 * struct perfrec_unwind_area - Where the walker may read
 *
 * Instructions are read only inside [@text_start, @text_end) and frame
 * records only inside [@stack_low, @stack_top): nothing else is ever read,
 * so a corrupt or foreign stack cannot fault.
 *
 * @text_start: address of the image's first instruction
 * @text_end: address of the first byte after its code
 * @alt_start: a second place of the code (the relocated image, while a boot
 *	recording goes through relocation), or 0
 * @alt_end: the first byte after it, or 0
 * @stack_low: lowest address a frame record may lie at (the interrupted sp)
 * @stack_top: the stack's upper end (U-Boot's initial stack pointer), or 0 when
 *	the interrupted sp is on no stack perfrec knows: then no record is read
 * @offsets: the chain holds each return address as its offset from the
 *	start of the place it lies in (@text_start or @alt_start), not the
 *	address itself: a boot recording's, whose image moves
 */
struct perfrec_unwind_area {
	__u64 text_start;
	__u64 text_end;
	__u64 alt_start;
	__u64 alt_end;
	__u64 stack_low;
	__u64 stack_top;
	bool offsets;
};

/**
 * perfrec_unwind() - Walk the call chain of an interrupted function
 * @area: where code and stack are
 * @pc: the interrupted PC
 * @fp: the interrupted x29 (r11 on 32-bit Arm)
 * @lr: the interrupted x30 (lr)
 * @chain: returns @pc, then the return addresses, innermost first (as
 *	offsets with @area->offsets; @pc always as it is)
 * @max: room in @chain, at least 2 (the PC and @lr)
 *
 * Follows the frame records (x29 -> {saved x29, saved x30}) from @fp, and
 * adds @lr when the interrupted function's own record is not (yet, or any
 * more) in place: in its prologue, epilogue, or a leaf without a record.
 * (On 32-bit Arm: r11 -> {saved r11 below, saved lr}, word aligned; in a
 * leaf that GCC built at other levels than -Os, r11 -> {saved r11} alone,
 * @lr then being the return address; drivers/perf/arm/perfrec_unwind.c.)
 * Every record must lie in the stack, aligned (16 bytes on AArch64, 4 on
 * 32-bit Arm) and above the one before, and every return address in the
 * code: anything else ends the chain. IRQ-safe: no calls, no globals,
 * nothing written outside @chain.
 *
 * Return: entries written to @chain, 1..@max
 */
unsigned int perfrec_unwind(const struct perfrec_unwind_area *area, __u64 pc, __u64 fp,
			    __u64 lr, __u64 *chain, unsigned int max);

#endif /* __PERFREC_UNWIND_H */
