/* test_queue_length.c: queue-length's kernel-specific behaviour (docs/kernel-model.md §5.1). */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "selectors/selector.h"

extern const struct ps_type ps_queue_length;

#define QL_NPATHS	5

static struct path_selector ps;
static struct ps_path path[QL_NPATHS];
static struct ps_path *pp[QL_NPATHS];
static unsigned npaths;
static char err[ERR_MAX];
static char status_buf[64];

static void ql_open(const char *sel_args)
{
	cr_assert_eq(ps_init(&ps, &ps_queue_length, sel_args, err), 0,
		     "ps_init: %s", err);
	npaths = 0;
}

static struct ps_path *ql_add(const char *args)
{
	struct ps_path *p = &path[npaths];

	cr_assert_lt(npaths, QL_NPATHS);
	p->name = "sd";
	p->index = npaths;
	pp[npaths++] = p;
	cr_assert_eq(ps_add_path(&ps, p, args, err), 0, "add_path: %s", err);
	return p;
}

static void ql_open_n(unsigned n)
{
	unsigned i;

	ql_open("");
	for (i = 0; i < n; i++)
		ql_add("");
}

/* Give path i a queue of qlen I/Os. */
static void ql_load(unsigned i, int qlen)
{
	while (qlen-- > 0)
		ps.type->start_io(&ps, &path[i], 4096, 0);
}

static int ql_next(void)
{
	struct ps_path *p = ps.type->select_path(&ps, 4096, 0);

	return p ? (int)p->index : -1;
}

/* Select, then start the I/O on the chosen path, as dm-mpath does. */
static int ql_dispatch(void)
{
	struct ps_path *p = ps.type->select_path(&ps, 4096, 0);

	if (!p)
		return -1;
	ps.type->start_io(&ps, p, 4096, 0);
	return (int)p->index;
}

static const char *ql_status_of(struct ps_path *p, enum ps_status_type t)
{
	ps.type->status(&ps, p, t, status_buf, sizeof(status_buf));
	return status_buf;
}

static void ql_quiet(void)
{
	mpsim_quiet = 1;
}

static void ql_teardown(void)
{
	ps_exit(&ps, pp, npaths);
	npaths = 0;
}

static void ql_catch_stderr(void)
{
	mpsim_quiet = 0;
	cr_redirect_stderr();
}

TestSuite(queue_length, .init = ql_quiet, .fini = ql_teardown);

/* Paths 1 and 3 are idle; the scan stops at path 1, the first in list
 * order, even though path 3 is just as idle. */
Test(queue_length, first_idle_path_in_list_order_wins)
{
	ql_open_n(4);
	ql_load(0, 1);
	ql_load(2, 3);
	cr_assert_eq(ql_next(), 1);
	/* Path 1 moved to the tail: list 0 2 3 1, so now path 3 is first. */
	cr_assert_eq(ql_next(), 3);
	cr_assert_eq(ql_next(), 1);
}

/*
 * With non-negative counts the early exit picks what a full strict-<
 * scan would.  It shows when a count is negative (an end_io without its
 * start_io): the kernel stops at the idle path 0 and never sees the -1
 * of path 1.
 */
Test(queue_length, scan_stops_at_first_idle_path)
{
	ql_open_n(2);
	ps.type->end_io(&ps, &path[1], 4096, 0, 0);
	cr_assert_str_eq(ql_status_of(&path[1], PS_STATUS_INFO), "-1 ");
	cr_assert_eq(ql_next(), 0, "scan must stop at the first qlen 0");
}

/* Without an idle path the whole list is scanned for the minimum. */
Test(queue_length, busy_list_is_scanned_to_the_end)
{
	ql_open_n(4);
	ql_load(0, 3);
	ql_load(1, 2);
	ql_load(2, 4);
	ql_load(3, 1);
	cr_assert_eq(ql_next(), 3);
}

/* Equal queues: strict < keeps the earliest path in list order. */
Test(queue_length, tie_keeps_earliest)
{
	ql_open_n(3);
	ql_load(0, 2);
	ql_load(1, 1);
	ql_load(2, 1);
	cr_assert_eq(ql_next(), 1);
	/* 1 went to the tail (list 0 2 1): now 2 is the earlier of the two. */
	cr_assert_eq(ql_next(), 2);
	cr_assert_eq(ql_next(), 1);
}

/*
 * Move-to-tail over a sequence of dispatches that never complete: the
 * chosen path goes to the tail, so equally loaded paths take turns.
 */
Test(queue_length, move_to_tail_sequence)
{
	static const int want[] = { 0, 1, 2, 0, 1, 2, 0 };
	unsigned i;

	ql_open_n(3);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		cr_assert_eq(ql_dispatch(), want[i], "dispatch %u", i);
	cr_assert_str_eq(ql_status_of(&path[0], PS_STATUS_INFO), "3 ");
	cr_assert_str_eq(ql_status_of(&path[1], PS_STATUS_INFO), "2 ");
	/* the trace names the count select_path compared */
	cr_assert_str_eq(ql_status_of(&path[0], PS_STATUS_TRACE), "qlen=3 ");
}

