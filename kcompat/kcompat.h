/*
 * kcompat.h: the kernel API a drivers/md/dm-ps-*.c path selector uses,
 * over mpsim's simulated machine, so that the file compiles unmodified
 * into a plugin mpsim loads (--selector-source).  Every <linux/...> and
 * dm header such a file includes is a one-line file that includes this.
 *
 * What each piece stands for:
 *  - time: ktime_get_ns(), sched_clock() and jiffies read the simulated
 *    clocks mpsim sets before each call (kcompat_env), never the host's;
 *  - CPUs: get_cpu()/smp_processor_id() is the CPU submitting the I/O
 *    being mapped, nr_cpu_ids the scenario's ncpus, cpumasks hold
 *    nr_cpu_ids bits as with CONFIG_CPUMASK_OFFSTACK;
 *  - locks and atomics: one selector call runs at a time, so spinlocks
 *    do nothing and atomics are plain int arithmetic (wrapping: plugins
 *    are built with -fwrapv, as the kernel is with -fno-strict-overflow);
 *  - memory: kmalloc is malloc, within the kernel's limits: past
 *    KMALLOC_MAX_SIZE (and a kmalloc_array whose size overflows, an
 *    alloc_percpu past PCPU_MIN_UNIT_SIZE) the selector gets NULL with
 *    a warning, as from the kernel; a malloc that fails within them
 *    aborts mpsim (out of memory);
 *  - modules: module_init names the function mpsim calls after loading,
 *    which registers the selector with dm_register_path_selector().
 */
#ifndef KCOMPAT_H
#define KCOMPAT_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define KC(x)	x
#include "kcompat-abi.h"
#include "../lib/list.h"
#include "../lib/cpumask.h"

/* ---- types ---- */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef unsigned int gfp_t;
typedef long long ktime_t;

#ifndef ULLONG_MAX
#define ULLONG_MAX	(~0ULL)
#endif
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define U32_MAX		((u32)~0U)

#define GFP_KERNEL	0u
#define GFP_ATOMIC	1u
#define GFP_NOIO	2u


/* ---- compiler ---- */
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __init
#define __exit
#define __user
#define __force
#define __must_check
#define __read_mostly
#define READ_ONCE(x)	(*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define BUG_ON(c)	do { if (c) kcompat_bug(__FILE__, __LINE__); } while (0)
#define WARN_ON(c)	({ int __w = !!(c); if (__w) kcompat_warnf("WARN_ON at %s:%d", __FILE__, __LINE__); __w; })
#define WARN_ON_ONCE(c)	WARN_ON(c)

#define min(a, b)	({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a < __b ? __a : __b; })
#define max(a, b)	({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a > __b ? __a : __b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline s64 div_s64(s64 a, s32 b) { return a / b; }
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
#define do_div(n, base) ({ u32 __b = (base); u32 __r = (u32)((n) % __b); (n) /= __b; __r; })

/* ---- messages: DM_MSG_PREFIX is defined by the file ---- */
void kcompat_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kcompat_bug(const char *file, int line) __attribute__((noreturn));
#define DM_NAME			"device-mapper"
#define DMERR(f, ...)		kcompat_warnf(DM_MSG_PREFIX ": " f, ##__VA_ARGS__)
#define DMWARN(f, ...)		kcompat_warnf(DM_MSG_PREFIX ": " f, ##__VA_ARGS__)
#define DMINFO(f, ...)		do { } while (0)
#define DMDEBUG(f, ...)		do { } while (0)
#define DMERR_LIMIT		DMERR
#define DMWARN_LIMIT		DMWARN
#define DMINFO_LIMIT		DMINFO
#define pr_err(f, ...)		kcompat_warnf(f, ##__VA_ARGS__)
#define pr_warn(f, ...)		kcompat_warnf(f, ##__VA_ARGS__)
#define pr_info(f, ...)		do { } while (0)
#define pr_debug(f, ...)	do { } while (0)

/*
 * scnprintf() with the kernel's %*pb (a bitmap as hex chunks), the only
 * extension the selectors print with; DMEMIT appends to result, as the
 * kernel's does, never past maxlen.
 */
int scnprintf(char *buf, size_t size, const char *fmt, ...);
#define DMEMIT(...) sz += ((sz >= maxlen) ? 0 : \
			   scnprintf(result + sz, maxlen - sz, __VA_ARGS__))

/* ---- memory ---- */
/* The kernel's largest kmalloc (include/linux/slab.h, SLUB, 4 KiB pages:
 * 1 << (MAX_PAGE_ORDER + PAGE_SHIFT)) and largest per-CPU allocation
 * (include/linux/percpu.h: 32 KiB); past them the kernel returns NULL
 * with a WARN (mm/page_alloc.c, mm/percpu.c), and so do these. */
