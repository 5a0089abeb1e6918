/* service-time.c: "service-time" policy; mirrors drivers/md/dm-ps-service-time.c */
#include <stdio.h>

#include "sim/list.h"
#include "selector.h"
#include "valid.h"

#define ST_MIN_IO			1	/* default repeat_count */
#define ST_MAX_RELATIVE_THROUGHPUT	100
#define ST_MAX_RELATIVE_THROUGHPUT_SHIFT	7
/* 2^57 - 1 on 64-bit (only a huge incoming size or a negative
 * in_flight_size reaches it), 2^25 - 1 = 32 MiB on 32-bit (docs/kernel-model.md §4). */
#define ST_MAX_INFLIGHT_SIZE	((size_t)-1 >> ST_MAX_RELATIVE_THROUGHPUT_SHIFT)

struct st_selector {
	struct ps_valid valid_paths;	/* usable paths, scan order (valid.h) */
	struct list_head failed_paths;	/* failed paths, latest failure first */
	bool same_rt;			/* every valid path has the same
					   relative_throughput (st_same_rt) */
};

struct st_path {
	struct list_head list;		/* on failed_paths when !valid */
	bool valid;			/* on valid_paths */
	struct ps_path *path;		/* the framework path this describes */
	unsigned repeat_count;		/* as given, but at most 1 (§2.5) */
	unsigned relative_throughput;	/* 0..ST_MAX_RELATIVE_THROUGHPUT */
	int in_flight_size;		/* bytes in flight: the kernel's 32-bit
					 * atomic_t, wraps past 2 GiB */
};

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

	ps_valid_free(&s->valid_paths);
}

/* Whether the valid paths all have one relative_throughput (after each
 * change of the valid list, which is rare). */
static void st_same_rt(struct st_selector *s)
{
	void *const *v = s->valid_paths.v;
	unsigned i;

	s->same_rt = true;
	for (i = 1; i < s->valid_paths.n; i++)
		if (((const struct st_path *)v[i])->relative_throughput !=
		    ((const struct st_path *)v[0])->relative_throughput)
			s->same_rt = false;
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

	pi->path = path;
	pi->repeat_count = repeat_count;
	pi->relative_throughput = relative_throughput;
	pi->in_flight_size = 0;
	/* Table order becomes list order (docs/kernel-model.md §2.1). */
	ps_valid_add_tail(&s->valid_paths, pi);
	pi->valid = true;
	st_same_rt(s);
	return 0;
}

static void st_fail_path(struct path_selector *ps, struct ps_path *path)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	/* list_move() to the failed list's head */
	ps_valid_unlink(&s->valid_paths, pi, &pi->valid, &pi->list);
	list_add(&pi->list, &s->failed_paths);
	st_same_rt(s);
}

static int st_reinstate_path(struct path_selector *ps, struct ps_path *path)
{
	struct st_selector *s = ps->context;
	struct st_path *pi = path->ps_ctx;

	/* Kernel-exact: back at the TAIL of the valid list, unlike
	 * round-robin (docs/kernel-model.md §4, §9 item 11). */
	ps_valid_move_in(&s->valid_paths, pi, &pi->valid, &pi->list);
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
 * in list order.  That is the least (size, position) key, a minimum that
 * two chains can seek at once, over the even and the odd places.
 * Returns the winner's place, or -1 when a size is negative (a wrapped
 * in-flight count): the kernel's pairwise walk decides then.
 */
static int st_first_least(void *const *v, unsigned n)
{
	uint64_t k0 = UINT64_MAX, k1 = UINT64_MAX;
	unsigned i;
	int sign = 0;

	for (i = 0; i + 1 < n; i += 2) {
		const struct st_path *p0 = v[i], *p1 = v[i + 1];
		uint64_t a0 = (uint64_t)(uint32_t)p0->in_flight_size << 32 | i;
		uint64_t a1 = (uint64_t)(uint32_t)p1->in_flight_size << 32 |
			      (i + 1);

		sign |= p0->in_flight_size | p1->in_flight_size;
		k0 = a0 < k0 ? a0 : k0;
		k1 = a1 < k1 ? a1 : k1;
	}
	if (i < n) {
		const struct st_path *p0 = v[i];
		uint64_t a0 = (uint64_t)(uint32_t)p0->in_flight_size << 32 | i;

		sign |= p0->in_flight_size;
		k0 = a0 < k0 ? a0 : k0;
	}
	if (sign < 0)
		return -1;
	return (int)(uint32_t)(k1 < k0 ? k1 : k0);
}

static struct ps_path *st_select_path(struct path_selector *ps,
				      size_t nr_bytes, sim_ns now)
{
	struct st_selector *s = ps->context;
	void *const *v = s->valid_paths.v;
	struct st_path *best;
	unsigned i, n = s->valid_paths.n, b = 0, best_rt;
	int best_in_flight, first;

	if (!n)
		return NULL;

	first = s->same_rt ? st_first_least(v, n) : -1;
	if (first >= 0) {
		b = (unsigned)first;
		best = v[b];
		goto found;
	}
	/* Replace best only when strictly better, so ties keep the earliest
	 * path in list order (docs/kernel-model.md §4). */
	best = v[0];
	best_in_flight = best->in_flight_size;
	best_rt = best->relative_throughput;
	for (i = 1; i < n; i++) {
		struct st_path *pi = v[i];

		if (st_compare_load(pi->in_flight_size, pi->relative_throughput,
				    best_in_flight, best_rt, nr_bytes) < 0) {
			best = pi;
			b = i;
			best_in_flight = pi->in_flight_size;
			best_rt = pi->relative_throughput;
		}
	}

found:
	/* Move the most recently used path to the tail, so that equally
	 * good paths take turns (docs/kernel-model.md §4, mainline). */
	ps_valid_move_tail(&s->valid_paths, b);
	return best->path;
}

/* The kernel's atomic_add(nr_bytes, ...) takes an int: nr_bytes is
 * truncated to 32 bits and the sum wraps (docs/kernel-model.md §4).  Unsigned
 * arithmetic gives the same bits without signed-overflow UB. */
static int st_start_io(struct path_selector *ps, struct ps_path *path,
		       size_t nr_bytes, sim_ns now)
{
	struct st_path *pi = path->ps_ctx;

	pi->in_flight_size = (int)((unsigned)pi->in_flight_size +
				   (unsigned)nr_bytes);
	return 0;
}

static int st_end_io(struct path_selector *ps, struct ps_path *path,
		     size_t nr_bytes, uint64_t start_time, sim_ns now)
{
	struct st_path *pi = path->ps_ctx;

	pi->in_flight_size = (int)((unsigned)pi->in_flight_size -
				   (unsigned)nr_bytes);
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
