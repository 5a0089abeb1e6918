/*
 * sweep-slurm.c: `mpsim sweep ... --slurm[=TASKS]`, the batch script that
 * runs a sweep as a Slurm job array.
 *
 * The script is a POSIX shell script with three modes:
 *
 *   sh FILE [SBATCH-OPTION...]   submit: the tasks not done yet as one job
 *                                array (sbatch --array), then the merge
 *                                (--dependency=afterany on the array)
 *   FILE task                    one array task (SLURM_ARRAY_TASK_ID)
 *   FILE merge                   mpsim merge of the tasks' files
 *
 * Task T runs the points T, T+TASKS, T+2*TASKS, ... (strided, so the
 * cheap and the dear points of a range spread over the tasks) as one
 * `mpsim sweep --point=LIST --output=DIR/task-T.EXT`: the same sweep, so
 * the same head, and its file resumes like any sweep's (sweep.c, notes 4
 * and 5).  A task that returns leaves DIR/task-T.done, which holds its
 * points; submit sends only the tasks without one (or with one from a
 * script that split the points otherwise), and a rerun task runs only
 * the points its file lacks.  The merge is `mpsim merge` (merge.c): the
 * local sweep's file, byte for byte, or a valid file and exit status 1
 * naming what is missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

/* Slurm's default MaxArraySize is 1001: array indices 0 to 1000. */
#define SLURM_DEFAULT_TASKS	1000

/* "0..48+16", "3,5", "7..9": points p[0..n) as --point takes them; runs of
 * three or more with a common step become ranges. */
static void put_points(FILE *f, const uint64_t *p, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		if (i)
			fputc(',', f);
		if (i + 2 < n && p[i + 1] - p[i] == p[i + 2] - p[i + 1]) {
			uint64_t step = p[i + 1] - p[i];

			for (j = i + 2; j + 1 < n && p[j + 1] - p[j] == step; j++)
				;
			fprintf(f, "%llu..%llu", (unsigned long long)p[i],
				(unsigned long long)p[j]);
			if (step > 1)
				fprintf(f, "+%llu", (unsigned long long)step);
			i = j + 1;
		} else {
			fprintf(f, "%llu", (unsigned long long)p[i++]);
		}
	}
}

/* "mpsim-depth" for results/depth.csv: a job name squeue shows. */
static char *job_name(const char *output)
{
	const char *b = strrchr(output, '/');
	char *name, *q;

	b = b ? b + 1 : output;
	name = xmalloc(strlen(b) + sizeof("mpsim-"));
	strcpy(name, "mpsim-");
	for (q = name + 6; *b && *b != '.'; b++)
		*q++ = strchr("-_", *b) || (*b >= '0' && *b <= '9') ||
		       ((*b | 0x20) >= 'a' && (*b | 0x20) <= 'z') ? *b : '_';
	*q = '\0';
	if (q == name + 6)
		name[5] = '\0';
	return name;
}

static char *quoted(const char *word)
{
	char *q = NULL;
	size_t n = 0;

	shell_quote(&q, &n, word);
	return q;
}

