/*
 * sweep.h: batch sweeps over lists of option values (`mpsim sweep`) and
 * the merge of their per-point files (`mpsim merge`).  How the pieces fit
 * (file format, resume, workers, runs beyond one machine) is written out
 * at the top of sweep/sweep.c.
 */
#ifndef MPSIM_SWEEP_H
#define MPSIM_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "report/report.h"
#include "lib/inputs.h"
#include "lib/safe-file.h"

/* Most points one sweep may have (the product of its options' values). */
#define SWEEP_MAX_POINTS	100000
/* The largest result file read back (merge, resuming a sweep): 1 GiB,
 * some 10 KiB for each of SWEEP_MAX_POINTS points. */
#define SWEEP_FILE_MAX		((size_t)1 << 30)

int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* ---- the value grammar (sweep/sweep-grammar.c) ---- */

/*
 * Expand one option's value into its items.  The value is a comma list;
 * on a numeric key each item may also be a range of whole numbers with an
 * optional unit common to its ends: A..B (step 1), A..B+S (arithmetic, S
 * in the same unit), A..B*F (geometric, F >= 2): "1..128*2", "4k..64k*2",
 * "10ms..50ms+10ms".  On other keys ".." is plain text (--scenario=../x).
 * A NULL value (a bare --flag) is one NULL item.
 *
 * Returns the number of items (>= 1) with *items allocated (free with
 * sweep_values_free), or -EINVAL with err naming --key.
 */
int sweep_values(const char *key, const char *value, bool numeric,
		 char ***items, char *err);
void sweep_values_free(char **items, unsigned n);

/* True for the run options whose values are numbers (ranges allowed). */
bool sweep_key_numeric(const char *key);

/* ---- confidence intervals (sweep/ci.c) ---- */

/*
 * Mean of x[0..n) and the half-width of its 95% confidence interval from
 * Student's t: t(0.975, n-1) * sd / sqrt(n), sd with n-1 in the
 * denominator.  Returns n: with n == 0 neither is set, with n == 1 only
 * the mean.
 */
size_t ci95(const double *x, size_t n, double *mean, double *half);

/* ---- the sweep and its points (sweep/sweep-setup.c) ---- */

/* The value of an option a point does not give: a selector that has
 * values of its own for an option the others take from the scenario
 * (--selector=st,hst:clock=jiffies,ktime gives st no --clock). */
extern char sweep_unset[];

/* One run option of the sweep command line and its values. */
struct sweep_opt {
	char *key;		/* option name, without dashes */
	char **vals;		/* its items, in order; NULL item = bare flag,
				   sweep_unset = not given: the values for
				   all, then those only selectors' own lists
				   add */
	unsigned nr_vals;
	unsigned nr_all;	/* vals[0..nr_all): the values for every
				   selector without a list of its own */
	uint8_t *own;		/* NULL, or per selector s (the --selector
				   option's value s) and value v,
				   own[s * nr_vals + v]: 1 when s takes v */
	bool column;		/* swept and not a fixed column: a column of
				   its own, after rw */
};

/* A selector's own values of an option, as --selector gave them
 * (--selector=st,hst:clock=jiffies,ktime: hst, clock, "jiffies,ktime"). */
struct sweep_axis {
	unsigned sel;		/* the selector: its value index */
	char *key;		/* the option */
	char *list;		/* its values, a sweep list */
};

/* Path names of a point's scenario, shared by the points that agree. */
struct sweep_paths {
	unsigned nr;
	char (*name)[32];	/* table order, as run_result's names */
};

/* What a point's rows must look like, for checking files. */
struct sweep_point {
	char *prefix;		/* row text before the path field (NULL when
				   this command does not run the point) */
	const struct sweep_paths *paths;
	double ios;		/* I/Os its replications simulate, about
				   (run_estimate_ios) */
};

