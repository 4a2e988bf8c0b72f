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
#include <stdio.h>
#include <vsprintf.h>
#include <asm/global_data.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>

DECLARE_GLOBAL_DATA_PTR;

/* Where the default buffer may not go: the usual load areas and their room */
static const struct {
	const char *var;
	ulong bytes;
} perfrec_load_areas[] = {
	{ "loadaddr", SZ_64M },
	{ "kernel_addr_r", SZ_64M },
	{ "ramdisk_addr_r", SZ_64M },
	{ "fdt_addr_r", SZ_1M },
	{ "fdt_addr", SZ_1M },
	{ "scriptaddr", SZ_1M },
	{ "pxefile_addr_r", SZ_1M },
};

#define PERFREC_DEFAULT_ALIGN	SZ_64K
#define PERFREC_ALLOC_TRIES	8

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

/* Is [addr, addr + size) inside one DRAM bank? */
static bool perfrec_in_dram(ulong addr, ulong size)
{
	int i;

	for (i = 0; i < CONFIG_NR_DRAM_BANKS; i++) {
		ulong start = gd->bd->bi_dram[i].start;
		ulong bank = gd->bd->bi_dram[i].size;

		if (bank && addr >= start && size <= bank && addr - start <= bank - size)
			return true;
	}

	return false;
}

/* The load area [start, start + bytes) that [addr, addr + size) overlaps, if any */
static bool perfrec_overlaps_load_area(ulong addr, ulong size, ulong *startp)
{
	uint i;

	for (i = 0; i < ARRAY_SIZE(perfrec_load_areas); i++) {
		ulong start = env_get_hex(perfrec_load_areas[i].var, 0);

		if (!start)
			continue;
		if (addr < start + perfrec_load_areas[i].bytes && start < addr + size) {
			*startp = start;
			return true;
		}
	}

	return false;
}

/* Find room for the default buffer: top of free DRAM, clear of the load areas */
static int perfrec_default_addr(ulong size, ulong *addrp)
{
	phys_addr_t max = 0, addr;
	ulong area;
	int i;

	for (i = 0; i < PERFREC_ALLOC_TRIES; i++) {
		addr = perfrec_lmb_alloc_below(gd->bd, (void *)gd->fdt_blob, size,
					       PERFREC_DEFAULT_ALIGN, max);
		if (!addr)
			return -ENOMEM;
		if (!perfrec_overlaps_load_area(addr, size, &area)) {
			*addrp = addr;
			return 0;
		}
		max = area;
		if (!max)
			return -ENOMEM;
	}

	return -ENOMEM;
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
	if (!perfrec_in_dram(addr, size)) {
		printf("Buffer %#lx+%#lx is not inside DRAM\n", addr, size);
		return -EINVAL;
	}
	if (!perfrec_lmb_range_free(gd->bd, (void *)gd->fdt_blob, addr, size)) {
		printf("Buffer %#lx+%#lx overlaps memory U-Boot uses\n", addr, size);
		return -EINVAL;
	}

	return 0;
}

