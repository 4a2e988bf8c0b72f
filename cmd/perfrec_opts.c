// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: its options and event lists, and what it says when arming fails
 */

#include <command.h>
#include <console.h>
#include <env.h>
#include <errno.h>
#include <malloc.h>
#include <mapmem.h>
#include <perfrec.h>
#include <perfrec_pmu.h>
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

void perfrec_arm_failed(int err, const struct perfrec_cfg *cfg)
{
	struct perfrec_result res;

	perfrec_get_result(&res);
	perfrec_print_arm_error(err, cfg, &res);
}

/* Parse a decimal number (periods, frequencies): digits only, no overflow */
int perfrec_parse_dec(const char *str, u64 *valp)
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

/* Parse the value of option -@opt into @o; print the reason if it is bad */
int perfrec_parse_value(char opt, const char *val, struct perfrec_opts *o)
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
			printf("Streaming (-S) needs CONFIG_PERFREC_STREAM\n");
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
int perfrec_parse_opts(int argc, char *const argv[], const char *allowed,
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

/* Event @name is not one this CPU counts: say by whose word */
static void perfrec_print_not_counted(const char *name)
{
	struct perfrec_pmu_info pmu;

	/* A Cortex-A8's or A9's list is its manual's: it has no PMCEID */
	if (!perfrec_get_pmu_info(&pmu) && pmu.core)
		printf("Event '%s' is not counted by the %s (its manual's list)\n", name,
		       pmu.core);
	else
		printf("Event '%s' is not implemented by this CPU (%s)\n", name,
		       PERFREC_REGNAME_EL0("PMCEID0/1"));
}

/* Why perfrec_event_lookup() refused event @name (@ret its error) */
static void perfrec_print_lookup_error(int ret, const char *name,
				       const struct perfrec_event_cfg *ev,
				       const struct perfrec_cfg *cfg)
{
	/* -EACCES: the line arming gives for counters that stand still */
	struct perfrec_result none = {
		.failed_event = -1,
		.failed_irq.fault = ret == -EACCES ? PERFREC_IRQ_STILL_EVENTS : PERFREC_IRQ_OK,
	};

	if (ret == -ENOENT)
		printf("Unknown event '%s' (see 'perfrec list')\n", name);
	else if (ret == -ENOSYS)
		printf("Event '%s' needs CONFIG_PERFREC_EVENTS: this build samples cycles and cpu-clock\n",
		       name);
	/* Events besides cycles may not fit the PMU, or not be counted by it */
	else if (IS_ENABLED(CONFIG_PERFREC_EVENTS) && ret == -EDOM)
		printf("Event number %#x ('%s') does not fit this PMU's %u-bit event field\n",
		       ev->pmu_event, name, perfrec_event_bits());
	else if (IS_ENABLED(CONFIG_PERFREC_EVENTS) && ret == -EOPNOTSUPP)
		perfrec_print_not_counted(name);
	else
		perfrec_print_arm_error(ret, cfg, &none);
}

/*
 * Parse the -e list into @cfg: 'name[/term,.../],...' where a term is
 * period=<n> or freq=<hz> (perf's syntax); @terms says whether terms are
 * allowed (record). Prints the reason and returns a CMD_RET_ value.
 */
int perfrec_parse_events(const char *list, bool terms, struct perfrec_cfg *cfg)
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
		if (ret) {
			perfrec_print_lookup_error(ret, name, ev, cfg);
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

/*
 * cpu-clock samples on the generic timer alone (no PMU event beside it), at
 * a steady period of at least PERFREC_MIN_CLOCK_NS; choose the session's
 * interrupt accordingly
 */
int perfrec_clock_check(struct perfrec_cfg *cfg)
{
	const struct perfrec_event_cfg *ev = &cfg->events[0];
	uint i;

	cfg->source = PERFREC_SRC_PMU;
	for (i = 0; i < cfg->nr_events; i++) {
		if (cfg->events[i].timer && cfg->nr_events > 1) {
			printf("cpu-clock samples on the timer's interrupt: record it alone, not with PMU events\n");
			return -EINVAL;
		}
	}
	if (!ev->timer)
		return 0;
	if (cfg->jitter_pct) {
		printf("-j does not apply to cpu-clock: its period is the timer's\n");
		return -EINVAL;
	}
	if (ev->period && ev->period < PERFREC_MIN_CLOCK_NS) {
		printf("Period %llu ns of cpu-clock is below its %u ns minimum\n", ev->period,
		       PERFREC_MIN_CLOCK_NS);
		return -EINVAL;
	}
	cfg->source = PERFREC_SRC_TIMER;

	return 0;
}
