#!/bin/sh
# safety.sh: mpsim on a shared machine.  Another user (nobody) plants
# symbolic links, temporary names, plugin caches and mpsim live's build
# caches in a sticky world-writable directory this test makes (like
# /tmp), and mpsim, run as root, must not write through them, load or
# run them or lose a file; outputs that name standard output or an
# input; plugins that crash, exit or hang; a scenario's selector_source;
# CC as make runs it.
#
# The checks with a second user need root (they are skipped, said so,
# otherwise).  No system setting is changed.
#
# usage: safety.sh MPSIM
set -eu
suite=safety
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$tmp"
chmod 755 "$tmp"
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
short="--runtime=0.05s"
fails=$top/tests/ksrc/dm-ps-fail.c

# status WANT CMD...: runs mpsim, stdout in out.txt, stderr in err.txt.
status() {
	want=$1
	shift
	set +e
	"$mpsim" "$@" >out.txt 2>err.txt
	got=$?
	set -e
	[ "$got" = "$want" ] && return 0
	no "mpsim $*: status $got (want $want): $(head -c 300 err.txt)"
	return 1
}

# one_line: err.txt is one "mpsim: " line holding $1.
one_line() {
	if [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "^mpsim: .*$1" err.txt; then
		ok
	else
		no "want one line with '$1'; stderr: $(head -c 400 err.txt)"
	fi
}

# ---- standard output and inputs as --output (no second user needed) ----

echo "earlier line" >log.txt
"$mpsim" $short --format=csv --output=/dev/stdout >>log.txt || :
[ "$(head -n 1 log.txt)" = "earlier line" ] && grep -q '^total,' log.txt && ok ||
    no "--output=/dev/stdout >> log.txt did not append to log.txt"
echo "earlier line" >log2.txt
"$mpsim" $short --format=csv --output=/proc/self/fd/1 >>log2.txt || :
[ "$(head -n 1 log2.txt)" = "earlier line" ] && grep -q '^total,' log2.txt && ok ||
    no "--output=/proc/self/fd/1 >> log2.txt did not append"
"$mpsim" $short --format=csv --trace=/dev/fd/3 3>trace.out >/dev/null || :
grep -q '"ev":"map"' trace.out && ok || no "--trace=/dev/fd/3 wrote no trace to fd 3"
ls | grep -q '\.tmp' && no "a temporary file was left: $(ls)" || ok
"$mpsim" sweep $short --iodepth=1,2 --output=part0.csv 2>/dev/null
echo "earlier line" >log3.txt
"$mpsim" merge --output=/dev/stdout part0.csv >>log3.txt || :
[ "$(head -n 1 log3.txt)" = "earlier line" ] && grep -q '^# mpsim' log3.txt && ok ||
    no "merge --output=/dev/stdout >> log3.txt did not append"
"$mpsim" sweep $short --iodepth=1,2 --output=/dev/stdout >>log3.txt || :
[ "$(head -n 1 log3.txt)" = "earlier line" ] && [ "$(grep -c '^# mpsim' log3.txt)" = 2 ] && ok ||
    no "sweep --output=/dev/stdout >> log3.txt did not append"

cp "$top/workloads/scenarios/hst-bio-mpath.ini" scn.ini
cp scn.ini scn.orig
for o in --output --trace --series --lat_hist; do
	extra=
	[ $o = --series ] && extra=--interval=10ms
	cp scn.orig scn.ini
	status 2 --scenario=scn.ini $short $extra $o=scn.ini && one_line "the same file as the input" || :
	cmp -s scn.ini scn.orig && ok || no "$o=scn.ini changed the scenario"
done
cp scn.orig scn.ini
ln scn.ini hard.ini
status 2 --scenario=scn.ini $short --output=hard.ini && one_line "the same file as the input" || :

# a mode the user gave the output is kept when it is replaced
"$mpsim" $short --format=csv --output=kept.csv || :
chmod 640 kept.csv
"$mpsim" $short --format=csv --output=kept.csv --seed=2 || :
[ "$(stat -c %a kept.csv)" = 640 ] && ok ||
    no "--output replaced a mode-640 file with mode $(stat -c %a kept.csv)"

# ---- one lock per output path: a sweep's file is not replaced ----

# while a sweep holds its --output, a run, a trace or a merge naming the
# same file waits for its lock, then gives up: status 1, one line, the
# sweep's file untouched (they renamed theirs over it and the sweep went
# on writing to a deleted file)
"$mpsim" sweep $short --iodepth=1,2 --output=other-sweep.csv 2>/dev/null
"$mpsim" sweep --iodepth=1,2 --runtime=10000s -j 1 --output=held.csv 2>/dev/null &
holder=$!
n=0
while [ ! -s held.csv ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
cp held.csv held.before
status 1 $short --format=csv --output=held.csv && one_line "held.csv: another mpsim is writing it"
status 1 $short --trace=held.csv && one_line "held.csv: another mpsim is writing it"
status 1 merge --output=held.csv other-sweep.csv && one_line "held.csv: another mpsim is writing it"
status 1 sweep $short --iodepth=1,2 --output=held.csv && one_line "held.csv: another mpsim is writing it"
cmp -s held.csv held.before && ok || no "the sweep's held.csv was replaced"
kill "$holder" 2>/dev/null || :
wait "$holder" 2>/dev/null || :

# a sweep whose file is replaced or removed by what takes no lock (mv,
# rm) says so when it next writes or ends: status 1, one line (it went
# on writing to the deleted file and ended with status 0)
for how in mv rm; do
	rm -f gone.csv
	"$mpsim" sweep --runtime=20s --bs=4k,8k -j 1 --output=gone.csv 2>err.txt >/dev/null &
	sweeper=$!
	n=0
	while [ ! -s gone.csv ] && [ $n -lt 200 ]; do sleep 0.01; n=$((n + 1)); done
	kill -STOP "$sweeper"
	if [ $how = mv ]; then cp other-sweep.csv new.csv && mv new.csv gone.csv; else rm gone.csv; fi
	kill -CONT "$sweeper"
	set +e
	wait "$sweeper"
	got=$?
	set -e
	[ "$got" = 1 ] && one_line "gone.csv: no longer the file this sweep writes" ||
	    no "a sweep whose file was replaced ($how): status $got: $(head -c 300 err.txt)"
done

# ---- an interrupted run leaves no temporary ----

# a signal that ends a run while it writes its trace and blktrace files
# removes their temporaries (*.tmp.XXXXXX): they were left, 640 MB of one
# (env: a background job starts with SIGINT ignored)
# temps DIR...: no temporary in them
temps() { ! find "$@" -name '*.tmp.*' | grep -q .; }
# started CMD...: runs mpsim in the background (pid in $pid) until its
# trace's temporary is there
started() {
	env --default-signal=INT "$mpsim" "$@" >/dev/null 2>err.txt &
	pid=$!
	n=0
	until find sig -name 't.json.tmp.*' | grep -q . || [ $n -ge 300 ]; do
		sleep 0.02
		n=$((n + 1))
	done
}
# ended SIG WANT: sends SIG to $pid, which must end with status WANT
ended() {
	kill -"$1" "$pid"
	set +e
	wait "$pid" 2>/dev/null		# (sh says how it ended)
	got=$?
	set -e
	[ "$got" = "$2" ] && ok || no "$1 to a run with a trace: status $got, want $2"
}
mkdir sig
for s in INT:130 TERM:143 HUP:129; do
	started --runtime=10000s --trace=sig/t.json --trace-count=1 --blktrace=sig/bt
	ended "${s%:*}" "${s#*:}"
	temps sig && ok || no "SIG${s%:*} left temporaries: $(ls sig sig/bt | tr '\n' ' ')"
done

# ---- a scenario file's selector_source ----

mkdir -p sub
cp "$fails" sub/dm-ps-local.c
{ echo "[multipath]"; echo "selector_source = dm-ps-local.c"
  grep -v '^selector' "$top/workloads/scenarios/hst-bio-mpath.ini" |
      sed '/^\[multipath\]/d'; } >sub/local.ini
if status 0 run --scenario=sub/local.ini $short; then
	grep -q 'selector fail from sub/dm-ps-local.c' out.txt && ok ||
	    no "selector_source was not taken beside its scenario: $(head -n 1 out.txt)"
	one_line "sub/local.ini:2: selector_source: compiling and running the C of sub/dm-ps-local.c"
fi

# ---- CC as make runs it; a compiler that cannot be run ----

cc=${CC:-cc}
if CC="$cc -O2" status 0 run --selector-source="$fails" $short; then ok; fi
if CC=/nonexistent/cc status 1 run --selector-source=sub/dm-ps-local.c \
    $short --seed=9; then
	one_line "the compiler (/nonexistent/cc) could not be run"
fi

# ---- a plugin that fails: one line, exit 1 ----

# (the way of failing is read at run time: one build of the plugin,
# the one the scenario above made, serves every case)
fail_at() { MPSIM_FAIL_AT=$1; export MPSIM_FAIL_AT; }
MPSIM_SELECTOR_TIMEOUT=2
export MPSIM_SELECTOR_TIMEOUT
fail_at 1
status 1 run --selector-source="$fails" $short && one_line "crashed (signal 11, SIGSEGV) in select_path"
[ -s out.txt ] && no "a crashed run wrote to stdout" || ok
status 1 sweep -j 2 --selector-source="$fails" $short --iodepth=1,2,4,8 &&
    one_line "crashed (signal 11, SIGSEGV) in select_path"
status 1 compare --selector-source="$fails" $short && one_line "crashed (signal 11, SIGSEGV) in select_path"
fail_at 2
status 1 run --selector-source="$fails" $short && one_line "exited (status 0) in select_path"
status 1 sweep -j 2 --selector-source="$fails" $short --iodepth=1,2,4 && one_line "exited (status 0) in select_path"
fail_at 3
status 1 run --selector-source="$fails" $short && one_line "made no progress for 2 s in select_path"
fail_at 4
status 1 run --selector-source="$fails" $short && one_line "crashed (signal 11, SIGSEGV) in module_init"
fail_at 5
status 1 run --selector-source="$fails" $short && one_line "exited (status 0) in module_init"
fail_at 6
status 1 run --selector-source="$fails" $short && one_line "exited (status 3) in select_path"
# an allocation past the kernel's limits is NULL to the selector, whose
# constructor fails as the kernel's would (it aborted mpsim)
fail_at 8
status 2 run --selector-source="$fails" $short && one_line "fail ps: path selector constructor failed"
# a thread the plugin started calls exit(0) while mpsim's own thread runs
# the next columns: no silent exit 0 with nothing written
fail_at 7
status 1 compare --selector-source="$fails" --columns=source,st,ql,rr \
    --runtime=2s && one_line "exited (status 0) in a thread it started, before mpsim's end"
[ -s out.txt ] && no "a compare whose plugin exited wrote to stdout" || ok
status 1 sweep -j 2 --selector-source="$fails" $short --iodepth=1,2,4,8 &&
    one_line "exited (status 0) in a thread it started, before mpsim's end"

# ... and a plugin's crash, or a signal to the watch, leaves no
# temporary either
fail_at 1
status 1 run --selector-source="$fails" $short --trace=sig/t.json --trace-count=1 \
    --blktrace=sig/bt && one_line "crashed (signal 11, SIGSEGV) in select_path"
temps sig && ok || no "a plugin's crash left temporaries: $(ls sig sig/bt | tr '\n' ' ')"
unset MPSIM_FAIL_AT
started run --selector-source="$fails" --runtime=10000s --trace=sig/t.json --trace-count=1
ended TERM 143
temps sig && ok || no "SIGTERM to a plugin's run left temporaries: $(ls sig | tr '\n' ' ')"

# a header the file includes is part of the cache key: a change to it
# builds anew (the plugin of FAIL_AT 0 must not be reused for 5)
mkdir inc
header_fail_at() { echo "#define FAIL_AT $1" >inc/mpsim-fail-at.h; }
CPATH=$tmp/inc
export CPATH
header_fail_at 0
XDG_CACHE_HOME=$tmp/cache5 status 0 run --selector-source="$fails" $short || :
header_fail_at 5
XDG_CACHE_HOME=$tmp/cache5 status 1 run --selector-source="$fails" $short &&
    one_line "exited (status 0) in module_init"
unset CPATH MPSIM_SELECTOR_TIMEOUT

# ---- another user's links, temporary names and caches (root) ----

if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	echo "safety: not root (or no user nobody): the checks with a second user are skipped"
	finish
	exit
fi
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

priv=$tmp/private		# root's own files, mode 0600
mkdir -m 700 "$priv"
shared=$tmp/shared		# like /tmp
mkdir -m 1777 "$shared"
victim() { printf 'root secret\n' >"$priv/$1"; chmod 600 "$priv/$1"; }
intact() {
	[ "$(cat "$priv/$1")" = "root secret" ] && [ "$(stat -c %a "$priv/$1")" = 600 ] &&
	    ok || no "$2: $priv/$1 was written (mode $(stat -c %a "$priv/$1"))"
}

# through_links DIR WANT: root's outputs (a run's four, merge's and a
# sweep's) through nobody's links in DIR to root's own files are refused
# with WANT, and root's files are left alone
"$mpsim" sweep $short --iodepth=1,2 --output=part.csv 2>/dev/null
through_links() {
	for o in --output --trace --series --lat_hist merge sweep; do
		victim "${1##*/}$o"
		as_nobody ln -s "$priv/${1##*/}$o" "$1/x$o.csv"
		case $o in
		--series) cmd="$short --interval=10ms $o=$1/x$o.csv" ;;
		merge) cmd="merge --output=$1/x$o.csv part.csv" ;;
		sweep) cmd="sweep $short --iodepth=1,2 --output=$1/x$o.csv" ;;
		*) cmd="$short $o=$1/x$o.csv" ;;
		esac
		status 2 $cmd && one_line "$2" || :
		intact "${1##*/}$o" "$o through nobody's link in $1"
	done
}

