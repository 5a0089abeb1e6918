/*
 * reference.c: the command line's own options (those no scenario holds:
 * --seed, --format, a sweep's --reps, timers' --wheel, ...), and the
 * reference printed from them and from the scenario's and fio's option
 * tables: each command's --help option list, `mpsim list options` and
 * the OPTIONS section of the man page, so that none can fall behind the
 * options the program takes.  Also what an unknown option was meant to
 * be, and which command an option belongs to.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input/suggest.h"

/* The parts of the reference, in the order they are printed.  ORDER:
 * group_title[]. */
enum {
	G_GENERAL, G_MULTIPATH, G_PATH, G_JOB, G_SIDE, G_TRACE, G_COMPARE,
	G_SWEEP, G_MERGE, G_TIMERS, G_PUBLISHED, G_LIVE, G_OTHER, NR_GROUPS
};

static const char *const group_title[] = {	/* ORDER: G_* */
	"general (run, compare, sweep)",
	"multipath: [multipath] keys (run, compare, sweep)",
	"paths: [path NAME] keys, --path.NAME.KEY=VALUE sets one path's "
	"(run, compare, sweep)",
	"jobs: fio's options and names, applied to every job (run, compare, "
	"sweep)",
	"time series and histograms (run, compare)",
	"traces (run only)",
	"compare only",
	"sweep only",
	"merge",
	"timers",
	"published",
	"live",
	"other",
};

#define RCS	(CMD_RUN | CMD_COMPARE | CMD_SWEEP)

/* One option the command line takes itself. */
struct cli_opt {
	const char *name;	/* without dashes */
	const char *arg;	/* the value's form; "[...]": may be bare */
	unsigned cmds;		/* CMD_*: the commands that take it */
	unsigned group;		/* G_*: where the reference lists it */
	const char *help;	/* one line: what it does, units, default */
	/* the option walk's value and needs (tests/options.sh); NULL: not
	 * walked (another command's) */
	const char *walk, *with;
};

