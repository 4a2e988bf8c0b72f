// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * What a session needs of the control device tree, found in one walk
 *
 * Arming needs the PMU node, the timer node, their interrupts, their
 * interrupt parents and those controllers' register blocks. Looked up one by
 * one through libfdt (a search by compatible, a walk to each node's parent,
 * a search by phandle, an address translation that walks to the parents
 * again), they cost millions of instructions on a large tree, which a boot
 * recording pays before its first sample. Here one walk keeps, for each
 * node, what it needs of its ancestors (their interrupt parent, their
 * address cells and ranges), and what it finds.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <fdtdec.h>
#include <perfrec_dt.h>
#include <asm/global_data.h>
#include <dm/of.h>
#include <dm/ofnode.h>
#include <linux/kernel.h>
#include <linux/libfdt.h>
#include <linux/string.h>
#include "perfrec_dt_compat.h"

DECLARE_GLOBAL_DATA_PTR;

/*
 * Deeper nodes are not looked at: no PMU, timer or GIC sits that deep. The
 * walk's state is on the stack, which before relocation is the initial one.
 */
#define PERFREC_DT_MAX_DEPTH	8
/* Interrupt controllers remembered for the parents' phandles */
#define PERFREC_DT_MAX_CTLRS	4

/**
 * struct perfrec_dt_node - What the walk keeps of one node on its path
 * @node: the node
 * @name: its name, with the unit address
 * @compat: its "compatible", or NULL
 * @compat_len: the length of @compat
 * @reg: its "reg", or NULL
 * @reg_len: the length of @reg
 * @irqs: its "interrupts", or NULL
 * @irqs_len: the length of @irqs
 * @ranges: its "ranges", or NULL if it has none (empty: the identity)
 * @ranges_len: the length of @ranges
 * @phandle: its phandle, or 0
 * @irq_parent: its own "interrupt-parent", or 0
 * @addr_cells: its "#address-cells" (2 if absent), for its subnodes
 * @size_cells: its "#size-cells" (1 if absent), for its subnodes
 * @disabled: its "status" is neither "okay" nor "ok"
 * @type: its "device_type", or NULL
 * @model: its "model", or NULL (the root's is kept)
 * @rd_regions: its "#redistributor-regions" (a GICv3's; 1 if absent)
 * @rd_stride: its "redistributor-stride" (a GICv3's; 0 if absent)
 * @seen: the walk has looked at it (a flat tree's node, at its first subnode
 *	or its end, once all its properties are known)
 */
struct perfrec_dt_node {
	ofnode node;
	const char *name;
	const char *compat;
	int compat_len;
	const fdt32_t *reg;
	int reg_len;
	const fdt32_t *irqs;
	int irqs_len;
	const fdt32_t *ranges;
	int ranges_len;
	u32 phandle;
	u32 irq_parent;
	u32 addr_cells;
	u32 size_cells;
	bool disabled;
	const char *type;
	const char *model;
	u32 rd_regions;
	u64 rd_stride;
	bool seen;
};

/**
 * struct perfrec_dt_walk - One walk's state
 * @path: the node at each depth, the root at 0
 * @rank: the compatible's rank of the PMU and timer found so far
 * @want: the phandle of the PMU's and the timer's interrupt parent (0: none)
 * @ctlr: the interrupt controllers met
 * @ctlr_phandle: their phandles
 * @nr_ctlr: entries in @ctlr
 */
struct perfrec_dt_walk {
	struct perfrec_dt_node path[PERFREC_DT_MAX_DEPTH];
	int rank[2];
	u32 want[2];
	struct perfrec_dt_ctlr ctlr[PERFREC_DT_MAX_CTLRS];
	u32 ctlr_phandle[PERFREC_DT_MAX_CTLRS];
	uint nr_ctlr;
};

/*
 * Whether @bus's cell counts make addresses: at most FDT_MAX_NCELLS each, as
 * libfdt takes them. Larger ones come only from a malformed tree, and would
 * make the lengths below wrap.
 */
static bool perfrec_dt_cells_ok(const struct perfrec_dt_node *bus)
{
	return bus->addr_cells <= FDT_MAX_NCELLS && bus->size_cells <= FDT_MAX_NCELLS;
}

/*
 * Translate @addr, an address in the space of the node at @depth's parent,
 * to a CPU address through the "ranges" of its ancestors; false if one of
 * them has none, or none of its ranges holds it
 */
