/*
 * kguard.c: the watch over plugin selectors (the design is in kguard.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "kguard.h"
#include "sim/sim.h"

#define KG_TIMEOUT_DEFAULT	10	/* s inside one call: no selector's
					 * call takes a thousandth of that */

struct kguard_page *kguard;
struct kguard_slot *kguard_slot;
static bool allowed;
static int real_stderr = -1;	/* the watch's stderr */

void kguard_allow(void)
{
	allowed = true;
	real_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
}

static pid_t child;		/* in the watching parent */
static pid_t watched;		/* the child's pid, in the child */

/* ORDER KG_OP */
static const char *const kg_op_name[] = {
	"mpsim's own code", "its constructors", "module_init", "create", "destroy", "add_path",
	"fail_path", "reinstate_path", "select_path", "start_io", "end_io",
	"status",
};

static bool crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
	       sig == SIGILL || sig == SIGABRT || sig == SIGSYS ||
	       sig == SIGTRAP;
}

/* A slot of the page for this process (the last is shared when all
 * are taken). */
static void take_slot(void)
{
	int i = __sync_fetch_and_add(&kguard->nr_slots, 1);

	if (i >= (int)ARRAY_SIZE(kguard->slot))
		i = (int)ARRAY_SIZE(kguard->slot) - 1;
	kguard_slot = &kguard->slot[i];
	kguard_slot->op = KG_NONE;
	kguard_slot->pid = getpid();
}

/* A forked process (a sweep worker) calls plugins from its own slot. */
static void forked(void)
{
	if (kguard)
		take_slot();
}

static const struct kguard_slot *slot_of(pid_t pid)
{
	int i, n = kguard->nr_slots;

	for (i = 0; i < n && i < (int)ARRAY_SIZE(kguard->slot); i++)
		if (kguard->slot[i].pid == pid)
			return &kguard->slot[i];
	return NULL;
}

/* "the selector from FILE" and " in OP" of slot sl's last call. */
static void where(const struct kguard_slot *sl, char *file, size_t fn,
		  char *in, size_t in_n)
{
	int f = sl ? sl->file : kguard->nr_files == 1 ? 0 : -1;
	int op = sl ? sl->op : KG_NONE;

	if (f >= 0 && f < kguard->nr_files)
		snprintf(file, fn, "the selector from %s", kguard->files[f]);
	else
		snprintf(file, fn, "a selector from a source file");
	if (kguard->thread_exit)
		snprintf(in, in_n, " in a thread it started");
	else if (op > KG_NONE && op < (int)ARRAY_SIZE(kg_op_name))
		snprintf(in, in_n, " in %s", kg_op_name[op]);
	else
		snprintf(in, in_n, " (outside its calls)");
}

/* Say how process pid, which ran plugins, ended with status st, once. */
static void say(pid_t pid, int st)
{
	char file[300], in[40];
	const char *abbrev;

	if (__sync_lock_test_and_set(&kguard->said, 1))
		return;
	where(slot_of(pid), file, sizeof(file), in, sizeof(in));
	if (WIFSIGNALED(st)) {
		abbrev = sigabbrev_np(WTERMSIG(st));
		mpsim_error("%s crashed (signal %d, SIG%s)%s", file,
			    WTERMSIG(st), abbrev ? abbrev : "?", in);
	} else {
		mpsim_error("%s exited (status %d)%s, before mpsim's end",
			    file, WEXITSTATUS(st), in);
	}
}

bool kguard_worker_died(int pid, int st)
{
	if (!kguard)
		return false;
	say(pid, st);
	return true;
}

/* The slot of a process inside a plugin call, if one is. */
static const struct kguard_slot *busy_slot(void)
{
	int i, n = kguard->nr_slots;

	for (i = 0; i < n && i < (int)ARRAY_SIZE(kguard->slot); i++)
		if (kguard->slot[i].op != KG_NONE)
			return &kguard->slot[i];
	return NULL;
}

/*
 * In the child (and the sweep workers it forks): an exit() of mpsim's
 * own is the command's end; one from inside a plugin call (op set) is
 * not, nor one from any other thread than a process's main one: mpsim
 * starts none, so it is a plugin's, whatever mpsim's own thread is
 * doing meanwhile.
 */
