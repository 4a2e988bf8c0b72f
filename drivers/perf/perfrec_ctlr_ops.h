/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's interrupt controllers: the interface each implements
 *
 * A controller is what a sampler source's interrupt reaches: a GIC
 * (perfrec_gic.c: GICv2 and GICv3, which share most of their distributor)
 * or the BCM2836 local controller (perfrec_bcm2836_ctlr.c, over the
 * register-level perfrec_bcm2836.c). Each implements struct
 * perfrec_ctlr_ops; perfrec_ctlr.c picks the one that drives a session's
 * interrupt. The IRQ path does not go through it: its acknowledge and EOI
 * are inline (perfrec_gic.h), a constant where the build has one
 * controller.
 */

#ifndef __PERFREC_CTLR_OPS_H
#define __PERFREC_CTLR_OPS_H

#include <linux/types.h>

struct perfrec_dt_ctlr;
struct perfrec_gic;
struct perfrec_snapshot;

/**
 * struct perfrec_ctlr_ops - What an interrupt controller does for a session
 * @find: reach the controller's registers, which the device tree gives
 *	(@gic->version is set; see perfrec_ctlr_find())
 * @setup: take the interrupt for the session, saving what it changes (see
 *	perfrec_ctlr_setup())
 * @restore: undo @setup
 * @pending: whether the interrupt is pending (the probe before arming)
 * @clear_pending: make it not pending
 * @snapshot: add the registers @setup changes
 */
struct perfrec_ctlr_ops {
	int (*find)(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic);
	int (*setup)(struct perfrec_gic *gic);
	void (*restore)(struct perfrec_gic *gic);
	bool (*pending)(const struct perfrec_gic *gic);
	void (*clear_pending)(struct perfrec_gic *gic);
	void (*snapshot)(const struct perfrec_gic *gic, struct perfrec_snapshot *snap);
};

/* The controllers, each in its own file: what perfrec_ctlr.c picks from */
extern const struct perfrec_ctlr_ops perfrec_gic_ctlr;
extern const struct perfrec_ctlr_ops perfrec_bcm2836_ctlr;

#endif /* __PERFREC_CTLR_OPS_H */