# outputs through another user's link in a sticky directory are refused,
# as the kernel's fs.protected_symlinks refuses the shell's >
through_links "$shared" "fs.protected_symlinks"

# root's own link there is followed, and the file it names keeps its mode
victim own
ln -s "$priv/own" "$shared/own.csv"
status 0 $short --format=csv --output="$shared/own.csv" || :
grep -q '^total,' "$priv/own" && [ "$(stat -c %a "$priv/own")" = 600 ] && ok ||
    no "--output through root's own link: $(stat -c %a "$priv/own") $(head -c 40 "$priv/own")"
[ -L "$shared/own.csv" ] && ok || no "the link itself was replaced"

# another user's file in a sticky directory is not replaced
as_nobody sh -c "echo theirs > '$shared/theirs.csv'"
status 2 $short --output="$shared/theirs.csv" && one_line "fs.protected_regular" || :

# a directory others can write that is not sticky: refused
mkdir -m 777 "$tmp/open"
status 2 $short --output="$tmp/open/x.csv" && one_line "can be written by others and is not sticky" || :

# a directory another user owns, or can write through its group, is
# refused for every output: nobody's link in nobody's 0755 directory
# would have led root's output onto root's own file
nob=$tmp/nobody-owned
mkdir -m 755 "$nob"
chown nobody "$nob"
through_links "$nob" "the directory $nob belongs to user 65534"
# ... and below it: a directory of root's inside nobody's, which nobody
# could rename away and replace
mkdir -m 755 "$nob/sub"
status 2 $short --output="$nob/sub/x.csv" && one_line "the directory $nob belongs to user 65534" || :
status 2 $short --blktrace="$nob/sub/bt" && one_line "the directory $nob belongs to user 65534" || :
[ -e "$nob/sub/bt" ] && no "--blktrace made a directory below nobody's" || ok
# (relative to a working directory inside it, the same)
set +e
(cd "$nob/sub" && exec "$mpsim" $short --output=x.csv) >out.txt 2>err.txt
got=$?
set -e
[ "$got" = 2 ] && one_line "the directory $nob belongs to user 65534" ||
    no "--output=x.csv in nobody's directory's subdirectory: status $got"
