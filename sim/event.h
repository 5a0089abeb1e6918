/*
 * event.h: the pending-event queue, a binary min-heap of event records
 * ordered by (time, sequence).
 *
 * Ordering guarantee: events due at the same nanosecond run in the order
 * they were scheduled (the sequence number is a FIFO tie-break, as libuv's
 * timer start_id), so a run is a pure function of its inputs and seed.
 * An event scheduled while another is being handled, for the same time,
 * runs after every event already queued for that time.
 */
#ifndef MPSIM_EVENT_H
#define MPSIM_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

/* What an event does; the loop (sim/loop.c) switches on it.
 * ORDER EV: keep ev_kind_name[] in sim/event.c in the same order. */
enum ev_kind {
	EV_DEV_ARRIVE,		/* an I/O reaches a device queue (after latency) */
	EV_DEV_DONE,		/* a device slot finishes an I/O */
	EV_JOB_ARRIVAL,		/* open loop: a job's next I/O is due */
	EV_RAMP_END,		/* ramp_time over: statistics start */
	EV_RUN_END,		/* runtime over: the run stops */
	EV_PATH_EVENT,		/* a scripted fail/reinstate of a path */
	EV_DELAY_WAKE,		/* a dm-delay layer polls or its timer fires */
	EV_JOB_WAKE,		/* a job's own timer (thinktime, replay) */
	EV_CPU_SUBMIT,		/* a submission's CPU time is over */
	EV_CPU_END_IO,		/* a completion's CPU time is over */
	EV_CPU_REAP,		/* ... of one dm ended synchronously */
	EV_MARK,		/* an interval boundary or a look at the
				   wall clock (sim_mark); not counted */
	EV_NR_KINDS
};

struct event {
	sim_ns time;		/* when it is due */
	uint64_t seq;		/* schedule order: FIFO among equal times */
	enum ev_kind kind;
	void *obj;		/* what it acts on (an I/O, a device, a job) */
};

/*
 * The heap holds n records.  After a pop, heap[0] may be a hole (`hole`):
 * the next push fills it and sifts down once, where a pop followed by a
 * push would sift the last record down and the new one up; the next pop
 * or scan fills it with the last record first.  A closed loop pushes
 * about once per pop, so most pops cost one sift-down in all.
 */
struct evq {
	struct event *heap;	/* heap[0] is the earliest */
	unsigned n, cap;	/* records, the hole included */
	bool hole;		/* heap[0] was popped, not yet refilled */
	uint64_t next_seq;
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);

/* Queue an event; O(log n). */
void evq_push(struct evq *q, sim_ns time, enum ev_kind kind, void *obj);

/* Remove the earliest event into *e; returns 0 if the queue is empty.
 * O(log n). */
int evq_pop(struct evq *q, struct event *e);

/* Return non-zero for an event evq_remove_if() is to take out. */
typedef int evq_match_fn(const struct event *e, void *arg);

/*
 * Take every event for which match() is non-zero out of the queue (the
 * cancel of a device reset, which is rare: O(n)).  match() sees each
 * event once, in no particular order, and may record it; the events left
 * keep their order.  Returns how many were taken out.
 */
unsigned evq_remove_if(struct evq *q, evq_match_fn *match, void *arg);

static inline int evq_empty(const struct evq *q)
{
	return q->n == q->hole;
}

extern const char *const ev_kind_name[EV_NR_KINDS];

#endif
