/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * The register frame perfrec's IRQ entry saves: shared by perfrec_vectors.S and the C side
 *
 * The entry (perfrec_vectors.S) saves what the C ABI lets the handler
 * clobber, x0-x17 and x30, with x29 beside x30 as a frame record, and passes
 * the frame's address to perfrec_irq_handler():
 *
 *   regs + 0    +-----------+-----------+
 *               | x0        | x1        |
 *               | ...       | ...       |   x0-x17: 18 words
 *   regs + 128  | x16       | x17       |
 *   regs + 144  | x29       | x30       |   the interrupted frame pointer and LR
 *   regs + 160  +-----------+-----------+   the interrupted stack pointer
 *
 * C reads the frame as u64 regs[]: the indices count 64-bit words.
 */

#ifndef __PERFREC_IRQ_FRAME_H
#define __PERFREC_IRQ_FRAME_H

/* Where x29 (the frame pointer) and x30 (the LR) are, in words (one stp pair) */
#define PERFREC_IRQ_FRAME_FP		18
#define PERFREC_IRQ_FRAME_LR		19
/* The frame's size in bytes: 16-byte aligned, as sp must stay */
#define PERFREC_IRQ_FRAME_BYTES		160

#ifndef __ASSEMBLY__
_Static_assert(PERFREC_IRQ_FRAME_BYTES == (PERFREC_IRQ_FRAME_LR + 1) * 8,
	       "the frame ends after x30");
_Static_assert(PERFREC_IRQ_FRAME_BYTES % 16 == 0, "sp stays 16-byte aligned");
#endif

#endif /* __PERFREC_IRQ_FRAME_H */
