/*
 * test_selectors.c: the registry, the instance helpers, and the contract
 * every registered selector keeps (a ParameterizedTest over ps_types[]).
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>

#include "selectors/selector.h"

#define SEL_NPATHS	4

static struct path_selector ps;
static struct ps_path path[SEL_NPATHS];
static struct ps_path *pp[SEL_NPATHS];
static unsigned npaths;
static char err[ERR_MAX];

static void sel_quiet(void)
{
	mpsim_quiet = 1;
}

static void sel_teardown(void)
{
	ps_exit(&ps, pp, npaths);
	npaths = 0;
}

/*
 * The per-path arguments path i is added with: none, but for io-affinity,
 * whose one argument is required: path i serves CPU i of a machine of
 * SEL_NPATHS CPUs.
 */
static const char *sel_path_args(const struct ps_type *t, unsigned i)
{
	static const char *const masks[SEL_NPATHS] = { "1", "2", "4", "8" };

	return strcmp(t->name, "io-affinity") ? "" : masks[i];
}

static void sel_open(const struct ps_type *t, unsigned n)
{
	unsigned i;

	ps.nr_cpu_ids = SEL_NPATHS;
	ps.cpu = 0;
	cr_assert_eq(ps_init(&ps, t, "", err), 0, "%s: ps_init: %s",
		     t->name, err);
	for (i = 0; i < n; i++) {
		path[i].name = "sd";
		path[i].index = i;
		pp[i] = &path[i];
		cr_assert_eq(ps_add_path(&ps, &path[i], sel_path_args(t, i),
					 err), 0,
			     "%s: add_path: %s", t->name, err);
		npaths = i + 1;
	}
}

static void sel_reopen(const struct ps_type *t, unsigned n)
{
	sel_teardown();
	sel_open(t, n);
}

/* The number of space-separated words in s. */
static unsigned sel_words(const char *s)
{
	unsigned n = 0;

	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		n++;
		while (*s && *s != ' ')
			s++;
	}
	return n;
}

static bool sel_has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * The parameters of the contract tests: indices into ps_types[], not
 * pointers, because Criterion runs each test in a fresh process whose
 * addresses need not match those of the process that built the list.
 */
static struct criterion_test_params sel_params(void)
{
	static unsigned idx[32];
	unsigned i, n = ps_nr_types;

	if (n > ARRAY_SIZE(idx))	/* registry_size fails for this */
		n = ARRAY_SIZE(idx);
	for (i = 0; i < n; i++)
		idx[i] = i;
	return cr_make_param_array(unsigned, idx, n);
}

TestSuite(selectors, .init = sel_quiet, .fini = sel_teardown);

/* ---- registry ---- */

Test(selectors, registry_holds_the_five_kernel_selectors)
{
	static const char *const names[] = {
		"round-robin", "queue-length", "service-time",
		"historical-service-time", "io-affinity",
	};
	unsigned i;

	cr_assert_eq(ps_nr_types, ARRAY_SIZE(names));
	cr_assert_leq(ps_nr_types, 32, "grow sel_params()");
	for (i = 0; i < ARRAY_SIZE(names); i++)
		cr_assert_str_eq(ps_types[i]->name, names[i]);
}

Test(selectors, find_by_name_and_alias)
{
	static const char *const alias[][2] = {
		{ "rr", "round-robin" },
		{ "ql", "queue-length" },
		{ "st", "service-time" },
		{ "hst", "historical-service-time" },
		{ "ioa", "io-affinity" },
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(alias); i++) {
		const struct ps_type *t = ps_find(alias[i][1]);

		cr_assert_not_null(t, "%s not found", alias[i][1]);
		cr_assert_str_eq(t->name, alias[i][1]);
		cr_assert_eq(ps_find(alias[i][0]), t, "alias %s", alias[i][0]);
	}
}

Test(selectors, find_unknown_gives_null)
{
	cr_assert_null(ps_find("io_affinity"));
	cr_assert_null(ps_find(""));
	cr_assert_null(ps_find("RR"));
	cr_assert_null(ps_find("round-robin "));
	cr_assert_null(ps_find(NULL));
}

