// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: sample a U-Boot command into a perf.data that host perf reads
 *
 * Parsing, messages and environment only; the hardware is the session's
 * business (include/perfrec.h).
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

DECLARE_GLOBAL_DATA_PTR;

/* The recording's buffer as mapped by perfrec_begin_recording() */
static void *perfrec_buf_map;
/* Parse a decimal number (periods, frequencies): digits only, no overflow */
static int perfrec_parse_dec(const char *str, u64 *valp)
{
	u64 val = 0;

	if (!*str)
		return -EINVAL;
	for (; *str; str++) {
		if (*str < '0' || *str > '9' || val > (U64_MAX - (*str - '0')) / 10)
			return -EINVAL;
		val = val * 10 + (*str - '0');
	}
	*valp = val;

	return 0;
}

/* Parse a hex number (addresses, sizes), as U-Boot commands do */
static int perfrec_parse_hex(const char *str, ulong *valp)
{
	const char *p = str;
	char *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!*p || strlen(p) > 2 * sizeof(ulong))
		return -EINVAL;
	*valp = hextoul(str, &end);

	return *end ? -EINVAL : 0;
}

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

static void perfrec_print_arm_error(int err, const struct perfrec_cfg *cfg)
{
	struct perfrec_result res;
	struct perfrec_pmu_info pmu;
	const char *event = "";

	perfrec_get_result(&res);
	if (res.failed_event >= 0)
		event = cfg->events[res.failed_event].name;
	if (res.irq.fault != PERFREC_IRQ_OK) {
		char why[PERFREC_WHY_LEN];

		perfrec_irq_reason(&res.irq, why, sizeof(why));
		if (res.irq.source == PERFREC_SRC_TIMER)
			printf("perfrec: cpu-clock cannot sample: %s\n", why);
		else
			printf("perfrec: %s: fix the device tree, or sample -e cpu-clock\n", why);
		return;
	}
	switch (err) {
	case -EBUSY:
		printf("perfrec is already recording\n");
		break;
	case -ETIME:
		printf("The generic timer has no frequency (CNTFRQ_EL0 is 0): the firmware must set it\n");
		break;
	case -ENODEV:
		printf("This CPU has no PMUv3 (ID_AA64DFR0_EL1.PMUVer)\n");
		break;
	case -ENOENT:
		printf("No PMU node (compatible \"arm,armv8-pmuv3\") in the device tree\n");
		break;
	case -ENXIO:
		printf("The device tree's PMU node has no usable \"interrupts\" property\n");
		break;
	case -EPROTONOSUPPORT:
		printf("The PMU interrupt is not a PPI of a GICv2/v3\n");
		break;
	case -ENOSPC:
		printf("Buffer too small: %#lx bytes cannot hold the perf.data header and a sample\n",
		       cfg->buf_size);
		break;
	case -EOPNOTSUPP:
		printf("Call graphs (-g) need CONFIG_PERFREC_CALLCHAIN\n");
		break;
	case -ENOEXEC:
		printf("The build did not record the image's ELF offset (perfrec_image_pgoff)\n");
		break;
	case -E2BIG:
		perfrec_get_pmu_info(&pmu);
		printf("Too many events: %u given, this PMU has %u event counters and the cycle counter\n",
		       cfg->nr_events, pmu.nr_counters);
		break;
	case -ERANGE:
		if (res.failed_event >= 0) {
			printf("Period %llu of event '%s' does not fit its 32-bit counter (64-bit event counters need PMUv3p5)\n",
			       cfg->events[res.failed_event].period, event);
			break;
		}
		fallthrough;
	default:
		printf("Cannot start (err=%d)\n", err);
		break;
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

/**
 * struct perfrec_opts - Options of 'perfrec record' and 'perfrec stat'
 * @events: the -e list (default: cycles)
 * @events_given: -e was given: no fallback to cpu-clock
 * @period: -c, or 0
 * @freq: -F, or 0
 * @have_addr: -o given
 * @addr: -o
 * @size: -s, or the default size
 * @jitter: -j percent
 * @preload: -w events
 * @stream_rate: -S, wire bytes a second (0: off)
 * @host_path: -H, or NULL
 * @compress: -z
 * @callchain: -g
 * @no_probe: -N: arm even if the interrupt did not show when raised
 * @cmd_argc: words of the workload
 * @cmd_argv: the workload
 */
struct perfrec_opts {
	const char *events;
	bool events_given;
	u64 period;
	u64 freq;
	bool have_addr;
	ulong addr;
	ulong size;
	u64 jitter;
	u64 preload;
	u64 stream_rate;
	const char *host_path;
	bool compress;
	bool callchain;
	bool no_probe;
	int cmd_argc;
	char *const *cmd_argv;
};

/* Longest -H file name */
#define PERFREC_HOST_PATH_LEN	256

/* The host file 'perfrec start -H' names, written by 'perfrec stop' */
static char perfrec_host_path[PERFREC_HOST_PATH_LEN];

/* Largest -j: periods vary by at most half */
#define PERFREC_MAX_JITTER_PCT	50

/* Parse the value of option -@opt into @o; print the reason if it is bad */
static int perfrec_parse_value(char opt, const char *val, struct perfrec_opts *o)
{
	switch (opt) {
	case 'e':
		o->events = val;
		o->events_given = true;
		break;
	case 'c':
		if (perfrec_parse_dec(val, &o->period) || !o->period || o->period > S64_MAX) {
			printf("Invalid period '%s': a decimal number of events, 1 or more\n", val);
			return CMD_RET_FAILURE;
		}
		break;
	case 'F':
		if (perfrec_parse_dec(val, &o->freq) || !o->freq) {
			printf("Invalid frequency '%s': a decimal number of Hz, 1 or more\n", val);
			return CMD_RET_FAILURE;
		}
		break;
	case 'o':
		if (perfrec_parse_hex(val, &o->addr)) {
			printf("Invalid address '%s': a hex number\n", val);
			return CMD_RET_FAILURE;
		}
		o->have_addr = true;
		break;
	case 's':
		if (perfrec_parse_hex(val, &o->size)) {
			printf("Invalid size '%s': a hex number of bytes\n", val);
			return CMD_RET_FAILURE;
		}
		break;
	case 'j':
		if (perfrec_parse_dec(val, &o->jitter) || o->jitter > PERFREC_MAX_JITTER_PCT) {
			printf("Invalid jitter '%s': a whole percentage from 0 to %u\n", val,
			       PERFREC_MAX_JITTER_PCT);
			return CMD_RET_FAILURE;
		}
		break;
	case 'S':
		if (!IS_ENABLED(CONFIG_PERFREC_STREAM)) {
			printf("Streaming (-S) needs CONFIG_PERFREC_STREAM: 'perfrec dump -i' sends what is new\n");
			return CMD_RET_FAILURE;
		}
		if (perfrec_parse_dec(val, &o->stream_rate) || !o->stream_rate ||
		    o->stream_rate > U32_MAX) {
			printf("Invalid stream rate '%s': a decimal number of bytes a second\n",
			       val);
			return CMD_RET_FAILURE;
		}
		break;
	case 'H':
		if (strlen(val) >= PERFREC_HOST_PATH_LEN) {
			printf("Host file name '%s' is too long\n", val);
			return CMD_RET_FAILURE;
		}
		o->host_path = val;
		break;
	case 'w':
		if (perfrec_parse_dec(val, &o->preload) || !o->preload || o->preload > U32_MAX) {
			printf("Invalid wrap distance '%s': a decimal number of events from 1 to %u\n",
			       val, U32_MAX);
			return CMD_RET_FAILURE;
		}
		break;
	}

	return CMD_RET_SUCCESS;
}

/*
 * Parse '<options> -- <command...>' (or just '<options>' without @want_cmd);
 * @allowed lists the option letters
 */
static int perfrec_parse_opts(int argc, char *const argv[], const char *allowed,
			      bool want_cmd, struct perfrec_opts *o)
{
	int i, ret;

	memset(o, 0, sizeof(*o));
	o->events = "cycles";
	o->size = CONFIG_PERFREC_DEFAULT_BUF_SIZE;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *opt = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (opt[0] != '-') {
			if (want_cmd)
				printf("Missing '--' before the command\n");
			else
				printf("Unexpected argument '%s'\n", opt);
			return CMD_RET_USAGE;
		}
		if (!opt[1] || opt[2] || !strchr(allowed, opt[1])) {
			printf("Unknown option '%s'\n", opt);
			return CMD_RET_USAGE;
		}
		if (opt[1] == 'z') {
			o->compress = true;
			continue;
		}
		if (opt[1] == 'g') {
			o->callchain = true;
			continue;
		}
		if (opt[1] == 'N') {
			o->no_probe = true;
			continue;
		}
		if (!val || !strcmp(val, "--")) {
			printf("Option %s needs a value\n", opt);
			return CMD_RET_USAGE;
		}
		i++;
		ret = perfrec_parse_value(opt[1], val, o);
		if (ret)
			return ret;
	}
	if (!want_cmd) {
		if (i < argc) {
			printf("Unexpected '--': this subcommand runs no command\n");
			return CMD_RET_USAGE;
		}
	} else if (i >= argc) {
		printf("Missing '--' before the command\n");
		return CMD_RET_USAGE;
	} else if (i + 1 >= argc) {
		printf("Missing the command after '--'\n");
		return CMD_RET_USAGE;
	}
	if (o->period && o->freq) {
		printf("Give either -c <period> or -F <hz>, not both\n");
		return CMD_RET_USAGE;
	}
	if (want_cmd) {
		o->cmd_argc = argc - i - 1;
		o->cmd_argv = argv + i + 1;
	}

	return CMD_RET_SUCCESS;
}

/* Apply one 'period=<n>' or 'freq=<hz>' term to @ev */
static int perfrec_parse_term(const char *term, size_t len, struct perfrec_event_cfg *ev)
{
	char buf[32];
	u64 val;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, term, len);
	buf[len] = '\0';
	if (!strncmp(buf, "period=", 7) && !perfrec_parse_dec(buf + 7, &val) && val &&
	    val <= S64_MAX) {
		ev->period = val;
		ev->freq_hz = 0;
		return 0;
	}
	if (!strncmp(buf, "freq=", 5) && !perfrec_parse_dec(buf + 5, &val) && val &&
	    val <= U32_MAX) {
		ev->freq_hz = val;
		ev->period = 0;
		return 0;
	}

	return -EINVAL;
}

