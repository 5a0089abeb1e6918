/* test_round_robin.c: round-robin's kernel-specific behaviour (docs/kernel-model.md §5.2). */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "selectors/selector.h"

extern const struct ps_type ps_round_robin;

#define RR_NPATHS	4

static struct path_selector ps;
static struct ps_path path[RR_NPATHS];
static struct ps_path *pp[RR_NPATHS];
static unsigned npaths;
static char err[ERR_MAX];
static char status_buf[64];

static void rr_open(const char *sel_args)
{
	cr_assert_eq(ps_init(&ps, &ps_round_robin, sel_args, err), 0,
		     "ps_init: %s", err);
	npaths = 0;
}

static struct ps_path *rr_add(const char *args)
{
	struct ps_path *p = &path[npaths];

	cr_assert_lt(npaths, RR_NPATHS);
	p->name = "sd";
	p->index = npaths;
	pp[npaths++] = p;
	cr_assert_eq(ps_add_path(&ps, p, args, err), 0, "add_path: %s", err);
	return p;
}

static void rr_open_n(unsigned n)
{
	unsigned i;

	rr_open("");
	for (i = 0; i < n; i++)
		rr_add("");
}

static int rr_next(void)
{
	struct ps_path *p = ps.type->select_path(&ps, 4096, 0);

	return p ? (int)p->index : -1;
}

static const char *rr_table(struct ps_path *p)
{
	ps.type->status(&ps, p, PS_STATUS_TABLE, status_buf,
			sizeof(status_buf));
	return status_buf;
}

static void rr_quiet(void)
{
	mpsim_quiet = 1;
}

static void rr_teardown(void)
{
	ps_exit(&ps, pp, npaths);
	npaths = 0;
}

static void rr_catch_stderr(void)
{
	mpsim_quiet = 0;
	cr_redirect_stderr();
}

TestSuite(round_robin, .init = rr_quiet, .fini = rr_teardown);

Test(round_robin, cycles_in_table_order)
{
	static const int want[] = { 0, 1, 2, 3, 0, 1, 2, 3, 0 };
	unsigned i;

	rr_open_n(4);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		cr_assert_eq(rr_next(), want[i], "selection %u", i);
}

Test(round_robin, failed_path_is_skipped)
{
	static const int want[] = { 0, 2, 3, 0, 2 };
	unsigned i;

	rr_open_n(4);
	ps.type->fail_path(&ps, &path[1]);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		cr_assert_eq(rr_next(), want[i], "selection %u", i);
}

/* The kernel's rr puts a reinstated path at the head: it goes next. */
Test(round_robin, reinstate_goes_to_head)
{
	rr_open_n(4);
	cr_assert_eq(rr_next(), 0);		/* list: 1 2 3 0 */
	ps.type->fail_path(&ps, &path[2]);	/* list: 1 3 0 */
	cr_assert_eq(rr_next(), 1);		/* list: 3 0 1 */
	cr_assert_eq(ps.type->reinstate_path(&ps, &path[2]), 0);
	cr_assert_eq(rr_next(), 2, "reinstated path must be chosen next");
	cr_assert_eq(rr_next(), 3);
	cr_assert_eq(rr_next(), 0);
	cr_assert_eq(rr_next(), 1);
	cr_assert_eq(rr_next(), 2);
}

/* Two reinstatements: the later one is at the head. */
Test(round_robin, last_reinstated_goes_first)
{
	rr_open_n(3);
	ps.type->fail_path(&ps, &path[0]);
	ps.type->fail_path(&ps, &path[1]);
	ps.type->reinstate_path(&ps, &path[0]);
	ps.type->reinstate_path(&ps, &path[1]);	/* list: 1 0 2 */
	cr_assert_eq(rr_next(), 1);
	cr_assert_eq(rr_next(), 0);
	cr_assert_eq(rr_next(), 2);
}

