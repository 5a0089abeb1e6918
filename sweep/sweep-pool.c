/*
 * sweep-pool.c: runs a sweep's points in forked worker processes, handing
 * out one point at a time (points differ widely in cost) and passing each
 * finished block back to the parent, the only writer of the result file.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "lib/safe-file.h"
#include "selectors/kguard.h"
#include "sweep.h"

/*
 * The parent writes a point number (uint64_t) to a worker's task pipe; the
 * worker answers on its reply pipe with this header and `len` bytes: the
 * point's block (status 0) or a message (status < 0).  A closed task pipe
 * tells the worker to exit.
 */
struct reply {
	uint64_t point;
	int32_t status;
	uint32_t len;
	uint32_t notes;		/* SWEEP_NOTE_* of the point's runs */
};

struct worker {
	pid_t pid;
	int task;		/* parent -> worker, point numbers */
	int reply;		/* worker -> parent, replies */
	bool busy;		/* a point is out */
	uint64_t point;		/* which */
};

/* 0 when all n bytes came, 1 at end of file before any, -1 otherwise. */
static int read_full(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return !got && !r ? 1 : -1;
		got += (size_t)r;
	}
	return 0;
}

static void __attribute__((noreturn))
worker_main(const struct sweep *sw, int task, int reply)
{
	char err[ERR_MAX];
	uint64_t k;

	mpsim_quiet = 1;
	while (!read_full(task, &k, sizeof(k))) {
		struct reply h = { .point = k };
		char *blk = NULL;
		size_t len = 0;

		h.status = sweep_run_point(sw, k, &blk, &len, &h.notes, err);
		h.len = (uint32_t)(h.status ? strlen(err) : len);
		if (write_full(reply, &h, sizeof(h), -1) ||
		    write_full(reply, h.status ? err : blk, h.len, -1))
			_exit(1);
		free(blk);
	}
	_exit(0);
}

static int spawn(struct worker *w, const struct worker *all, unsigned nr,
		 const struct sweep *sw, int private_fd)
{
	pid_t parent = getpid();
	int t[2], r[2];
	unsigned i;

	if (pipe(t))
		return -1;
	if (pipe(r)) {
		close(t[0]);
		close(t[1]);
		return -1;
	}
	w->pid = fork();
	if (w->pid < 0) {
		close(t[0]);
		close(t[1]);
		close(r[0]);
		close(r[1]);
		return -1;
	}
	if (!w->pid) {
#ifdef __linux__
		/* a worker outlives a killed parent by no more than a signal */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		if (getppid() != parent)
			_exit(1);
		signal(SIGPIPE, SIG_DFL);
		if (private_fd >= 0)
			close(private_fd);
		for (i = 0; i < nr; i++) {
			close(all[i].task);
			close(all[i].reply);
		}
		close(t[1]);
		close(r[0]);
		worker_main(sw, t[0], r[1]);
	}
	close(t[0]);
	close(r[1]);
	w->task = t[1];
	w->reply = r[0];
	return 0;
}

static int hand_out(struct worker *w, uint64_t k)
{
	if (write_full(w->task, &k, sizeof(k), -1))
		return -1;
	w->busy = true;
	w->point = k;
	return 0;
}

/*
 * The failures of a sweep, said in one line at its end: the first, and
 * how many points failed after it (the points out when one fails finish,
 * and may fail the same way: a crash in every worker is one message, not
 * one per worker).
 */
struct failures {
	char first[ERR_MAX + 64];	/* "sweep point K: why"; "" none */
	uint64_t more;			/* points that failed after it */
	bool said;			/* done() has said why it stopped */
};

static void fail_note(struct failures *f, uint64_t point, const char *why)
{
	if (f->said || f->first[0]) {
		f->more++;
		return;
	}
	snprintf(f->first, sizeof(f->first), "sweep point %llu: %s",
		 (unsigned long long)point, why);
}

static void fail_say(const struct failures *f)
{
	if (!f->first[0])
		return;
	if (f->more)
		mpsim_error("%s (and %llu more point%s failed)", f->first,
			    (unsigned long long)f->more,
			    f->more == 1 ? "" : "s");
	else
		mpsim_error("%s", f->first);
}

/* A worker's reply pipe closed early: note how it ended. */
static void worker_died(struct worker *w, struct failures *f)
{
	char why[64];
	int st = 0;

	waitpid(w->pid, &st, 0);
	/* a plugin's crash: one line for the sweep, not one a worker */
	if (kguard_worker_died(w->pid, st)) {
		w->pid = 0;
		return;
	}
	w->pid = 0;
	if (WIFSIGNALED(st))
		snprintf(why, sizeof(why), "worker killed by signal %d",
			 WTERMSIG(st));
	else
		snprintf(why, sizeof(why), "worker exited with status %d",
			 WEXITSTATUS(st));
	fail_note(f, w->point, why);
}

