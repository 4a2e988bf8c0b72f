/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * What perfrec_vectors.S gives C: its vector tables and its guarded read.
 * A leaf: the CPU code that installs the tables needs nothing of the IRQ
 * path they enter.
 */

#ifndef __PERFREC_VECTORS_H
#define __PERFREC_VECTORS_H

#include <linux/compiler.h>
#include <linux/types.h>

/* The vector tables of perfrec_vectors.S: SVC mode's (VBAR) and Hyp mode's (HVBAR) */
extern char perfrec_vectors_svc[], perfrec_vectors_hyp[];

/*
 * Read the 32-bit register at @addr into *@valp; 0, or 1 if the read took
 * a synchronous exception (with perfrec's vectors installed:
 * perfrec_cpu_read_probe())
 */
int perfrec_probe_read32(const void __iomem *addr, u32 *valp);

/*
 * Read PMCEID<@n> (0 to 3) into *@valp; 0, or 1 if the read was an
 * undefined instruction (with perfrec's vectors installed)
 */
int perfrec_probe_pmceid(uint n, u32 *valp);

#endif /* __PERFREC_VECTORS_H */
