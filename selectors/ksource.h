/*
 * ksource.h: a kernel path selector's own source file run as an mpsim
 * selector (--selector-source=FILE, [multipath] selector_source=).
 *
 * The file (a drivers/md/dm-ps-*.c, as the user has it) is compiled with
 * the system compiler against the kernel-compatibility headers of
 * kcompat/, which mpsim carries inside its binary, into a shared object
 * in a cache directory (ps_source_cache_dir()), keyed by a hash of
 * everything that goes into it, so a file is compiled once.  It is then
 * loaded with dlopen(), its module_init registers its
 * path_selector_type, and selectors/ksource.c wraps that in a struct
 * ps_type that runs like a built-in selector.
 *
 * The one difference from a built-in: the file reads its clocks itself.
 * Its ktime_get_ns() is the simulated now, its sched_clock() the
 * scenario's sched_clock model at now, its jiffies those of the
 * scenario's HZ; select_clock= therefore has no say (PS_READS_CLOCKS).
 */
#ifndef MPSIM_KSOURCE_H
#define MPSIM_KSOURCE_H

#include "selector.h"

/*
 * The selector of a kernel source file, compiled and loaded on first use
 * and kept for the life of the process (a later call with the same path
 * returns the same type).  Returns NULL with a one-line message in err
 * (the compiler's own messages, if any, went to stderr before it).
 */
const struct ps_type *ps_source_load(const char *path, char *err);

/*
 * The cache directory plugins are built in, made ready, into cache
 * (PATH_MAX bytes): $XDG_CACHE_HOME/mpsim, else ~/.cache/mpsim, else,
 * when HOME is unset or unusable (not a directory of ours, or one the
 * cache cannot be made in: HOME=/nonexistent), the per-uid
 * $TMPDIR/mpsim-UID (/tmp without TMPDIR).  A refusal (another user's
 * directory or cache, a link: lib/safe-file.h's rule for a private
 * directory) stands; it is not passed over.  0, or -EINVAL with err.
 */
int ps_source_cache_dir(char *cache, char *err);

#endif
