#!/bin/sh
# guest.sh: init of the user-mode-linux kernel that `mpsim live` and
# `make live-check` boot.  The guest sees the host's root through hostfs,
# read-write: it writes only under RUN, the run directory the host made
# (first argument), and mounts its own /proc, /sys, /dev and a tmpfs.
#
#   guest.sh RUN              init: load the modules, run RUN/groups/*.sh
#   guest.sh RUN load FILE    (fio's exec_prerun) source FILE, which loads
#                             a case's tables, then snap
#   guest.sh RUN snap TAG     (fio's exec_prerun) append the paths' counters
#
# Starting a process costs UML about a second, fio several: so a group of
# cases with the same number of paths runs in one fio process, each case's
# tables loaded by its first job's exec_prerun (a reload gives the
# multipath target a new selector, as a fresh table does), and the
# counters are read with shell builtins only.
RUN=$1
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export DM_DISABLE_UDEV=1

# snap TAG: "-- TAG", then "NAME <the 17 fields of /sys/block/dm-N/stat>"
# per path; STAT and PATHSTAT ("NAME:/sys/block/dm-N/stat ...") come from
# the environment
snap() {
	echo "-- $1" >> "$STAT"
	# the guest's time up and idle so far (/proc/uptime, seconds), and
	# /proc/stat's cpu line for its iowait: how busy each phase kept its
	# CPU.  Idle and iowait are measured (NO_HZ_IDLE): an idle CPU's time
	# goes to iowait while a task sleeps in io_schedule, as psync's
	# pread does for its bio, and to idle otherwise (libaio's
	# io_getevents); /proc/uptime's idle is the latter alone.  Not
	# /proc/stat's user and system: those are sampled at the tick
	# (TICK_CPU_ACCOUNTING), and the work after a dm-delay flush starts at
	# a tick and is done before the next
	read -r _l < /proc/uptime
	echo "uptime $_l" >> "$STAT"
	read -r _l < /proc/stat
	echo "stat $_l" >> "$STAT"
	for _x in $PATHSTAT; do
		read -r _l < "${_x#*:}"
		echo "${_x%%:*} $_l" >> "$STAT"
	done
	# LIVE_STATUS=1 on the host: the tables' status (a selector's own
	# figures, as historical-service-time's estimates) at each phase's
	# start, for diagnosis; it costs the guest a process
	if [ -e "$RUN/status-wanted" ]; then
		echo "-- $1" >> "$RUN/out/status"
		dmsetup status >> "$RUN/out/status" 2>&1
	fi
}
case ${2:-} in
snap) snap "$3"; exit 0 ;;
load) . "$3"; exit 0 ;;
esac

cd "$RUN" || exit 1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p "$RUN/out"
exec >>"$RUN/out/guest.log" 2>&1
echo "guest: $(uname -r) start $(date +%s.%N)"

for m in dm-mod dm-delay dm-multipath dm-round-robin dm-queue-length dm-service-time; do
	modprobe -d "$RUN/root" "$m" || echo "guest: modprobe $m failed"
done
modprobe -d "$RUN/root" brd rd_nr=8 rd_size=32768 max_part=0 || echo "guest: brd failed"
modprobe -d "$RUN/root" loop max_loop=8 || echo "guest: loop failed"
for ko in "$RUN"/modules/*.ko; do
	[ -e "$ko" ] || continue
	insmod "$ko" || echo "guest: insmod $ko failed"
done
mkdir -p "$RUN/tmpfs"
mount -t tmpfs -o size=300m tmpfs "$RUN/tmpfs"

# loopdev N: /dev/loopN over a 32 MiB tmpfs file, the size of a RAM disk;
# loop gives itself a volatile write cache when the file has fsync
loopdev() {
	dd if=/dev/zero of="$RUN/tmpfs/loop$1" bs=1M count=32 2>/dev/null
	losetup "/dev/loop$1" "$RUN/tmpfs/loop$1"
}

# mkdev NAME TABLE: a dm device; adds it to PATHSTAT when it is a path
DEVS=""
mkdev() {
	dmsetup create "$1" --table "$2" || return 1
	DEVS="$1 $DEVS"
	_mm=$(dmsetup info -c --noheadings -o major,minor "$1" | tr -d ' ')
	echo "$1 $_mm" >> "$GOUT/devs"
	eval "DEV_$1=$_mm; export DEV_$1"
	case $1 in
	p*) PATHSTAT="$PATHSTAT $1:/sys/block/dm-${_mm#*:}/stat" ;;
	esac
}

# group_begin NAME: results go to RUN/out/NAME
group_begin() {
	GOUT=$RUN/out/$1
	mkdir -p "$GOUT"
	: > "$GOUT/devs"
	DEVS=""; PATHSTAT=""
	export STAT="$GOUT/stat"
}

# runfio JOBFILE DEVICE: fio on the dm device DEVICE; a last snapshot
# after it
runfio() {
	export PATHSTAT
	for _w in /sys/block/ram0/queue/write_cache /sys/block/loop0/queue/write_cache; do
		[ -e "$_w" ] && echo "$_w $(cat "$_w")" >> "$GOUT/write_cache"
	done
	_dev=/dev/dm-$(dmsetup info -c --noheadings -o minor "$2" | tr -d ' ')
	# the tick against the clock fio reads: jiffies and the time, before
	# and after
	echo "$(date +%s.%N) $(sed -n 's/^jiffies: *//p' /proc/timer_list | head -1)" > "$GOUT/clock"
	_t0=$(date +%s.%N)
	# fio writes each exec_prerun's output to JOB.prerun.txt in its
	# working directory
	cd "$GOUT" || return 1
	# what one snapshot costs the guest: each phase's window below runs
	# from one snapshot's /proc/uptime to the next's, a process that fio
	# starts through system() (sh -c), as here twice in a row; live.py
	# takes the second window out of each phase's
	sh -c "sh '$0' '$RUN' snap shell-0"
	sh -c "sh '$0' '$RUN' snap shell-1"
	LIVE_DEV=$_dev fio --output-format=json --output="$GOUT/fio.json" "$1" \
		> "$GOUT/fio.err" 2>&1
	echo "fio $? $_t0 $(date +%s.%N)" > "$GOUT/done"
	echo "$(date +%s.%N) $(sed -n 's/^jiffies: *//p' /proc/timer_list | head -1)" >> "$GOUT/clock"
	cd "$RUN" || return 1
	snap end
}

group_end() {
	for _d in $DEVS; do dmsetup remove "$_d" || dmsetup remove --force "$_d"; done
	for _l in /dev/loop[0-7]; do losetup -d "$_l" 2>/dev/null; done
	rm -f "$RUN"/tmpfs/loop*
}

for g in "$RUN"/groups/*.sh; do
	[ -e "$g" ] || continue
	. "$g"
done
echo "guest: done $(date +%s.%N)"
umount "$RUN/tmpfs"
echo o > /proc/sysrq-trigger
sleep 10
