/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's temporary exception vector tables (one per EL), installed only while recording
 *
 * IRQ and FIQ taken at the current EL go to
 * perfrec_irq_handler() with the interrupted PC; current-EL synchronous
 * exceptions and SErrors branch to U-Boot's own entries, so that a crash in
 * the workload still prints U-Boot's register dump. The one exception is a
 * synchronous exception of perfrec_probe_read32()'s load: the load is
 * skipped and the function returns 1, so that a device tree that gives an
 * address where nothing answers costs a message, not a reset (perfrec
 * installs this table around that read too). As U-Boot's own table, ours
 * has the eight entries of the current EL only: nothing runs at a lower EL
 * while perfrec records, and the 1 KiB of lower-EL entries would be padding.
 *
 * The IRQ entry saves only what the C ABI lets the handler clobber (x0-x17
 * and x30; x29 is saved beside x30 as a frame record) and no FP/SIMD state:
 * U-Boot is built with -mgeneral-regs-only. x18 (gd) is neither used nor
 * touched. ELR and SPSR are not saved because the handler cannot take an
 * exception: interrupts stay masked and it makes no calls that could fault.
 * The frame's layout is in perfrec_irq_frame.h, shared with the C side;
 * the first store allocates it and the last load frees it (pre- and
 * post-indexed), so no instruction only moves sp.
 *
 * A boot recording (CONFIG_PERFREC_BOOT) has tables of its own, the same but
 * for the handler they call.
 */

#include <linux/linkage.h>
#include "perfrec_irq_frame.h"

.macro	perfrec_irq_entry el, handler
	stp	x0, x1, [sp, #-PERFREC_IRQ_FRAME_BYTES]!
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x29, x30, [sp, #PERFREC_IRQ_FRAME_FP * 8]
	mrs	x0, elr_el\el
	mov	x1, sp
	bl	\handler
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x29, x30, [sp, #PERFREC_IRQ_FRAME_FP * 8]
	ldp	x0, x1, [sp], #PERFREC_IRQ_FRAME_BYTES
	eret
.endm

/*
 * A synchronous exception: perfrec_probe_read32()'s load is skipped and its
 * fault flag (x2) set; anything else goes to U-Boot's entry at @uboot
 */
.macro	perfrec_sync_entry el, uboot
	stp	x0, x1, [sp, #-16]!
	mrs	x0, elr_el\el
	adr	x1, perfrec_probe_load
	cmp	x0, x1
	b.ne	1f
	add	x0, x0, #4
	msr	elr_el\el, x0
	mov	x2, #1
	ldp	x0, x1, [sp], #16
	eret
1:	ldp	x0, x1, [sp], #16
	b	vectors + \uboot
.endm

.macro	perfrec_vector_table el, table, handler
	.section .text.\table\()\el, "ax"
	.align	11
	.globl	\table\()\el
\table\()\el:
	/* Current EL with SP_EL0 */
	.align	7
	perfrec_sync_entry \el, 0x000
	.align	7
	perfrec_irq_entry \el, \handler
	.align	7
	perfrec_irq_entry \el, \handler
	.align	7
	b	vectors + 0x180

	/* Current EL with SP_ELx */
	.align	7
	perfrec_sync_entry \el, 0x200
	.align	7
	perfrec_irq_entry \el, \handler
	.align	7
	perfrec_irq_entry \el, \handler
	.align	7
	b	vectors + 0x380
.endm

perfrec_vector_table 1, perfrec_vectors_el, perfrec_irq_handler
perfrec_vector_table 2, perfrec_vectors_el, perfrec_irq_handler
perfrec_vector_table 3, perfrec_vectors_el, perfrec_irq_handler

#if CONFIG_IS_ENABLED(PERFREC_BOOT)
/* A boot recording's (perfrec_boot.c): the handler's state is in the boot buffer */
perfrec_vector_table 1, perfrec_boot_vectors_el, perfrec_irq_boot_handler
perfrec_vector_table 2, perfrec_boot_vectors_el, perfrec_irq_boot_handler
perfrec_vector_table 3, perfrec_boot_vectors_el, perfrec_irq_boot_handler
#endif

/* int perfrec_probe_read32(const void __iomem *addr, u32 *valp): 0, or 1 if it aborted */
	.section .text.perfrec_probe_read32, "ax"
ENTRY(perfrec_probe_read32)
	mov	x2, #0
	.globl	perfrec_probe_load
perfrec_probe_load:
	ldr	w3, [x0]
	cbnz	x2, 1f
	str	w3, [x1]
1:	mov	w0, w2
	ret
ENDPROC(perfrec_probe_read32)
