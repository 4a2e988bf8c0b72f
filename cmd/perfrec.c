// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: sample a U-Boot command into a perf.data that host perf reads
 *
 * Parsing, messages and environment only; the hardware is the session's
 * business (include/perfrec.h). Options and events are parsed in
 * perfrec_opts.c, the recording goes off the board in perfrec_dump.c, and
 * what is shown of it and the PMU is in perfrec_show.c.
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
#include "perfrec_dump.h"
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
	/*
	 * The default event needs the PMU interrupt; when that is missing or
	 * silent, sample cpu-clock on the timer, which always works. An event
	 * the user named is not swapped for another.
	 */
	if (!o->events_given && cfg.source == PERFREC_SRC_PMU) {
		cfg.fallback[cfg.nr_fallback++] = PERFREC_SRC_TIMER;
		perfrec_event_lookup(PERFREC_CPU_CLOCK, &cfg.clock);
		cfg.clock.freq_hz = o->freq ? min_t(u64, o->freq, PERFREC_MAX_FREQ_HZ) :
				    PERFREC_DEFAULT_FREQ_HZ;
	}

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
	ret = perfrec_arm(&cfg);
	if (ret) {
		unmap_sysmem(cfg.buf);
		perfrec_arm_failed(ret, &cfg);
		return CMD_RET_FAILURE;
	}
	perfrec_buf_map = cfg.buf;
	strlcpy(perfrec_host_path, o->host_path ? o->host_path : "", sizeof(perfrec_host_path));
	if (IS_ENABLED(CONFIG_PERFREC_STREAM))
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
	if (IS_ENABLED(CONFIG_PERFREC_DUMP_STREAM) && res.streamed) {
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
 * that either, a 32-bit event counter that wraps twice loses 2^32. The
 * session says which it took.
 */
static int perfrec_arm_stat(struct perfrec_cfg *cfg)
{
	int ret;

	cfg->source = PERFREC_SRC_PMU;
	cfg->fallback[0] = PERFREC_SRC_TIMER;
	cfg->fallback[1] = PERFREC_SRC_NONE;
	cfg->nr_fallback = 2;
	ret = perfrec_arm(cfg);
	if (ret) {
		perfrec_arm_failed(ret, cfg);
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

	if (!IS_ENABLED(CONFIG_PERFREC_STAT)) {
		printf("perfrec stat needs CONFIG_PERFREC_STAT\n");
		return CMD_RET_FAILURE;
	}
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

/* The help names only what this build has */
#if IS_ENABLED(CONFIG_PERFREC_CALLCHAIN)
#define PERFREC_HELP_G		" [-g]"
#define PERFREC_HELP_G_TEXT	"      -g: call graphs (frame records)\n"
#else
#define PERFREC_HELP_G		""
#define PERFREC_HELP_G_TEXT	""
#endif
#if IS_ENABLED(CONFIG_PERFREC_EVENTS)
#define PERFREC_HELP_E							\
	"      -e: events, comma-separated (default cycles; see 'perfrec list'),\n" \
	"          each optionally with /period=<n>/ or /freq=<hz>/\n"
#define PERFREC_HELP_LIST						\
	"perfrec list [-a] - the events this CPU counts (-a: all known)\n"
#else
#define PERFREC_HELP_E							\
	"      -e: cycles (default) or cpu-clock, optionally with /period=<n>/\n" \
	"          or /freq=<hz>/\n"
#define PERFREC_HELP_LIST	""
#endif
#if IS_ENABLED(CONFIG_PERFREC_STREAM)
#define PERFREC_HELP_S							\
	" [-S <bytes/s> [-z]]\n"					\
	"    - record while the shell runs other commands, until 'perfrec stop'\n" \
	"      -S: stream new samples after each command, at most <bytes/s>\n" \
	"          on the wire (e.g. 11520 at 115200 baud); -z: gzip them\n"
#else
#define PERFREC_HELP_S							\
	"\n    - record while the shell runs other commands, until 'perfrec stop'\n"
#endif
#if IS_ENABLED(CONFIG_PERFREC_DUMP_STREAM)
#define PERFREC_HELP_I		" [-i]"
#define PERFREC_HELP_I_TEXT						\
	"    -i: only what is new, as the next chunk of a pipe-mode stream\n"
#else
#define PERFREC_HELP_I		""
#define PERFREC_HELP_I_TEXT	""
#endif
#if IS_ENABLED(CONFIG_PERFREC_STAT)
#define PERFREC_HELP_STAT						\
	"perfrec stat [-e <events>] [-w <events>] [-N] -- <command...>\n"	\
	"    - count events over <command> (-w: start the counters that many\n" \
	"      events before they wrap)\n"
#else
#define PERFREC_HELP_STAT	""
#endif
#if IS_ENABLED(CONFIG_PERFREC_DUMP_GZIP)
#define PERFREC_HELP_Z		" [-z]"
#define PERFREC_HELP_Z_TEXT	" (-z: gzipped)"
#else
#define PERFREC_HELP_Z		""
#define PERFREC_HELP_Z_TEXT	""
#endif
#if IS_ENABLED(CONFIG_PERFREC_REPORT)
#define PERFREC_HELP_REPORT						\
	"perfrec report [-n <count>] - the hottest functions (and call paths)\n" \
	"    of the last recording, named on the board (default 10)\n"
#else
#define PERFREC_HELP_REPORT	""
#endif

U_BOOT_LONGHELP(perfrec,
		"record [-e <events>] [-c <period> | -F <hz>]" PERFREC_HELP_G
		" [-j <pct>] [-o <addr>]\n"
		"               [-s <size>] [-H <hostfile>] [-N] -- <command...>\n"
		"    - sample <command> into a perf.data in memory\n"
		PERFREC_HELP_E
		"      -c: events (cpu-clock: ns) per sample; -F: samples a second\n"
		"          (default 4000, at most 100000); both decimal\n"
		PERFREC_HELP_G_TEXT
		"      -j: vary each period randomly by up to <pct> percent\n"
		"      -o, -s: buffer address and size (hex; default: free DRAM)\n"
		"      -H: also write the perf.data to this host file (semihosting)\n"
		"      -N: do not check that the interrupt reaches the GIC\n"
		"perfrec start [record's options]" PERFREC_HELP_S
		"perfrec stop - end that recording\n"
		PERFREC_HELP_STAT
		"perfrec dump" PERFREC_HELP_Z PERFREC_HELP_I " [-H <hostfile>]\n"
		"    - the last recording as framed text for tools/perfrec/perfrec_extract.py"
		PERFREC_HELP_Z_TEXT ",\n"
		"      or to a host file\n"
		PERFREC_HELP_I_TEXT
		PERFREC_HELP_LIST
		PERFREC_HELP_REPORT
		"perfrec status [-v] - the last session (-v: and the registers perfrec borrows)");

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
