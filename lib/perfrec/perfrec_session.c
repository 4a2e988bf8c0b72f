// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec session: arm, disarm and finalise one recording; borrow and return the hardware
 *
 * States: idle -> armed (perfrec_arm) -> finalised (perfrec_disarm) -> armed ...
 * Everything the session changes is snapshotted before arming and compared
 * after the restore; a difference fails the recording with the register's
 * name. Headers and features of the perf.data are written here, in command
 * context; the IRQ handler (perfrec_irq.c) only appends samples.
 *
 * perfrec_arm() is a list of steps, each a call into the file that owns the
 * job: perfrec_info.c for the perf.data's facts, and for the hardware
 * drivers/perf/perfrec_hw.c's three (find, claim, start); perfrec_disarm()
 * takes them back in the reverse order. A boot recording becomes the
 * session in perfrec_adopt.c.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <dm.h>
#include <errno.h>
#include <log.h>
#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_compat.h>
#include <perfrec_hw.h>
#include <perfrec_snapshot.h>
#include <stdio.h>
#include <time.h>
#include <asm/global_data.h>
#include <asm/system.h>
#include <dm/device-internal.h>
#include <dm/lists.h>
#include <dm/ofnode.h>
#include <dm/root.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_info.h"
#include "perfrec_session.h"

DECLARE_GLOBAL_DATA_PTR;

struct perfrec_session perfrec_session;

/*
 * Probe the PMU device, so that its removal before an OS boots disarms. A
 * PMU node added after boot is bound now; without one (cpu-clock on a board
 * whose device tree lacks it) the device is bound with no node.
 */
int perfrec_probe_device(ofnode node)
{
	struct udevice *dev;
	int ret;

	ret = uclass_get_device_by_driver(UCLASS_NOP, DM_DRIVER_GET(pmuv3), &dev);
	if (ret != -ENODEV)
		return ret;
	if (ofnode_valid(node))
		ret = device_bind_driver_to_node(dm_root(), "pmuv3", ofnode_get_name(node), node,
						 &dev);
	else
		ret = device_bind_driver(dm_root(), "pmuv3", "perfrec", &dev);
	if (ret)
		return ret;

	return device_probe(dev);
}

static int perfrec_check_cfg(const struct perfrec_cfg *cfg)
{
	uint i;

	if (!cfg->nr_events || cfg->nr_events > PERF_DATA_MAX_EVENTS || cfg->jitter_pct >= 100 ||
	    cfg->nr_fallback > PERFREC_MAX_FALLBACK)
		return -EINVAL;
	for (i = 0; i < cfg->nr_events; i++) {
		const struct perfrec_event_cfg *ec = &cfg->events[i];

		if (cfg->mode == PERFREC_STAT)
			continue;
		/* cpu-clock samples on the timer alone, at a steady period */
		if (ec->timer && (cfg->source != PERFREC_SRC_TIMER || cfg->nr_events != 1 ||
				  cfg->jitter_pct))
			return -EINVAL;
		if (!ec->timer && cfg->source == PERFREC_SRC_TIMER)
			return -EINVAL;
		if (!ec->period == !ec->freq_hz || ec->freq_hz > PERFREC_MAX_FREQ_HZ ||
		    ec->period > (u64)S64_MAX)
			return -EINVAL;
	}
	if (cfg->mode == PERFREC_RECORD && (!cfg->buf || (ulong)cfg->buf % sizeof(u64)))
		return -EINVAL;

	return 0;
}

/* Check @cfg and find what it needs: the PMU, the interrupt, the image's facts */
static int perfrec_prepare(struct perfrec_session *s, const struct perfrec_cfg *cfg)
{
	int ret;

	s->failed_event = -1;
	memset(&s->irq, 0, sizeof(s->irq));
	s->irq.source = cfg->source;
	ret = perfrec_check_cfg(cfg);
	if (ret)
		return log_msg_ret("cfg", ret);
	/*
	 * The boot recording walked the tree before it knew its buffer good;
	 * a fallback tries another source found by the same walk
	 */
	ret = perfrec_hw_find(&s->hw, cfg, !s->boot && !s->fell_back, &s->irq);
	if (ret)
		return ret;
	ret = perfrec_info_check_image();
	if (ret)
		return log_msg_ret("pgoff", ret);
	if (cfg->callchain && !IS_ENABLED(CONFIG_PERFREC_CALLCHAIN))
		return log_msg_ret("chain", -EOPNOTSUPP);
	/* Before relocation there is no driver model: perfrec_adopt() probes it */
	if (!s->boot) {
		ret = perfrec_probe_device(perfrec_session_pmu_node(s));
		if (ret)
			return log_msg_ret("dev", ret);
	}

	return 0;
}

