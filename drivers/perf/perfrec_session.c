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
 * job (perfrec_info.c, perfrec_counters.c, perfrec_cpu.c, perfrec_gic.c,
 * perfrec_timer.c, pmuv3.c); perfrec_disarm() takes them back in the
 * reverse order.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <dm.h>
#include <errno.h>
#include <log.h>
#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <stdio.h>
#include <time.h>
#include <asm/system.h>
#include <dm/device-internal.h>
#include <dm/lists.h>
#include <dm/ofnode.h>
#include <dm/root.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_cpu.h"
#include "perfrec_gic.h"
#include "perfrec_handoff.h"
#include "perfrec_info.h"
#include "perfrec_irq.h"
#include "perfrec_ring.h"
#include "perfrec_session.h"
#include "perfrec_timer.h"
#include "pmuv3.h"
#include "pmuv3_regs.h"

/* How long a raised interrupt may take to show as pending at the GIC */
#define PERFREC_PROBE_US	1000

struct perfrec_session perfrec_session;

/*
 * Find the PMU's interrupt and GIC in the control device tree, as it is now.
 * The path of @node, for messages
 */
static void perfrec_node_path(ofnode node, char *buf, size_t size)
{
	if (ofnode_get_path(node, buf, size))
		strlcpy(buf, ofnode_get_name(node), size);
}

/*
 * Is @node's interrupt parent a GIC? If not, say which controller it is (or
 * that there is none) in @irq
 */
static int perfrec_check_parent(ofnode node, struct perfrec_irq_report *irq)
{
	const char *compat;
	ofnode parent;
	int ret;

	ret = perfrec_gic_find_parent(node, &parent);
	if (!ret)
		return 0;
	irq->fault = PERFREC_IRQ_NO_GIC;
	if (ofnode_valid(parent)) {
		perfrec_node_path(parent, irq->parent, sizeof(irq->parent));
		compat = ofnode_read_string(parent, "compatible");
		strlcpy(irq->compat, compat ?: "", sizeof(irq->compat));
	}

	return ret;
}

/* Why perfrec_gic_from_dt() failed, in @irq */
static void perfrec_gic_fault(const struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	switch (gic->dt_err) {
	case -EADDRNOTAVAIL:
		irq->fault = PERFREC_IRQ_UNMAPPED;
		break;
	case -EFAULT:
		irq->fault = PERFREC_IRQ_NO_ANSWER;
		break;
	case -ENOENT:
	case -EPROTONOSUPPORT:
		irq->fault = PERFREC_IRQ_NO_GIC;
		break;
	default:
		irq->fault = PERFREC_IRQ_BAD_GIC;
		break;
	}
	irq->block = gic->fault.block;
	irq->start = gic->fault.start;
	irq->end = gic->fault.end;
	irq->err = gic->fault.err;
}

/* The PMU's interrupt and its GIC, from the PMU node; say why not in @irq */
static int perfrec_find_pmu_irq(struct perfrec_gic *gic, ofnode *nodep,
				struct perfrec_irq_report *irq)
{
	uint intid, flags;
	int ret;

	ret = pmuv3_find_node(nodep);
	if (ret) {
		irq->fault = PERFREC_IRQ_NO_NODE;
		return ret;
	}
	perfrec_node_path(*nodep, irq->node, sizeof(irq->node));
	/* The specifier's form is the parent's: only a GIC's is known */
	if (perfrec_check_parent(*nodep, irq))
		return -ENXIO;
	ret = pmuv3_read_irq(*nodep, &intid, &flags);
	if (ret) {
		irq->fault = ret == -EPROTONOSUPPORT ? PERFREC_IRQ_BAD_SPEC :
			     ret == -ENODEV ? PERFREC_IRQ_NO_CPU : PERFREC_IRQ_NO_PROP;
		return ret == -EPROTONOSUPPORT ? ret : -ENXIO;
	}
	irq->intid = intid;
	ret = perfrec_gic_from_dt(*nodep, gic);
	if (ret) {
		perfrec_gic_fault(gic, irq);
		return -ENXIO;
	}
	if (perfrec_gic_check_intid(gic, intid)) {
		perfrec_gic_put(gic);
		irq->fault = PERFREC_IRQ_BAD_SPEC;
		return -EPROTONOSUPPORT;
	}
	gic->intid = intid;
	/* Device-tree trigger types: 1 and 2 are edges, 4 and 8 levels */
	gic->edge = flags & (BIT(0) | BIT(1));

