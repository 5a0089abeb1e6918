#!/bin/sh
# slurm-check.sh: `mpsim sweep --slurm` on a real Slurm cluster of one node,
# this machine, made of nothing but files under a scratch directory: a
# munge key and munged, a slurm.conf naming this host as controller and
# compute node, slurmctld and slurmd.  Run as root (slurmd starts the jobs
# as their submitter); `make slurm-check` installs the packages first.
#
# The check: the batch script mpsim writes submits a sweep as a job array;
# one task is cancelled part-way (scancel of one array element); the merge
# job then leaves a file that lacks that task's missing points; submitting
# the script again sends only that task, which resumes its file; the merged
# file is then byte for byte the same sweep run here with -j 2.  Every
# daemon started is stopped by its pid on the way out, failed or not.
#
# usage: slurm-check.sh MPSIM       (MPSIM: the mpsim program to test)
set -eu
LC_ALL=C
export LC_ALL
if [ "$(id -u)" != 0 ]; then
	echo "slurm-check: needs root (slurmd runs as root to start jobs as their owner)" >&2
	exit 1
fi
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mpsim-slurm.XXXXXX")
# munged wants its socket's directory searchable by all
chmod 755 "$scratch"
pids=""
ctld=
ok=0

say() { echo "slurm-check: $*"; }
fail() { say "FAIL: $*"; exit 1; }