static bool perfrec_dt_translate(const struct perfrec_dt_walk *w, int depth, u64 *addr)
{
	int d, i, entry;

	for (d = depth - 1; d > 0; d--) {
		const struct perfrec_dt_node *bus = &w->path[d];
		u32 pac = w->path[d - 1].addr_cells;
		bool found = false;

		if (!bus->ranges || !perfrec_dt_cells_ok(bus) || pac > FDT_MAX_NCELLS)
			return false;
		if (!bus->ranges_len)
			continue;	/* empty: the same addresses */
		entry = bus->addr_cells + pac + bus->size_cells;
		for (i = 0; !found && (i + 1) * entry * 4 <= bus->ranges_len; i++) {
			const fdt32_t *r = bus->ranges + i * entry;
			u64 child = fdtdec_get_number(r, bus->addr_cells);
			u64 parent = fdtdec_get_number(r + bus->addr_cells, pac);
			u64 size = fdtdec_get_number(r + bus->addr_cells + pac, bus->size_cells);

			if (*addr >= child && *addr - child < size) {
				*addr = *addr - child + parent;
				found = true;
			}
		}
		if (!found)
			return false;
	}

	return true;
}

/*
 * Entry @i of @n's "reg", in the cells of its parent @bus; false past the
 * last (or with no "reg")
 */
static bool perfrec_dt_reg(const struct perfrec_dt_node *n, const struct perfrec_dt_node *bus,
			   uint i, u64 *base, u64 *size)
{
	uint entry = bus->addr_cells + bus->size_cells;

	if (!n->reg || !entry || !perfrec_dt_cells_ok(bus) || (i + 1) * entry * 4 > n->reg_len)
		return false;
	*base = fdtdec_get_number(n->reg + i * entry, bus->addr_cells);
	*size = fdtdec_get_number(n->reg + i * entry + bus->addr_cells, bus->size_cells);

	return true;
}

/* Keep the node at @depth as an interrupt controller of @version, with its blocks */
static void perfrec_dt_add_ctlr(struct perfrec_dt_walk *w, int depth, uint version)
{
	const struct perfrec_dt_node *n = &w->path[depth];
	struct perfrec_dt_ctlr *c;
	uint i;

	if (w->nr_ctlr == PERFREC_DT_MAX_CTLRS || !n->phandle)
		return;
	w->ctlr_phandle[w->nr_ctlr] = n->phandle;
	c = &w->ctlr[w->nr_ctlr++];
	memset(c, 0, sizeof(*c));
	c->node = n->node;
	c->version = version;
	c->rd_regions = n->rd_regions;
	c->rd_stride = n->rd_stride;
	for (i = 0; i < PERFREC_DT_MAX_REGS &&
	     perfrec_dt_reg(n, &w->path[depth - 1], i, &c->base[i], &c->size[i]); i++) {
		if (!perfrec_dt_translate(w, depth, &c->base[i]))
			break;
		c->nr_regs = i + 1;
	}
}

/* The interrupt-parent phandle of the node at @depth: its own, or the nearest ancestor's */
static u32 perfrec_dt_parent_phandle(const struct perfrec_dt_walk *w, int depth)
{
	for (; depth >= 0; depth--) {
		if (w->path[depth].irq_parent)
			return w->path[depth].irq_parent;
	}

	return 0;
}

/* Keep the node at @depth as @dev (@which: 0 the PMU, 1 the timer) if it ranks higher */
static void perfrec_dt_keep(struct perfrec_dt_walk *w, int depth, int rank, uint which,
			    struct perfrec_dt_dev *dev)
{
	int i;

	if (rank <= w->rank[which])
		return;
	w->rank[which] = rank;
	dev->node = w->path[depth].node;
	dev->irqs = w->path[depth].irqs;
	dev->irqs_len = w->path[depth].irqs_len;
	w->want[which] = perfrec_dt_parent_phandle(w, depth);
	strlcpy(dev->path, "", sizeof(dev->path));
	for (i = 1; i <= depth; i++) {
		strlcat(dev->path, "/", sizeof(dev->path));
		strlcat(dev->path, w->path[i].name, sizeof(dev->path));
	}
}

/* Bank by bank, a memory node's "reg" (a subnode of the root: no translation) */
static void perfrec_dt_add_memory(struct perfrec_dt *dt, const struct perfrec_dt_walk *w,
				  const struct perfrec_dt_node *n)
{
	uint i;

	for (i = 0; dt->nr_banks < PERFREC_DT_MAX_BANKS &&
	     perfrec_dt_reg(n, &w->path[0], i, &dt->bank[dt->nr_banks],
			    &dt->bank_size[dt->nr_banks]); i++)
		dt->nr_banks++;
}

