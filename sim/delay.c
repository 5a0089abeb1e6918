/*
 * delay.c: dm-delay (drivers/md/dm-delay.c, docs/kernel-model.md §7) as a path
 * layer: the constructor's choice of mode, the single FIFO list, the
 * kthread's polling (busy, or the 6.16 sleeps), the timer mode's one
 * timer on the CPU's timer wheel and its kdelayd work, and the
 * nanosecond expiry of the §7.6 patch.
 *
 * Cost: nothing for a path without the layer (path_submit tests one
 * pointer).  With it, O(1) per bio to queue; each flush walks the whole
 * list, as the kernel's does.  Simulated time is never stepped tick by
 * tick: a busy-polling kthread is woken exactly when the earliest entry
 * becomes due (the instant a spinning thread would see jiffies or ktime
 * pass it), a sleeping one at its next poll, and the timer softirq only
 * at the jiffy the wheel's next timer expires.
 */
#include <assert.h>
#include <stdlib.h>

#include "clock.h"
#include "delay.h"
#include "rng.h"

/* ---- the constructor's decisions (delay_ctr) ---- */

void delay_class_ms(const struct delay_conf *c,
		    unsigned ms[DELAY_NR_CLASSES])
{
	ms[DELAY_READ] = c->read_ms;
	ms[DELAY_WRITE] = c->write_ms;
	/* §7.1: the 6-word table gives flush the write class's delay;
	 * only the 9-word one sets its own. */
	ms[DELAY_FLUSH] = c->flush_given ? c->flush_ms : c->write_ms;
}

bool delay_present(const struct delay_conf *c)
{
	unsigned ms[DELAY_NR_CLASSES];

	delay_class_ms(c, ms);
	return ms[DELAY_READ] || ms[DELAY_WRITE] || ms[DELAY_FLUSH];
}

/*
 * The constructor's max_delay (§7.4) in the named release: v6.10+ ("dm-delay:
 * fix max_delay calculations") takes every class; 6.7-6.9 missed the
 * write delay of the 9-word table, so only read and flush count there
 * (with the 3- and 6-word tables flush follows write, and nothing is
 * missed).
 */
static unsigned max_delay(const struct delay_conf *c, unsigned kernel)
{
	unsigned ms[DELAY_NR_CLASSES], max = 0, k;

	delay_class_ms(c, ms);
	for (k = 0; k < DELAY_NR_CLASSES; k++) {
		if (k == DELAY_WRITE && kernel && kernel < KERNEL_6_10)
			continue;
		if (ms[k] > max)
			max = ms[k];
	}
	return max;
}

bool delay_use_kthread_in(const struct delay_conf *c, unsigned kernel)
{
	/* §7.3: before 6.7 (70bbeb29fab0) the timer is the only mode */
	if (kernel && kernel < KERNEL_6_7)
		return false;
	return max_delay(c, kernel) < DELAY_KTHREAD_MAX_MS;
}

bool delay_use_kthread(const struct delay_conf *c)
{
	return delay_use_kthread_in(c, 0);
}

bool delay_busy_poll_in(const struct delay_conf *c, unsigned kernel)
{
	/* §7.4: 6.7-6.15 spin; the fsleep polls came in 6.16 (9ec4fca1244b) */
	if (kernel)
		return kernel < KERNEL_6_16;
	return c->poll == POLL_BUSY;
}

unsigned delay_sleep_us(const struct delay_conf *c)
{
	unsigned ms[DELAY_NR_CLASSES], min = 0, k;

	/* §7.4 (6.16+): min_delay is the smallest non-zero class delay;
	 * the worker sleeps 1000 us once min_delay >> 3 is non-zero, else
	 * (min_delay * 1000) >> 3 us: min(1 ms, min_delay / 8). */
	delay_class_ms(c, ms);
	for (k = 0; k < DELAY_NR_CLASSES; k++)
		if (ms[k] && (!min || ms[k] < min))
			min = ms[k];
	if (min >> 3)
		return 1000;
	return (min * 1000) >> 3;
}

/* ---- building and freeing ---- */

static struct delay_cpu *cpu_create(struct sim *s)
{
	const struct scenario *sc = s->sc;
	struct delay_cpu *cpu = xcalloc(1, sizeof(*cpu));

	cpu->kind = WAKE_SOFTIRQ;
	cpu->sim = s;
	cpu->hz = sc->hz;
	cpu->wq_latency = sc->workqueue_latency;
	cpu->softirq_at = SIM_NEVER;
	tw_init(&cpu->wheel, sc->timer_wheel == WHEEL_CLASSIC ? TW_CLASSIC :
		TW_LEVELS, sc->hz, jiffies_at(sc->hz, s->now));
	return cpu;
}

