/*
 * scenario-check.c: the final checks of a scenario read and overridden
 * (scenario_validate): what no single option can check alone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/delay.h"
#include "workloads/fio.h"
#include "scenario-int.h"

/*
 * dm-delay is a bio-based target, and request-based dm-mpath loads only
 * over request-based (blk-mq) devices: the kernel refuses such a table
 * ("including non-request-stackable devices").
 */
static int check_delay_mode(const struct scenario *sc, char *err)
{
	const struct path_conf *p;

	if (sc->mode != MODE_REQUEST)
		return 0;
	for (p = sc->paths; p < sc->paths + sc->nr_paths; p++) {
		if (p->delay.read_ms || p->delay.write_ms || p->delay.flush_ms)
			return input_error(err, "%s: [path %s] has a dm-delay "
					   "layer, a bio-based device that "
					   "request-based multipath cannot "
					   "stack on (use mode = bio)",
					   sc->name, p->name);
		/* brd and zram are bio-based too */
		if (p->service.kind == DIST_SYNC)
			return input_error(err, "%s: [path %s] service = sync "
					   "is a bio-based device (brd, zram) "
					   "that request-based multipath "
					   "cannot stack on (use mode = bio)",
					   sc->name, p->name);
	}
	return 0;
}

/*
 * kernel= names the release whose dm-delay runs (sim/delay.c,
 * docs/kernel-model.md §7.3, §7.4) and whose timer wheel (§8.2: every
 * release mpsim takes, 4.11+, has the levels wheel).  What that release
 * cannot have is refused: the classic wheel, and a kthread_poll= other
 * than its own from 6.7 on.  Before 6.7 there is no kthread, so
 * kthread_poll= and expiry = ns (which acts in kthread mode only) change
 * nothing: warned.  From 6.7 expiry = ns is the dm-devel patch (§7.6)
 * applied to that release, which no release has: run, and said once.
 */
static int check_delay_kernel(const struct scenario *sc, char *err)
{
	unsigned k = sc->kernel, maj = k / 1000, min = k % 1000;
	const struct path_conf *p;
	bool said = false;

	if (!k)
		return 0;
	if (sc->timer_wheel == WHEEL_CLASSIC)
		return input_error(err, "%s: timer_wheel = classic is the <= "
				   "4.7 wheel; kernel %u.%u has the levels "
				   "wheel (4.8+)", sc->name, maj, min);
	for (p = sc->paths; p < sc->paths + sc->nr_paths; p++) {
		const struct delay_conf *d = &p->delay;
		bool busy = k < KERNEL_6_16;

		if (!d->read_ms && !d->write_ms && !d->flush_ms)
			continue;
		if (k < KERNEL_6_7 && (d->poll_given || d->expiry == EXPIRY_NS)) {
			mpsim_warn("%s: [path %s] %s changes nothing: kernel "
				   "%u.%u's dm-delay has the timer mode only "
				   "(the kthread came in 6.7)", sc->name,
				   p->name, d->poll_given ? "kthread_poll" :
				   "expiry = ns", maj, min);
			return 0;	/* once: the same for every path */
		}
		if (k >= KERNEL_6_7 && d->expiry == EXPIRY_NS && !said) {
			mpsim_warn("%s: [path %s] expiry = ns is the dm-devel "
				   "nanosecond-expiry patch, in no release: "
				   "modelled as kernel %u.%u with it applied",
				   sc->name, p->name, maj, min);
			said = true;
		}
		if (k >= KERNEL_6_7 && d->poll_given &&
		    (d->poll == POLL_BUSY) != busy)
			return input_error(err, "%s: [path %s] kthread_poll = "
					   "%s is not kernel %u.%u's: its "
					   "kthread %s", sc->name, p->name,
					   busy ? "mainline" : "busy", maj, min,
					   busy ? "busy-polls (the sleeps came "
					   "in 6.16)" : "sleeps between polls "
					   "(since 6.16)");
	}
	return 0;
}