/* Recording: write the perf.data's head and point the ring at the room after it */
static int perfrec_begin_data(struct perfrec_session *s)
{
	struct perfrec_irq *st = s->st;
	int ret;

	if (s->cfg.mode != PERFREC_RECORD)
		return 0;
	s->facts.info.start_time = perfrec_hw_now_ns(st);
	if (s->boot) {
		/* The head is written when the recording is adopted after relocation */
		perfrec_ring_init(&st->ring, s->cfg.buf, s->cfg.buf_size);
		return 0;
	}
	ret = perf_data_begin(&s->writer, s->cfg.buf, s->cfg.buf_size, &s->facts.info,
			      &s->layout);
	if (ret)
		return ret;
	perfrec_ring_init(&st->ring, s->cfg.buf + s->layout.ring_offset, s->layout.ring_bytes);

	return 0;
}

/* Arm with @s->cfg as it is */
static int perfrec_session_try(struct perfrec_session *s)
{
	int ret;

	ret = perfrec_prepare(s, &s->cfg);
	if (ret)
		goto err;

	perfrec_info_fill(&s->facts, &s->cfg, perfrec_hw_dt(&s->hw));
	ret = perfrec_hw_claim(&s->hw, s->st, &s->cfg, s->facts.events, perfrec_info_text_bytes(),
			       s->boot, &s->irq);
	s->failed_event = perfrec_hw_failed_event(&s->hw);
	if (ret)
		goto err;
	/* Last of what may fail: the buffer is written only when all else is ready */
	ret = perfrec_begin_data(s);
	if (ret) {
		perfrec_hw_release(&s->hw, s->cfg.source);
		ret = log_msg_ret("head", ret);
		goto err;
	}
	perfrec_hw_start(&s->hw, s->st, &s->cfg, s->boot);

	s->state = PERFREC_ARMED;
	s->restore_err = 0;
	s->streamed = false;
	s->stream_seq = 0;
	s->stream_done = false;
	s->first_ns = 0;
	s->last_ns = 0;
	s->times_ns = false;
	if (s->cfg.source != PERFREC_SRC_NONE)
		perfrec_hw_unmask(&s->hw);

	return 0;

err:
	/* What the controller's blocks borrowed of the page tables (nothing if not found) */
	perfrec_hw_put(&s->hw);

	return ret;
}

/* Take @cfg's next fallback: its source, and for a recording on the timer, cpu-clock */
static void perfrec_fall_back(struct perfrec_cfg *cfg, uint step)
{
	cfg->source = cfg->fallback[step];
	if (cfg->mode == PERFREC_RECORD && cfg->source == PERFREC_SRC_TIMER) {
		cfg->nr_events = 1;
		cfg->events[0] = cfg->clock;
	}
}

/* The PMU's counters stand still: no interrupt of another source makes them count */
static bool perfrec_counters_still(const struct perfrec_irq_report *irq)
{
	return irq->fault == PERFREC_IRQ_STILL || irq->fault == PERFREC_IRQ_STILL_EVENTS;
}

int perfrec_session_arm(struct perfrec_session *s, const struct perfrec_cfg *cfg)
{
	int ret;

	if (s->state == PERFREC_ARMED)
		return -EBUSY;
	s->cfg = *cfg;
	s->fell_back = 0;
	for (;;) {
		ret = perfrec_session_try(s);
		/*
		 * Only a missing or silent interrupt leaves another source to
		 * try; counters that stand still leave a recording cpu-clock
		 */
		if (!ret || s->irq.fault == PERFREC_IRQ_OK || s->fell_back == cfg->nr_fallback ||
		    (cfg->mode != PERFREC_RECORD && perfrec_counters_still(&s->irq)))
			return ret;
		if (!s->fell_back)
			s->fallback_why = s->irq;
		perfrec_fall_back(&s->cfg, s->fell_back++);
		if (!cfg->quiet)
			perfrec_print_fallback(&s->cfg, &s->irq);
	}
}

void perfrec_release_buffer(void)
{
	struct perfrec_session *s = &perfrec_session;

	if (!s->kept || s->state == PERFREC_ARMED)
		return;
	perfrec_lmb_give_back(s->kept_addr, s->kept_size);
	s->kept = false;
}

/*
 * Recording: keep the buffer out of lmb's later allocations and loads (from
 * 2024.10) until the next recording, so that the perf.data survives the
 * boot. Done before sampling starts: perfrec's own bookkeeping stays out of
 * the profile.
 */