struct sweep {
	struct sweep_opt *opt;		/* run options, command-line order */
	unsigned nr_opt;
	uint64_t nr_points;		/* product of the options' item counts,
					   less the combinations a selector's
					   own lists leave out */
	uint64_t *combo;		/* NULL, or per point its combination
					   (the product's mixed-radix number),
					   when selectors have lists of their
					   own */
	int sel_opt;			/* the --selector option, or -1 */
	struct sweep_axis *axis;	/* the selectors' own lists */
	unsigned nr_axis;
	uint64_t seed;			/* --seed, default 1 */
	unsigned reps;			/* --reps, default 1 */
	enum out_format format;		/* FMT_CSV (default) or FMT_JSON */
	char *output;			/* --output; NULL writes stdout */
	unsigned jobs;			/* -j; 0 until resolved */
	bool list_runs;			/* --list-runs[=DIR] */
	char *runs_dir;			/* its DIR (NULL: derived from output) */
	bool slurm;			/* --slurm[=TASKS]: write a batch script */
	unsigned slurm_tasks;		/* its TASKS (0: the default) */
	uint8_t *selected;		/* per point: this command runs it */
	uint64_t nr_selected;
	char *cmdline;			/* the options that decide the results,
					   normalised and shell-quoted */
	char *head;			/* what a result file starts with */
	size_t head_len;
	struct input_file *in;		/* the inputs its first line hashes:
					   "mpsim", then the files the points
					   read (lib/inputs.h) */
	size_t nr_in;
	struct sweep_point *pt;		/* per point, after sweep_prepare() */
	struct sweep_paths **plist;	/* distinct path lists */
	unsigned nr_plist;
};

/*
 * Parse the words of `mpsim sweep` (argv[0] is the command's name).
 * Returns 0, or -EINVAL with err naming the option.
 */
int sweep_parse(struct sweep *sw, int argc, char **argv, char *err);

/* Resolve every selected point through cli_parse_run (the validation of a
 * single run, plus the selector's own argument checks), and build the
 * rows' prefixes and the file's head.  -EINVAL names the point. */
int sweep_prepare(struct sweep *sw, char *err);

void sweep_free(struct sweep *sw);

/* ---- points (sweep/sweep-points.c) ---- */

/* "--key=value", or "--key" for a bare flag (value NULL); malloc'd. */
char *sweep_option_word(const char *key, const char *value);

/* The value option i takes at point k (the last option varies fastest);
 * sweep_unset when the point does not give it. */
const char *sweep_point_value(const struct sweep *sw, unsigned i, uint64_t k);

/*
 * Split a sweep's --selector value into the selectors (*names, a list
 * as sweep_values() makes) and their own lists (*axes): each item is
 * NAME or NAME:KEY=LIST[:KEY=LIST...], and a LIST runs over the commas
 * that follow it up to the next item that names a selector.  Returns
 * the number of selectors, or -EINVAL with err naming --selector.
 */
int sweep_selector_values(const char *value, char ***names,
			  struct sweep_axis **axes, unsigned *nr_axes,
			  char *err);

/* The run options of point k (a scenario ready to run). */
int sweep_point_opts(const struct sweep *sw, uint64_t k, struct run_opts *o,
		     char *err);

/* The seed of replication r: --seed itself for r = 0 (so a point with one
 * replication is `mpsim run` with the same options), a mix of the seed and
 * r after that.  The same at every point: common random numbers. */
uint64_t sweep_rep_seed(uint64_t seed, unsigned r);

/* "sweep point 3 (--iodepth=4 --clock=ktime)" for messages: the point
 * and the swept options' values there. */
void sweep_point_desc(const struct sweep *sw, uint64_t k, char *buf,
		      size_t size);

/* ---- shell words (sweep/shell-words.c) ---- */

/* Append n bytes of p to the string *s of length *len (it grows). */
void words_append(char **s, size_t *len, const char *p, size_t n);
/* Shell-quote one word (appended to *s, which grows). */
void shell_quote(char **s, size_t *len, const char *word);
/* Split a line of shell_quote()d words; returns the count, with *words
 * allocated (free each and the array), or -EINVAL. */
int shell_split(const char *line, char ***words);

/* ---- rows: the output contract (sweep/sweep-rows.c) ---- */

/* The column header line (CSV) or the meta line (JSON) and the comment
 * line: what every file of this sweep starts with. */
void sweep_head(struct sweep *sw);

/* The row prefix of point k, from its resolved options. */
char *sweep_row_prefix(const struct sweep *sw, uint64_t k,
		       const struct run_opts *o);

/* What a point's runs left out, for the sweep's warnings. */
#define SWEEP_NOTE_EMPTY	1u	/* a run measured no I/O */
#define SWEEP_NOTE_LATE_EVENTS	2u	/* scripted events never ran */

/* Run point k (all replications); *blk gets its rows (malloc'd), *notes
 * the SWEEP_NOTE_* of its runs. */
int sweep_run_point(const struct sweep *sw, uint64_t k, char **blk,
		    size_t *len, uint32_t *notes, char *err);

/* Read the first line of a sweep file (either format): the version of
 * mpsim that wrote it and its options (*cmdline allocated), without the
 * inputs' hashes.  Returns 0, or -EINVAL when it is not a sweep file's
 * first line. */
