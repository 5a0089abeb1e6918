/*
 * cli.h: the commands of the mpsim binary and the option handling they
 * share.  mpsim.c holds only main(); each command lives in its own file
 * so tests can call it directly.
 *
 * Exit status: 0 success, 1 a run could not complete (a check failed, an
 * output could not be written), 2 bad input.
 */
#ifndef MPSIM_CLI_H
#define MPSIM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "input/scenario.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_FAILED = 1,
	EXIT_BAD_INPUT = 2,
};

/* What the options of a run or comparison resolve to. */
struct run_opts {
	struct scenario sc;
	char scenario_name[256];	/* built-in name or file path */
	uint64_t seed;
	enum out_format format;
	char *options;			/* the options as given, for provenance */
	const char *output;		/* --output=FILE, or NULL: stdout */
	unsigned fio_out;		/* fio's formats (FIO_OUT_*) of
					   --output-format or --minimal; 0:
					   format says */
	unsigned terse_version;		/* --terse-version, fio's 3 */
};

/*
 * Parse `--key=value` / `--key value` words: --scenario first (wherever
 * it stands), then every other option in order, as scenario overrides.
 * Returns 0 or -EINVAL with err set ("--iodepth: ...").  extra_ok lists
 * option names (without dashes) a command handles itself; their values
 * are left for it in argv order and skipped here (NULL for none).
 */
int cli_parse_run(int argc, char **argv, struct run_opts *o,
		  const char *const *extra_ok, char *err);
void cli_free_run(struct run_opts *o);
/* ---- cli/cli-checks.c ---- */
/* Whether argv (argv[0] the command) gives one of the NULL-ended names. */
bool cli_has(int argc, char **argv, const char *const *names);
/* --read_iolog on the command line drops the scenario's ramp_time and
 * runtime, unless given too or the jobs come from a job file. */
void replay_window(int argc, char **argv, struct scenario *sc,
		   bool job_file);
/* compare --selector, --clock, --kernel, a trace: -EINVAL with err
 * saying why. */
int compare_refuse(int argc, char **argv, char *err);
/* cmd (compare, sweep) runs many: a trace, and with series a series or
 * latency histogram, follows one run.  -EINVAL with err saying so. */
int one_run_refuse(const char *cmd, bool series, int argc, char **argv,
		   char *err);
/* compare's warnings: each column's (run_warn), and the HST columns of
 * request mode being one run. */
void compare_warn(const struct scenario *sc, const struct compare_result *cr);
/* compare: the CPU options given, and no column that reads the CPU. */
void compare_warn_cpus(int argc, char **argv, const struct compare_result *cr);
/* Warn about options of the command line that the run's scenario leaves
 * with nothing to do (--clock in request mode or for a selector that
 * ignores the bio stamp, --hz and --uptime when nothing reads jiffies).
 * run and sweep; compare's columns read jiffies and set the clock. */
void cli_warn_inert(int argc, char **argv, const struct scenario *sc);
/* The part of it that holds for every selector (compare's too). */
void cli_warn_unread(int argc, char **argv, const struct scenario *sc,
		     bool hst);

/* cli/run-size.c: an upper estimate of the I/Os sc's run simulates (0
 * when it cannot tell: a replay, say, whose log bounds it). */
double run_estimate_ios(const struct scenario *sc);
/* Before `runs` runs of sc (with trace tc, or NULL): one line on stderr
 * when they would take more than half a minute at mpsim's rate, or a
 * trace would pass --trace-max, once the device is known to build
 * (held warnings are shown then).  0, or -EINVAL with err set. */
struct trace_conf;
int run_size_note(const struct scenario *sc, unsigned runs,
		  const struct trace_conf *tc, char *err);
/* The same for a sweep's points, ios in all, on workers processes. */
void run_size_note_sweep(double ios, unsigned workers);
/* The number of columns compare --columns=COLUMNS runs (1 if refused). */
unsigned compare_nr_cols(const struct scenario *sc, const char *columns);

/* Split "--key=value" or "--key" "value"; returns the number of words
 * used (1 or 2), or -EINVAL. */
int cli_option(int argc, char **argv, int i, const char **key, size_t *klen,
	       const char **value, char *err);
/* Whether the key cli_option() split off (klen bytes) is name. */
bool cli_key_is(const char *key, size_t klen, const char *name);
/* 0, or -EINVAL with err set when val (of the option key, klen bytes)
 * holds a line break. */
int cli_one_line(const char *key, size_t klen, const char *val, char *err);

