// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec from early boot: start recording as soon as driver model is up after relocation
 * (or go on with the boot recording, perfrec_boot.c)
 *
 * The earliest point where the device tree (PMU, GIC), the timer and lmb all
 * work is the end of driver-model init after relocation: the recording
 * starts there, with CONFIG_PERFREC_EARLY_OPTIONS, through the 'perfrec
 * start' command itself. A boot recording started in board_init_f()
 * (CONFIG_PERFREC_BOOT) is adopted there instead. The console is
 * not up yet at that point, so a failure is reported at the prompt. The
 * recording ends at the prompt (CONFIG_PERFREC_EARLY_UNTIL_PROMPT), else with
 * 'perfrec stop' (e.g. at the end of bootcmd) or when an OS is started.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <command.h>
#include <errno.h>
#include <event.h>
#include <log.h>
#include <perfrec.h>
#include <perfrec_compat.h>
#include <stdio.h>
#include <asm/global_data.h>
#include <dm/ofnode.h>
#include <linux/string.h>
#include "perfrec_options.h"
#include "perfrec_session.h"

DECLARE_GLOBAL_DATA_PTR;

#define PERFREC_EARLY_WORDS	32

/* Result of the early start, reported once the console works */
static int perfrec_early_ret;
static bool perfrec_early_tried;
static struct perfrec_boot_result perfrec_early_boot;
static int perfrec_early_boot_ret = -ENOENT;

/*
 * /options/u-boot: looked up once (a walk of the tree up to it), or as the
 * boot recording's walk found it
 */
static ofnode perfrec_early_node;
static bool perfrec_early_node_known;

/* A number from /options/u-boot, or @def */
static u32 perfrec_early_option(const char *name, u32 def)
{
	if (!perfrec_early_node_known) {
		perfrec_early_node = perfrec_early_options();
		perfrec_early_node_known = true;
	}

	return ofnode_valid(perfrec_early_node) ?
		ofnode_read_u32_default(perfrec_early_node, name, def) : def;
}

static int perfrec_early_start(void *ctx, struct event *event)
{
	static char options[] = CONFIG_PERFREC_EARLY_OPTIONS;
	static char *argv[PERFREC_EARLY_WORDS] = { "perfrec", "start" };
	int argc = 2, repeatable;
	char *word, *rest = options;

	/*
	 * Before relocation driver model is up too; that is too early. So is
	 * the time before lmb can place the buffer: from 2024.10 lmb is set up
	 * after driver model, and the first device probed after it starts us.
	 */
	if (!(gd->flags & GD_FLG_RELOC) || perfrec_early_tried || !perfrec_lmb_ready())
		return 0;
	perfrec_early_tried = true;
	/*
	 * A boot recording (CONFIG_PERFREC_BOOT) goes on as the early one; it
	 * started only if "perfrec,early" allowed it, and its walk found the
	 * options
	 */
	if (IS_ENABLED(CONFIG_PERFREC_BOOT)) {
		perfrec_early_boot_ret = perfrec_boot_adopt(&perfrec_early_boot);
		if (!perfrec_early_boot_ret) {
			/* The walk's, kept valid by the adoption (perfrec_dt_follow()) */
			perfrec_early_node = perfrec_hw_dt(&perfrec_session.hw)->options;
			perfrec_early_node_known = true;
			return 0;
		}
	}
	if (!perfrec_early_option("perfrec,early", 1))
		return 0;
	while ((word = strsep(&rest, " ")) && argc < PERFREC_EARLY_WORDS - 1) {
		if (*word)
			argv[argc++] = word;
	}
	argv[argc] = NULL;
	perfrec_early_ret = cmd_process(0, argc, argv, &repeatable, NULL);
	log_debug("early start: %d\n", perfrec_early_ret);

	return 0;
}

PERFREC_EVENT_SPY(PERFREC_EVT_DM_POST_INIT_R, perfrec_early_start);
PERFREC_EVENT_SPY(EVT_DM_POST_PROBE, perfrec_early_start);

static int perfrec_early_prompt(void *ctx, struct event *event)
{
	static char *const stop[] = { "perfrec", "stop", NULL };
	const struct perfrec_boot_result *boot = &perfrec_early_boot;
	struct perfrec_result res;
	int repeatable;

	if (!perfrec_early_boot_ret) {
		printf("perfrec: recording since board_init_f(): %llu of %llu samples copied from the boot buffer at %#lx to %#lx\n",
		       boot->copied, boot->samples, boot->from, boot->to);
		if (boot->area)
			perfrec_buffer_note_area(boot->to, boot->area);
	} else if (perfrec_early_boot_ret != -ENOENT)
		printf("perfrec: the boot recording was dropped: %s (error %d)\n", boot->why,
		       perfrec_early_boot_ret);
	if (perfrec_early_ret) {
		printf("perfrec: the early recording did not start: 'perfrec start %s' failed\n",
		       CONFIG_PERFREC_EARLY_OPTIONS);
		return 0;
	}
	perfrec_get_result(&res);
	if (res.state != PERFREC_ARMED)
		return 0;
	if (perfrec_early_option("perfrec,until-prompt",
				 IS_ENABLED(CONFIG_PERFREC_EARLY_UNTIL_PROMPT)))
		cmd_process(0, 2, stop, &repeatable, NULL);
	else
		printf("perfrec: recording since early boot; 'perfrec stop' ends it\n");

	return 0;
}

PERFREC_EVENT_SPY(EVT_MAIN_LOOP, perfrec_early_prompt);
