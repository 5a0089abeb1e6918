/* service-time.c: "service-time" policy; mirrors drivers/md/dm-ps-service-time.c */
#include <stdio.h>
#include <stdlib.h>

#include "sim/list.h"
#include "selector.h"

#define ST_MIN_IO			1	/* default repeat_count */
#define ST_MAX_RELATIVE_THROUGHPUT	100
#define ST_MAX_RELATIVE_THROUGHPUT_SHIFT	7
/* 2^57 - 1 on 64-bit (only a huge incoming size or a negative
 * in_flight_size reaches it), 2^25 - 1 = 32 MiB on 32-bit (docs/kernel-model.md §4). */
#define ST_MAX_INFLIGHT_SIZE	((size_t)-1 >> ST_MAX_RELATIVE_THROUGHPUT_SHIFT)

/*
 * How the valid list is held.  The kernel keeps the usable paths on a
 * list_head, walks it for every I/O and list_move_tail()s the winner.
 * Here each path has a number (the order it was added in) and a 64-bit
 * key by number, in one array:
 *
 *	bits 63..32	in_flight_size, as the u32 of its bits
 *	bits 31..16	its list key: larger nearer the tail
 *	bits 15..0	its number
 *
 * and a failed path has ST_KEY_FAILED.  list_add_tail() and
 * list_move_tail() give the path the next list key, one store; list
 * order is list-key order.  When every valid path has the same
 * relative_throughput, the kernel's walk keeps the first path in list
 * order of least in_flight_size (st_first_least), which is the least key
 * of the array, scanned in whatever order it is held.  Otherwise the
 * walk itself is run, in list order (st_in_order): st_compare_load() is
 * not transitive, so its winner can depend on the order.  List keys are
 * renumbered 1..n in order when they reach ST_ORD_MAX, which happens
 * every ~65 000 selections and costs a sort of the valid paths.
 */
#define ST_NR_BITS	16
#define ST_MAX_PATHS	(1U << (ST_NR_BITS - 1))	/* leaves room to renumber */
#define ST_ORD_MAX	0xfffeU		/* largest list key */
#define ST_KEY_LOW	0xffffffffULL	/* list key and number */
/* above every key of a valid path whose in_flight_size is not negative,
 * with bit 63 clear: a negative size shows in the OR of the keys */
#define ST_KEY_FAILED	0x7fffffffffffffffULL

struct st_selector {
	struct st_path **paths;		/* by number */
	uint64_t *key;			/* by number (above) */
	struct st_path **order;		/* the valid paths, in list order
					   after st_in_order() */
	unsigned nr_paths, nr_valid, cap;
	unsigned tick;			/* the latest list key given */
	bool order_stale;		/* order[] must be gathered again */
	struct list_head failed_paths;	/* failed paths, latest failure first */
	bool same_rt;			/* every valid path has the same
					   relative_throughput (st_same_rt) */
};

struct st_path {
	struct list_head list;		/* on failed_paths when !valid */
	bool valid;			/* on the valid list */
	unsigned nr;			/* number: place in paths[] and key[] */
	struct ps_path *path;		/* the framework path this describes */
	unsigned repeat_count;		/* as given, but at most 1 (§2.5) */
	unsigned relative_throughput;	/* 0..ST_MAX_RELATIVE_THROUGHPUT */
	int in_flight_size;		/* bytes in flight: the kernel's 32-bit
					 * atomic_t, wraps past 2 GiB */
};

static unsigned st_ord(const struct st_selector *s, const struct st_path *pi)
{
	return (unsigned)(s->key[pi->nr] >> ST_NR_BITS) & 0xffff;
}

/* Put order[] in list order: the valid paths by list key.  Insertion
 * sort: the paths out of place are the few moved since the last time. */
static void st_in_order(struct st_selector *s)
{
	unsigned i, j;

	if (s->order_stale) {
		for (i = j = 0; i < s->nr_paths; i++)
			if (s->paths[i]->valid)
				s->order[j++] = s->paths[i];
		s->order_stale = false;
	}
	for (i = 1; i < s->nr_valid; i++) {
		struct st_path *pi = s->order[i];
		unsigned k = st_ord(s, pi);

		for (j = i; j > 0 && st_ord(s, s->order[j - 1]) > k; j--)
			s->order[j] = s->order[j - 1];
		s->order[j] = pi;
	}
}

/* The key of a valid path: its size, list key ord and number. */
static void st_set_key(struct st_selector *s, struct st_path *pi,
		       unsigned ord)
{
	s->key[pi->nr] = (uint64_t)(uint32_t)pi->in_flight_size << 32 |
			 (uint64_t)ord << ST_NR_BITS | pi->nr;
}