Test(round_robin, all_failed_gives_null)
{
	unsigned i;

	rr_open_n(3);
	for (i = 0; i < 3; i++)
		ps.type->fail_path(&ps, &path[i]);
	cr_assert_eq(rr_next(), -1);
	ps.type->reinstate_path(&ps, &path[1]);
	cr_assert_eq(rr_next(), 1);
	cr_assert_eq(rr_next(), 1);
}

Test(round_robin, no_paths_gives_null)
{
	rr_open("");
	cr_assert_eq(rr_next(), -1);
}

Test(round_robin, has_no_io_accounting)
{
	rr_open_n(1);
	cr_assert_null(ps.type->start_io);
	cr_assert_null(ps.type->end_io);
	cr_assert_eq(ps.type->status(&ps, &path[0], PS_STATUS_INFO,
				     status_buf, sizeof(status_buf)), 0);
	cr_assert_str_empty(status_buf);
}

Test(round_robin, status_words)
{
	rr_open_n(1);
	cr_assert_str_eq(rr_table(NULL), "0 ");
	cr_assert_str_eq(rr_table(&path[0]), "1 ");
	cr_assert_eq(ps.type->status(&ps, &path[0], PS_STATUS_TABLE,
				     status_buf, sizeof(status_buf)), 2);
}

Test(round_robin, status_is_clamped_to_maxlen)
{
	rr_open_n(1);
	cr_assert_eq(ps.type->status(&ps, NULL, PS_STATUS_TABLE,
				     status_buf, 2), 1);
	cr_assert_str_eq(status_buf, "0");
}

Test(round_robin, repeat_count_zero_and_one_kept)
{
	rr_open("");
	rr_add("0");
	rr_add("1");
	cr_assert_str_eq(rr_table(&path[0]), "0 ");
	cr_assert_str_eq(rr_table(&path[1]), "1 ");
}

Test(round_robin, repeat_count_forced_to_one, .init = rr_catch_stderr)
{
	rr_open("");
	rr_add("1000");
	cr_assert_str_eq(rr_table(&path[0]), "1 ");
	fflush(stderr);
	cr_assert_stderr_eq_str("mpsim: warning: round-robin ps: "
				"repeat_count > 1 is deprecated, using 1 instead\n");
}

/* repeat_count > 1 changes nothing: still one I/O per path. */
Test(round_robin, repeat_count_does_not_batch)
{
	rr_open("");
	rr_add("5");
	rr_add("5");
	cr_assert_eq(rr_next(), 0);
	cr_assert_eq(rr_next(), 1);
	cr_assert_eq(rr_next(), 0);
}

Test(round_robin, too_many_path_args)
{
	struct ps_path p = { .name = "sdx" };

	rr_open("");
	cr_assert_eq(ps_add_path(&ps, &p, "1 1", err), -EINVAL);
	cr_assert_str_eq(err, "round-robin ps: incorrect number of arguments");
	cr_assert_null(p.ps_ctx);
}

Test(round_robin, bad_repeat_count)
{
	static const char *const bad[] = { "x", "-1", "+1", "1x", "0x10", "1.5" };
	struct ps_path p = { .name = "sdx" };
	unsigned i;

	rr_open("");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		cr_assert_eq(ps_add_path(&ps, &p, bad[i], err), -EINVAL,
			     "\"%s\" accepted", bad[i]);
		cr_assert_str_eq(err, "round-robin ps: invalid repeat count");
		cr_assert_null(p.ps_ctx);
	}
	/* A rejected path is not on any list. */
	cr_assert_eq(rr_next(), -1);
}

/* The kernel's rr_create ignores its arguments; so do we. */
Test(round_robin, selector_args_are_ignored)
{
	rr_open("7 foo");
	rr_add("");
	cr_assert_str_eq(rr_table(NULL), "0 ");
	cr_assert_eq(rr_next(), 0);
}

Test(round_robin, registered_with_alias)
{
	cr_assert_eq(ps_find("round-robin"), &ps_round_robin);
	cr_assert_eq(ps_find("rr"), &ps_round_robin);
	cr_assert_eq(ps_round_robin.table_args, 1);
	cr_assert_eq(ps_round_robin.info_args, 0);
	cr_assert_eq(ps_round_robin.features, 0);
}
