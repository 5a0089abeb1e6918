/*
 * help.c: the help text of mpsim and of its commands (mpsim --help,
 * mpsim COMMAND --help, mpsim help COMMAND): what each command does, and
 * its options from the option tables (reference.c); timers, published and
 * live keep their text beside their own options.  Every example is
 * written as a shell needs it: '*', spaces and backslashes are quoted.
 */
#include "cli.h"

void cli_usage(FILE *f)
{
	fputs(
"usage: mpsim [COMMAND] [--option=value ...]\n"
"       mpsim COMMAND --help      the options of one command\n"
"\n"
"Simulates Linux dm-multipath path selection over paths of unequal cost.\n"
"\n"
"commands:\n"
"  (none)      no options: the comparison table of the default scenario;\n"
"              with options: one run, per-path results\n"
"  run         one run, per-path results\n"
"  compare     every selector/clock column on one scenario (--columns)\n"
"  sweep       runs over lists and ranges of option values, with\n"
"              replications and confidence intervals\n"
"  merge       join the per-point files of a sweep run elsewhere\n"
"  list        selectors | scenarios | paths | options: what is built in\n"
"  bench       simulated I/Os per CPU second, per selector, beside a floor\n"
"  timers      the kernel timer-wheel catch-up experiment\n"
"  published   the 2022 HST table beside mpsim's (--sensitivity)\n"
"  live        a scenario on a running Linux 6.1 (user-mode-linux) beside\n"
"              mpsim\n"
"\n"
"The options of run, compare and sweep (--key=value or --key value; a\n"
"sweep takes a list of values for each).  Sizes take k/m/g/t (1024-based),\n"
"durations ns/us/ms/s/m/h.  The other commands' options: mpsim COMMAND\n"
"--help; all of them: mpsim list options.\n", f);
	ref_options(f, CMD_RUN | CMD_COMPARE | CMD_SWEEP | CMD_NONE,
		    REF_ALL & ~(1U << 7));
	fputs(
"\n"
"examples:\n"
"  mpsim --selector=hst --clock=ktime --iodepth=32\n"
"  mpsim compare --columns=all --format=csv\n"
"  mpsim --name=w --rw=randwrite --bs=4k --ioengine=libaio --iodepth=64 \\\n"
"        --runtime=2s --output-format=json\n"
"  mpsim --fail='sdd at 50ms' --reinstate='sdd at 200ms'\n"
"\n"
"exit status: 0 ok, 1 a run could not complete, 2 bad input\n", f);
}

void help_run(FILE *f)
{
	fputs(
"usage: mpsim [run] [--option=value ...]\n"
"\n"
"One run of a scenario, with per-path results: I/Os, share, busy time,\n"
"best share and latency percentiles, then the totals.\n", f);
	ref_options(f, CMD_RUN, REF_ALL);
	fputs("\n"
"examples:\n"
"  mpsim run --selector=hst --clock=ktime\n"
"  mpsim --scenario=dm-delay-sync --delay=5ms --expiry=ns --hz=1000\n"
"  mpsim --selector=st --iodepth=1 --format=json\n"
"  mpsim --path.sdj.service=lognormal:2ms,1.5 --selector=ql\n"
"\n"
"exit status: 0 ok, 1 a run could not complete, 2 bad input\n", f);
}

void help_compare(FILE *f)
{
	fputs(
"usage: mpsim compare [--columns=LIST] [--option=value ...]\n"
"\n"
"Runs the scenario once per column with the same seed and prints each\n"
"path's share of the I/Os per column, with each path's best (capacity)\n"
"share and every column's IOPS.  Takes every option of a run (mpsim\n"
"run --help) but --selector, --clock, --kernel, which each column sets\n"
"itself, and the traces.\n", f);
	ref_options(f, CMD_COMPARE, REF_OWN);
	fputs("\n"
"examples:\n"
"  mpsim compare --hz=1000 --iodepth=8\n"
"  mpsim compare --columns=all --format=csv\n"
"  mpsim compare --columns=st,hst_ktime --scenario=bench-large\n"
"\n"
"exit status: 0 ok, 1 a run could not complete, 2 bad input\n", f);
}