/* A valid path's key after its in_flight_size changed (a failed one's
 * stays ST_KEY_FAILED until it is reinstated). */
static void st_key_size(struct st_selector *s, const struct st_path *pi)
{
	if (pi->valid)
		s->key[pi->nr] = (uint64_t)(uint32_t)pi->in_flight_size << 32 |
				 (s->key[pi->nr] & ST_KEY_LOW);
}

/* The list keys used up: 1..n again, in list order. */
static void __attribute__((noinline)) st_renumber(struct st_selector *s)
{
	unsigned i;

	st_in_order(s);
	for (i = 0; i < s->nr_valid; i++)
		st_set_key(s, s->order[i], i + 1);
	s->tick = s->nr_valid;
}

/* list_move_tail() (and list_add_tail()) of a valid path: the next list
 * key. */
static inline void st_move_tail(struct st_selector *s, struct st_path *pi)
{
	if (__builtin_expect(s->tick == ST_ORD_MAX, 0))
		st_renumber(s);
	st_set_key(s, pi, ++s->tick);
}

/*
 * The kernel ignores selector arguments (it accepts any count and reports
 * none), so they are accepted here too, with a warning that they do
 * nothing.
 */
static int st_create(struct path_selector *ps, int argc, char **argv,
		     char *error)
{
	struct st_selector *s = ps->context;

	if (argc)
		mpsim_warn("service-time ps: ignoring %d selector argument(s)",
			   argc);
	INIT_LIST_HEAD(&s->failed_paths);
	return 0;
}

static void st_destroy(struct path_selector *ps)
{
	struct st_selector *s = ps->context;

	free(s->paths);
	free(s->key);
	free(s->order);
}

/* Whether the valid paths all have one relative_throughput (after each
 * change of the valid list, which is rare). */
static void st_same_rt(struct st_selector *s)
{
	const struct st_path *first = NULL;
	unsigned i;

	s->same_rt = true;
	for (i = 0; i < s->nr_paths; i++) {
		const struct st_path *pi = s->paths[i];

		if (!pi->valid)
			continue;
		if (first && pi->relative_throughput !=
			     first->relative_throughput)
			s->same_rt = false;
		first = first ? first : pi;
	}
}

static int st_add_path(struct path_selector *ps, struct ps_path *path,
		       int argc, char **argv, char *error)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;
	unsigned repeat_count = ST_MIN_IO;
	unsigned relative_throughput = 1;

	/*
	 * Arguments: [<repeat_count> [<relative_throughput>]]
	 *	<repeat_count>: I/Os before switching path; only 1 is honoured.
	 *	<relative_throughput>: the path's throughput relative to the
	 *		others of its group, 0..ST_MAX_RELATIVE_THROUGHPUT,
	 *		default 1.  A path with 0 is chosen only when no path
	 *		with a positive value is usable.
	 * The order of the checks is the kernel's: a bad repeat count is
	 * reported before a bad relative_throughput.
	 */
	if (argc > 2)
		return input_error(error,
				   "service-time ps: incorrect number of arguments");
	if (ps_repeat_count("service-time", argc, argv, &repeat_count, error))
		return -EINVAL;

	if (argc == 2 && (ps_parse_uint(argv[1], &relative_throughput) ||
			  relative_throughput > ST_MAX_RELATIVE_THROUGHPUT))
		return input_error(error,
				   "service-time ps: invalid relative_throughput value");
	/* not the kernel's: the numbering's bound (a scenario has far
	 * fewer paths, input/scenario.h) */
	if (s->nr_paths == ST_MAX_PATHS)
		return input_error(error, "service-time ps: more than %u "
				   "paths", ST_MAX_PATHS);

	pi->path = path;
	pi->repeat_count = repeat_count;
	pi->relative_throughput = relative_throughput;
	pi->in_flight_size = 0;
	if (s->nr_paths == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->paths = xrealloc(s->paths, s->cap * sizeof(*s->paths));
		s->key = xrealloc(s->key, s->cap * sizeof(*s->key));
		s->order = xrealloc(s->order, s->cap * sizeof(*s->order));
	}
	pi->nr = s->nr_paths++;
	s->paths[pi->nr] = pi;
	s->key[pi->nr] = 0;		/* sorts first if st_move_tail renumbers */
	/* Table order becomes list order (docs/kernel-model.md §2.1). */
	pi->valid = true;
	s->nr_valid++;
	s->order_stale = true;
	st_move_tail(s, pi);
	st_same_rt(s);
	return 0;
}

