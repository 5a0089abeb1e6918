#!/bin/sh
# readme.sh: the documentation's examples run.  Every command of the code
# blocks (4-space indented blocks, and ```sh or ```console fences) of
# README.md and of every docs/*.md is run in a fresh copy of the tree, in
# a scratch directory, from the top of the copy:
#
# - a plain block is a shell script: every command must exit 0;
# - in a block of "$ COMMAND" lines, the lines under a command are what
#   it writes on stderr, exactly; a command shown with an error
#   ("mpsim: ..." that is no warning) must exit 2 with nothing on stdout,
#   any other must exit 0;
# - a fenced block right after a line "<!-- stdout: COMMAND -->" is what
#   COMMAND writes on stdout, exactly, and COMMAND must exit 0;
# - a block right after a line "<!-- not-run: REASON -->" is not run, and
#   the reason is printed.
#
# After each block, no file of the tree may have changed or gone, and no
# new file may appear inside the tree's folders (new files at the top,
# such as a sweep's depth.csv, are the examples' own outputs).
#
# The README is the front page: it must stay under 300 lines and link every
# docs/*.md, each of which starts with a "# " title.  Every relative link
# of the README and of docs/ must name a file of the tree, and a link to
# FILE.md#ANCHOR a heading of FILE.md.
#
# usage: readme.sh MPSIM   (MPSIM is copied into the copy as ./mpsim)
set -eu
suite=readme
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
copy=$tmp/repo
mkdir "$copy" "$tmp/blocks"

cd "$top"
copy_tree "$copy"
cp -p "$mpsim" "$copy/mpsim"
# the build beside it, times kept, so that a make target in an example
# finds it up to date instead of rebuilding the whole program; not what
# the long checks leave there (a kernel tree, mutants: gigabytes), nor
# the logs of the suites running beside this one
if [ -d build ]; then
	tar -cf - --exclude=build/mpsim-tests --exclude=build/live \
	    --exclude=build/mutate --exclude=build/kernel-src \
	    --exclude=build/suites build | tar -xf - -C "$copy"
fi

