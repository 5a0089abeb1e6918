/*
 * keyed.h: a selector's valid-path list held as list keys.
 *
 * The kernel's selectors keep their usable paths on a list_head, walk it
 * for every I/O and list_move_tail() the winner.  Here each path has a
 * number (the order add_path() saw it in) and, while valid, a list key:
 * larger nearer the tail.  list_add_tail() and list_move_tail() give the
 * path the next key, one store where an array in list order would shift
 * every path after it, and list order is key order.  A selection that is
 * a minimum over (its measure, list position) reads the position from
 * the key, over arrays the selector keeps by path number in whatever
 * order; one that must walk in list order, where the kernel's comparison
 * is not transitive, first puts order[] in list order (ps_keyed_in_order:
 * an insertion sort, whose cost is the paths moved since the last one).
 * Keys are renumbered 1..n in order when they reach PS_ORD_MAX, about
 * every 65 000 moves, so that they fit 16 bits.
 *
 * The failed paths stay on the selector's own list_head: the kernel
 * moves them but never walks them.
 */
#ifndef MPSIM_KEYED_H
#define MPSIM_KEYED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/sim.h"

#define PS_ORD_MAX	0xfffeU		/* largest list key */
/* the most paths: renumbering leaves room below PS_ORD_MAX */
#define PS_KEYED_MAX	0x8000U

/* What the list knows of a path (embedded in the selector's own). */
struct ps_node {
	bool valid;		/* on the valid list */
	unsigned nr;		/* number: add_path() order, from 0 */
	uint32_t ord;		/* list key, while valid */
};

struct ps_keyed {
	struct ps_node **paths;	/* by number */
	struct ps_node **order;	/* the valid paths, in list order after
				   ps_keyed_in_order() */
	unsigned nr_paths;	/* paths added */
	unsigned nr_valid;	/* paths on the valid list */
	unsigned cap;		/* room in paths[] and order[]; a selector's
				   arrays by number are as long */
	uint32_t tick;		/* the latest key given */
	bool order_stale;	/* order[] must be gathered again */
};

/* Put order[] in list order: the valid paths by key. */
static inline void ps_keyed_in_order(struct ps_keyed *k)
{
	unsigned i, j;

	if (k->order_stale) {
		for (i = j = 0; i < k->nr_paths; i++)
			if (k->paths[i]->valid)
				k->order[j++] = k->paths[i];
		k->order_stale = false;
	}
	for (i = 1; i < k->nr_valid; i++) {
		struct ps_node *n = k->order[i];

		for (j = i; j > 0 && k->order[j - 1]->ord > n->ord; j--)
			k->order[j] = k->order[j - 1];
		k->order[j] = n;
	}
}

/* The keys used up: 1..n again, in list order. */
static inline void ps_keyed_renumber(struct ps_keyed *k)
{
	unsigned i;

	ps_keyed_in_order(k);
	for (i = 0; i < k->nr_valid; i++)
		k->order[i]->ord = i + 1;
	k->tick = k->nr_valid;
}

/*
 * list_move_tail() (and list_add_tail()) of a valid path: the next key.
 * Returns true when every key was renumbered first: a selector that
 * keeps copies of the keys refreshes them.
 */
static inline bool ps_keyed_tail(struct ps_keyed *k, struct ps_node *n)
{
	bool renumbered = false;

	if (__builtin_expect(k->tick == PS_ORD_MAX, 0)) {
		ps_keyed_renumber(k);
		renumbered = true;
	}
	n->ord = ++k->tick;
	return renumbered;
}

/*
 * add_path(): n, not yet valid, takes the next number.  false when the
 * list is full (PS_KEYED_MAX; a scenario has far fewer paths).  The
 * caller makes it valid (ps_keyed_valid) and gives it its key.
 */
static inline bool ps_keyed_add(struct ps_keyed *k, struct ps_node *n)
{
	if (k->nr_paths == PS_KEYED_MAX)
		return false;
	if (k->nr_paths == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 8;
		k->paths = xrealloc(k->paths, k->cap * sizeof(*k->paths));
		k->order = xrealloc(k->order, k->cap * sizeof(*k->order));
	}
	n->valid = false;
	n->nr = k->nr_paths++;
	k->paths[n->nr] = n;
	return true;
}

/* n joins the valid list (true) or leaves it (false).  Returns whether
 * it was on it. */
static inline bool ps_keyed_valid(struct ps_keyed *k, struct ps_node *n,
				  bool valid)
{
	bool was = n->valid;

	if (was != valid) {
		n->valid = valid;
		k->nr_valid += valid ? 1 : -1U;
		k->order_stale = true;
	}
	return was;
}

static inline void ps_keyed_free(struct ps_keyed *k)
{
	free(k->paths);
	free(k->order);
}

#endif
