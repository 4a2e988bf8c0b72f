// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: sample a U-Boot command into a perf.data that host perf reads
 *
 * Parsing, messages and environment only; the hardware is the session's
 * business (include/perfrec.h). Options and events are parsed in
 * perfrec_opts.c, what is shown of a recording in perfrec_show.c.
 */

#include <command.h>
#include <console.h>
#include <env.h>
#include <errno.h>
#include <malloc.h>
#include <mapmem.h>
#include <perfrec.h>
#include <perfrec_compat.h>
#include <perfrec_frame.h>
#include <perfrec_report.h>
#include <perfrec_stream.h>
#include <stdio.h>
#include <vsprintf.h>
#include <asm/global_data.h>
#include <asm/system.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_opts.h"
#include "perfrec_show.h"

DECLARE_GLOBAL_DATA_PTR;

/* The recording's buffer as mapped by perfrec_begin_recording() */
static void *perfrec_buf_map;

/* Check the user's buffer: aligned, in DRAM, clear of everything U-Boot uses */
static int perfrec_check_buffer(ulong addr, ulong size)
{
	if (!size) {
		printf("Invalid buffer size 0\n");
		return -EINVAL;
	}
	if (addr % sizeof(u64)) {
		printf("Buffer address %#lx is not 8-byte aligned\n", addr);
		return -EINVAL;
	}
	switch (perfrec_buffer_check(addr, size)) {
	case 0:
		return 0;
	case -ERANGE:
		printf("Buffer %#lx+%#lx is not inside DRAM\n", addr, size);
		return -EINVAL;
	default:
		printf("Buffer %#lx+%#lx overlaps memory U-Boot uses\n", addr, size);
		return -EINVAL;
	}
}

/* Run the workload: one word is a command line (may hold ';'), more are argv */
static int perfrec_run_workload(int argc, char *const argv[])
{
	int repeatable;
	int ret;

	if (argc == 1)
		ret = run_command(argv[0], 0);
	else
		ret = cmd_process(0, argc, argv, &repeatable, NULL);

	return ret ? CMD_RET_FAILURE : CMD_RET_SUCCESS;
}

/* The host file 'perfrec start -H' names, written by 'perfrec stop' */
static char perfrec_host_path[PERFREC_HOST_PATH_LEN];

/*
 * The default event needs the PMU interrupt; when that is missing or silent,
 * sample cpu-clock on the timer, which always works. An event the user
 * named is not swapped for another.
 */
static bool perfrec_record_fallback(struct perfrec_cfg *cfg,
				    const struct perfrec_irq_report *irq, void *ctx)
{
	const struct perfrec_opts *o = ctx;
	char why[PERFREC_WHY_LEN];

	if (o->events_given || irq->source != PERFREC_SRC_PMU)
		return false;
	perfrec_irq_reason(irq, why, sizeof(why));
	perfrec_event_lookup(PERFREC_CPU_CLOCK, &cfg->events[0]);
	cfg->events[0].period = 0;
	cfg->events[0].freq_hz = o->freq ? min_t(u64, o->freq, PERFREC_MAX_FREQ_HZ) :
				 PERFREC_DEFAULT_FREQ_HZ;
	cfg->source = PERFREC_SRC_TIMER;
	printf("perfrec: %s; sampling cpu-clock at %u Hz instead\n", why, cfg->events[0].freq_hz);

	return true;
}

/* Set up and arm a recording from 'record' or 'start' options; print why not */
static int perfrec_begin_recording(struct perfrec_opts *o, int argc, char *const argv[])
{
	struct perfrec_cfg cfg = { .mode = PERFREC_RECORD };
	struct perfrec_result res;
	uint i;
	int ret;

	perfrec_get_result(&res);
	if (res.state == PERFREC_ARMED) {
		printf("perfrec is already recording\n");
		return CMD_RET_FAILURE;
	}
	ret = perfrec_parse_events(o->events, true, &cfg);
	if (ret)
		return ret;
	if (!o->period && !o->freq)
		o->freq = PERFREC_DEFAULT_FREQ_HZ;
	for (i = 0; i < cfg.nr_events; i++) {
		struct perfrec_event_cfg *ev = &cfg.events[i];

		if (!ev->period && !ev->freq_hz) {
			ev->period = o->period;
			ev->freq_hz = o->freq;
		}
		if (ev->freq_hz > PERFREC_MAX_FREQ_HZ) {
			printf("Frequency %u Hz is above the %u Hz limit: using %u Hz\n",
			       ev->freq_hz, PERFREC_MAX_FREQ_HZ, PERFREC_MAX_FREQ_HZ);
			ev->freq_hz = PERFREC_MAX_FREQ_HZ;
		}
	}
	cfg.jitter_pct = o->jitter;
	cfg.callchain = o->callchain;
	cfg.no_probe = o->no_probe;
	if (perfrec_clock_check(&cfg))
		return CMD_RET_FAILURE;

	perfrec_release_buffer();
	if (!o->have_addr) {
		const char *area;

		if (perfrec_buffer_default(o->size, 0, 0, &o->addr, &area)) {
			printf("No free DRAM for a %#lx-byte buffer: give -o <addr> and -s <size>\n",
			       o->size);
			return CMD_RET_FAILURE;
		}
		if (area)
			perfrec_buffer_note_area(o->addr, area);
	} else if (perfrec_check_buffer(o->addr, o->size)) {
		return CMD_RET_FAILURE;
	}

	cfg.buf = map_sysmem(o->addr, o->size);
	cfg.buf_addr = o->addr;
	cfg.buf_size = o->size;
	cfg.argc = argc + 1;
	cfg.argv = (const char *const *)argv - 1;	/* from "perfrec" on */
	ret = perfrec_arm_fallback(&cfg, perfrec_record_fallback, o);
	if (ret) {
		unmap_sysmem(cfg.buf);
		perfrec_print_arm_error(ret, &cfg);
		return CMD_RET_FAILURE;
	}
	perfrec_buf_map = cfg.buf;
	strlcpy(perfrec_host_path, o->host_path ? o->host_path : "", sizeof(perfrec_host_path));
	perfrec_stream_setup(o->stream_rate, o->compress);

	return CMD_RET_SUCCESS;
}