/*
 * Parse the -e list into @cfg: 'name[/term,.../],...' where a term is
 * period=<n> or freq=<hz> (perf's syntax); @terms says whether terms are
 * allowed (record). Prints the reason and returns a CMD_RET_ value.
 */
static int perfrec_parse_events(const char *list, bool terms, struct perfrec_cfg *cfg)
{
	const char *p = list;

	cfg->nr_events = 0;
	while (*p) {
		struct perfrec_event_cfg *ev = &cfg->events[cfg->nr_events];
		const char *end = p + strcspn(p, ",/");
		char name[PERFREC_EVENT_NAME_LEN];
		size_t len = end - p;
		int ret;

		if (cfg->nr_events == PERF_DATA_MAX_EVENTS) {
			printf("Too many events in '%s': at most %u\n", list, PERF_DATA_MAX_EVENTS);
			return CMD_RET_FAILURE;
		}
		if (!len || len >= sizeof(name)) {
			printf("Invalid event list '%s'\n", list);
			return CMD_RET_FAILURE;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		memset(ev, 0, sizeof(*ev));
		ret = perfrec_event_lookup(name, ev);
		if (ret == -ENOENT) {
			printf("Unknown event '%s' (see 'perfrec list')\n", name);
			return CMD_RET_FAILURE;
		}
		if (ret == -EDOM) {
			printf("Event number %#x ('%s') does not fit this PMU's %u-bit event field\n",
			       ev->pmu_event, name, perfrec_event_bits());
			return CMD_RET_FAILURE;
		}
		if (ret == -EOPNOTSUPP) {
			printf("Event '%s' is not implemented by this CPU (PMCEID0/1_EL0)\n", name);
			return CMD_RET_FAILURE;
		}
		if (ret) {
			perfrec_print_arm_error(ret, cfg);
			return CMD_RET_FAILURE;
		}
		p = end;
		if (*p == '/') {
			const char *close = strchr(p + 1, '/');

			if (!terms || !close) {
				printf("Invalid event terms in '%s'%s\n", list,
				       terms ? "" : ": stat takes no period or freq");
				return CMD_RET_FAILURE;
			}
			for (p++; p < close; p = *p == ',' ? p + 1 : p) {
				const char *next = p + strcspn(p, ",/");

				if (perfrec_parse_term(p, next - p, ev)) {
					printf("Invalid event term '%.*s' in '%s': use period=<n> or freq=<hz>\n",
					       (int)(next - p), p, list);
					return CMD_RET_FAILURE;
				}
				p = next;
			}
			p = close + 1;
		}
		if (*p == ',' && !*++p) {
			printf("Invalid event list '%s'\n", list);
			return CMD_RET_FAILURE;
		}
		cfg->nr_events++;
	}

	return CMD_RET_SUCCESS;
}

static int do_perfrec_dump(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_frame frame = { .kind = "file" };
	struct perfrec_result res;
	struct perfrec_opts o = { };
	bool stream = false;
	size_t wire;
	void *data;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1] || argv[i][2] || !strchr("ziH", argv[i][1])) {
			printf("Unknown option '%s'\n", argv[i]);
			return CMD_RET_USAGE;
		}
		if (argv[i][1] == 'z') {
			o.compress = true;
			continue;
		}
		if (argv[i][1] == 'i') {
			stream = true;
			continue;
		}
		if (++i == argc) {
			printf("Option -H needs a value\n");
			return CMD_RET_USAGE;
		}
		ret = perfrec_parse_value('H', argv[i], &o);
		if (ret)
			return ret;
	}
	perfrec_get_result(&res);
	if (stream) {
		if (o.host_path)
			return CMD_RET_USAGE;
		if (res.state == PERFREC_IDLE || res.mode != PERFREC_RECORD) {
			printf("No recording to stream\n");
			return CMD_RET_FAILURE;
		}
		if (!perfrec_stream_pending()) {
			printf("perfrec: nothing new to stream\n");
			return CMD_RET_SUCCESS;
		}
		return perfrec_dump_stream(o.compress, SIZE_MAX, &wire) ?
			CMD_RET_FAILURE : CMD_RET_SUCCESS;
	}
	if (res.state != PERFREC_FINALISED || res.mode != PERFREC_RECORD) {
		printf("No finished recording to dump\n");
		return CMD_RET_FAILURE;
	}
	if (res.streamed) {
		printf("The recording was streamed: 'perfrec dump -i' sends what is left\n");
		return CMD_RET_FAILURE;
	}
	if (o.host_path)
		return perfrec_host_write(o.host_path, res.addr, res.size) ?
			CMD_RET_FAILURE : CMD_RET_SUCCESS;

	frame.id = res.id;
	frame.size = res.size;
	data = map_sysmem(res.addr, res.size);
	ret = perfrec_dump(&frame, data, o.compress, NULL);
	unmap_sysmem(data);

	return ret ? CMD_RET_FAILURE : CMD_RET_SUCCESS;
}

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
 * A counter must run this many periods before too few samples mean more
 * than the interrupt's latency at the end of a short recording
 */