/*
 * A path on which an I/O takes no time at all: its service can only draw
 * 0 (fixed:0, uniform:0,0), it has no latency, and no dm-delay class
 * holds every I/O back.  A closed loop on it completes and resubmits at
 * one instant forever, so the clock never moves and the run never ends;
 * such a path is refused rather than given a made-up minimum cost.  (A
 * per-byte cost proves nothing: a flush has no bytes, and a fast enough
 * bandwidth rounds to 0 ns.)  A synchronous device (service = sync) is
 * such a path unless the I/O costs CPU time (submit_cpu, complete_cpu),
 * which is what paces a brd in the kernel.
 */
static int check_progress(const struct scenario *sc, char *err)
{
	const struct path_conf *p;
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++) {
		const struct delay_conf *d;
		unsigned flush;

		p = &sc->paths[i];
		d = &p->delay;
		flush = d->flush_given ? d->flush_ms : d->write_ms;
		if (p->service.hi > 0 || p->service.mean > 0 || p->latency ||
		    (d->read_ms && d->write_ms && flush) || sc->submit_cpu ||
		    sc->complete_cpu)
			continue;
		if (p->service.kind == DIST_SYNC)
			return input_error(err, "%s: [path %s]: service = sync "
					   "ends an I/O the instant it is "
					   "submitted, so the clock could stop "
					   "for good; give the I/O a CPU time "
					   "(submit_cpu, complete_cpu) or the "
					   "path a dm-delay on every class",
					   sc->name, p->name);
		return input_error(err, "%s: [path %s]: an I/O would take no "
				   "time (its service time is always 0 and "
				   "it has no latency), so the clock could "
				   "stop for good; give it a service time or "
				   "a latency of at least 1ns", sc->name,
				   p->name);
	}
	return 0;
}

