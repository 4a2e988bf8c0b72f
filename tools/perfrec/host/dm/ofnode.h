/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <dm/ofnode.h>: an ofnode is an offset into gd->fdt_blob, as in U-Boot's flat tree
 */

#ifndef __PERFREC_HOST_DM_OFNODE_H
#define __PERFREC_HOST_DM_OFNODE_H

#include <errno.h>
#include <string.h>
#include <asm/global_data.h>
#include <linux/libfdt.h>
#include <linux/types.h>

/**
 * union ofnode_union - A device-tree node: its offset in gd->fdt_blob
 * @of_offset: the offset, or a negative libfdt error for none
 */
typedef union ofnode_union {
	long of_offset;
} ofnode;

/**
 * struct ofprop - A property being iterated over
 * @node: its node
 * @offset: its offset in gd->fdt_blob
 */
struct ofprop {
	ofnode node;
	int offset;
};

static inline ofnode offset_to_ofnode(int of_offset)
{
	ofnode node = { .of_offset = of_offset };

	return node;
}

static inline int ofnode_to_offset(ofnode node)
{
	return node.of_offset;
}

static inline bool ofnode_valid(ofnode node)
{
	return node.of_offset >= 0;
}

static inline ofnode ofnode_null(void)
{
	return offset_to_ofnode(-1);
}

static inline ofnode ofnode_root(void)
{
	return offset_to_ofnode(0);
}

static inline const char *ofnode_get_name(ofnode node)
{
	return ofnode_valid(node) ? fdt_get_name(gd->fdt_blob, ofnode_to_offset(node), NULL) :
	       NULL;
}

static inline int ofnode_get_path(ofnode node, char *buf, int buflen)
{
	return fdt_get_path(gd->fdt_blob, ofnode_to_offset(node), buf, buflen) ? -ENOSPC : 0;
}

static inline ofnode ofnode_path(const char *path)
{
	return offset_to_ofnode(fdt_path_offset(gd->fdt_blob, path));
}

static inline ofnode ofnode_get_by_phandle(uint phandle)
{
	return offset_to_ofnode(fdt_node_offset_by_phandle(gd->fdt_blob, phandle));
}

static inline const void *ofnode_get_property(ofnode node, const char *name, int *lenp)
{
	return fdt_getprop(gd->fdt_blob, ofnode_to_offset(node), name, lenp);
}

static inline const void *ofnode_read_prop(ofnode node, const char *name, int *sizep)
{
	return ofnode_get_property(node, name, sizep);
}

/* As U-Boot's: NULL unless the property holds a NUL-terminated string */
static inline const char *ofnode_read_string(ofnode node, const char *name)
{
	const char *str;
	int len;

	str = ofnode_get_property(node, name, &len);
	if (!str || len <= 0 || strnlen(str, len) >= (size_t)len)
		return NULL;

	return str;
}

static inline int ofnode_read_u32_index(ofnode node, const char *name, int index, u32 *outp)
{
	const fdt32_t *cell;
	int len;

	cell = ofnode_get_property(node, name, &len);
	if (!cell)
		return -EINVAL;
	if (len < (int)sizeof(*cell) * (index + 1))
		return -EOVERFLOW;
	*outp = fdt32_to_cpu(cell[index]);

	return 0;
}

static inline ofnode ofnode_first_subnode(ofnode node)
{
	return offset_to_ofnode(fdt_first_subnode(gd->fdt_blob, ofnode_to_offset(node)));
}

static inline ofnode ofnode_next_subnode(ofnode node)
{
	return offset_to_ofnode(fdt_next_subnode(gd->fdt_blob, ofnode_to_offset(node)));
}

#define ofnode_for_each_subnode(node, parent) \
	for (node = ofnode_first_subnode(parent); ofnode_valid(node); \
	     node = ofnode_next_subnode(node))

static inline int ofnode_first_property(ofnode node, struct ofprop *prop)
{
	prop->node = node;
	prop->offset = fdt_first_property_offset(gd->fdt_blob, ofnode_to_offset(node));

	return prop->offset < 0 ? -EINVAL : 0;
}

static inline int ofnode_next_property(struct ofprop *prop)
{
	prop->offset = fdt_next_property_offset(gd->fdt_blob, prop->offset);

	return prop->offset < 0 ? -EINVAL : 0;
}

#define ofnode_for_each_prop(prop, node) \
	for (ofnode_first_property(node, &(prop)); (prop).offset >= 0; \
	     ofnode_next_property(&(prop)))

static inline const void *ofprop_get_property(const struct ofprop *prop, const char **propname,
					      int *lenp)
{
	return fdt_getprop_by_offset(gd->fdt_blob, prop->offset, propname, lenp);
}

#endif /* __PERFREC_HOST_DM_OFNODE_H */