#define PERFREC_MISSED_MIN_PERIODS	8

/*
 * After a recording: a PMU event whose counter ran whole periods with few
 * or no samples (fewer than half) had its overflow interrupt come late or
 * never (QEMU's event counters under -icount do that). Say so, with what to
 * try.
 */
static void perfrec_print_missed(const struct perfrec_result *res)
{
	u64 periods, taken;
	uint i;

	if (res->state != PERFREC_FINALISED || res->mode != PERFREC_RECORD ||
	    res->source != PERFREC_SRC_PMU || res->streamed)
		return;
	for (i = 0; i < res->nr_events; i++) {
		if (!res->period[i])
			continue;
		/* Each period ended in a sample, or passed without one (late) */
		periods = res->count[i] / res->period[i];
		taken = periods > res->event_late[i] ? periods - res->event_late[i] : 0;
		if (periods < PERFREC_MISSED_MIN_PERIODS || 2 * taken >= periods)
			continue;
		printf("perfrec: %s (counter %u) counted %llu periods of %llu but %llu samples were taken: its overflow interrupt %s\n",
		       res->name[i], res->counter[i], periods, res->period[i], taken,
		       taken ? "came late; try a longer period (-c or -F)" :
		       res->counter[i] == PERFREC_CYCLE_COUNTER ?
		       "never came; check the PMU's \"interrupts\" in the device tree" :
		       "never came; try -e cycles, or cycles beside it (see the docs on QEMU's event counters)");
	}
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

static const char *perfrec_pmu_version(uint version)
{
	static const char *const names[] = {
		[1] = "PMUv3", [4] = "PMUv3p1", [5] = "PMUv3p4", [6] = "PMUv3p5",
		[7] = "PMUv3p7", [8] = "PMUv3p8", [9] = "PMUv3p9",
	};

	return version < ARRAY_SIZE(names) && names[version] ? names[version] : "PMUv3 (newer)";
}

static int do_perfrec_list(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_event_info ev;
	struct perfrec_pmu_info pmu;
	bool all = argc == 2 && !strcmp(argv[1], "-a");
	uint i;

	if (argc > 2 || (argc == 2 && !all))
		return CMD_RET_USAGE;
	if (perfrec_get_pmu_info(&pmu)) {
		printf("This CPU has no PMUv3 (ID_AA64DFR0_EL1.PMUVer)\n");
		return CMD_RET_FAILURE;
	}
	printf("PMU: %s (PMUVer %u), %u event counters of %u bits, cycle counter of 64 bits\n",
	       perfrec_pmu_version(pmu.version), pmu.version, pmu.nr_counters,
	       pmu.counter_bits);
	printf("Counts at EL%u; PMCEID0_EL0 %#llx, PMCEID1_EL0 %#llx\n\n", pmu.el,
	       pmu.pmceid0, pmu.pmceid1);
	for (i = 0; !perfrec_event_at(i, &ev); i++) {
		if (!ev.implemented && !all)
			continue;
		printf("  %-24s %-9s %#06x  %s%s\n", ev.name, ev.generic ? "[generic]" : "[common]",
		       ev.number, ev.desc, ev.implemented ? "" : " (not implemented)");
	}
	printf("\n  r<hex>                   [raw]     any event number, e.g. r11\n");
	printf("  %-24s %-9s         %s\n", PERFREC_CPU_CLOCK, "[software]",
	       "the generic timer: samples without the PMU interrupt, counts in ns");

	return CMD_RET_SUCCESS;
}

static int do_perfrec_report(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_result res;
	u64 top = 10;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "-n")) {
		if (perfrec_parse_dec(argv[2], &top) || !top || top > PERFREC_REPORT_MAX_TOP) {
			printf("Invalid count '%s': give 1 to %u\n", argv[2],
			       PERFREC_REPORT_MAX_TOP);
			return CMD_RET_FAILURE;
		}
	} else if (argc != 1) {
		return CMD_RET_USAGE;
	}
	if (!IS_ENABLED(CONFIG_PERFREC_REPORT)) {
		printf("perfrec report needs CONFIG_PERFREC_REPORT (an embedded symbol table)\n");
		return CMD_RET_FAILURE;
	}
	ret = perfrec_report(top);
	switch (ret) {
	case 0:
		perfrec_get_result(&res);
		perfrec_print_missed(&res);
		return CMD_RET_SUCCESS;
	case -ENOSYS:
		printf("perfrec report needs CONFIG_PERFREC_REPORT (an embedded symbol table)\n");
		break;
	case -ENOENT:
		printf("No finished recording to report\n");
		break;
	case -ENOMEM:
		printf("No memory to report the recording's samples (err=%d)\n", ret);
		break;
	default:
		printf("perfrec report failed (err=%d)\n", ret);
		break;
	}

	return CMD_RET_FAILURE;
}

