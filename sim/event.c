/*
 * event.c: the binary min-heap behind the event queue.  Records are kept
 * by value in one array (no allocation per event); a heap of a few dozen
 * entries stays in L1, which is what keeps the per-I/O cost low.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "event.h"

/* ORDER EV */
const char *const ev_kind_name[EV_NR_KINDS] = {
	"dev-arrive", "dev-done", "job-arrival", "ramp-end", "run-end",
	"path-event", "delay-wake", "job-wake", "cpu-submit", "cpu-end-io",
	"cpu-reap", "mark",
};

void evq_init(struct evq *q)
{
	q->cap = 64;
	q->n = 0;
	q->hole = false;
	q->next_seq = 0;
	q->heap = xmalloc(q->cap * sizeof(*q->heap));
}

void evq_free(struct evq *q)
{
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
	q->hole = false;
}

/* Return non-zero if a is due before b. */
static inline bool ev_less(const struct event *a, const struct event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Put e at the place of the hole at i, moving earlier children up. */
static void sift_down(struct evq *q, unsigned i, struct event e)
{
	unsigned n = q->n;

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!ev_less(&q->heap[c], &e))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	q->heap[i] = e;
}

/* The popped root's hole takes the last record. */
static void evq_fill_hole(struct evq *q)
{
	q->hole = false;
	if (--q->n)
		sift_down(q, 0, q->heap[q->n]);
}

void evq_push(struct evq *q, sim_ns time, enum ev_kind kind, void *obj)
{
	struct event e = { time, q->next_seq++, kind, obj };
	unsigned i;

	if (q->hole) {
		q->hole = false;
		sift_down(q, 0, e);
		return;
	}
	if (q->n == q->cap) {
		q->cap *= 2;
		q->heap = xrealloc(q->heap, q->cap * sizeof(*q->heap));
	}
	/* Sift up: move parents down until e's place is found. */
	for (i = q->n++; i > 0; ) {
		unsigned parent = (i - 1) / 2;

		if (!ev_less(&e, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = e;
}

int evq_pop(struct evq *q, struct event *out)
{
	if (q->hole)
		evq_fill_hole(q);
	if (!q->n)
		return 0;
	*out = q->heap[0];
	q->hole = true;
	return 1;
}

unsigned evq_remove_if(struct evq *q, evq_match_fn *match, void *arg)
{
	unsigned i, kept = 0, n;

	if (q->hole)
		evq_fill_hole(q);
	n = q->n;
	for (i = 0; i < n; i++) {
		if (match(&q->heap[i], arg))
			continue;
		q->heap[kept++] = q->heap[i];
	}
	q->n = kept;
	/* Floyd's heap construction; (time, seq) keys are unchanged, so
	 * the survivors pop in the order they would have. */
	for (i = kept / 2; i-- > 0; )
		sift_down(q, i, q->heap[i]);
	return n - kept;
}
