/* service-time.c: "service-time" policy; mirrors drivers/md/dm-ps-service-time.c */
#include <stdio.h>
#include <stdlib.h>

#include "lib/list.h"
#include "keyed.h"
#include "selector.h"

#define ST_MIN_IO			1	/* default repeat_count */
#define ST_MAX_RELATIVE_THROUGHPUT	100
#define ST_MAX_RELATIVE_THROUGHPUT_SHIFT	7
/* 2^57 - 1 on 64-bit (only a huge incoming size or a negative
 * in_flight_size reaches it), 2^25 - 1 = 32 MiB on 32-bit (docs/kernel-model.md §4). */
#define ST_MAX_INFLIGHT_SIZE	((size_t)-1 >> ST_MAX_RELATIVE_THROUGHPUT_SHIFT)

/*
 * How the valid list is held: by list keys (keyed.h), and for the scan
 * a 64-bit word per path number, in one array:
 *
 *	bits 63..32	in_flight_size, as the u32 of its bits
 *	bits 31..16	its list key
 *	bits 15..0	its number
 *
 * and a failed path has ST_KEY_FAILED.  When every valid path has the
 * same relative_throughput, the kernel's walk keeps the first path in
 * list order of least in_flight_size (st_first_least), which is the
 * least word of the array, scanned in whatever order it is held.
 * Otherwise the walk itself is run, in list order: st_compare_load() is
 * not transitive, so its winner can depend on the order.
 */
#define ST_NR_BITS	16
#define ST_KEY_LOW	0xffffffffULL	/* list key and number */
/* above every word of a valid path whose in_flight_size is not
 * negative, with bit 63 clear: a negative size shows in the OR of the
 * words */
#define ST_KEY_FAILED	0x7fffffffffffffffULL

struct st_selector {
	struct ps_keyed list;		/* the valid list (keyed.h) */
	uint64_t *key;			/* by number (above) */
	struct list_head failed_paths;	/* failed paths, latest failure first */
	bool same_rt;			/* every valid path has the same
					   relative_throughput (st_same_rt) */
};

struct st_path {
	struct ps_node node;		/* valid, number, list key */
	struct list_head list;		/* on failed_paths when !valid */
	struct ps_path *path;		/* the framework path this describes */
	unsigned repeat_count;		/* as given, but at most 1 (§2.5) */
	unsigned relative_throughput;	/* 0..ST_MAX_RELATIVE_THROUGHPUT */
	int in_flight_size;		/* bytes in flight: the kernel's 32-bit
					 * atomic_t, wraps past 2 GiB */
};

#define st_path_of(n)	container_of(n, struct st_path, node)

/* A valid path's word: its size, list key and number. */
static void st_set_key(struct st_selector *s, const struct st_path *pi)
{
	s->key[pi->node.nr] = (uint64_t)(uint32_t)pi->in_flight_size << 32 |
			      (uint64_t)pi->node.ord << ST_NR_BITS |
			      pi->node.nr;
}

/* A valid path's word after its in_flight_size changed (a failed one's
 * stays ST_KEY_FAILED until it is reinstated). */
static void st_key_size(struct st_selector *s, const struct st_path *pi)
{
	if (pi->node.valid)
		s->key[pi->node.nr] =
			(uint64_t)(uint32_t)pi->in_flight_size << 32 |
			(s->key[pi->node.nr] & ST_KEY_LOW);
}

/* The list keys were renumbered: every valid path's word again. */
static void __attribute__((noinline)) st_rekey(struct st_selector *s)
{
	unsigned i;

	for (i = 0; i < s->list.nr_valid; i++)
		st_set_key(s, st_path_of(s->list.order[i]));
}

/* list_move_tail() (and list_add_tail()) of a valid path. */
static inline void st_move_tail(struct st_selector *s, struct st_path *pi)
{
	if (__builtin_expect(ps_keyed_tail(&s->list, &pi->node), 0))
		st_rekey(s);
	st_set_key(s, pi);
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

	ps_keyed_free(&s->list);
	free(s->key);
}

/* Whether the valid paths all have one relative_throughput (after each
 * change of the valid list, which is rare). */
static void st_same_rt(struct st_selector *s)
{
	const struct st_path *first = NULL;
	unsigned i;

	s->same_rt = true;
	for (i = 0; i < s->list.nr_paths; i++) {
		const struct st_path *pi = st_path_of(s->list.paths[i]);

		if (!pi->node.valid)
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
	if (!ps_keyed_add(&s->list, &pi->node))
		return input_error(error, "service-time ps: more than %u "
				   "paths", PS_KEYED_MAX);

	pi->path = path;
	pi->repeat_count = repeat_count;
	pi->relative_throughput = relative_throughput;
	pi->in_flight_size = 0;
	s->key = xrealloc(s->key, s->list.cap * sizeof(*s->key));
	/* Table order becomes list order (docs/kernel-model.md §2.1). */
	ps_keyed_valid(&s->list, &pi->node, true);
	st_move_tail(s, pi);
	st_same_rt(s);
	return 0;
}

static void st_fail_path(struct path_selector *ps, struct ps_path *path)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	/* list_move() to the failed list's head */
	if (ps_keyed_valid(&s->list, &pi->node, false))
		s->key[pi->node.nr] = ST_KEY_FAILED;
	else
		list_del(&pi->list);
	list_add(&pi->list, &s->failed_paths);
	st_same_rt(s);
}

static int st_reinstate_path(struct path_selector *ps, struct ps_path *path)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	/* Kernel-exact: list_move_tail() to the TAIL of the valid list,
	 * unlike round-robin (docs/kernel-model.md §4, §9 item 11). */
	if (!ps_keyed_valid(&s->list, &pi->node, true))
		list_del(&pi->list);
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
 * in list order: the least word (above), which two chains seek at once,
 * over the even and the odd numbers.  Returns that word, or
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

	if (!s->list.nr_valid)
		return NULL;

	first = s->same_rt ? st_first_least(s->key, s->list.nr_paths) :
			     ST_KEY_FAILED;
	if (first != ST_KEY_FAILED) {
		best = st_path_of(s->list.paths[first &
						((1U << ST_NR_BITS) - 1)]);
		goto found;
	}
	/* The walk, in list order.  Replace best only when strictly better,
	 * so ties keep the earliest path in list order
	 * (docs/kernel-model.md §4). */
	ps_keyed_in_order(&s->list);
	best = st_path_of(s->list.order[0]);
	best_in_flight = best->in_flight_size;
	best_rt = best->relative_throughput;
	for (i = 1; i < s->list.nr_valid; i++) {
		struct st_path *pi = st_path_of(s->list.order[i]);

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
