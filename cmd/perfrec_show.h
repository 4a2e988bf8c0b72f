/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: what it shows of a recording (perfrec_show.c)
 */

#ifndef __PERFREC_SHOW_H
#define __PERFREC_SHOW_H

#include <command.h>
#include <perfrec.h>

/**
 * perfrec_print_missed() - Say so when samples were missed, with what to try
 * @res: the finished recording
 */
void perfrec_print_missed(const struct perfrec_result *res);

/* The subcommands: 'perfrec list', 'report' and 'status' */
int do_perfrec_list(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[]);
int do_perfrec_report(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[]);
int do_perfrec_status(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[]);

#endif /* __PERFREC_SHOW_H */
