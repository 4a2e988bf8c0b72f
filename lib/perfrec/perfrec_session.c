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
#include <perfrec_compat.h>
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
#include "perfrec_counters.h"
#include "perfrec_cpu.h"
#include "perfrec_gic.h"
#include "perfrec_info.h"
#include "perfrec_irq.h"
#include "perfrec_ring.h"
#include "perfrec_session.h"
#include "perfrec_timer.h"
#include "pmuv3.h"
#include "pmuv3_regs.h"

DECLARE_GLOBAL_DATA_PTR;

/* How long a raised interrupt may take to show as pending at the GIC */
#define PERFREC_PROBE_US	1000
/* At most this many looks, too: U-Boot's time stands still without CNTFRQ_EL0 */
#define PERFREC_PROBE_POLLS	100000

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
 * Is @node's interrupt parent a GIC (or the BCM2836 local controller)? If
 * not, say which controller it is (or that there is none) in @irq
 */
static int perfrec_check_parent(ofnode node, struct perfrec_irq_report *irq)
{
	const char *compat;
	ofnode parent;
	int ret;

	ret = perfrec_gic_find_parent(node, &parent);
	irq->local = perfrec_gic_dt_cells(node) == PERFREC_DT_IRQ_CELLS_BCM2836;
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
	uint polls;

	if (s->cfg.source == PERFREC_SRC_PMU) {
		pmuv3_save(&s->ctr.hw, &pmu);
		pmuv3_raise_irq();
	} else {
		perfrec_timer_start(&s->ctr.timer, 0);
	}
	start = timer_get_us();
	polls = 0;
	do {
		seen = perfrec_gic_pending(&s->gic);
	} while (!seen && ++polls < PERFREC_PROBE_POLLS &&
		 timer_get_us() - start < PERFREC_PROBE_US);
	if (s->cfg.source == PERFREC_SRC_PMU)
		pmuv3_restore(&pmu);
	else
		perfrec_timer_restore(&s->ctr.timer);
	/* A level interrupt drops with its source; an edge one stays pending */
	start = timer_get_us();
	polls = 0;
	while (perfrec_gic_pending(&s->gic) && ++polls < PERFREC_PROBE_POLLS &&
	       timer_get_us() - start < PERFREC_PROBE_US)
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
		if (!s->ctr.have_pmu)
			return -ENODEV;
		return perfrec_find_pmu_irq(&s->gic, nodep, &s->irq);
	case PERFREC_SRC_TIMER:
		return perfrec_find_timer_irq(&s->ctr.timer, &s->gic, &s->irq);
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
	/* Timestamps and cpu-clock count the generic timer: no frequency, no time */
	if (!read_cntfrq_el0())
		return log_msg_ret("cntfrq", -ETIME);
	s->ctr.have_pmu = !pmuv3_detect(&s->ctr.hw);
	for (i = 0; i < cfg->nr_events; i++) {
		if (!cfg->events[i].timer && !s->ctr.have_pmu)
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
	/* Before relocation there is no driver model: perfrec_adopt() probes it */
	if (!s->boot) {
		ret = perfrec_probe_device(node);
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
	s->facts.info.start_time = perfrec_irq_now_ns(st);
	if (s->boot) {
		/* The head is written when the recording is adopted after relocation */
		st->ring.base = s->cfg.buf;
		st->ring.size = ALIGN_DOWN(s->cfg.buf_size, sizeof(u64));
		return 0;
	}
	ret = perf_data_begin(&s->writer, s->cfg.buf, s->cfg.buf_size, &s->facts.info,
			      &s->layout);
	if (ret)
		return ret;
	st->ring.base = s->cfg.buf + s->layout.ring_offset;
	st->ring.size = ALIGN_DOWN(s->layout.ring_bytes, sizeof(u64));

	return 0;
}

/* Undo perfrec_take_irq(): the GIC and DAIF as they were */
static void perfrec_give_irq(struct perfrec_session *s)
{
	if (s->cfg.source != PERFREC_SRC_NONE)
		perfrec_gic_restore(&s->gic);
	perfrec_cpu_restore_daif(&s->cpu);
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
		if (ret == -ETIMEDOUT) {
			s->irq.fault = PERFREC_IRQ_STUCK;
			s->irq.block = s->gic.fault.block;
			s->irq.start = s->gic.fault.start;
			s->irq.bit = s->gic.fault.bit;
		}
		if (ret)
			return log_msg_ret("gic", ret);
	}
	perfrec_cpu_mask(&s->cpu);
	if (irq && !s->cfg.no_probe) {
		ret = perfrec_probe_irq(s);
		if (ret) {
			perfrec_give_irq(s);
			return log_msg_ret("probe", ret);
		}
	}

	return 0;
}

int perfrec_session_arm(struct perfrec_session *s, const struct perfrec_cfg *cfg)
{
	int ret;

	if (s->state == PERFREC_ARMED)
		return -EBUSY;
	ret = perfrec_prepare(s, cfg);
	if (ret)
		goto err;

	s->cfg = *cfg;
	perfrec_info_fill(&s->facts, &s->cfg);
	ret = perfrec_counters_init(&s->ctr, s->st, &s->cfg, s->facts.events, &s->gic,
				    perfrec_info_text_bytes(), s->boot);
	s->failed_event = s->ctr.failed_event;
	if (ret) {
		ret = log_msg_ret("counters", ret);
		goto err;
	}
	perfrec_session_snapshot_regs(s, &s->before);
	perfrec_session_snapshot_tables(s, &s->before);
	ret = perfrec_take_irq(s);
	if (ret)
		goto err;
	/* Last of what may fail: the buffer is written only when all else is ready */
	ret = perfrec_begin_data(s);
	if (ret) {
		perfrec_give_irq(s);
		ret = log_msg_ret("head", ret);
		goto err;
	}
	perfrec_cpu_take(&s->cpu, s->boot);
	perfrec_counters_start(&s->ctr, s->st, &s->cfg);

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

void perfrec_release_buffer(void)
{
	struct perfrec_session *s = &perfrec_session;

	if (!s->kept_size || s->state == PERFREC_ARMED)
		return;
	perfrec_lmb_give_back(s->kept_addr, s->kept_size);
	s->kept_size = 0;
}

/*
 * Recording: keep the buffer out of lmb's later allocations and loads (from
 * 2024.10) until the next recording, so that the perf.data survives the
 * boot. Done before sampling starts: perfrec's own bookkeeping stays out of
 * the profile.
 */
static bool perfrec_keep_buffer(struct perfrec_session *s, const struct perfrec_cfg *cfg)
{
	if (cfg->mode != PERFREC_RECORD)
		return false;
	perfrec_release_buffer();	/* the last recording's, if still kept */
	if (!perfrec_lmb_keep(cfg->buf_addr, cfg->buf_size))
		return false;
	s->kept_addr = cfg->buf_addr;
	s->kept_size = cfg->buf_size;

	return true;
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
	struct perfrec_irq_report irq = s->irq;
	int failed_event = s->failed_event;
	/* A recording's arming gave the last buffer back to lmb; stat's did not */
	bool released = !s->kept_size;

	*s = perfrec_last;
	perfrec_irq = perfrec_last_irq;
	s->irq = irq;
	s->failed_event = failed_event;
	/* Its buffer out of lmb's allocations again, as it was (once) */
	if (released && s->kept_size && !perfrec_lmb_keep(s->kept_addr, s->kept_size))
		s->kept_size = 0;
}

int perfrec_arm(const struct perfrec_cfg *cfg)
{
	struct perfrec_session *s = &perfrec_session;
	bool kept;
	int ret;

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

/*
 * A boot sample's address: a marker as it is, a raw one untagged, an image
 * offset (perfrec_irq_boot_addr()) moved to the image's run-time place
 */
static u64 perfrec_boot_to_addr(u64 val, u64 base)
{
	if (val >= PERF_DATA_CONTEXT_USER)
		return val;
	if (val & PERFREC_BOOT_RAW)
		return val & ~PERFREC_BOOT_RAW;

	return val + base;
}

/* The longest sample: its fields, nr, PERF_CONTEXT_USER, the PC and PERFREC_MAX_DEPTH callers */
#define PERFREC_SAMPLE_MAX_WORDS	(sizeof(struct perf_data_sample) / sizeof(u64) + 2 + \
					 PERFREC_MAX_DEPTH + 1)

/*
 * Copy the boot ring's records in [@from, @to) (it never wraps: nothing
 * consumes it) into @ring: samples with run-time addresses, the others (a
 * boot phase's FORK and COMM) as they are. A sample that does not fit counts
 * in @lost. Return: where the copy stopped, @to unless at a broken record
 */
static u64 perfrec_adopt_records(struct perfrec_ring *ring, const struct perfrec_irq *boot,
				 u64 from, u64 to, u64 *copied, u64 *lost)
{
	const u8 *base = (const u8 *)boot->ring.base;

	while (from < to) {
		const struct perf_data_event_header *h = (const void *)(base + from);
		u64 words[PERFREC_SAMPLE_MAX_WORDS];
		struct perf_data_sample *s = (void *)words;
		uint nr = h->size / sizeof(u64), i;
		bool sample = h->type == PERF_DATA_RECORD_SAMPLE;

		/* Only perfrec wrote here: anything else ends the copy */
		if (h->size < sizeof(*h) || h->size > sizeof(words) || h->size % sizeof(u64) ||
		    h->size > to - from)
			break;
		memcpy(words, h, h->size);
		from += h->size;
		if (sample) {
			s->ip = perfrec_boot_to_addr(s->ip, gd->relocaddr);
			for (i = sizeof(*s) / sizeof(u64) + 1; boot->callchain && i < nr; i++)
				words[i] = perfrec_boot_to_addr(words[i], gd->relocaddr);
		}
		if (perfrec_ring_put(ring, words, nr))
			*copied += sample;
		else
			*lost += sample;
	}

	return from;
}

void perfrec_session_relocated(struct perfrec_session *boot, u64 vbar)
{
	ulong old = gd->relocaddr - gd->reloc_off;	/* where the image ran before relocation */
	uint i;

	/*
	 * What any end gives back from now on is U-Boot's relocated vector
	 * table, and what the check expects. The snapshot's names are the old
	 * image's strings: the relocated ones are what a snapshot taken now
	 * holds.
	 */
	boot->cpu.vbar = vbar;
	for (i = 0; i < boot->before.count; i++) {
		struct perfrec_reg *reg = &boot->before.regs[i];

		if ((ulong)reg->name - old < gd->mon_len)
			reg->name += gd->relocaddr - old;
		if (!strncmp(reg->name, "VBAR_EL", 7))
			reg->val = vbar;
	}
}

int perfrec_session_adopt(struct perfrec_session *boot, void *buf, ulong addr, ulong size,
			  u64 *takenp, u64 *copiedp)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	const struct perfrec_irq *bst = boot->st;
	struct perfrec_ring ring = { 0 };
	ofnode node = ofnode_null();
	u64 copied = 0, lost = 0, done;
	int ret;

	if (s->state == PERFREC_ARMED)
		return -EBUSY;
	/* While the boot recording goes on: all but the switch */
	*s = *boot;
	s->state = PERFREC_IDLE;
	s->st = st;
	s->boot = false;
	s->cfg.buf = buf;
	s->cfg.buf_addr = addr;
	s->cfg.buf_size = size;
	perfrec_info_fill(&s->facts, &s->cfg);
	/* The leader's COMM and the MMAP: when the counters started */
	s->facts.info.start_time = boot->ctr.start_ns;
	ret = perf_data_begin(&s->writer, buf, size, &s->facts.info, &s->layout);
	if (ret) {
		perfrec_cpu_block();
		perfrec_session_disarm(boot);
		return log_msg_ret("head", ret);
	}
	ring.base = buf + s->layout.ring_offset;
	ring.size = ALIGN_DOWN(s->layout.ring_bytes, sizeof(u64));
	done = perfrec_adopt_records(&ring, bst, 0, perfrec_ring_head(&bst->ring), &copied, &lost);
	perfrec_keep_buffer(s, &s->cfg);

	/* The switch: the records taken since, and the handler's state */
	perfrec_cpu_block();
	perfrec_adopt_records(&ring, bst, done, bst->ring.head, &copied, &lost);
	*takenp = bst->samples;
	*copiedp = copied;
	*st = *bst;
	st->ring = ring;
	st->samples = copied;
	st->lost += lost;
	/* From now on, as any recording: run-time addresses of the relocated image */
	st->text_start = gd->relocaddr;
	st->text_end = gd->relocaddr + perfrec_info_text_bytes();
	st->stack_top = gd->start_addr_sp;
	st->alt_start = 0;
	st->alt_end = 0;
	st->alt_stack_top = 0;
	st->img_bytes = 0;
	s->state = PERFREC_ARMED;
	perfrec_cpu_switch_vectors(false);
	perfrec_cpu_unmask(s->gic.group0);
	/* Now that there is driver model: its removal before an OS boots disarms */
	if (s->cfg.source == PERFREC_SRC_PMU)
		pmuv3_find_node(&node);
	ret = perfrec_probe_device(node);
	if (ret)
		log_debug("pmuv3 device: %d\n", ret);

	return 0;
}

void perfrec_session_phase(struct perfrec_session *s, const char *name, u64 time)
{
	struct perfrec_irq *st = s->st;
	u64 rec[PERF_DATA_THREAD_BYTES / sizeof(u64)];
	u32 tid = PERFREC_PID + 1 + s->nr_phases;
	size_t bytes;
	u64 daif;

	if (!s->phases || s->state != PERFREC_ARMED || s->nr_phases >= PERFREC_MAX_PHASES)
		return;
	daif = read_daif();
	perfrec_cpu_block();	/* one producer at a time */
	bytes = perf_data_thread(rec, PERFREC_PID, tid, name, time, s->facts.events[0].id);
	/* Without its COMM the thread would have no name: the phase goes on */
	if (perfrec_ring_put(&st->ring, rec, bytes / sizeof(u64))) {
		st->tid = tid;
		s->nr_phases++;
	}
	write_daif(daif);
}

void perfrec_session_stats(struct perf_data_stats *stats)
{
	struct perfrec_irq *st = &perfrec_irq;

	memset(stats, 0, sizeof(*stats));
	stats->lost = st->lost;
	stats->first_time = perfrec_session.first_ns;
	stats->last_time = st->last_ns;
}

/* The time of the first sample in a ring that has not wrapped (a phase's records may come first) */
static u64 perfrec_first_sample_ns(const struct perfrec_ring *ring)
{
	const u8 *rec = (const u8 *)ring->base, *end = rec + ring->head;
	struct perf_data_event_header h;
	u64 time;

	for (; rec < end; rec += h.size) {
		memcpy(&h, rec, sizeof(h));
		if (h.type == PERF_DATA_RECORD_SAMPLE) {
			memcpy(&time, rec + offsetof(struct perf_data_sample, time), sizeof(time));
			return time;
		}
	}

	return 0;
}

/* Recording: the perf.data's tail, unless the samples were streamed away */
static int perfrec_finish_data(struct perfrec_session *s)
{
	struct perfrec_irq *st = s->st;
	struct perf_data_stats stats = { 0 };

	if (s->cfg.mode == PERFREC_STAT || s->streamed)
		return 0;
	s->first_ns = perfrec_first_sample_ns(&st->ring);
	perfrec_session_stats(&stats);
	stats.records_bytes = st->ring.head;

	return perf_data_finish(&s->writer, &s->facts.info, &s->layout, &stats, &s->size);
}

int perfrec_session_disarm(struct perfrec_session *s)
{
	struct perfrec_snapshot after;
	int ret;

	if (s->state != PERFREC_ARMED)
		return -EALREADY;

	perfrec_counters_stop(&s->ctr, s->st);
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
 * session's, bound by perfrec_probe_device().
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
	.of_match	= pmuv3_ids,
	.remove		= perfrec_handoff,
	.flags		= DM_FLAG_OS_PREPARE,
};

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
	res->id = s->ctr.id;
	for (i = 0; i < s->cfg.nr_events; i++) {
		res->name[i] = s->cfg.events[i].name;
		res->count[i] = s->state == PERFREC_FINALISED ? s->ctr.count[i] :
				st->counter[i].count;
		res->period[i] = st->counter[i].period;
		res->counter[i] = st->counter[i].idx;
		res->event_late[i] = st->counter[i].late;
		res->late += st->counter[i].late;
	}
	res->elapsed_ns = s->state == PERFREC_FINALISED ? s->ctr.end_ns - s->ctr.start_ns :
			  perfrec_irq_now_ns(st) - s->ctr.start_ns;
	res->restore_err = s->restore_err;
	strlcpy(res->mismatch, s->mismatch.name, sizeof(res->mismatch));
	res->before = s->mismatch.before;
	res->after = s->mismatch.after;
}
