/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: the one call from the PMU driver up into the session
 *
 * Driver model removes the PMU device before an OS boots (DM_FLAG_OS_PREPARE)
 * and offers no other hook: its remove method must reach the session. This is
 * the only place a lower layer of perfrec calls a higher one.
 */

#ifndef __PERFREC_HANDOFF_H
#define __PERFREC_HANDOFF_H

/**
 * perfrec_handoff() - End a recording because an OS is about to start
 *
 * Called when the PMU device is removed before an OS boots: a recording
 * that is still armed is disarmed and finalised in memory, with one line on
 * the console saying where it is. Nothing happens otherwise.
 * Return: 0, or the error perfrec_disarm() returned
 */
int perfrec_handoff(void);

#endif /* __PERFREC_HANDOFF_H */
