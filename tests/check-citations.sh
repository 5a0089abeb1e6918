#!/bin/sh
# check-citations.sh: every "§N" the tree cites must be a section of
# docs/kernel-model.md, the project's account of the kernel, and every
# test that document names (`suite/test`) must exist.  A § right
# after another document's name (design.md §5, sim.h §5) cites that
# document and is left alone.
#
# Citations that name kernel.md (the specification the model was written
# from, which a clone does not have), or the sections of that
# specification's design.md, are listed and fail the check
# (CITATIONS_STRICT=0 only counts them).
#
# usage: check-citations.sh   (from anywhere in the tree)
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
model=docs/kernel-model.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"

[ -f "$model" ] || { echo "citations: $model is missing"; exit 1; }
# the model's section numbers: "## 3." and "### 3.8"
sed -n 's/^##\{1,2\} \([0-9][0-9.]*[0-9]\)[. ].*/\1/p; s/^##\{1,2\} \([0-9]\)\. .*/\1/p' \
    "$model" | sort -u >"$tmp/sections"

# the text files of the tree (figures, build output, git and the fuzz
# corpus, which is input data however it reads, left out)
files() {
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files --cached --others --exclude-standard
	else
		find . -type f ! -path './.git/*' ! -path './build*' | sed 's|^\./||'
	fi
}
files | grep -v -e '\.png$' -e '\.svg$' -e '^tests/check-citations\.sh$' \
    -e '^tests/fuzz/corpus/' >"$tmp/files"

# every § with the word before it on its line: FILE:LINE:WORD §N
: >"$tmp/cites"
while IFS= read -r f; do
	[ -f "$f" ] || continue
	grep -n -o -E '([^ (]+ +)?§[0-9]+(\.[0-9]+)*' "$f" 2>/dev/null |
	    sed "s|^|$f:|" >>"$tmp/cites" || true
done <"$tmp/files"

bad=0
n=0
while IFS= read -r c; do
	where=${c%%:*}:$(echo "$c" | cut -d: -f2)
	text=$(echo "$c" | cut -d: -f3-)
	word=${text%§*}
	num=${text##*§}
	case $word in
	*kernel.md*|*kernel-model.md*) ;;
	*.md\ *|*.md\`\ *|*.h\ *) continue ;;	# another document's section
	esac
	n=$((n + 1))
	if ! grep -qx "$num" "$tmp/sections"; then
		echo "citations: $where: §$num is not a section of $model"
		bad=$((bad + 1))
	fi
done <"$tmp/cites"

# every test the model names (`suite/test`) exists in tests/*.c
grep -h -o 'Test([a-z_0-9]*, *[a-z_0-9]*' tests/*.c |
    sed 's/.*Test(//; s/, */\//' | sort -u >"$tmp/tests"
for t in $(grep -o '`[a-z_0-9][a-z_0-9]*/[a-z_0-9][a-z_0-9]*`' "$model" | tr -d '`' | sort -u); do
	n=$((n + 1))
	if ! grep -qx "$t" "$tmp/tests"; then
		echo "citations: $model names test $t, which tests/*.c does not hold"
		bad=$((bad + 1))
	fi
done

# forbid ERE WHY: every line of the tree that matches ERE is bad
# (listed; only counted when CITATIONS_STRICT=0)
forbid() {
	c=$(grep -n -I -E "$1" $(cat "$tmp/files") 2>/dev/null | grep -c . || true)
	if [ "$c" -gt 0 ]; then
		echo "citations: $c lines $2"
		if [ "${CITATIONS_STRICT:-1}" = 1 ]; then
			grep -n -I -E "$1" $(cat "$tmp/files") | sed 's/^/  /'
			bad=$((bad + c))
		fi
	fi
}

# the old name
forbid 'kernel\.md' "still name kernel.md (listed below)"
# the specification's design.md, which a clone does not have either
# (docs/design.md has no numbered sections)
forbid '(^|[^/])design\.md §' "cite design.md §N, a section no file of the tree has"

echo "citations: $n checked, $bad bad"
[ "$bad" -eq 0 ]