/* A problem of one job: "SCENARIO: job NAME: ..." */
static int job_error(const struct scenario *sc, const struct job_conf *j,
		     char *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int job_error(const struct scenario *sc, const struct job_conf *j,
		     char *err, const char *fmt, ...)
{
	char why[ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return input_error(err, "%s: job %s: %s", sc->name, j->name, why);
}

static int validate_job(const struct scenario *sc, const struct job_conf *j,
			uint64_t *log_entries, char *err)
{
	char why[ERR_MAX];

	if (!j->iodepth || j->iodepth > MAX_INFLIGHT)
		return job_error(sc, j, err, "iodepth %u is out of range "
				 "(1 to %u)", j->iodepth, MAX_INFLIGHT);
	if (!j->numjobs)
		return job_error(sc, j, err, "numjobs is 0");
	if (!j->bs || j->bs > UINT32_MAX)
		return job_error(sc, j, err, "bs %llu is out of range",
				 (unsigned long long)j->bs);
	if (j->rwmixread > 100)
		return job_error(sc, j, err, "rwmixread %u is above 100",
				 j->rwmixread);
	if (!j->runtime && !fio_job_bounded(j))
		return job_error(sc, j, err, "never ends (give it runtime= "
				 "or number_ios=)");
	if (fio_validate_job(j, log_entries, why) ||
	    fio_check_cpus(j, sc->ncpus, why))
		return job_error(sc, j, err, "%s", why);
	return 0;
}

/* The table's devices against the [path] sections (the grammar was read
 * with the line). */
static int check_table(const struct scenario *sc, char *err)
{
	struct mp_table t;
	char why[ERR_MAX];
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++)
		if (sc->paths[i].path_args[0])
			return input_error(err, "%s: [path %s] path_args: the "
					   "table line gives per-path arguments",
					   sc->name, sc->paths[i].name);
	if (mp_table_from_scenario(&t, sc, why))
		return input_error(err, "%s: table: %s", sc->name, why);
	mp_table_free(&t);
	return 0;
}

int scenario_validate(const struct scenario *sc, char *err)
{
	uint64_t inflight = 0, clones = 0, log_entries = 0;
	const struct job_conf *j;
	int r = 0;

	if (!sc->nr_paths)
		r = input_error(err, "%s: no paths (add a [path NAME] "
				"section)", sc->name);
	else if (!sc->nr_jobs)
		r = input_error(err, "%s: no jobs", sc->name);
	else if (!sc->selector[0])
		r = input_error(err, "%s: no selector", sc->name);
	else if (!hz_valid(sc->hz))
		r = input_error(err, "%s: HZ %u is not one a kernel is built "
				"with (100, 250, 300 or 1000)", sc->name,
				sc->hz);
	/* historical-service-time came with 5.8 (docs/kernel-model.md §3) */
	if (!r && sc->kernel && sc->kernel < 5008 &&
	    (!strcmp(sc->selector, "historical-service-time") ||
	     !strcmp(sc->selector, "hst")))
		r = input_error(err, "%s: historical-service-time is not in "
				"kernel %u.%u (added in 5.8)", sc->name,
				sc->kernel / 1000, sc->kernel % 1000);
	if (!r && sc->numa_nodes > sc->ncpus)
		r = input_error(err, "%s: numa_nodes=%u is more than the %u "
				"CPUs (ncpus=)", sc->name, sc->numa_nodes,
				sc->ncpus);
	/* wake_cpu lengthens a turn on the CPU, and without a per-I/O
	 * CPU time no I/O takes one (sim/cpu.c) */
	if (!r && sc->wake_cpu && !sc->submit_cpu && !sc->complete_cpu)
		r = input_error(err, "%s: wake_cpu needs submit_cpu or "
				"complete_cpu: it is more CPU time for the "
				"work that finds the CPU idle, and without "
				"them no I/O takes the CPU", sc->name);
	/* stolen time stops work on the CPU: without a per-I/O CPU time
	 * there is none to stop */
	if (!r && sc->steal_cpu.mean > 0 && !sc->submit_cpu &&
	    !sc->complete_cpu)
		r = input_error(err, "%s: steal needs submit_cpu or "
				"complete_cpu: it stops the CPU's work, and "
				"without them no I/O takes the CPU", sc->name);
	if (!r)
		r = check_events(sc, err);
	if (!r && sc->table)
		r = check_table(sc, err);
	if (!r)
		r = check_delay_mode(sc, err);
	if (!r)
		r = check_delay_kernel(sc, err);
	if (!r)
		r = check_progress(sc, err);
	for (j = sc->jobs; !r && j < sc->jobs + sc->nr_jobs; j++) {
		r = validate_job(sc, j, &log_entries, err);
		clones += j->numjobs;
		inflight += (uint64_t)job_iodepth(j) * j->numjobs;
	}
	if (!r && clones > MAX_CLONES)
		r = input_error(err, "%s: %llu job clones in all (numjobs), "
				"more than %u", sc->name,
				(unsigned long long)clones, MAX_CLONES);
	if (!r && inflight > MAX_INFLIGHT)
		r = input_error(err, "%s: %llu I/Os in flight in all (iodepth "
				"x numjobs), more than %u", sc->name,
				(unsigned long long)inflight, MAX_INFLIGHT);
	if (r) {
		one_line(err);
		return r;
	}

	/* fio's note: "queue depth will be capped at 1" */
	for (j = sc->jobs; j < sc->jobs + sc->nr_jobs; j++)
		if (ioengine_sync(j->ioengine) && j->iodepth > 1)
			mpsim_warn("job %s: ioengine=%s is synchronous, so "
				   "iodepth=%u is capped at 1 (as fio does; "
				   "use ioengine=libaio)", j->name,
				   ioengine_name(j->ioengine), j->iodepth);
	/* only request-based multipath reads a clone's dispatch stamp */
	if (sc->mode == MODE_BIO) {
		const struct path_conf *p;

		for (p = sc->paths; p < sc->paths + sc->nr_paths; p++)
			if (!p->request_stats) {
				mpsim_warn("%s: [path %s] request_stats = 0 "
					   "changes nothing in bio mode (a bio "
					   "is stamped when dm maps it)",
					   sc->name, p->name);
				break;
			}
	}
	fio_warn_jobs(sc);
	mp_table_warn(sc);
	return 0;
}