# the blocks of one document: blocks/LINE.sh (plain), LINE.dollar ($ lines),
# LINE.stdout (the command, then its output), LINE.skip, and LINE.orphan for
# a "stdout:" line with no fenced block right after it
blocks() {
	rm -rf "$tmp/blocks"
	mkdir "$tmp/blocks"
	awk -v out="$tmp/blocks" '
function flush(   f, i) {
	if (!n && ocmd == "") return
	if (skip != "") {
		f = out "/" start ".skip"; print skip > f
	} else if (ocmd != "") {
		f = out "/" start ".stdout"; print ocmd > f
		for (i = 1; i <= n; i++) print blk[i] > f
	} else {
		f = out "/" start (dollar ? ".dollar" : ".sh")
		for (i = 1; i <= n; i++) print blk[i] > f
	}
	close(f); n = 0; skip = ""; dollar = 0; pending = ""; ocmd = ""
}
function orphan(   f) {
	if (want == "") return
	f = out "/" wline ".orphan"; print want > f; close(f); want = ""
}
/^<!-- stdout:/ {
	orphan(); want = $0; wline = NR
	sub(/^<!-- stdout: */, "", want); sub(/ *-->.*/, "", want)
	next
}
/^<!-- not-run:/ {
	pending = $0; sub(/^<!-- not-run: */, "", pending); sub(/ *-->.*/, "", pending)
	if (pending == "") pending = "(no reason given)"
	next
}
/^```/ {
	if (fence) { fence = 0; flush(); next }
	fence = 1; lang = substr($0, 4); start = NR; skip = pending; pending = ""
	ocmd = want; want = ""; next
}
fence && ocmd != "" { blk[++n] = $0; next }
fence { if (lang == "sh" || lang == "console") { blk[++n] = $0; if ($0 ~ /^\$ /) dollar = 1 } next }
/^    / && (prev == "" || n) {
	if (!n) { orphan(); start = NR; skip = pending; pending = "" }
	blk[++n] = substr($0, 5); if (blk[n] ~ /^\$ /) dollar = 1
	prev = $0; next
}
{ flush(); prev = $0; if ($0 != "" && $0 !~ /^<!--/) { pending = ""; orphan() } }
END { flush(); orphan() }' "$top/$1"
}

# snapshot OLD NEW: the cksum of every file of the copy but build
# output, into NEW, and on stdout what differs from the snapshot OLD,
# one "new FILE", "changed FILE" or "gone FILE" a line, but for what
# the examples may do: new files at the top or in folders of their own
# (their outputs, beside the tree), and changes to files that are not
# the tree's (an earlier example's outputs).  A file whose inode change
# time and size are those of the last snapshot ($tmp/stat) keeps its
# sum from OLD: nothing writes a file, renames over it or truncates it
# without moving its change time, which no program can set back.
# Summing the 2 000 files of the tree after each of the examples cost
# seconds of CPU, and so did a process or two per file to compare.
: >"$tmp/stat"
snapshot() {
	(cd "$copy" && find . -type f ! -path './build/*' ! -path './build-*' \
	    ! -name mpsim -printf '%C@ %s %p\n') >"$tmp/stat.new"
	awk 'FILENAME == ARGV[1] { st[$3] = $1 " " $2; next }
	     st[$3] != $1 " " $2 { print $3 }' "$tmp/stat" "$tmp/stat.new" >"$tmp/touched"
	: >"$tmp/sums"
	[ ! -s "$tmp/touched" ] ||
	    (cd "$copy" && xargs cksum <"$tmp/touched") >"$tmp/sums"
	awk -v out="$2" '
	    FILENAME == ARGV[1] { dirs[$0]; next }
	    FILENAME == ARGV[2] { files[$0]; next }
	    FILENAME == ARGV[3] { sum[$3] = $0; next }
	    FILENAME == ARGV[4] { old[$3] = $1 " " $2; if (!($3 in sum)) sum[$3] = $0; next }
	    { s = sum[$3]; print s > out; split(s, w, " "); f = w[3]; seen[f]
	      if (!(f in old)) what = "new"
	      else if (old[f] != w[1] " " w[2]) what = "changed"
	      else next
	      report(what, f) }
	    END { for (f in old) if (!(f in seen)) report("gone", f) }
	    function report(what, f,   n, d) {
		n = f; sub(/^\.\//, "", n)
		d = n; if (!sub(/\/[^\/]*$/, "", d)) d = "."
		if (what == "new" && (d == "." || !(d in dirs))) return
		if (what != "new" && !(n in files)) return
		print what, n }' \
	    "$tmp/dirs" "$tmp/files" "$tmp/sums" "$1" "$tmp/stat.new"
	mv "$tmp/stat.new" "$tmp/stat"
}
# the folders of the tree: nothing new may appear in them
sed -n 's|^\(.*\)/[^/]*$|\1|p' "$tmp/files" | sort -u >"$tmp/dirs"
: >"$tmp/none"
snapshot "$tmp/none" "$tmp/before" >/dev/null

skipped=0

# unchanged LINE: no file of the tree changed, went or appeared in its
# folders since the last call (the block at LINE ran between)
unchanged() {
	snapshot "$tmp/before" "$tmp/after" >"$tmp/diff"
	changed=0
	while read -r what f; do
		no "$doc line $1: $what: $f"
		changed=1
	done <"$tmp/diff"
	mv "$tmp/after" "$tmp/before"
	return $changed
}

# README.md first, then docs/ in name order
docs=$(cd "$top" && echo README.md && ls docs/*.md | sort)

# The front page and the links.
n=$(wc -l <"$top/README.md")
if [ "$n" -lt 300 ]; then ok; else
	no "README.md has $n lines, not under 300"
fi
for doc in $docs; do
	[ "$doc" = README.md ] && continue
	if grep -qF "](${doc})" "$top/README.md"; then ok; else
		no "README.md does not link $doc"
	fi
	if head -n 1 "$top/$doc" | grep -q '^# '; then ok; else
		no "$doc does not start with a '# ' title"
	fi
done
# Every relative link, one line each, "DOC LINK TARGET HEADING", where
# HEADING is "-" for a link without "#", else 1 when TARGET has a
# heading of that anchor and 0 when not (or TARGET cannot be read).  A
# heading's anchor as GitHub makes it: lower case, punctuation dropped,
# spaces as hyphens; headings in ``` fences are none.  One awk over the
# documents, each target's headings read once, not a process or two per
# link.
(cd "$top" && awk '
function anchorset(f,   l, h, fence, r) {
	if (f in seen) return
	seen[f] = 1
	fence = 0
	while ((r = (getline l < f)) > 0) {
		if (l ~ /^```/) { fence = !fence; continue }
		if (!fence && l ~ /^#+ /) { h = l; sub(/^#+ /, "", h); h = tolower(h)
			gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h); has[f, h] = 1 }
	}
	if (r == 0) close(f)
}
FNR == 1 { dir = FILENAME; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."
	base = FILENAME; sub(/.*\//, "", base) }
{
	rest = $0
	while (match(rest, /\]\([^)]*\)/)) {
		m = substr(rest, RSTART + 2, RLENGTH - 3)
		rest = substr(rest, RSTART + RLENGTH)
		if (m ~ /^[a-z]*:/) continue
		n = split(m, w, /[ \t\n]+/)
		for (i = 1; i <= n; i++) {
			l = w[i]
			if (l == "") continue
			k = index(l, "#")
			file = k ? substr(l, 1, k - 1) : l
			if (file == "") file = base
			target = dir "/" file
			if (!k) { print FILENAME "\t" l "\t" target "\t-"; continue }
			anchorset(target)
			print FILENAME "\t" l "\t" target "\t" (((target, substr(l, k + 1)) in has) ? 1 : 0)
		}
	}
}' $docs) >"$tmp/links"
while IFS='	' read -r doc l target heading; do
	if [ ! -e "$top/$target" ]; then
		no "$doc: link to $l: no file $target"
	elif [ "$heading" = 0 ]; then
		no "$doc: link to $l: no such heading in $target"
	else
		ok
	fi
done <"$tmp/links"
for doc in $docs; do
	blocks "$doc"
	for b in $(ls "$tmp/blocks" | sort -n); do
		line=${b%%.*}
		case $b in
		*.skip)
			echo "readme: $doc line $line not run: $(cat "$tmp/blocks/$b")"
			skipped=$((skipped + 1))
			continue ;;
		*.orphan)
			no "$doc line $line: no fenced block right after <!-- stdout: -->"
			continue ;;
		*.stdout)
			cmd=$(head -n 1 "$tmp/blocks/$b")
			tail -n +2 "$tmp/blocks/$b" >"$tmp/want"
			st=0
			(cd "$copy" && eval "$cmd") >"$tmp/out" 2>"$tmp/err" || st=$?
			if [ "$st" -ne 0 ]; then
				no "$doc line $line: $cmd: exit status $st, not 0"
			elif ! cmp -s "$tmp/out" "$tmp/want"; then
				no "$doc line $line: $cmd: stdout differs from $doc:"
				diff "$tmp/want" "$tmp/out" | sed 's/^/  /' | head -10
			else
				ok
			fi ;;
		*.sh)
			if (cd "$copy" && sh -e "$tmp/blocks/$b") >"$tmp/out" 2>"$tmp/err"; then
				ok
			else
				no "$doc line $line: a command failed:"
				sed 's/^/  | /' "$tmp/blocks/$b"
				tail -5 "$tmp/err" | sed 's/^/  ! /'
			fi ;;
		*.dollar)
			# each "$ " command with the lines under it
			awk -v dir="$tmp" '
				/^\$ / { n++; f = dir "/cmd" n; print substr($0, 3) > f; close(f)
					 e = dir "/exp" n; printf "" > e; close(e); next }
				{ print >> (dir "/exp" n); close(dir "/exp" n) }
				END { print n > (dir "/ncmd") }' "$tmp/blocks/$b"
			i=1
			while [ "$i" -le "$(cat "$tmp/ncmd")" ]; do
				cmd=$(cat "$tmp/cmd$i")
				st=0
				(cd "$copy" && eval "$cmd") >"$tmp/out" 2>"$tmp/err" || st=$?
				want=0
				if grep -q '^mpsim: ' "$tmp/exp$i" &&
				    ! grep -q '^mpsim: warning' "$tmp/exp$i"; then
					want=2
					[ -s "$tmp/out" ] && no "$doc line $line: $cmd: writes on stdout"
				fi
				if [ "$st" -ne "$want" ]; then
					no "$doc line $line: $cmd: exit status $st, not $want"
				elif ! cmp -s "$tmp/err" "$tmp/exp$i"; then
					no "$doc line $line: $cmd: stderr differs from $doc:"
					diff "$tmp/exp$i" "$tmp/err" | sed 's/^/  /' | head -6
				else
					ok
				fi
				i=$((i + 1))
			done ;;
		esac
		unchanged "$line" || true
	done
done

# blocks and commands; the ones not run are each said above
echo "readme: $skipped not run"
finish
