// A path selector written in the kernel's style that breaks dm-mpath's
// contract on purpose, for tests/test_mpath.c: "stale" ignores fail_path
// and always picks the first path of its table, failed or not.  mpsim
// must stop on such a choice (a bug of the selector), never send I/O down
// a failed path.
#include "dm-path-selector.h"

#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/slab.h>

#define DM_MSG_PREFIX "multipath stale"

struct stale {
	struct dm_path *first;
};

static int stale_create(struct path_selector *ps, unsigned int argc,
			char **argv)
{
	struct stale *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	ps->context = s;
	return 0;
}

static void stale_destroy(struct path_selector *ps)
{
	kfree(ps->context);
	ps->context = NULL;
}

static int stale_add_path(struct path_selector *ps, struct dm_path *path,
			  int argc, char **argv, char **error)
{
	struct stale *s = ps->context;

	if (!s->first)
		s->first = path;
	return 0;
}

static void stale_fail_path(struct path_selector *ps, struct dm_path *path)
{
}

static int stale_reinstate_path(struct path_selector *ps,
				struct dm_path *path)
{
	return 0;
}

static struct dm_path *stale_select_path(struct path_selector *ps,
					 size_t nr_bytes)
{
	struct stale *s = ps->context;

	return s->first;
}

static struct path_selector_type stale_ps = {
	.name		= "stale",
	.module		= THIS_MODULE,
	.create		= stale_create,
	.destroy	= stale_destroy,
	.add_path	= stale_add_path,
	.fail_path	= stale_fail_path,
	.reinstate_path	= stale_reinstate_path,
	.select_path	= stale_select_path,
};

static int __init stale_init(void)
{
	return dm_register_path_selector(&stale_ps);
}

static void __exit stale_exit(void)
{
	dm_unregister_path_selector(&stale_ps);
}

module_init(stale_init);
module_exit(stale_exit);

MODULE_DESCRIPTION(DM_NAME " stale path selector for mpsim's tests");
MODULE_LICENSE("GPL");
