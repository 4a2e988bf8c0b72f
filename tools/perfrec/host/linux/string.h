/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/string.h>: strlcpy() and strlcat(), which the C library may lack
 */

#ifndef __PERFREC_HOST_LINUX_STRING_H
#define __PERFREC_HOST_LINUX_STRING_H

#include <string.h>

static inline size_t perfrec_host_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}

	return len;
}

static inline size_t perfrec_host_strlcat(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(dst, size);

	if (len == size)
		return len + strlen(src);

	return len + perfrec_host_strlcpy(dst + len, src, size - len);
}

#define strlcpy		perfrec_host_strlcpy
#define strlcat		perfrec_host_strlcat

#endif /* __PERFREC_HOST_LINUX_STRING_H */
