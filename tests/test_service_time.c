/* test_service_time.c: service-time's kernel-specific behaviour (docs/kernel-model.md §4). */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "selectors/selector.h"

extern const struct ps_type ps_service_time;

#define ST_NPATHS	8
/* The kernel's ST_MAX_INFLIGHT_SIZE, restated for the boundary tests. */
#define ST_TEST_MAX_INFLIGHT	((size_t)-1 >> 7)

static struct path_selector ps;
static struct ps_path path[ST_NPATHS];
static struct ps_path *pp[ST_NPATHS];
static unsigned npaths;
static char err[ERR_MAX];
static char status_buf[64];

static void st_open(void)
{
	cr_assert_eq(ps_init(&ps, &ps_service_time, "", err), 0,
		     "ps_init: %s", err);
	npaths = 0;
}

/* Add a path with the given per-path arguments and bytes in flight. */
static struct ps_path *st_add(const char *args, size_t in_flight)
{
	struct ps_path *p = &path[npaths];

	cr_assert_lt(npaths, ST_NPATHS);
	p->name = "sd";
	p->index = npaths;
	pp[npaths++] = p;
	cr_assert_eq(ps_add_path(&ps, p, args, err), 0, "add_path: %s", err);
	if (in_flight)
		ps.type->start_io(&ps, p, in_flight, 0);
	return p;
}

static int st_next(size_t nr_bytes)
{
	struct ps_path *p = ps.type->select_path(&ps, nr_bytes, 0);

	return p ? (int)p->index : -1;
}

static const char *st_status_of(struct ps_path *p, enum ps_status_type t)
{
	ps.type->status(&ps, p, t, status_buf, sizeof(status_buf));
	return status_buf;
}

static void st_quiet(void)
{
	mpsim_quiet = 1;
}

static void st_teardown(void)
{
	ps_exit(&ps, pp, npaths);
	npaths = 0;
}

static void st_catch_stderr(void)
{
	mpsim_quiet = 0;
	cr_redirect_stderr();
}

/* Expect ps_add_path(args) to fail with exactly msg and leave nothing. */
static void st_reject(const char *args, const char *msg)
{
	struct ps_path p = { .name = "sdx" };

	err[0] = '\0';
	cr_assert_eq(ps_add_path(&ps, &p, args, err), -EINVAL,
		     "\"%s\" accepted", args);
	cr_assert_str_eq(err, msg, "for \"%s\"", args);
	cr_assert_null(p.ps_ctx);
}

TestSuite(service_time, .init = st_quiet, .fini = st_teardown);

/* ---- the §4 truncation example ---- */

/*
 * rt 100 idle against rt 1 with 30,000,000 B in flight, incoming 4096:
 * 4096 * 1 - 30,004,096 * 100 = -3,000,405,504, which as an int is
 * +1,294,561,792, so the loaded slow path is declared better.  The kernel
 * does this; so must we, in either list order.
 */
Test(service_time, truncation_example_loaded_path_first)
{
	st_open();
	st_add("1 1", 30000000);
	st_add("1 100", 0);
	cr_assert_eq(st_next(4096), 0, "kernel picks the loaded rt-1 path");
}

Test(service_time, truncation_example_idle_path_first)
{
	st_open();
	st_add("1 100", 0);
	st_add("1 1", 30000000);
	cr_assert_eq(st_next(4096), 1, "kernel picks the loaded rt-1 path");
}

/* Control: below 2^31 the products compare correctly (2,000,409,600). */
Test(service_time, no_truncation_below_2_31)
{
	st_open();
	st_add("1 1", 20000000);
	st_add("1 100", 0);
	cr_assert_eq(st_next(4096), 1);
}

/* ---- relative_throughput ---- */

