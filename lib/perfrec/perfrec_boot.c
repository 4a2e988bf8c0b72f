// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec from board_init_f(): record the whole boot, through relocation
 *
 * Before relocation nothing of U-Boot's own is writable: no BSS, no .data
 * (a board may run from flash), no lmb and no driver model for the PMU. The
 * boot recording lives in a fixed DRAM buffer (CONFIG_PERFREC_BOOT_ADDR and
 * _SIZE): the IRQ handler's state first (perfrec_irq_boot_handler() finds it
 * there by its constant address), then the session, then the sample ring.
 *
 * Hooks, in the order they run:
 * - perfrec_boot_start(), right after fdtdec_setup() in board_init_f(): the
 *   first point where the device tree (PMU, GIC, timer, /memory) is
 *   readable. Checks the buffer and the timer and arms as 'perfrec start'
 *   would, with the options of Kconfig; no console yet, so nothing is said.
 * - perfrec_boot_report(), right after console_init_f(): says in one line
 *   why the recording did not start, if it did not (or that it samples
 *   cpu-clock because the PMU's interrupt cannot be used).
 * - perfrec_boot_relocating(), right after setup_reloc(): a buffer that what
 *   U-Boot has reserved at the top of DRAM overlaps is dropped, and so is
 *   one that board code left out of DRAM (its banks, gd->ram_top). The image's
 *   relocated place is now known: from here on an address in either place is
 *   stored as an offset into the image (perfrec_irq_boot_addr()).
 * - crt0_64.S masks IRQs before c_runtime_cpu_setup() points VBAR at
 *   U-Boot's relocated vectors, and calls perfrec_boot_relocated() right
 *   after it: that installs the relocated copy of the boot vectors, makes
 *   the new place the one an address is tried against first, and lets the
 *   interrupt in again. relocate_code() is sampled; the masked window is
 *   a few dozen instructions.
 * - perfrec_boot_mark(), from bootstage_add_record(): at the bootstage marks
 *   that start a boot phase (board_init_f, board_init_r, main_loop,
 *   bootm_start, start_kernel; relocation starts one at setup_reloc()), the
 *   samples become a new thread's, named after the phase.
 * - perfrec_boot_adopt(), from perfrec_early.c once driver model and lmb
 *   are up: the recording becomes the early recording. Its perf.data goes
 *   into a buffer of the boot buffer's size at the top of free DRAM (placed
 *   as for any recording), the boot buffer's samples are copied into it
 *   with their offsets turned into run-time addresses, and the boot buffer
 *   is free again.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <fdtdec.h>
#include <init.h>
#include <log.h>
#include <mapmem.h>
#include <perfrec.h>
#include <perfrec_hw.h>
#include <perfrec_period.h>
#include <stdio.h>
#include <asm/global_data.h>
#include <asm/system.h>
#include <linux/kernel.h>
#include <linux/libfdt.h>
#include <linux/string.h>
#include "perfrec_boot_check.h"
#include "perfrec_info.h"
#include "perfrec_options.h"
#include "perfrec_session.h"

DECLARE_GLOBAL_DATA_PTR;

#define PERFREC_BOOT_MAGIC	0x746f6f6263657270ULL	/* "perfboot" */

/* Reads of CNTPCT_EL0 within which it must move */
#define PERFREC_BOOT_TICK_TRIES	100000

/**
 * struct perfrec_boot - The boot recording, at CONFIG_PERFREC_BOOT_ADDR
 *
 * @irq: the IRQ handler's state (first: PERFREC_BOOT_IRQ)
 * @magic: PERFREC_BOOT_MAGIC while the recording is live, else 0
 * @size: the buffer's size (its option's value when it started)
 * @err: why it did not start (0 if it did)
 * @event_err: the event could not be used: perfrec_event_lookup()'s error
 * @timer: the generic timer is unusable: perfrec_hw_timer_runs()'s error
 * @sess: the session, as perfrec_session_arm() left it (and whether it
 *	fell back to cpu-clock, and why)
 * @ring: the samples
 */
struct perfrec_boot {
	struct perfrec_irq irq;
	u64 magic;
	ulong size;
	int err;
	int event_err;
	int timer;
	struct perfrec_session sess;
	u64 ring[] __aligned(64);
};

/**
 * struct perfrec_boot_opts - The boot recording's options
 *
 * Kconfig's, or for one boot the control device tree's /options/u-boot
 * (perfrec,<name>), read once by each hook that needs them
 *
 * @on: record at all ("perfrec,early")
 * @size: the buffer's size ("perfrec,boot-size")
 * @event: the event ("perfrec,boot-event", a string)
 * @period: its period ("perfrec,boot-period")
 * @callchain: with call chains ("perfrec,boot-callchain")
 * @raw: a test's negative control, no record-time classification of
 *	addresses ("perfrec,boot-raw-addresses")
 */
