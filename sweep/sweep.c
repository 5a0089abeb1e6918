/*
 * sweep.c: `mpsim sweep`, batch runs over lists of option values.
 *
 * NOTES ON THE DESIGN
 *
 * 1. Points.  Every run option may be a list or a range (sweep-grammar.c).
 *    The points are the cartesian product of the options' values in
 *    command-line order, the last option varying fastest, numbered from 0.
 *    Point k's options are handed to cli_parse_run() as single values, so
 *    a point is validated exactly as `mpsim run` would validate it; all
 *    the points are checked before anything runs or any file is touched.
 *
 * 2. Replications.  Point k runs --reps times; replication r uses the
 *    seed sweep_rep_seed(--seed, r), the same at every point (common
 *    random numbers across points; r = 0 is --seed itself).  A point's
 *    rows are a pure function of its options and those seeds, so it does
 *    not matter which process or machine computes it.
 *
 * 3. The file.  A head (CSV: the comment line "# mpsim VERSION sweep:
 *    OPTIONS" and the column names; JSON lines: an {"mpsim": ...} line)
 *    and one block per point: a row per path and a "total" row.  OPTIONS
 *    are the command's options less those that say where or how it runs
 *    (--output, -j, --list-runs, --point), normalised to --key=value and
 *    shell-quoted: the first line is the sweep's identity, and a command
 *    to rerun it.  It ends with the inputs' hashes (lib/inputs.h: the
 *    binary, every file any point reads), a shell comment in CSV; the
 *    total row that ends a block carries the FNV-1a 64 of the block's
 *    bytes before it.
 *
 * 4. Crash safety.  The parent process alone writes the file, and holds
 *    an exclusive flock() on it while it does: the lock every mpsim
 *    writer takes before it replaces a file (lib/safe-file.h), so no
 *    run or merge renames its own over it.  What takes no lock (mv, rm)
 *    is seen when the next point is written and before the sweep ends:
 *    the path no longer names the file, status 1.  A finished point's
 *    block goes to the end of the file in one write(), then fsync(): a crash
 *    (Ctrl-C, SIGKILL, power loss) can tear only the block being written.
 *    At every moment the file is the head followed by complete blocks in
 *    finishing order, perhaps with one torn block at its end.  When every
 *    point is present and they are out of order (-j > 1), the sorted file
 *    is written beside it (safe_create(): FILE.tmp.XXXXXX), synced and
 *    rename()d over it, so a reader sees either the unsorted or the
 *    sorted file, both valid.
 *
 * 5. Resume.  Running the same command again reads the file back
 *    (sweep_scan): the head must be this sweep's, byte for byte (else the
 *    file is refused, naming the version, sweep or input that differs);
 *    each block must match its point's expected rows (options, path
 *    names, number format); the first bytes that are not a complete block
 *    are a torn tail and are cut off; a complete block whose checksum
 *    does not match is refused (an edit, not a crash, makes one).  Only the missing points run.  A point is
 *    never written twice (it is either complete in the file, and skipped,
 *    or absent) nor half-written (torn tails are dropped).
 *
 * 6. Workers.  -j N forked processes take points one at a time from the
 *    parent over pipes (sweep-pool.c); finishing order does not matter
 *    because of 2 and 4, so the final file is the same for every N.
 *
 * 7. Beyond one machine.  --list-runs prints one command per point: this
 *    command's OPTIONS plus --point=K --output=DIR/point-K.csv.  Each is
 *    the same sweep restricted to point K, so its file has the same head
 *    and the same block as a local sweep; `mpsim merge` (merge.c) checks
 *    the heads agree and writes the blocks in point order, which is the
 *    local sweep's file byte for byte.  --slurm (sweep-slurm.c) writes a
 *    batch script whose Slurm array tasks each run a share of the points
 *    into one file, resumed like any sweep's, and merges them the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

/* ---- progress on a terminal ---- */

struct progress {
	bool on;		/* stderr is a terminal */
	uint64_t done;		/* points present, in total */
	uint64_t total;		/* points this command runs */
	uint64_t at_start;	/* present before this run began */
	struct timespec t0;
};

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void progress_show(const struct progress *p)
{
	double dt = seconds_since(&p->t0), rate;
	uint64_t left;
	char line[96], eta[32] = "?";

	if (!p->on)
		return;
	rate = dt > 0 ? (double)(p->done - p->at_start) / dt : 0;
	if (rate > 0) {
		left = (uint64_t)((double)(p->total - p->done) / rate + 0.5);
		snprintf(eta, sizeof(eta), "%llu:%02llu:%02llu",
			 (unsigned long long)(left / 3600),
			 (unsigned long long)(left / 60 % 60),
			 (unsigned long long)(left % 60));
	}
	snprintf(line, sizeof(line), "mpsim sweep: %llu/%llu points, %.2f "
		 "points/s, %s left", (unsigned long long)p->done,
		 (unsigned long long)p->total, rate, eta);
	fprintf(stderr, "\r%-72s", line);
	fflush(stderr);
}

/* ---- running ---- */

struct run_ctx {
	const struct sweep *sw;
	struct sweep_out *so;
	struct progress pg;
};