Test(selectors, names_and_aliases_are_unique)
{
	unsigned i, j;

	for (i = 0; i < ps_nr_types; i++)
		for (j = 0; j < ps_nr_types; j++) {
			if (i == j)
				continue;
			cr_assert_str_neq(ps_types[i]->name, ps_types[j]->name);
			cr_assert_str_neq(ps_types[i]->alias, ps_types[j]->alias);
			cr_assert_str_neq(ps_types[i]->name, ps_types[j]->alias);
		}
}

/* ---- ps_split_args ---- */

Test(selectors, split_args_words)
{
	char buf[] = "  1\t22 \n333  ";
	char *argv[PS_MAX_ARGS];

	cr_assert_eq(ps_split_args(buf, argv, err), 3);
	cr_assert_str_eq(argv[0], "1");
	cr_assert_str_eq(argv[1], "22");
	cr_assert_str_eq(argv[2], "333");
}

Test(selectors, split_args_empty)
{
	char empty[] = "";
	char blank[] = " \t ";
	char *argv[PS_MAX_ARGS];

	cr_assert_eq(ps_split_args(empty, argv, err), 0);
	cr_assert_eq(ps_split_args(blank, argv, err), 0);
	cr_assert_eq(ps_split_args(NULL, argv, err), 0);
}

Test(selectors, split_args_limit)
{
	char buf[4 * (PS_MAX_ARGS + 1) + 1];
	char *argv[PS_MAX_ARGS];
	char *p = buf;
	int i;

	for (i = 0; i < PS_MAX_ARGS; i++)
		p += sprintf(p, "%d ", i % 10);
	cr_assert_eq(ps_split_args(buf, argv, err), PS_MAX_ARGS);
	cr_assert_str_eq(argv[PS_MAX_ARGS - 1], "5");

	p = buf;
	for (i = 0; i <= PS_MAX_ARGS; i++)
		p += sprintf(p, "%d ", i % 10);
	err[0] = '\0';
	cr_assert_eq(ps_split_args(buf, argv, err), -EINVAL);
	cr_assert(strstr(err, "too many arguments"), "message: %s", err);
}

/* ---- ps_init / ps_add_path / ps_exit ---- */

Test(selectors, init_rejects_too_many_words_naming_the_selector)
{
	const struct ps_type *t = ps_find("st");
	char args[64] = "";
	int i;

	for (i = 0; i <= PS_MAX_ARGS; i++)
		strcat(args, "1 ");
	cr_assert_eq(ps_init(&ps, t, args, err), -EINVAL);
	cr_assert(sel_has_prefix(err, "service-time ps: "), "message: %s", err);
	cr_assert_null(ps.context);
	cr_assert_null(ps.type);
}

Test(selectors, init_rejects_overlong_string)
{
	const struct ps_type *t = ps_find("rr");
	char args[1024];

	memset(args, '1', sizeof(args) - 1);
	args[sizeof(args) - 1] = '\0';
	cr_assert_eq(ps_init(&ps, t, args, err), -EINVAL);
	cr_assert(strstr(err, "round-robin ps: argument string too long"),
		  "message: %s", err);
	cr_assert_null(ps.context);
}

Test(selectors, init_accepts_null_args)
{
	cr_assert_eq(ps_init(&ps, ps_find("ql"), NULL, err), 0, "%s", err);
	cr_assert_not_null(ps.context);
	cr_assert_eq(ps.type, ps_find("ql"));
}

Test(selectors, add_path_rejects_too_many_words)
{
	const struct ps_type *t = ps_find("hst");
	struct ps_path p = { .name = "sdx" };
	char args[64] = "";
	int i;

	sel_open(t, 0);
	for (i = 0; i <= PS_MAX_ARGS; i++)
		strcat(args, "1 ");
	cr_assert_eq(ps_add_path(&ps, &p, args, err), -EINVAL);
	cr_assert(sel_has_prefix(err, "historical-service-time ps: "),
		  "message: %s", err);
	cr_assert_null(p.ps_ctx);
}

Test(selectors, exit_clears_everything)
{
	sel_open(ps_find("st"), 3);
	ps_exit(&ps, pp, npaths);
	cr_assert_null(ps.context);
	cr_assert_null(path[0].ps_ctx);
	cr_assert_null(path[2].ps_ctx);
	npaths = 0;
}

