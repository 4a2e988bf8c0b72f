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
#include <version.h>
#include <asm/global_data.h>
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
#include "perfrec_irq.h"
#include "perfrec_timer.h"
#include "pmuv3.h"
#include "pmuv3_regs.h"

DECLARE_GLOBAL_DATA_PTR;

#define PERFREC_VERSION		"perfrec 0.1"
#define PERFREC_PID		1
#define PERFREC_NSEC_PER_SEC	1000000000ULL

/* Counting with the timer: how often it folds the PMU's overflows in (10 ms) */
#define PERFREC_STAT_POLL_NS	10000000ULL
/* How long a raised interrupt may take to show as pending at the GIC */
#define PERFREC_PROBE_US	1000

/* Marks perfrec_image_pgoff as not yet set by the build */
#define PERFREC_PGOFF_UNSET	0x5045524652454331ULL	/* "1CERFREP" */

/*
 * File offset of the image's first byte in the u-boot ELF (the p_offset of
 * its PT_LOAD segment). The image cannot read its ELF, so the build writes it
 * here after linking (scripts/perfrec_pgoff.py, run from
 * arch/arm/Makefile.postlink). perf needs it to map sampled addresses to
 * symbols: a wrong value gives wrong symbols without any warning.
 */
u64 perfrec_image_pgoff __section(".data") = PERFREC_PGOFF_UNSET;

/*
 * Bytes from _start to the end of the image's code, written by the same
 * post-link step: call-graph return addresses must fall in there.
 */
u64 perfrec_image_text_bytes __section(".data") = PERFREC_PGOFF_UNSET;

/**
 * struct perfrec_session - The one session U-Boot can have
 * @state: where it is
 * @cfg: its configuration
 * @hw: the PMU
 * @gic: the GIC and the interrupt
 * @pmu: PMU registers before arming
 * @cpu: VBAR_ELx, DAIF and the routing registers before arming
 * @have_pmu: the CPU has a PMUv3 (@hw is valid)
 * @timer: the generic timer, when it drives the session
 * @irq: what the last perfrec_arm() found of its interrupt
 * @start_ticks: the counter (CNTPCT_EL0) when the timer was started
 * @end_ticks: and when the session was disarmed
 * @before: snapshot before arming
 * @events: the events as the perf.data states them
 * @info: facts for the perf.data
 * @writer: perf.data output
 * @layout: where samples go in it
 * @size: bytes of the finalised perf.data
 * @start: stat mode: each counter's initial value
 * @count: each event's total count, at disarm
 * @start_ns: time the counters started
 * @end_ns: time they stopped
 * @id: the recording's id
 * @failed_event: the event a failed perfrec_arm() is about, or -1
 * @restore_err: result of the state check at disarm
 * @mismatch: first register that differed, with its values before and after
 * @cpuid: HEADER_CPUID text
 * @osrelease: HEADER_OSRELEASE text
 * @streamed: samples were taken out of the ring while recording
 * @stream_seq: number of the next stream chunk
 * @stream_done: the stream's last chunk was taken
 * @first_ns: time of the first sample
 * @argv: the command line's words, pointing into @cmdline
 * @cmdline: the command line's text
 */
struct perfrec_session {
	enum perfrec_state state;
	struct perfrec_cfg cfg;
	struct pmuv3_hw hw;
	struct perfrec_gic gic;
	struct pmuv3_saved pmu;
	struct perfrec_cpu cpu;
	bool have_pmu;
	struct perfrec_timer timer;
	struct perfrec_irq_report irq;
	u64 start_ticks;
	u64 end_ticks;
	struct perfrec_snapshot before;
	struct perf_data_event events[PERF_DATA_MAX_EVENTS];
	struct perf_data_info info;
	struct perf_data_writer writer;
	struct perf_data_layout layout;
	size_t size;
	u64 start[PERF_DATA_MAX_EVENTS];
	u64 count[PERF_DATA_MAX_EVENTS];
	u64 start_ns;
	u64 end_ns;
	u32 id;
	int failed_event;
	int restore_err;
	struct perfrec_snap_diff mismatch;
	char cpuid[24];
	char osrelease[48];
	bool streamed;
	uint stream_seq;
	bool stream_done;
	u64 first_ns;
	const char *argv[PERFREC_CMDLINE_WORDS];
	char cmdline[PERFREC_CMDLINE_BYTES];
};

