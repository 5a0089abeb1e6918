/*
 * inputs.h: content hashes of the files a command read (scenario, job
 * files and their includes, I/O logs, selector sources and the local
 * headers they include) and of the mpsim build, so that a sweep's result
 * file can say what produced it and a resume or merge can refuse a file
 * made from other inputs.
 */
#ifndef MPSIM_INPUTS_H
#define MPSIM_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits: h = fnv1a64(p, n, FNV1A64_INIT), chained by passing
 * the previous h.  Not a cryptographic hash: it tells edits apart, it
 * does not resist someone forging a collision. */
#define FNV1A64_INIT	0xcbf29ce484222325ULL
uint64_t fnv1a64(const void *p, size_t n, uint64_t h);

/* One input: "ROLE:PATH" (role scenario, job, iolog, selector-source,
 * selector-header; the path as it was opened) and its content's hash. */
struct input_file {
	char *key;
	uint64_t hash;
};

/*
 * Recording.  Between inputs_record(true) and inputs_record(false),
 * every file read_text_file() reads is noted once (the first read of a
 * path wins), in the order read; a C source also notes the files its
 * `#include "..."` lines name, relative to its own directory, as deep as
 * they go.  inputs_list() gives the notes; inputs_clear() drops them.
 */
void inputs_record(bool on);
void inputs_note(const char *what, const char *path, const char *text,
		 size_t n);
size_t inputs_list(const struct input_file **list);
void inputs_clear(void);

/* The running program's identity: FNV-1a 64 of /proc/self/exe's bytes,
 * computed once (0 when it cannot be read). */
uint64_t inputs_build_hash(void);

#endif
