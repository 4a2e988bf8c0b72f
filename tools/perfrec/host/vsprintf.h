/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <vsprintf.h>: the C library's snprintf() serves
 */

#ifndef __PERFREC_HOST_VSPRINTF_H
#define __PERFREC_HOST_VSPRINTF_H

#include <stdio.h>

#endif /* __PERFREC_HOST_VSPRINTF_H */