static void child_exit(void)
{
	if (gettid() != getpid())
		kguard->thread_exit = 1;	/* (a sweep worker's too) */
	else if (getpid() == watched && kguard_slot->op == KG_NONE)
		kguard->done = 1;
}

/* In the parent: what the terminal or a supervisor sends is for the
 * child; its death by it is then the parent's. */
static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static unsigned timeout_s(void)
{
	const char *v = getenv("MPSIM_SELECTOR_TIMEOUT");
	char *end;
	unsigned long n;

	if (!v || !*v)
		return KG_TIMEOUT_DEFAULT;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (*end || errno || n > 86400 || v[0] == '-') {
		mpsim_warn("MPSIM_SELECTOR_TIMEOUT='%s' is not a number of "
			   "seconds up to 86400; using %d", v,
			   KG_TIMEOUT_DEFAULT);
		return KG_TIMEOUT_DEFAULT;
	}
	return (unsigned)n;
}

/* The parent's life: wait for the child (SIGCHLD, blocked since the
 * fork, ends the wait at once), watch its progress once a second, end as
 * it ended or with the one line that says why it did not end well. */
static void __attribute__((noreturn)) watch(unsigned timeout,
					     const sigset_t *chld)
{
	static const int fwd[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct timespec second = { 1, 0 };
	const struct kguard_slot *busy;
	uint64_t last = 0;
	unsigned still = 0;	/* seconds in one call without a new one */
	struct sigaction sa;
	unsigned i;
	int st;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < ARRAY_SIZE(fwd); i++)
		sigaction(fwd[i], &sa, NULL);
	for (;;) {
		pid_t r = waitpid(child, &st, WNOHANG);

		if (r == child)
			break;
		if (r < 0 && errno != EINTR)
			_exit(EXIT_FAILURE);
		if (sigtimedwait(chld, NULL, &second) == SIGCHLD)
			continue;
		busy = busy_slot();
		if (!busy || kguard->calls != last) {
			still = 0;
			last = kguard->calls;
		} else if (timeout && ++still >= timeout) {
			char file[300], in[40];

			where(busy, file, sizeof(file), in, sizeof(in));
			kill(child, SIGKILL);
			waitpid(child, &st, 0);
			if (!__sync_lock_test_and_set(&kguard->said, 1))
				mpsim_error("%s made no progress for %u s%s; "
					    "stopped (MPSIM_SELECTOR_TIMEOUT "
					    "sets the limit)", file, timeout, in);
			_exit(1);
		}
	}
	if (WIFEXITED(st) && (kguard->done || kguard->said) &&
	    !kguard->thread_exit)
		_exit(WEXITSTATUS(st));
	if (WIFSIGNALED(st) && !crash_signal(WTERMSIG(st))) {
		/* Ctrl-C, a closed pipe, a kill: ours too, as the shell
		 * would have seen it */
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
	}
	say(child, st);
	_exit(1);
}

int kguard_start(const char *source)
{
	sigset_t chld, old;
	unsigned timeout;
	pid_t parent;
	int f;

	if (!kguard) {
		if (!allowed)
			return -1;
		timeout = timeout_s();
		kguard = mmap(NULL, sizeof(*kguard), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (kguard == MAP_FAILED) {
			kguard = NULL;
			return -1;	/* unwatched, as before */
		}
		memset((void *)kguard, 0, sizeof(*kguard));
		fflush(NULL);
		parent = getpid();
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, &old);
		child = fork();
		if (child < 0) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			munmap(kguard, sizeof(*kguard));
			kguard = NULL;
			return -1;
		}
		if (child) {
			if (real_stderr >= 0)
				dup2(real_stderr, STDERR_FILENO);
			watch(timeout, &chld);
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
#ifdef __linux__
		/* the child dies with its watch */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		if (getppid() != parent)
			_exit(1);
		watched = getpid();
		take_slot();
		atexit(child_exit);
		pthread_atfork(NULL, NULL, forked);
	}
	for (f = 0; f < kguard->nr_files; f++)
		if (!strcmp(kguard->files[f], source))
			return f;
	if (f == (int)ARRAY_SIZE(kguard->files))
		return -1;		/* said as "a selector from a source" */
	snprintf(kguard->files[f], sizeof(kguard->files[f]), "%s", source);
	kguard->nr_files = f + 1;
	return f;
}
