#!/bin/sh
# live-fake.sh: stand-ins for what live/build-module.sh builds from, for its
# tests (no kernel is built): DIR/linux-source-6.1.tar.xz, a tree whose
# Makefile notes each target in $FAKE_LOG and "builds" a module by
# copying its source into NAME.ko, and DIR/config.gz, a UML config.
#
# usage: live-fake.sh DIR
set -eu
src=$1/fake-src/linux-source-6.1
mkdir -p "$src/scripts" "$src/drivers/md"
cat >"$src/Makefile" <<'MK'
log = $(or $(FAKE_LOG),/dev/null)
olddefconfig modules_prepare:
	@echo $@ >>$(log)
modules:
	@echo modules $(notdir $(M)) >>$(log)
	@cd $(M) && cat *.c >$$(sed -n 's/^obj-m := \(.*\)\.o$$/\1/p' Kbuild).ko
MK
printf '#!/bin/sh\n' >"$src/scripts/config"
chmod 755 "$src/scripts/config"
echo "/* hst */" >"$src/drivers/md/dm-ps-historical-service-time.c"
echo "/* ioa */" >"$src/drivers/md/dm-ps-io-affinity.c"
tar -C "$1/fake-src" -cJf "$1/linux-source-6.1.tar.xz" linux-source-6.1
rm -rf "$1/fake-src"
echo "CONFIG_UML=y" | gzip >"$1/config.gz"