#define KMALLOC_MAX_SIZE	(1UL << 22)
#define PCPU_MIN_UNIT_SIZE	(32UL << 10)
void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);
#define kmalloc_array(n, s, f)	kcalloc(n, s, f)

/* ---- modules ---- */
#define THIS_MODULE		((struct module *)0)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_LICENSE(x)
#define MODULE_VERSION(x)
#define MODULE_ALIAS(x)
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
#define module_param(n, t, p)
#define MODULE_PARM_DESC(n, d)
#define module_init(fn)	int kcompat_module_init(void); \
			int kcompat_module_init(void) { return fn(); }
#define module_exit(fn)	void kcompat_module_exit(void); \
			void kcompat_module_exit(void) { fn(); }

/* dm-path-selector.h */
#define DM_PS_USE_HR_TIMER		0x00000001
#define dm_ps_use_hr_timer(type)	((type)->features & DM_PS_USE_HR_TIMER)

int dm_register_path_selector(struct path_selector_type *type);
int dm_unregister_path_selector(struct path_selector_type *type);

/* ---- time: mpsim's simulated clocks ---- */
extern struct kcompat_env kcompat_env;
static inline u64 ktime_get_ns(void) { return kcompat_env.ktime_ns; }
static inline ktime_t ktime_get(void) { return (ktime_t)kcompat_env.ktime_ns; }
static inline s64 ktime_to_ns(ktime_t t) { return t; }
static inline u64 sched_clock(void) { return kcompat_env.sched_clock_ns; }
static inline u64 local_clock(void) { return kcompat_env.sched_clock_ns; }
#define jiffies_64	(kcompat_env.jiffies_now)
#define jiffies		((unsigned long)kcompat_env.jiffies_now)
#define HZ		(kcompat_env.tick_hz)
static inline u64 get_jiffies_64(void) { return kcompat_env.jiffies_now; }
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)
#define time_after64(a, b)	((s64)((b) - (a)) < 0)
#define time_before64(a, b)	time_after64(b, a)
#define time_after_eq64(a, b)	((s64)((a) - (b)) >= 0)
/* include/linux/jiffies.h: jiffies_to_usecs, 32-bit, truncating */
static inline unsigned int jiffies_to_usecs(unsigned long j)
{
	return (unsigned int)((u64)j * 1000000u / HZ);
}
static inline u64 jiffies_to_nsecs(unsigned long j)
{
	return (u64)jiffies_to_usecs(j) * 1000;
}

/* x^n in fixed point with frac_bits fractional bits, rounding half up
 * after every multiply (include/linux/sched/loadavg.h fixed_power_int). */
static inline unsigned long fixed_power_int(unsigned long x,
					    unsigned int frac_bits,
					    unsigned int n)
{
	unsigned long result = 1UL << frac_bits;

	if (n) {
		for (;;) {
			if (n & 1) {
				result *= x;
				result += 1UL << (frac_bits - 1);
				result >>= frac_bits;
			}
			n >>= 1;
			if (!n)
				break;
			x *= x;
			x += 1UL << (frac_bits - 1);
			x >>= frac_bits;
		}
	}
	return result;
}

/* ---- locks and atomics: one call at a time ---- */
typedef struct { int unused; } spinlock_t;
typedef struct { int unused; } rwlock_t;
#define DEFINE_SPINLOCK(x)		spinlock_t x = { 0 }
#define spin_lock_init(l)		((void)(l))
#define spin_lock(l)			((void)(l))
#define spin_unlock(l)			((void)(l))
#define spin_lock_irq(l)		((void)(l))
#define spin_unlock_irq(l)		((void)(l))
#define spin_lock_irqsave(l, f)		do { (void)(l); (f) = 0; } while (0)
#define spin_unlock_irqrestore(l, f)	do { (void)(l); (void)(f); } while (0)
#define local_irq_save(f)		do { (f) = 0; } while (0)
#define local_irq_restore(f)		((void)(f))
#define preempt_disable()		do { } while (0)
#define preempt_enable()		do { } while (0)

