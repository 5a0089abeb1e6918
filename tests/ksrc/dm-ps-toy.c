// A path selector written in the kernel's style for mpsim's tests of
// --selector-source (tests/test_ksource.c): it uses the kernel API that
// kcompat/ provides and reports what it saw through its status.
//
// "toy": the first valid path in table order.  Per-path argument: a
// cpumask.  Info status per path: the ktime_get_ns(), sched_clock(),
// jiffies and CPU of the latest select_path, then the start_time of the
// latest end_io.  Table status per path: the mask, as %*pb prints it.
#include "dm-path-selector.h"

#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#define DM_MSG_PREFIX "multipath toy"

struct toy_path {
	struct list_head list;
	struct dm_path *path;
	cpumask_var_t mask;
	bool failed;
};

struct toy {
	struct list_head paths;
	u64 seen_ktime, seen_sched, last_start;
	unsigned long seen_jiffies;
	unsigned int seen_cpu;
	atomic_t selects;
	spinlock_t lock;
};

static int toy_create(struct path_selector *ps, unsigned int argc, char **argv)
{
	struct toy *t;

	if (argc > 1)
		return -EINVAL;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	INIT_LIST_HEAD(&t->paths);
	spin_lock_init(&t->lock);
	atomic_set(&t->selects, 0);
	ps->context = t;
	return 0;
}

static void toy_destroy(struct path_selector *ps)
{
	struct toy *t = ps->context;
	struct toy_path *p, *n;

	list_for_each_entry_safe(p, n, &t->paths, list) {
		list_del(&p->list);
		free_cpumask_var(p->mask);
		kfree(p);
	}
	kfree(t);
	ps->context = NULL;
}

static int toy_add_path(struct path_selector *ps, struct dm_path *path,
			int argc, char **argv, char **error)
{
	struct toy *t = ps->context;
	struct toy_path *p;

	if (argc != 1) {
		*error = "toy ps: want one cpumask";
		return -EINVAL;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p || !zalloc_cpumask_var(&p->mask, GFP_KERNEL))
		return -ENOMEM;
	if (cpumask_parse(argv[0], p->mask)) {
		kfree(p);
		*error = "toy ps: invalid cpumask";
		return -EINVAL;
	}
	p->path = path;
	path->pscontext = p;
	list_add_tail(&p->list, &t->paths);
	return 0;
}

static void toy_fail_path(struct path_selector *ps, struct dm_path *path)
{
	struct toy_path *p = path->pscontext;

	p->failed = true;
}

static int toy_reinstate_path(struct path_selector *ps, struct dm_path *path)
{
	struct toy_path *p = path->pscontext;

	p->failed = false;
	return 0;
}

static struct dm_path *toy_select_path(struct path_selector *ps,
				       size_t nr_bytes)
{
	struct toy *t = ps->context;
	struct toy_path *p;
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	t->seen_ktime = ktime_get_ns();
	t->seen_sched = sched_clock();
	t->seen_jiffies = jiffies;
	t->seen_cpu = get_cpu();
	put_cpu();
	atomic_inc(&t->selects);
	spin_unlock_irqrestore(&t->lock, flags);
	list_for_each_entry(p, &t->paths, list)
		if (!p->failed)
			return p->path;
	return NULL;
}

static int toy_start_io(struct path_selector *ps, struct dm_path *path,
			size_t nr_bytes)
{
	return 0;
}

static int toy_end_io(struct path_selector *ps, struct dm_path *path,
		      size_t nr_bytes, u64 start_time)
{
	struct toy *t = ps->context;

	t->last_start = start_time;
	return 0;
}

static int toy_status(struct path_selector *ps, struct dm_path *path,
		      status_type_t type, char *result, unsigned int maxlen)
{
	struct toy *t = ps->context;
	struct toy_path *p;
	unsigned int sz = 0;

	if (!path) {
		DMEMIT("%d ", atomic_read(&t->selects));
		return sz;
	}
	p = path->pscontext;
	if (type == STATUSTYPE_INFO)
		DMEMIT("%llu %llu %lu %u %llu ", t->seen_ktime, t->seen_sched,
		       t->seen_jiffies, t->seen_cpu, t->last_start);
	else
		DMEMIT("%*pb ", cpumask_pr_args(p->mask));
	return sz;
}

static struct path_selector_type toy_ps = {
	.name		= "toy",
	.module		= THIS_MODULE,
	.features	= DM_PS_USE_HR_TIMER,
	.table_args	= 1,
	.info_args	= 5,
	.create		= toy_create,
	.destroy	= toy_destroy,
	.add_path	= toy_add_path,
	.fail_path	= toy_fail_path,
	.reinstate_path	= toy_reinstate_path,
	.select_path	= toy_select_path,
	.start_io	= toy_start_io,
	.end_io		= toy_end_io,
	.status		= toy_status,
};

static int __init toy_init(void)
{
	return dm_register_path_selector(&toy_ps);
}

static void __exit toy_exit(void)
{
	dm_unregister_path_selector(&toy_ps);
}

module_init(toy_init);
module_exit(toy_exit);

MODULE_DESCRIPTION(DM_NAME " toy path selector for mpsim's tests");
MODULE_LICENSE("GPL");