struct perfrec_boot_opts {
	bool on;
	ulong size;
	const char *event;
	u32 period;
	bool callchain;
	bool raw;
};

/* The boot's options: Kconfig's, or for one boot /options/u-boot's (@dt found it) */
static void perfrec_boot_opts(struct perfrec_boot_opts *opts, const struct perfrec_dt *dt)
{
	const void *blob = gd->fdt_blob;
	int node = ofnode_valid(dt->options) ? ofnode_to_offset(dt->options) : -1;
	const char *event;
	int len;

	opts->on = true;
	opts->size = CONFIG_PERFREC_BOOT_SIZE;
	opts->event = CONFIG_PERFREC_BOOT_EVENT;
	opts->period = CONFIG_PERFREC_BOOT_PERIOD;
	opts->callchain = IS_ENABLED(CONFIG_PERFREC_BOOT_CALLCHAIN);
	opts->raw = false;
	if (node < 0)
		return;
	opts->on = fdtdec_get_uint(blob, node, "perfrec,early", 1);
	opts->size = fdtdec_get_uint(blob, node, "perfrec,boot-size", opts->size);
	opts->period = fdtdec_get_uint(blob, node, "perfrec,boot-period", opts->period);
	opts->callchain = fdtdec_get_uint(blob, node, "perfrec,boot-callchain", opts->callchain);
	opts->raw = fdtdec_get_uint(blob, node, "perfrec,boot-raw-addresses", 0);
	event = fdt_getprop(blob, node, "perfrec,boot-event", &len);
	if (event && len > 0 && strnlen(event, len) < len)
		opts->event = event;
}

static struct perfrec_boot *perfrec_boot_buf(void)
{
	return map_sysmem(CONFIG_PERFREC_BOOT_ADDR, sizeof(struct perfrec_boot));
}

static int perfrec_boot_arm(struct perfrec_boot *b, struct perfrec_cfg *cfg)
{
	b->sess.st = &b->irq;
	b->sess.boot = true;
	b->sess.phases = true;

	return perfrec_session_arm(&b->sess, cfg);
}

int perfrec_boot_start(void)
{
	static const char *const argv[] = { "u-boot" };
	struct perfrec_boot *b = perfrec_boot_buf();
	struct perfrec_boot_opts opts;
	struct perfrec_cfg cfg = {
		.mode = PERFREC_RECORD,
		.nr_events = 1,
		.source = PERFREC_SRC_PMU,
		.buf = b->ring,
		.buf_addr = CONFIG_PERFREC_BOOT_ADDR + offsetof(struct perfrec_boot, ring),
		.argc = ARRAY_SIZE(argv),
		.argv = argv,
		.quiet = true,	/* no console yet: perfrec_boot_report() says it */
	};
	struct perfrec_event_cfg *ev = &cfg.events[0];
	char why[PERFREC_BOOT_WHY_LEN];
	struct perfrec_dt dt;

	/* The arming's one walk of the device tree, before the buffer is known good */
	perfrec_dt_scan(&dt);
	perfrec_boot_opts(&opts, &dt);
	if (!opts.on || perfrec_boot_bad_buffer(CONFIG_PERFREC_BOOT_ADDR, opts.size,
						sizeof(struct perfrec_boot), &dt, why))
		return 0;
	cfg.callchain = opts.callchain;
	cfg.buf_size = opts.size - offsetof(struct perfrec_boot, ring);
	memset(b, 0, sizeof(*b));
	*perfrec_hw_dt(&b->sess.hw) = dt;
	b->size = opts.size;
	b->timer = perfrec_hw_timer_runs(PERFREC_BOOT_TICK_TRIES);
	if (b->timer) {
		b->err = -ETIME;
		return 0;
	}
	b->event_err = perfrec_event_lookup(opts.event, ev);
	b->err = b->event_err;
	if (b->err)
		return 0;
	ev->period = opts.period;
	if (ev->timer) {
		cfg.source = PERFREC_SRC_TIMER;
	} else {
		/*
		 * As 'perfrec record' does: the PMU's interrupt is missing or
		 * silent. The period counts events, not nanoseconds: cpu-clock
		 * goes at its highest rate, near what the default period gives
		 * at 1-2 GHz.
		 */
		cfg.fallback[cfg.nr_fallback++] = PERFREC_SRC_TIMER;
		perfrec_event_lookup(PERFREC_CPU_CLOCK, &cfg.clock);
		cfg.clock.freq_hz = PERFREC_MAX_FREQ_HZ;
	}
	b->err = perfrec_boot_arm(b, &cfg);
	if (b->err)
		return 0;
	b->magic = PERFREC_BOOT_MAGIC;
	if (opts.raw) {
		/* A test's negative control: no record-time classification */
		perfrec_hw_block();
		b->irq.img_bytes = 0;
		perfrec_hw_unmask(&b->sess.hw);
	}

	return 0;
}