typedef struct { int counter; } atomic_t;
typedef struct { long long counter; } atomic64_t;
#define ATOMIC_INIT(i)		{ (i) }
static inline int atomic_read(const atomic_t *v) { return v->counter; }
static inline void atomic_set(atomic_t *v, int i) { v->counter = i; }
static inline void atomic_add(int i, atomic_t *v) { v->counter += i; }
static inline void atomic_sub(int i, atomic_t *v) { v->counter -= i; }
static inline void atomic_inc(atomic_t *v) { v->counter++; }
static inline void atomic_dec(atomic_t *v) { v->counter--; }
static inline int atomic_inc_return(atomic_t *v) { return ++v->counter; }
static inline int atomic_dec_return(atomic_t *v) { return --v->counter; }
static inline int atomic_add_return(int i, atomic_t *v) { return v->counter += i; }
static inline int atomic_sub_return(int i, atomic_t *v) { return v->counter -= i; }
static inline int atomic_dec_and_test(atomic_t *v) { return !--v->counter; }
static inline long long atomic64_read(const atomic64_t *v) { return v->counter; }
static inline void atomic64_set(atomic64_t *v, long long i) { v->counter = i; }
static inline void atomic64_add(long long i, atomic64_t *v) { v->counter += i; }
static inline void atomic64_sub(long long i, atomic64_t *v) { v->counter -= i; }
static inline void atomic64_inc(atomic64_t *v) { v->counter++; }
static inline void atomic64_dec(atomic64_t *v) { v->counter--; }

typedef struct { int refs; } refcount_t;
static inline void refcount_set(refcount_t *r, int n) { r->refs = n; }
static inline unsigned int refcount_read(const refcount_t *r) { return (unsigned int)r->refs; }
static inline void refcount_inc(refcount_t *r) { r->refs++; }
static inline void refcount_dec(refcount_t *r) { r->refs--; }
static inline bool refcount_dec_and_test(refcount_t *r) { return !--r->refs; }

/* ---- CPUs: mpsim's simulated machine ---- */
#define nr_cpu_ids		(kcompat_env.cpus)
#define nr_node_ids		(kcompat_env.nodes)
#define NR_CPUS			PS_MAX_CPUS
#define smp_processor_id()	(kcompat_env.this_cpu)
#define raw_smp_processor_id()	(kcompat_env.this_cpu)
#define get_cpu()		(kcompat_env.this_cpu)
#define put_cpu()		do { } while (0)

struct cpumask { unsigned long bits[PS_MAX_CPUS / (8 * sizeof(long))]; };
typedef struct cpumask cpumask_var_t[1];
#define cpumask_bits(m)		((m)->bits)
#define to_ps_cpumask(m)	((struct ps_cpumask *)(m))
#define cpumask_pr_args(m)	nr_cpu_ids, cpumask_bits(m)
static inline bool zalloc_cpumask_var(cpumask_var_t *m, gfp_t f)
{
	memset(*m, 0, sizeof(**m));
	return true;
}
static inline bool alloc_cpumask_var(cpumask_var_t *m, gfp_t f)
{
	return zalloc_cpumask_var(m, f);
}
static inline void free_cpumask_var(cpumask_var_t m) { }
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	ps_cpu_set(to_ps_cpumask(m), cpu);
}
static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	ps_cpu_clear(to_ps_cpumask(m), cpu);
}
static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return ps_cpu_isset((const struct ps_cpumask *)m, cpu);
}
static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return ps_cpu_weight((const struct ps_cpumask *)m, nr_cpu_ids);
}
static inline int cpumask_parse(const char *buf, struct cpumask *m)
{
	return ps_cpumask_parse(buf, to_ps_cpumask(m), nr_cpu_ids);
}
#define for_each_cpu(cpu, m)						\
	for ((cpu) = ps_cpu_next((const struct ps_cpumask *)(m), 0, nr_cpu_ids); \
	     (unsigned int)(cpu) < nr_cpu_ids;				\
	     (cpu) = ps_cpu_next((const struct ps_cpumask *)(m), (cpu) + 1, nr_cpu_ids))
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (unsigned int)(cpu) < nr_cpu_ids; (cpu)++)
#define for_each_online_cpu(cpu)	for_each_possible_cpu(cpu)

static inline unsigned int cpu_to_node(unsigned int cpu)
{
	return ps_cpu_to_node(cpu, nr_cpu_ids, nr_node_ids);
}
/* the CPUs of a node: an ascending block (lib/cpumask.h) */
const struct cpumask *cpumask_of_node(unsigned int node);

/* per-CPU data: one copy per simulated CPU */
void *kcompat_alloc_percpu(size_t size);
#define alloc_percpu(type)	((type *)kcompat_alloc_percpu(sizeof(type)))
#define free_percpu(p)		kfree(p)
#define per_cpu_ptr(p, cpu)	(&(p)[cpu])
#define this_cpu_ptr(p)		per_cpu_ptr(p, smp_processor_id())

#endif