/* The walked options first, in the walk's order. */
static const struct cli_opt own[] = {
	{ "scenario", "FILE|NAME", RCS, G_GENERAL, "a scenario file (ini), or "
	  "a built-in scenario's name (default hst-bio-mpath; mpsim list "
	  "scenarios)", "dm-delay-sync", "" },
	{ "job", "FILE.fio", RCS, G_GENERAL, "the jobs of a fio job file "
	  "replace the scenario's", "tests/jobs/batch.fio", "" },
	{ "seed", "N", RCS, G_GENERAL, "random seed (default 1); the same "
	  "options and seed give the same output, byte for byte", "2", "" },
	{ "format", "table|csv|json|dmsetup", CMD_RUN | CMD_COMPARE, G_GENERAL,
	  "output format (default table); dmsetup: the device's status and "
	  "table lines (run only)", "json", "" },
	{ "columns", "LIST", CMD_COMPARE, G_COMPARE, "the columns: st, "
	  "hst_jiffies, hst_ktime, hst_jiffies_aligned, ql, rr, comma-"
	  "separated, or all (default the first three, ql and rr)", "st", "" },
	/* run only; they write beside the figures, by design never change
	 * them (tests/trace.sh) */
	{ "trace", "FILE", CMD_RUN, G_TRACE, "the decision trace: every "
	  "select_path, start_io and end_io", "-", "" },
	{ "trace-format", "json|text", CMD_RUN, G_TRACE, "the trace's format "
	  "(default json)", "-", "" },
	{ "trace-from", "DURATION", CMD_RUN, G_TRACE, "trace only from this "
	  "time after the run's start", "-", "" },
	{ "trace-until", "DURATION", CMD_RUN, G_TRACE, "trace only until this "
	  "time", "-", "" },
	{ "trace-count", "N", CMD_RUN, G_TRACE, "trace at most N I/Os", "-",
	  "" },
	{ "trace-max", "SIZE", CMD_RUN, G_TRACE, "no new I/O followed once a "
	  "trace passes SIZE (default 1g; 0: no bound)", "-", "" },
	{ "blktrace", "DIR", CMD_RUN, G_TRACE, "blktrace's files in DIR, for "
	  "blkparse and btt", "-", "" },
	{ "interval", "DURATION", RCS & ~CMD_SWEEP, G_SIDE, "per-path time "
	  "series in intervals of this length: to --series, or under each "
	  "path with --format=json", "10ms", "--format=json" },
	/* a side file each, stdout as it was */
	{ "series", "FILE", CMD_RUN | CMD_COMPARE, G_SIDE, "the time series "
	  "as long-form CSV (needs --interval)", "-", "" },
	{ "lat_hist", "FILE", CMD_RUN | CMD_COMPARE, G_SIDE, "the latency "
	  "histograms as long-form CSV, for CDF figures", "-", "" },
	{ "output-format", "normal|json|json+|terse", RCS, G_GENERAL,
	  "fio's own formats, comma-separated (run): json with jobs[] and "
	  "disk_util[] per path, json+ with latency bins, terse; normal is "
	  "--format=table", "json", "" },
	{ "minimal", "[0|1]", CMD_RUN, G_GENERAL, "fio's name: "
	  "--output-format=terse", "1", "" },
	{ "terse-version", "2|3|4|5", CMD_RUN, G_GENERAL, "the version of "
	  "fio's terse lines (default 3)", "5", "--minimal --numjobs=2" },
	{ "name", "NAME", RCS, G_GENERAL, "start a job, as fio's command line "
	  "does; the jobs replace the scenario's", "w", "" },
	/* the terminal's status line only: never the output */
	{ "eta-interval", "DURATION", CMD_RUN | CMD_COMPARE, G_GENERAL,
	  "how often fio's status line is rewritten on a terminal (default "
	  "500ms); it shows after two intervals", "-", "" },
	/* where the output goes, not what it says */
	{ "output", "FILE", RCS, G_GENERAL, "write the output to FILE, whole "
	  "or not at all (default stdout)", "-", "" },

	{ "format", "csv|json", CMD_SWEEP, G_SWEEP, "the result file's format "
	  "(default csv)", NULL, NULL },
	{ "reps", "R", CMD_SWEEP, G_SWEEP, "replications per point (default "
	  "1; 2 or more give 95% confidence intervals)", NULL, NULL },
	{ "j", "N", CMD_SWEEP, G_SWEEP, "worker processes, written -j N "
	  "(default: the number of CPUs)", NULL, NULL },
	{ "jobs", "N", CMD_SWEEP, G_SWEEP, "the same as -j", NULL, NULL },
	{ "point", "LIST", CMD_SWEEP, G_SWEEP, "run only these point numbers "
	  "(from 0)", NULL, NULL },
	{ "list-runs", "[DIR]", CMD_SWEEP, G_SWEEP, "print one command per "
	  "point, writing DIR/point-K.csv (default: the output's name with "
	  ".points); join them with mpsim merge", NULL, NULL },
	{ "slurm", "[TASKS]", CMD_SWEEP, G_SWEEP, "print a batch script that "
	  "runs the sweep as a Slurm job array of TASKS tasks (default one "
	  "per point, at most 1000)", NULL, NULL },
	{ "output", "FILE", CMD_MERGE, G_MERGE, "the sweep's result file the "
	  "points' files are joined into", NULL, NULL },
	{ "period", "DURATION", CMD_TIMERS, G_TIMERS, "the timer's period "
	  "(default 20s)", NULL, NULL },
	{ "runtime", "DURATION", CMD_TIMERS, G_TIMERS, "simulated time "
	  "(default 600s)", NULL, NULL },
	{ "hz", "100|250|300|1000", CMD_TIMERS, G_TIMERS, "the kernel's HZ "
	  "(default 250)", NULL, NULL },
	{ "wheel", "classic|levels|all", CMD_TIMERS, G_TIMERS, "the timer "
	  "wheels to run (default all)", NULL, NULL },
	{ "format", "table|csv|json", CMD_TIMERS, G_TIMERS, "output format "
	  "(default table)", NULL, NULL },
	{ "cost-softirq", "T", CMD_TIMERS, G_TIMERS, "the cost model: one "
	  "softirq entry (T: 7ns, 11.6us)", NULL, NULL },
	{ "cost-iteration", "T", CMD_TIMERS, G_TIMERS, "the cost model: one "
	  "catch-up loop iteration", NULL, NULL },
	{ "cost-splice", "T", CMD_TIMERS, G_TIMERS, "the cost model: one list "
	  "splice", NULL, NULL },
	{ "cost-cascade", "T", CMD_TIMERS, G_TIMERS, "the cost model: one "
	  "cascade", NULL, NULL },
	{ "mail", "[0|1]", CMD_TIMERS, G_TIMERS, "the figures per softirq for "
	  "HZ 100, 250 and 1000 beside the mail's", NULL, NULL },
	{ "seed", "N", CMD_PUBLISHED, G_PUBLISHED, "random seed (default 1)",
	  NULL, NULL },
	{ "sensitivity", NULL, CMD_PUBLISHED, G_PUBLISHED, "the largest "
	  "difference when one assumption of the model changes", NULL, NULL },
	{ "scenario", "FILE", CMD_LIVE, G_LIVE, "[multipath] table = ..., "
	  "[path NAME] sections and fio job sections (or --job)", NULL, NULL },
	{ "job", "FILE.fio", CMD_LIVE, G_LIVE, "fio's jobs, as mpsim --job "
	  "reads them", NULL, NULL },
	{ "selector-source", "FILE", CMD_LIVE, G_LIVE, "a kernel dm-ps-*.c, "
	  "built as a module for the running kernel and run by mpsim",
	  NULL, NULL },
	{ "repeats", "N", CMD_LIVE, G_LIVE, "kernel runs of the scenario "
	  "(default 3, 1-20)", NULL, NULL },
	{ "boots", "N", CMD_LIVE, G_LIVE, "boots of the kernel the runs are "
	  "spread over in turn (default 1, 1-20; make live-check: 3)",
	  NULL, NULL },
	{ "help", NULL, CMD_ALL, G_OTHER, "the help of mpsim, or of one "
	  "command (also -h, mpsim help COMMAND)", NULL, NULL },
	{ "version", NULL, CMD_NONE, G_OTHER, "print the version", NULL,
	  NULL },
};