/* Is the whole buffer in RAM? gd knows from setup_dest_addr() on, the device tree before */
static bool perfrec_boot_in_ram(ulong start, ulong size)
{
	struct perfrec_dt dt;

	if (!gd->ram_top) {
		perfrec_dt_scan(&dt);
		return perfrec_boot_in_memory(start, size, &dt);
	}

	return start >= gd->ram_base && start < gd->ram_top && size <= gd->ram_top - start;
}

/*
 * The boot recording, if it is live: its vectors are in (in the image that
 * runs; after relocation, from perfrec_boot_relocated() on)
 */
static struct perfrec_boot *perfrec_boot_live(void)
{
	return perfrec_cpu_vectors_ours(true) ? perfrec_boot_buf() : NULL;
}

/* Stop the boot recording where it is, give everything back and say why (if @why) */
static void perfrec_boot_drop(struct perfrec_boot *b, const char *why)
{
	int ret;

	ret = perfrec_session_disarm(&b->sess);
	b->magic = 0;
	if (!why)
		return;
	printf("perfrec: boot buffer %#lx-%#lx %s: the boot recording is dropped\n",
	       (ulong)CONFIG_PERFREC_BOOT_ADDR,
	       (ulong)CONFIG_PERFREC_BOOT_ADDR + b->size - 1, why);
	if (ret)
		printf("perfrec: %s was not restored (%#llx, now %#llx)\n",
		       b->sess.mismatch.name, b->sess.mismatch.before, b->sess.mismatch.after);
}

int perfrec_boot_report(void)
{
	struct perfrec_boot *b = perfrec_boot_live();
	struct perfrec_boot_opts opts;
	char why[PERFREC_WHY_LEN];	/* longer than PERFREC_BOOT_WHY_LEN */
	struct perfrec_dt dt;

	/* Recording: its buffer was good, and holds all there is to say */
	if (b) {
		if (b->sess.fell_back) {
			perfrec_irq_reason(&b->sess.fallback_why, why, sizeof(why));
			printf("perfrec: %s; the boot recording samples cpu-clock at %u Hz instead\n",
			       why, b->sess.cfg.events[0].freq_hz);
		}
		return 0;
	}
	/*
	 * Not recording: say why. Nothing of the start's could be kept before
	 * relocation but in its buffer, which may be what was wrong.
	 */
	b = perfrec_boot_buf();
	perfrec_dt_scan(&dt);
	perfrec_boot_opts(&opts, &dt);
	if (!opts.on)
		return 0;
	if (perfrec_boot_bad_buffer(CONFIG_PERFREC_BOOT_ADDR, opts.size,
				    sizeof(struct perfrec_boot), &dt, why)) {
		printf("perfrec: boot buffer %#lx-%#lx %s: the boot is not recorded\n",
		       (ulong)CONFIG_PERFREC_BOOT_ADDR,
		       (ulong)CONFIG_PERFREC_BOOT_ADDR + opts.size - 1, why);
		return 0;
	}
	if (!b->err)
		return 0;
	if (b->timer) {
		printf("perfrec: the generic timer %s: the boot is not recorded\n",
		       b->timer == -ETIME ? "has no frequency (CNTFRQ_EL0 is 0)" :
		       "does not count (CNTPCT_EL0 stands still)");
	} else if (b->event_err) {
		printf("perfrec: event '%s' %s: the boot is not recorded\n", opts.event,
		       b->event_err == -ENOENT ? "is unknown (see 'perfrec list')" :
		       b->event_err == -EOPNOTSUPP ? "is not implemented by this CPU" :
		       b->event_err == -EACCES ? "is not counted in Secure state here (SPNIDEN)" :
		       b->event_err == -ENOSYS ? "needs CONFIG_PERFREC_EVENTS" :
		       "cannot be sampled on this PMU");
	} else if (b->sess.irq.fault != PERFREC_IRQ_OK) {
		perfrec_irq_reason(&b->sess.irq, why, sizeof(why));
		printf("perfrec: %s: the boot is not recorded\n", why);
	} else if (b->err == -ERANGE && b->sess.cfg.events[0].timer) {
		printf("perfrec: period %u ns of cpu-clock is below its %u ns minimum: the boot is not recorded\n",
		       opts.period, PERFREC_MIN_CLOCK_NS);
	} else if (b->err == -ERANGE) {
		printf("perfrec: period %u of event '%s' is too long for its 32-bit counter (at most %llu): the boot is not recorded\n",
		       opts.period, opts.event, perfrec_period_max(U32_MAX));
	} else {
		printf("perfrec: the boot recording of '%s' did not start (error %d)\n",
		       opts.event, b->err);
	}

	return 0;
}

