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

# every § with the word before it on its line: FILE:LINE:WORD §N (one
# grep and one awk over the whole tree: a process per file or per
# citation cost seconds)
while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done <"$tmp/files" |
    tr '\n' '\0' | xargs -0 grep -H -n -o -E '([^ (]+ +)?§[0-9]+(\.[0-9]+)*' \
    >"$tmp/cites" 2>/dev/null || true

# each citation of the model that is not one of its sections; a § right
# after another document's name cites that document
awk -v model="$model" -v counts="$tmp/counts" '
NR == FNR { sec[$0] = 1; next }
{
	text = $0
	sub(/^[^:]*:[^:]*:/, "", text)
	where = substr($0, 1, length($0) - length(text) - 1)
	p = 0
	for (i = index(text, "§"); i; i = index(substr(text, p + 1), "§"))
		p += i
	word = substr(text, 1, p - 1)
	num = substr(text, p + length("§"))
	if (!index(word, "kernel.md") && !index(word, "kernel-model.md") &&
	    (index(word, ".md ") || index(word, ".md` ") || index(word, ".h ")))
		next
	n++
	if (!(num in sec)) {
		print "citations: " where ": §" num " is not a section of " model
		bad++
	}
}
END { print n + 0, bad + 0 > counts }' "$tmp/sections" "$tmp/cites"
read -r n bad <"$tmp/counts"

# every test the model names (`suite/test`) exists in tests/*.c
grep -h -o 'Test([a-z_0-9]*, *[a-z_0-9]*' tests/*.c |
    sed 's/.*Test(//; s/, */\//' | sort -u >"$tmp/tests"
grep -o '`[a-z_0-9][a-z_0-9]*/[a-z_0-9][a-z_0-9]*`' "$model" | tr -d '`' |
    sort -u >"$tmp/named"
n=$((n + $(wc -l <"$tmp/named")))
for t in $(comm -23 "$tmp/named" "$tmp/tests"); do
	echo "citations: $model names test $t, which tests/*.c does not hold"
	bad=$((bad + 1))
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
