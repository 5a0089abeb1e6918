#!/bin/bash
# install.sh: `make install` with DESTDIR and PREFIX puts the binary, the
# man page, the bash completion and the documentation where they belong; the page passes
# mandoc's lint and renders with man -l; the installed completion
# completes; an installed mpsim's --list-runs names it by its bare name;
# mpsim live runs its installed harness; make uninstall takes it all away.
#
# usage: install.sh   (from the top of the tree, after make)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "install: $*"; fail=$((fail + 1)); }

# LIVEDIR kept at the one the tree's build holds: another would rebuild
# ./mpsim for this test (its LIVEDIR is compiled in), under the other
# suites running beside it
livedir=$(sed -n 's/^#define MPSIM_LIVEDIR "\(.*\)"$/\1/p' "$top/build/livedir.h" 2>/dev/null)
livedir=${livedir:-/opt/mp/share/mpsim/live}
make -s -C "$top" install DESTDIR="$tmp/stage" PREFIX=/opt/mp LIVEDIR="$livedir" >/dev/null
root=$tmp/stage/opt/mp
live=$tmp/stage$livedir
for f in bin/mpsim share/man/man1/mpsim.1 share/bash-completion/completions/mpsim; do
	[ -f "$root/$f" ] || no "$f not installed"
done
[ -x "$root/bin/mpsim" ] || no "bin/mpsim is not executable"
# the documentation, which the page's FILES and SEE ALSO name where it is
[ -f "$root/share/doc/mpsim/README.md" ] || no "the documentation is not installed"
grep -q '/opt/mp/share/doc/mpsim' "$root/share/man/man1/mpsim.1" ||
    no "the installed man page does not name the installed documentation"
"$root/bin/mpsim" --version | grep -q '^mpsim ' || no "the installed mpsim does not run"

# mpsim live's harness, which the installed binary runs (MPSIM_LIVE
# stands for the PREFIX the staged tree is not yet at): a missing
# scenario is bad input, refused before anything is built
[ -f "$live/live.py" ] || no "live/live.py not installed"
rc=0
MPSIM_LIVE=$live/live.py "$root/bin/mpsim" live \
    --scenario="$tmp/none.ini" >/dev/null 2>"$tmp/live.err" || rc=$?
[ "$rc" = 2 ] && grep -q '^mpsim: live: .*none.ini' "$tmp/live.err" ||
    no "the installed mpsim live (status $rc: $(cat "$tmp/live.err"))"

# mandoc's errors and warnings (its style notes name manuals this
# machine may lack, so they are left out)
mandoc -Tlint -Wwarning "$root/share/man/man1/mpsim.1" || no "mandoc -Tlint"
MANWIDTH=80 man -l "$root/share/man/man1/mpsim.1" 2>/dev/null >"$tmp/page.txt"
grep -q 'mpsim.*simulate Linux dm-multipath' "$tmp/page.txt" || no "man -l does not show the page"

bash "$top/tests/completion.sh" "$root/bin/mpsim" \
    "$root/share/bash-completion/completions/mpsim" >/dev/null ||
    no "the installed completion"

# found on PATH, mpsim prints its bare name in --list-runs
(cd "$tmp" && PATH=$root/bin:$PATH mpsim sweep --iodepth=2 --runtime=1ms --list-runs) |
    grep -q '^mpsim sweep ' || no "--list-runs of an installed mpsim"

make -s -C "$top" uninstall DESTDIR="$tmp/stage" PREFIX=/opt/mp LIVEDIR="$livedir" >/dev/null
left=$(find "$tmp/stage" -type f | wc -l)
[ "$left" -eq 0 ] || no "make uninstall left $left files"

echo "install: $([ "$fail" -eq 0 ] && echo passed || echo "$fail failed")"
[ "$fail" -eq 0 ]