/*
 * Stop and finalise the recording; print the summary line (with the
 * workload's return code @wret if it is not negative) and set fileaddr and
 * filesize. Return a CMD_RET_ value.
 */
static int perfrec_end_recording(int wret)
{
	struct perfrec_result res;
	int ret;

	ret = perfrec_disarm();
	perfrec_get_result(&res);
	unmap_sysmem(perfrec_buf_map);
	if (ret == -EIO) {
		printf("perfrec: %s not restored: %#llx before, %#llx after\n", res.mismatch,
		       res.before, res.after);
		return CMD_RET_FAILURE;
	}
	if (ret) {
		printf("perfrec: cannot finalise the perf.data (err=%d)\n", ret);
		return CMD_RET_FAILURE;
	}
	if (res.streamed) {
		printf("perfrec: %llu samples, %llu lost, streamed\n", res.samples, res.lost);
		return perfrec_stream_finish() ? CMD_RET_FAILURE : CMD_RET_SUCCESS;
	}
	printf("perfrec: %llu samples, %llu lost, %lu bytes of perf.data at %#lx", res.samples,
	       res.lost, res.size, res.addr);
	if (wret >= 0)
		printf(", workload rc %d", wret);
	printf("\n");
	if (res.lost)
		printf("perfrec: the buffer filled up: give a larger -s or a lower -F\n");
	perfrec_print_missed(&res);
	env_set_hex("fileaddr", res.addr);
	env_set_hex("filesize", res.size);
	if (*perfrec_host_path)
		return perfrec_host_write(perfrec_host_path, res.addr, res.size) ?
			CMD_RET_FAILURE : CMD_RET_SUCCESS;

	return CMD_RET_SUCCESS;
}

static int do_perfrec_record(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_opts o;
	int ret, wret;

	ret = perfrec_parse_opts(argc, argv, "ecFosjHgN", true, &o);
	if (!ret)
		ret = perfrec_begin_recording(&o, argc, argv);
	if (ret)
		return ret;

	wret = perfrec_run_workload(o.cmd_argc, o.cmd_argv);

	ret = perfrec_end_recording(wret);

	return ret ? ret : wret;
}

static int do_perfrec_start(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_result res;
	struct perfrec_opts o;
	int ret;

	ret = perfrec_parse_opts(argc, argv, "ecFosjHSzgN", false, &o);
	if (!ret)
		ret = perfrec_begin_recording(&o, argc, argv);
	if (ret)
		return ret;
	perfrec_get_result(&res);
	printf("perfrec: recording into %#lx (%lu bytes); 'perfrec stop' ends it\n", res.addr,
	       res.size);

	return CMD_RET_SUCCESS;
}

static int do_perfrec_stop(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_result res;

	if (argc != 1)
		return CMD_RET_USAGE;
	perfrec_get_result(&res);
	if (res.state != PERFREC_ARMED || res.mode != PERFREC_RECORD) {
		printf("perfrec is not recording: nothing to stop\n");
		return CMD_RET_FAILURE;
	}

	return perfrec_end_recording(-1);
}

/*
 * Arm a count. The PMU interrupt extends 32-bit counts to 64 bits; without
 * it, the timer checks the overflow flags every 10 ms instead; without
 * that either, a 32-bit event counter that wraps twice loses 2^32. Say so.
 */
static bool perfrec_stat_fallback(struct perfrec_cfg *cfg,
				  const struct perfrec_irq_report *irq, void *ctx)
{
	char why[PERFREC_WHY_LEN];

	perfrec_irq_reason(irq, why, sizeof(why));
	switch (cfg->source) {
	case PERFREC_SRC_PMU:
		printf("perfrec: %s; the timer extends the counts instead\n", why);
		cfg->source = PERFREC_SRC_TIMER;
		return true;
	case PERFREC_SRC_TIMER:
		printf("perfrec: and %s: 32-bit counts may wrap\n", why);
		cfg->source = PERFREC_SRC_NONE;
		return true;
	default:
		return false;
	}
}

