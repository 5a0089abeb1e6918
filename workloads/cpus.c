/*
 * cpus.c: which simulated CPU submits a job's I/O, for the io-affinity
 * selector (dm-ps-io-affinity.c picks the path mapped to the submitting
 * CPU).  The machine has ncpus= CPUs (the kernel's nr_cpu_ids, default 1)
 * split over numa_nodes= nodes ([multipath]).
 *
 * Each job clone is one fio thread, and mpsim keeps it on one CPU for its
 * whole life (migration is not modelled): clone g, numbered from 0 across
 * all jobs in order as fio numbers its threads (thread_number - 1), runs
 * on the (g mod n)-th CPU of its allowed set of n CPUs.  The set is all
 * ncpus CPUs unless fio's cpus_allowed= (a list: "0,5,8-15") or cpumask=
 * (a number whose bit i allows CPU i: 34 is CPUs 1 and 5) narrows it.
 * That is what fio's cpus_allowed_policy=split does with one CPU per
 * thread; with shared (fio's default) the scheduler places the threads,
 * and mpsim spreads them the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio.h"

/* One "A" or "A-B" of cpus_allowed, A <= B, each below PS_MAX_CPUS. */
static int cpu_range(const char *s, const char **end, unsigned *lo,
		     unsigned *hi, char *err)
{
	unsigned long a, b;
	char *e;

	if (*s < '0' || *s > '9')
		return input_error(err, "'%.40s' is not a CPU number", s);
	a = strtoul(s, &e, 10);
	b = a;
	if (*e == '-') {
		if (e[1] < '0' || e[1] > '9')
			return input_error(err, "'%.40s' is not a CPU range", s);
		b = strtoul(e + 1, &e, 10);
	}
	if (b < a)
		return input_error(err, "CPU range %lu-%lu runs backwards", a, b);
	if (b >= PS_MAX_CPUS)
		return input_error(err, "CPU %lu is beyond the %u mpsim "
				   "simulates", b, PS_MAX_CPUS);
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	*end = e;
	return 0;
}

int fio_set_cpus_allowed(struct job_conf *j, const char *v, char *err)
{
	struct ps_cpumask m;
	const char *p = v;

	memset(&m, 0, sizeof(m));
	for (;;) {
		unsigned lo = 0, hi = 0, c;
		int r = cpu_range(p, &p, &lo, &hi, err);

		if (r)
			return r;
		for (c = lo; c <= hi; c++)
			ps_cpu_set(&m, c);
		if (!*p)
			break;
		if (*p != ',')
			return input_error(err, "'%.40s': CPUs are separated by "
					   "commas", v);
		p++;
	}
	j->cpus = m;
	j->cpus_set = true;
	return 0;
}

/* fio reads cpumask= as an integer and looks at its low 32 bits only
 * ((1 << i) of an int); a higher bit would be dropped, so it is refused. */
int fio_set_cpumask(struct job_conf *j, const char *v, char *err)
{
	uint64_t val;
	unsigned c;
	char *e;

	if (*v < '0' || *v > '9')
		return input_error(err, "'%.40s' is not a number", v);
	val = strtoull(v, &e, 0);
	if (*e)
		return input_error(err, "'%.40s' is not a number", v);
	if (val >> 32)
		return input_error(err, "'%.40s' names a CPU above 31, which "
				   "fio does not read", v);
	if (!val)
		return input_error(err, "'%.40s' allows no CPU", v);
	memset(&j->cpus, 0, sizeof(j->cpus));
	for (c = 0; c < 32; c++)
		if (val >> c & 1)
			ps_cpu_set(&j->cpus, c);
	j->cpus_set = true;
	return 0;
}

int fio_check_cpus(const struct job_conf *j, unsigned ncpus, char *err)
{
	unsigned last;

	if (!j->cpus_set)
		return 0;
	/* fio: "CPU %d too large (max=%ld)", against the simulated machine */
	for (last = PS_MAX_CPUS; last-- > 0;)
		if (ps_cpu_isset(&j->cpus, last))
			break;
	if (last >= ncpus)
		return input_error(err, "cpus_allowed: CPU %u is beyond the "
				   "machine's %u (ncpus=)", last, ncpus);
	return 0;
}

unsigned job_cpu(const struct job_conf *j, unsigned clone, unsigned ncpus)
{
	unsigned n, k, c;

	if (!j->cpus_set)
		return clone % ncpus;
	n = ps_cpu_weight(&j->cpus, ncpus);
	k = clone % n;
	for (c = ps_cpu_next(&j->cpus, 0, ncpus);; c = ps_cpu_next(&j->cpus, c + 1, ncpus))
		if (!k--)
			return c;
}
