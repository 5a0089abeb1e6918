/* round-robin.c: "round-robin" policy; mirrors drivers/md/dm-ps-round-robin.c */
#include <stdio.h>

#include "lib/list.h"
#include "selector.h"

#define RR_MIN_IO	1	/* default repeat_count (1000 up to v4.5) */

struct rr_selector {
	struct list_head valid_paths;	/* usable paths, next to use first */
	struct list_head invalid_paths;	/* failed paths, latest failure first */
};

struct rr_path {
	struct list_head list;		/* on valid_paths or invalid_paths */
	struct ps_path *path;		/* the framework path this describes */
	unsigned repeat_count;		/* as given, but at most 1 (§2.5) */
};

/*
 * The kernel ignores selector arguments (it accepts any count and reports
 * none), so they are accepted here too, with a warning that they do
 * nothing.
 */
static int rr_create(struct path_selector *ps, int argc, char **argv,
		     char *error)
{
	struct rr_selector *s = ps->context;

	if (argc)
		mpsim_warn("round-robin ps: ignoring %d selector argument(s)",
			   argc);
	INIT_LIST_HEAD(&s->valid_paths);
	INIT_LIST_HEAD(&s->invalid_paths);
	return 0;
}

static int rr_add_path(struct path_selector *ps, struct ps_path *path,
		       int argc, char **argv, char *error)
{
	struct rr_selector *s = ps->context;
	struct rr_path *pi = path->ps_ctx;
	unsigned repeat_count = RR_MIN_IO;

	/*
	 * Arguments: [<repeat_count>]
	 *	<repeat_count>: I/Os before switching path; only 1 is honoured.
	 */
	if (argc > 1)
		return input_error(error,
				   "round-robin ps: incorrect number of arguments");
	if (ps_repeat_count("round-robin", argc, argv, &repeat_count, error))
		return -EINVAL;

	pi->path = path;
	pi->repeat_count = repeat_count;
	/* Table order becomes list order (docs/kernel-model.md §2.1). */
	list_add_tail(&pi->list, &s->valid_paths);
	return 0;
}

static void rr_fail_path(struct path_selector *ps, struct ps_path *path)
{
	struct rr_selector *s = ps->context;
	struct rr_path *pi = path->ps_ctx;

	list_move(&pi->list, &s->invalid_paths);
}

static int rr_reinstate_path(struct path_selector *ps, struct ps_path *path)
{
	struct rr_selector *s = ps->context;
	struct rr_path *pi = path->ps_ctx;

	/* Kernel-exact: round-robin puts a reinstated path at the HEAD of
	 * the valid list, so it is the next one chosen; the other selectors
	 * reinstate to the tail (docs/kernel-model.md §5.2, §9 item 11). */
	list_move(&pi->list, &s->valid_paths);
	return 0;
}

static struct ps_path *rr_select_path(struct path_selector *ps,
				      size_t nr_bytes, sim_ns now)
{
	struct rr_selector *s = ps->context;
	struct rr_path *pi;

	if (list_empty(&s->valid_paths))
		return NULL;

	/* Mainline: take the head and rotate it to the tail, on every I/O
	 * (docs/kernel-model.md §5.2). */
	pi = list_first_entry(&s->valid_paths, struct rr_path, list);
	list_move_tail(&pi->list, &s->valid_paths);
	return pi->path;
}

/* Selector: "0 " (no arguments).  Path: info none, table "<repeat_count> ",
 * trace none: round-robin compares nothing, it takes the list head. */
static int rr_status(struct path_selector *ps, struct ps_path *path,
		     enum ps_status_type type, char *result, size_t maxlen)
{
	struct rr_path *pi;
	int n;

	if (!path) {
		n = type == PS_STATUS_TRACE ? snprintf(result, maxlen, "%s", "") :
		    snprintf(result, maxlen, "0 ");
	} else if (type == PS_STATUS_TABLE) {
		pi = path->ps_ctx;
		n = snprintf(result, maxlen, "%u ", pi->repeat_count);
	} else {
		n = snprintf(result, maxlen, "%s", "");
	}
	return ps_emitted(n, maxlen);
}

const struct ps_type ps_round_robin = {
	.name		= "round-robin",
	.alias		= "rr",
	.kernel_file	= "drivers/md/dm-ps-round-robin.c",
	.features	= 0,
	.table_args	= 1,
	.info_args	= 0,
	.ctx_size	= sizeof(struct rr_selector),
	.path_size	= sizeof(struct rr_path),
	.create		= rr_create,
	.destroy	= NULL,
	.add_path	= rr_add_path,
	.fail_path	= rr_fail_path,
	.reinstate_path	= rr_reinstate_path,
	.select_path	= rr_select_path,
	.start_io	= NULL,
	.end_io		= NULL,
	.status		= rr_status,
};
