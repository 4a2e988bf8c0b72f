/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec_test regs: patterns in every register, kept through sampling
 *
 * void perfrec_test_regs_spin(u64 *out, ulong loops, u64 seed)
 *
 * Fills every general register but x17 (the loop counter), x18 (gd), x29
 * and x30, and all 32 SIMD registers: general register k of the order x0..x15,
 * x19..x28, x16 gets seed + k * 0x0101010101010101, SIMD register n gets
 * { x(n % 16), x((n + 7) % 16) }. Spins @loops times touching only x17, then
 * stores x0..x15, x16, x19..x28, a word of padding and q0..q31 (92 words) to
 * @out. An interrupt that clobbered a register shows in what is stored.
 */

#include <linux/linkage.h>

#define STEP	x16

.macro	fill d, s
	add	x\d, x\s, STEP
.endm

.macro	vset n, a, b
	fmov	d\n, x\a
	mov	v\n\().d[1], x\b
.endm

ENTRY(perfrec_test_regs_spin)
	stp	x29, x30, [sp, #-96]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #-64]!
	stp	d10, d11, [sp, #16]
	stp	d12, d13, [sp, #32]
	stp	d14, d15, [sp, #48]
	stp	x0, x1, [sp, #-16]!		/* out, loops */

	mov	x17, x1
	ldr	STEP, =0x0101010101010101
	mov	x0, x2
	fill	1, 0
	fill	2, 1
	fill	3, 2
	fill	4, 3
	fill	5, 4
	fill	6, 5
	fill	7, 6
	fill	8, 7
	fill	9, 8
	fill	10, 9
	fill	11, 10
	fill	12, 11
	fill	13, 12
	fill	14, 13
	fill	15, 14
	fill	19, 15
	fill	20, 19
	fill	21, 20
	fill	22, 21
	fill	23, 22
	fill	24, 23
	fill	25, 24
	fill	26, 25
	fill	27, 26
	fill	28, 27
	add	x16, x28, STEP
	vset	0, 0, 7
	vset	1, 1, 8
	vset	2, 2, 9
	vset	3, 3, 10
	vset	4, 4, 11
	vset	5, 5, 12
	vset	6, 6, 13
	vset	7, 7, 14
	vset	8, 8, 15
	vset	9, 9, 0
	vset	10, 10, 1
	vset	11, 11, 2
	vset	12, 12, 3
	vset	13, 13, 4
	vset	14, 14, 5
	vset	15, 15, 6
	vset	16, 0, 7
	vset	17, 1, 8
	vset	18, 2, 9
	vset	19, 3, 10
	vset	20, 4, 11
	vset	21, 5, 12
	vset	22, 6, 13
	vset	23, 7, 14
	vset	24, 8, 15
	vset	25, 9, 0
	vset	26, 10, 1
	vset	27, 11, 2
	vset	28, 12, 3
	vset	29, 13, 4
	vset	30, 14, 5
	vset	31, 15, 6

1:	subs	x17, x17, #1
	b.ne	1b

	/* Everything to the stack first (sp is the only free base), then to out */
	sub	sp, sp, #736
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x19, [sp, #128]
	stp	x20, x21, [sp, #144]
	stp	x22, x23, [sp, #160]
	stp	x24, x25, [sp, #176]
	stp	x26, x27, [sp, #192]
	str	x28, [sp, #208]
	stp	q0, q1, [sp, #224]
	stp	q2, q3, [sp, #256]
	stp	q4, q5, [sp, #288]
	stp	q6, q7, [sp, #320]
	stp	q8, q9, [sp, #352]
	stp	q10, q11, [sp, #384]
	stp	q12, q13, [sp, #416]
	stp	q14, q15, [sp, #448]
	stp	q16, q17, [sp, #480]
	stp	q18, q19, [sp, #512]
	stp	q20, q21, [sp, #544]
	stp	q22, q23, [sp, #576]
	stp	q24, q25, [sp, #608]
	stp	q26, q27, [sp, #640]
	stp	q28, q29, [sp, #672]
	stp	q30, q31, [sp, #704]
	ldr	x0, [sp, #736]			/* out */
	mov	x1, sp
	mov	x2, #92
2:	ldr	x3, [x1], #8
	str	x3, [x0], #8
	subs	x2, x2, #1
	b.ne	2b

	add	sp, sp, #752
	ldp	d14, d15, [sp, #48]
	ldp	d12, d13, [sp, #32]
	ldp	d10, d11, [sp, #16]
	ldp	d8, d9, [sp], #64
	ldp	x27, x28, [sp, #80]
	ldp	x25, x26, [sp, #64]
	ldp	x23, x24, [sp, #48]
	ldp	x21, x22, [sp, #32]
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #96
	ret
	.ltorg
ENDPROC(perfrec_test_regs_spin)
