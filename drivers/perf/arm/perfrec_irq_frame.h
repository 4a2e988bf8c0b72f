/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * The register frame perfrec's IRQ entry saves: shared by perfrec_vectors.S and the C side
 *
 * The entry (perfrec_vectors.S) saves what the C ABI lets the handler
 * clobber, r0-r3, r12 and lr, with r4 (which keeps the 4 bytes by which
 * the entry realigns sp to 8 for the call when the interrupted code left it
 * 4 off) and r11 for the walker, and passes the frame's address to the
 * handler. In
 * SVC mode the return address and SPSR come first (srsdb), in Hyp mode two
 * unused words: the interrupted sp is regs + PERFREC_IRQ_FRAME_BYTES in
 * both.
 *
 *   regs + 0    | r0 | r1 | r2 | r3 | r4 |
 *   regs + 20   | r11 | r12 | lr |          the frame pointer and the LR
 *   regs + 32   | return address | SPSR |   (SVC; unused in Hyp)
 *   regs + 40                                the interrupted sp
 *
 * C reads the frame as ulong regs[]: the indices count 32-bit words.
 */

#ifndef __PERFREC_IRQ_FRAME_H
#define __PERFREC_IRQ_FRAME_H

/* Where r11 (the frame pointer in ARM state) and lr are */
#define PERFREC_IRQ_FRAME_FP		5
#define PERFREC_IRQ_FRAME_LR		7
/* Where SVC mode's srsdb put the return address */
#define PERFREC_IRQ_FRAME_PC		8
#define PERFREC_IRQ_FRAME_BYTES		40

#ifndef __ASSEMBLY__
_Static_assert(PERFREC_IRQ_FRAME_BYTES == (PERFREC_IRQ_FRAME_PC + 2) * 4,
	       "the frame ends after the SPSR");
_Static_assert(PERFREC_IRQ_FRAME_BYTES % 8 == 0, "sp keeps its 8-byte alignment");
#endif

#endif /* __PERFREC_IRQ_FRAME_H */