void delay_setup(struct sim *s, uint64_t seed)
{
	unsigned i, k;

	for (i = 0; i < s->nr_paths; i++) {
		struct sim_path *p = &s->paths[i];
		const struct delay_conf *c = &p->conf->delay;
		struct dm_delay *dc;

		if (!delay_present(c))
			continue;
		dc = xcalloc(1, sizeof(*dc));
		dc->kind = WAKE_TARGET;
		dc->path = p;
		dc->sim = s;
		dc->hz = s->sc->hz;
		delay_class_ms(c, dc->delay_ms);
		for (k = 0; k < DELAY_NR_CLASSES; k++)
			dc->delay_jiffies[k] =
				msecs_to_jiffies(dc->hz, dc->delay_ms[k]);
		dc->kthread = delay_use_kthread_in(c, s->sc->kernel);
		/* §7.6: the patch keeps ns only where the kthread polls;
		 * timer mode keeps its jiffies expiry. */
		dc->ns_expiry = dc->kthread && c->expiry == EXPIRY_NS;
		dc->busy_poll = delay_busy_poll_in(c, s->sc->kernel);
		dc->sleep_us = delay_sleep_us(c);
		dc->wake_at = SIM_NEVER;
		tw_timer_init(&dc->timer, dc);
		if (dc->kthread && !dc->busy_poll)
			dc->rng = rng_stream(seed, RNG_LAYER, i);
		if (!dc->kthread) {
			if (!s->delay_cpu)
				s->delay_cpu = cpu_create(s);
			dc->cpu = s->delay_cpu;
		}
		p->delay = dc;
	}
}

static void entries_free(struct delay_entry *e)
{
	while (e) {
		struct delay_entry *next = e->next;

		free(e);
		e = next;
	}
}

void delay_teardown(struct sim *s)
{
	unsigned i;

	for (i = 0; i < s->nr_paths; i++) {
		struct dm_delay *dc = s->paths[i].delay;

		if (!dc)
			continue;
		entries_free(dc->head);
		entries_free(dc->spare);
		if (dc->rng)
			gsl_rng_free(dc->rng);
		free(dc);
		s->paths[i].delay = NULL;
	}
	free(s->delay_cpu);
	s->delay_cpu = NULL;
}

/* ---- the list ---- */

/* The instant an entry becomes due: its jiffy's edge, or its ns. */
static sim_ns due_time(const struct dm_delay *dc, uint64_t expires)
{
	return dc->ns_expiry ? expires : jiffy_edge(dc->hz, expires);
}

/* Return true if expiry a is before b, in the entries' unit. */
static bool expires_before(const struct dm_delay *dc, uint64_t a, uint64_t b)
{
	return dc->ns_expiry ? a < b : tw_before(a, b);
}

/*
 * flush_delayed_bios(): walk the whole list in order and take every
 * entry that is due (time_after_eq(jiffies, expires), or ktime >=
 * expires_ns), into `out` in list order; the rest keep their order
 * (§7.2: a later bio with a shorter delay overtakes earlier ones).
 * Returns true with *next the earliest expiry left, false when the list
 * is empty.
 */
static bool flush_list(struct dm_delay *dc, struct io_fifo *out,
		       uint64_t *next)
{
	sim_ns now = dc->sim->now;
	uint64_t j = jiffies_at(dc->hz, now);
	struct delay_entry **pp = &dc->head, *e, *last = NULL;
	bool left = false;

	while ((e = *pp)) {
		bool due = dc->ns_expiry ? now >= e->expires :
			   tw_after_eq(j, e->expires);

		if (due) {
			*pp = e->next;
			fifo_push(out, e->io);
			dc->ops[e->cls]--;
			dc->nr--;
			e->next = dc->spare;
			dc->spare = e;
			continue;
		}
		if (!left || expires_before(dc, e->expires, *next))
			*next = e->expires;
		left = true;
		last = e;
		pp = &e->next;
	}
	dc->tail = last;
	return left;
}

/*
 * Send the flushed bios down, in list order (the kernel collects them on
 * a bio_list and submits it after the walk).  A path whose device has
 * died (sim/fault.c) errors each at once, as a dead device returns them;
 * a path failed by a fail_path message has a working device below it,
 * and its bios go down as any other.
 */
static void release(struct dm_delay *dc, struct io_fifo *out)
{
	struct sim_path *p = dc->path;
	struct sim_io *io;

	while ((io = fifo_pop(out))) {
		if (p->dead)
			mpath_end_io(&dc->sim->mp, io, -EIO);
		else
			path_device_submit(p, io);
	}
}

/* ---- kthread mode (v6.7+) ---- */

