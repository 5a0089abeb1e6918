/*
 * help.c: the help text of mpsim and of its commands (mpsim --help,
 * mpsim COMMAND --help, mpsim help COMMAND); timers and published keep
 * theirs beside their own options.  Every example is
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
"  list        selectors | scenarios | options: what is built in\n"
"  bench       simulated I/Os per second of wall time, per selector\n"
"  timers      the kernel timer-wheel catch-up experiment\n"
"  published   the 2022 HST table beside mpsim's (--sensitivity)\n"
"\n"
"options of run, compare and sweep (--key=value or --key value):\n"
"  --scenario=FILE|NAME   scenario file (ini) or built-in name\n"
"                         (default hst-bio-mpath; see mpsim list scenarios)\n"
"  --seed=N               random seed (default 1); same seed, same output\n"
"  --format=table|csv|json|dmsetup   output format (default table); dmsetup:\n"
"                         the device's status and table lines (run only)\n"
"  --output-format=normal|json   fio's name: normal is --format=table\n"
"  --output=FILE          write the output to FILE (whole, or not at all)\n"
"  --columns=LIST         compare: st,hst_jiffies,hst_ktime,\n"
"                         hst_jiffies_aligned,ql,rr or all\n"
"\n"
"  multipath ([multipath] keys):\n"
"  --selector=NAME        round-robin|rr, queue-length|ql, service-time|st,\n"
"                         historical-service-time|hst, io-affinity|ioa\n"
"  --selector-source=FILE a kernel dm-ps-*.c, compiled and run as the selector\n"
"                         (--selector_source; compare: also a 'source' column)\n"
"  --ncpus=N --numa_nodes=N   the simulated CPUs, for io-affinity\n"
"  --selector_args='W ..' the selector's table words (e.g. '972 0')\n"
"  --clock=jiffies|jiffies-aligned|ktime   bio-mode start stamp\n"
"  --mode=bio|request     --hz=100|250|300|1000   --uptime=DURATION\n"
"  --queue_if_no_path=0|1\n"
"  --kernel=X.Y[.Z]       the clocks of that release (5.10: jiffies stamp and\n"
"                         sched_clock in select_path; 5.10.112: ktime there;\n"
"                         5.19+: ktime for both)\n"
"  --select_clock=ktime|sched_clock   what select_path reads\n"
"  --sched_clock=tsc|jiffies   --sched_clock_offset=[-]DURATION\n"
"  --sched_clock_drift_ppm=[-]N\n"
"  --timer_wheel=levels|classic   --workqueue_latency=DURATION\n"
"  --fail='PATH at TIME'  --reinstate='PATH at TIME'   scripted path events\n"
"  --table='0 2097152 multipath ...'   the target as `dmsetup table` prints it\n"
"  --path_grouping_policy=multibus|failover|group_by_prio  --path.NAME.prio=N|\n"
"                         optimized|non-optimized  --path.NAME.dev=MAJ:MIN\n"
"  --hardware_handler=alua --pg_init_time=DURATION --pg_init_delay_msecs=N\n"
"  --pg_init_retries=N    --failback=immediate|manual|followover|N\n"
"  --no_path_retry=queue|fail|N  --polling_interval=DURATION\n"
"  --message='switch_group N at TIME'   a scripted dmsetup message\n"
"\n"
"  paths ([path] keys):\n"
"  --path.NAME.KEY=VALUE  one path's value, KEY one of slots, service,\n"
"                         latency, bandwidth, request_stats, path_args and\n"
"                         the dm-delay keys (--path.sdj.service=exp:2ms)\n"
"  --delay=MS, --read_delay=MS, --write_delay=MS, --flush_delay=MS,\n"
"  --expiry=jiffies|ns, --kthread_poll=mainline|busy   dm-delay, every path\n"
"\n"
"  jobs (fio's options and names, applied to every job):\n"
"  --name=NAME            start a job, as fio's command line does: the job\n"
"                         options after it are that job's, those before the\n"
"                         first --name are every job's, and the jobs\n"
"                         replace the scenario's (fio's defaults apply)\n"
"  --rw=MODE (--readwrite)   --rwmixread=PCT   --rwmixwrite=PCT\n"
"  --bs=SIZE (--blocksize)   --iodepth=N (--depth)   --numjobs=N\n"
"  --ioengine=NAME        --number_ios=N   --size=SIZE   --time_based\n"
"  --runtime=DURATION (--timeout)   --ramp_time=DURATION\n"
"  --rate_iops=N          --rate_process=linear|poisson\n"
"  --bssplit, --bsrange (--blocksize_range), --iodepth_batch_submit\n"
"  (--iodepth_batch), --iodepth_batch_complete_min (--iodepth_batch_complete),\n"
"  --iodepth_batch_complete_max, --iodepth_low, --thinktime, --thinktime_spin,\n"
"  --thinktime_blocks, --thinktime_blocks_type, --thinktime_iotime,\n"
"  --randrepeat, --randseed, --stonewall (--wait_for_previous), --startdelay,\n"
"  --loops, --io_size (--io_limit), --io_submit_mode, --direct, --buffered,\n"
"  --cpus_allowed, --cpumask (the CPUs a job's clones submit from),\n"
"  --group_reporting and --new_group (the report's groups), and fio's names\n"
"  that change nothing here (--filename, ...); see README\n"
"  --job=FILE.fio         the jobs of a fio job file replace the scenario's\n"
"  --read_iolog=FILE      replay a fio I/O log (version 2 or 3), timed;\n"
"                         --replay_no_stall, --replay_time_scale=PCT,\n"
"                         --replay_skip=read,write,trim,sync\n""  --interval=DURATION    per-path time series: long-form CSV with\n"
"                         --series=FILE, or under each path with --format=json\n"
"  --lat_hist=FILE        the latency histograms as CSV, for CDF figures\n"
"\n"
"  run only: --trace=FILE  the decision trace (--trace-format=json|text);\n"
"  --blktrace=DIR         blktrace's files, for blkparse and btt; both bounded\n"
"                         by --trace-from=, --trace-until=, --trace-count=N\n"
"\n"
"  sizes take k/m/g/t (1024-based), durations ns/us/ms/s/m/h.\n"
"\n"
"other options:\n"
"  --help, -h             this help (mpsim COMMAND --help: that command's)\n"
"  --version              print the version\n"
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
"best share and latency percentiles, then the totals.  The options are\n"
"those of mpsim --help (scenario, multipath, path and fio job options),\n"
"and --seed, --format, --output, --output-format.\n"
"\n"
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
"share and every column's IOPS.  Takes every option of a run but\n"
"--selector, --clock and --kernel, which each column sets itself.\n"
"\n"
"  --columns=LIST   st, hst_jiffies, hst_ktime, hst_jiffies_aligned, ql,\n"
"                   rr, comma-separated, or all (default: the first three,\n"
"                   ql and rr)\n"
"\n"
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
"latency (mean, p99) and IOPS.\n"
"\n"
"  LIST      a,b,c, or a range of whole numbers: A..B (step 1), A..B+S,\n"
"            A..B*F (1..128*2, 4k..64k*2).  A value that holds a comma is\n"
"            written with \\, (lognormal:400us\\,1.5); \\\\ is a backslash\n"
"  --reps    replications per point (default 1; 2 or more give intervals)\n"
"  --output  result file; rerunning the same command finishes an interrupted\n"
"            sweep; a file of another sweep is refused (default: stdout\n"
"            when done)\n"
"  -j N      worker processes (default: the number of CPUs)\n"
"  --point   run only these point numbers (from 0)\n"
"  --list-runs  print one command per point, writing DIR/point-K.csv\n"
"            (DIR defaults to the output's name with .points); join the\n"
"            files with mpsim merge\n"
"  --slurm   print a batch script that runs the sweep as a Slurm job array\n"
"            of TASKS tasks (default: one per point, at most 1000) and\n"
"            merges their files into --output; sh SCRIPT --partition=P\n"
"            --time=T submits it, and again after a failure, what is missing\n"
"\n"
"examples:\n"
"  mpsim sweep --iodepth='1..128*2' --selector=st,hst --clock=jiffies,ktime \\\n"
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
"already holds are kept.\n"
"\n"
"example:\n"
"  mpsim merge --output=depth.csv depth.points/*.csv\n"
"\n"
"exit status: 0 every point merged, 1 points are missing (the file is\n"
"written; the sweep with that --output runs the rest), 2 bad input\n", f);
}

void help_list(FILE *f)
{
	fputs(
"usage: mpsim list selectors|scenarios|options\n"
"\n"
"  selectors   each path selector: name, alias, the kernel file it mirrors\n"
"  scenarios   each built-in scenario, with one line on what it is\n"
"  options     every command-line option, a value that changes the\n"
"              figures and the options that value needs (tab-separated;\n"
"              \"-\": changes nothing by design)\n"
"\n"
"examples:\n"
"  mpsim list selectors\n"
"  mpsim list scenarios\n", f);
}

void help_bench(FILE *f)
{
	fputs(
"usage: mpsim bench\n"
"\n"
"Measures simulated I/Os (and events) per second of wall time, one thread,\n"
"for every selector on the default scenario and on bench-large (48 paths,\n"
"512 I/Os in flight).  Takes no options; about half a minute.\n"
"\n"
"example:\n"
"  mpsim bench | tee bench.md\n", f);
}
