// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's verdict on a board's device tree blob, before flashing
 *
 * Usage: perfrec-verdict [--boot-addr <addr> --boot-size <size>] <board.dtb>
 *
 * Runs perfrec's own device-tree rules, the same C files U-Boot builds
 * (perfrec_dt.c's walk, perfrec_dt_compat.c, perfrec_dt_irq.c,
 * perfrec_boot_dt.c, perfrec_irq_reason.c), built for the host with
 * USE_HOSTCC over the shim headers in tools/perfrec/host/: an ofnode is an
 * offset into the DTB, gd->fdt_blob the DTB itself. The CPU is the DTB's
 * first /cpus cpu node (CPU 0); the controllers perfrec knows are all
 * taken as built in (CONFIG_PERFREC_GICV2, _GICV3, _BCM2836).
 *
 * What only the hardware can say stays unsaid: the GIC's number of lines
 * (GICD_TYPER), whether a register block answers, whether the interrupt is
 * wired (perfrec raises it once before arming). Addresses and sizes are
 * hex, as U-Boot's.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dm/ofnode.h>
#include <asm/global_data.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/libfdt.h>
#include <linux/string.h>
#include <perfrec.h>
#include <perfrec_dt.h>
#include "perfrec_boot_dt.h"
#include "perfrec_dt_irq.h"

static struct global_data perfrec_host_gd;
struct global_data *gd = &perfrec_host_gd;
uint perfrec_host_el = 2;

/* Room for "local source <n> from <node>" */
#define PERFREC_VERDICT_IRQ_LEN		96
/* Room for one EL's part of the cpu-clock line */
#define PERFREC_VERDICT_PART_LEN	(PERFREC_WHY_LEN + 32)

/* As U-Boot's <linux/compiler_attributes.h> */
#ifndef __printf
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#endif

/* PPI n is INTID 16 + n */
#define PERFREC_VERDICT_PPI_BASE	16

/* CPU 0 is a Cortex-A9 */
static bool perfrec_verdict_a9;

/* The ELs U-Boot may run at, in the order the cpu-clock line gives them */
static const uint perfrec_verdict_els[] = { 1, 2, 3 };

static void usage(void)
{
	fprintf(stderr,
		"Usage: perfrec-verdict [--boot-addr <addr> --boot-size <size>] <board.dtb>\n"
		"  Say what perfrec does on the board of <board.dtb>: its PMU interrupt, its\n"
		"  timer interrupt at each EL, the sampler it takes, and (with --boot-addr and\n"
		"  --boot-size, hex) whether the boot recording's buffer may lie there\n");
	exit(EXIT_FAILURE);
}

/* A hex number from the command line, or usage() */
static ulong perfrec_verdict_hex(const char *arg)
{
	char *end;
	ulong val;

	errno = 0;
	val = strtoul(arg, &end, 16);
	if (errno || !*arg || *end)
		usage();

	return val;
}

/* Say in one line what is wrong with the file @path, and exit */
static void __printf(2, 3) perfrec_verdict_fail(const char *path, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "perfrec-verdict: %s: ", path);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	exit(EXIT_FAILURE);
}

/* The whole of @path, checked to be a device tree: its blob, or exit with one line */
static void *perfrec_verdict_read(const char *path)
{
	long size = -1, total;
	void *blob;
	FILE *f;
	int ret;

	f = fopen(path, "rb");
	if (f && !fseek(f, 0, SEEK_END))
		size = ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET))
		perfrec_verdict_fail(path, "%s", strerror(errno));
	blob = malloc(size ?: 1);
	if (!blob || fread(blob, 1, size, f) != (size_t)size)
		perfrec_verdict_fail(path, "cannot read it (%s)", strerror(errno));
	fclose(f);
	if (size < (long)sizeof(struct fdt_header) || fdt_magic(blob) != FDT_MAGIC)
		perfrec_verdict_fail(path, "not a device tree blob (no FDT magic)");
	total = fdt_totalsize(blob);
	if (total > size)
		perfrec_verdict_fail(path, "truncated: %ld bytes of the %ld its header gives", size,
				     total);
	ret = fdt_check_full(blob, size);
	if (ret)
		perfrec_verdict_fail(path, "not a valid device tree blob (%s)", fdt_strerror(ret));

	return blob;
}

/*
 * CPU 0: the first /cpus node whose device_type is "cpu"; its "reg" is its
 * affinity. @a9: whether it is a Cortex-A9 (its "compatible"), which has no
 * generic timer: perfrec takes its global timer, which no node need name.
 */
static u64 perfrec_verdict_cpu0(char *path, int size, bool *a9)
{
	const fdt32_t *reg;
	ofnode cpu;
	int len;

	snprintf(path, size, "none");
	*a9 = false;
	ofnode_for_each_subnode(cpu, ofnode_path("/cpus")) {
		const char *type = ofnode_read_string(cpu, "device_type");
		const char *compat = ofnode_read_string(cpu, "compatible");

		if (!type || strcmp(type, "cpu"))
			continue;
		*a9 = compat && !strcmp(compat, "arm,cortex-a9");
		ofnode_get_path(cpu, path, size);
		reg = ofnode_get_property(cpu, "reg", &len);
		if (reg && len == sizeof(u32))
			return fdt32_to_cpu(reg[0]);
		if (reg && len == 2 * sizeof(u32))
			return (u64)fdt32_to_cpu(reg[0]) << 32 | fdt32_to_cpu(reg[1]);
		return 0;
	}

	return 0;
}