# the group: writable by nobody's group is writable by nobody; root's own
# group (no other member) is root's alone
mkdir -m 775 "$tmp/grp"
chgrp nogroup "$tmp/grp"
status 2 $short --output="$tmp/grp/x.csv" && one_line "the directory $tmp/grp can be written by others and is not sticky" || :
chgrp root "$tmp/grp"
status 0 $short --output="$tmp/grp/x.csv" && ok

# --blktrace=LINK/DIR through nobody's link in a sticky directory: refused
# before anything is made in the link's target
mkdir -m 700 "$priv/btroot"
as_nobody ln -s "$priv/btroot" "$shared/btlink"
status 2 $short --blktrace="$shared/btlink/bt" && one_line "fs.protected_symlinks" || :
[ -e "$priv/btroot/bt" ] && no "--blktrace made $priv/btroot/bt through nobody's link" || ok
# the same through a sweep's --output: its directory is not made either
status 2 sweep $short --iodepth=1,2 --output="$shared/btlink/sw/x.csv" && one_line "fs.protected_symlinks" || :
[ -e "$priv/btroot/sw" ] && no "sweep --output made $priv/btroot/sw through nobody's link" || ok

# planted temporary names: NAME.tmp as a link to root's file
out=$tmp/mine
mkdir -m 1777 "$out"
for o in --output --trace; do
	victim tmp$o
	as_nobody ln -s "$priv/tmp$o" "$out/r$o.tmp"
	status 0 $short $o="$out/r$o" || :
	intact tmp$o "$o wrote through a planted $out/r$o.tmp"
