/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/bitfield.h>: FIELD_GET() and FIELD_PREP() by the mask's lowest bit
 */

#ifndef __PERFREC_HOST_LINUX_BITFIELD_H
#define __PERFREC_HOST_LINUX_BITFIELD_H

#include <linux/bitops.h>

#define FIELD_GET(mask, val)	(((val) & (mask)) / ((mask) & -(mask)))
#define FIELD_PREP(mask, val)	(((val) * ((mask) & -(mask))) & (mask))

#endif /* __PERFREC_HOST_LINUX_BITFIELD_H */