/* Make sure the kthread runs at t (a busy poller: the earliest due
 * instant; a sleeper: the end of its sleep); an earlier pending run
 * covers it. */
static void wake_schedule(struct dm_delay *dc, sim_ns t)
{
	if (dc->wake_at != SIM_NEVER && dc->wake_at <= t)
		return;
	dc->wake_at = t;
	sim_schedule(dc->sim, t, EV_DELAY_WAKE, dc);
}

/*
 * fsleep(worker_sleep_us) (§7.4, mainline after the fsleep rework): up
 * to 10 us a busy udelay of exactly that; below 4 ticks usleep_range(us,
 * us + us/4), an hrtimer that may fire anywhere in that range, so the
 * slack is drawn uniformly from the layer's own stream.  The msleep
 * branch (4 ticks and more) cannot be reached: the sleep is at most
 * 1 ms, and 4 ticks are at least 4 ms.
 */
static sim_ns fsleep_ns(struct dm_delay *dc)
{
	sim_ns ns = (sim_ns)dc->sleep_us * NSEC_PER_USEC, slack;

	assert(dc->sleep_us > 0);
	if (dc->sleep_us <= 10)
		return ns;
	assert(ns < 4 * tick_len(dc->hz, dc->sim->now));
	slack = (sim_ns)(dc->sleep_us / 4) * NSEC_PER_USEC;
	return ns + gsl_rng_uniform_int(dc->rng, (unsigned long)slack + 1);
}

/*
 * wake_up_process(worker) for a new entry.  A busy poller (6.7-6.15)
 * spins on the list and sees the entry the instant it is due.  From
 * 6.16 an idle worker wakes, finds nothing due (a new entry is at least
 * a tick or a millisecond away) and sleeps its poll interval; a worker
 * already polling is not disturbed (a wake-up does not cut an hrtimer
 * sleep short).
 */
static void kthread_wake(struct dm_delay *dc, const struct delay_entry *e)
{
	if (dc->busy_poll)
		wake_schedule(dc, due_time(dc, e->expires));
	else if (dc->wake_at == SIM_NEVER)
		wake_schedule(dc, dc->sim->now + fsleep_ns(dc));
}

/* flush_worker_fn(): one pass of the loop: flush, then sleep (list
 * empty: until woken) or poll again. */
static void kthread_poll(struct dm_delay *dc)
{
	struct io_fifo out = { NULL, NULL, 0 };
	uint64_t next = 0;

	if (dc->sim->now != dc->wake_at)
		return;		/* superseded by an earlier run */
	dc->wake_at = SIM_NEVER;
	dc->polls++;
	if (flush_list(dc, &out, &next)) {
		if (dc->busy_poll)
			wake_schedule(dc, due_time(dc, next));
		else
			wake_schedule(dc, dc->sim->now + fsleep_ns(dc));
	}
	release(dc, &out);
}

/* ---- timer mode (all versions) ---- */

/* Bring the softirq event up to the wheel's next expiry: the jiffy's
 * edge, only when a timer is pending, and never later than one already
 * scheduled. */
static void softirq_update(struct delay_cpu *cpu)
{
	struct sim *s = cpu->sim;
	uint64_t next;
	sim_ns t;

	if (!tw_next_expiry(&cpu->wheel, &next))
		return;
	t = jiffy_edge(cpu->hz, next);
	if (t < s->now)
		t = s->now;
	if (cpu->softirq_at != SIM_NEVER && cpu->softirq_at <= t)
		return;
	cpu->softirq_at = t;
	sim_schedule(s, t, EV_DELAY_WAKE, cpu);
}

/*
 * queue_timeout(): §7.3: arm the target's single timer for expires only
 * if it is not pending or expires is earlier (timer_reduce, v6.10+;
 * mod_timer under a mutex before, the same rule), on the wheel the
 * scenario names, where it fires one tick late on the v4.8+ wheel and
 * on time on the classic one (§7.5).
 */
static void queue_timeout(struct dm_delay *dc, uint64_t expires)
{
	struct delay_cpu *cpu = dc->cpu;
	bool pending = tw_timer_pending(&dc->timer);
	uint64_t was = dc->timer.expires;

	tw_timer_reduce(&cpu->wheel, &dc->timer, expires,
			jiffies_at(dc->hz, dc->sim->now));
	/* the common case, a later bio: the timer did not move (and the
	 * classic wheel's next expiry is a walk of every slot) */
	if (pending && dc->timer.expires == was)
		return;
	softirq_update(cpu);
}

/* handle_delayed_timer(): queue_work(kdelayd), a no-op while the work
 * is still queued; it runs after the workqueue's latency. */
