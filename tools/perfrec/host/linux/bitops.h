/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/bitops.h>
 */

#ifndef __PERFREC_HOST_LINUX_BITOPS_H
#define __PERFREC_HOST_LINUX_BITOPS_H

/* <perf_data.h> defines BIT() for the host too */
#ifndef BIT
#define BIT(nr)			(1UL << (nr))
#endif
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (63 - (h))))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))

#endif /* __PERFREC_HOST_LINUX_BITOPS_H */
