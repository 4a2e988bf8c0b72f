/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec snapshots: record and compare the registers perfrec borrows
 *
 * The bottom layer of perfrec above the register accessors: the PMU, GIC,
 * timer and CPU policy add their registers to a snapshot, the session
 * compares one taken before arming with one taken after the restore, and
 * the command prints them (perfrec regs).
 */

#ifndef __PERFREC_SNAPSHOT_H
#define __PERFREC_SNAPSHOT_H

#include <linux/types.h>

/* Most registers a snapshot holds */
#define PERFREC_SNAPSHOT_MAX		160

/*
 * A system register's name as the architecture spells it in messages and
 * snapshots: PERFREC_REGNAME_EL0("PMCR") is PMCR_EL0 on AArch64, PMCR on
 * 32-bit Arm (whose cp15 registers have no EL in their names)
 */
#ifdef CONFIG_ARM64
#define PERFREC_REGNAME_EL0(name)	name "_EL0"
#define PERFREC_REGNAME_EL1(name)	name "_EL1"
#define PERFREC_REGNAME_EL3(name)	name "_EL3"
/* Where the CPU says whether it has a PMU, and which */
#define PERFREC_PMU_ID_FIELD		"ID_AA64DFR0_EL1.PMUVer"
#else
#define PERFREC_REGNAME_EL0(name)	name
#define PERFREC_REGNAME_EL1(name)	name
#define PERFREC_REGNAME_EL3(name)	name
#define PERFREC_PMU_ID_FIELD		"ID_DFR0.PerfMon"
#endif

/* Longest printable register name, NUL included ("GICD_ISENABLER31") */
#define PERFREC_REG_NAME_LEN		24

/**
 * struct perfrec_reg - One register in a snapshot
 * @name: Arm ARM / GIC spec name; with a %d where the index goes, if it has one
 * @index: index of a numbered register (GICD_ISENABLER<n>), or -1
 * @val: its value
 */
struct perfrec_reg {
	const char *name;
	int index;
	u64 val;
};

/**
 * struct perfrec_snapshot - Every register perfrec may change, as read now
 * @count: registers in @regs
 * @regs: the registers
 */
struct perfrec_snapshot {
	uint count;
	struct perfrec_reg regs[PERFREC_SNAPSHOT_MAX];
};

/**
 * struct perfrec_snap_diff - The first difference between two snapshots
 * @name: the register's printable name, or "(register set)" when the two
 *	snapshots hold different numbers of registers
 * @before: its value in the first snapshot (or the first's register count)
 * @after: its value in the second (or the second's register count)
 */
struct perfrec_snap_diff {
	char name[PERFREC_REG_NAME_LEN];
	u64 before;
	u64 after;
};

/**
 * perfrec_reg_name() - The printable name of a snapshot register
 * @reg: the register
 * @buf: returns the name, with its index if it has one ("PMEVTYPER2_EL0")
 * @size: size of @buf
 */
void perfrec_reg_name(const struct perfrec_reg *reg, char *buf, size_t size);

/**
 * perfrec_snap_add() - Add one register to a snapshot (silently full at the limit)
 * @snap: snapshot
 * @name: register name
 * @index: register index, or -1
 * @val: value
 */
void perfrec_snap_add(struct perfrec_snapshot *snap, const char *name, int index, u64 val);

/**
 * perfrec_snap_compare() - Compare two snapshots register by register
 * @before: the snapshot taken first
 * @after: the one taken later
 * @diff: returns the first difference, if there is one
 * Return: 0 if both hold the same registers with the same values, -EIO if not
 */
int perfrec_snap_compare(const struct perfrec_snapshot *before,
			 const struct perfrec_snapshot *after, struct perfrec_snap_diff *diff);

#endif /* __PERFREC_SNAPSHOT_H */