static struct perfrec_session perfrec_session;

/* Find the PMU's interrupt and GIC in the control device tree, as it is now */
/* The path of @node, for messages */
static void perfrec_node_path(ofnode node, char *buf, size_t size)
{
	if (ofnode_get_path(node, buf, size))
		strlcpy(buf, ofnode_get_name(node), size);
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
	ret = pmuv3_read_irq(*nodep, &intid, &flags);
	if (ret) {
		irq->fault = ret == -EPROTONOSUPPORT ? PERFREC_IRQ_BAD_SPEC :
			     ret == -ENODEV ? PERFREC_IRQ_NO_CPU : PERFREC_IRQ_NO_PROP;
		return ret == -EPROTONOSUPPORT ? ret : -ENXIO;
	}
	irq->intid = intid;
	ret = perfrec_gic_from_dt(*nodep, gic);
	if (ret) {
		irq->fault = PERFREC_IRQ_NO_GIC;
		return -ENXIO;
	}
	if (perfrec_gic_check_intid(gic, intid)) {
		irq->fault = PERFREC_IRQ_BAD_SPEC;
		return -EPROTONOSUPPORT;
	}
	gic->intid = intid;
	/* Device-tree trigger types: 1 and 2 are edges, 4 and 8 levels */
	gic->edge = flags & (BIT(0) | BIT(1));

	return 0;
}

/* The generic timer's interrupt for U-Boot's EL, and its GIC */
static int perfrec_find_timer_irq(struct perfrec_timer *timer, struct perfrec_gic *gic,
				  struct perfrec_irq_report *irq)
{
	int ret = perfrec_timer_from_dt(timer, gic);

	if (ret == -ENOENT) {
		irq->fault = PERFREC_IRQ_NO_NODE;
		return ret;
	}
	perfrec_node_path(timer->node, irq->node, sizeof(irq->node));
	irq->intid = gic->intid;
	if (ret == -ENXIO)
		irq->fault = PERFREC_IRQ_NO_PROP;
	else if (ret == -EPROTONOSUPPORT)
		irq->fault = PERFREC_IRQ_BAD_SPEC;
	else if (ret == -ENOLINK)
		irq->fault = PERFREC_IRQ_NO_GIC;

	return ret == -ENOLINK ? -ENXIO : ret;
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

	perfrec_snapshot_gic(snap, perfrec_find_pmu_irq(&gic, &node, &irq) ? NULL : &gic);
}