Test(service_time, rt_zero_only_when_no_positive_path)
{
	st_open();
	st_add("1 0", 0);
	st_add("1 1", 1 << 20);
	st_add("1 0", 0);
	cr_assert_eq(st_next(4096), 1);
	cr_assert_eq(st_next(4096), 1);
	ps.type->fail_path(&ps, &path[1]);
	cr_assert_eq(st_next(4096), 0);
	/* Among rt-0 paths, the equal-rt rule compares sizes. */
	ps.type->start_io(&ps, &path[0], 8192, 0);
	cr_assert_eq(st_next(4096), 2);
	cr_assert_eq(ps.type->reinstate_path(&ps, &path[1]), 0);
	cr_assert_eq(st_next(4096), 1);
}

/*
 * A path added after a reinstatement, with another relative_throughput:
 * the selection weighs it.  A and B rt 1, B failed and reinstated (list
 * A B), then C rt 100 (list A B C), all idle.  The walk keeps A against
 * B (same rt, same size: 0), and C beats A (same size, case 2a: rt 100
 * over rt 1): C.  Were C's rt not seen, the first of least size, A.
 */
Test(service_time, path_added_after_reinstate_weighs_its_rt)
{
	st_open();
	st_add("1 1", 0);
	st_add("1 1", 0);
	ps.type->fail_path(&ps, &path[1]);
	cr_assert_eq(ps.type->reinstate_path(&ps, &path[1]), 0);
	st_add("1 100", 0);
	cr_assert_eq(st_next(4096), 2);
}

/*
 * Case 2a: equal loads are decided by relative_throughput before any
 * product.  30,000,000 B in flight on A (rt 1) and on B (rt 100),
 * incoming 4096: B.  Through the products of case 3, 30,004,096 * 1 -
 * 30,004,096 * 100 = -2,970,405,504 would be 1,324,561,792 as an int,
 * and A would stay.
 */
Test(service_time, equal_loads_decided_by_rt)
{
	st_open();
	st_add("1 1", 30000000);
	st_add("1 100", 30000000);
	cr_assert_eq(st_next(4096), 1);
}

/*
 * Case 2b comes before the products, so even a load whose product would
 * truncate (30,004,096 * 100 wraps to a negative int) cannot make the
 * rt-0 path win.
 */
Test(service_time, rt_zero_checked_before_products)
{
	st_open();
	st_add("1 100", 0);
	st_add("1 0", 30000000);
	cr_assert_eq(st_next(4096), 0);
}

/* Equal rt: compare in-flight sizes; equal sizes keep the earliest. */
Test(service_time, rt_tie_compares_sizes)
{
	st_open();
	st_add("1 5", 8192);
	st_add("1 5", 4096);
	st_add("1 5", 4096);
	cr_assert_eq(st_next(4096), 1);
	/* 1 moved to the tail: list 0 2 1; 2 and 1 tie, 2 is earlier. */
	cr_assert_eq(st_next(4096), 2);
}

/* Same load, different rt: the higher rt (case 2a). */
Test(service_time, same_load_prefers_higher_rt)
{
	st_open();
	st_add("1 1", 4096);
	st_add("1 3", 4096);
	st_add("1 2", 4096);
	cr_assert_eq(st_next(4096), 1);
}

/*
 * The incoming size is select_path's nr_bytes: paths rt 1 / 1000 B and
 * rt 2 / 3000 B tie at 1000 incoming bytes (2000 each), case 4 then
 * prefers the higher rt.
 */
Test(service_time, incoming_size_decides)
{
	st_open();
	st_add("1 1", 1000);
	st_add("1 2", 3000);
	cr_assert_eq(st_next(500), 0);
	st_teardown();

	st_open();
	st_add("1 1", 1000);
	st_add("1 2", 3000);
	cr_assert_eq(st_next(1000), 1, "equal service time: higher rt");
	st_teardown();

	st_open();
	st_add("1 1", 1000);
	st_add("1 2", 3000);
	cr_assert_eq(st_next(1500), 1);
}

