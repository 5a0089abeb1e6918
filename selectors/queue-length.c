/* queue-length.c: "queue-length" policy; mirrors drivers/md/dm-ps-queue-length.c */
#include <stdio.h>

#include "lib/list.h"
#include "selector.h"

#define QL_MIN_IO	1	/* default repeat_count (128 in 0.1.0) */

struct ql_selector {
	struct list_head valid_paths;	/* usable paths, scan order */
	struct list_head failed_paths;	/* failed paths, latest failure first */
};

struct ql_path {
	struct list_head list;		/* on valid_paths or failed_paths */
	struct ps_path *path;		/* the framework path this describes */
	unsigned repeat_count;		/* as given, but at most 1 (§2.5) */
	int qlen;			/* I/Os in flight (the kernel's atomic_t) */
};

/*
 * The kernel ignores selector arguments (it accepts any count and reports
 * none), so they are accepted here too, with a warning that they do
 * nothing.
 */
static int ql_create(struct path_selector *ps, int argc, char **argv,
		     char *error)
{
	struct ql_selector *s = ps->context;

	if (argc)
		mpsim_warn("queue-length ps: ignoring %d selector argument(s)",
			   argc);
	INIT_LIST_HEAD(&s->valid_paths);
	INIT_LIST_HEAD(&s->failed_paths);
	return 0;
}

static int ql_add_path(struct path_selector *ps, struct ps_path *path,
		       int argc, char **argv, char *error)
{
	struct ql_selector *s = ps->context;
	struct ql_path *pi = path->ps_ctx;
	unsigned repeat_count = QL_MIN_IO;

	/*
	 * Arguments: [<repeat_count>]
	 *	<repeat_count>: I/Os before switching path; only 1 is honoured.
	 */
	if (argc > 1)
		return input_error(error,
				   "queue-length ps: incorrect number of arguments");
	if (ps_repeat_count("queue-length", argc, argv, &repeat_count, error))
		return -EINVAL;

	pi->path = path;
	pi->repeat_count = repeat_count;
	pi->qlen = 0;
	/* Table order becomes list order (docs/kernel-model.md §2.1). */
	list_add_tail(&pi->list, &s->valid_paths);
	return 0;
}

static void ql_fail_path(struct path_selector *ps, struct ps_path *path)
{
	struct ql_selector *s = ps->context;
	struct ql_path *pi = path->ps_ctx;

	list_move(&pi->list, &s->failed_paths);
}

static int ql_reinstate_path(struct path_selector *ps, struct ps_path *path)
{
	struct ql_selector *s = ps->context;
	struct ql_path *pi = path->ps_ctx;

	/* Kernel-exact: back at the TAIL of the valid list, unlike
	 * round-robin (docs/kernel-model.md §5.1, §9 item 11). */
	list_move_tail(&pi->list, &s->valid_paths);
	return 0;
}

/*
 * Choose the path with the fewest I/Os in flight.  The scan runs head to
 * tail and replaces best only on a strictly smaller qlen, so of equally
 * loaded paths the earliest in list order wins.
 */
static struct ps_path *ql_select_path(struct path_selector *ps,
				      size_t nr_bytes, sim_ns now)
{
	struct ql_selector *s = ps->context;
	struct ql_path *pi, *best = NULL;

	if (list_empty(&s->valid_paths))
		return NULL;

	list_for_each_entry(pi, &s->valid_paths, list) {
		if (!best || pi->qlen < best->qlen)
			best = pi;
		/* Kernel-exact early exit: the first idle path in list order
		 * wins, even if an idle path later in the list has waited
		 * longer (docs/kernel-model.md §5.1, §9 item 11). */
		if (!best->qlen)
			break;
	}

	/* Move the most recently used path to the tail, so that equally
	 * loaded paths take turns (docs/kernel-model.md §5.1, mainline). */
	list_move_tail(&best->list, &s->valid_paths);
	return best->path;
}

/* The kernel's atomic_inc/atomic_dec wrap; so does this (no UB). */
static int ql_start_io(struct path_selector *ps, struct ps_path *path,
		       size_t nr_bytes, sim_ns now)
{
	struct ql_path *pi = path->ps_ctx;

	pi->qlen = (int)((unsigned)pi->qlen + 1);
	return 0;
}

static int ql_end_io(struct path_selector *ps, struct ps_path *path,
		     size_t nr_bytes, uint64_t start_time, sim_ns now)
{
	struct ql_path *pi = path->ps_ctx;

	pi->qlen = (int)((unsigned)pi->qlen - 1);
	return 0;
}

/* Selector: "0 " (no arguments).  Path: info "<qlen> ",
 * table "<repeat_count> ", trace "qlen=<qlen> " (what select_path
 * compares). */
static int ql_status(struct path_selector *ps, struct ps_path *path,
		     enum ps_status_type type, char *result, size_t maxlen)
{
	struct ql_path *pi;
	int n;

	if (!path) {
		n = type == PS_STATUS_TRACE ? snprintf(result, maxlen, "%s", "") :
		    snprintf(result, maxlen, "0 ");
	} else {
		pi = path->ps_ctx;
		if (type == PS_STATUS_TRACE)
			n = snprintf(result, maxlen, "qlen=%d ", pi->qlen);
		else if (type == PS_STATUS_INFO)
			n = snprintf(result, maxlen, "%d ", pi->qlen);
		else
			n = snprintf(result, maxlen, "%u ", pi->repeat_count);
	}
	return ps_emitted(n, maxlen);
}

const struct ps_type ps_queue_length = {
	.name		= "queue-length",
	.alias		= "ql",
	.kernel_file	= "drivers/md/dm-ps-queue-length.c",
	.features	= 0,
	.table_args	= 1,
	.info_args	= 1,
	.ctx_size	= sizeof(struct ql_selector),
	.path_size	= sizeof(struct ql_path),
	.create		= ql_create,
	.destroy	= NULL,
	.add_path	= ql_add_path,
	.fail_path	= ql_fail_path,
	.reinstate_path	= ql_reinstate_path,
	.select_path	= ql_select_path,
	.start_io	= ql_start_io,
	.end_io		= ql_end_io,
	.status		= ql_status,
};