static int on_done(void *ctx, uint64_t k, const char *blk, size_t len)
{
	struct run_ctx *c = ctx;
	char err[ERR_MAX];

	if (sweep_out_add(c->so, c->sw, k, blk, len, err)) {
		if (c->pg.on)
			fputc('\n', stderr);
		mpsim_error("%s", err);
		return -1;
	}
	c->pg.done++;
	progress_show(&c->pg);
	return 0;
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

static int run(const struct sweep *sw)
{
	struct run_ctx c = { .sw = sw };
	struct sweep_out so;
	char err[ERR_MAX];
	uint64_t *todo, n = 0, k;
	unsigned jobs = sw->jobs ? sw->jobs : online_cpus();
	double ios = 0;
	int rc, r;

	c.so = &so;
	r = sweep_out_open(&so, sw, err);
	if (r) {
		mpsim_error("%s", err);
		sweep_out_close(&so);
		return r == -EINVAL ? EXIT_BAD_INPUT : EXIT_FAILED;
	}
	todo = xcalloc(sw->nr_selected, sizeof(*todo));
	for (k = 0; k < sw->nr_points; k++)
		if (sw->selected[k] && !so.len[k]) {
			todo[n++] = k;
			ios += sw->pt[k].ios;
		}
	/* a file that holds points already: said, so that a rerun that
	 * runs nothing is not taken for one that ran */
	if (sw->output && !n)
		mpsim_warn("%s: all %llu points are in it already; nothing to "
			   "run (to run them again, move it away or give another "
			   "--output)", sw->output,
			   (unsigned long long)sw->nr_selected);
	else if (sw->output && so.present)
		mpsim_warn("%s: %llu of %llu points are in it already; running "
			   "the other %llu", sw->output,
			   (unsigned long long)so.present,
			   (unsigned long long)sw->nr_selected,
			   (unsigned long long)n);
	run_size_note_sweep(ios, n < jobs ? (unsigned)n : jobs);
	c.pg.on = n && isatty(STDERR_FILENO);
	c.pg.total = sw->nr_selected;
	c.pg.done = c.pg.at_start = so.present;
	clock_gettime(CLOCK_MONOTONIC, &c.pg.t0);
	progress_show(&c.pg);
	rc = sweep_pool(sw, todo, n, jobs, so.fd, on_done, &c);
	if (c.pg.on)
		fputc('\n', stderr);
	if (rc == EXIT_OK && sweep_out_finish(&so, sw, err)) {
		mpsim_error("%s", err);
		rc = EXIT_FAILED;
	}
	free(todo);
	sweep_out_close(&so);
	return rc;
}

/* ---- --list-runs ---- */

/*
 * The program the listed commands call: "mpsim" when this one was found
 * on PATH, else this binary's absolute path (./mpsim from a checkout),
 * so that each command works from wherever it is run, PATH or not.
 */
static char *runs_program(void)
{
	char *abs, *q = NULL;
	size_t ql = 0;

	if (!mpsim_argv0 || !strchr(mpsim_argv0, '/'))
		return xstrdup("mpsim");
	abs = realpath(mpsim_argv0, NULL);
	shell_quote(&q, &ql, abs ? abs : mpsim_argv0);
	free(abs);
	return q;
}

static int list_runs(const struct sweep *sw)
{
	char *prog = runs_program();
	const char *ext = sw->format == FMT_CSV ? "csv" : "json";
	char *dir = sweep_runs_dir(sw), *out;
	size_t n = strlen(dir) + 64;
	unsigned width = 1;
	uint64_t k, m;
	int rc;

	/* point-007.csv: the files list in point order */
	for (m = sw->nr_points - 1; m >= 10; m /= 10)
		width++;
	out = xmalloc(n);
	for (k = 0; k < sw->nr_points; k++) {
		char *q = NULL;
		size_t ql = 0;

		if (!sw->selected[k])
			continue;
		snprintf(out, n, "--output=%s/point-%0*llu.%s", dir, (int)width,
			 (unsigned long long)k, ext);
		shell_quote(&q, &ql, out);
		printf("%s sweep%s%s --point=%llu %s\n", prog,
		       *sw->cmdline ? " " : "", sw->cmdline,
		       (unsigned long long)k, q);
		free(q);
	}
	free(out);
	free(dir);
	free(prog);
	rc = fflush(stdout) || ferror(stdout) ? EXIT_FAILED : EXIT_OK;
	if (rc)
		perror("mpsim: writing the runs");
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	char err[ERR_MAX];
	struct sweep sw;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		help_sweep(stdout);
		return EXIT_OK;
	}
	cli_cmd = CMD_SWEEP;
	if (sweep_parse(&sw, argc, argv, err) || sweep_prepare(&sw, err)) {
		mpsim_error("%s", err);
		sweep_free(&sw);
		return EXIT_BAD_INPUT;
	}
	/* every point is accepted: its warnings now, not after the run */
	mpsim_warn_release(true);
	if (sw.slurm)
		rc = sweep_slurm(&sw);
	else
		rc = sw.list_runs ? list_runs(&sw) : run(&sw);
	sweep_free(&sw);
	return rc;
}
