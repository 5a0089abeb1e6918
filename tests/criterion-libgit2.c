/*
 * criterion-libgit2.c: libgit2 started only when Criterion needs it.
 *
 * Criterion 2.4 runs each test in a process of its own and calls
 * git_libgit2_init() as each starts.  Debian's libgit2 is built with
 * mbedTLS, whose start parses every CA certificate of the system: about
 * 15 ms of CPU per test, a quarter of what a short test costs.  Criterion
 * uses libgit2 for one thing, git_diff_buffers(), to show how two strings
 * differ when an assertion on them fails.  The three functions below
 * take the place of libgit2's for Criterion (the program's own symbols
 * come first in the dynamic linker's lookup): git_libgit2_init() does
 * nothing, and the first diff starts libgit2 before asking it for the
 * diff, so a failing test prints what it printed before.
 *
 * The prototypes are libgit2's (1.x), written out so that building the
 * tests does not need libgit2's headers; the options and callbacks are
 * passed on untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

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

static int started;

/* libgit2's own definition of NAME (a bug if missing: Criterion links it) */
static void *libgit2(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "mpsim-tests: libgit2 has no %s\n", name);
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