/* The controller's kind and path, as "the GICv3 /intc@8000000" */
static void perfrec_verdict_ctlr(const struct perfrec_dt_ctlr *ctlr, char *buf, int size)
{
	char path[64];

	if (ofnode_get_path(ctlr->node, path, sizeof(path)))
		snprintf(path, sizeof(path), "?");
	snprintf(buf, size, "the %s %s",
		 perfrec_gic_bcm2836(ctlr->version) ? "BCM2836 local controller" :
		 perfrec_gic_v3(ctlr->version) ? "GICv3" : "GICv2", path);
}

/* "INTID 23 from /pmu", or "local source 9 from /arm-pmu": 'perfrec status's words */
static void perfrec_verdict_irq(const struct perfrec_irq_report *irq, char *buf, int size)
{
	snprintf(buf, size, "%s %u from %s", irq->local ? "local source" : "INTID", irq->intid,
		 irq->node);
}

/*
 * The device-tree half of arming on @source at @el: perfrec_dt_source_irq(),
 * then what the controller's node must give (perfrec_gic_dt_check()) and,
 * for the PMU, whether it can take the INTID (perfrec_gic_dt_intid(),
 * without the GIC's number of lines). Faults as perfrec_source.c gives
 * them: a controller's node that lacks a block is PERFREC_IRQ_BAD_GIC.
 */
static int perfrec_verdict_source(const struct perfrec_dt *dt, enum perfrec_source source,
				  u64 affinity, uint el, struct perfrec_dt_irq *dtirq,
				  struct perfrec_irq_report *irq)
{
	const struct perfrec_dt_dev *dev = source == PERFREC_SRC_PMU ? &dt->pmu : &dt->timer;
	int ret;

	memset(irq, 0, sizeof(*irq));
	irq->source = source;
	perfrec_host_el = el;
	ret = perfrec_dt_source_irq(dt, source, affinity, el, dtirq, irq);
	if (ret)
		return ret;
	ret = perfrec_gic_dt_check(&dev->parent, affinity);
	if (ret) {
		irq->fault = PERFREC_IRQ_BAD_GIC;
		return ret;
	}
	if (source == PERFREC_SRC_PMU &&
	    perfrec_gic_dt_intid(dev->parent.version, affinity & GENMASK(7, 0), 0, dtirq->intid)) {
		irq->fault = PERFREC_IRQ_BAD_SPEC;
		return -EPROTONOSUPPORT;
	}

	return 0;
}

/* What a decoded interrupt is at its controller: "PPI 7 of the GICv3 /intc@8000000" */
static void perfrec_verdict_kind(const struct perfrec_dt_dev *dev,
				 const struct perfrec_dt_irq *dtirq, char *buf, int size)
{
	char ctlr[96];

	perfrec_verdict_ctlr(&dev->parent, ctlr, sizeof(ctlr));
	if (perfrec_gic_bcm2836(dev->parent.version))
		snprintf(buf, size, "of %s", ctlr);
	else if (dtirq->type == PERFREC_DT_IRQ_TYPE_PPI)
		snprintf(buf, size, "PPI %u of %s", dtirq->intid - PERFREC_VERDICT_PPI_BASE, ctlr);
	else
		snprintf(buf, size,
			 "SPI %u of %s, CPU 0's; if the GIC has that many lines (GICD_TYPER, not in a DTB)",
			 dtirq->intid - PERFREC_GIC_SPI_BASE, ctlr);
}

/* The PMU's line; true if perfrec can sample on its interrupt */
static bool perfrec_verdict_pmu(const struct perfrec_dt *dt, u64 affinity)
{
	struct perfrec_irq_report irq;
	struct perfrec_dt_irq dtirq;
	char why[PERFREC_WHY_LEN], what[PERFREC_VERDICT_IRQ_LEN], kind[192];

	if (perfrec_verdict_source(dt, PERFREC_SRC_PMU, affinity, 2, &dtirq, &irq)) {
		perfrec_irq_reason(&irq, why, sizeof(why));
		printf("pmu: none: %s\n", why);
		return false;
	}
	dtirq.type = irq.local ? PERFREC_DT_IRQ_TYPE_PPI :
		     dtirq.intid < PERFREC_GIC_SPI_BASE ? PERFREC_DT_IRQ_TYPE_PPI :
		     PERFREC_DT_IRQ_TYPE_SPI;
	perfrec_verdict_irq(&irq, what, sizeof(what));
	perfrec_verdict_kind(&dt->pmu, &dtirq, kind, sizeof(kind));
	printf("pmu: %s, %s\n", what, kind);

	return true;
}