/* ---- the 32-bit in-flight counter and the shift-by-7 guard ---- */

/* atomic_add takes an int: 2^31 bytes in flight read back negative. */
Test(service_time, in_flight_size_is_32_bit)
{
	st_open();
	st_add("", 0);
	ps.type->start_io(&ps, &path[0], (size_t)1 << 31, 0);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_INFO),
			 "-2147483648 1 ");
	ps.type->end_io(&ps, &path[0], (size_t)1 << 31, 0, 0);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_INFO), "0 1 ");
	/* the trace words name the two values st_compare_load() weighs */
	ps.type->start_io(&ps, &path[0], 4096, 0);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_TRACE),
			 "in_flight_size=4096 relative_throughput=1 ");
	ps.type->end_io(&ps, &path[0], 4096, 0, 0);
#if SIZE_MAX > UINT32_MAX
	/* nr_bytes is truncated to 32 bits as it is added. */
	ps.type->start_io(&ps, &path[0], ((size_t)1 << 32) + 5, 0);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_INFO), "5 1 ");
#endif
}

#if SIZE_MAX > UINT32_MAX
/*
 * On 64-bit no int in-flight size reaches ST_MAX_INFLIGHT_SIZE (2^57 - 1)
 * unless it has wrapped negative: path 0 (rt 1) holds 2^31 bytes, read as
 * INT_MIN and then as 2^64 - 2^31 in size_t.  With the shift, path 0
 * compares as better (+33,554,400); without it the sign would be -4096
 * and path 1 would win.
 */
Test(service_time, shift_guard_on_wrapped_in_flight)
{
	st_open();
	st_add("1 1", (size_t)1 << 31);
	st_add("1 2", 0);
	cr_assert_eq(st_next(4096), 0);
}

/*
 * The other way in: a huge incoming size.  Path 0 (rt 2, idle), path 1
 * (rt 1, 64 B).  Path 1's sum reaches ST_MAX_INFLIGHT_SIZE exactly at
 * incoming = max - 64; there the shift makes path 1 better (-1), one byte
 * less and the unshifted product makes path 0 better (+62).
 */
Test(service_time, shift_guard_boundary_on_incoming)
{
	st_open();
	st_add("1 2", 0);
	st_add("1 1", 64);
	cr_assert_eq(st_next(ST_TEST_MAX_INFLIGHT - 65), 0, "no shift yet");
	st_teardown();

	st_open();
	st_add("1 2", 0);
	st_add("1 1", 64);
	cr_assert_eq(st_next(ST_TEST_MAX_INFLIGHT - 64), 1, "shifted");
}

/*
 * The same boundary on the other side of the compare: the best path's
 * sum.  Path 0 (rt 1, 64 B) is the best when path 1 (rt 2, idle) is
 * weighed.  At incoming = max - 64 path 0's sum is ST_MAX_INFLIGHT_SIZE:
 * both sums shifted are 2^50 - 1, and (2^50 - 1) * 1 - (2^50 - 1) * 2 is
 * 1 as an int: path 0 stays.  One byte less, unshifted, (2^57 - 66) -
 * 2 * (2^57 - 2) is -62 as an int: path 1.
 */
Test(service_time, shift_guard_boundary_on_the_best)
{
	st_open();
	st_add("1 1", 64);
	st_add("1 2", 0);
	cr_assert_eq(st_next(ST_TEST_MAX_INFLIGHT - 65), 1, "no shift yet");
	st_teardown();

	st_open();
	st_add("1 1", 64);
	st_add("1 2", 0);
	cr_assert_eq(st_next(ST_TEST_MAX_INFLIGHT - 64), 0, "shifted");
}
#endif

/* ---- equal relative_throughputs: case 1 for every pair ---- */

/*
 * The first path of least in_flight_size in list order wins, whichever
 * place it has among an odd number of paths (select_path seeks it in two
 * chains, the even places and the odd).
 */
