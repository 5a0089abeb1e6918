/*
 * kcompat-abi.h: what a kernel path selector built by kcompat and mpsim
 * share across the plugin boundary: the device-mapper structures the
 * selector is handed (laid out as drivers/md/dm-path-selector.h and
 * dm-mpath.h declare them) and the environment through which mpsim lends
 * the plugin its simulated clocks and CPU.
 *
 * Inside the plugin KC(x) is x, so these are the kernel's own names; mpsim
 * includes this file with the default KC(x) = kc_x, which keeps them apart
 * from its own struct path_selector.
 */
#ifndef KCOMPAT_ABI_H
#define KCOMPAT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifndef KC
#define KC(x)	kc_##x
#endif

/* Bumped whenever a structure below changes. */
#define KCOMPAT_ABI_VERSION	1

typedef enum {
	KC(STATUSTYPE_INFO),
	KC(STATUSTYPE_TABLE),
	KC(STATUSTYPE_IMA),
} KC(status_type_t);

struct KC(dm_dev);
struct KC(module);

/* struct dm_path (dm-mpath.h): the path a selector is handed. */
struct KC(dm_path) {
	struct KC(dm_dev) *dev;
	void *pscontext;
};

struct KC(path_selector_type);

/* struct path_selector (dm-path-selector.h): one instance. */
struct KC(path_selector) {
	struct KC(path_selector_type) *type;
	void *context;
};

/* struct path_selector_type (dm-path-selector.h): the ops table. */
struct KC(path_selector_type) {
	char *name;
	struct KC(module) *module;
	unsigned int features;
	unsigned int table_args;
	unsigned int info_args;
	int (*create)(struct KC(path_selector) *ps, unsigned int argc,
		      char **argv);
	void (*destroy)(struct KC(path_selector) *ps);
	int (*add_path)(struct KC(path_selector) *ps, struct KC(dm_path) *path,
			int argc, char **argv, char **error);
	struct KC(dm_path) *(*select_path)(struct KC(path_selector) *ps,
					   size_t nr_bytes);
	void (*fail_path)(struct KC(path_selector) *ps, struct KC(dm_path) *p);
	int (*reinstate_path)(struct KC(path_selector) *ps,
			      struct KC(dm_path) *p);
	int (*status)(struct KC(path_selector) *ps, struct KC(dm_path) *path,
		      KC(status_type_t) type, char *result,
		      unsigned int maxlen);
	int (*start_io)(struct KC(path_selector) *ps, struct KC(dm_path) *path,
			size_t nr_bytes);
	int (*end_io)(struct KC(path_selector) *ps, struct KC(dm_path) *path,
		      size_t nr_bytes, unsigned long long start_time);
};

/*
 * The world as the plugin sees it, set by mpsim before every call into
 * the selector (one instance runs at a time in a process).
 */
struct kcompat_env {
	unsigned abi;			/* KCOMPAT_ABI_VERSION */
	uint64_t ktime_ns;		/* ktime_get_ns() */
	uint64_t sched_clock_ns;	/* sched_clock() */
	uint64_t jiffies_now;		/* jiffies_64 */
	unsigned tick_hz;		/* HZ */
	unsigned this_cpu;		/* smp_processor_id(), get_cpu() */
	unsigned cpus;			/* nr_cpu_ids */
	unsigned nodes;			/* nr_node_ids */
	void (*warn)(const char *msg);	/* DMWARN, DMERR, DMINFO, pr_* */
	void (*oom)(size_t bytes);	/* kmalloc failed: mpsim aborts */
};

#endif
