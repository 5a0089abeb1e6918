#!/bin/sh
# layers.sh: the folders' dependencies run one way, from the commands down
# to the base library (docs/design.md draws the layers).  Three checks:
#  - includes: every quoted #include, read as the root-relative path the
#    Makefile's -I. resolves (a bare name is the file's own folder), names
#    a file of the folder itself or of a folder it may use;
#  - calls: every symbol a folder's object leaves undefined (nm -u) and
#    another folder's object defines is a call into a folder it may use
#    (so a call through a pointer is not seen; a direct call always is);
#  - size: no folder holds more than about a fifth of the code (22 %).
# The objects are the build's (BUILD, default build/): build first.
#
# usage: sh tests/layers.sh [BUILD]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}

# folder: what it may use, folders or single files.  The order, from the
# bottom: lib, then wheels and kcompat, selectors, sim, workloads, input,
# report, cli, sweep, mpsim.c.  selectors/ may use the kernel's clock
# (sim/clock.[ch], the jiffies and ktime a kernel selector reads) and
# sim/sim.h's vocabulary, nothing else of the engine; sim/ reaches the
# selectors through their contract (selectors/selector.h, defined in
# selector.c and ps-type.c) and the
# workloads through sim/workload.h alone (its calls into workloads/ are
# the functions that header declares).
rules='lib:
wheels: lib
kcompat: lib
selectors: lib kcompat sim/sim.h sim/clock.h sim/clock.c
sim: lib wheels selectors/selector.h selectors/selector.c selectors/ps-type.c workloads/call
workloads: lib wheels sim
input: lib wheels selectors sim workloads
report: lib wheels selectors sim workloads input
cli: lib wheels kcompat selectors sim workloads input report
sweep: lib wheels selectors sim workloads input report cli'

# Ties that still run the wrong way, each by name ("FILE include TARGET",
# "FILE call SYMBOL").  This list may only shrink: none is left.
known=''

folders=$(echo "$rules" | cut -d: -f1)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# a folder that disappears would pass silently: each must hold files
for d in $folders; do
	ls "$d"/*.[ch] >/dev/null 2>&1 || { echo "layers: no $d/*.[ch]"; exit 1; }
done

# ---- includes: "file target" lines ----
for d in $folders; do
	find "$d" -name '*.[ch]'
done | sort >"$tmp/files"
xargs grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' <"$tmp/files" |
sed 's/^\([^:]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
awk '{ f = $1; t = $2; dir = f; sub("/[^/]*$", "", dir)
       if (t !~ /\//) t = dir "/" t
       else if (t ~ /^\.\.\//) {	# kcompat/linux/x.h: ../../lib/list.h
	       t = dir "/" t
	       while (sub("[^/.][^/]*/\\.\\./", "", t)) ;
       }
       print "include", f, t, t }' >"$tmp/ties"

# ---- calls: "call user symbol definer" lines ----
missing= objs=
for d in $folders; do
	[ "$d" = kcompat ] && continue	# built into a plugin, not here
	for c in "$d"/*.c; do
		[ -e "$c" ] || continue
		o=$build/${c%.c}.o
		[ -f "$o" ] || missing="$missing $o"
		objs="$objs $o"
	done
done
if [ -n "$missing" ]; then
	echo "layers: not built:$missing (make mpsim first)"
	exit 1
fi
# nm -A: "object: value type symbol", the source named from the object
nm -A -g --defined-only $objs | awk -v b="$build/" '
	NF >= 3 && $(NF - 1) ~ /^[TDBRCVGSW]$/ {
		o = $1; sub(":.*$", "", o); sub("^" b, "", o); sub("\\.o$", ".c", o)
		print $NF, o }' >"$tmp/def"
nm -A -u $objs | awk -v b="$build/" '{
		o = $1; sub(":.*$", "", o); sub("^" b, "", o); sub("\\.o$", ".c", o)
		print $NF, o }' >"$tmp/undef"
sort -k1,1 "$tmp/def" >"$tmp/def.s"
sort -k1,1 "$tmp/undef" >"$tmp/undef.s"
join "$tmp/undef.s" "$tmp/def.s" | awk '{ print "call", $2, $1, $3 }' >>"$tmp/ties"
# the functions sim/workload.h declares: the engine's calls to the workloads
sed -n 's/^[a-z].*[ *]\([a-z_0-9]*\)(.*/\1/p' sim/workload.h >"$tmp/contract"

# Circles of calls which, inside a folder, run through more than one
# file: each a folder and its files, sorted, one circle a line.  The
# engine's events run round one (the loop delivers to the device and the
# paths, which schedule the loop's next events) as dm-mpath and the block
# layer do, and it is the only one.  This list may only shrink: a
# new circle, or a file joining one, fails, and so does a listed circle
# that shrank or disappeared (take it off, or write what is left).
circles='sim: cpu.c delay.c fault.c loop.c mpath.c multipathd.c path.c pgroup.c progress.c series.c stats.c trace.c'

# Each tie between two folders: allowed by the rules, a known one, or
# against the layers.  A known tie no longer found is reported too.
{ echo "$rules" | sed 's/^/rule /'; echo "$known" | sed -n 's/^./known &/p'
  sed 's/^/contract /' "$tmp/contract"; cat "$tmp/ties"; } |
