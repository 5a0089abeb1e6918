/*
 * criterion-libgit2.c: the libgit2 the Criterion binary loads, a stand-in
 * that starts the real one only when Criterion needs it.
 *
 * Criterion 2.4 runs each test in a process of its own (an exec of the
 * test binary) and calls git_libgit2_init() as each starts.  Debian's
 * libgit2 pulls in 15 more libraries (mbedTLS, OpenSSL's libcrypto,
 * libssh2, Kerberos...), and its start parses every CA certificate of the
 * system: mapping and relocating those libraries and that start cost
 * about 20 ms of CPU per test, half of what a short test costs.  Criterion
 * uses libgit2 for one thing, git_diff_buffers(), to show how two strings
 * differ when an assertion on them fails.
 *
 * This file is built as a shared object with libgit2's soname (the one
 * libcriterion names, Makefile's CRIT_GIT), and mpsim-tests names it
 * first, found beside the binary (its run path): the dynamic loader then
 * takes it for the libgit2 libcriterion needs and loads none of the real
 * one's chain.  git_libgit2_init() does nothing; the first diff loads
 * the real libgit2 by its path (LIBGIT2, found by the compiler at build
 * time), starts it and asks it for the diff, so a failing test prints
 * what it would print with the real library.
 *
 * The prototypes are libgit2's (1.x), written out so that building the
 * tests does not need libgit2's headers; the options and callbacks are
 * passed on untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef LIBGIT2
#error "LIBGIT2: the path of the real libgit2, from the Makefile"
#endif

int git_libgit2_init(void);
int git_libgit2_shutdown(void);
int git_diff_buffers(const void *old_buffer, size_t old_len,
		     const char *old_as_path, const void *new_buffer,
		     size_t new_len, const char *new_as_path,
		     const void *options, void *file_cb, void *binary_cb,
		     void *hunk_cb, void *line_cb, void *payload);

typedef int count_fn(void);
typedef int diff_fn(const void *, size_t, const char *, const void *,
		    size_t, const char *, const void *, void *, void *,
		    void *, void *, void *);

static void *real;	/* the real libgit2, once loaded */
static int started;

/* The real libgit2's definition of NAME.  A bug if missing: without the
 * real library a failed string assertion could not print its diff, and
 * a path that names this stand-in would call itself. */
static void *libgit2(const char *name)
{
	void *f;

	if (!real)
		real = dlopen(LIBGIT2, RTLD_NOW | RTLD_LOCAL);
	f = real ? dlsym(real, name) : NULL;
	if (!f || f == dlsym(RTLD_DEFAULT, name)) {
		fprintf(stderr, "mpsim-tests: no %s in %s (%s)\n", name,
			LIBGIT2, real ? "not the real libgit2" : dlerror());
		abort();
	}
	return f;
}

int git_libgit2_init(void)
{
	return 1;
}

int git_libgit2_shutdown(void)
{
	if (!started)
		return 0;
	started = 0;
	return ((count_fn *)libgit2("git_libgit2_shutdown"))();
}

int git_diff_buffers(const void *old_buffer, size_t old_len,
		     const char *old_as_path, const void *new_buffer,
		     size_t new_len, const char *new_as_path,
		     const void *options, void *file_cb, void *binary_cb,
		     void *hunk_cb, void *line_cb, void *payload)
{
	if (!started) {
		((count_fn *)libgit2("git_libgit2_init"))();
		started = 1;
	}
	return ((diff_fn *)libgit2("git_diff_buffers"))(old_buffer, old_len,
		old_as_path, new_buffer, new_len, new_as_path, options,
		file_cb, binary_cb, hunk_cb, line_cb, payload);
}
