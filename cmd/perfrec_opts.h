/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: its options and event lists (perfrec_opts.c)
 */

#ifndef __PERFREC_OPTS_H
#define __PERFREC_OPTS_H

#include <perfrec.h>
#include <linux/types.h>

/* Longest -H file name */
#define PERFREC_HOST_PATH_LEN	256
/* Largest -j: periods vary by at most half */
#define PERFREC_MAX_JITTER_PCT	50

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

/**
 * perfrec_parse_dec() - Parse a decimal number: digits only, no overflow
 * @str: the text
 * @valp: returns the number
 * Return: 0, or -EINVAL
 */
int perfrec_parse_dec(const char *str, u64 *valp);

/**
 * perfrec_parse_value() - Parse the value of one option
 * @opt: the option's letter
 * @val: its value
 * @o: the options, with this one set
 * Return: a CMD_RET_ value; the reason is printed when it is bad
 */
int perfrec_parse_value(char opt, const char *val, struct perfrec_opts *o);

/**
 * perfrec_parse_opts() - Parse '<options> -- <command...>', or '<options>' alone
 * @argc: words
 * @argv: the words, after the subcommand's name
 * @allowed: the option letters the subcommand takes
 * @want_cmd: a command must follow '--'
 * @o: returns the options
 * Return: a CMD_RET_ value; the reason is printed when they are bad
 */
int perfrec_parse_opts(int argc, char *const argv[], const char *allowed,
		       bool want_cmd, struct perfrec_opts *o);

/**
 * perfrec_parse_events() - Parse an -e list: 'name[/term,.../],...'
 * @list: the list; a term is period=<n> or freq=<hz> (perf's syntax)
 * @terms: whether terms are allowed (record)
 * @cfg: returns the events
 * Return: a CMD_RET_ value; the reason is printed when it is bad
 */
int perfrec_parse_events(const char *list, bool terms, struct perfrec_cfg *cfg);

/**
 * perfrec_clock_check() - Check a cpu-clock recording and choose its interrupt
 * @cfg: the recording; its source becomes the timer for cpu-clock, else the PMU
 *
 * cpu-clock samples on the generic timer alone (no PMU event beside it),
 * without -j, at a period of at least 10 us.
 *
 * Return: 0, or -EINVAL with the reason printed
 */
int perfrec_clock_check(struct perfrec_cfg *cfg);

/**
 * perfrec_arm_failed() - Say in one line why perfrec_arm() failed
 * @err: what it returned
 * @cfg: what it was asked to arm
 */
void perfrec_arm_failed(int err, const struct perfrec_cfg *cfg);

#endif /* __PERFREC_OPTS_H */
