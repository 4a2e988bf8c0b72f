/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec session state, shared with the layer above it (the stream reader)
 */

#ifndef __PERFREC_SESSION_H
#define __PERFREC_SESSION_H

#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_dt.h>
#include <perfrec_hw.h>
#include <perfrec_snapshot.h>
#include <linux/types.h>
#include "perfrec_info.h"

/**
 * struct perfrec_session - The one session U-Boot can have
 * @state: where it is
 * @st: the IRQ handler's state: perfrec_irq, or before relocation (a boot
 *	recording, @boot) the one in the boot buffer
 * @boot: a boot recording before relocation: no driver model, no perf.data
 *	head yet; the ring is the whole of @cfg.buf
 * @cfg: its configuration
 * @hw: the hardware it borrows: the tree's facts, the interrupt and its
 *	controller, the CPU's state, the counters, the snapshot before arming
 * @irq: what the session's arming found of its interrupt
 * @fell_back: how many of @cfg.fallback it went through
 * @fallback_why: why the first source's interrupt could not be used, if
 *	it fell back
 * @facts: what the perf.data states (events, image, machine, command line)
 * @writer: perf.data output
 * @layout: where samples go in it
 * @size: bytes of the finalised perf.data
 * @failed_event: the event a failed perfrec_arm() is about, or -1
 * @failed_irq: what the last failed perfrec_arm() found of its interrupt
 *	(@irq stays the session's: the one a status describes)
 * @restore_err: result of the state check at disarm
 * @mismatch: first register that differed, with its values before and after
 * @streamed: samples were taken out of the ring while recording
 * @stream_seq: number of the next stream chunk
 * @stream_done: the stream's last chunk was taken
 * @first_ns: time of the first sample
 * @last_ns: time of the last sample (both as the samples leave the ring)
 * @times_ns: the ring's samples hold ns, made so as the recording ended
 *	(else the clock's ticks the handler stored, until they leave the ring)
 * @phases: a boot recording: each boot phase is a thread of its own
 *	(perfrec_session_phase())
 * @nr_phases: threads started so far
 * @kept_addr: the recording's buffer, kept out of lmb's allocations
 *	(perfrec_lmb_keep()) until the next recording
 * @kept_size: and its size, 0 if lmb did not keep it
 * @kept: lmb holds it now (perfrec_release_buffer() gave it back if not)
 */
struct perfrec_session {
	enum perfrec_state state;
	struct perfrec_irq *st;
	bool boot;
	struct perfrec_cfg cfg;
	struct perfrec_hw hw;
	struct perfrec_irq_report irq;
	uint fell_back;
	struct perfrec_irq_report fallback_why;
	struct perfrec_facts facts;
	struct perf_data_writer writer;
	struct perf_data_layout layout;
	size_t size;
	int failed_event;
	struct perfrec_irq_report failed_irq;
	int restore_err;
	struct perfrec_snap_diff mismatch;
	bool streamed;
	uint stream_seq;
	bool stream_done;
	u64 first_ns;
	u64 last_ns;
	bool times_ns;
	bool phases;
	uint nr_phases;
	ulong kept_addr;
	ulong kept_size;
	bool kept;
};

extern struct perfrec_session perfrec_session;

/**
 * perfrec_session_pmu_node() - The node a session's PMU device binds to
 * @s: the session, armed or being armed
 * Return: the PMU's node when its interrupt drives the session, else
 * ofnode_null() (the device is bound with no node)
 */
static inline ofnode perfrec_session_pmu_node(struct perfrec_session *s)
{
	return s->cfg.source == PERFREC_SRC_PMU ? perfrec_hw_dt(&s->hw)->pmu.node : ofnode_null();
}

/**
 * perfrec_record_ok() - Whether a record read back from a ring can be walked
 * @h: its header
 * @left: bytes from its start to the end of what was written
 *
 * Only perfrec writes the ring, but it may lie where a later command loads
 * (a buffer given with -o): a size that is not a whole number of words, or
 * runs past @left, or is too small for its type, is not perfrec's, and ends
 * a walk (a size of 0 would walk for ever).
 *
 * Return: true if the record is whole and may be stepped over by @h->size
 */