static int perfrec_arm_stat(struct perfrec_cfg *cfg)
{
	int ret;

	cfg->source = PERFREC_SRC_PMU;
	ret = perfrec_arm_fallback(cfg, perfrec_stat_fallback, NULL);
	if (ret) {
		perfrec_print_arm_error(ret, cfg);
		return CMD_RET_FAILURE;
	}

	return CMD_RET_SUCCESS;
}

static int do_perfrec_stat(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_cfg cfg = { .mode = PERFREC_STAT };
	struct perfrec_result res;
	struct perfrec_opts o;
	int ret, wret;

	ret = perfrec_parse_opts(argc, argv, "ewN", true, &o);
	if (ret)
		return ret;
	perfrec_get_result(&res);
	if (res.state == PERFREC_ARMED) {
		printf("perfrec is already recording\n");
		return CMD_RET_FAILURE;
	}
	ret = perfrec_parse_events(o.events, false, &cfg);
	if (ret)
		return ret;
	cfg.preload = o.preload;
	cfg.no_probe = o.no_probe;
	ret = perfrec_arm_stat(&cfg);
	if (ret)
		return ret;

	wret = perfrec_run_workload(o.cmd_argc, o.cmd_argv);

	ret = perfrec_disarm();
	perfrec_get_result(&res);
	if (ret == -EIO) {
		printf("perfrec: %s not restored: %#llx before, %#llx after\n", res.mismatch,
		       res.before, res.after);
		return CMD_RET_FAILURE;
	}
	perfrec_stat_report(&cfg, o.cmd_argc, o.cmd_argv);

	return wret;
}

U_BOOT_LONGHELP(perfrec,
		"record [-e <events>] [-c <period> | -F <hz>] [-g] [-j <pct>] [-o <addr>]\n"
		"               [-s <size>] [-H <hostfile>] [-N] -- <command...>\n"
		"    - run <command> while sampling it into a perf.data in memory\n"
		"      -e: events, comma-separated (default cycles), each optionally\n"
		"          with /period=<n>/ or /freq=<hz>/; see 'perfrec list';\n"
		"          cpu-clock samples on the timer (when the PMU interrupt\n"
		"          is missing, the default falls back to it)\n"
		"      -c: events (cpu-clock: ns) per sample (decimal); -F: samples\n"
		"          per second (decimal, default 4000, at most 100000)\n"
		"      -g: record call graphs (frame pointers)\n"
		"      -j: vary each period randomly by up to <pct> percent (default 0)\n"
		"      -o, -s: buffer address and size (hex); default: a free region\n"
		"      -H: also write the perf.data to this host file (semihosting)\n"
		"      -N: do not check that the interrupt reaches the GIC\n"
		"perfrec start [-e <events>] [-c <period> | -F <hz>] [-g] [-j <pct>] [-o <addr>]\n"
		"              [-s <size>] [-H <hostfile>] [-N] [-S <bytes/s> [-z]]\n"
		"    - record while the shell runs other commands, until 'perfrec stop'\n"
		"      -S: stream new samples to the console after each command, at most\n"
		"          <bytes/s> on the wire (e.g. 11520 at 115200 baud); -z: gzip it\n"
		"perfrec stop - end the recording 'perfrec start' began\n"
		"perfrec stat [-e <events>] [-w <events>] [-N] -- <command...>\n"
		"    - run <command> and count events (-w: start the counters that many\n"
		"      events before they wrap)\n"
		"perfrec dump [-z] [-i] [-H <hostfile>] - print the last recording as framed\n"
		"    text (-z: gzip-compressed) for tools/perfrec/perfrec_extract.py, or\n"
		"    write it to a host file through semihosting; -i: only what is new,\n"
		"    as the next chunk of a pipe-mode stream (also while recording)\n"
		"perfrec list [-a] - list the events this CPU counts (-a: all known)\n"
		"perfrec report [-n <count>] - the hottest functions (and call paths)\n"
		"    of the last recording, named on the board (default 10, decimal)\n"
		"perfrec status [-v] - show the last session (-v: and the registers perfrec borrows)");

U_BOOT_CMD_WITH_SUBCMDS(perfrec, "Sample or count a command with the PMU, for host perf",
			perfrec_help_text,
	U_BOOT_SUBCMD_MKENT(record, CONFIG_SYS_MAXARGS, 0, do_perfrec_record),
	U_BOOT_SUBCMD_MKENT(start, CONFIG_SYS_MAXARGS, 0, do_perfrec_start),
	U_BOOT_SUBCMD_MKENT(stop, 1, 0, do_perfrec_stop),
	U_BOOT_SUBCMD_MKENT(stat, CONFIG_SYS_MAXARGS, 0, do_perfrec_stat),
	U_BOOT_SUBCMD_MKENT(dump, 4, 0, do_perfrec_dump),
	U_BOOT_SUBCMD_MKENT(list, 2, 1, do_perfrec_list),
	U_BOOT_SUBCMD_MKENT(report, 3, 1, do_perfrec_report),
	U_BOOT_SUBCMD_MKENT(status, 2, 1, do_perfrec_status));