static void put_script(FILE *f, const struct sweep *sw, uint64_t tasks)
{
	const char *ext = sw->format == FMT_CSV ? "csv" : "json";
	char *dir = sweep_runs_dir(sw);
	char *qdir = quoted(dir), *qout = quoted(sw->output);
	char *name = job_name(sw->output);
	const char *sp = *sw->cmdline ? " " : "";
	uint64_t t;

	fprintf(f,
"#!/bin/sh\n"
"# A Slurm job array for an mpsim sweep, written by mpsim %s:\n"
"#   mpsim sweep%s%s --output=%s\n"
"# %llu point%s in %llu task%s: task T runs points T, T+%llu, T+%llu, ...\n"
"# (listed below) into %s/task-T.%s, and a merge job joins\n"
"# those files into %s.\n"
"#\n"
"# Submit from the directory the paths are relative to (where mpsim sweep\n"
"# ran), with the sbatch options of your cluster, which go to every job:\n"
"#   sh THIS-FILE --partition=NAME --time=HH:MM:SS [SBATCH-OPTION...]\n"
"# It submits the tasks not done yet as one job array and, after it, the\n"
"# merge.  After a failure (a task cancelled, out of time, a node lost) run\n"
"# it again: it submits only the tasks that did not finish, and each resumes\n"
"# its file, so only the points it lacks run again.  A task runs\n"
"# --cpus-per-task workers (default 1).  MPSIM names the mpsim program to\n"
"# run (default: mpsim on the PATH of the submitting shell).\n"
"set -eu\n"
"\n"
"mpsim=${MPSIM:-mpsim}\n"
"dir=%s\n"
"output=%s\n"
"tasks=%llu\n"
"\n"
"# The points of task $1, as mpsim sweep --point takes them.\n"
"points() {\n"
"\tcase $1 in\n",
		MPSIM_VERSION, sp, sw->cmdline, qout,
		(unsigned long long)sw->nr_points, sw->nr_points == 1 ? "" : "s",
		(unsigned long long)tasks, tasks == 1 ? "" : "s",
		(unsigned long long)tasks, (unsigned long long)(2 * tasks), dir,
		ext, sw->output, qdir, qout, (unsigned long long)tasks);
	for (t = 0; t < tasks; t++) {
		uint64_t *p = xcalloc(sw->nr_points / tasks + 1, sizeof(*p));
		size_t n = 0;
		uint64_t k;

		for (k = t; k < sw->nr_points; k += tasks)
			p[n++] = k;
		fprintf(f, "\t%llu) echo ", (unsigned long long)t);
		put_points(f, p, n);
		fputs(" ;;\n", f);
		free(p);
	}
	fprintf(f,
"\t*) echo \"$0: no task $1 (0 to $((tasks - 1)))\" >&2; return 1 ;;\n"
"\tesac\n"
"}\n"
"\n"
"# One array task: its points of the sweep, resumed if its file has some.\n"
"run_task() {\n"
"\tt=${SLURM_ARRAY_TASK_ID:?is not set: submit with sh $0}\n"
"\tp=$(points \"$t\")\n"
"\techo \"mpsim: task $t of $tasks: points $p\"\n"
"\t\"$mpsim\" sweep%s%s --point=\"$p\" \\\n"
"\t    --output=\"$dir/task-$t.%s\" -j \"${SLURM_CPUS_PER_TASK:-1}\"\n"
"\techo \"$p\" >\"$dir/task-$t.done\"\n"
"}\n"
"\n"
"span() {\n"
"\tif [ \"$1\" = \"$2\" ]; then echo \"$1\"; else echo \"$1-$2\"; fi\n"
"}\n"
"\n"
"# Has task $1 returned?  Its .done file holds the points it ran.\n"
"done_task() {\n"
"\t[ -f \"$dir/task-$1.done\" ] &&\n"
"\t    [ \"$(cat \"$dir/task-$1.done\")\" = \"$(points \"$1\")\" ]\n"
"}\n"
"\n"
"# The tasks not done, as sbatch --array takes them: 0-3,7.\n"
"pending() {\n"
"\tt=0 list= first= last=\n"
"\twhile [ \"$t\" -lt \"$tasks\" ]; do\n"
"\t\tif ! done_task \"$t\"; then\n"
"\t\t\tif [ -n \"$last\" ] && [ \"$last\" -eq $((t - 1)) ]; then\n"
"\t\t\t\tlast=$t\n"
"\t\t\telse\n"
"\t\t\t\tif [ -n \"$first\" ]; then\n"
"\t\t\t\t\tlist=$list${list:+,}$(span \"$first\" \"$last\")\n"
"\t\t\t\tfi\n"
"\t\t\t\tfirst=$t last=$t\n"
"\t\t\tfi\n"
"\t\tfi\n"
"\t\tt=$((t + 1))\n"
"\tdone\n"
"\tif [ -n \"$first\" ]; then\n"
"\t\tlist=$list${list:+,}$(span \"$first\" \"$last\")\n"
"\tfi\n"
"\techo \"$list\"\n"
"}\n"
"\n"
"submit() {\n"
"\tif [ -n \"${SLURM_JOB_ID:-}\" ]; then\n"
"\t\techo \"$0: submit with sh $0 (not sbatch): it submits the tasks\" \\\n"
"\t\t    \"and the merge\" >&2\n"
"\t\texit 2\n"
"\tfi\n"
"\tbusy=$(squeue -h --me --name=%s,%s-merge -o %%i 2>/dev/null || :)\n"
"\tif [ -n \"$busy\" ]; then\n"
"\t\techo \"$0: jobs of this sweep are still queued or running:\" $busy >&2\n"
"\t\texit 1\n"
"\tfi\n"
"\tmkdir -p \"$dir\"\n"
"\ttodo=$(pending)\n"
"\tdep=\n"
"\tif [ -n \"$todo\" ]; then\n"
"\t\tjob=$(sbatch --parsable --job-name=%s --array=\"$todo\" \\\n"
"\t\t    --output=\"$dir/slurm-%%A_%%a.out\" \"$@\" \"$0\" task)\n"
"\t\tjob=${job%%%%;*}\n"
"\t\tdep=--dependency=afterany:$job\n"
"\t\techo \"mpsim: job array $job: tasks $todo of 0-$((tasks - 1))\"\n"
"\telse\n"
"\t\techo \"mpsim: every task is done\"\n"
"\tfi\n"
"\tjob=$(sbatch --parsable --job-name=%s-merge \\\n"
"\t    --output=\"$dir/slurm-merge-%%j.out\" $dep \"$@\" \"$0\" merge)\n"
"\techo \"mpsim: job ${job%%%%;*}: the merge into $output\"\n"
"}\n"
"\n"
"case ${1-} in\n"
"task) run_task ;;\n"
"merge) exec \"$mpsim\" merge --output=\"$output\" \"$dir\"/task-*.%s ;;\n"
"*) submit \"$@\" ;;\n"
"esac\n",
		sp, sw->cmdline, ext, name, name, name, name, ext);
	free(qdir);
	free(qout);
	free(name);
	free(dir);
}