static void st_fail_path(struct path_selector *ps, struct ps_path *path)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	/* list_move() to the failed list's head */
	if (pi->valid) {
		pi->valid = false;
		s->nr_valid--;
		s->order_stale = true;
		s->key[pi->nr] = ST_KEY_FAILED;
	} else {
		list_del(&pi->list);
	}
	list_add(&pi->list, &s->failed_paths);
	st_same_rt(s);
}

static int st_reinstate_path(struct path_selector *ps, struct ps_path *path)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	/* Kernel-exact: list_move_tail() to the TAIL of the valid list,
	 * unlike round-robin (docs/kernel-model.md §4, §9 item 11). */
	if (!pi->valid) {
		list_del(&pi->list);
		pi->valid = true;
		s->nr_valid++;
		s->order_stale = true;
	}
	st_move_tail(s, pi);
	st_same_rt(s);
	return 0;
}

/*
 * Compare the estimated service time of pi1 and pi2 for an incoming I/O
 * of `incoming` bytes: (in_flight_size + incoming) / relative_throughput.
 * The kernel passes the two paths; their in_flight_size and
 * relative_throughput are passed here, so that select_path's scan keeps
 * the best path's in registers instead of loading them again through its
 * pointer on every path (a dependency from one path's test to the next).
 *
 * Returns:
 *	< 0 : pi1 is better
 *	  0 : no difference
 *	> 0 : pi2 is better
 *
 * Kernel-exact truncation (docs/kernel-model.md §4, §9 item 12), reproduced on
 * purpose: every difference below is computed in size_t (64-bit here) or
 * unsigned and then converted to the int return value modulo 2^32.  When
 * the products of step 3 differ by 2^31 or more the sign can flip and the
 * worse path is declared better.  Do not "fix" this: the simulator must
 * choose what the kernel chooses.
 */
static int st_compare_load(int in_flight1, unsigned rt1, int in_flight2,
			   unsigned rt2, size_t incoming)
{
	size_t sz1, sz2, st1, st2;

	/* int -> size_t: a negative (wrapped) in-flight size becomes huge,
	 * as in the kernel's assignment of atomic_read() to a size_t. */
	sz1 = (size_t)in_flight1;
	sz2 = (size_t)in_flight2;

	/* Case 1: same throughput: the less loaded path. */
	if (rt1 == rt2)
		return (int)(sz1 - sz2);

	/* Case 2a: same load: the higher throughput path.
	 * Case 2b: one path has throughput 0: the other one. */
	if (sz1 == sz2 || !rt1 || !rt2)
		return (int)(rt2 - rt1);

	/*
	 * Case 3: the shorter service time, compared without division as
	 * (sz1 + incoming) * rt2 against (sz2 + incoming) * rt1 (both rt are
	 * positive here).  Kernel guard: a size at or above
	 * ST_MAX_INFLIGHT_SIZE could overflow the multiplication by rt <= 100
	 * < 2^7, so both sizes are shifted down by 7 bits first.
	 */
	sz1 += incoming;
	sz2 += incoming;
	if (sz1 >= ST_MAX_INFLIGHT_SIZE || sz2 >= ST_MAX_INFLIGHT_SIZE) {
		sz1 >>= ST_MAX_RELATIVE_THROUGHPUT_SHIFT;
		sz2 >>= ST_MAX_RELATIVE_THROUGHPUT_SHIFT;
	}
	st1 = sz1 * rt2;
	st2 = sz2 * rt1;
	if (st1 != st2)
		return (int)(st1 - st2);	/* the truncation hazard */

	/* Case 4: same service time: the higher throughput path. */
	return (int)(rt2 - rt1);
}

/*
 * The scan's shortcut.  When every valid path has the same
 * relative_throughput, st_compare_load() is case 1 for every pair,
 * (int)(sz1 - sz2); for two sizes in [0, 2^31) that is their exact
 * difference, so the walk keeps the first path of least in_flight_size
 * in list order: the least key (above), which two chains seek at once,
 * over the even and the odd numbers.  Returns that key, or
 * ST_KEY_FAILED when a valid path's size is negative (a wrapped
 * in-flight count): the kernel's pairwise walk decides then.
 */
