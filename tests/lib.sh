# lib.sh: what the shell suites share, sourced after `set -eu` as
#     suite=NAME
#     . "$(dirname "$0")/lib.sh"
# It sets LC_ALL=C, makes the scratch directory $tmp (removed when the
# suite exits, interrupted or not), and keeps the counts: ok (a check
# passed), bad MESSAGE (one failed, said as "NAME: MESSAGE"; no is the
# same) and finish, which prints "NAME: P passed, F failed" and fails
# when any check did.  copy_tree DIR copies the tree as it is checked
# out, with any change not yet committed, into DIR (from its top).
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "$suite: $*"; fail=$((fail + 1)); }
no() { bad "$@"; }
finish() {
	echo "$suite: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

copy_tree() {
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files --cached --others --exclude-standard
	else
		find . -type f ! -path './.git/*' ! -path './build*' ! -name mpsim |
		    sed 's|^\./||'
	fi | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done \
	    >"$tmp/files"
	tar -cf - -T "$tmp/files" | tar -xf - -C "$1"
}