/* The session's snapshot: the GIC registers of its own interrupt */
static void perfrec_session_snapshot(const struct perfrec_session *s,
				     struct perfrec_snapshot *snap)
{
	perfrec_snapshot_gic(snap, s->cfg.source == PERFREC_SRC_NONE ? NULL : &s->gic);
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

/* Keep the command line: the shell's words are gone when 'perfrec start' returns */
static void perfrec_copy_cmdline(struct perfrec_session *s)
{
	size_t used = 0, len;
	int i, argc = 0;

	for (i = 0; i < s->cfg.argc && i < PERFREC_CMDLINE_WORDS; i++) {
		len = strlen(s->cfg.argv[i]) + 1;
		if (used + len > sizeof(s->cmdline))
			break;
		memcpy(s->cmdline + used, s->cfg.argv[i], len);
		s->argv[argc++] = s->cmdline + used;
		used += len;
	}
	s->cfg.argc = argc;
	s->cfg.argv = s->argv;
}

/* The image's GNU build-id note (placed by the linker script), if any */
extern const u8 __perfrec_build_id_start[], __perfrec_build_id_end[];

#define PERFREC_NT_GNU_BUILD_ID		3

static void perfrec_find_build_id(struct perf_data_info *info)
{
	const u8 *note = __perfrec_build_id_start;
	u32 namesz, descsz, type;

	if (!IS_ENABLED(CONFIG_PERFREC_BUILD_ID) || __perfrec_build_id_end - note < 16)
		return;
	memcpy(&namesz, note, sizeof(namesz));
	memcpy(&descsz, note + 4, sizeof(descsz));
	memcpy(&type, note + 8, sizeof(type));
	if (type != PERFREC_NT_GNU_BUILD_ID || namesz != 4 || memcmp(note + 12, "GNU", 4) ||
	    !descsz || descsz > PERF_DATA_BUILD_ID_MAX ||
	    note + 16 + descsz > __perfrec_build_id_end)
		return;
	info->build_id = note + 16;
	info->build_id_len = descsz;
}

static void perfrec_fill_info(struct perfrec_session *s)
{
	struct perf_data_info *info = &s->info;
	const char *model;
	ofnode cpus, cpu;
	uint i, nr_cpus = 0;

	for (i = 0; i < s->cfg.nr_events; i++) {
		const struct perfrec_event_cfg *ec = &s->cfg.events[i];

		s->events[i].type = ec->type;
		s->events[i].config = ec->config;
		s->events[i].freq = !!ec->freq_hz;
		s->events[i].period = ec->freq_hz ? ec->freq_hz : ec->period;
		s->events[i].id = i + 1;
		s->events[i].name = ec->name;
		s->events[i].callchain = s->cfg.callchain;
	}

	cpus = ofnode_path("/cpus");
	ofnode_for_each_subnode(cpu, cpus) {
		const char *type = ofnode_read_string(cpu, "device_type");

		if (type && !strcmp(type, "cpu"))
			nr_cpus++;
	}
	model = ofnode_read_string(ofnode_root(), "model");
	snprintf(s->cpuid, sizeof(s->cpuid), "0x%016llx", read_midr_el1());
	snprintf(s->osrelease, sizeof(s->osrelease), "U-Boot %s", PLAIN_VERSION);

	memset(info, 0, sizeof(*info));
	info->events = s->events;
	info->nr_events = s->cfg.nr_events;
	info->pid = PERFREC_PID;
	info->tid = PERFREC_PID;
	info->comm = "u-boot";
	info->image_start = gd->relocaddr;
	info->image_len = gd->mon_len;
	info->image_pgoff = READ_ONCE(perfrec_image_pgoff);
	info->image_name = "/u-boot";
	info->hostname = model ? model : CONFIG_SYS_BOARD;
	info->osrelease = s->osrelease;
	info->version = PERFREC_VERSION;
	info->arch = "aarch64";
	info->cpuid = s->cpuid;
	info->nr_cpus_avail = max(nr_cpus, 1U);
	info->nr_cpus_online = 1;
	info->total_mem_kb = gd->ram_size / 1024;
	info->argv = s->argv;
	info->argc = s->cfg.argc;
	perfrec_find_build_id(info);
}

/* Give each event a counter: cycles the cycle counter if free, others in order */
static int perfrec_assign_counters(struct perfrec_session *s)
{
	struct perfrec_irq *st = &perfrec_irq;
	uint i, next_event_counter = 0;

	for (i = 0; i < s->cfg.nr_events; i++) {
		const struct perfrec_event_cfg *ec = &s->cfg.events[i];
		struct perfrec_counter *c = &st->counter[i];

		s->failed_event = i;
		if (ec->timer) {
			/* cpu-clock: the generic timer, in nanoseconds */
			c->idx = PERFREC_TIMER_IDX;
			c->max_period = U64_MAX;
			continue;
		}
		if (ec->cycle_counter && !(st->ovf_mask & BIT(PMUV3_CYCLE_IDX))) {
			c->idx = PMUV3_CYCLE_IDX;
		} else {
			if (next_event_counter >= s->hw.nr_counters)
				return -E2BIG;
			c->idx = next_event_counter++;
		}
		st->ovf_mask |= BIT(c->idx);
		/* The cycle counter is 64 bits (PMCR_EL0.LC), the others from PMUv3p5 */
		c->max_period = c->idx == PMUV3_CYCLE_IDX || s->hw.long_events ? U64_MAX :
				U32_MAX;
		if (ec->period > c->max_period)
			return -ERANGE;
	}
	s->failed_event = -1;
	st->nr_counters = s->cfg.nr_events;

	return 0;
}

/* Generic-timer ticks in @ns nanoseconds (at least one), and back */
static u64 perfrec_ns_to_ticks(u64 ns, u64 freq)
{
	u64 ticks = ns / PERFREC_NSEC_PER_SEC * freq +
		    ns % PERFREC_NSEC_PER_SEC * freq / PERFREC_NSEC_PER_SEC;

	return max(ticks, 1ULL);
}

static u64 perfrec_ticks_to_ns(u64 ticks, u64 freq)
{
	return ticks / freq * PERFREC_NSEC_PER_SEC + ticks % freq * PERFREC_NSEC_PER_SEC / freq;
}

static int perfrec_init_irq(struct perfrec_session *s)
{
	struct perfrec_irq *st = &perfrec_irq;
	uint i;
	int ret;

	memset(st, 0, sizeof(*st));
	st->intid = s->gic.intid;
	st->gic.version = s->gic.version;
	st->gic.cpu = s->gic.cpu;
	st->gic.group0 = s->gic.group0;
	st->timer = s->cfg.source == PERFREC_SRC_TIMER;
	st->timer_el = s->timer.el;
	st->pid = PERFREC_PID;
	st->ns_mult = (PERFREC_NSEC_PER_SEC << 32) / read_cntfrq_el0();
	st->stat = s->cfg.mode == PERFREC_STAT;
	st->callchain = s->cfg.callchain;
	st->max_depth = CONFIG_PERFREC_CALLCHAIN_DEPTH;
	st->text_start = gd->relocaddr;
	st->text_end = gd->relocaddr + READ_ONCE(perfrec_image_text_bytes);
	st->stack_top = gd->start_addr_sp;
	st->jitter_pct = s->cfg.jitter_pct;
	st->general = s->cfg.callchain || s->gic.group0 || st->timer || st->stat ||
		      st->jitter_pct || s->cfg.nr_events != 1;
	st->rng = read_cntpct_el0() | 1;
	ret = perfrec_assign_counters(s);
	if (ret)
		return ret;
	if (st->timer && st->stat)
		st->timer_ticks = perfrec_ns_to_ticks(PERFREC_STAT_POLL_NS, read_cntfrq_el0());

	for (i = 0; i < st->nr_counters; i++) {
		const struct perfrec_event_cfg *ec = &s->cfg.events[i];
		struct perfrec_counter *c = &st->counter[i];

		c->id = s->events[i].id;
		if (st->stat) {
			/* Count from 0, or from just before the wrap */
			s->start[i] = s->cfg.preload ? (c->max_period - s->cfg.preload + 1) &
				      c->max_period : 0;
			continue;
		}
		if (ec->timer) {
			/* The period the timer can keep: whole ticks, in ns */
			st->timer_ticks = perfrec_ns_to_ticks(ec->freq_hz ?
							      PERFREC_NSEC_PER_SEC / ec->freq_hz :
							      ec->period, read_cntfrq_el0());
			c->period = perfrec_ticks_to_ns(st->timer_ticks, read_cntfrq_el0());
			c->base_period = c->period;
			continue;
		}
		if (ec->freq_hz) {
			/* The first period assumes 1 GHz; the adaptation corrects it */
			c->target_ns = PERFREC_NSEC_PER_SEC / ec->freq_hz;
			c->period = min(c->target_ns, c->max_period);
		} else {
			c->period = ec->period;
		}
		c->base_period = c->period;
		s->start[i] = -c->period & c->max_period;
	}

	return 0;
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

int perfrec_arm(const struct perfrec_cfg *cfg)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	bool irq = cfg->source != PERFREC_SRC_NONE;
	ofnode node;
	uint i;
	int ret;

	if (s->state == PERFREC_ARMED)
		return -EBUSY;
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
	if (READ_ONCE(perfrec_image_pgoff) == PERFREC_PGOFF_UNSET ||
	    READ_ONCE(perfrec_image_text_bytes) == PERFREC_PGOFF_UNSET)
		return log_msg_ret("pgoff", -ENOEXEC);
	if (cfg->callchain && !IS_ENABLED(CONFIG_PERFREC_CALLCHAIN))
		return log_msg_ret("chain", -EOPNOTSUPP);
	ret = perfrec_probe_device(node);
	if (ret)
		return log_msg_ret("dev", ret);

	s->cfg = *cfg;
	perfrec_copy_cmdline(s);
	perfrec_fill_info(s);
	ret = perfrec_init_irq(s);
	if (ret)
		return log_msg_ret("counters", ret);
	if (cfg->mode == PERFREC_RECORD) {
		s->info.start_time = perfrec_irq_now_ns(st);
		ret = perf_data_begin(&s->writer, cfg->buf, cfg->buf_size, &s->info, &s->layout);
		if (ret)
			return log_msg_ret("head", ret);
		st->ring.base = cfg->buf + s->layout.ring_offset;
		st->ring.size = ALIGN_DOWN(s->layout.ring_bytes, sizeof(u64));
	}

	perfrec_session_snapshot(s, &s->before);
	if (irq) {
		ret = perfrec_gic_setup(&s->gic);
		if (ret)
			return log_msg_ret("gic", ret);
	}

	/* Interrupts are masked at the prompt; keep them so until all is ready */
	perfrec_cpu_mask(&s->cpu);
	if (irq && !cfg->no_probe) {
		ret = perfrec_probe_irq(s);
		if (ret) {
			perfrec_gic_restore(&s->gic);
			perfrec_cpu_restore_daif(&s->cpu);
			return log_msg_ret("probe", ret);
		}
	}
	perfrec_cpu_take(&s->cpu);
	if (s->have_pmu) {
		pmuv3_save(&s->hw, &s->pmu);
		for (i = 0; i < st->nr_counters; i++) {
			if (st->counter[i].idx != PERFREC_TIMER_IDX)
				pmuv3_program(st->counter[i].idx, s->cfg.events[i].pmu_event,
					      s->start[i]);
		}
	}
	s->start_ns = perfrec_irq_now_ns(st);
	s->id = (u32)(s->start_ns ^ s->start_ns >> 32);
	for (i = 0; i < st->nr_counters; i++)
		st->counter[i].last_ns = s->start_ns;
	if (s->have_pmu && st->ovf_mask)
		pmuv3_start(&s->hw, st->ovf_mask,
			    cfg->source == PERFREC_SRC_PMU ? st->ovf_mask : 0);
	if (st->timer) {
		s->start_ticks = read_cntpct_el0();
		st->timer_cval = s->start_ticks + st->timer_ticks;
		perfrec_timer_start(&s->timer, st->timer_cval);
	}
	s->state = PERFREC_ARMED;
	s->restore_err = 0;
	s->streamed = false;
	s->stream_seq = 0;
	s->stream_done = false;
	s->first_ns = 0;
	if (irq)
		perfrec_cpu_unmask(s->gic.group0);

	return 0;
}

/*
 * A counter's total at disarm. Recording: its finished intervals plus what
 * it counted since the last reload (it started at -period); an overflow
 * whose interrupt had not been taken yet finished an interval without a
 * sample. Counting: the wraps plus the value, less where it started.
 */
static u64 perfrec_total(struct perfrec_session *s, uint i)
{
	struct perfrec_counter *c = &perfrec_irq.counter[i];
	u64 val, ticks, passed, left, ahead;
	bool pending;

	if (c->idx == PERFREC_TIMER_IDX) {
		if (perfrec_irq.stat)
			return s->end_ns - s->start_ns;
		/* Every deadline that passed was sampled or late; one not taken is late */
		ticks = s->end_ticks - s->start_ticks;
		passed = ticks / perfrec_irq.timer_ticks;
		c->late += passed - c->count / c->period;
		return perfrec_ticks_to_ns(ticks, read_cntfrq_el0());
	}
	val = pmuv3_read_counter(c->idx) & c->max_period;
	pending = pmuv3_overflowed(c->idx);

	if (perfrec_irq.stat) {
		if (pending)
			c->count += c->max_period + 1;
		return c->count + val - s->start[i];
	}
	if (!pending) {
		/*
		 * After a late interrupt the handler may have set the counter
		 * whole periods ahead, counting them late in advance: those
		 * that have not passed yet are taken back.
		 */
		left = -val & c->max_period;
		ahead = left > c->period ? (left - 1) / c->period : 0;
		c->late -= ahead;
		c->count -= ahead * c->period;
		return c->count + (ahead + 1) * c->period - left;
	}
	c->late++;
	c->count += c->period;
	val = perfrec_irq_settle(c, val, c->period);

	return c->count + val;
}

/* The statistics the end of a perf.data states */
static void perfrec_stats(struct perf_data_stats *stats)
{
	struct perfrec_irq *st = &perfrec_irq;

	memset(stats, 0, sizeof(*stats));
	stats->lost = st->lost;
	stats->first_time = perfrec_session.first_ns;
	stats->last_time = st->last_ns;
}

int perfrec_disarm(void)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	struct perf_data_stats stats = { 0 };
	struct perfrec_snapshot after;
	uint i;
	int ret;

