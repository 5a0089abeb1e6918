// A path selector written in the kernel's style that fails on purpose,
// for the tests of the watch over plugins (tests/safety.sh): "fail"
// picks the first valid path, and fails as FAIL_AT says:
//   1  SIGSEGV in select_path     2  exit(0) in select_path
//   3  an endless select_path     4  SIGSEGV in module_init
//   5  exit(0) in module_init     6  _exit(3) in select_path
//   7  exit(0) in a thread of its own, started by create, once destroy
//      has returned (mpsim's own thread then runs mpsim's code)
//   8  create asks kzalloc and kcalloc for more than the kernel gives
//      (1 TiB; a count times a size past 2^64) and, given NULL as the
//      kernel gives, fails with -ENOMEM
// after FAIL_AFTER selects (default 100).  FAIL_AT is defined by a
// header <mpsim-fail-at.h> found on the compiler's include path (CPATH),
// when there is one (a test of the cache key: each header is a build of
// its own), else read at run time from the environment variable
// MPSIM_FAIL_AT (0 when unset), so that one build serves every way of
// failing.  The header's FAIL_MARK is returned by the status, so a test
// can tell which build ran.
#include "dm-path-selector.h"

#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/slab.h>

#if __has_include(<mpsim-fail-at.h>)
#include <mpsim-fail-at.h>
#endif
#ifndef FAIL_AT
extern char *getenv(const char *);
extern int atoi(const char *);
static int fail_at_env(void)
{
	const char *s = getenv("MPSIM_FAIL_AT");

	return s ? atoi(s) : 0;
}
#define FAIL_AT fail_at_env()
#endif
#ifndef FAIL_AFTER
#define FAIL_AFTER 100
#endif
#ifndef FAIL_MARK
#define FAIL_MARK 0
#endif

extern void exit(int) __attribute__((noreturn));
extern void _exit(int) __attribute__((noreturn));
extern int pthread_create(unsigned long *thread, const void *attr,
			  void *(*fn)(void *), void *arg);
extern int usleep(unsigned int usec);

static volatile int destroyed;	/* FAIL_AT 7: destroy has run */

static void *exit_later(void *arg)
{
	while (!destroyed)
		usleep(1000);
	exit(0);
}

struct fail_path {
	struct dm_path *path;
	bool failed;
};

struct fail {
	struct fail_path *paths[64];
	unsigned int nr;
	unsigned long selects;
};

static void fail_now(int at)
{
	if (at == 1 || at == 4)
		*(volatile int *)0 = 1;
	if (at == 2 || at == 5)
		exit(0);
	if (at == 6)
		_exit(3);
	while (at == 3)
		;
}

static int fail_create(struct path_selector *ps, unsigned int argc, char **argv)
{
	struct fail *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	if (FAIL_AT == 8 && !kzalloc(1UL << 40, GFP_KERNEL) &&
	    !kcalloc(~0UL / 2, 4, GFP_KERNEL)) {
		kfree(f);
		return -ENOMEM;
	}
	ps->context = f;
	if (FAIL_AT == 7) {
		unsigned long t;

		pthread_create(&t, NULL, exit_later, NULL);
	}
	return 0;
}

static void fail_destroy(struct path_selector *ps)
{
	struct fail *f = ps->context;
	unsigned int i;

	for (i = 0; i < f->nr; i++)
		kfree(f->paths[i]);
	kfree(f);
	ps->context = NULL;
	destroyed = 1;
}

static int fail_add_path(struct path_selector *ps, struct dm_path *path,
			 int argc, char **argv, char **error)
{
	struct fail *f = ps->context;
	struct fail_path *p;

	if (f->nr == 64) {
		*error = "fail ps: too many paths";
		return -EINVAL;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->path = path;
	path->pscontext = p;
	f->paths[f->nr++] = p;
	return 0;
}

static void fail_fail_path(struct path_selector *ps, struct dm_path *path)
{
	((struct fail_path *)path->pscontext)->failed = true;
}

static int fail_reinstate_path(struct path_selector *ps, struct dm_path *path)
{
	((struct fail_path *)path->pscontext)->failed = false;
	return 0;
}

static struct dm_path *fail_select_path(struct path_selector *ps,
					size_t nr_bytes)
{
	struct fail *f = ps->context;
	unsigned int i;

	if (++f->selects > FAIL_AFTER && FAIL_AT && FAIL_AT != 4 &&
	    FAIL_AT != 5)
		fail_now(FAIL_AT);
	for (i = 0; i < f->nr; i++)
		if (!f->paths[(f->selects + i) % f->nr]->failed)
			return f->paths[(f->selects + i) % f->nr]->path;
	return NULL;
}

static int fail_status(struct path_selector *ps, struct dm_path *path,
		       status_type_t type, char *result, unsigned int maxlen)
{
	unsigned int sz = 0;

	if (!path)
		DMEMIT("%d ", FAIL_MARK);
	return sz;
}

static struct path_selector_type fail_ps = {
	.name		= "fail",
	.module		= THIS_MODULE,
	.create		= fail_create,
	.destroy	= fail_destroy,
	.add_path	= fail_add_path,
	.fail_path	= fail_fail_path,
	.reinstate_path	= fail_reinstate_path,
	.select_path	= fail_select_path,
	.status		= fail_status,
};

static int __init fail_init(void)
{
	if (FAIL_AT == 4 || FAIL_AT == 5)
		fail_now(FAIL_AT);
	return dm_register_path_selector(&fail_ps);
}

static void __exit fail_exit(void)
{
	dm_unregister_path_selector(&fail_ps);
}

module_init(fail_init);
module_exit(fail_exit);

MODULE_DESCRIPTION(DM_NAME " failing path selector for mpsim's tests");
MODULE_LICENSE("GPL");
