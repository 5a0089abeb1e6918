/*
 * kguard.h: a plugin selector (--selector-source) runs under a watch, so
 * that its crash, its exit() or its endless loop ends mpsim with one
 * `mpsim:` line and exit status 1, not a core dump, a silent exit 0 or a
 * hang.
 *
 * The first plugin loaded forks the process: the child goes on with the
 * command (loads the plugin, runs, writes the outputs), the parent only
 * waits for it.  The adapter (ksource.c) marks each call into the plugin
 * in a page both share: which operation of which file, and a count of
 * calls.  The parent reads the page when the child ends:
 *  - died of a crash signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT...):
 *    "the selector from FILE crashed (signal 11, SIGSEGV) in select_path";
 *  - exited before mpsim's own exit (an exit() or _exit() in the plugin,
 *    or in a thread it started, whatever mpsim's own thread is doing):
 *    "the selector from FILE exited (status 0) in module_init";
 *  - still inside the same call with no new call for MPSIM_SELECTOR_TIMEOUT
 *    seconds (default 10; 0: never): killed, "made no progress".
 * A watch costs four stores per call into a plugin; built-in selectors
 * never touch it.  A sweep's workers share the page: the sweep says the
 * plugin's failure once (kguard_worker_died), not once per worker.
 */
#ifndef MPSIM_KGUARD_H
#define MPSIM_KGUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The plugin operations, for the message (ORDER KG_OP: kg_op_name[]). */
enum kg_op {
	KG_NONE,		/* mpsim's own code */
	KG_LOAD,		/* dlopen(): the file's constructors */
	KG_MODULE_INIT,
	KG_CREATE,
	KG_DESTROY,
	KG_ADD_PATH,
	KG_FAIL_PATH,
	KG_REINSTATE_PATH,
	KG_SELECT_PATH,
	KG_START_IO,
	KG_END_IO,
	KG_STATUS,
};

/* One process's call into a plugin (the watched child's, each sweep
 * worker's: every fork takes a slot). */
struct kguard_slot {
	volatile int pid;
	volatile int op;		/* enum kg_op running now */
	volatile int file;		/* which loaded file (kguard_start) */
};

struct kguard_page {
	volatile uint64_t calls;	/* calls into a plugin so far */
	volatile int done;		/* the command came to its own end */
	volatile int thread_exit;	/* exit() from a thread not mpsim's */
	volatile int said;		/* a failure line was printed */
	volatile int nr_slots;
	int nr_files;
	char files[16][240];		/* the files loaded, as given */
	struct kguard_slot slot[256];
};

/* The shared page while a plugin is watched, else NULL; this process's
 * slot in it. */
extern struct kguard_page *kguard;
extern struct kguard_slot *kguard_slot;

/*
 * Called by main: the process may fork a watch (the unit tests do not),
 * whose messages go to the standard error of now (a sweep sends its own
 * to a file for a while, the plugin may be loaded meanwhile).
 */
void kguard_allow(void);

/* Before a call into a plugin of file number f, and after it. */
static inline void kguard_enter(int f, enum kg_op op)
{
	if (kguard_slot) {
		kguard_slot->file = f;
		kguard_slot->op = op;
		kguard->calls++;
	}
}

static inline void kguard_leave(void)
{
	if (kguard_slot)
		kguard_slot->op = KG_NONE;
}

/*
 * Watch the plugin of source, about to be loaded: forks the watch on the
 * first call (when allowed; only the child returns), notes the file.
 * Returns its file number for kguard_enter().
 */
int kguard_start(const char *source);

/*
 * A sweep worker (process pid) that ran plugins ended with wait status
 * st: when a plugin is watched, the line that says its failure, once for
 * the sweep; true when it was said (the caller then says nothing more).
 */
bool kguard_worker_died(int pid, int st);

#endif