static const char *const command_name[] = {	/* ORDER: CMD_* bits */
	"run", "compare", "sweep", "merge", "list", "bench", "timers",
	"published", "live",
};
_Static_assert((1U << ARRAY_SIZE(command_name)) - 1 == CMD_ALL,
	       "a name for each command bit of CMD_ALL");

/* ---- every option, in one list ---- */

struct ref {
	char *name;
	const char *arg, *help, *walk, *with;
	unsigned cmds, group;
};

static struct ref *refs;
static size_t nr_refs;

static void add_ref(const char *name, const char *arg, const char *help,
		    const char *walk, const char *with, unsigned cmds,
		    unsigned group)
{
	struct ref *r;

	refs = xrealloc(refs, (nr_refs + 1) * sizeof(*refs));
	r = &refs[nr_refs++];
	r->name = xstrdup(name);
	r->arg = arg;
	r->help = help;
	r->walk = walk;
	r->with = with;
	r->cmds = cmds;
	r->group = group;
}

static void add_doc(const struct opt_doc *d, void *ctx)
{
	/* each compare column sets these itself (compare_refuse) */
	static const char *const per_column[] = { "selector", "clock",
						  "kernel" };
	unsigned g = d->sect == 1 ? G_MULTIPATH : d->sect == 2 ? G_PATH :
		     G_JOB, cmds = RCS, i;

	for (i = 0; i < ARRAY_SIZE(per_column); i++)
		if (!strcmp(d->name, per_column[i]))
			cmds &= ~(unsigned)CMD_COMPARE;
	add_ref(d->name, d->arg, d->help, d->walk, d->with, cmds, g);
}

/* Built once: the tables are constant. */
static void load_refs(void)
{
	size_t i;

	if (refs)
		return;
	for (i = 0; i < ARRAY_SIZE(own) && own[i].walk; i++)
		add_ref(own[i].name, own[i].arg, own[i].help, own[i].walk,
			own[i].with, own[i].cmds, own[i].group);
	scenario_options_doc(add_doc, NULL);
	for (; i < ARRAY_SIZE(own); i++)
		add_ref(own[i].name, own[i].arg, own[i].help, NULL, NULL,
			own[i].cmds, own[i].group);
}

/* ---- the forms the reference is printed in ---- */

/* Whether the value may be left out: its form is in brackets, "[0|1]". */
static bool optional(const char *arg)
{
	size_t n = arg ? strlen(arg) : 0;

	return n > 2 && arg[0] == '[' && arg[n - 1] == ']';
}

#define HELP_COL	26	/* where a help line starts */
#define WIDTH		79

