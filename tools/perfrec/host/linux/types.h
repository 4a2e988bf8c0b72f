/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/types.h>: U-Boot's fixed-width names over the C library's
 */

#ifndef __PERFREC_HOST_LINUX_TYPES_H
#define __PERFREC_HOST_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef unsigned long long __u64;
typedef int32_t __s32;
typedef long long __s64;

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
/* As on the target, so that "%llx" prints it */
typedef unsigned long long u64;
typedef int32_t s32;
typedef long long s64;

/* Linux's marker of an MMIO pointer, which U-Boot's compiler headers define */
#ifndef __iomem
#define __iomem
#endif

#endif /* __PERFREC_HOST_LINUX_TYPES_H */