Test(service_time, equal_rt_first_least_wins)
{
	static const size_t load[][5] = {
		{ 8, 4, 4, 9, 4 },	/* 1: the odd chain's, earliest */
		{ 8, 9, 4, 4, 7 },	/* 2: the even chain's before the odd */
		{ 5, 6, 7, 8, 1 },	/* 4: the odd count's last place */
		{ 3, 3, 3, 3, 3 },	/* 0: all equal */
	};
	static const int want[] = { 1, 2, 4, 0 };
	unsigned t, i;

	for (t = 0; t < ARRAY_SIZE(want); t++) {
		st_open();
		for (i = 0; i < 5; i++)
			st_add("", load[t][i]);
		cr_assert_eq(st_next(4096), want[t], "loads %zu %zu %zu %zu %zu",
			     load[t][0], load[t][1], load[t][2], load[t][3],
			     load[t][4]);
		st_teardown();
	}
}

/*
 * A wrapped (negative) in_flight_size: (int)(sz1 - sz2) is no longer the
 * difference, and the kernel's pairwise walk decides, which is neither
 * the least signed size nor the least unsigned one.  INT_MIN + 10 against
 * 100: 100 - (INT_MIN + 10) truncates to -2^31 + 90, so a later 100 beats
 * it (the least signed size would not).  -2^28 (0xf0000000) against 16:
 * 16 - 0xf0000000 truncates to +0x10000010, so a later 16 does not beat
 * it (the least unsigned size would).
 */
Test(service_time, equal_rt_wrapped_size_walks_pairs)
{
	st_open();
	st_add("", ((size_t)1 << 31) + 10);
	st_add("", 100);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_INFO),
			 "-2147483638 1 ");
	cr_assert_eq(st_next(4096), 1);
	st_teardown();

	st_open();
	st_add("", 0xf0000000u);
	st_add("", 16);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_INFO),
			 "-268435456 1 ");
	cr_assert_eq(st_next(4096), 0);
}

/*
 * The wrapped size in the odd count's last place, which the two chains
 * leave to after their loop: 100, 200, INT_MIN + 200.  The kernel's walk:
 * 200 against 100 is +100, A stays; INT_MIN + 200 against 100 truncates
 * to INT_MIN + 100 < 0: C.  The least word would be A's.
 */
Test(service_time, equal_rt_wrapped_size_in_the_last_place)
{
	st_open();
	st_add("", 100);
	st_add("", 200);
	st_add("", ((size_t)1 << 31) + 200);
	cr_assert_str_eq(st_status_of(&path[2], PS_STATUS_INFO),
			 "-2147483448 1 ");
	cr_assert_eq(st_next(4096), 2);
}

/* One path: it is the least, alone in the even chain. */
Test(service_time, one_path_is_chosen)
{
	st_open();
	st_add("", 4096);
	cr_assert_eq(st_next(4096), 0);
	cr_assert_eq(st_next(4096), 0);
}

/*
 * The walk (the throughputs differ) keeps the earlier of two paths whose
 * comparison is 0: A and B, rt 1 and 8 KiB in flight each, compare case
 * 1, 0; C, rt 2 with 1 MiB, loses to A in case 3 ((1 MiB + 4 KiB) * 1
 * against (8 KiB + 4 KiB) * 2).  A.
 */
Test(service_time, walk_tie_keeps_the_earlier)
{
	st_open();
	st_add("1 1", 8192);
	st_add("1 1", 8192);
	st_add("1 2", 1 << 20);
	cr_assert_eq(st_next(4096), 0);
}

/* ---- list movement ---- */

Test(service_time, chosen_path_moves_to_tail)
{
	static const int want[] = { 0, 1, 2, 0, 1 };
	unsigned i;

	st_open();
	st_add("", 0);
	st_add("", 0);
	st_add("", 0);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		cr_assert_eq(st_next(4096), want[i], "selection %u", i);
}

