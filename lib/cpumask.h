/*
 * cpumask.h: the simulated machine's CPUs as the kernel's cpumask API sees
 * them (include/linux/cpumask.h, lib/bitmap.c, lib/vsprintf.c's %*pb), for
 * the io-affinity selector and the fio options that pin jobs to CPUs.
 *
 * The kernel mirrored is a distribution build with CONFIG_CPUMASK_OFFSTACK
 * (Debian's amd64 6.1 config sets MAXSMP, NR_CPUS=8192): there a cpumask
 * holds nr_cpu_ids bits, for_each_cpu() stops below nr_cpu_ids, and
 * cpumask_parse() refuses a mask naming a CPU at or beyond nr_cpu_ids.
 * mpsim's nr_cpu_ids is the scenario's ncpus=, at most PS_MAX_CPUS.
 */
#ifndef MPSIM_CPUMASK_H
#define MPSIM_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PS_MAX_CPUS		1024
#define PS_CPU_WORDS		(PS_MAX_CPUS / 64)

struct ps_cpumask {
	uint64_t bits[PS_CPU_WORDS];
};

static inline bool ps_cpu_isset(const struct ps_cpumask *m, unsigned cpu)
{
	return (m->bits[cpu / 64] >> (cpu % 64)) & 1;
}

static inline void ps_cpu_set(struct ps_cpumask *m, unsigned cpu)
{
	m->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline void ps_cpu_clear(struct ps_cpumask *m, unsigned cpu)
{
	m->bits[cpu / 64] &= ~(1ULL << (cpu % 64));
}

/* The next CPU of m at or after cpu and below nbits; nbits if none (the
 * kernel's find_next_bit(), what for_each_cpu() walks with). */
unsigned ps_cpu_next(const struct ps_cpumask *m, unsigned cpu, unsigned nbits);

/* How many CPUs of m lie below nbits. */
unsigned ps_cpu_weight(const struct ps_cpumask *m, unsigned nbits);

/*
 * The kernel's cpumask_parse(): bitmap_parse(buf, UINT_MAX, bits, nbits).
 * Hex digits, most significant first, in comma-separated chunks of at
 * most 8 digits (32 bits each); white space and commas may lead, trail
 * and repeat, and an empty string is an empty mask.  Returns 0, -EINVAL
 * for a character that is not a hex digit, or -EOVERFLOW for a chunk
 * wider than 32 bits or a set bit at or beyond nbits.
 */
int ps_cpumask_parse(const char *buf, struct ps_cpumask *m, unsigned nbits);

/*
 * The kernel's "%*pb" of an nbits-bit mask (lib/vsprintf.c bitmap_string):
 * 32-bit chunks in lower-case hex, most significant first, comma
 * separated, each zero-padded to 8 digits but the first, which has just
 * the digits its bits need.  Returns the length snprintf would.
 */
int ps_cpumask_print(char *buf, size_t len, const struct ps_cpumask *m,
		     unsigned nbits);

/*
 * cpu_to_node(): the simulated machine splits its nr_cpu_ids CPUs over
 * nr_node_ids NUMA nodes in ascending blocks as even as they go, node n
 * holding CPUs [n * cpus / nodes, (n + 1) * cpus / nodes) rounded up.
 */
unsigned ps_cpu_to_node(unsigned cpu, unsigned nr_cpu_ids,
			unsigned nr_node_ids);

#endif