void help_sweep(FILE *f)
{
	fputs(
"usage: mpsim sweep [--option=LIST ...] [--reps=R] [--seed=N] [--output=FILE]\n"
"                   [-j N] [--format=csv|json] [--point=LIST] [--list-runs[=DIR]]\n"
"                   [--slurm[=TASKS]]\n"
"\n"
"Runs every combination of the listed values (the last option varies\n"
"fastest), each --reps times, and writes per point and path the mean and\n"
"the 95% confidence half-width (Student's t) of share, bytes_share, busy,\n"
"latency (mean, p50, p99, p99.9) and IOPS.  Every option of a run (mpsim\n"
"run --help) takes a LIST: a,b,c, or a range of whole numbers: A..B (step\n"
"1), A..B+S, A..B*F (1..128*2, 4k..64k*2).  A value that holds a comma is\n"
"written with \\, (lognormal:400us\\,1.5); \\\\ is a backslash.  A\n"
"selector takes lists of its own,\n"
"--selector=st,hst:clock=jiffies,ktime[:KEY=LIST...]: the others run\n"
"without them, so no point runs twice.  Rerunning the same\n"
"command finishes an interrupted sweep; an --output of another sweep is\n"
"refused.  A --slurm script is submitted with sh SCRIPT --partition=P\n"
"--time=T, and again after a failure, for what is missing.\n", f);
	ref_options(f, CMD_SWEEP, REF_OWN);
	fputs("\n"
"examples:\n"
"  mpsim sweep --iodepth='1..128*2' --selector=st,hst:clock=jiffies,ktime \\\n"
"        --reps=10 --output=depth.csv\n"
"  mpsim sweep --path.sdj.service='exp:1ms,lognormal:1ms\\,1.5' --reps=5\n"
"\n"
"exit status: 0 ok, 1 a run or a write failed, 2 bad input\n", f);
}

void help_merge(FILE *f)
{
	fputs(
"usage: mpsim merge --output=FILE FILE...\n"
"\n"
"Joins the files of one sweep's points (see mpsim sweep --list-runs) into\n"
"the file the sweep would have written, byte for byte.  Files of other\n"
"sweeps, scenarios or mpsim versions are refused, and so is an --output\n"
"that holds another sweep; the points an --output of the same sweep\n"
"already holds are kept.\n", f);
	ref_options(f, CMD_MERGE, REF_OTHER);
	fputs("\n"
"example:\n"
"  mpsim merge --output=depth.csv depth.points/*.csv\n"
"\n"
"exit status: 0 every point merged, 1 points are missing (the file is\n"
"written; the sweep with that --output runs the rest), 2 bad input\n", f);
}

void help_list(FILE *f)
{
	fputs(
"usage: mpsim list selectors|scenarios|paths|options\n"
"\n"
"  selectors   each path selector: name, alias, the kernel file it mirrors\n"
"  scenarios   each built-in scenario, with one line on what it is\n"
"  paths       the paths of the scenario the options give (--scenario=,\n"
"              --job=, ...), one name a line\n"
"  options     every option, one line of help each, by command\n"
"              (--format=man: the man page's OPTIONS section; --format=walk:\n"
"              for the option walk, each option, a value that changes the\n"
"              figures and the options it needs, tab-separated)\n"
"\n"
"examples:\n"
"  mpsim list selectors\n"
"  mpsim list scenarios\n"
"  mpsim list paths --scenario=alua-failover\n", f);
}

void help_bench(FILE *f)
{
	fputs(
"usage: mpsim bench\n"
"\n"
"Measures simulated I/Os (and events) per second of CPU time, one thread,\n"
"for every selector on the default scenario and on bench-large (48 paths,\n"
"512 I/Os in flight), each beside the scenario's floor loop (a heap pop,\n"
"a scan of the paths and one exponential draw per I/O) as a ratio, x floor.\n"
"The wall time is printed too.  Takes no options; about half a minute.\n"
"\n"
"example:\n"
"  mpsim bench | tee bench.md\n", f);
}