awk '
function top(p) { sub("/.*", "", p); return p }
function may(d, t,   n, a, i) {
	n = split(rule[d], a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] == t || index(t, a[i] "/") == 1)
			return 1
	return 0
}
$1 == "rule" { line = $0; sub("^rule ", "", line); d = line; sub(":.*", "", d)
	       sub("^[^:]*:", "", line); rule[d] = line; next }
$1 == "known" { known[$2 " " $3 " " $4] = 1; next }
$1 == "contract" { contract[$2] = 1; next }
{
	kind = $1; user = $2; name = $3; target = $4
	d = top(user); td = top(target)
	if (kind == "include") target = name
	if (d == td || !(d in rule))
		next
	if (kind == "call") calls++
	key = user " " kind " " name
	seen[key] = 1
	if (may(d, target))
		next
	if (kind == "call" && d == "sim" && td == "workloads" &&
	    may(d, "workloads/call") && (name in contract))
		next
	if (key in known)
		next
	if (kind == "include")
		printf "layers: %s includes %s: %s/ may not use %s/\n", user, target, d, td
	else
		printf "layers: %s calls %s (%s): %s/ may not use %s/\n", user, name, target, d, td
	bad++
}
END {
	for (k in known)
		if (!(k in seen)) {
			printf "layers: no longer so, take it off the known list: %s\n", k
			bad++
		}
	print calls + 0 > "'"$tmp/calls"'"
	print bad + 0 > "'"$tmp/nbad"'"
}'
[ "$(cat "$tmp/nbad")" -eq 0 ] || echo x >>"$tmp/bad"

# ---- circles: calls between the files of one folder ----
# A call is to a function (a symbol of a text section), so a table that
# names its entries (selectors/selector.c's list of selectors) is no
# circle.  Two files are on one circle when each reaches the other.
nm -A -g --defined-only $objs | awk -v b="$build/" '
	NF >= 3 && $(NF - 1) ~ /^[TW]$/ {
		o = $1; sub(":.*$", "", o); sub("^" b, "", o); sub("\\.o$", ".c", o)
		print $NF, o }' | sort -k1,1 >"$tmp/fdef"
join "$tmp/undef.s" "$tmp/fdef" | awk '{
	u = $2; d = $3; du = u; dd = d
	sub("/[^/]*$", "", du); sub("/[^/]*$", "", dd)
	if (du == dd && u != d) print u, d }' | sort -u >"$tmp/edges"
{ echo "$circles" | sed -n 's/^./known &/p'; cat "$tmp/edges"; } |
awk '
$1 == "known" { line = $0; sub("^known ", "", line); known[line] = 1; next }
{ e[$1, $2] = 1; node[$1] = 1; node[$2] = 1 }
END {
	for (k in node) for (i in node) if ((i, k) in e)
		for (j in node) if ((k, j) in e) e[i, j] = 1
	for (i in node) {
		if (i in done) continue
		n = 0
		for (j in node)
			if (j == i || ((i, j) in e && (j, i) in e)) {
				done[j] = 1; m[++n] = j
			}
		if (n < 2) continue
		for (a = 2; a <= n; a++)	# sort the members
			for (c = a; c > 1 && m[c - 1] > m[c]; c--) {
				t = m[c]; m[c] = m[c - 1]; m[c - 1] = t
			}
		d = m[1]; sub("/[^/]*$", "", d)
		s = d ":"
		for (a = 1; a <= n; a++) { f = m[a]; sub("^.*/", "", f); s = s " " f }
		seen[s] = 1
		if (!(s in known)) {
			printf "layers: a circle of calls in %s/:%s\n", d, substr(s, length(d) + 2)
			bad++
		}
	}
	for (k in known)
		if (!(k in seen)) {
			printf "layers: no longer a circle as listed, update the circles list: %s\n", k
			bad++
		}
	print bad + 0 > "'"$tmp/ncirc"'"
}'
[ "$(cat "$tmp/ncirc")" -eq 0 ] || echo x >>"$tmp/bad"

# ---- size ----
for d in $folders; do
	printf '%s %s\n' "$d" "$(find "$d" -name '*.[ch]' -exec cat {} + | wc -l)"
done >"$tmp/lines"
awk '{ n[$1] = $2; t += $2 }
     END { for (d in n) if (n[d] * 100 > 22 * t) {
		printf "layers: %s/ holds %d of %d lines (%.0f %%), more than about a fifth\n", d, n[d], t, 100 * n[d] / t
		bad = 1 }
	   exit bad }' "$tmp/lines" || echo x >>"$tmp/bad"

if [ -f "$tmp/bad" ]; then
	[ "$(cat "$tmp/nbad")" -eq 0 ] ||
		echo "layers: $(cat "$tmp/nbad") ties against the direction of the layers"
	exit 1
fi
echo "layers: $(wc -l <"$tmp/files") files, $(cat "$tmp/calls") calls across folders, all downward ($(echo "$known" | grep -c .) known ties listed); $(wc -l <"$tmp/edges") ties between files of a folder, no circle but the $(echo "$circles" | grep -c .) listed"
