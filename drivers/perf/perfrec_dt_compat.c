// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Which of a device tree node's compatibles name a PMU, a timer or a GIC
 */

#include <linux/kernel.h>
#include <linux/libfdt.h>
#include <linux/string.h>
#include "perfrec_dt_compat.h"

/*
 * The compatibles perfrec looks for, as NUL-separated strings (a table of
 * pointers would cost a relocation entry each in u-boot.bin): the PMUv3s
 * Linux's arm_pmuv3 driver knows besides "arm,armv8-pmuv3" and the cores'
 * own ("arm,cortex-a53-pmu", "arm,neoverse-n1-pmu": by rule), the GICv2s,
 * and the controllers that pass interrupts through to their GIC.
 */
static const char perfrec_dt_pmus[] =
	"apm,potenza-pmu\0brcm,vulcan-pmu\0cavium,thunder-pmu\0nvidia,carmel-pmu\0"
	"nvidia,denver-pmu\0";
static const char perfrec_dt_gicv2[] =
	"arm,gic-400\0arm,cortex-a15-gic\0arm,cortex-a9-gic\0arm,cortex-a7-gic\0"
	"arm,arm11mp-gic\0arm,eb11mp-gic\0arm,pl390\0arm,tc11mp-gic\0qcom,msm-qgic2\0";

static const char perfrec_dt_passthroughs[] = "fsl,imx6q-gpc\0fsl,imx6sx-gpc\0";

/* Is @str one of the strings of @list (one of the arrays above)? */
#define PERFREC_DT_IN(list, str)	fdt_stringlist_contains(list, sizeof(list), str)

/* "arm,cortex-<core>-pmu" or "arm,neoverse-<core>-pmu"; @len is strlen(@str) */
static bool perfrec_dt_core_pmu(const char *str, size_t len)
{
	if (len < 4 || strcmp(str + len - 4, "-pmu"))
		return false;

	return (len > 15 && !strncmp(str, "arm,cortex-", 11)) ||
	       (len > 17 && !strncmp(str, "arm,neoverse-", 13));
}

void perfrec_dt_kind(const char *compat, int len, struct perfrec_dt_kind *kind)
{
	const char *end = compat + len, *str;
	size_t n;

	kind->pmu = 0;
	kind->timer = 0;
	kind->ctlr = 0;
	for (str = compat; str < end; str += n + 1) {
		n = strnlen(str, end - str);
		/* Only these vendors' compatibles name what perfrec looks for */
		if (!strchr("abcnq", *str) || !*str)
			continue;
		if (strncmp(str, "arm,", 4)) {
			/*
			 * By their ends first: most of a board's compatibles
			 * are its vendor's own devices, none of these
			 */
			if (n > 4 && !strcmp(str + n - 4, "-pmu")) {
				if (PERFREC_DT_IN(perfrec_dt_pmus, str))
					kind->pmu = max(kind->pmu, 1);
			} else if (!strcmp(str, "brcm,bcm2836-l1-intc")) {
				kind->ctlr = PERFREC_GIC_BCM2836;
			} else if (!kind->ctlr && !strncmp(str, "qcom,", 5) &&
				   PERFREC_DT_IN(perfrec_dt_gicv2, str)) {
				kind->ctlr = 2;
			}
		} else if (!strcmp(str, "arm,armv8-pmuv3")) {
			kind->pmu = 2;
		} else if (perfrec_dt_core_pmu(str, n)) {
			kind->pmu = max(kind->pmu, 1);
		} else if (!strcmp(str, "arm,armv8-timer")) {
			kind->timer = 2;
		} else if (!strcmp(str, "arm,armv7-timer")) {
			kind->timer = max(kind->timer, 1);
		} else if (!strcmp(str, "arm,gic-v3")) {
			kind->ctlr = 3;
		} else if (!kind->ctlr && n > 4 &&
			   (!strcmp(str + n - 4, "-gic") || !strcmp(str, "arm,gic-400") ||
			    !strcmp(str, "arm,pl390")) && PERFREC_DT_IN(perfrec_dt_gicv2, str)) {
			kind->ctlr = 2;
		}
	}
}

bool perfrec_dt_passthrough(const char *compat, int len)
{
	const char *end = compat + len, *str;

	for (str = compat; str < end; str += strnlen(str, end - str) + 1) {
		if (PERFREC_DT_IN(perfrec_dt_passthroughs, str))
			return true;
	}

	return false;
}