/* ---- the shared contract, over every registered selector ---- */

ParameterizedTestParameters(selectors, contract)
{
	return sel_params();
}

/*
 * Every subset of four paths failed: select never returns a failed path,
 * returns a path while one is valid, and NULL when all have failed.
 * I/Os are started on the chosen path and some are completed, so the
 * load-based selectors see varied loads.
 */
ParameterizedTest(unsigned *tp, selectors, contract)
{
	const struct ps_type *t = ps_types[*tp];
	unsigned mask, i, k;
	sim_ns now = 0;

	for (mask = 0; mask < (1u << SEL_NPATHS); mask++) {
		struct ps_path *started[16];
		unsigned nstarted = 0;

		sel_reopen(t, SEL_NPATHS);
		for (i = 0; i < SEL_NPATHS; i++)
			if (mask & (1u << i))
				t->fail_path(&ps, &path[i]);
		for (k = 0; k < ARRAY_SIZE(started); k++) {
			struct ps_path *p;

			now += 100 * NSEC_PER_USEC;
			ps.cpu = k % SEL_NPATHS;	/* every submitter */
			p = t->select_path(&ps, 4096, now);
			if (mask == (1u << SEL_NPATHS) - 1) {
				cr_assert_null(p, "%s: all failed, got a path",
					       t->name);
				continue;
			}
			cr_assert_not_null(p, "%s: mask %#x gave NULL",
					   t->name, mask);
			cr_assert(!(mask & (1u << p->index)),
				  "%s: chose failed path %u (mask %#x)",
				  t->name, p->index, mask);
			if (t->start_io)
				t->start_io(&ps, p, 4096, now);
			started[nstarted++] = p;
			if (k % 3 == 2 && t->end_io) {
				struct ps_path *q = started[--nstarted];

				t->end_io(&ps, q, 4096, now - 50000, now);
			}
		}
		while (nstarted && t->end_io) {
			struct ps_path *q = started[--nstarted];

			t->end_io(&ps, q, 4096, now - 50000, now);
		}
	}
}

/* A trace status is "key=value " words with integer values, which
 * --trace writes as JSON numbers (lib/trace-log.c): nothing else. */
static void trace_words_ok(const struct ps_type *t, struct ps_path *p)
{
	char buf[512], *w, *save = NULL;

	t->status(&ps, p, PS_STATUS_TRACE, buf, sizeof(buf));
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '='), *v;

		cr_assert(eq && eq > w, "%s: trace word '%s' is not key=value",
			  t->name, w);
		v = eq + 1;
		if (*v == '-')
			v++;
		cr_assert(*v && strspn(v, "0123456789") == strlen(v),
			  "%s: trace word '%s' is not an integer", t->name, w);
	}
}

ParameterizedTestParameters(selectors, trace_status_words)
{
	return sel_params();
}

ParameterizedTest(unsigned *tp, selectors, trace_status_words)
{
	const struct ps_type *t = ps_types[*tp];
	struct ps_path *p;
	unsigned i;

	sel_open(t, SEL_NPATHS);
	p = t->select_path(&ps, 4096, 1000);
	if (p && t->start_io)
		t->start_io(&ps, p, 4096, 1000);
	if (p && t->end_io)
		t->end_io(&ps, p, 4096, 1000, 5000);
	trace_words_ok(t, NULL);
	for (i = 0; i < SEL_NPATHS; i++)
		trace_words_ok(t, &path[i]);
}

ParameterizedTestParameters(selectors, null_without_paths)
{
	return sel_params();
}

ParameterizedTest(unsigned *tp, selectors, null_without_paths)
{
	const struct ps_type *t = ps_types[*tp];

	sel_open(t, 0);
	cr_assert_null(t->select_path(&ps, 4096, 1000), "%s", t->name);
}

ParameterizedTestParameters(selectors, reinstated_path_is_usable)
{
	return sel_params();
}