done

# --blktrace=DIR: a directory of another user is refused; in a sticky
# one of ours, planted names are not written through
mkdir "$shared/bt-nobody"
chown nobody "$shared/bt-nobody"
status 2 $short --blktrace="$shared/bt-nobody" && one_line "a directory of user" || :
victim blk
as_nobody ln -s "$priv/blk" "$out/sdd.blktrace.0.tmp"
status 0 $short --blktrace="$out" || :
intact blk "--blktrace wrote through a planted sdd.blktrace.0.tmp"
[ -s "$out/sdd.blktrace.0" ] && ok || no "--blktrace wrote no $out/sdd.blktrace.0"
victim blk2
rm "$out/sde.blktrace.0"
as_nobody ln -s "$priv/blk2" "$out/sde.blktrace.0"
status 2 $short --blktrace="$out" && one_line "fs.protected_symlinks" || :
intact blk2 "--blktrace wrote through nobody's sde.blktrace.0"

# the plugin cache: with no HOME and no XDG_CACHE_HOME it is under
# TMPDIR; one another user made first is refused, not loaded from
cachebox=$tmp/tmpbox
mkdir -m 1777 "$cachebox"
mkdir -m 700 "$tmp/build" "$tmp/build2"
env -i PATH="$PATH" TMPDIR="$tmp/build" "$mpsim" run --selector-source="$fails" $short >/dev/null
plant=$(ls -d "$tmp/build/mpsim-0"/ksrc-* | head -n 1)
# a HOME that is unusable falls back to the per-uid place: one that does
# not exist (made, as root, where it was missing), one of another user
# (root's cache in nobody's home), and for nobody HOME=/nonexistent (it
# failed: cannot create /nonexistent/.cache/mpsim)
for home in "$tmp/nohome" "$nob"; do
	set +e
	env -i PATH="$PATH" HOME="$home" TMPDIR="$tmp/build" "$mpsim" run \
	    --selector-source="$fails" $short >out.txt 2>err.txt
	got=$?
	set -e
	[ "$got" = 0 ] && [ ! -e "$home/.cache" ] && ok ||
	    no "HOME=$home: status $got, $(ls -d "$home/.cache" 2>&1): $(head -c 300 err.txt)"