/* --seed's value, the same for every command: a whole number from 0 to
 * 2^64-1 (with the count suffixes of fio, 1k = 1024).  0, or -EINVAL
 * with err "--seed: ..." (one past 2^64-1 is refused, not capped). */
int cli_parse_seed(const char *val, uint64_t *seed, char *err);

/* ---- cli/fio-out.c: fio's formats and logs of a run ---- */
/* --output-format=LIST (fio's words, comma-separated) as FIO_OUT_* bits;
 * 0 or -EINVAL with err set. */
int fio_out_parse(const char *v, unsigned *formats, char *err);
/* Whether sc's jobs ask for a fio log (write_*_log=). */
bool fio_logs_wanted(const struct scenario *sc);
/* Before a run: every log file sc's jobs ask for may be written (0), or
 * -EINVAL with err naming the option and the file. */
int fio_logs_check(const struct scenario *sc, char *err);
/* Warnings of a run: fio options its output leaves with nothing to do
 * (percentile_list outside fio's formats, --terse-version, given, without
 * terse, log_avg_msec without a log), and logs cut at their limits. */
void fio_out_warn(const struct scenario *sc, unsigned fio_out,
		  bool terse_version, const struct run_result *r);
/* compare and sweep: the fio options of the jobs (a job file's) that
 * they leave with nothing to do, since they follow one run. */
void fio_out_warn_many(const struct scenario *sc, const char *cmd);

/* Write a finished in-memory output to stdout; returns an exit code. */
int cli_emit(char *buf, size_t len);
/* The same to the file path (NULL: stdout): written beside it and
 * renamed, so the file is whole or untouched.  Frees buf. */
int cli_emit_to(const char *path, char *buf, size_t len);

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* cli/published.c: the 2022 table beside mpsim's */
int cmd_published(int argc, char **argv);
int cmd_live(int argc, char **argv);
/* `mpsim timers ...` (cli/timers-cmd.c); argv[0] is "timers".  Returns
 * the exit status: 0, 1 if the classic variants ever disagree, 2 on bad
 * input. */
int cmd_timers(int argc, char **argv);

/* Help texts (help.c): mpsim's, and each command's, to f. */
void cli_usage(FILE *f);
void help_run(FILE *f);
void help_compare(FILE *f);
void help_sweep(FILE *f);
void help_merge(FILE *f);
void help_list(FILE *f);
void help_bench(FILE *f);
void help_timers(FILE *f);	/* in timers-cmd.c, beside its options */
void help_published(FILE *f);	/* in published.c */
void help_live(FILE *f);	/* in live.c */

/* ---- cli/reference.c: the reference printed from the option tables ---- */
enum {					/* ORDER: command_name[] */
	CMD_RUN = 1 << 0,
	CMD_COMPARE = 1 << 1,
	CMD_SWEEP = 1 << 2,
	CMD_MERGE = 1 << 3,
	CMD_LIST = 1 << 4,
	CMD_BENCH = 1 << 5,
	CMD_TIMERS = 1 << 6,
	CMD_PUBLISHED = 1 << 7,
	CMD_LIVE = 1 << 8,
	CMD_ALL = (1 << 9) - 1,
	CMD_NONE = 1 << 9,		/* mpsim with no command: --version */
};
/* The command whose options cli_parse_run() reads (CMD_RUN if unset),
 * for the errors that say where an option belongs. */
extern unsigned cli_cmd;
/* The options the commands cmds take, one line of help each, by part;
 * only the parts of the bits in groups (REF_* below). */
void ref_options(FILE *f, unsigned cmds, unsigned groups);
enum {
	REF_ALL = ~0U,
	/* general, compare's and sweep's own, and --help */
	REF_OWN = 1U << 0 | 1U << 4 | 1U << 6 | 1U << 7 | 1U << 12,
	/* another command's own (merge ... live) and --help */
	REF_OTHER = 0x1f00,
};
/* mpsim list options [--format=table|walk|man]; an exit status. */
int ref_list_options(const char *format);
/* An unknown option name (without dashes) of command cmd: err says which
 * command it belongs to, or what it was likely meant to be.  -EINVAL. */
int ref_unknown_option(const char *name, unsigned cmd, char *err);
/* " (did you mean --KEY?)" for the option of cmd closest to name, or
 * "" when none is close, in buf (size bytes). */
const char *ref_closest(const char *name, unsigned cmd, char *buf,
			size_t size);

/* argv[0] of the mpsim process, for commands that print commands
 * (sweep --list-runs); NULL when the commands are called from tests. */
extern const char *mpsim_argv0;

#endif