/* Fail all, reinstate one: that one is the only choice. */
ParameterizedTest(unsigned *tp, selectors,
		  reinstated_path_is_usable)
{
	const struct ps_type *t = ps_types[*tp];
	unsigned i, k;

	sel_open(t, SEL_NPATHS);
	for (i = 0; i < SEL_NPATHS; i++)
		t->fail_path(&ps, &path[i]);
	cr_assert_eq(t->reinstate_path(&ps, &path[2]), 0, "%s", t->name);
	for (k = 0; k < 3; k++)
		cr_assert_eq(t->select_path(&ps, 4096, 1000 * (k + 1)),
			     &path[2], "%s", t->name);
}

ParameterizedTestParameters(selectors, end_io_undoes_start_io)
{
	return sel_params();
}

/*
 * start_io changes a load-aware selector's info status; end_io of the
 * same I/O puts it back.  A selector that learns from completions (hst's
 * moving average) changes other words on every end_io, so the I/O is
 * repeated at one instant until that learning has settled; the status
 * must then come back word for word.
 */
ParameterizedTest(unsigned *tp, selectors,
		  end_io_undoes_start_io)
{
	const struct ps_type *t = ps_types[*tp];
	char before[128], during[128], after[128];
	sim_ns now = 5 * NSEC_PER_MSEC;
	unsigned k;

	sel_open(t, 2);
	if (!t->start_io) {
		cr_assert_null(t->end_io, "%s: end_io without start_io",
			       t->name);
		return;
	}
	cr_assert_not_null(t->end_io, "%s", t->name);

	for (k = 0; k < 4096; k++) {
		t->status(&ps, &path[0], PS_STATUS_INFO, before,
			  sizeof(before));
		t->start_io(&ps, &path[0], 4096, now);
		t->status(&ps, &path[0], PS_STATUS_INFO, during,
			  sizeof(during));
		cr_assert_str_neq(before, during,
				  "%s: start_io left the info status alone",
				  t->name);
		t->end_io(&ps, &path[0], 4096, now, now);
		t->status(&ps, &path[0], PS_STATUS_INFO, after,
			  sizeof(after));
		if (!strcmp(before, after))
			break;
	}
	cr_assert_str_eq(before, after, "%s: end_io never undid start_io",
			 t->name);
}

ParameterizedTestParameters(selectors, status_word_counts)
{
	return sel_params();
}

/* table_args and info_args match what status prints for a path. */
ParameterizedTest(unsigned *tp, selectors, status_word_counts)
{
	const struct ps_type *t = ps_types[*tp];
	char buf[128];
	int n;

	sel_open(t, 1);
	n = t->status(&ps, &path[0], PS_STATUS_TABLE, buf, sizeof(buf));
	cr_assert_eq((size_t)n, strlen(buf), "%s", t->name);
	cr_assert_eq(sel_words(buf), t->table_args, "%s: table \"%s\"",
		     t->name, buf);
	n = t->status(&ps, &path[0], PS_STATUS_INFO, buf, sizeof(buf));
	cr_assert_eq((size_t)n, strlen(buf), "%s", t->name);
	cr_assert_eq(sel_words(buf), t->info_args, "%s: info \"%s\"",
		     t->name, buf);
}

ParameterizedTestParameters(selectors, type_is_complete)
{
	return sel_params();
}

ParameterizedTest(unsigned *tp, selectors, type_is_complete)
{
	const struct ps_type *t = ps_types[*tp];

	cr_assert_not_null(t->name);
	cr_assert_not_null(t->alias, "%s", t->name);
	cr_assert_not_null(t->kernel_file, "%s", t->name);
	cr_assert(sel_has_prefix(t->kernel_file, "drivers/md/dm-ps-"),
		  "%s: %s", t->name, t->kernel_file);
	cr_assert_gt(t->path_size, 0, "%s", t->name);
	cr_assert_not_null(t->create, "%s", t->name);
	cr_assert_not_null(t->add_path, "%s", t->name);
	cr_assert_not_null(t->fail_path, "%s", t->name);
	cr_assert_not_null(t->reinstate_path, "%s", t->name);
	cr_assert_not_null(t->select_path, "%s", t->name);
	cr_assert_not_null(t->status, "%s", t->name);
	cr_assert(!t->end_io || t->start_io, "%s", t->name);
}

/* ---- the shared helpers at their bounds ---- */

