/*
 * delay.h: a dm-delay target (drivers/md/dm-delay.c, docs/kernel-model.md §7) as a
 * layer between the multipath device and a path's device, with the
 * CPU's timer wheel that its timer mode arms (docs/kernel-model.md §8).
 *
 * A target holds every bio of a class with a non-zero delay on one FIFO
 * list in arrival order and releases, at each flush, every entry that is
 * due, in list order.  Who flushes depends on the mode the kernel picks
 * at construction (§7.4): with a largest class delay under 50 ms a
 * kthread polls the list; otherwise the target's single timer, armed on
 * the CPU's timer wheel, queues a kdelayd work item that flushes.
 */
#ifndef MPSIM_DELAY_H
#define MPSIM_DELAY_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "engine.h"
#include "wheels/timer-wheel.h"

/* dm-delay's classes (struct delay_class): ORDER CLASS. */
enum delay_class_id {
	DELAY_READ,		/* everything that is not a write */
	DELAY_WRITE,		/* writes, discards, write-zeroes */
	DELAY_FLUSH,		/* writes with REQ_PREFLUSH */
	DELAY_NR_CLASSES
};

/* Below this largest class delay (ms) the kthread is used (§7.4). */
#define DELAY_KTHREAD_MAX_MS	50

/* One delayed bio (the kernel's struct dm_delay_info). */
struct delay_entry {
	struct delay_entry *next;	/* list link: arrival order */
	struct sim_io *io;
	uint64_t expires;		/* jiffies_64; ns of ktime with the
					   §7.6 expiry in kthread mode */
	enum delay_class_id cls;
};

/* What an EV_DELAY_WAKE points at: the first member of both structs. */
enum delay_wake_kind {
	WAKE_TARGET,		/* a target: kthread poll or kdelayd work */
	WAKE_SOFTIRQ,		/* the CPU's timer softirq */
};

/* The one CPU every target's timer lives on. */
struct delay_cpu {
	enum delay_wake_kind kind;	/* WAKE_SOFTIRQ */
	struct sim *sim;
	unsigned hz;
	sim_ns wq_latency;		/* kdelayd: queue_work to the work */
	sim_ns softirq_at;		/* pending softirq; SIM_NEVER: none */
	uint64_t softirqs;		/* softirq runs that had work */
	struct tw_wheel wheel;		/* per-CPU timer base */
};

/* One target (the kernel's struct delay_c). */
struct dm_delay {
	enum delay_wake_kind kind;	/* WAKE_TARGET */
	struct sim_path *path;		/* the path it sits on */
	struct sim *sim;
	struct delay_cpu *cpu;		/* timer mode: its timer's CPU */
	unsigned hz;
	unsigned delay_ms[DELAY_NR_CLASSES];	/* per class; 0 = none */
	uint64_t delay_jiffies[DELAY_NR_CLASSES]; /* msecs_to_jiffies(ms) */
	bool kthread;			/* kthread mode, else timer mode */
	bool ns_expiry;			/* §7.6's due times (kthread) */
	bool busy_poll;			/* 6.7-6.15 kthread: no sleep */
	unsigned sleep_us;		/* 6.16+ worker_sleep_us */
	gsl_rng *rng;			/* the sleeps' slack */

	struct delay_entry *head, *tail; /* the delayed list, FIFO */
	struct delay_entry *spare;	/* unused entries */
	unsigned nr;			/* entries on the list */
	unsigned ops[DELAY_NR_CLASSES];	/* status info: held per class */

	sim_ns wake_at;			/* kthread: its pending poll,
					   SIM_NEVER while it sleeps idle */
	bool work_pending;		/* timer mode: kdelayd work queued */
	struct tw_timer timer;		/* timer mode: delay_timer */

	uint64_t delayed;		/* bios put on the list, whole run */
	uint64_t polls;			/* kthread polls (flush calls) */
};

#define SIM_NEVER	UINT64_MAX

/* ---- the kernel's constructor decisions, for a path's conf ---- */

/* The effective class delays: flush follows write unless given. */
void delay_class_ms(const struct delay_conf *c,
		    unsigned ms[DELAY_NR_CLASSES]);
/* True when the path has a layer at all (some class delay non-zero). */
bool delay_present(const struct delay_conf *c);
/* The releases whose dm-delay differs (kernel= as major*1000+minor). */
#define KERNEL_6_7	6007	/* kthread mode (70bbeb29fab0) */
#define KERNEL_6_10	6010	/* max_delay over every class */
#define KERNEL_6_16	6016	/* the kthread sleeps between polls */

/* Kthread mode iff the largest class delay is under 50 ms (v6.10+). */
bool delay_use_kthread(const struct delay_conf *c);
/* The same in the release `kernel` (0: mainline): never before 6.7, and
 * 6.7-6.9's max_delay leaves out the 9-word table's write delay. */
bool delay_use_kthread_in(const struct delay_conf *c, unsigned kernel);
/* Whether the kthread busy-polls: 6.7-6.15; mainline (kernel 0): as
 * kthread_poll= says. */
bool delay_busy_poll_in(const struct delay_conf *c, unsigned kernel);
/* worker_sleep_us (6.16+): min(1000, min_delay * 1000 / 8), min_delay
 * the smallest non-zero class delay in ms. */
unsigned delay_sleep_us(const struct delay_conf *c);

/* ---- the layer in a run ---- */

/* Build the layer of every path that has one, and the CPU's timer base
 * when a target is in timer mode. */
void delay_setup(struct sim *s, uint64_t seed);
void delay_teardown(struct sim *s);

/* delay_bio(): take a mapped I/O (path_submit's layer). */
void delay_map(struct dm_delay *dc, struct sim_io *io);

/* EV_DELAY_WAKE: a kthread poll, a kdelayd work item or the softirq. */
void delay_wake(struct sim *s, void *obj);

/* The layers' invariants (sim_check, debug builds): 1 if they hold. */
int delay_check(const struct sim *s);

#endif
