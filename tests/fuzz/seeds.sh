#!/bin/sh
# seeds.sh: gather the seed inputs of every fuzz target into DIR/NAME/,
# from the project's own test files, its built-in scenarios, fio's example
# job files (Debian's fio-examples) and small sweep files written by
# MPSIM.  `make fuzz-corpus` minimises them into tests/fuzz/corpus/.
#
# usage: seeds.sh MPSIM DIR
set -eu
mpsim=$1
out=$2
top=$(dirname "$0")/../..
rm -rf "$out"
for t in scenario fio_job fio_expr units iolog sweep_grammar sweep_file; do
	mkdir -p "$out/$t"
done

cp "$top"/workloads/scenarios/*.ini "$top"/tests/golden/*.ini "$out/scenario/"
cp "$top"/tests/jobs/*.fio "$top"/tests/jobs/*.inc "$top"/tests/golden/*.fio \
    "$out/fio_job/"
if [ -d /usr/share/doc/fio/examples ]; then
	for f in /usr/share/doc/fio/examples/*.fio; do
		cp "$f" "$out/fio_job/ex-$(basename "$f")"
	done
fi

# iolog: two bytes of replay options (fuzz/iolog.c), then the log
for f in "$top"/tests/iolog/*.log; do
	n=$(basename "$f" .log)
	{ printf '\000\000'; cat "$f"; } > "$out/iolog/$n"
	{ printf '\001\001'; cat "$f"; } > "$out/iolog/$n-nostall"
	{ printf '\002\377'; cat "$f"; } > "$out/iolog/$n-skip"
done

i=0
while IFS= read -r v; do
	i=$((i + 1))
	printf '%s' "$v" > "$out/units/$i"
done <<'V'
4k
1.5k
16384p
0
2.5ms
10s
100us
1h
yes
off
fixed:1ms
exp:100us
uniform:50us,150us
lognormal:100us,0.5
gamma:1ms,2
4k,64k
,8k,
4k-64k
4k-8k,16k-32k
4k/60:64k/40
4k/50:8k/:16k/
18446744073709551615
1e3
V

i=0
while IFS= read -r v; do
	i=$((i + 1))
	printf '%s' "$v" > "$out/fio_expr/$i"
done <<'V'
(1+3)k
8*$ncpus
2^10
(-1)^3
$pagesize
$mb_memory/4
100%7
-(2*-3)
${HOME}
((1))
9223372036854775807+1
V

i=0
while IFS= read -r v; do
	i=$((i + 1))
	printf '%b' "$v" > "$out/sweep_grammar/$i"
done <<'V'
iodepth\n1..128*2
bs\n4k..64k*2
runtime\n10ms..50ms+10ms
selector\nst,hst,ql
selector\nst,hst:clock=jiffies,ktime:hz=100..1000+900,ql
selector\nrr,ioa:path.sdd.path_args=1:path.sdj.service=exp:1ms,lognormal:1ms\\,1.5
scenario\n../x,hst-bio-mpath
1,2,3..5
\n1..100000
V

# sweep files in both formats, whole and with a torn tail
"$mpsim" sweep --iodepth=1,2 --selector=st,hst --number_ios=64 -j 1 \
    > "$out/sweep_file/csv"
"$mpsim" sweep --iodepth=1..4*2 --clock=jiffies,ktime --reps=2 \
    --number_ios=64 --format=json -j 1 > "$out/sweep_file/json"
head -c 300 "$out/sweep_file/csv" > "$out/sweep_file/csv-torn"
# the body alone: checked against the target's fixed 2 x 2 sweep
tail -n +3 "$out/sweep_file/csv" > "$out/sweep_file/body"