static const char *const perfrec_state_name[] = {
	[PERFREC_IDLE] = "idle",
	[PERFREC_ARMED] = "recording",
	[PERFREC_FINALISED] = "finalised",
};

static int do_perfrec_status(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_snapshot *snap;
	struct perfrec_result res;
	char name[32];
	uint i;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-v")))
		return CMD_RET_USAGE;

	perfrec_get_result(&res);
	printf("state: %s\n", perfrec_state_name[res.state]);
	if (res.state != PERFREC_IDLE) {
		if (res.mode == PERFREC_RECORD && res.state == PERFREC_FINALISED)
			printf("buffer: %#lx, %lu bytes of perf.data\n", res.addr, res.size);
		else if (res.mode == PERFREC_RECORD)
			printf("buffer: %#lx, %lu bytes, samples use %llu of %llu (%llu%%)\n",
			       res.addr, res.size, res.ring_used, res.ring_size,
			       res.ring_used * 100 / res.ring_size);
		printf("samples: %llu, lost: %llu, spurious: %llu, foreign: %llu, late: %llu\n",
		       res.samples, res.lost, res.spurious, res.foreign, res.late);
		if (res.source == PERFREC_SRC_NONE)
			printf("interrupt: none\n");
		else
			printf("interrupt: %s, %s %u from %s\n",
			       res.source == PERFREC_SRC_TIMER ? "timer" : "PMU",
			       res.irq.local ? "local source" : "INTID", res.irq.intid,
			       res.irq.node);
		/* Counter 31 is the cycle counter, 32 the generic timer (cpu-clock) */
		for (i = 0; i < res.nr_events; i++)
			printf("event %s: %llu counted, period %llu, late %llu, counter %u\n",
			       res.name[i], res.count[i], res.period[i], res.event_late[i],
			       res.counter[i]);
		perfrec_print_missed(&res);
	}
	if (argc < 2)
		return CMD_RET_SUCCESS;

	snap = malloc(sizeof(*snap));
	if (!snap) {
		printf("Out of memory for the register snapshot\n");
		return CMD_RET_FAILURE;
	}
	perfrec_snapshot(snap);
	for (i = 0; i < snap->count; i++) {
		perfrec_reg_name(&snap->regs[i], name, sizeof(name));
		printf("reg %s = %#llx\n", name, snap->regs[i].val);
	}
	free(snap);

	return CMD_RET_SUCCESS;
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