done
mkdir -m 1777 "$tmp/nbox"
set +e
as_nobody env -i PATH="$PATH" HOME=/nonexistent TMPDIR="$tmp/nbox" "$mpsim" run \
    --selector-source="$fails" $short >out.txt 2>err.txt
got=$?
set -e
[ "$got" = 0 ] && [ -d "$tmp/nbox/mpsim-65534" ] && ok ||
    no "nobody with HOME=/nonexistent: status $got: $(head -c 300 err.txt)"
env -i PATH="$PATH" TMPDIR="$tmp/build2" "$mpsim" run --scenario="$top/tests/golden/io-affinity.ini" \
    --selector-source="$top/tests/ksrc/dm-ps-toy.c" $short >/dev/null
cp "$tmp/build2/mpsim-0"/ksrc-*/plugin.so "$tmp/evil.so"
chmod 644 "$tmp/evil.so"
# nobody plants the plugin of another file (toy) under the name of root's
as_nobody mkdir -m 755 "$cachebox/mpsim-0" "$cachebox/mpsim-0/$(basename "$plant")"
as_nobody cp "$tmp/evil.so" "$cachebox/mpsim-0/$(basename "$plant")/plugin.so"
set +e
env -i PATH="$PATH" TMPDIR="$cachebox" "$mpsim" run --selector-source="$fails" $short >out.txt 2>err.txt
got=$?
set -e
[ "$got" = 2 ] && one_line "the plugin cache is owned by another user" ||
    no "nobody's cache in TMPDIR: status $got: $(head -c 300 err.txt)"
