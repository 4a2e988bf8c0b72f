/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * The GIC distributor's enable bits perfrec sets, by the view it has of the
 * GIC (no hardware: for its unit tests too)
 */

#ifndef __PERFREC_GIC_CTLR_H
#define __PERFREC_GIC_CTLR_H

#include <linux/bitops.h>
#include <linux/types.h>

/* GICD_CTLR, where both groups are ours (v2 without Security Extensions or secure, v3 DS=1) */
#define PERFREC_GICD_CTLR_ENABLE_G0	BIT(0)
#define PERFREC_GICD_CTLR_ENABLE_G1	BIT(1)	/* EnableGrp1 (v2, v3 DS=1), EnableGrp1NS (v3 S) */
/* GICD_CTLR, non-secure view of a GIC with two security states */
#define PERFREC_GICV2_CTLR_NS_ENABLE	BIT(0)	/* v2: Enable, for Group 1 */
#define PERFREC_GICV3_CTLR_NS_ENABLE_G1A BIT(1)	/* v3: EnableGrp1A (affinity routing) */

/**
 * perfrec_gicd_ctlr_enable() - GICD_CTLR's bits that enable the session's interrupt
 *
 * @version: the GIC's architecture version, 2 or 3
 * @may_set_group: the groups are perfrec's to set: no second security
 *	state (v2 without Security Extensions, v3 with DS set), or secure access
 *	(EL3)
 * Return: the bits to set in GICD_CTLR. In the non-secure view of a GIC with
 * two security states the layout differs: a GICv2's only enable bit is bit 0
 * (for Group 1; bit 1 is reserved), a GICv3's non-secure Group 1 is bit 1.
 */
static inline u32 perfrec_gicd_ctlr_enable(uint version, bool may_set_group)
{
	if (may_set_group)
		return PERFREC_GICD_CTLR_ENABLE_G0 | PERFREC_GICD_CTLR_ENABLE_G1;

	return version == 2 ? PERFREC_GICV2_CTLR_NS_ENABLE : PERFREC_GICV3_CTLR_NS_ENABLE_G1A;
}

#endif /* __PERFREC_GIC_CTLR_H */
