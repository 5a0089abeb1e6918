// A path selector written in the kernel's style for mpsim's tests of
// --selector-source (tests/test_ksource.c): "stingy" gives the first
// valid path in table order to its first select_path only and no path
// after that, valid paths or not, as a selector may.  Its status counts
// the select_path calls.
#include "dm-path-selector.h"

#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/slab.h>

#define DM_MSG_PREFIX "multipath stingy"

struct stingy_path {
	struct list_head list;
	struct dm_path *path;
	bool failed;
};

struct stingy {
	struct list_head paths;
	atomic_t selects;
};

static int stingy_create(struct path_selector *ps, unsigned int argc,
			 char **argv)
{
	struct stingy *s;

	if (argc)
		return -EINVAL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	INIT_LIST_HEAD(&s->paths);
	atomic_set(&s->selects, 0);
	ps->context = s;
	return 0;
}

static void stingy_destroy(struct path_selector *ps)
{
	struct stingy *s = ps->context;
	struct stingy_path *p, *n;

	list_for_each_entry_safe(p, n, &s->paths, list) {
		list_del(&p->list);
		kfree(p);
	}
	kfree(s);
	ps->context = NULL;
}

static int stingy_add_path(struct path_selector *ps, struct dm_path *path,
			   int argc, char **argv, char **error)
{
	struct stingy *s = ps->context;
	struct stingy_path *p;

	if (argc) {
		*error = "stingy ps: takes no path arguments";
		return -EINVAL;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->path = path;
	path->pscontext = p;
	list_add_tail(&p->list, &s->paths);
	return 0;
}

static void stingy_fail_path(struct path_selector *ps, struct dm_path *path)
{
	struct stingy_path *p = path->pscontext;

	p->failed = true;
}

static int stingy_reinstate_path(struct path_selector *ps,
				 struct dm_path *path)
{
	struct stingy_path *p = path->pscontext;

	p->failed = false;
	return 0;
}

static struct dm_path *stingy_select_path(struct path_selector *ps,
					  size_t nr_bytes)
{
	struct stingy *s = ps->context;
	struct stingy_path *p;

	if (atomic_inc_return(&s->selects) > 1)
		return NULL;
	list_for_each_entry(p, &s->paths, list)
		if (!p->failed)
			return p->path;
	return NULL;
}

static int stingy_status(struct path_selector *ps, struct dm_path *path,
			 status_type_t type, char *result, unsigned int maxlen)
{
	struct stingy *s = ps->context;
	unsigned int sz = 0;

	if (!path)
		DMEMIT("%d ", atomic_read(&s->selects));
	return sz;
}

static struct path_selector_type stingy_ps = {
	.name		= "stingy",
	.module		= THIS_MODULE,
	.table_args	= 0,
	.info_args	= 0,
	.create		= stingy_create,
	.destroy	= stingy_destroy,
	.add_path	= stingy_add_path,
	.fail_path	= stingy_fail_path,
	.reinstate_path	= stingy_reinstate_path,
	.select_path	= stingy_select_path,
	.status		= stingy_status,
};

static int __init stingy_init(void)
{
	return dm_register_path_selector(&stingy_ps);
}

static void __exit stingy_exit(void)
{
	dm_unregister_path_selector(&stingy_ps);
}

module_init(stingy_init);
module_exit(stingy_exit);

MODULE_DESCRIPTION(DM_NAME " stingy path selector, for mpsim's tests");
MODULE_LICENSE("GPL");