int sweep_head_parse(const char *buf, size_t n, char *version, size_t vsize,
		     char **cmdline);

/* The inputs' hashes of a sweep file's first line: the count, with *in
 * allocated (free with sweep_inputs_free), or -EINVAL. */
long sweep_head_inputs(const char *buf, size_t n, struct input_file **in);
void sweep_inputs_free(struct input_file *in, size_t n);

/* Why a file's inputs (fin[0..nf)) are not sw's: "scenario x.ini has
 * changed since ..." into why (ERR_MAX); false when they are the same. */
bool sweep_inputs_differ(const struct sweep *sw, const struct input_file *fin,
			 size_t nf, char *why);

/* A point's block as found in a file: bytes [off, off+len). */
struct sweep_block {
	uint64_t point;
	size_t off, len;
};

/*
 * Check a whole file's bytes against sw: its head, then complete blocks of
 * selected points.  Stops at the first bytes that are not a complete block
 * (a torn tail): *valid_end is where the kept content ends.  Returns the
 * number of blocks (*blocks allocated, in file order), or -EINVAL with err
 * when the file belongs to something else or holds a point twice or a
 * point this command does not run.
 */
long sweep_scan(const struct sweep *sw, const char *name, const char *buf,
		size_t n, struct sweep_block **blocks, size_t *valid_end,
		char *err);

/* ---- the output file (sweep/sweep-file.c) ---- */


struct sweep_out {
	int fd;			/* the output, locked; -1 writing stdout */
	char *path;
	uint64_t end;		/* bytes of valid content in the file */
	uint64_t *off;		/* per point: its block's offset (file or mem) */
	uint32_t *len;		/* per point: its block's length, 0 = missing */
	uint64_t present;	/* selected points done */
	bool in_order;		/* file = head + blocks in point order */
	uint64_t last;		/* highest point present */
	char *mem;		/* stdout: the blocks, in finishing order */
	size_t mem_len;
};

/* Open (create, lock, check, repair a torn tail of) sw->output, or set up
 * for stdout.  Returns 0, -EINVAL (err: not this sweep's file), -EBUSY
 * (err: another mpsim holds its lock) or -EIO (err: a system error);
 * sweep_out_close() it in every case. */
int sweep_out_open(struct sweep_out *so, const struct sweep *sw, char *err);
/* Record point k's block: one write() and an fsync() of the file;
 * -EIO (err) when its path no longer names that file. */
int sweep_out_add(struct sweep_out *so, const struct sweep *sw, uint64_t k,
		  const char *blk, size_t len, char *err);
/* Before the sweep ends: -EIO (err) when the path no longer names the
 * file it wrote (replaced or removed meanwhile); else, with every
 * selected point present, write the final file, sorted by point (a
 * temporary file renamed over it), or stdout. */
int sweep_out_finish(struct sweep_out *so, const struct sweep *sw, char *err);
void sweep_out_close(struct sweep_out *so);

/* Write head + the present blocks in point order into sf, an output
 * started by safe_create() for path, and commit it (or abort it on a
 * failure): blk[k]/len[k] per point (len 0: missing). */
int sweep_write_sorted(struct safe_file *sf, const char *path,
		       const struct sweep *sw, const char *const *blk,
		       const uint32_t *len, char *err);

/* Where the per-point (--list-runs) or per-task (--slurm) files go: DIR
 * of --list-runs=DIR, else the output's name with ".points" for its
 * extension (results/depth.csv -> results/depth.points). */
char *sweep_runs_dir(const struct sweep *sw);

/* ---- a Slurm job array (sweep/sweep-slurm.c) ---- */

/* `mpsim sweep ... --slurm[=TASKS]`: print the batch script that runs the
 * sweep as a Slurm job array and merges its tasks' files.  Returns an exit
 * code (EXIT_BAD_INPUT, with a message, for options it cannot honour). */
int sweep_slurm(const struct sweep *sw);

/* ---- workers (sweep/sweep-pool.c) ---- */

/* Called in the parent as each point finishes; non-zero stops the pool. */
typedef int (*sweep_done_fn)(void *ctx, uint64_t k, const char *blk,
			     size_t len);

/* Run the points todo[0..n) on up to `jobs` forked workers, which close
 * private_fd (the locked result file; -1 for none).  Returns an exit
 * code: EXIT_OK, EXIT_FAILED (a worker died, done() failed) or
 * EXIT_BAD_INPUT (a point was refused). */
int sweep_pool(const struct sweep *sw, const uint64_t *todo, uint64_t n,
	       unsigned jobs, int private_fd, sweep_done_fn done, void *ctx);

#endif