/*
 * What the points' runs left out (run_warn's cases), gathered from the
 * workers, who print nothing, and said once at the end of the sweep.
 */
struct notes {
	uint64_t points[2];	/* points with each note */
	uint64_t first[2];	/* the first of them */
};

static void note_add(struct notes *n, const struct reply *h)
{
	unsigned b;

	for (b = 0; b < 2; b++)
		if (h->notes & 1U << b && !n->points[b]++)
			n->first[b] = h->point;
}

static void notes_warn(const struct notes *n)
{
	if (n->points[0])
		mpsim_warn("sweep: %llu point%s measured no I/O (the first: "
			   "point %llu); mpsim run with its options says why",
			   (unsigned long long)n->points[0],
			   n->points[0] == 1 ? "" : "s",
			   (unsigned long long)n->first[0]);
	if (n->points[1])
		mpsim_warn("sweep: %llu point%s ended before scripted "
			   "fail/reinstate events, which changed nothing "
			   "(the first: point %llu)",
			   (unsigned long long)n->points[1],
			   n->points[1] == 1 ? "" : "s",
			   (unsigned long long)n->first[1]);
}

int sweep_pool(const struct sweep *sw, const uint64_t *todo, uint64_t n,
	       unsigned jobs, int private_fd, sweep_done_fn done, void *ctx)
{
	unsigned nw = jobs < n ? jobs : (unsigned)n, i, live = 0, busy = 0;
	struct pollfd *pfd;
	struct worker *w;
	void (*old_pipe)(int);
	struct notes notes = { { 0 }, { 0 } };
	struct failures fails = { "", 0, false };
	uint64_t next = 0;
	int rc = EXIT_OK;

	if (!n)
		return EXIT_OK;
	if (!nw)
		nw = 1;
	w = xcalloc(nw, sizeof(*w));
	pfd = xcalloc(nw, sizeof(*pfd));
	/* a dead worker's task pipe must fail a write, not kill us */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < nw; i++, live++)
		if (spawn(&w[i], w, live, sw, private_fd)) {
			perror("mpsim: sweep: starting a worker");
			rc = EXIT_FAILED;
			break;
		}
	for (i = 0; i < live && next < n; i++, busy++)
		hand_out(&w[i], todo[next++]);

	while (busy) {
		unsigned np = 0;

		for (i = 0; i < live; i++)
			if (w[i].busy) {
				pfd[np].fd = w[i].reply;
				pfd[np].events = POLLIN;
				pfd[np].revents = 0;
				np++;
			}
		if (poll(pfd, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("mpsim: sweep: poll");
			abort();
		}
		for (i = 0, np = 0; i < live; i++) {
			struct reply h;
			char *msg;

			if (!w[i].busy)
				continue;
			if (!pfd[np++].revents)
				continue;
			w[i].busy = false;
			busy--;
			if (read_full(w[i].reply, &h, sizeof(h))) {
				worker_died(&w[i], &fails);
				rc = EXIT_FAILED;
				continue;
			}
			msg = xmalloc((size_t)h.len + 1);
			if (read_full(w[i].reply, msg, h.len)) {
				free(msg);
				worker_died(&w[i], &fails);
				rc = EXIT_FAILED;
				continue;
			}
			msg[h.len] = '\0';
			note_add(&notes, &h);
			if (h.status) {
				fail_note(&fails, h.point, msg);
				/* a point whose run cannot finish (-ERANGE)
				 * failed; any other is bad input */
				if (rc != EXIT_FAILED)
					rc = h.status == -ERANGE ? EXIT_FAILED
								 : EXIT_BAD_INPUT;
			} else if (!fails.said &&
				   done(ctx, h.point, msg, h.len)) {
				/* done() said why: nothing more is said */
				fails.said = true;
				rc = EXIT_FAILED;
			}
			free(msg);
			/* after a failure, the points out finish; no new ones */
			if (rc == EXIT_OK && next < n) {
				if (hand_out(&w[i], todo[next])) {
					worker_died(&w[i], &fails);
					rc = EXIT_FAILED;
					continue;
				}
				next++;
				busy++;
			}
		}
	}

	if (!fails.said)
		fail_say(&fails);
	if (rc == EXIT_OK)
		notes_warn(&notes);
	for (i = 0; i < live; i++) {
		close(w[i].task);
		close(w[i].reply);
	}
	for (i = 0; i < live; i++)
		if (w[i].pid)
			waitpid(w[i].pid, NULL, 0);
	signal(SIGPIPE, old_pipe);
	free(pfd);
	free(w);
	return rc;
}
