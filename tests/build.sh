#!/bin/sh
# build.sh: what the build prints.  In a copy of the tree, with a
# stand-in compiler that writes each object as an empty file and links
# the tested mpsim in place of build/mpsim (the Makefile's rules run as
# they are; only the compiling is skipped):
# - make run from nothing prints under 15 lines before the comparison
#   table: one "  BUILD   mpsim" line for the whole build, the command
#   and mpsim's own heading; run again, the BUILD line is gone;
# - make mpsim prints a line per file made, "  CC      sim/loop.o",
#   "  LD      build/mpsim", and nothing else; with V=1 the commands
#   themselves instead, and with -s nothing;
# - make builds in parallel unless -j says otherwise.
#
# usage: build.sh MPSIM
set -eu
suite=build
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
copy=$tmp/repo
mkdir "$copy"
cd "$top"
copy_tree "$copy"

# the stand-in: real answers to -print-file-name, an empty file for
# every object, the tested mpsim for the link of build/mpsim
cat >"$tmp/cc" <<EOF
#!/bin/sh
out=
prev=
for a in "\$@"; do
	case \$a in -print-file-name=*) exec cc "\$@" ;; esac
	[ "\$prev" = -o ] && out=\$a
	prev=\$a
done
[ -n "\$out" ] || exit 0
case \$out in
*/mpsim) cp "$mpsim" "\$out" ;;
*) : >"\$out" ;;
esac
EOF
chmod +x "$tmp/cc"
cd "$copy"
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make CC="$tmp/cc" "$@"; }

# make run from nothing: the lines before the table
mk run >"$tmp/run" 2>&1 || { cat "$tmp/run"; no "make run failed"; }
before=$(awk '/^\| path / { print NR - 1; exit }' "$tmp/run")
if [ -z "$before" ]; then
	no "make run printed no table: $(head -3 "$tmp/run")"
elif [ "$before" -lt 15 ]; then
	ok
else
	no "make run printed $before lines before the table (under 15 wanted)"
fi
n=$(grep -c '^  BUILD   mpsim ' "$tmp/run" || :)
[ "$n" = 1 ] && ok || no "make run from nothing: $n BUILD lines, not 1"
long=$(awk 'length > 100' "$tmp/run" | head -1)
[ -z "$long" ] && ok || no "make run printed a line of ${#long} characters: ${long%"${long#??????????????????????????????????????????????????}"}..."
mk run >"$tmp/run2" 2>&1 || no "make run, again, failed"
grep -q '^  BUILD' "$tmp/run2" && no "make run with nothing to build still says BUILD" || ok
[ "$(sed -n 1p "$tmp/run2")" = ./mpsim ] && ok ||
    no "make run with nothing to build starts '$(sed -n 1p "$tmp/run2")', not ./mpsim"

# make mpsim: a line per file made, kernel style
touch sim/loop.c cli/cli.c
mk mpsim >"$tmp/mpsim" 2>&1 || no "make mpsim failed"
want="  CC      cli/cli.o
  CC      sim/loop.o
  LD      build/mpsim"
[ "$(sort "$tmp/mpsim")" = "$want" ] && ok ||
    no "make mpsim after two edits printed: $(cat "$tmp/mpsim")"
touch sim/loop.c
mk V=1 mpsim >"$tmp/v1" 2>&1 || no "make V=1 mpsim failed"
grep -q -- ' -c -o build/sim/loop.o sim/loop.c$' "$tmp/v1" && ok ||
    no "make V=1 does not print the compile command: $(head -2 "$tmp/v1")"
grep -q '^  CC' "$tmp/v1" && no "make V=1 printed the short lines too" || ok
touch sim/loop.c
mk -s mpsim >"$tmp/s" 2>&1 || no "make -s mpsim failed"
[ ! -s "$tmp/s" ] && ok || no "make -s printed: $(head -2 "$tmp/s")"

# parallel unless told: the jobs make gives the sub-make
out=$(mk -pq mpsim 2>/dev/null | sed -n 's/^MAKEFLAGS = *//p' | head -1 || :)
case " $out " in *" -j"[0-9]*) ok ;; *) no "make sets no -j by itself (MAKEFLAGS '$out')" ;; esac
out=$(mk -j1 -pq mpsim 2>/dev/null | sed -n 's/^MAKEFLAGS = *//p' | head -1 || :)
case " $out " in *" -j1 "*|*" -j1") ok ;; *) no "make -j1 runs with MAKEFLAGS '$out'" ;; esac

finish