static inline bool perfrec_record_ok(const struct perf_data_event_header *h, u64 left)
{
	return h->size >= sizeof(*h) && !(h->size % sizeof(u64)) && h->size <= left &&
	       (h->type != PERF_DATA_RECORD_SAMPLE || h->size >= sizeof(struct perf_data_sample));
}

/**
 * perfrec_sample_time_ns() - A sample's time, as written out: in ns
 * @s: the session, whose clock the sample's ticks are of: its @first_ns
 *	(if 0) and @last_ns become the sample's time
 * @rec: the sample (struct perf_data_sample), whose time holds ticks
 *
 * The handler stores the clock's ticks (perfrec_hw_ticks_ns()); each
 * sample is made ns once, in order, as it leaves the ring or as the
 * recording ends.
 */
void perfrec_sample_time_ns(struct perfrec_session *s, u8 *rec);

/**
 * perfrec_session_arm() - perfrec_arm() for a given session and IRQ state
 * @s: the session, with @s->st and @s->boot set
 * @cfg: what to record
 * Return: as perfrec_arm()
 */
int perfrec_session_arm(struct perfrec_session *s, const struct perfrec_cfg *cfg);

/**
 * perfrec_session_disarm() - perfrec_disarm() for a given session
 * @s: the session
 * Return: as perfrec_disarm()
 */
int perfrec_session_disarm(struct perfrec_session *s);

/**
 * perfrec_probe_device() - Probe the PMU node's device, so that its removal disarms
 * @node: the PMU node, or ofnode_null() to bind the device with none
 * Return: 0, or driver model's error
 */
int perfrec_probe_device(ofnode node);

/**
 * perfrec_keep_buffer() - Keep a recording's buffer out of lmb until the next one
 * @s: the session
 * @cfg: the recording's configuration (stat keeps nothing)
 * Return: whether it is kept (2024.10 on: lmb's reservations last)
 */
bool perfrec_keep_buffer(struct perfrec_session *s, const struct perfrec_cfg *cfg);

/* The boot recording's way into the session (perfrec_adopt.c) */

/**
 * perfrec_session_relocated() - A boot recording's session, once U-Boot has relocated
 * @boot: the boot recording's session, armed before relocation
 * @vbar: U-Boot's relocated vectors, to be given back at the end
 *
 * From here on any end of the recording (adopted or dropped) gives back
 * @vbar, and its check expects it: before, both were the vectors U-Boot
 * had before relocation. The IRQ handler reads none of it.
 */
void perfrec_session_relocated(struct perfrec_session *boot, u64 vbar);

/**
 * perfrec_session_adopt() - Make a boot recording U-Boot's session, after relocation
 * @boot: the boot recording's session, armed before relocation, relocated
 *	(perfrec_session_relocated())
 * @buf: the recording's buffer from now on
 * @addr: its address
 * @size: its size
 * @takenp: returns how many samples the boot recording took
 * @copiedp: returns how many of them fitted into @buf
 *
 * Writes the perf.data's head into @buf, copies the boot samples after it
 * (their image offsets become run-time addresses) and goes on with
 * perfrec_irq and perfrec's relocated vectors. On failure the boot
 * recording is disarmed.
 * Return: 0, perf_data_begin()'s error (-ENOSPC), or the PMU device's
 * (perfrec_probe_device()): then the adopted recording is disarmed, as
 * nothing would end it before an OS
 */
int perfrec_session_adopt(struct perfrec_session *boot, void *buf, ulong addr, ulong size,
			  u64 *takenp, u64 *copiedp);

/* Most boot phases a recording names: more are left in the last one */
#define PERFREC_MAX_PHASES		16

/**
 * perfrec_session_phase() - Start a boot phase: from now on samples are a new thread's
 * @s: the session (armed, with @s->phases)
 * @name: the phase's name, the thread's (perf keeps 15 bytes)
 * @time: when it started (perfrec_irq_now_ns())
 *
 * Writes PERF_RECORD_FORK and PERF_RECORD_COMM into the ring, then gives
 * the IRQ handler the new thread id. Any context.
 */
void perfrec_session_phase(struct perfrec_session *s, const char *name, u64 time);

/**
 * perfrec_session_stats() - The statistics the end of a perf.data states
 * @stats: returns lost samples and the first and last sample's time
 */
void perfrec_session_stats(struct perf_data_stats *stats);

#endif /* __PERFREC_SESSION_H */