	if (s->state != PERFREC_ARMED)
		return -EALREADY;

	perfrec_cpu_block();
	if (s->have_pmu)
		pmuv3_stop(st->ovf_mask);
	s->end_ticks = read_cntpct_el0();
	if (st->timer)
		perfrec_timer_restore(&s->timer);
	s->end_ns = perfrec_irq_now_ns(st);
	for (i = 0; i < st->nr_counters; i++)
		s->count[i] = perfrec_total(s, i);
	if (s->have_pmu)
		pmuv3_restore(&s->pmu);
	perfrec_cpu_give_back(&s->cpu);
	if (s->cfg.source != PERFREC_SRC_NONE)
		perfrec_gic_restore(&s->gic);
	perfrec_cpu_restore_daif(&s->cpu);

	perfrec_session_snapshot(s, &after);
	s->restore_err = perfrec_snap_compare(&s->before, &after, &s->mismatch);
	s->state = PERFREC_FINALISED;
	/* Streamed samples are gone from the ring: only the stream has them all */
	if (s->cfg.mode == PERFREC_STAT || s->streamed)
		return s->restore_err;

	if (st->samples)
		memcpy(&s->first_ns, (u8 *)st->ring.base + offsetof(struct perf_data_sample, time),
		       sizeof(s->first_ns));
	perfrec_stats(&stats);
	stats.records_bytes = st->ring.head;
	ret = perf_data_finish(&s->writer, &s->info, &s->layout, &stats, &s->size);
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

/* Copy @len bytes from ring offset @from (mod its size) to @dst */
static void perfrec_ring_copy(const struct perfrec_ring *ring, u64 from, void *dst, u64 len)
{
	u64 off = from % ring->size;
	u64 first = min(len, ring->size - off);

	memcpy(dst, (u8 *)ring->base + off, first);
	memcpy((u8 *)dst + first, ring->base, len - first);
}

size_t perfrec_stream_pending(void)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	struct perf_data_writer count;
	struct perf_data_stats stats;
	size_t bytes;

