/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: public API of the sampling profiler, for the command and tests
 */

#ifndef __PERFREC_H
#define __PERFREC_H

#include <perf_data.h>
#include <linux/types.h>

/* Highest sampling frequency perfrec accepts (-F), in Hz */
#define PERFREC_MAX_FREQ_HZ		100000
/* perf's default sampling frequency */
#define PERFREC_DEFAULT_FREQ_HZ		4000

/**
 * enum perfrec_state - Where the session is
 * @PERFREC_IDLE: nothing recorded since boot
 * @PERFREC_ARMED: sampling; the hardware is borrowed
 * @PERFREC_FINALISED: a complete perf.data is in the buffer
 */
enum perfrec_state {
	PERFREC_IDLE,
	PERFREC_ARMED,
	PERFREC_FINALISED,
};

/**
 * struct perfrec_event_cfg - One event to sample
 * @name: perf's name for it ("cycles")
 * @type: PERF_DATA_TYPE_... in the perf.data attr
 * @config: event number within @type
 * @period: events per sample; 0 with @freq_hz
 * @freq_hz: frequency mode: wanted samples per second; 0 with @period
 */
struct perfrec_event_cfg {
	const char *name;
	u32 type;
	u64 config;
	u64 period;
	u32 freq_hz;
};

/**
 * struct perfrec_cfg - What one recording does
 * @nr_events: events in @events
 * @events: the events; each gets its own counter
 * @buf: output buffer (already mapped)
 * @buf_addr: its bus address, as shown to the user
 * @buf_size: its size in bytes
 * @argc: words of the recording command, for the perf.data header
 * @argv: the words; must stay valid until perfrec_disarm() returns
 */
struct perfrec_cfg {
	uint nr_events;
	struct perfrec_event_cfg events[PERF_DATA_MAX_EVENTS];
	void *buf;
	ulong buf_addr;
	ulong buf_size;
	int argc;
	const char *const *argv;
};

/**
 * struct perfrec_result - What the last (or current) recording produced
 * @state: session state
 * @addr: buffer address
 * @size: bytes of perf.data once finalised, else the buffer size
 * @samples: samples stored
 * @lost: samples dropped because the buffer was full
 * @spurious: interrupts that carried no overflow
 * @foreign: interrupts that were not the PMU's
 * @late: overflows handled only after another whole period had passed
 * @nr_events: events recorded
 * @name: each event's name
 * @count: each event's total count over the recording
 * @period: each event's last period
 * @restore_err: 0, or -EIO if a register differed after the restore
 * @mismatch: the first register that differed, e.g. "VBAR_EL2"
 * @before: its value before the recording
 * @after: its value after the restore
 */
struct perfrec_result {
	enum perfrec_state state;
	ulong addr;
	ulong size;
	u64 samples;
	u64 lost;
	u64 spurious;
	u64 foreign;
	u64 late;
	uint nr_events;
	const char *name[PERF_DATA_MAX_EVENTS];
	u64 count[PERF_DATA_MAX_EVENTS];
	u64 period[PERF_DATA_MAX_EVENTS];
	int restore_err;
	char mismatch[24];
	u64 before;
	u64 after;
};

/* Most registers a snapshot holds */
#define PERFREC_SNAPSHOT_MAX		128

/**
 * struct perfrec_reg - One register in a snapshot
 * @name: Arm ARM / GIC spec name, without the index
 * @index: index of a banked or numbered register (GICD_ISENABLER<n>), or -1
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
 * perfrec_event_lookup() - Resolve an event name for this CPU
 * @name: perf's name ("cycles")
 * @ev: returns @name, type and config (period and frequency untouched)
 * Return: 0 if found, -ENOENT for an unknown name, -ENODEV if there is no PMUv3
 */
int perfrec_event_lookup(const char *name, struct perfrec_event_cfg *ev);

/**
 * perfrec_arm() - Program the counters and start taking samples
 * @cfg: events, periods and buffer; copied, except @cfg->argv
 *
 * Writes the head of a perf.data into the buffer, snapshots every register it
 * will change, takes the PMU interrupt through the GIC and a temporary vector
 * table, and starts the counters.
 * Return: 0 when sampling, -EBUSY if a session is active, -EINVAL for a bad
 * @cfg, -ENODEV if the CPU has no PMUv3, -ENOENT if the device tree has no PMU
 * node, -ENXIO if the PMU node has no usable interrupt, -EPROTONOSUPPORT if
 * its interrupt controller is not a GICv2/v3 or the interrupt is not a PPI,
 * -ENOSPC if the buffer cannot hold the header and one sample, -ENOEXEC if the
 * build did not record the image's ELF offset, -ETIMEDOUT if the GIC does not
 * respond. On error nothing is armed and nothing outside the buffer changed.
 */
int perfrec_arm(const struct perfrec_cfg *cfg);

/**
 * perfrec_disarm() - Stop sampling, restore the hardware, finalise the perf.data
 *
 * The exact reverse of perfrec_arm(), then a check of every register against
 * the snapshot taken before arming.
 * Return: 0 on success, -EALREADY if no session is armed, -EIO if a register
 * differs from its snapshot (the perf.data is still complete)
 */
int perfrec_disarm(void);

/**
 * perfrec_get_result() - Report the last or current recording
 * @res: returns the figures
 */
void perfrec_get_result(struct perfrec_result *res);

/**
 * perfrec_snapshot() - Read every register perfrec may change
 * @snap: returns the registers; the GIC ones only if the device tree names
 *	a usable PMU interrupt and GIC
 */
void perfrec_snapshot(struct perfrec_snapshot *snap);

/**
 * perfrec_snap_add() - Add one register to a snapshot (silently full at the limit)
 * @snap: snapshot
 * @name: register name
 * @index: register index, or -1
 * @val: value
 */
void perfrec_snap_add(struct perfrec_snapshot *snap, const char *name, int index, u64 val);

#endif /* __PERFREC_H */
