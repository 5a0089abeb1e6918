#!/bin/sh
# build-module.sh: build kernel modules for Debian's user-mode-linux kernel,
# out of tree, from Debian's linux-source-6.1.
#
#   build-module.sh OUT [FILE.c ...]
#
# OUT/linux-source-6.1 is prepared once (the package's UML config plus the
# two selectors the package leaves out, modules_prepare with the package's
# kernel release, so that insmod's vermagic check passes); then
# OUT/modules/ gets dm-historical-service-time.ko and dm-io-affinity.ko from
# that tree, and one module per FILE.c given (a selector's source, as
# --selector-source takes it), named live_BASENAME.ko.
#
# OUT and OUT/modules are directories of ours alone (live.py makes and
# checks them; so does this script).  Nothing in OUT is run or loaded on
# its name alone: the tree is used again only when OUT/linux-source-6.1.key,
# a file of ours, holds the key of what made it (a SHA-256 of the
# tarball's path, size and mtime, the UML config, the release and this
# script), and a module only when its OUT/modules/NAME.key, of ours too,
# holds the key of its source's bytes and the tree's key.  Anything else
# (a marker, a tree, a module or a record another run or user left) is
# removed and made anew.  What is made here is private (umask 077).
set -eu
umask 077
out=$1; shift
tarball=${LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
config=${UML_CONFIG:-/usr/share/doc/user-mode-linux/config.gz}
release=${UML_RELEASE:-$(ls /usr/lib/uml/modules 2>/dev/null | sort -V | tail -1)}
[ -n "$release" ] || { echo "mpsim: live: no /usr/lib/uml/modules/RELEASE (is user-mode-linux installed?)" >&2; exit 1; }
tree=$out/linux-source-6.1
jobs=${LIVE_JOBS:-2}

# ours FILE: FILE is ours alone (not a link, owned by us, writable by no
# one else)
ours() {
	[ ! -L "$1" ] && [ -O "$1" ] || return 1
	case $(stat -c %A "$1") in ?????w* | ????????w*) return 1 ;; esac
}

# kept FILE KEYFILE KEY: FILE was made by a run of ours from the inputs
# KEY stands for
kept() {
	ours "$1" && ours "$2" && [ -f "$2" ] && [ "$(cat "$2")" = "$3" ]
}

# record KEYFILE KEY: KEY written to KEYFILE (a new file)
record() {
	rm -f "$1" "$1.new"
	printf '%s\n' "$2" > "$1.new"
	mv -f "$1.new" "$1"
}

sha() { sha256sum | cut -d' ' -f1; }

for d in "$out" "$out/modules"; do
	mkdir -p "$d"
	if ! ours "$d" || [ ! -d "$d" ]; then
		echo "mpsim: live: $d: not a directory of ours alone: refused (remove it)" >&2
		exit 2
	fi
done
[ -r "$tarball" ] || { echo "mpsim: live: $tarball: no such file (apt-get install linux-source-6.1)" >&2; exit 1; }

tkey=$({
	echo "mpsim live tree"
	echo "$tarball"
	stat -L -c '%s %Y' "$tarball"
	zcat "$config" | sha
	echo "$release"
	sha < "$0"
} | sha)

if [ -d "$tree" ] && kept "$tree" "$tree.key" "$tkey"; then
	:
else
	echo "live: unpacking $tarball" >&2
	rm -rf "$tree" "$tree.key"
	tar -C "$out" --no-same-owner --no-same-permissions -xJf "$tarball" \
		--exclude='linux-source-6.1/Documentation/[!K]*'
	echo "live: modules_prepare for UML $release" >&2
	zcat "$config" > "$tree/.config"
	"$tree/scripts/config" --file "$tree/.config" \
		--module DM_MULTIPATH_HST --module DM_MULTIPATH_IOA
	make -s -C "$tree" ARCH=um olddefconfig >/dev/null
	make -s -C "$tree" ARCH=um KERNELRELEASE="$release" -j"$jobs" modules_prepare >/dev/null
	record "$tree.key" "$tkey"
fi

# build_one NAME OBJ SOURCE: NAME.ko from SOURCE, compiled as OBJ.c
build_one() {
	dir=$out/mod-$1
	ko=$out/modules/$1.ko
	mkey=$({ echo "$tkey $1 $2"; cat "$3"; } | sha)
	if [ -f "$ko" ] && kept "$ko" "$out/modules/$1.key" "$mkey"; then
		return 0
	fi
	rm -rf "$dir" "$ko" "$out/modules/$1.key"
	mkdir -m 700 "$dir"
	cp "$3" "$dir/$2.c"
	cat > "$dir/Kbuild" <<KB
ccflags-y := -I\$(srctree)/drivers/md
obj-m := $1.o
$1-y := $2.o
KB
	echo "live: building $1.ko from $3" >&2
	if ! make -s -C "$tree" ARCH=um KERNELRELEASE="$release" M="$(cd "$dir" && pwd)" modules >"$dir/build.log" 2>&1; then
		cat "$dir/build.log" >&2
		echo "mpsim: live: $3: does not build as a module for UML $release" >&2
		return 2
	fi
	cp "$dir/$1.ko" "$ko"
	# the key of the bytes compiled, which a change since would not match
	record "$out/modules/$1.key" "$({ echo "$tkey $1 $2"; cat "$dir/$2.c"; } | sha)"
}

build_one dm-historical-service-time dm-ps-historical-service-time \
	"$tree/drivers/md/dm-ps-historical-service-time.c"
build_one dm-io-affinity dm-ps-io-affinity "$tree/drivers/md/dm-ps-io-affinity.c"
for f in "$@"; do
	b=$(basename "$f" .c | tr -c 'A-Za-z0-9_\n' '_')
	build_one "live_$b" "src_$b" "$f"
done
