/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/kconfig.h>: IS_ENABLED() over CONFIG_ values given with -D
 */

#ifndef __PERFREC_HOST_LINUX_KCONFIG_H
#define __PERFREC_HOST_LINUX_KCONFIG_H

/* Linux's trick: IS_ENABLED(CONFIG_X) is 1 if CONFIG_X is defined as 1, else 0 */
#define __ARG_PLACEHOLDER_1			0,
#define __take_second_arg(__ignored, val, ...)	val
#define __is_defined(x)				___is_defined(x)
#define ___is_defined(val)			____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)		__take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)			__is_defined(option)

#endif /* __PERFREC_HOST_LINUX_KCONFIG_H */