/* A completion makes a path idle; it wins even though it was just used. */
Test(queue_length, completion_makes_path_preferred)
{
	ql_open_n(3);
	cr_assert_eq(ql_dispatch(), 0);
	cr_assert_eq(ql_dispatch(), 1);
	cr_assert_eq(ql_dispatch(), 2);		/* list 0 1 2, all qlen 1 */
	ps.type->end_io(&ps, &path[2], 4096, 0, 0);
	cr_assert_eq(ql_dispatch(), 2);
	cr_assert_eq(ql_dispatch(), 0);		/* all 1 again, 2 to tail */
}

/* Unlike round-robin, a reinstated path goes to the tail. */
Test(queue_length, reinstate_goes_to_tail)
{
	ql_open_n(3);
	ps.type->fail_path(&ps, &path[0]);
	cr_assert_eq(ps.type->reinstate_path(&ps, &path[0]), 0);
	cr_assert_eq(ql_next(), 1);		/* list was 1 2 0 */
	cr_assert_eq(ql_next(), 2);
	cr_assert_eq(ql_next(), 0);
}

Test(queue_length, failed_path_never_chosen)
{
	unsigned i;

	ql_open_n(3);
	ql_load(0, 5);
	ql_load(2, 5);
	ps.type->fail_path(&ps, &path[1]);	/* the idle one */
	for (i = 0; i < 10; i++)
		cr_assert_neq(ql_dispatch(), 1);
	ps.type->fail_path(&ps, &path[0]);
	ps.type->fail_path(&ps, &path[2]);
	cr_assert_eq(ql_next(), -1);
}

Test(queue_length, no_paths_gives_null)
{
	ql_open("");
	cr_assert_eq(ql_next(), -1);
}

Test(queue_length, status_words)
{
	ql_open_n(1);
	cr_assert_str_eq(ql_status_of(NULL, PS_STATUS_TABLE), "0 ");
	cr_assert_str_eq(ql_status_of(&path[0], PS_STATUS_INFO), "0 ");
	cr_assert_str_eq(ql_status_of(&path[0], PS_STATUS_TABLE), "1 ");
	ps.type->start_io(&ps, &path[0], 512, 0);
	ps.type->start_io(&ps, &path[0], 512, 0);
	cr_assert_str_eq(ql_status_of(&path[0], PS_STATUS_INFO), "2 ");
	ps.type->end_io(&ps, &path[0], 512, 0, 0);
	cr_assert_str_eq(ql_status_of(&path[0], PS_STATUS_INFO), "1 ");
}

Test(queue_length, repeat_count_forced_to_one, .init = ql_catch_stderr)
{
	ql_open("");
	ql_add("128");
	ql_add("0");
	cr_assert_str_eq(ql_status_of(&path[0], PS_STATUS_TABLE), "1 ");
	cr_assert_str_eq(ql_status_of(&path[1], PS_STATUS_TABLE), "0 ");
	fflush(stderr);
	cr_assert_stderr_eq_str("mpsim: warning: queue-length ps: "
				"repeat_count > 1 is deprecated, using 1 instead\n");
}

Test(queue_length, bad_path_args)
{
	struct ps_path p = { .name = "sdx" };

	ql_open("");
	cr_assert_eq(ps_add_path(&ps, &p, "1 1", err), -EINVAL);
	cr_assert_str_eq(err, "queue-length ps: incorrect number of arguments");
	cr_assert_null(p.ps_ctx);
	cr_assert_eq(ps_add_path(&ps, &p, "one", err), -EINVAL);
	cr_assert_str_eq(err, "queue-length ps: invalid repeat count");
	cr_assert_eq(ps_add_path(&ps, &p, "-2", err), -EINVAL);
	cr_assert_str_eq(err, "queue-length ps: invalid repeat count");
	cr_assert_null(p.ps_ctx);
	cr_assert_eq(ql_next(), -1);
}

Test(queue_length, selector_args_are_ignored)
{
	ql_open("1 2 3");
	ql_add("");
	cr_assert_str_eq(ql_status_of(NULL, PS_STATUS_TABLE), "0 ");
	cr_assert_eq(ql_next(), 0);
}

Test(queue_length, registered_with_alias)
{
	cr_assert_eq(ps_find("queue-length"), &ps_queue_length);
	cr_assert_eq(ps_find("ql"), &ps_queue_length);
	cr_assert_eq(ps_queue_length.table_args, 1);
	cr_assert_eq(ps_queue_length.info_args, 1);
}