/* "--name=ARG", "--name[=ARG]" (a value in brackets may be left out),
 * "-j N", "--name". */
static void option_form(const struct ref *r, char *buf, size_t size)
{
	const char *dash = strlen(r->name) == 1 ? "-" : "--";

	if (!r->arg)
		snprintf(buf, size, "%s%s", dash, r->name);
	else if (strlen(r->name) == 1)
		snprintf(buf, size, "-%s %s", r->name, r->arg);
	else if (optional(r->arg))
		snprintf(buf, size, "--%s[=%.*s]", r->name,
			 (int)strlen(r->arg) - 2, r->arg + 1);
	else
		snprintf(buf, size, "--%s=%s", r->name, r->arg);
}

/* text from column col, wrapped at WIDTH, continuation lines at col. */
static void wrapped(FILE *f, const char *text, int col)
{
	int at = col;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (at > col && at + 1 + (int)n > WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fwrite(text, 1, n, f);
		at += (int)n;
		text += n;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

static void print_row(FILE *f, const struct ref *r)
{
	char form[160];

	option_form(r, form, sizeof(form));
	if (2 + (int)strlen(form) + 2 > HELP_COL)
		fprintf(f, "  %s\n%*s", form, HELP_COL, "");
	else
		fprintf(f, "  %-*s", HELP_COL - 2, form);
	wrapped(f, r->help, HELP_COL);
}

unsigned cli_cmd;

void ref_options(FILE *f, unsigned cmds, unsigned groups)
{
	unsigned g;
	size_t i;

	load_refs();
	for (g = 0; g < NR_GROUPS; g++) {
		bool head = false;

		for (i = 0; i < nr_refs; i++) {
			if (refs[i].group != g || !(refs[i].cmds & cmds) ||
			    !(groups & 1U << g))
				continue;
			if (!head)
				fprintf(f, "\n%s:\n", group_title[g]);
			head = true;
			print_row(f, &refs[i]);
		}
	}
}

/* Text for mdoc: backslashes escaped, a line never starting with a
 * control character. */
static void mdoc_text(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++)
		if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
}

/* One argument of a macro line: quoted when it holds a blank. */
static void mdoc_arg(FILE *f, const char *s)
{
	bool q = strpbrk(s, " \t") != NULL;

	fputs(q ? "\"" : "", f);
	for (; *s; s++)
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '"')
			fputs("\\(dq", f);
		else
			fputc(*s, f);
	fputs(q ? "\"" : "", f);
}

/* ".It Fl \-name Ns = Ns Ar ARG" and the other forms of option_form(). */
static void mdoc_item(FILE *f, const struct ref *r)
{
	fputs(".It Fl ", f);
	if (strlen(r->name) == 1) {
		fputs(r->name, f);
	} else {
		fputs("\\-", f);
		mdoc_arg(f, r->name);
	}
	if (r->arg && strlen(r->name) == 1) {
		fputs(" Ar ", f);
		mdoc_arg(f, r->arg);
	} else if (optional(r->arg)) {
		char a[80];

		snprintf(a, sizeof(a), "%.*s", (int)strlen(r->arg) - 2,
			 r->arg + 1);
		fputs(" Ns Oo = Ns Ar ", f);
		mdoc_arg(f, a);
		fputs(" Oc", f);
	} else if (r->arg) {
		fputs(" Ns = Ns Ar ", f);
		mdoc_arg(f, r->arg);
	}
	fputc('\n', f);
}

/* The man page's OPTIONS section (mdoc), from the tables: make man
 * puts it into docs/mpsim.1, and tests/help.sh checks it is there. */
static void man_options(FILE *f)
{
	unsigned g;
	size_t i;

	fputs(".\\\" OPTIONS: generated by mpsim list options --format=man"
	      " (make man)\n.Sh OPTIONS\n"
	      "Options are written\n.Fl \\-key Ns = Ns Ar value\nor\n"
	      ".Fl \\-key Ar value .\n"
	      "Sizes take k, m, g, t (powers of 1024); durations take ns, "
	      "us, ms, s, m, h.\n", f);
	for (g = 0; g < NR_GROUPS; g++) {
		bool head = false;

		for (i = 0; i < nr_refs; i++) {
			if (refs[i].group != g)
				continue;
			if (!head) {
				fputs(".Ss ", f);
				mdoc_text(f, group_title[g]);
				fputs("\n.Bl -tag -width Ds\n", f);
			}
			head = true;
			mdoc_item(f, &refs[i]);
			mdoc_text(f, refs[i].help);
			fputc('\n', f);
		}
		if (head)
			fputs(".El\n", f);
	}
	fputs(".\\\" end of the generated OPTIONS\n", f);
}

