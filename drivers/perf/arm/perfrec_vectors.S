/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's temporary exception vector tables on 32-bit Arm, installed only while recording
 *
 * One for SVC mode (VBAR) and one for Hyp mode (HVBAR).
 *
 * IRQs go to perfrec_irq_handler() with the interrupted PC and the frame
 * perfrec_irq_frame.h describes; every other exception goes on to the
 * entry of the table perfrec replaced (perfrec_vectors_uboot[]). In SVC
 * mode that is U-Boot's own, so that a crash in the workload still prints
 * U-Boot's register dump; in Hyp mode it is whatever HVBAR held, as U-Boot
 * installs no Hyp table of its own: a crash goes where it went without
 * perfrec. The exceptions are a data abort of perfrec_probe_read32()'s load
 * and an undefined instruction in perfrec_probe_pmceid(): the instruction
 * is skipped and the function returns 1, so that a device tree that gives
 * an address where nothing answers costs a message, not a reset, and a
 * core without PMCEID0-3 (QEMU's Armv7 ones) lists no events.
 *
 * In SVC mode an IRQ is taken in IRQ mode, whose stack U-Boot never set up:
 * the entry stores the return state on the SVC stack (srsdb) and goes on
 * in SVC mode, as U-Boot itself runs. The abort, undefined and FIQ modes'
 * stack pointers are only scratch here: U-Boot's entries set them again
 * (get_bad_stack). In Hyp mode every exception is taken in Hyp mode, on
 * the one stack, with the return address in ELR_hyp.
 *
 * The handler cannot take an exception (interrupts stay masked and it makes
 * no call that could fault), so SPSR_hyp and ELR_hyp are not saved.
 */

#include <linux/linkage.h>
#include "perfrec_irq_frame.h"

	.arm
	.arch_extension virt

#define PERFREC_MODE_SVC	0x13

/* On to U-Boot's entry at @off, with sp as the scratch register (not SVC or Hyp mode) */
.macro	perfrec_to_uboot off
	ldr	sp, =perfrec_vectors_uboot
	ldr	pc, [sp, #\off]
.endm

/* On to U-Boot's entry at @off, with every register as it was (SVC or Hyp mode) */
.macro	perfrec_to_uboot_push off
	sub	sp, sp, #4
	push	{r0}
	ldr	r0, =perfrec_vectors_uboot
	ldr	r0, [r0, #\off]
	str	r0, [sp, #4]
	pop	{r0, pc}
.endm

/*
 * A probe's fault (undefined instruction or data abort) in SVC mode: if the
 * faulting instruction (lr less @ahead) lies in [@start, @end), return past
 * it with r2 = 1; else on to U-Boot's entry at @off
 */
.macro	perfrec_svc_probe ahead, off, start, end
	ldr	sp, =\start + \ahead
	cmp	lr, sp
	ldrhs	sp, =\end + \ahead
	cmphs	sp, lr
	bhi	.Lperfrec_svc_skip\@
	perfrec_to_uboot \off
.Lperfrec_svc_skip\@:
	mov	r2, #1
	.if	\ahead != 4
	sub	lr, lr, #(\ahead - 4)
	.endif
	movs	pc, lr
.endm

/* The same in Hyp mode, where ELR_hyp is the faulting instruction's address */
.macro	perfrec_hyp_probe off, start, end
	push	{r0, r1}
	mrs	r0, elr_hyp
	ldr	r1, =\start
	cmp	r0, r1
	ldrhs	r1, =\end
	cmphs	r1, r0
	pop	{r0, r1}
	bhi	.Lperfrec_hyp_skip\@
	perfrec_to_uboot_push \off
.Lperfrec_hyp_skip\@:
	push	{r0}
	mrs	r0, elr_hyp
	add	r0, r0, #4
	msr	elr_hyp, r0
	pop	{r0}
	mov	r2, #1
	eret
.endm

/*
 * perfrec_irq_handler(r0, r1) on a stack 8-byte aligned, as the AAPCS
 * wants at a call: the interrupted code may have left sp 4 off, between a
 * push of an odd number of registers and the room for its locals, and the
 * frame is 40 bytes. r4, saved in the frame, keeps the 4 over the call.
 */
.macro	perfrec_call_aligned
	and	r4, sp, #4
	sub	sp, sp, r4
	bl	perfrec_irq_handler
	add	sp, sp, r4
.endm

	.section .text.perfrec_vectors_svc, "ax"
	.align	5
	.globl	perfrec_vectors_svc
perfrec_vectors_svc:
	b	1f		/* reset */
	b	2f		/* undefined instruction */
	b	3f		/* supervisor call */
	b	4f		/* prefetch abort */
	b	5f		/* data abort */
	b	6f		/* not used */
	b	7f		/* IRQ */
8:	perfrec_to_uboot 0x1c	/* FIQ */
1:	perfrec_to_uboot 0x00
3:	perfrec_to_uboot_push 0x08
4:	perfrec_to_uboot 0x0c
6:	perfrec_to_uboot 0x14
	/* Undefined mode: lr is the instruction's address + 4 */
2:	perfrec_svc_probe 4, 0x04, perfrec_probe_mrc, perfrec_probe_mrc_end
	/* Abort mode: lr is the aborted instruction's address + 8 */
5:	perfrec_svc_probe 8, 0x10, perfrec_probe_load, perfrec_probe_load + 4
	/* IRQ mode: on to SVC mode, with the return state on its stack */
7:	sub	lr, lr, #4
	srsdb	sp!, #PERFREC_MODE_SVC
	cps	#PERFREC_MODE_SVC
	push	{r0-r4, r11, r12, lr}
	ldr	r0, [sp, #PERFREC_IRQ_FRAME_PC * 4]
	mov	r1, sp
	perfrec_call_aligned
	pop	{r0-r4, r11, r12, lr}
	rfeia	sp!
	.ltorg

	.section .text.perfrec_vectors_hyp, "ax"
	.align	5
	.globl	perfrec_vectors_hyp
perfrec_vectors_hyp:
	b	1f		/* reset */
	b	2f		/* undefined instruction */
	b	3f		/* hypervisor call */
	b	4f		/* prefetch abort */
	b	5f		/* data abort */
	b	6f		/* hyp trap */
	b	7f		/* IRQ */
8:	perfrec_to_uboot_push 0x1c	/* FIQ */
1:	perfrec_to_uboot_push 0x00
3:	perfrec_to_uboot_push 0x08
4:	perfrec_to_uboot_push 0x0c
6:	perfrec_to_uboot_push 0x14
	/* ELR_hyp is the undefined or aborted instruction's address */
2:	perfrec_hyp_probe 0x04, perfrec_probe_mrc, perfrec_probe_mrc_end
5:	perfrec_hyp_probe 0x10, perfrec_probe_load, perfrec_probe_load + 4
	/* Two words where SVC mode's entry has its return state */
7:	sub	sp, sp, #8
	push	{r0-r4, r11, r12, lr}
	mrs	r0, elr_hyp
	mov	r1, sp
	perfrec_call_aligned
	pop	{r0-r4, r11, r12, lr}
	add	sp, sp, #8
	eret
	.ltorg

/* int perfrec_probe_read32(const void __iomem *addr, u32 *valp): 0, or 1 if it aborted */
	.section .text.perfrec_probe_read32, "ax"
ENTRY(perfrec_probe_read32)
	mov	r2, #0
	.globl	perfrec_probe_load
perfrec_probe_load:
	ldr	r3, [r0]
	cmp	r2, #0
	streq	r3, [r1]
	mov	r0, r2
	bx	lr
ENDPROC(perfrec_probe_read32)

/*
 * int perfrec_probe_pmceid(uint n, u32 *valp): 0, or 1 if PMCEID<n> (0-3) is
 * undefined. Its four reads are the only instructions between
 * perfrec_probe_mrc and perfrec_probe_mrc_end that can fault.
 */
	.section .text.perfrec_probe_pmceid, "ax"
ENTRY(perfrec_probe_pmceid)
	mov	r2, #0
	cmp	r0, #1
	blo	0f
	beq	1f
	cmp	r0, #2
	beq	2f
	b	3f
	.globl	perfrec_probe_mrc
perfrec_probe_mrc:
0:	mrc	p15, 0, r3, c9, c12, 6		/* PMCEID0 */
	b	4f
1:	mrc	p15, 0, r3, c9, c12, 7		/* PMCEID1 */
	b	4f
2:	mrc	p15, 0, r3, c9, c14, 4		/* PMCEID2 */
	b	4f
3:	mrc	p15, 0, r3, c9, c14, 5		/* PMCEID3 */
	.globl	perfrec_probe_mrc_end
perfrec_probe_mrc_end:
4:	cmp	r2, #0
	streq	r3, [r1]
	mov	r0, r2
	bx	lr
ENDPROC(perfrec_probe_pmceid)