Test(service_time, reinstate_goes_to_tail)
{
	st_open();
	st_add("", 0);
	st_add("", 0);
	st_add("", 0);
	ps.type->fail_path(&ps, &path[0]);
	cr_assert_eq(st_next(4096), 1);		/* list 2 1 */
	ps.type->reinstate_path(&ps, &path[0]);	/* list 2 1 0 */
	cr_assert_eq(st_next(4096), 2);
	cr_assert_eq(st_next(4096), 1);
	cr_assert_eq(st_next(4096), 0);
}

/*
 * The list order is held in keys that are renumbered every ~65 000
 * selections (selectors/service-time.c): the order must survive it.
 * Five idle paths, path 1 failed and reinstated (list 0 2 3 4 1): each
 * selection takes the head and moves it to the tail, so 200 000
 * selections, three renumberings, cycle 0 2 3 4 1.  A path failed and
 * reinstated in the middle joins at the tail again, and the cycle with
 * it.
 */
Test(service_time, list_order_survives_many_selections)
{
	static const int want[] = { 0, 2, 3, 4, 1 };
	static const int after[] = { 2, 4, 1, 0, 3 };
	unsigned i;

	st_open();
	for (i = 0; i < 5; i++)
		st_add("", 0);
	ps.type->fail_path(&ps, &path[1]);
	cr_assert_eq(ps.type->reinstate_path(&ps, &path[1]), 0);
	for (i = 0; i < 200000; i++)
		cr_assert_eq(st_next(4096), want[i % 5], "selection %u", i);
	/* the head is now 0; 3 leaves and comes back at the tail */
	ps.type->fail_path(&ps, &path[3]);
	cr_assert_eq(st_next(4096), 0);		/* list 2 4 1 0 */
	cr_assert_eq(ps.type->reinstate_path(&ps, &path[3]), 0);
	for (i = 0; i < 100000; i++)
		cr_assert_eq(st_next(4096), after[i % 5], "selection %u", i);
}

/*
 * A renumbering during the move of a path that is not the head: the
 * head's key is renumbered too, so it still wins the ties of its place.
 * Three idle paths A B C, keys 1 2 3: each selection takes the head and
 * moves it to the tail with the next key, A B C A ...  Selection 65 527
 * is A's, with key 3 + 65 527 = 65 530.  A is then given an I/O and
 * stays busy; the idle B and C take turns (list C A B, A B C, A C B, A B
 * C), keys 65 531 to 65 534, the last one there is (PS_ORD_MAX, keyed.h),
 * and the next move, B's, renumbers the list A B C 1 2 3 and gives B 4.
 * When A's I/O ends all three are idle, and A, the head, wins the tie;
 * had A kept its key of 65 530, C (3) would.
 */
Test(service_time, head_key_renumbered_while_another_moves)
{
	static const int turns[] = { 1, 2, 1, 2, 1 };
	unsigned i;

	st_open();
	for (i = 0; i < 3; i++)
		st_add("", 0);
	for (i = 0; i < 65527; i++)
		cr_assert_eq(st_next(4096), (int)(i % 3), "selection %u", i);
	ps.type->start_io(&ps, &path[0], 4096, 0);
	for (i = 0; i < ARRAY_SIZE(turns); i++)
		cr_assert_eq(st_next(4096), turns[i], "turn %u", i);
	ps.type->end_io(&ps, &path[0], 4096, 0, 0);
	cr_assert_eq(st_next(4096), 0);
}

Test(service_time, all_failed_or_none_gives_null)
{
	st_open();
	cr_assert_eq(st_next(4096), -1);
	st_add("", 0);
	ps.type->fail_path(&ps, &path[0]);
	cr_assert_eq(st_next(4096), -1);
}

/* ---- status and arguments ---- */

