/*
 * valid.h: a selector's valid-path list kept as an array in list order.
 *
 * The kernel's selectors keep their usable paths on a list_head and scan
 * it with list_for_each_entry() for every I/O.  Walking links costs one
 * dependent load per path before the next can start, which on 48 paths
 * was most of what a selection cost.  An array holding the same paths in
 * the same order gives the same scan, hence the same winner, and the
 * kernel's moves keep their meaning: list_add_tail() appends,
 * list_move_tail() of the winner shifts the ones after it up by one, and
 * list_del() of a failing path closes the gap.  The shifts are a few
 * cache lines at most; the scan is what runs per path.
 */
#ifndef MPSIM_VALID_H
#define MPSIM_VALID_H

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/list.h"
#include "sim/sim.h"

struct ps_valid {
	void **v;		/* the paths' selector state, head first */
	unsigned n;		/* paths on the list */
	unsigned cap;		/* room in v */
};

/* list_add_tail(): p joins at the tail. */
static inline void ps_valid_add_tail(struct ps_valid *l, void *p)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = p;
}

/* list_move_tail() of the i-th path: it goes to the tail, the paths
 * after it move up one place.  A loop, not memmove(): the call would
 * cost more than the few words it moves. */
static inline void ps_valid_move_tail(struct ps_valid *l, unsigned i)
{
	void **v = l->v, *p = v[i];
	unsigned n = l->n;

	assert(i < n);
	for (; i + 1 < n; i++)
		v[i] = v[i + 1];
	v[i] = p;
}

/* list_del() of p, which is on the list. */
static inline void ps_valid_del(struct ps_valid *l, void *p)
{
	unsigned i = 0;

	while (i < l->n && l->v[i] != p)
		i++;
	assert(i < l->n);
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
	l->n--;
}

/*
 * list_del() of p from the list it is on: the valid array when *valid,
 * else the list_head list (a failed list, which stays a list_head: it is
 * only moved on, never scanned).  Both moves of a path are this and an
 * add: list_move() to a failed list, list_move_tail() back to the valid
 * one, whichever list it was on before, as the kernel's.
 */
static inline void ps_valid_unlink(struct ps_valid *l, void *p, bool *valid,
				   struct list_head *list)
{
	if (*valid)
		ps_valid_del(l, p);
	else
		list_del(list);
	*valid = false;
}

/* list_move_tail() of p to the valid list, from either list. */
static inline void ps_valid_move_in(struct ps_valid *l, void *p, bool *valid,
				    struct list_head *list)
{
	ps_valid_unlink(l, p, valid, list);
	ps_valid_add_tail(l, p);
	*valid = true;
}

/* Frees the array (the selector's destroy()). */
static inline void ps_valid_free(struct ps_valid *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

#endif