int ref_list_options(const char *format)
{
	size_t i;

	load_refs();
	if (!format || !strcmp(format, "table")) {
		fputs("Every option, by the commands that take it (mpsim "
		      "COMMAND --help: one command's).\n", stdout);
		ref_options(stdout, CMD_ALL | CMD_NONE, REF_ALL);
		return EXIT_OK;
	}
	if (!strcmp(format, "walk")) {
		/* the option walk's: name, value, the options it needs */
		for (i = 0; i < nr_refs; i++)
			if (refs[i].walk)
				printf("%s\t%s\t%s\n", refs[i].name,
				       refs[i].walk, refs[i].with);
		return EXIT_OK;
	}
	if (!strcmp(format, "man")) {
		man_options(stdout);
		return EXIT_OK;
	}
	mpsim_error("list options: --format: '%.40s' is not table, walk or "
		    "man", format);
	return EXIT_BAD_INPUT;
}

/* ---- what a wrong option was meant to be ---- */

/* The commands (names, ", "-separated) of the bits cmds. */
static void command_names(unsigned cmds, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(command_name); i++)
		if (cmds & 1U << i)
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0,
					      "%s%s", n ? ", " : "",
					      command_name[i]);
}

int ref_unknown_option(const char *name, unsigned cmd, char *err)
{
	const char *best = NULL, *key = name;
	unsigned best_d = ~0U, other = 0, mine = 0;
	char owners[120];
	size_t i;

	load_refs();
	/* --path.sdd.slotz: the key after the path's name */
	if (!strncmp(name, "path.", 5) && strrchr(name, '.') > name + 5)
		key = strrchr(name, '.') + 1;
	for (i = 0; i < nr_refs; i++) {
		const char *n = refs[i].name;

		if (key != name && strncmp(n, "path.NAME.", 10))
			continue;
		if (key != name)
			n += 10;
		if (!strcmp(n, key))
			*(refs[i].cmds & cmd ? &mine : &other) |= refs[i].cmds;
		if (refs[i].cmds & cmd)
			suggest_try(key, n, &best, &best_d);
	}
	/* --version is mpsim's own, before any command (CMD_NONE names
	 * no command: it has no entry in command_name) */
	if (other == CMD_NONE && !mine)
		return input_error(err, "--%.40s takes no command (mpsim "
				   "--%.40s)", name, name);
	if (other && !mine) {
		command_names(other, owners, sizeof(owners));
		return input_error(err, "--%.40s belongs to %s (mpsim %s "
				   "--help)", name, owners,
				   command_name[__builtin_ctz(other & CMD_ALL)]);
	}
	/* another command's, as --colums for sweep */
	if (!best) {
		for (i = 0; i < nr_refs; i++)
			if (key == name)
				suggest_try(key, refs[i].name, &best, &best_d);
		for (i = 0; best && i < nr_refs; i++)
			if (!strcmp(refs[i].name, best))
				other |= refs[i].cmds;
		if (best) {
			command_names(other, owners, sizeof(owners));
			return input_error(err, "unknown option --%.60s (did "
					   "you mean --%s of %s?)", name, best,
					   owners);
		}
	}
	if (best && key != name)
		return input_error(err, "unknown option --%.60s (did you mean "
				   "--%.*s%s?)", name, (int)(key - name), name,
				   best);
	if (best)
		return input_error(err, "unknown option --%.60s (did you mean "
				   "--%s?)", name, best);
	return input_error(err, "unknown option --%.60s (mpsim --help lists "
			   "them)", name);
}

const char *ref_closest(const char *name, unsigned cmd, char *buf,
			size_t size)
{
	const char *best = NULL;
	unsigned d = ~0U;
	size_t i;

	load_refs();
	for (i = 0; i < nr_refs; i++)
		if (refs[i].cmds & cmd)
			suggest_try(name, refs[i].name, &best, &d);
	if (!best) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, size, " (did you mean --%s?)", best);
	return buf;
}