static void perfrec_print_arm_error(int err, const struct perfrec_cfg *cfg)
{
	switch (err) {
	case -EBUSY:
		printf("perfrec is already recording\n");
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
	case -ENOEXEC:
		printf("The build did not record the image's ELF offset (perfrec_image_pgoff)\n");
		break;
	default:
		printf("Cannot start recording (err=%d)\n", err);
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

static int do_perfrec_record(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_cfg cfg = { .nr_events = 1 };
	struct perfrec_event_cfg *ev = &cfg.events[0];
	const char *event = "cycles";
	struct perfrec_result res;
	bool have_addr = false;
	ulong addr = 0, size = CONFIG_PERFREC_DEFAULT_BUF_SIZE;
	u64 period = 0, freq = 0;
	int i, ret, wret;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *opt = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (opt[0] != '-') {
			printf("Missing '--' before the command to record\n");
			return CMD_RET_USAGE;
		}
		if (!opt[1] || opt[2] || !strchr("ecFos", opt[1])) {
			printf("Unknown option '%s'\n", opt);
			return CMD_RET_USAGE;
		}
		if (!val || !strcmp(val, "--")) {
			printf("Option %s needs a value\n", opt);
			return CMD_RET_USAGE;
		}
		i++;
		switch (opt[1]) {
		case 'e':
			event = val;
			break;
		case 'c':
			if (perfrec_parse_dec(val, &period) || !period || period > S64_MAX) {
				printf("Invalid period '%s': a decimal number of events, 1 or more\n",
				       val);
				return CMD_RET_FAILURE;
			}
			break;
		case 'F':
			if (perfrec_parse_dec(val, &freq) || !freq) {
				printf("Invalid frequency '%s': a decimal number of Hz, 1 or more\n",
				       val);
				return CMD_RET_FAILURE;
			}
			break;
		case 'o':
			if (perfrec_parse_hex(val, &addr)) {
				printf("Invalid address '%s': a hex number\n", val);
				return CMD_RET_FAILURE;
			}
			have_addr = true;
			break;
		case 's':
			if (perfrec_parse_hex(val, &size)) {
				printf("Invalid size '%s': a hex number of bytes\n", val);
				return CMD_RET_FAILURE;
			}
			break;
		}
	}
	if (i >= argc) {
		printf("Missing '--' before the command to record\n");
		return CMD_RET_USAGE;
	}
	if (i + 1 >= argc) {
		printf("Missing the command to record after '--'\n");
		return CMD_RET_USAGE;
	}
	if (period && freq) {
		printf("Give either -c <period> or -F <hz>, not both\n");
		return CMD_RET_USAGE;
	}

	perfrec_get_result(&res);
	if (res.state == PERFREC_ARMED) {
		printf("perfrec is already recording\n");
		return CMD_RET_FAILURE;
	}
	ret = perfrec_event_lookup(event, ev);
	if (ret == -ENOENT) {
		printf("Unknown event '%s' (supported: cycles)\n", event);
		return CMD_RET_FAILURE;
	}
	if (ret) {
		perfrec_print_arm_error(ret, &cfg);
		return CMD_RET_FAILURE;
	}
	if (!period && !freq)
		freq = PERFREC_DEFAULT_FREQ_HZ;
	if (freq > PERFREC_MAX_FREQ_HZ) {
		printf("Frequency %llu Hz is above the %u Hz limit: using %u Hz\n", freq,
		       PERFREC_MAX_FREQ_HZ, PERFREC_MAX_FREQ_HZ);
		freq = PERFREC_MAX_FREQ_HZ;
	}
	ev->period = period;
	ev->freq_hz = freq;

	if (!have_addr) {
		if (perfrec_default_addr(size, &addr)) {
			printf("No free DRAM for a %#lx-byte buffer: give -o <addr> and -s <size>\n",
			       size);
			return CMD_RET_FAILURE;
		}
	} else if (perfrec_check_buffer(addr, size)) {
		return CMD_RET_FAILURE;
	}

	cfg.buf = map_sysmem(addr, size);
	cfg.buf_addr = addr;
	cfg.buf_size = size;
	cfg.argc = argc + 1;
	cfg.argv = (const char *const *)argv - 1;	/* from "perfrec" on */
	ret = perfrec_arm(&cfg);
	if (ret) {
		unmap_sysmem(cfg.buf);
		perfrec_print_arm_error(ret, &cfg);
		return CMD_RET_FAILURE;
	}

	wret = perfrec_run_workload(argc - i - 1, argv + i + 1);

	ret = perfrec_disarm();
	unmap_sysmem(cfg.buf);
	perfrec_get_result(&res);
	if (ret == -EIO) {
		printf("perfrec: %s not restored: %#llx before, %#llx after\n", res.mismatch,
		       res.before, res.after);
		return CMD_RET_FAILURE;
	}
	if (ret) {
		printf("perfrec: cannot finalise the perf.data (err=%d)\n", ret);
		return CMD_RET_FAILURE;
	}
	printf("perfrec: %llu samples, %llu lost, %lu bytes of perf.data at %#lx, workload rc %d\n",
	       res.samples, res.lost, res.size, res.addr, wret);
	if (res.lost)
		printf("perfrec: the buffer filled up: give a larger -s or a lower -F\n");
	env_set_hex("fileaddr", res.addr);
	env_set_hex("filesize", res.size);

	return wret;
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
	uint i;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-v")))
		return CMD_RET_USAGE;

	perfrec_get_result(&res);
	printf("state: %s\n", perfrec_state_name[res.state]);
	if (res.state != PERFREC_IDLE) {
		printf("buffer: %#lx, %lu bytes%s\n", res.addr, res.size,
		       res.state == PERFREC_FINALISED ? " of perf.data" : "");
		printf("samples: %llu, lost: %llu, spurious: %llu, foreign: %llu, late: %llu\n",
		       res.samples, res.lost, res.spurious, res.foreign, res.late);
		for (i = 0; i < res.nr_events; i++)
			printf("event %s: %llu counted, period %llu\n", res.name[i], res.count[i],
			       res.period[i]);
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
		const struct perfrec_reg *reg = &snap->regs[i];

		if (reg->index < 0)
			printf("reg %s = %#llx\n", reg->name, reg->val);
		else
			printf("reg %s%d = %#llx\n", reg->name, reg->index, reg->val);
	}
	free(snap);

	return CMD_RET_SUCCESS;
}

U_BOOT_LONGHELP(perfrec,
		"record [-e <event>] [-c <period> | -F <hz>] [-o <addr>] [-s <size>] -- <command...>\n"
		"    - run <command> while sampling it into a perf.data in memory\n"
		"      -e: event (cycles); -c: events per sample (decimal);\n"
		"      -F: samples per second (decimal, default 4000, at most 100000);\n"
		"      -o, -s: buffer address and size (hex); default: a free region\n"
		"perfrec status [-v] - show the last recording (-v: and the registers perfrec borrows)");

U_BOOT_CMD_WITH_SUBCMDS(perfrec, "Sample a command into a perf.data for host perf",
			perfrec_help_text,
	U_BOOT_SUBCMD_MKENT(record, CONFIG_SYS_MAXARGS, 0, do_perfrec_record),
	U_BOOT_SUBCMD_MKENT(status, 2, 1, do_perfrec_status));