/* Each region of a /reserved-memory child's "reg": its cells are its parent's */
static void perfrec_dt_add_reserved(struct perfrec_dt *dt, const struct perfrec_dt_walk *w,
				    const struct perfrec_dt_node *n)
{
	uint i = dt->nr_reserved;
	u64 base, size;
	uint j;

	for (j = 0; perfrec_dt_reg(n, &w->path[1], j, &base, &size); j++) {
		if (i == PERFREC_DT_MAX_RESERVED) {
			dt->reserved_over = true;
			break;
		}
		dt->reserved[i] = base;
		dt->reserved_size[i] = size;
		dt->reserved_node[i++] = n->node;
	}
	dt->nr_reserved = i;
}

/* Look at the node at @depth, all of whose properties are known */
static void perfrec_dt_visit(struct perfrec_dt *dt, struct perfrec_dt_walk *w, int depth)
{
	struct perfrec_dt_node *n = &w->path[depth];
	struct perfrec_dt_kind kind;

	n->seen = true;
	/* The boot recording's: its buffer's bank, its options, lmb's hint */
	if (IS_ENABLED(CONFIG_PERFREC_BOOT) && depth == 1 && n->type &&
	    !strcmp(n->type, "memory") && !strncmp(n->name, "memory", 6))
		perfrec_dt_add_memory(dt, w, n);
	if (depth == 2 && n->type && !strcmp(n->type, "cpu") &&
	    !strcmp(w->path[1].name, "cpus"))
		dt->nr_cpus++;
	if (IS_ENABLED(CONFIG_PERFREC_BOOT) && depth == 2 && !strcmp(n->name, "u-boot") &&
	    !strcmp(w->path[1].name, "options"))
		dt->options = n->node;
	if (IS_ENABLED(CONFIG_PERFREC_BOOT) && depth == 1 && !strcmp(n->name, "reserved-memory"))
		dt->reserved_memory = true;
	/* Disabled ones reserve nothing, for U-Boot's lmb as for Linux */
	if (IS_ENABLED(CONFIG_PERFREC_BOOT) && depth == 2 && !n->disabled &&
	    !strcmp(w->path[1].name, "reserved-memory"))
		perfrec_dt_add_reserved(dt, w, n);
	/*
	 * An empty PMU node (QEMU writes one for its Armv7 cores): its path
	 * names it in the message, while no PMU is found
	 */
	if (depth == 1 && !n->compat && !w->rank[0] && !strncmp(n->name, "pmu", 3) &&
	    (!n->name[3] || n->name[3] == '@'))
		snprintf(dt->pmu.path, sizeof(dt->pmu.path), "/%s", n->name);
	/* A device is below the root: its cells and ranges are its parent's */
	if (!depth || !n->compat || n->compat_len <= 0)
		return;
	perfrec_dt_kind(n->compat, n->compat_len, &kind);
	if (!n->disabled)
		perfrec_dt_keep(w, depth, kind.pmu, 0, &dt->pmu);
	perfrec_dt_keep(w, depth, kind.timer, 1, &dt->timer);
	if (kind.ctlr)
		perfrec_dt_add_ctlr(w, depth, kind.ctlr);
}

/* A new node at @depth: nothing known of it but its name */
static void perfrec_dt_enter(struct perfrec_dt_walk *w, int depth, ofnode node,
			     const char *name)
{
	struct perfrec_dt_node *n = &w->path[depth];

	/* Field by field: this runs for every node, and the struct is large */
	n->node = node;
	n->name = name;
	n->compat = NULL;
	n->reg = NULL;
	n->irqs = NULL;
	n->ranges = NULL;
	n->ranges_len = 0;
	n->phandle = 0;
	n->irq_parent = 0;
	n->addr_cells = 2;
	n->size_cells = 1;
	n->disabled = false;
	n->type = NULL;
	n->model = NULL;
	n->rd_regions = 1;
	n->rd_stride = 0;
	n->seen = false;
}