	return 0;
}

/* The generic timer's interrupt for U-Boot's EL, and its GIC; say why not in @irq */
static int perfrec_find_timer_irq(struct perfrec_timer *timer, struct perfrec_gic *gic,
				  struct perfrec_irq_report *irq)
{
	int ret;

	ret = perfrec_timer_find(timer);
	if (ret) {
		irq->fault = PERFREC_IRQ_NO_NODE;
		return ret;
	}
	perfrec_node_path(timer->node, irq->node, sizeof(irq->node));
	/* The specifier's form is the parent's: only a GIC's is known */
	if (perfrec_check_parent(timer->node, irq))
		return -ENXIO;
	ret = perfrec_timer_irq(timer, gic);
	irq->intid = gic->intid;
	switch (ret) {
	case -ENXIO:
		irq->fault = PERFREC_IRQ_NO_PROP;
		break;
	case -EPROTONOSUPPORT:
		irq->fault = PERFREC_IRQ_BAD_SPEC;
		break;
	case -ENOLINK:
		perfrec_gic_fault(gic, irq);
		ret = -ENXIO;
		break;
	}

	return ret;
}

/* What a snapshot holds: the CPU's, the PMU's and the timer's registers, and the GIC's */
static void perfrec_snapshot_gic(struct perfrec_snapshot *snap, const struct perfrec_gic *gic)
{
	struct pmuv3_hw hw;

	snap->count = 0;
	perfrec_cpu_snapshot(snap);
	perfrec_timer_snapshot(snap);
	if (!pmuv3_detect(&hw))
		pmuv3_snapshot(&hw, snap);
	if (gic)
		perfrec_gic_snapshot(gic, snap);
}

void perfrec_snapshot(struct perfrec_snapshot *snap)
{
	struct perfrec_irq_report irq = { 0 };
	struct perfrec_gic gic;
	ofnode node;

	if (perfrec_find_pmu_irq(&gic, &node, &irq)) {
		perfrec_snapshot_gic(snap, NULL);
		return;
	}
	perfrec_snapshot_gic(snap, &gic);
	perfrec_gic_put(&gic);
}

/* The session's registers: the CPU's, the PMU's, the timer's and its interrupt's at the GIC */
static void perfrec_session_snapshot_regs(const struct perfrec_session *s,
					  struct perfrec_snapshot *snap)
{
	perfrec_snapshot_gic(snap, s->cfg.source != PERFREC_SRC_NONE ? &s->gic : NULL);
}

/*
 * Added to a snapshot: the page-table descriptors mapped for the GIC, what
 * they held before while the session holds them, what they hold after
 * perfrec_gic_put()
 */
static void perfrec_session_snapshot_tables(const struct perfrec_session *s,
					    struct perfrec_snapshot *snap)
{
	if (s->cfg.source != PERFREC_SRC_NONE)
		perfrec_gic_snapshot_tables(&s->gic, snap);
}

/*
 * Probe the PMU device, so that its removal before an OS boots disarms. A
 * PMU node added after boot is bound now; without one (cpu-clock on a board
 * whose device tree lacks it) the device is bound with no node.
 */
static int perfrec_probe_device(ofnode node)
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

	if (!cfg->nr_events || cfg->nr_events > PERF_DATA_MAX_EVENTS || cfg->jitter_pct >= 100)
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

/*
 * Raise the session's interrupt on purpose (a PMU overflow flag, or a timer
 * deadline long past) with the CPU's interrupts masked: it must show as
 * pending at the GIC, or the device tree names the wrong interrupt.
 */