/*
 * The timer's line, one part per EL: "EL1: INTID 30 from /timer (PPI 14)";
 * a refusal the same at every EL once. Returns the ELs perfrec can sample
 * cpu-clock at, as a mask of BIT(el); @why gets the last refusal.
 */
static uint perfrec_verdict_timer(const struct perfrec_dt *dt, char *why, int size)
{
	struct perfrec_irq_report irq;
	char ctlr_a9[96];

	/* A Cortex-A9: its global timer's PPI 11 at the first GIC (perfrec_gtimer.c) */
	if (perfrec_verdict_a9 && !ofnode_valid(dt->timer.node)) {
		if (!ofnode_valid(dt->gic.node)) {
			snprintf(why, size,
				 "no GIC in the device tree for the Cortex-A9 global timer");
			printf("cpu-clock: none: %s\n", why);
			return 0;
		}
		perfrec_verdict_ctlr(&dt->gic, ctlr_a9, sizeof(ctlr_a9));
		printf("cpu-clock: EL1: INTID 27 from the Cortex-A9 global timer (PPI 11); at %s\n",
		       ctlr_a9);
		return BIT(1);
	}
	struct perfrec_dt_irq dtirq;
	char line[3 * PERFREC_VERDICT_PART_LEN] = "", part[PERFREC_VERDICT_PART_LEN];
	char what[PERFREC_VERDICT_IRQ_LEN], ctlr[96] = "";
	char first[PERFREC_WHY_LEN] = "";
	bool same = true;
	uint i, ok = 0;

	for (i = 0; i < ARRAY_SIZE(perfrec_verdict_els); i++) {
		uint el = perfrec_verdict_els[i];
		const char *sep = *line ? "; " : "";

		if (perfrec_verdict_source(dt, PERFREC_SRC_TIMER, 0, el, &dtirq, &irq)) {
			perfrec_irq_reason(&irq, why, size);
			if (!*first)
				strlcpy(first, why, sizeof(first));
			same = same && !strcmp(first, why);
			snprintf(part, sizeof(part), "%sEL%u: none: %s", sep, el, why);
		} else {
			ok |= BIT(el);
			perfrec_verdict_irq(&irq, what, sizeof(what));
			perfrec_verdict_ctlr(&dt->timer.parent, ctlr, sizeof(ctlr));
			if (irq.local)
				snprintf(part, sizeof(part), "%sEL%u: %s", sep, el, what);
			else
				snprintf(part, sizeof(part), "%sEL%u: %s (PPI %u)", sep, el, what,
					 dtirq.intid - PERFREC_VERDICT_PPI_BASE);
		}
		strlcat(line, part, sizeof(line));
	}
	if (!ok && same)
		printf("cpu-clock: none: %s\n", first);
	else if (!ok)
		printf("cpu-clock: %s\n", line);
	else
		printf("cpu-clock: %s; at %s\n", line, ctlr);

	return ok;
}

int main(int argc, char **argv)
{
	ulong boot_addr = 0, boot_size = 0;
	bool boot = false, pmu;
	char why[PERFREC_WHY_LEN], cpu[64];
	struct perfrec_dt dt;
	u64 affinity;
	uint timer_els;
	int i;

	for (i = 1; i < argc - 1 && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--boot-addr"))
			boot_addr = perfrec_verdict_hex(argv[i + 1]);
		else if (!strcmp(argv[i], "--boot-size"))
			boot_size = perfrec_verdict_hex(argv[i + 1]);
		else
			usage();
		boot = true;
	}
	if (i != argc - 1 || (boot && (!boot_addr || !boot_size)))
		usage();
	gd->fdt_blob = perfrec_verdict_read(argv[i]);

	perfrec_dt_scan(&dt);
	printf("model: %s\n", dt.model ?: "(none)");
	affinity = perfrec_verdict_cpu0(cpu, sizeof(cpu), &perfrec_verdict_a9);
	printf("cpu 0: %s, affinity 0x%llx (of %u cpus)\n", cpu, affinity, dt.nr_cpus);
	pmu = perfrec_verdict_pmu(&dt, affinity);
	timer_els = perfrec_verdict_timer(&dt, why, sizeof(why));
	if (pmu)
		printf("sampler: PMU interrupt\n");
	else if (timer_els == (BIT(1) | BIT(2) | BIT(3)))
		printf("sampler: cpu-clock only (timer)\n");
	else if (timer_els)
		printf("sampler: cpu-clock only (timer), at EL%s%s%s\n",
		       timer_els & BIT(1) ? " 1" : "", timer_els & BIT(2) ? " 2" : "",
		       timer_els & BIT(3) ? " 3" : "");
	else
		printf("sampler: none: cpu-clock cannot sample: %s\n", why);
	if (boot) {
		/* perfrec's state is not counted: the check is the tree's alone */
		if (!perfrec_boot_dt_bad(boot_addr, boot_size, 0, &dt, why))
			strlcpy(why, "in /memory, clear of /memreserve/ and /reserved-memory",
				sizeof(why));
		printf("boot buffer %#lx+%#lx: %s\n", boot_addr, boot_size, why);
	}
	free((void *)gd->fdt_blob);

	return 0;
}