	if (s->state == PERFREC_IDLE || s->cfg.mode != PERFREC_RECORD || s->stream_done)
		return 0;
	bytes = READ_ONCE(st->ring.head) - st->ring.tail;
	if (!s->stream_seq && !perf_data_pipe_head(&count, NULL, SIZE_MAX, &s->info))
		bytes += count.pos;
	if (s->state == PERFREC_FINALISED) {
		perfrec_stats(&stats);
		count.buf = NULL;
		count.cap = SIZE_MAX;
		count.pos = 0;
		if (!perf_data_pipe_tail(&count, &s->info, &stats))
			bytes += count.pos;
	}

	return bytes;
}

int perfrec_stream_read(void *buf, size_t size, struct perfrec_chunk *chunk)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_ring *ring = &perfrec_irq.ring;
	struct perf_data_writer w = { .buf = buf, .cap = size };
	struct perf_data_event_header hdr;
	struct perf_data_stats stats;
	u64 head, tail = ring->tail;
	int ret;

	memset(chunk, 0, sizeof(*chunk));
	if (s->state == PERFREC_IDLE || s->cfg.mode != PERFREC_RECORD || s->stream_done)
		return -ENODATA;
	if (!s->stream_seq) {
		ret = perf_data_pipe_head(&w, buf, size, &s->info);
		if (ret)
			return ret;
	}

	/* Whole records between the consumer's tail and the producer's head */
	head = READ_ONCE(ring->head);
	barrier();	/* the records up to head are complete before they are read */
	while (tail < head) {
		perfrec_ring_copy(ring, tail, &hdr, sizeof(hdr));
		if (hdr.size > w.cap - w.pos)
			break;
		perfrec_ring_copy(ring, tail, w.buf + w.pos, hdr.size);
		if (!s->first_ns && hdr.type == PERF_DATA_RECORD_SAMPLE)
			memcpy(&s->first_ns, w.buf + w.pos +
			       offsetof(struct perf_data_sample, time), sizeof(s->first_ns));
		w.pos += hdr.size;
		tail += hdr.size;
	}
	if (tail < head && !w.pos)
		return -ENOSPC;
	barrier();	/* copied before the producer may reuse the room */
	WRITE_ONCE(ring->tail, tail);

	if (s->state == PERFREC_FINALISED && tail == head) {
		perfrec_stats(&stats);
		if (!perf_data_pipe_tail(&w, &s->info, &stats)) {
			chunk->last = true;
			s->stream_done = true;
		}
	}
	if (!w.pos)
		return 0;
	if (s->state == PERFREC_ARMED)
		s->streamed = true;
	chunk->len = w.pos;
	chunk->seq = s->stream_seq++;

	return 0;
}