# (the planted toy's module_init and add_path ran: "toy ps: ..." said so)
grep -q "toy" out.txt err.txt && no "root ran the plugin nobody planted" || ok
# in root's own cache, a plugin.so that is not root's alone is not loaded
mkdir -m 700 "$tmp/xdg" "$tmp/xdg/mpsim"
cp -r "$plant" "$tmp/xdg/mpsim/"
chown nobody "$tmp/xdg/mpsim/$(basename "$plant")/plugin.so"
XDG_CACHE_HOME=$tmp/xdg status 2 run --selector-source="$fails" $short &&
    one_line "owned by another user: a plugin that is not ours alone is not loaded" || :

# ---- mpsim live's build cache (nothing is built from the kernel's
# source or booted: stand-ins for both, and for mpsim) ----

sh "$top/tests/live-fake.sh" "$tmp/fake"
printf '#!/bin/sh\nexit 0\n' >"$tmp/fake/mpsim"
chmod 755 "$tmp/fake/mpsim"
printf '[path a]\nservice = sync\n[r]\nrw = randread\nruntime = 2s\n' >"$tmp/live.ini"
uid=$(id -u)
# live VAR=VALUE...: live/live.py run as mpsim live runs it, with only
# those variables and PATH set; its status in $got, its output in out.txt
# and err.txt.  A boot says "booted" and ends it with status 99.
live() {
	set +e
	env -i PATH="$PATH" MPSIM="$tmp/fake/mpsim" UML_RELEASE=6.1.0-test \
	    LINUX_SOURCE="$tmp/fake/linux-source-6.1.tar.xz" UML_CONFIG="$tmp/fake/config.gz" "$@" \
	    python3 -B -c 'import sys
sys.path.insert(0, sys.argv[1])
import live
def booted(*args, **kw):
    print("booted", file=sys.stderr)
    sys.exit(99)
live.boot = live.run_cases = booted
live.uml_binary, live.uml_release = (lambda: "linux.uml"), (lambda: "6.1.0-test")
sys.exit(live.main(sys.argv[2:]))' "$top/live" run --scenario="$tmp/live.ini" >out.txt 2>err.txt
	got=$?
	set -e
}
# refused_live WHAT VAR=VALUE...: live is refused (status 2) in one line
# holding WHAT, and nothing nobody planted ran
refused_live() {
	what=$1
	shift
	live "$@"
	[ "$got" = 2 ] && one_line "$what" ||
	    no "mpsim live, $*: status $got: $(head -c 300 err.txt)"
	[ -e "$tmp/ran" ] && no "mpsim live, $*: ran a Makefile nobody planted" || :
}
# plant DIR: a prepared tree as the harness's marker said it, whose
# Makefile leaves $tmp/ran behind whatever it is asked to make
plant() {
	mkdir -p "$1/linux-source-6.1"
	touch "$1/linux-source-6.1/.mpsim-unpacked" "$1/linux-source-6.1/.mpsim-prepared-6.1.0-test"
	printf '%%:\n\ttouch %s\n' "$tmp/ran" >"$1/linux-source-6.1/Makefile"
}

