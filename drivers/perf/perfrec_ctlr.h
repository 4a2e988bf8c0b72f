/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's interrupt controllers: the calls a session makes on them
 *
 * Each controller (GICv2, GICv3, the BCM2836 local controller) implements
 * perfrec_ctlr_ops.h; perfrec_ctlr.c picks the one by the version the
 * device tree gives (perfrec_ctlr_find()).
 */

#ifndef __PERFREC_CTLR_H
#define __PERFREC_CTLR_H

#include <linux/types.h>

struct perfrec_dt_ctlr;
struct perfrec_gic;
struct perfrec_snapshot;

/**
 * perfrec_ctlr_find() - Reach an interrupt controller found in the device tree
 * @ctlr: the controller, a device's interrupt parent, with its register
 *	blocks (perfrec_dt_scan())
 * @gic: returns its version and register bases
 *
 * Checks what the node gives, then calls the controller's @find. Each
 * register block is checked against the page tables in use first: what
 * U-Boot's MMU map leaves out is mapped as device memory until
 * perfrec_gic_put(). Its first read is guarded: an abort there is an error.
 * Return: 0 if found, or perfrec_gic_dt_check()'s error (-EINVAL if its
 * "reg" is incomplete, -ENODEV if this CPU is not a BCM2836 core), or the
 * controller's find's (perfrec_gic_find(): @gic->fault names the block);
 * on error nothing stays mapped. The same code is kept in @gic->dt_err.
 */
int perfrec_ctlr_find(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic);

/**
 * perfrec_ctlr_setup() - Take @gic->intid for the session
 * @gic: the controller from perfrec_ctlr_find(), with @intid set
 *
 * Saves what it changes, then, on a GIC: wakes the redistributor (v3),
 * disables every other enabled interrupt (so nothing another firmware left
 * enabled can storm the session), gives the interrupt the highest priority
 * and (where allowed) non-secure group 1, routes an SPI to this CPU with
 * its trigger type, opens the CPU interface and enables it. On the BCM2836
 * local controller: routes the source, and nothing else, to the core's IRQ.
 * Return: 0 on success, -ENODEV if the GICv3 system-register interface is
 * off, -ETIMEDOUT if the redistributor does not wake or a write never
 * takes effect (v3 RWP; @gic->fault names the register); all is given back
 * on error
 */
int perfrec_ctlr_setup(struct perfrec_gic *gic);

/**
 * perfrec_ctlr_restore() - Undo perfrec_ctlr_setup()
 * @gic: the controller given to perfrec_ctlr_setup()
 */
void perfrec_ctlr_restore(struct perfrec_gic *gic);

/**
 * perfrec_ctlr_pending() - Is @gic->intid pending at the controller?
 * @gic: the controller from perfrec_ctlr_find(), with @intid set
 * Return: its pending bit (whether or not it is enabled)
 */
bool perfrec_ctlr_pending(const struct perfrec_gic *gic);

/**
 * perfrec_ctlr_clear_pending() - Clear @gic->intid's pending state
 * @gic: the controller from perfrec_ctlr_find(), with @intid set
 *
 * Where the controller keeps none of its own (the BCM2836's sources are
 * levels), nothing.
 */
void perfrec_ctlr_clear_pending(struct perfrec_gic *gic);

/**
 * perfrec_ctlr_snapshot() - Record every controller register perfrec may change
 * @gic: the controller from perfrec_ctlr_find(), with @intid set
 * @snap: snapshot to add to
 */
void perfrec_ctlr_snapshot(const struct perfrec_gic *gic, struct perfrec_snapshot *snap);

#endif /* __PERFREC_CTLR_H */