int sweep_slurm(const struct sweep *sw)
{
	uint64_t tasks = sw->slurm_tasks;
	int rc;

	if (sw->list_runs) {
		fputs("mpsim: --slurm and --list-runs: give one (the script runs "
		      "the sweep's points itself)\n", stderr);
		return EXIT_BAD_INPUT;
	}
	if (!sw->output) {
		fputs("mpsim: --slurm: needs --output=FILE, the file the merge "
		      "writes\n", stderr);
		return EXIT_BAD_INPUT;
	}
	if (sw->jobs) {
		fputs("mpsim: --slurm: a task's workers are its "
		      "--cpus-per-task, not -j\n", stderr);
		return EXIT_BAD_INPUT;
	}
	/* the merge would call the points left out missing */
	if (sw->nr_selected < sw->nr_points) {
		fputs("mpsim: --slurm runs every point of the sweep; --point "
		      "is for a part of it\n", stderr);
		return EXIT_BAD_INPUT;
	}
	if (tasks > sw->nr_points) {
		fprintf(stderr, "mpsim: --slurm=%llu: more tasks than points "
			"(the sweep has %llu)\n", (unsigned long long)tasks,
			(unsigned long long)sw->nr_points);
		return EXIT_BAD_INPUT;
	}
	if (!tasks)
		tasks = sw->nr_points < SLURM_DEFAULT_TASKS ?
			sw->nr_points : SLURM_DEFAULT_TASKS;
	put_script(stdout, sw, tasks);
	rc = fflush(stdout) || ferror(stdout) ? EXIT_FAILED : EXIT_OK;
	if (rc)
		perror("mpsim: writing the script");
	return rc;
}
