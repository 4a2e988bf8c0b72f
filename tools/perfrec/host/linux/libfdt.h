/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/libfdt.h>: the C library's libfdt (Debian's libfdt-dev)
 */

#ifndef __PERFREC_HOST_LINUX_LIBFDT_H
#define __PERFREC_HOST_LINUX_LIBFDT_H

#include <libfdt.h>
#include <linux/types.h>

/* U-Boot's u64 is unsigned long long; the host's uint64_t may be unsigned long */
static inline int perfrec_host_get_mem_rsv(const void *fdt, int n, u64 *address, u64 *size)
{
	uint64_t addr, len;
	int ret;

	ret = fdt_get_mem_rsv(fdt, n, &addr, &len);
	*address = addr;
	*size = len;

	return ret;
}

#define fdt_get_mem_rsv		perfrec_host_get_mem_rsv

#endif /* __PERFREC_HOST_LINUX_LIBFDT_H */
