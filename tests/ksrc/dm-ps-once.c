// A path selector written in the kernel's style for tests/test_mpath.c:
// "once" answers its first select_path with the first valid path of its
// table and every later one with NULL, valid paths or not, as a selector
// with nothing to offer does.  It drives dm-mpath into "no path" while
// paths are valid, which the kernel's own selectors never do.
#include "dm-path-selector.h"

#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/slab.h>

#define DM_MSG_PREFIX "multipath once"

struct once_path {
	struct list_head list;
	struct dm_path *path;
	bool failed;
};

struct once {
	struct list_head paths;
	bool answered;
};

static int once_create(struct path_selector *ps, unsigned int argc,
		       char **argv)
{
	struct once *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return -ENOMEM;
	INIT_LIST_HEAD(&o->paths);
	ps->context = o;
	return 0;
}

static void once_destroy(struct path_selector *ps)
{
	struct once *o = ps->context;
	struct once_path *p, *n;

	list_for_each_entry_safe(p, n, &o->paths, list) {
		list_del(&p->list);
		kfree(p);
	}
	kfree(o);
	ps->context = NULL;
}

static int once_add_path(struct path_selector *ps, struct dm_path *path,
			 int argc, char **argv, char **error)
{
	struct once *o = ps->context;
	struct once_path *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	p->path = path;
	path->pscontext = p;
	list_add_tail(&p->list, &o->paths);
	return 0;
}

static void once_fail_path(struct path_selector *ps, struct dm_path *path)
{
	struct once_path *p = path->pscontext;

	p->failed = true;
}

static int once_reinstate_path(struct path_selector *ps,
			       struct dm_path *path)
{
	struct once_path *p = path->pscontext;

	p->failed = false;
	return 0;
}

static struct dm_path *once_select_path(struct path_selector *ps,
					size_t nr_bytes)
{
	struct once *o = ps->context;
	struct once_path *p;

	if (o->answered)
		return NULL;
	list_for_each_entry(p, &o->paths, list)
		if (!p->failed) {
			o->answered = true;
			return p->path;
		}
	return NULL;
}

static struct path_selector_type once_ps = {
	.name		= "once",
	.module		= THIS_MODULE,
	.create		= once_create,
	.destroy	= once_destroy,
	.add_path	= once_add_path,
	.fail_path	= once_fail_path,
	.reinstate_path	= once_reinstate_path,
	.select_path	= once_select_path,
};

static int __init once_init(void)
{
	return dm_register_path_selector(&once_ps);
}

static void __exit once_exit(void)
{
	dm_unregister_path_selector(&once_ps);
}

module_init(once_init);
module_exit(once_exit);

MODULE_DESCRIPTION(DM_NAME " one-answer path selector for mpsim's tests");
MODULE_LICENSE("GPL");