Test(service_time, status_words)
{
	st_open();
	st_add("", 0);
	st_add("0 7", 0);
	cr_assert_str_eq(st_status_of(NULL, PS_STATUS_TABLE), "0 ");
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_TABLE), "1 1 ");
	cr_assert_str_eq(st_status_of(&path[1], PS_STATUS_TABLE), "0 7 ");
	ps.type->start_io(&ps, &path[1], 4096, 0);
	ps.type->start_io(&ps, &path[1], 512, 0);
	cr_assert_str_eq(st_status_of(&path[1], PS_STATUS_INFO), "4608 7 ");
	ps.type->end_io(&ps, &path[1], 4096, 0, 0);
	cr_assert_str_eq(st_status_of(&path[1], PS_STATUS_INFO), "512 7 ");
}

Test(service_time, repeat_count_forced_to_one, .init = st_catch_stderr)
{
	st_open();
	st_add("5 100", 0);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_TABLE), "1 100 ");
	fflush(stderr);
	cr_assert_stderr_eq_str("mpsim: warning: service-time ps: "
				"repeat_count > 1 is deprecated, using 1 instead\n");
}

Test(service_time, bad_path_args)
{
	st_open();
	st_reject("1 1 1", "service-time ps: incorrect number of arguments");
	st_reject("abc", "service-time ps: invalid repeat count");
	st_reject("-1", "service-time ps: invalid repeat count");
	st_reject("1 101", "service-time ps: invalid relative_throughput value");
	st_reject("1 abc", "service-time ps: invalid relative_throughput value");
	st_reject("1 -5", "service-time ps: invalid relative_throughput value");
	st_reject("1 50%", "service-time ps: invalid relative_throughput value");
	/* The kernel checks the repeat count first. */
	st_reject("x 101", "service-time ps: invalid repeat count");
	/* Nothing rejected reached the valid list. */
	cr_assert_eq(st_next(4096), -1);
}

Test(service_time, rt_range_limits_accepted)
{
	st_open();
	st_add("1 0", 0);
	st_add("1 100", 0);
	cr_assert_str_eq(st_status_of(&path[0], PS_STATUS_TABLE), "1 0 ");
	cr_assert_str_eq(st_status_of(&path[1], PS_STATUS_TABLE), "1 100 ");
}

Test(service_time, selector_args_are_ignored)
{
	cr_assert_eq(ps_init(&ps, &ps_service_time, "a b c", err), 0, "%s", err);
	cr_assert_str_eq(st_status_of(NULL, PS_STATUS_TABLE), "0 ");
}

Test(service_time, registered_with_alias)
{
	cr_assert_eq(ps_find("service-time"), &ps_service_time);
	cr_assert_eq(ps_find("st"), &ps_service_time);
	cr_assert_eq(ps_service_time.table_args, 2);
	cr_assert_eq(ps_service_time.info_args, 2);
}

/*
 * The numbering's bound: 32768 paths (PS_KEYED_MAX) are taken, the
 * 32769th is refused with its message.
 */
Test(service_time, at_most_32768_paths)
{
	enum { N = 32768 };
	struct ps_path *many = calloc(N + 1, sizeof(*many));
	struct path_selector sel;
	unsigned i;

	cr_assert(many);
	memset(&sel, 0, sizeof(sel));
	cr_assert_eq(ps_init(&sel, &ps_service_time, "", err), 0, "%s", err);
	for (i = 0; i < N; i++) {
		many[i].name = "sd";
		many[i].index = i;
		cr_assert_eq(ps_add_path(&sel, &many[i], "", err), 0,
			     "path %u: %s", i, err);
	}
	many[N].name = "sd";
	cr_assert_neq(ps_add_path(&sel, &many[N], "", err), 0);
	cr_assert_str_eq(err, "service-time ps: more than 32768 paths");
	for (i = 0; i < N; i++)
		free(many[i].ps_ctx);
	ps_exit(&sel, NULL, 0);
	free(many);
}
