// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec snapshots: record and compare the registers perfrec borrows
 *
 * Calls nothing above the register accessors: the PMU, GIC, timer and CPU
 * policy fill a snapshot through perfrec_snap_add(), the session compares
 * two of them.
 */

#include <errno.h>
#include <perfrec_snapshot.h>
#include <stdio.h>
#include <vsprintf.h>
#include <linux/string.h>

void perfrec_snap_add(struct perfrec_snapshot *snap, const char *name, int index, u64 val)
{
	if (snap->count >= PERFREC_SNAPSHOT_MAX)
		return;
	snap->regs[snap->count].name = name;
	snap->regs[snap->count].index = index;
	snap->regs[snap->count].val = val;
	snap->count++;
}

void perfrec_reg_name(const struct perfrec_reg *reg, char *buf, size_t size)
{
	if (reg->index < 0)
		strlcpy(buf, reg->name, size);
	else
		snprintf(buf, size, reg->name, reg->index);
}

int perfrec_snap_compare(const struct perfrec_snapshot *before,
			 const struct perfrec_snapshot *after, struct perfrec_snap_diff *diff)
{
	uint i;

	for (i = 0; i < before->count && i < after->count; i++) {
		const struct perfrec_reg *a = &before->regs[i];
		const struct perfrec_reg *b = &after->regs[i];

		if (a->val == b->val && a->name == b->name && a->index == b->index)
			continue;
		perfrec_reg_name(a, diff->name, sizeof(diff->name));
		diff->before = a->val;
		diff->after = b->val;
		return -EIO;
	}
	if (before->count != after->count) {
		strlcpy(diff->name, "(register set)", sizeof(diff->name));
		diff->before = before->count;
		diff->after = after->count;
		return -EIO;
	}

	return 0;
}