int perfrec_boot_relocating(void)
{
	u64 now = perfrec_hw_time_ns();
	struct perfrec_boot *b = perfrec_boot_live();
	const char *bad;

	if (!b)
		return 0;
	bad = perfrec_boot_bad_at_reloc(CONFIG_PERFREC_BOOT_ADDR, b->size);
	if (bad) {
		perfrec_boot_drop(b, bad);
		return 0;
	}
	/* The handler reads these: all three change between two of its samples */
	perfrec_hw_block();
	b->irq.alt_stack_top = gd->start_addr_sp;
	b->irq.alt_start = gd->flags & GD_FLG_SKIP_RELOC ? b->irq.text_start : gd->relocaddr;
	b->irq.alt_end = b->irq.alt_start + b->irq.text_end - b->irq.text_start;
	perfrec_hw_unmask(&b->sess.hw);
	/* A span with no bootstage mark of its own */
	perfrec_session_phase(&b->sess, "relocation", now);

	return 0;
}

void perfrec_boot_relocated(u64 daif)
{
	struct perfrec_boot *b = perfrec_boot_buf();
	u64 vbar;

	/*
	 * IRQs were on only if perfrec had turned them on (U-Boot keeps them
	 * masked on arm64): the boot recording is live. Its state says so too.
	 */
	if (perfrec_hw_irq_masked(daif) ||
	    !perfrec_boot_in_ram(CONFIG_PERFREC_BOOT_ADDR, sizeof(*b)) ||
	    b->magic != PERFREC_BOOT_MAGIC || b->sess.state != PERFREC_ARMED)
		return;
	/*
	 * The code runs in its new place from now on: that place is tried
	 * first, as the old one was before (perfrec_irq_boot_addr())
	 */
	swap(b->irq.text_start, b->irq.alt_start);
	swap(b->irq.text_end, b->irq.alt_end);
	/* VBAR holds U-Boot's relocated vectors: it is what any end gives back */
	vbar = perfrec_cpu_switch_vectors(true);
	perfrec_hw_unmask(&b->sess.hw);
	/* The handler reads none of what this changes: sampled as the rest */
	perfrec_session_relocated(&b->sess, vbar);
}

/* The bootstage marks that start a boot phase, each a thread named after it */
static const char *const perfrec_boot_phases[] = {
	"board_init_f", "board_init_r", "main_loop", "bootm_start", "start_kernel",
};

void perfrec_boot_mark(const char *name)
{
	u64 now = perfrec_hw_time_ns();	/* the mark's time, before the checks */
	struct perfrec_boot *b;
	uint i;

	for (i = 0; i < ARRAY_SIZE(perfrec_boot_phases); i++) {
		if (name && !strcmp(name, perfrec_boot_phases[i]))
			break;
	}
	if (i == ARRAY_SIZE(perfrec_boot_phases))
		return;
	/* After adoption the session is U-Boot's (BSS is writable from relocation on) */
	if (gd->flags & GD_FLG_RELOC && perfrec_session.phases) {
		perfrec_session_phase(&perfrec_session, name, now);
		return;
	}
	b = perfrec_boot_live();
	if (b)
		perfrec_session_phase(&b->sess, name, now);
}

int perfrec_boot_adopt(struct perfrec_boot_result *res)
{
	struct perfrec_boot *b = perfrec_boot_live();
	ulong addr, size;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!b)
		return -ENOENT;
	size = b->size;
	res->from = CONFIG_PERFREC_BOOT_ADDR;
	perfrec_release_buffer();
	/* Not onto itself: lmb sees the boot buffer as free DRAM */
	ret = perfrec_buffer_place(size, CONFIG_PERFREC_BOOT_ADDR, size,
				   perfrec_hw_dt(&b->sess.hw)->reserved_memory, &addr, &res->area);
	if (ret) {
		res->why = "no room for it after relocation";
		perfrec_boot_drop(b, NULL);
		return ret;
	}
	res->to = addr;
	ret = perfrec_session_adopt(&b->sess, map_sysmem(addr, size), addr, size, &res->samples,
				    &res->copied);
	b->magic = 0;
	if (ret)
		res->why = ret == -ENOSPC ? "no room for its perf.data's head" :
			   "its PMU device would not probe";

	return ret;
}