static uint64_t st_first_least(const uint64_t *key, unsigned n)
{
	uint64_t k0 = UINT64_MAX, k1 = UINT64_MAX, or = 0;
	unsigned i;

	for (i = 0; i + 1 < n; i += 2) {
		k0 = key[i] < k0 ? key[i] : k0;
		k1 = key[i + 1] < k1 ? key[i + 1] : k1;
		or |= key[i] | key[i + 1];
	}
	if (i < n) {
		k0 = key[i] < k0 ? key[i] : k0;
		or |= key[i];
	}
	if (or >> 63)
		return ST_KEY_FAILED;
	return k1 < k0 ? k1 : k0;
}

static struct ps_path *st_select_path(struct path_selector *ps,
				      size_t nr_bytes, sim_ns now)
{
	struct st_selector *s = ps->context;
	struct st_path *best;
	unsigned i, best_rt;
	int best_in_flight;
	uint64_t first;

	if (!s->nr_valid)
		return NULL;

	first = s->same_rt ? st_first_least(s->key, s->nr_paths) :
			     ST_KEY_FAILED;
	if (first != ST_KEY_FAILED) {
		best = s->paths[first & ((1U << ST_NR_BITS) - 1)];
		goto found;
	}
	/* The walk, in list order.  Replace best only when strictly better,
	 * so ties keep the earliest path in list order
	 * (docs/kernel-model.md §4). */
	st_in_order(s);
	best = s->order[0];
	best_in_flight = best->in_flight_size;
	best_rt = best->relative_throughput;
	for (i = 1; i < s->nr_valid; i++) {
		struct st_path *pi = s->order[i];

		if (st_compare_load(pi->in_flight_size, pi->relative_throughput,
				    best_in_flight, best_rt, nr_bytes) < 0) {
			best = pi;
			best_in_flight = pi->in_flight_size;
			best_rt = pi->relative_throughput;
		}
	}

found:
	/* Move the most recently used path to the tail, so that equally
	 * good paths take turns (docs/kernel-model.md §4, mainline). */
	st_move_tail(s, best);
	return best->path;
}

/* The kernel's atomic_add(nr_bytes, ...) takes an int: nr_bytes is
 * truncated to 32 bits and the sum wraps (docs/kernel-model.md §4).  Unsigned
 * arithmetic gives the same bits without signed-overflow UB. */
static int st_start_io(struct path_selector *ps, struct ps_path *path,
		       size_t nr_bytes, sim_ns now)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	pi->in_flight_size = (int)((unsigned)pi->in_flight_size +
				   (unsigned)nr_bytes);
	st_key_size(s, pi);
	return 0;
}

static int st_end_io(struct path_selector *ps, struct ps_path *path,
		     size_t nr_bytes, uint64_t start_time, sim_ns now)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	pi->in_flight_size = (int)((unsigned)pi->in_flight_size -
				   (unsigned)nr_bytes);
	st_key_size(s, pi);
	return 0;
}

/* Selector: "0 " (no arguments).  Path: info "<in_flight_size>
 * <relative_throughput> ", table "<repeat_count> <relative_throughput> ",
 * trace the two values st_compare_load() weighs, named. */
static int st_status(struct path_selector *ps, struct ps_path *path,
		     enum ps_status_type type, char *result, size_t maxlen)
{
	struct st_path *pi;
	int n;

	if (!path) {
		n = type == PS_STATUS_TRACE ? snprintf(result, maxlen, "%s", "") :
		    snprintf(result, maxlen, "0 ");
	} else {
		pi = path->ps_ctx;
		if (type == PS_STATUS_TRACE)
			n = snprintf(result, maxlen, "in_flight_size=%d "
				     "relative_throughput=%u ",
				     pi->in_flight_size,
				     pi->relative_throughput);
		else if (type == PS_STATUS_INFO)
			n = snprintf(result, maxlen, "%d %u ",
				     pi->in_flight_size,
				     pi->relative_throughput);
		else
			n = snprintf(result, maxlen, "%u %u ",
				     pi->repeat_count,
				     pi->relative_throughput);
	}
	return ps_emitted(n, maxlen);
}

const struct ps_type ps_service_time = {
	.name		= "service-time",
	.alias		= "st",
	.kernel_file	= "drivers/md/dm-ps-service-time.c",
	.features	= 0,
	.table_args	= 2,
	.info_args	= 2,
	.ctx_size	= sizeof(struct st_selector),
	.path_size	= sizeof(struct st_path),
	.create		= st_create,
	.destroy	= st_destroy,
	.add_path	= st_add_path,
	.fail_path	= st_fail_path,
	.reinstate_path	= st_reinstate_path,
	.select_path	= st_select_path,
	.start_io	= st_start_io,
	.end_io		= st_end_io,
	.status		= st_status,
};