static int perfrec_probe_irq(struct perfrec_session *s)
{
	struct pmuv3_saved pmu;
	bool seen = false;
	ulong start;

	if (s->cfg.source == PERFREC_SRC_PMU) {
		pmuv3_save(&s->hw, &pmu);
		pmuv3_raise_irq();
	} else {
		perfrec_timer_start(&s->timer, 0);
	}
	start = timer_get_us();
	do {
		seen = perfrec_gic_pending(&s->gic);
	} while (!seen && timer_get_us() - start < PERFREC_PROBE_US);
	if (s->cfg.source == PERFREC_SRC_PMU)
		pmuv3_restore(&pmu);
	else
		perfrec_timer_restore(&s->timer);
	/* A level interrupt drops with its source; an edge one stays pending */
	start = timer_get_us();
	while (perfrec_gic_pending(&s->gic) && timer_get_us() - start < PERFREC_PROBE_US)
		;
	if (perfrec_gic_pending(&s->gic))
		perfrec_gic_clear_pending(&s->gic);
	if (!seen) {
		s->irq.fault = PERFREC_IRQ_SILENT;
		return -ETIMEDOUT;
	}

	return 0;
}

/* Find the session's interrupt (none for counting without one) */
static int perfrec_find_irq(struct perfrec_session *s, const struct perfrec_cfg *cfg,
			    ofnode *nodep)
{
	*nodep = ofnode_null();
	switch (cfg->source) {
	case PERFREC_SRC_PMU:
		if (!s->have_pmu)
			return -ENODEV;
		return perfrec_find_pmu_irq(&s->gic, nodep, &s->irq);
	case PERFREC_SRC_TIMER:
		return perfrec_find_timer_irq(&s->timer, &s->gic, &s->irq);
	default:
		return 0;
	}
}

/* Check @cfg and find what it needs: the PMU, the interrupt, the image's facts */
static int perfrec_prepare(struct perfrec_session *s, const struct perfrec_cfg *cfg)
{
	ofnode node;
	uint i;
	int ret;

	s->failed_event = -1;
	memset(&s->irq, 0, sizeof(s->irq));
	s->irq.source = cfg->source;
	ret = perfrec_check_cfg(cfg);
	if (ret)
		return log_msg_ret("cfg", ret);
	s->have_pmu = !pmuv3_detect(&s->hw);
	for (i = 0; i < cfg->nr_events; i++) {
		if (!cfg->events[i].timer && !s->have_pmu)
			return log_msg_ret("pmu", -ENODEV);
	}
	ret = perfrec_find_irq(s, cfg, &node);
	if (ret)
		return log_msg_ret("irq", ret);
	ret = perfrec_info_check_image();
	if (ret)
		return log_msg_ret("pgoff", ret);
	if (cfg->callchain && !IS_ENABLED(CONFIG_PERFREC_CALLCHAIN))
		return log_msg_ret("chain", -EOPNOTSUPP);
	ret = perfrec_probe_device(node);
	if (ret)
		return log_msg_ret("dev", ret);

	return 0;
}

/* Recording: write the perf.data's head and point the ring at the room after it */
static int perfrec_begin_data(struct perfrec_session *s)
{
	struct perfrec_irq *st = &perfrec_irq;
	int ret;

	if (s->cfg.mode != PERFREC_RECORD)
		return 0;
	s->facts.info.start_time = perfrec_irq_now_ns(st);
	ret = perf_data_begin(&s->writer, s->cfg.buf, s->cfg.buf_size, &s->facts.info,
			      &s->layout);
	if (ret)
		return ret;
	st->ring.base = s->cfg.buf + s->layout.ring_offset;
	st->ring.size = ALIGN_DOWN(s->layout.ring_bytes, sizeof(u64));

	return 0;
}

/*
 * Enable the interrupt at the GIC and mask it at the CPU (it is masked at the
 * prompt; it stays so until all is ready); then check that it arrives
 */
static int perfrec_take_irq(struct perfrec_session *s)
{
	bool irq = s->cfg.source != PERFREC_SRC_NONE;
	int ret;

	if (irq) {
		ret = perfrec_gic_setup(&s->gic);
		if (ret)
			return log_msg_ret("gic", ret);
	}
	perfrec_cpu_mask(&s->cpu);
	if (irq && !s->cfg.no_probe) {
		ret = perfrec_probe_irq(s);
		if (ret) {
			perfrec_gic_restore(&s->gic);
			perfrec_cpu_restore_daif(&s->cpu);
			return log_msg_ret("probe", ret);
		}
	}

	return 0;
}