bool perfrec_keep_buffer(struct perfrec_session *s, const struct perfrec_cfg *cfg)
{
	if (cfg->mode != PERFREC_RECORD)
		return false;
	perfrec_release_buffer();	/* the last recording's, if still kept */
	s->kept_addr = cfg->buf_addr;
	s->kept = perfrec_lmb_keep(cfg->buf_addr, cfg->buf_size);
	s->kept_size = s->kept ? cfg->buf_size : 0;

	return s->kept;
}

/*
 * The last recording as a failed arming must leave it: perfrec_session_arm()
 * takes the new options and clears the IRQ state before it knows whether it
 * can arm. Its perf.data is not written until all that may fail has passed.
 */
static struct perfrec_session perfrec_last;
static struct perfrec_irq perfrec_last_irq;

/* After a failed arming: the last recording back, with why this one failed */
static void perfrec_restore_last(struct perfrec_session *s)
{
	struct perfrec_irq_report failed_irq = s->irq;
	int failed_event = s->failed_event;

	*s = perfrec_last;
	perfrec_irq = perfrec_last_irq;
	s->failed_irq = failed_irq;
	s->failed_event = failed_event;
	/*
	 * Its buffer out of lmb's allocations again, as it was: the command
	 * gave it back before arming, so that the new buffer may overlap it
	 */
	if (s->kept_size && !s->kept)
		s->kept = perfrec_lmb_keep(s->kept_addr, s->kept_size);
}

int perfrec_arm(const struct perfrec_cfg *cfg)
{
	struct perfrec_session *s = &perfrec_session;
	bool kept;
	int ret;

	/* Nothing failed yet: a refusal from here on says why */
	memset(&s->failed_irq, 0, sizeof(s->failed_irq));
	if (s->state == PERFREC_ARMED)
		return -EBUSY;
	perfrec_last = *s;
	perfrec_last_irq = perfrec_irq;
	s->st = &perfrec_irq;
	s->boot = false;
	kept = perfrec_keep_buffer(s, cfg);
	ret = perfrec_session_arm(s, cfg);
	if (ret) {
		if (kept)
			perfrec_release_buffer();
		perfrec_restore_last(s);
	}

	return ret;
}

void perfrec_session_phase(struct perfrec_session *s, const char *name, u64 time)
{
	struct perfrec_irq *st = s->st;
	u64 rec[PERF_DATA_THREAD_BYTES / sizeof(u64)];
	u32 tid = PERFREC_PID + 1 + s->nr_phases;
	size_t bytes;
	u64 masks;

	if (!s->phases || s->state != PERFREC_ARMED || s->nr_phases >= PERFREC_MAX_PHASES)
		return;
	masks = perfrec_hw_block();	/* one producer at a time */
	bytes = perf_data_thread(rec, PERFREC_PID, tid, name, time, s->facts.events[0].id);
	/* Without its COMM the thread would have no name: the phase goes on */
	if (perfrec_ring_put(&st->ring, rec, bytes / sizeof(u64))) {
		st->tid = tid;
		s->nr_phases++;
	}
	perfrec_hw_unblock(masks);
}

void perfrec_session_stats(struct perf_data_stats *stats)
{
	struct perfrec_irq *st = &perfrec_irq;

	memset(stats, 0, sizeof(*stats));
	stats->lost = st->lost;
	stats->first_time = perfrec_session.first_ns;
	stats->last_time = perfrec_session.last_ns;
}

/* A sample's time word @time made ns; @first (if 0) and @last become it */
static inline void perfrec_time_ns(const struct perfrec_irq *st, u64 *time, u64 *first,
				   u64 *last)
{
	*time = perfrec_hw_ticks_ns(st, *time);
	if (!*first)
		*first = *time;
	*last = *time;
}

void perfrec_sample_time_ns(struct perfrec_session *s, u8 *rec)
{
	/* The caller's buffer may not be 8-byte aligned */
	u8 *at = rec + offsetof(struct perf_data_sample, time);
	u64 time;

	memcpy(&time, at, sizeof(time));
	perfrec_time_ns(s->st, &time, &s->first_ns, &s->last_ns);
	memcpy(at, &time, sizeof(time));
}

/*
 * The samples of a ring that has not wrapped, their times made ns (a
 * phase's records, already in ns, may come between), at the end of a
 * recording
 */
static void perfrec_samples_to_ns(struct perfrec_session *s)
{
	u8 *rec = (u8 *)s->st->ring.base, *end = rec + s->st->ring.head;
	const struct perf_data_event_header *h;
	u64 first = 0, last = 0;

	for (; end - rec >= sizeof(*h); rec += h->size) {
		h = (const void *)rec;
		if (!perfrec_record_ok(h, end - rec))
			break;
		if (h->type != PERF_DATA_RECORD_SAMPLE)
			continue;
		/* Whole 64-bit words, 8-byte aligned in the ring */
		perfrec_time_ns(s->st, (u64 *)rec + PERFREC_SAMPLE_WORD(time), &first, &last);
	}
	s->first_ns = first;
	s->last_ns = last;
	s->times_ns = true;
}