steps_left() {
	for f in "$scratch"/spool/*_*.*; do
		[ -S "$f" ] && return 0
	done
	return 1
}

# Stop the daemons by pid: cancel the jobs while the controller still runs
# (slurmstepd ends a job's processes), then TERM, and KILL after 20 s.
stop() {
	st=$?
	set +e
	if [ -n "$pids" ] && kill -0 "$ctld" 2>/dev/null; then
		jobs=$(squeue -h -o %i 2>/dev/null)
		if [ -n "$jobs" ]; then
			# shellcheck disable=SC2086
			scancel $jobs 2>/dev/null
			n=0
			while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $n -lt 40 ]; do
				sleep 0.5
				n=$((n + 1))
			done
		fi
	fi
	# a job's slurmstepd outlives it a little; its socket in the spool
	# directory (HOST_JOB.STEP) goes when it ends
	n=0
	while [ $n -lt 100 ] && steps_left; do
		sleep 0.2
		n=$((n + 1))
	done
	if steps_left; then
		say "FAIL: a slurmstepd still runs after 20 s: $(ls "$scratch/spool")"
		ok=0
	fi
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	n=0
	for p in $pids; do
		while kill -0 "$p" 2>/dev/null && [ $n -lt 40 ]; do
			sleep 0.5
			n=$((n + 1))
		done
		if kill -0 "$p" 2>/dev/null; then
			say "pid $p did not stop on SIGTERM; killing it"
			kill -9 "$p" 2>/dev/null
		fi
		wait "$p" 2>/dev/null
	done
	if [ $ok = 1 ]; then
		rm -rf "$scratch"
	else
		say "FAIL: exit status $st; what the daemons and jobs said:"
		for f in munged.log slurmctld slurmd; do
			# the daemons' log files, else their stderr
			case $f in
			*.log) ;;
			*) [ -s "$scratch/$f.log" ] && f=$f.log || f=$f.out ;;
			esac
			[ -s "$scratch/$f" ] || continue
			say "--- the last lines of $f"
			tail -n 25 "$scratch/$f"
		done
		for f in "$scratch"/work/out/sweep.points/slurm-*.out; do
			[ -f "$f" ] || continue
			say "--- $f"
			cat "$f"
		done
		say "files left in $scratch"
		exit 1
	fi
}
trap stop EXIT
trap 'exit 1' HUP INT TERM

# Poll every 0.2 s, at most $1 s, for "$@" to succeed ($2 says what for),
# failing as soon as a daemon has exited.
wait_until() {
	secs=$1 what=$2 n=0
	shift 2
	until "$@"; do
		for p in $pids; do
			kill -0 "$p" 2>/dev/null || fail "waiting for $what: pid $p exited"
		done
		[ $n -lt $((secs * 5)) ] || fail "waited $secs s for $what: $(squeue 2>&1)"
		sleep 0.2
		n=$((n + 1))
	done
}

# Two free TCP ports in a row, for slurmctld and slurmd: a listening port
# shows in /proc/net/tcp* as ":HEX " (the remote column can only add false
# alarms, which skip a port).
port_busy() {
	grep -qi ":$(printf %04X "$1") " /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
port=$((20000 + $$ % 20000))
while port_busy $port || port_busy $((port + 1)); do
	port=$((port + 2))
done

# ---- munge: a key, and munged on its own socket ----
dd if=/dev/urandom of="$scratch/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$scratch/munge.key"
munged --foreground --socket="$scratch/munge.sock" \
	--key-file="$scratch/munge.key" --pid-file="$scratch/munged.pid" \
	--seed-file="$scratch/munged.seed" >"$scratch/munged.log" 2>&1 &
munged=$!
pids=$munged
munge_up() {
	munge -S "$scratch/munge.sock" -n 2>/dev/null |
		unmunge -S "$scratch/munge.sock" >/dev/null 2>&1
}
wait_until 10 "munged to answer" munge_up

# ---- slurm.conf: this host is controller and node ----
# No cgroups (a container may not delegate them): processes are tracked
# through /proc, tasks are not bound, nothing is accounted.
host=$(hostname -s)
mkdir -p "$scratch/state" "$scratch/spool" "$scratch/work"
cat >"$scratch/slurm.conf" <<EOF
ClusterName=mpsimcheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$scratch/munge.sock
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=512 State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$scratch/slurm.conf
export SLURM_CONF

slurmctld -D >"$scratch/slurmctld.out" 2>&1 &
ctld=$!
pids="$ctld $pids"
slurmd -D >"$scratch/slurmd.out" 2>&1 &
pids="$! $pids"
node_idle() {
	[ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ]
}
wait_until 60 "the node to be idle" node_idle
say "one-node cluster up: $host, $(nproc) CPUs, ports $port and $((port + 1))"

# The cluster has no job queued or running.
no_jobs() {
	[ -z "$(squeue -h -o %i)" ]
}

# ---- the sweep: 16 points in 4 tasks (a selector each), a second or two
# of work per task ----
sweep="--iodepth=2,4,8,16 --selector=st,hst,ql,rr --reps=2 --runtime=30s"
cd "$scratch/work"
# shellcheck disable=SC2086
"$mpsim" sweep $sweep -j 2 --output=local.csv
# shellcheck disable=SC2086
"$mpsim" sweep $sweep --output=out/sweep.csv --slurm=4 >sweep.sh
export MPSIM="$mpsim"
sh sweep.sh >submit.1
cat submit.1
array=$(sed -n 's/^mpsim: job array \([0-9]*\):.*/\1/p' submit.1)
[ -n "$array" ] || fail "no job array in the submit's output"
grep -q "tasks 0-3 of 0-3" submit.1 || fail "the first submit should send tasks 0-3"

# Cancel the first task seen part-way: its file holds a finished point
# (more than the 2 lines of the head) and it has not returned.
victim=
n=0
while [ -z "$victim" ]; do
	for t in 0 1 2 3; do
		f=out/sweep.points/task-$t.csv
		if [ -f "$f" ] && [ ! -e out/sweep.points/task-$t.done ] &&
		   [ "$(wc -l <"$f")" -gt 2 ]; then
			victim=$t
			break
		fi
	done
	[ $n -lt 1200 ] || fail "no task with a finished point after 60 s"
	sleep 0.05
	n=$((n + 1))
done
scancel "${array}_$victim"
say "cancelled task $victim (${array}_$victim) after $(($(wc -l <out/sweep.points/task-$victim.csv) - 2)) rows"
wait_until 120 "the jobs to end" no_jobs
scontrol show job "${array}_$victim" | grep -q "JobState=CANCELLED" ||
	fail "task $victim is not CANCELLED: $(scontrol show job "${array}_$victim")"
[ ! -e out/sweep.points/task-$victim.done ] ||
	fail "task $victim was cancelled too late: it had finished"
for t in 0 1 2 3; do
	[ $t = "$victim" ] || [ -e out/sweep.points/task-$t.done ] ||
		fail "task $t did not finish"
done
# the merge ran after the array, and found the victim's missing points
[ -f out/sweep.csv ] || fail "the merge job wrote no file"
grep -q "holds .* of 16 points" out/sweep.points/slurm-merge-*.out ||
	fail "the merge should report missing points"
! cmp -s local.csv out/sweep.csv || fail "the merged file is complete though a task was cancelled"

# ---- again: only the cancelled task, resumed ----
sh sweep.sh >submit.2
cat submit.2
grep -q "tasks $victim of 0-3" submit.2 ||
	fail "the second submit should send task $victim alone"
wait_until 120 "the jobs to end" no_jobs
[ -e out/sweep.points/task-$victim.done ] || fail "task $victim did not finish the second time"
cmp local.csv out/sweep.csv ||
	fail "the merged file differs from the local sweep's (-j 2)"
say "merged file = local sweep (-j 2), byte for byte: $(wc -l <local.csv) lines"

# a third submit has nothing left to run but the merge
sh sweep.sh >submit.3
grep -q "every task is done" submit.3 || fail "a third submit should find every task done"
wait_until 60 "the jobs to end" no_jobs
cmp local.csv out/sweep.csv || fail "the third merge changed the file"
ok=1
say "ok"