/* One property of the node being read: keep it if the walk needs it */
static void perfrec_dt_prop(struct perfrec_dt_node *n, const char *name, const void *val,
			    int len)
{
	const fdt32_t *cell = val;

	switch (*name) {
	case 'c':
		if (!strcmp(name, "compatible")) {
			n->compat = val;
			n->compat_len = len;
		}
		break;
	case 'r':
		if (!strcmp(name, "reg")) {
			n->reg = val;
			n->reg_len = len;
		} else if (!strcmp(name, "ranges")) {
			n->ranges = val;
			n->ranges_len = len;
		} else if (len == 8 && !strcmp(name, "redistributor-stride")) {
			n->rd_stride = fdtdec_get_number(cell, 2);
		}
		break;
	case 'p':
	case 'l':
		if (len == 4 && (!strcmp(name, "phandle") || !strcmp(name, "linux,phandle")))
			n->phandle = fdt32_to_cpu(*cell);
		break;
	case 'i':
		if (len == 4 && !strcmp(name, "interrupt-parent")) {
			n->irq_parent = fdt32_to_cpu(*cell);
		} else if (!strcmp(name, "interrupts")) {
			n->irqs = val;
			n->irqs_len = len;
		}
		break;
	case '#':
		if (len == 4 && !strcmp(name, "#address-cells"))
			n->addr_cells = fdt32_to_cpu(*cell);
		else if (len == 4 && !strcmp(name, "#size-cells"))
			n->size_cells = fdt32_to_cpu(*cell);
		else if (len == 4 && !strcmp(name, "#redistributor-regions"))
			n->rd_regions = fdt32_to_cpu(*cell);
		break;
	case 's':
		if (!strcmp(name, "status"))
			n->disabled = strcmp(val, "okay") && strcmp(val, "ok");
		break;
	case 'd':
		if (len > 0 && !strcmp(name, "device_type"))
			n->type = val;
		break;
	case 'm':
		if (len > 0 && !strcmp(name, "model"))
			n->model = val;
		break;
	}
}

/*
 * The flat tree: its structure block's tags, in one pass. Each node is
 * looked at once its properties are known (they come before its subnodes).
 */
static void perfrec_dt_walk_flat(struct perfrec_dt *dt, struct perfrec_dt_walk *w)
{
	const void *blob = gd->fdt_blob;
	const char *strings = blob + fdt_off_dt_strings(blob);
	u32 strings_len = fdt_size_dt_strings(blob);
	const u8 *base = blob + fdt_off_dt_struct(blob);
	const u8 *end = base + fdt_size_dt_struct(blob);
	const u8 *p = base;
	int depth = -1;
	u32 len, name;

	/* Strings that end in a NUL: then each name within them ends there too */
	if (!strings_len || strings[strings_len - 1])
		return;
	while (p + 4 <= end) {
		switch (fdt32_to_cpu(*(const fdt32_t *)p)) {
		case FDT_BEGIN_NODE:
			if (depth >= 0 && depth < PERFREC_DT_MAX_DEPTH && !w->path[depth].seen)
				perfrec_dt_visit(dt, w, depth);
			if (++depth < PERFREC_DT_MAX_DEPTH)
				perfrec_dt_enter(w, depth, offset_to_ofnode(p - base),
						 (const char *)p + 4);
			p += 4 + ALIGN(strnlen((const char *)p + 4, end - p - 4) + 1, 4);
			break;
		case FDT_PROP:
			if (p + 12 > end)
				return;
			len = fdt32_to_cpu(((const fdt32_t *)p)[1]);
			name = fdt32_to_cpu(((const fdt32_t *)p)[2]);
			/* A value past the block, or a name past the strings */
			if (len > end - p - 12 || name >= strings_len)
				return;
			if (depth >= 0 && depth < PERFREC_DT_MAX_DEPTH)
				perfrec_dt_prop(&w->path[depth], strings + name, p + 12, len);
			p += 12 + ALIGN(len, 4);
			break;
		case FDT_END_NODE:
			if (depth >= 0 && depth < PERFREC_DT_MAX_DEPTH && !w->path[depth].seen)
				perfrec_dt_visit(dt, w, depth);
			if (--depth < 0)
				return;
			p += 4;
			break;
		case FDT_NOP:
			p += 4;
			break;
		default:	/* FDT_END, or what is not a tag */
			return;
		}
	}
}

