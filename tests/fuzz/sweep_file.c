/*
 * sweep_file.c (fuzz target): a sweep's result file, as `mpsim merge`
 * and a resumed `mpsim sweep --output=FILE` read it: the first line (the
 * mpsim version and the sweep's options, shell-quoted), the sweep rebuilt
 * from those options, then the blocks of rows checked against it.  Bytes
 * whose first line is not a sweep's are checked as the body of a fixed
 * small sweep's file instead, so that every input reaches the row scanner.
 */
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"
#include "tests/fuzz/lib/fuzz.h"

#define FILE_MAX_POINTS	64	/* larger sweeps are parsed, not prepared */

/* Options naming files (read by their own targets) or outputs. */
static bool names_a_file(const char *w)
{
	static const char *const keys[] = { "--scenario", "--job",
					    "--read_iolog" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strncmp(w, keys[i], strlen(keys[i])))
			return true;
	return false;
}

static void scan(const struct sweep *sw, const char *buf, size_t n)
{
	struct sweep_block *b;
	char err[ERR_MAX];
	size_t valid;

	if (sweep_scan(sw, "fuzz.csv", buf, n, &b, &valid, err) >= 0)
		free(b);
}

static char sweep_word[] = "sweep";

/* The sweep its first line names; 0 when it was built. */
static int rebuild(struct sweep *sw, const char *cmdline)
{
	char err[ERR_MAX], **w, **argv;
	int n, i, r = -1;

	n = shell_split(cmdline, &w);
	if (n < 0)
		return -1;
	argv = xcalloc((size_t)n + 1, sizeof(*argv));
	argv[0] = sweep_word;
	for (i = 0; i < n; i++) {
		argv[i + 1] = w[i];
		if (names_a_file(w[i]))
			goto out;
	}
	r = sweep_parse(sw, n + 1, argv, err);
	if (!r && sw->nr_points > FILE_MAX_POINTS)
		r = -1;
	if (!r)
		r = sweep_prepare(sw, err);
	if (r)
		sweep_free(sw);
out:
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
	free(argv);
	return r;
}

/* A 2 x 2 sweep whose head the bytes follow when theirs is not one. */
static const struct sweep *fixed_sweep(void)
{
	static struct sweep sw;
	static bool ready;
	static char a0[] = "sweep", a1[] = "--iodepth=1,2",
		    a2[] = "--selector=st,hst", a3[] = "--number_ios=64";
	char *argv[] = { a0, a1, a2, a3 }, err[ERR_MAX];

	if (!ready) {
		if (sweep_parse(&sw, ARRAY_SIZE(argv), argv, err) ||
		    sweep_prepare(&sw, err))
			abort();
		ready = true;
	}
	return &sw;
}

FUZZ_TARGET(sweep_file)
{
	char version[32], *cmdline = NULL, *buf;
	const struct sweep *fx;
	struct sweep sw;

	mpsim_quiet = 1;
	if (!sweep_head_parse((const char *)data, size, version,
			      sizeof(version), &cmdline)) {
		if (!rebuild(&sw, cmdline)) {
			scan(&sw, (const char *)data, size);
			sweep_free(&sw);
		}
		free(cmdline);
		return 0;
	}
	fx = fixed_sweep();
	buf = xmalloc(fx->head_len + size);
	memcpy(buf, fx->head, fx->head_len);
	memcpy(buf + fx->head_len, data, size);
	scan(fx, buf, fx->head_len + size);
	free(buf);
	return 0;
}
