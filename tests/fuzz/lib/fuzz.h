/*
 * fuzz.h: what the fuzz targets under tests/fuzz/ share.  Each target is
 * one file holding one FUZZ_TARGET(name) { ... }: an entry that takes any
 * bytes and hands them to one of mpsim's readers.  The same file builds
 * two ways: with -DFUZZ_LIBFUZZER as a libFuzzer binary (`make fuzz`), and
 * without it into build/fuzz-replay, which `make test` uses to feed every
 * file of tests/fuzz/corpus/NAME/ to fuzz_NAME() in the normal build.
 *
 * An entry must return 0 for every input: bad input is refused by the
 * reader with -EINVAL, which is the expected outcome, not a finding.  A
 * finding is a crash, an assertion, a sanitizer report, a leak or a hang.
 */
#ifndef MPSIM_FUZZ_H
#define MPSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "input/scenario.h"

#ifdef FUZZ_LIBFUZZER
#define FUZZ_TARGET(name)						\
	int fuzz_##name(const uint8_t *data, size_t size);		\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);	\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)	\
	{								\
		return fuzz_##name(data, size);			\
	}								\
	int fuzz_##name(const uint8_t *data, size_t size)
#else
#define FUZZ_TARGET(name)						\
	int fuzz_##name(const uint8_t *data, size_t size);		\
	int fuzz_##name(const uint8_t *data, size_t size)
#endif

/*
 * The bytes as a C string (malloc'd), or NULL when they hold a NUL byte:
 * every text reader gets its text from a file loader that refuses NUL
 * bytes, or from argv, which cannot hold one.
 */
char *fuzz_text(const uint8_t *data, size_t size);

/*
 * Validate sc and, when it is small enough to run in a few milliseconds
 * (paths, job clones), run it with every job bounded to a few dozen
 * I/Os, a short ramp and runtime: the run is where time values, service draws and replay delays
 * become simulated time.  Frees sc.
 */
void fuzz_run(struct scenario *sc);

/* A memory file holding the bytes, as a path ("/proc/self/fd/N") for the
 * readers that take a path (read_iolog=).  One per process, rewritten. */
const char *fuzz_file(const uint8_t *data, size_t size);

#endif