/* Recording: the perf.data's tail, unless the samples were streamed away */
static int perfrec_finish_data(struct perfrec_session *s)
{
	struct perfrec_irq *st = s->st;
	struct perf_data_stats stats = { 0 };

	if (s->cfg.mode == PERFREC_STAT || s->streamed)
		return 0;
	perfrec_samples_to_ns(s);
	perfrec_session_stats(&stats);
	stats.records_bytes = st->ring.head;

	return perf_data_finish(&s->writer, &s->facts.info, &s->layout, &stats, &s->size);
}

int perfrec_session_disarm(struct perfrec_session *s)
{
	int ret;

	if (s->state != PERFREC_ARMED)
		return -EALREADY;

	s->restore_err = perfrec_hw_stop(&s->hw, s->st, s->cfg.source, &s->mismatch);
	s->state = PERFREC_FINALISED;
	/* Streamed samples are gone from the ring: only the stream has them all */
	if (s->boot)
		return s->restore_err;
	ret = perfrec_finish_data(s);
	if (ret)
		return log_msg_ret("finish", ret);

	return s->restore_err;
}

int perfrec_disarm(void)
{
	return perfrec_session_disarm(&perfrec_session);
}

/*
 * The PMU node's device is removed before an OS boots (DM_FLAG_OS_PREPARE):
 * a recording still armed is disarmed and finalised in memory, with one line
 * saying where it is, so that the OS finds the PMU, GIC and vectors as
 * U-Boot had them. Driver model offers no other hook, so the device is the
 * session's, bound to the PMU node by perfrec_probe_device() when a session
 * arms (no of_match: pmuv3_find_node() knows the node).
 */
static int perfrec_handoff(struct udevice *dev)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_result res;
	int ret;

	if (s->state != PERFREC_ARMED)
		return 0;
	ret = perfrec_disarm();
	perfrec_get_result(&res);
	if (s->cfg.mode == PERFREC_RECORD)
		printf("perfrec: stopped for the OS: %llu samples, %llu lost, %lu bytes of perf.data at %#lx\n",
		       res.samples, res.lost, res.size, res.addr);

	return ret;
}

U_BOOT_DRIVER(pmuv3) = {
	.name		= "pmuv3",
	.id		= UCLASS_NOP,
	.remove		= perfrec_handoff,
	.flags		= DM_FLAG_OS_PREPARE,
};

void perfrec_get_result(struct perfrec_result *res)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	u64 start, end;
	uint i;

	memset(res, 0, sizeof(*res));
	res->state = s->state;
	res->failed_event = s->failed_event;
	res->irq = s->irq;
	res->failed_irq = s->failed_irq;
	res->source = s->cfg.source;
	if (s->state == PERFREC_IDLE)
		return;
	res->addr = s->cfg.buf_addr;
	res->size = s->state == PERFREC_FINALISED ? s->size : s->cfg.buf_size;
	res->streamed = s->streamed;
	res->ring_used = perfrec_ring_used(&st->ring);
	res->ring_size = st->ring.size;
	res->samples = st->samples;
	res->lost = st->lost;
	res->spurious = st->spurious;
	res->foreign = st->foreign;
	res->nr_events = s->cfg.nr_events;
	res->mode = s->cfg.mode;
	res->id = perfrec_hw_id(&s->hw);
	for (i = 0; i < s->cfg.nr_events; i++) {
		res->name[i] = s->cfg.events[i].name;
		res->count[i] = s->state == PERFREC_FINALISED ? perfrec_hw_count(&s->hw, i) :
				st->counter[i].count;
		res->period[i] = st->counter[i].period;
		res->counter[i] = st->counter[i].idx;
		res->event_late[i] = st->counter[i].late;
		res->late += st->counter[i].late;
	}
	start = perfrec_hw_span_ns(&s->hw, &end);
	res->elapsed_ns = (s->state == PERFREC_FINALISED ? end : perfrec_hw_now_ns(st)) - start;
	res->gt_hz = perfrec_hw_gt_hz(&s->hw, &res->gt_measured_hz, &res->gt_tree_hz);
	res->restore_err = s->restore_err;
	strlcpy(res->mismatch, s->mismatch.name, sizeof(res->mismatch));
	res->before = s->mismatch.before;
	res->after = s->mismatch.after;
}