static void sel_parse_ok(const char *word, unsigned want)
{
	unsigned v = 7;

	cr_assert_eq(ps_parse_uint(word, &v), 0, "'%s' refused", word);
	cr_assert_eq(v, want, "'%s' gave %u", word, v);
}

static void sel_parse_bad(const char *word)
{
	unsigned v = 7;

	cr_assert_eq(ps_parse_uint(word, &v), -EINVAL, "'%s' accepted", word);
	cr_assert_eq(v, 7, "'%s' stored %u", word, v);
}

/*
 * ps_parse_uint(): the digits at the ends of '0'..'9' and the characters
 * either side of them ('/' and ':'), after a digit too, where only the
 * digit loop can refuse them; UINT32_MAX and one more.
 */
Test(selectors, parse_uint_digits_and_bounds)
{
	sel_parse_ok("0", 0);
	sel_parse_ok("9", 9);
	sel_parse_ok("10", 10);
	sel_parse_ok("1234567890", 1234567890u);
	sel_parse_ok("4294967295", UINT32_MAX);
	sel_parse_ok("0004294967295", UINT32_MAX);
	sel_parse_bad("4294967296");
	sel_parse_bad("");
	sel_parse_bad("/");
	sel_parse_bad(":");
	sel_parse_bad("1/");
	sel_parse_bad("1:");
	sel_parse_bad("-1");
	sel_parse_bad("+1");
	sel_parse_bad(" 1");
	sel_parse_bad("1 ");
}

/* ps_emitted(): snprintf's count, clamped to what fit before the NUL. */
Test(selectors, emitted_clamps_to_the_buffer)
{
	cr_assert_eq(ps_emitted(0, 10), 0);
	cr_assert_eq(ps_emitted(3, 10), 3);
	cr_assert_eq(ps_emitted(9, 10), 9);
	cr_assert_eq(ps_emitted(10, 10), 9);
	cr_assert_eq(ps_emitted(25, 10), 9);
	cr_assert_eq(ps_emitted(3, 1), 0);
	cr_assert_eq(ps_emitted(5, 0), 0);
	cr_assert_eq(ps_emitted(-1, 10), 0);
	cr_assert_eq(ps_emitted(-1, 0), 0);
}

static void sel_catch_stderr(void)
{
	mpsim_quiet = 0;
	cr_redirect_stderr();
}

/*
 * ps_repeat_count(): no word keeps the caller's default; 0 and 1 are kept
 * silently; 2 is forced to 1 with the kernel's one warning; only argv[0]
 * is read.
 */
Test(selectors, repeat_count_words, .init = sel_catch_stderr)
{
	char w0[] = "0", w1[] = "1", w2[] = "2", w3[] = "3", bad[] = "x";
	char *a0[] = { w0, bad }, *a1[] = { w1, bad }, *a2[] = { w2, bad };
	char *a3[] = { w3 }, *abad[] = { bad, w1 };
	unsigned rc = 5;

	cr_assert_eq(ps_repeat_count("rr", 0, a3, &rc, err), 0);
	cr_assert_eq(rc, 5, "no word: the default is kept");
	cr_assert_eq(ps_repeat_count("rr", 2, a0, &rc, err), 0, "%s", err);
	cr_assert_eq(rc, 0);
	cr_assert_eq(ps_repeat_count("rr", 1, a1, &rc, err), 0, "%s", err);
	cr_assert_eq(rc, 1);
	cr_assert_eq(ps_repeat_count("rr", 2, a2, &rc, err), 0, "%s", err);
	cr_assert_eq(rc, 1);
	err[0] = '\0';
	cr_assert_eq(ps_repeat_count("rr", 2, abad, &rc, err), -EINVAL);
	cr_assert_str_eq(err, "rr ps: invalid repeat count");
	fflush(stderr);
	cr_assert_stderr_eq_str("mpsim: warning: rr ps: "
				"repeat_count > 1 is deprecated, using 1 instead\n");
}

/* The longest argument string is 255 characters: a repeat count of 1
 * written with 254 leading zeros is taken, one more zero is refused. */
