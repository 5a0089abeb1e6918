#!/bin/sh
# kernel-src.sh: the path selectors of Debian's linux-source-6.1
# (drivers/md/dm-ps-*.c), installing the package if it is missing, in
# SCRATCH_DIR, for make kernel-check and make mutate.  Nothing of the
# kernel's source enters the repository.
# Usage: kernel-src.sh SCRATCH_DIR
set -eu
SCRATCH=$1
TARBALL=/usr/src/linux-source-6.1.tar.xz

if [ ! -f "$TARBALL" ]; then
	echo "kernel-check: installing linux-source-6.1" >&2
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-install-recommends linux-source-6.1 >/dev/null
fi

# Extracted once: unpacking the tarball takes longer than the checks,
# and make mutate runs them for many builds.  The stamp, written after a
# complete extraction and older than no tarball, says the files are whole.
if [ ! -f "$SCRATCH/.extracted" ] || [ "$TARBALL" -nt "$SCRATCH/.extracted" ]; then
	rm -rf "$SCRATCH"
	mkdir -p "$SCRATCH"
	tar -xJf "$TARBALL" -C "$SCRATCH" --strip-components=3 \
		--wildcards 'linux-source-6.1/drivers/md/dm-ps-*.c'
	touch "$SCRATCH/.extracted"
fi