static void timer_fired(struct tw_timer *t, uint64_t at, void *arg)
{
	struct dm_delay *dc = t->data;
	struct delay_cpu *cpu = arg;

	if (dc->work_pending)
		return;
	dc->work_pending = true;
	sim_schedule(dc->sim, dc->sim->now + cpu->wq_latency, EV_DELAY_WAKE,
		     dc);
}

static void softirq_run(struct delay_cpu *cpu)
{
	struct sim *s = cpu->sim;

	if (s->now != cpu->softirq_at)
		return;		/* superseded by an earlier one */
	cpu->softirq_at = SIM_NEVER;
	cpu->softirqs++;
	tw_run(&cpu->wheel, jiffies_at(cpu->hz, s->now), timer_fired, cpu);
	softirq_update(cpu);
}

/* flush_expired_bios(): flush, and re-arm for the earliest entry left
 * (the earlier-only rule of queue_timeout). */
static void kdelayd_work(struct dm_delay *dc)
{
	struct io_fifo out = { NULL, NULL, 0 };
	uint64_t next = 0;

	dc->work_pending = false;
	if (flush_list(dc, &out, &next))
		queue_timeout(dc, next);
	release(dc, &out);
}

/* ---- entry points ---- */

void delay_map(struct dm_delay *dc, struct sim_io *io)
{
	struct sim *s = dc->sim;
	struct delay_entry *e;
	enum delay_class_id cls;

	/* §7.1: a write-direction bio with REQ_PREFLUSH (a sync: an empty
	 * flush) goes to the flush class, other writes (trims too) to the
	 * write class, everything else to the read class. */
	if (!io->write)
		cls = DELAY_READ;
	else if (io->ddir == DDIR_SYNC)
		cls = DELAY_FLUSH;
	else
		cls = DELAY_WRITE;
	if (!dc->delay_ms[cls]) {
		path_device_submit(dc->path, io);	/* 0: no delay */
		return;
	}
	e = dc->spare;
	if (e)
		dc->spare = e->next;
	else
		e = xmalloc(sizeof(*e));
	e->next = NULL;
	e->io = io;
	e->cls = cls;
	if (dc->ns_expiry)	/* §7.6: ktime + delay */
		e->expires = s->now + (sim_ns)dc->delay_ms[cls] * NSEC_PER_MSEC;
	else			/* §7.2: jiffies + msecs_to_jiffies */
		e->expires = jiffies_at(dc->hz, s->now) +
			     dc->delay_jiffies[cls];
	/* §7.2: the tail of the one list, whatever the expiry */
	if (dc->tail)
		dc->tail->next = e;
	else
		dc->head = e;
	dc->tail = e;
	dc->nr++;
	dc->ops[cls]++;
	dc->delayed++;
	trace_hook(s, trace_io_hold(s->tr, io, dc->path, e->expires));
	if (dc->kthread)
		kthread_wake(dc, e);
	else
		queue_timeout(dc, e->expires);
}

void delay_wake(struct sim *s, void *obj)
{
	enum delay_wake_kind *kind = obj;
	struct dm_delay *dc;

	if (*kind == WAKE_SOFTIRQ) {
		softirq_run(obj);
		return;
	}
	dc = obj;
	if (dc->kthread)
		kthread_poll(dc);
	else
		kdelayd_work(dc);
}

/* ---- invariants ---- */

static int target_check(const struct dm_delay *dc)
{
	const struct delay_entry *e, *last = NULL;
	unsigned n = 0, ops = 0, k;

	for (e = dc->head; e; e = e->next) {
		if (e->io->path != dc->path)
			return 0;
		last = e;
		n++;
	}
	for (k = 0; k < DELAY_NR_CLASSES; k++)
		ops += dc->ops[k];
	if (n != dc->nr || ops != n || last != dc->tail)
		return 0;
	/* the kthread polls while the list holds anything and only then
	 * (a busy one may have an earlier, superseded run pending) */
	if (dc->kthread && !dc->busy_poll &&
	    (n != 0) != (dc->wake_at != SIM_NEVER))
		return 0;
	if (dc->kthread && n && dc->wake_at == SIM_NEVER)
		return 0;
	/* timer mode: something will flush a non-empty list */
	if (!dc->kthread && n && !tw_timer_pending(&dc->timer) &&
	    !dc->work_pending)
		return 0;
	return 1;
}

int delay_check(const struct sim *s)
{
	unsigned i;

	for (i = 0; i < s->nr_paths; i++)
		if (s->paths[i].delay && !target_check(s->paths[i].delay))
			return 0;
	/* a pending timer always has its softirq scheduled */
	if (s->delay_cpu && s->delay_cpu->wheel.nr_timers &&
	    s->delay_cpu->softirq_at == SIM_NEVER)
		return 0;
	return 1;
}