Test(selectors, args_of_255_characters_and_256)
{
	struct ps_path p = { .name = "sdx" };
	char args[258];

	sel_open(ps_find("rr"), 0);
	memset(args, '0', 254);
	strcpy(args + 254, "1");
	cr_assert_eq(strlen(args), 255);
	cr_assert_eq(ps_add_path(&ps, &p, args, err), 0, "%s", err);
	cr_assert_not_null(p.ps_ctx);
	ps_exit(&ps, (struct ps_path *[]){ &p }, 1);

	sel_open(ps_find("rr"), 0);
	memset(args, '0', 255);
	strcpy(args + 255, "1");
	p.ps_ctx = &p;		/* not ours: cleared on refusal */
	cr_assert_eq(ps_add_path(&ps, &p, args, err), -EINVAL);
	cr_assert_str_eq(err, "round-robin ps: argument string too long "
			 "(at most 255 characters)");
	cr_assert_null(p.ps_ctx);
}

/* A refused word count is named with the selector and the limit. */
Test(selectors, too_many_words_message)
{
	char args[64] = "";
	int i;

	for (i = 0; i <= PS_MAX_ARGS; i++)
		strcat(args, "1 ");
	cr_assert_eq(ps_init(&ps, ps_find("st"), args, err), -EINVAL);
	cr_assert_str_eq(err, "service-time ps: too many arguments "
			 "(at most 16 words)");
}

/* ps_init() gives a machine left unset one CPU, one node and HZ=250, and
 * keeps what the caller set. */
Test(selectors, init_defaults_and_kept_settings)
{
	cr_assert_eq(ps_init(&ps, ps_find("ql"), "", err), 0, "%s", err);
	cr_assert_eq(ps.nr_cpu_ids, 1);
	cr_assert_eq(ps.nr_node_ids, 1);
	cr_assert_eq(ps.hz, 250);
	ps_exit(&ps, NULL, 0);

	ps.nr_cpu_ids = 8;
	ps.nr_node_ids = 2;
	ps.hz = 1000;
	ps.cpu = 7;
	cr_assert_eq(ps_init(&ps, ps_find("ql"), "", err), 0, "%s", err);
	cr_assert_eq(ps.nr_cpu_ids, 8);
	cr_assert_eq(ps.nr_node_ids, 2);
	cr_assert_eq(ps.hz, 1000);
	cr_assert_eq(ps.cpu, 7);
}

/* A refusal, by the split or by create(), leaves no type or context,
 * whatever the block held before; so does ps_exit(). */
Test(selectors, refusals_and_exit_leave_nothing)
{
	static int junk;
	char args[64] = "";
	int i;

	for (i = 0; i <= PS_MAX_ARGS; i++)
		strcat(args, "1 ");
	ps.type = ps_find("rr");
	ps.context = &junk;
	cr_assert_eq(ps_init(&ps, ps_find("hst"), args, err), -EINVAL);
	cr_assert_null(ps.type);
	cr_assert_null(ps.context);

	ps.type = ps_find("rr");
	ps.context = &junk;
	cr_assert_eq(ps_init(&ps, ps_find("hst"), "x", err), -EINVAL);
	cr_assert_null(ps.type);
	cr_assert_null(ps.context);

	sel_open(ps_find("hst"), 2);
	ps_exit(&ps, pp, npaths);
	npaths = 0;
	cr_assert_null(ps.type);
	cr_assert_null(ps.context);
	cr_assert_null(path[0].ps_ctx);
	cr_assert_null(path[1].ps_ctx);
}

/* add_path() refusing its words (after the split) leaves the path no
 * block; so does a refused split, whatever ps_ctx held before. */
Test(selectors, add_path_refusals_leave_no_block)
{
	static int junk;
	struct ps_path p = { .name = "sdx" };
	char args[64] = "";
	int i;

	sel_open(ps_find("rr"), 0);
	p.ps_ctx = &junk;
	cr_assert_eq(ps_add_path(&ps, &p, "x", err), -EINVAL);
	cr_assert_str_eq(err, "round-robin ps: invalid repeat count");
	cr_assert_null(p.ps_ctx);

	for (i = 0; i <= PS_MAX_ARGS; i++)
		strcat(args, "1 ");
	p.ps_ctx = &junk;
	cr_assert_eq(ps_add_path(&ps, &p, args, err), -EINVAL);
	cr_assert_null(p.ps_ctx);
}
