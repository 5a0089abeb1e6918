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
# --selector-source takes it), named live_BASENAME.ko.  Everything is
# cached: a module is rebuilt only when its source changed.
set -eu
out=$1; shift
tarball=${LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
config=${UML_CONFIG:-/usr/share/doc/user-mode-linux/config.gz}
release=$(ls /usr/lib/uml/modules 2>/dev/null | sort -V | tail -1)
[ -n "$release" ] || { echo "mpsim: live: no /usr/lib/uml/modules/RELEASE (is user-mode-linux installed?)" >&2; exit 1; }
tree=$out/linux-source-6.1
mkdir -p "$out/modules"
jobs=${LIVE_JOBS:-2}

if [ ! -f "$tree/.mpsim-prepared-$release" ]; then
	if [ ! -f "$tree/.mpsim-unpacked" ]; then
		echo "live: unpacking $tarball" >&2
		rm -rf "$tree"
		tar -C "$out" -xJf "$tarball" --exclude='linux-source-6.1/Documentation/[!K]*'
		: > "$tree/.mpsim-unpacked"
	fi
	echo "live: modules_prepare for UML $release" >&2
	zcat "$config" > "$tree/.config"
	"$tree/scripts/config" --file "$tree/.config" \
		--module DM_MULTIPATH_HST --module DM_MULTIPATH_IOA
	make -s -C "$tree" ARCH=um olddefconfig >/dev/null
	make -s -C "$tree" ARCH=um KERNELRELEASE="$release" -j"$jobs" modules_prepare >/dev/null
	: > "$tree/.mpsim-prepared-$release"
fi

# build_one NAME OBJ SOURCE: NAME.ko from SOURCE, compiled as OBJ.c
build_one() {
	dir=$out/mod-$1
	if [ -f "$out/modules/$1.ko" ] && [ -f "$dir/$2.c" ] && cmp -s "$3" "$dir/$2.c"; then
		return 0
	fi
	rm -rf "$dir"; mkdir -p "$dir"
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
	cp "$dir/$1.ko" "$out/modules/$1.ko"
}

build_one dm-historical-service-time dm-ps-historical-service-time \
	"$tree/drivers/md/dm-ps-historical-service-time.c"
build_one dm-io-affinity dm-ps-io-affinity "$tree/drivers/md/dm-ps-io-affinity.c"
for f in "$@"; do
	b=$(basename "$f" .c | tr -c 'A-Za-z0-9_\n' '_')
	build_one "live_$b" "src_$b" "$f"
done