/* The live tree: each node's properties, then its subnodes, depth first */
static void perfrec_dt_walk_live(struct perfrec_dt *dt, struct perfrec_dt_walk *w,
				 ofnode node, int depth)
{
	struct ofprop prop;
	const char *name;
	const void *val;
	ofnode sub;
	int len;

	perfrec_dt_enter(w, depth, node, depth ? ofnode_get_name(node) : "");
	ofnode_for_each_prop(prop, node) {
		val = ofprop_get_property(&prop, &name, &len);
		if (val)
			perfrec_dt_prop(&w->path[depth], name, val, len);
	}
	perfrec_dt_visit(dt, w, depth);
	if (depth + 1 == PERFREC_DT_MAX_DEPTH)
		return;
	ofnode_for_each_subnode(sub, node)
		perfrec_dt_walk_live(dt, w, sub, depth + 1);
}

/* The controller met whose phandle is @phandle, or NULL */
static const struct perfrec_dt_ctlr *perfrec_dt_ctlr_met(const struct perfrec_dt_walk *w,
							 u32 phandle)
{
	uint i;

	for (i = 0; i < w->nr_ctlr; i++) {
		if (w->ctlr_phandle[i] == phandle)
			return &w->ctlr[i];
	}

	return NULL;
}

/* Resolve @dev's interrupt parent, phandle @phandle, among the controllers met */
static void perfrec_dt_resolve(const struct perfrec_dt_walk *w, u32 phandle,
			       struct perfrec_dt_dev *dev)
{
	const struct perfrec_dt_ctlr *met;
	struct perfrec_dt_kind kind;
	const fdt32_t *up;
	const char *compat;
	int len, up_len;

	dev->parent.node = ofnode_null();
	if (!ofnode_valid(dev->node) || !phandle)
		return;
	met = perfrec_dt_ctlr_met(w, phandle);
	if (met) {
		dev->parent = *met;
		return;
	}
	/* A controller perfrec does not know (its compatible goes in the message) */
	dev->parent.node = ofnode_get_by_phandle(phandle);
	compat = ofnode_read_prop(dev->parent.node, "compatible", &len);
	if (!compat || len <= 0)
		return;
	perfrec_dt_kind(compat, len, &kind);
	dev->parent.version = kind.ctlr;
	/* One that passes its interrupts to its GIC unchanged: that GIC */
	if (!perfrec_dt_passthrough(compat, len))
		return;
	up = ofnode_read_prop(dev->parent.node, "interrupt-parent", &up_len);
	met = up && up_len == sizeof(*up) ? perfrec_dt_ctlr_met(w, fdt32_to_cpu(*up)) : NULL;
	if (met)
		dev->parent = *met;
}

/* The first GICv2 or v3 among the controllers met, as @gic */
static void perfrec_dt_first_gic(const struct perfrec_dt_walk *w, struct perfrec_dt_ctlr *gic)
{
	uint i;

	gic->node = ofnode_null();
	for (i = 0; i < w->nr_ctlr; i++) {
		if (w->ctlr[i].version == 2 || w->ctlr[i].version == 3) {
			*gic = w->ctlr[i];
			return;
		}
	}
}

void perfrec_dt_scan(struct perfrec_dt *dt)
{
	struct perfrec_dt_walk w;

	memset(dt, 0, sizeof(*dt));
	/* Each node on the path is set when the walk enters it */
	w.rank[0] = 0;
	w.rank[1] = 0;
	w.want[0] = 0;
	w.want[1] = 0;
	w.nr_ctlr = 0;
	/* A tree the walk cannot enter has no root, and no model */
	w.path[0].model = NULL;
	dt->pmu.node = ofnode_null();
	dt->timer.node = ofnode_null();
	dt->options = ofnode_null();
	if (IS_ENABLED(CONFIG_OF_LIVE) && of_live_active()) {
		perfrec_dt_walk_live(dt, &w, ofnode_root(), 0);
	} else {
		dt->blob = gd->fdt_blob;
		perfrec_dt_walk_flat(dt, &w);
	}
	dt->model = w.path[0].model;
	perfrec_dt_resolve(&w, w.want[0], &dt->pmu);
	perfrec_dt_resolve(&w, w.want[1], &dt->timer);
	perfrec_dt_first_gic(&w, &dt->gic);
}

void perfrec_dt_follow(struct perfrec_dt *dt)
{
	if (IS_ENABLED(CONFIG_OF_LIVE) && of_live_active()) {
		perfrec_dt_scan(dt);
		return;
	}
	if (dt->model)
		dt->model = gd->fdt_blob + (dt->model - (const char *)dt->blob);
	dt->blob = gd->fdt_blob;
}