# with no HOME, the cache is TMPDIR's mpsim-UID: one nobody made first,
# a prepared tree in it, is refused, nothing in it run
livebox=$tmp/livebox
mkdir -m 1777 "$livebox"
as_nobody mkdir -m 755 "$livebox/mpsim-$uid" "$livebox/mpsim-$uid/live"
plant "$tmp/planted"
chown -R nobody "$tmp/planted"
as_nobody cp -r "$tmp/planted/linux-source-6.1" "$livebox/mpsim-$uid/live/"
refused_live "$livebox/mpsim-$uid: the build cache is owned by another user: refused (set XDG_CACHE_HOME or LIVE_BUILD to a directory of yours)" \
    TMPDIR="$livebox"
# root's own mpsim-UID there, with nobody's live/ in it
rm -rf "$livebox/mpsim-$uid"
mkdir -m 700 "$livebox/mpsim-$uid"
mkdir -m 755 "$livebox/mpsim-$uid/live"
chown nobody "$livebox/mpsim-$uid/live"
refused_live "mpsim-$uid/live: the build cache is owned by another user" TMPDIR="$livebox"
# a cache in a directory of nobody's, and LIVE_BUILD one of nobody's
mkdir -m 755 "$tmp/nobodys"
chown nobody "$tmp/nobodys"
refused_live "another user can write $tmp/nobodys, which holds the build cache" \
    XDG_CACHE_HOME="$tmp/nobodys/cache"
refused_live "$tmp/nobodys: the build cache is owned by another user: refused (set LIVE_BUILD to a directory of yours)" \
    LIVE_BUILD="$tmp/nobodys"

# in root's own cache, what is nobody's is made anew, never run or
# loaded: the tree (its record root's, of the same inputs) and a module
xdg=$tmp/xdg-live
live XDG_CACHE_HOME="$xdg"
[ "$got" = 99 ] && ok || no "mpsim live on the stand-ins: status $got: $(head -c 300 err.txt)"
cache=$xdg/mpsim/live
[ "$(stat -c %a "$xdg/mpsim") $(stat -c %a "$cache")" = "700 700" ] && ok ||
    no "the build cache's modes: $(stat -c %a "$xdg/mpsim" "$cache")"
plant "$cache"
chown -R nobody "$cache/linux-source-6.1"
echo planted >"$cache/modules/dm-io-affinity.ko"
chown nobody "$cache/modules/dm-io-affinity.ko"
live XDG_CACHE_HOME="$xdg"
[ "$got" = 99 ] && ok || no "mpsim live on nobody's tree: status $got: $(head -c 300 err.txt)"
[ -e "$tmp/ran" ] && no "mpsim live ran the Makefile of nobody's tree" || ok
[ "$(stat -c %U "$cache/linux-source-6.1" "$cache/modules/dm-io-affinity.ko")" = "root
root" ] && [ "$(cat "$cache/modules/dm-io-affinity.ko")" = "/* ioa */" ] && ok ||
    no "nobody's tree or module was kept: $(ls -l "$cache" "$cache/modules")"
# UML's temporary directory nobody's: refused
chown nobody "$cache/uml-tmp"
refused_live "$cache/uml-tmp: owned by another user, in the build cache: refused (remove it)" \
    XDG_CACHE_HOME="$xdg"

finish