int perfrec_arm(const struct perfrec_cfg *cfg)
{
	struct perfrec_session *s = &perfrec_session;
	int ret;

	if (s->state == PERFREC_ARMED)
		return -EBUSY;
	ret = perfrec_prepare(s, cfg);
	if (ret)
		goto err;

	s->cfg = *cfg;
	perfrec_info_fill(&s->facts, &s->cfg);
	ret = perfrec_counters_init(s);
	if (ret) {
		ret = log_msg_ret("counters", ret);
		goto err;
	}
	ret = perfrec_begin_data(s);
	if (ret) {
		ret = log_msg_ret("head", ret);
		goto err;
	}
	perfrec_session_snapshot_regs(s, &s->before);
	perfrec_session_snapshot_tables(s, &s->before);
	ret = perfrec_take_irq(s);
	if (ret)
		goto err;
	perfrec_cpu_take(&s->cpu);
	perfrec_counters_start(s);

	s->state = PERFREC_ARMED;
	s->restore_err = 0;
	s->streamed = false;
	s->stream_seq = 0;
	s->stream_done = false;
	s->first_ns = 0;
	if (s->cfg.source != PERFREC_SRC_NONE)
		perfrec_cpu_unmask(s->gic.group0);

	return 0;

err:
	/* What the GIC's blocks borrowed of the page tables (nothing if not found) */
	perfrec_gic_put(&s->gic);

	return ret;
}

void perfrec_session_stats(struct perf_data_stats *stats)
{
	struct perfrec_irq *st = &perfrec_irq;

	memset(stats, 0, sizeof(*stats));
	stats->lost = st->lost;
	stats->first_time = perfrec_session.first_ns;
	stats->last_time = st->last_ns;
}

/* Recording: the perf.data's tail, unless the samples were streamed away */
static int perfrec_finish_data(struct perfrec_session *s)
{
	struct perfrec_irq *st = &perfrec_irq;
	struct perf_data_stats stats = { 0 };

	if (s->cfg.mode == PERFREC_STAT || s->streamed)
		return 0;
	if (st->samples)
		memcpy(&s->first_ns, (u8 *)st->ring.base + offsetof(struct perf_data_sample, time),
		       sizeof(s->first_ns));
	perfrec_session_stats(&stats);
	stats.records_bytes = st->ring.head;

	return perf_data_finish(&s->writer, &s->facts.info, &s->layout, &stats, &s->size);
}

int perfrec_disarm(void)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_snapshot after;
	int ret;

	if (s->state != PERFREC_ARMED)
		return -EALREADY;

	perfrec_cpu_block();
	perfrec_counters_stop(s);
	perfrec_cpu_give_back(&s->cpu);
	if (s->cfg.source != PERFREC_SRC_NONE)
		perfrec_gic_restore(&s->gic);
	perfrec_cpu_restore_daif(&s->cpu);

	perfrec_session_snapshot_regs(s, &after);
	perfrec_gic_put(&s->gic);
	perfrec_session_snapshot_tables(s, &after);
	s->restore_err = perfrec_snap_compare(&s->before, &after, &s->mismatch);
	s->state = PERFREC_FINALISED;
	/* Streamed samples are gone from the ring: only the stream has them all */
	ret = perfrec_finish_data(s);
	if (ret)
		return log_msg_ret("finish", ret);

	return s->restore_err;
}

int perfrec_handoff(void)
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

void perfrec_get_result(struct perfrec_result *res)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	uint i;

	memset(res, 0, sizeof(*res));
	res->state = s->state;
	res->failed_event = s->failed_event;
	res->irq = s->irq;
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
	res->id = s->id;
	for (i = 0; i < s->cfg.nr_events; i++) {
		res->name[i] = s->cfg.events[i].name;
		res->count[i] = s->state == PERFREC_FINALISED ? s->count[i] :
				st->counter[i].count;
		res->period[i] = st->counter[i].period;
		res->counter[i] = st->counter[i].idx;
		res->event_late[i] = st->counter[i].late;
		res->late += st->counter[i].late;
	}
	res->elapsed_ns = s->state == PERFREC_FINALISED ? s->end_ns - s->start_ns :
			  perfrec_irq_now_ns(st) - s->start_ns;
	res->restore_err = s->restore_err;
	strlcpy(res->mismatch, s->mismatch.name, sizeof(res->mismatch));
	res->before = s->mismatch.before;
	res->after = s->mismatch.after;
}