int perfrec_walk_samples(perfrec_sample_fn fn, void *ctx)
{
	struct perfrec_session *s = &perfrec_session;
	const u8 *rec = (const u8 *)perfrec_irq.ring.base;
	const u8 *end = rec + perfrec_irq.ring.head;
	struct perfrec_sample_view view;
	struct perf_data_sample sample;
	u64 nr;
	int ret;

	if (s->state != PERFREC_FINALISED || s->cfg.mode != PERFREC_RECORD || s->streamed)
		return -ENODATA;
	for (; rec < end; rec += sample.header.size) {
		memcpy(&sample, rec, sizeof(sample));
		if (sample.header.type != PERF_DATA_RECORD_SAMPLE)
			continue;
		view.event = sample.id - 1;
		view.ip = sample.ip;
		view.period = sample.period;
		view.chain = NULL;
		view.chain_len = 0;
		if (s->cfg.callchain) {
			/* nr, then PERF_CONTEXT_USER and the PC, then the callers */
			memcpy(&nr, rec + sizeof(sample), sizeof(nr));
			if (nr > 2) {
				view.chain = (const u64 *)(rec + sizeof(sample) + 3 * sizeof(u64));
				view.chain_len = nr - 2;
			}
		}
		ret = fn(ctx, &view);
		if (ret)
			return ret;
	}

	return 0;
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
	res->ring_used = st->ring.head - st->ring.tail;
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
