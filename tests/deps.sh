#!/bin/sh
# deps.sh: each make target asks only for the packages it needs.
# - .ci/deps's levels (run, test, check; slurm and live on run) each add
#   packages, none twice along one chain of levels, and the README's install list names exactly each level's.
# - On a machine with only a C compiler, make and pkg-config on PATH (a
#   scratch PATH: nothing is uninstalled), `.ci/deps run --dry-run` asks
#   for nothing, test asks for the test tools but not clang, check for
#   clang; without cc, run asks for gcc.
# - make run calls the run level, make test the test level.
# - An unknown level is refused with exit status 2.
#
# usage: sh tests/deps.sh   (from any directory)
set -eu
cd "$(dirname "$0")/.."
suite=deps
. tests/lib.sh

# has LIST WORD: WORD is a line of LIST
has() { printf '%s\n' "$1" | grep -qxF -- "$2"; }

for l in run test check slurm live; do
	sh .ci/deps "$l" --list >"$tmp/$l" || bad ".ci/deps $l --list failed"
	[ -s "$tmp/$l" ] && ok || bad "level $l holds no package"
done
for chain in "test check" slurm live; do
	dup=$(for l in run $chain; do cat "$tmp/$l"; done | sort | uniq -d)
	[ -z "$dup" ] && ok || bad "in two levels of run $chain: $dup"
done
# what make run must never ask for
for p in clang mandoc man-db blktrace python3-jsonschema libcriterion-dev \
    gnuplot-nox fio-examples git valgrind; do
	has "$(cat "$tmp/run")" "$p" && bad "level run asks for $p" || ok
done

# The README: a bullet per level, "- `make run` ...", whose `words`
# (other than `make ...`) are the level's packages.
readme() {
	awk -v start="$1" 'index($0, start) == 1 { on = 1 } on && (/^$/ || (/^- / && index($0, start) != 1)) { exit }
		on { print }' README.md | tr '\n' ' ' | grep -o '`[^`]*`' | tr -d '`' |
		grep -v '^make ' | sort
}
for l in run:'- `make run`' test:'- `make test`' check:'- the long checks' slurm:'- `make slurm-check`' live:'- `make live-check`'; do
	lv=${l%%:*}
	got=$(readme "${l#*:}")
	want=$(sort "$tmp/$lv")
	if [ -n "$got" ] && [ "$got" = "$want" ]; then ok; else
		bad "README's bullet '${l#*:}' lists '$(echo $got)', .ci/deps $lv --list '$(echo $want)'"
	fi
done

# A machine with cc, make and pkg-config only: PATH holds nothing else.
mkdir "$tmp/bin" "$tmp/nocc"
for c in cc make pkg-config; do
	p=$(command -v "$c") || { echo "deps: needs $c"; exit 1; }
	ln -s "$p" "$tmp/bin/$c"
	[ "$c" = cc ] || ln -s "$p" "$tmp/nocc/$c"
done
dry() { PATH=$1 /bin/sh .ci/deps "$2" --dry-run 2>/dev/null || echo "(exit status $?)"; }
out=$(dry "$tmp/bin" run)
[ -z "$out" ] && ok || bad "run on a machine with cc, make, pkg-config and GSL asks for: $(echo $out)"
out=$(dry "$tmp/bin" test)
for p in mandoc man-db gnuplot-nox python3-jsonschema blktrace git; do
	has "$out" "$p" && ok || bad "test without $p on PATH does not ask for it"
done
has "$out" clang && bad "test asks for clang" || ok
out=$(dry "$tmp/bin" check)
has "$out" clang && ok || bad "check without clang on PATH does not ask for it"
out=$(dry "$tmp/nocc" run)
[ "$out" = gcc ] && ok || bad "run without cc asks for '$(echo $out)', not gcc"

# The Makefile's targets call their level.
out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n run 2>/dev/null | grep '\.ci/deps' || true)
[ "$out" = "sh .ci/deps run" ] && ok || bad "make run calls '$out', not 'sh .ci/deps run'"
out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n test 2>/dev/null | grep '\.ci/deps' || true)
[ "$out" = "sh .ci/deps test" ] && ok || bad "make test calls '$out', not 'sh .ci/deps test'"

rc=0
sh .ci/deps tests --dry-run 2>"$tmp/err" >/dev/null || rc=$?
[ "$rc" = 2 ] && grep -q '^deps: unknown argument tests' "$tmp/err" && ok ||
	bad "an unknown level: exit $rc, $(cat "$tmp/err")"

finish
