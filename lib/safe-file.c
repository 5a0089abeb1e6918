/*
 * safe-file.c: creating outputs so that no other user can turn them
 * (the rules are in safe-file.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "safe-file.h"
#include "util.h"

#define MAX_LINKS	40	/* the kernel's MAXSYMLINKS */

/* ---- the inputs ---- */

struct input {
	dev_t dev;
	ino_t ino;
	char *path;
};

static struct input *inputs;
static size_t nr_inputs;

void input_note(const char *path, const struct stat *st)
{
	if (input_same(st))
		return;
	inputs = xrealloc(inputs, (nr_inputs + 1) * sizeof(*inputs));
	inputs[nr_inputs].dev = st->st_dev;
	inputs[nr_inputs].ino = st->st_ino;
	inputs[nr_inputs].path = xstrdup(path);
	nr_inputs++;
}

/*
 * An input is the file its path names now: one deleted or renamed since
 * it was read is no longer at risk, and its inode number may already be
 * a new file's (the file system reuses it), which is no input.
 */
const char *input_same(const struct stat *st)
{
	struct stat now;
	size_t i;

	for (i = 0; i < nr_inputs; i++)
		if (inputs[i].dev == st->st_dev &&
		    inputs[i].ino == st->st_ino &&
		    !stat(inputs[i].path, &now) && now.st_dev == st->st_dev &&
		    now.st_ino == st->st_ino)
			return inputs[i].path;
	return NULL;
}

/* ---- descriptors ---- */

/* N of "N" (digits only, no sign), or -1. */
static int fd_number(const char *s)
{
	long n = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > 65535)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return (int)n;
}

int out_descriptor(const char *path)
{
	char self[32];
	int n;

	/* "-" is standard output, as to blkparse (-o -) and most tools: a
	 * file named "-" in the working directory surprises */
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	if (!strncmp(path, "/dev/fd/", 8))
		return fd_number(path + 8);
	if (!strncmp(path, "/proc/self/fd/", 14))
		return fd_number(path + 14);
	n = snprintf(self, sizeof(self), "/proc/%ld/fd/", (long)getpid());
	if (!strncmp(path, self, (size_t)n))
		return fd_number(path + n);
	return -1;
}

/* ---- who can change a directory ---- */

/*
 * Whether users besides us may write through the group bits of a
 * directory of group g: not when g is our own group and no one else is
 * in it (a user private group: no member listed but us, and no other
 * user's primary group).
 */
static bool group_shared(gid_t g)
{
	const struct passwd *pw;
	const struct group *gr;
	char me[256];
	bool shared = false;
	char **m;

	if (g != getegid())
		return true;
	pw = getpwuid(geteuid());
	if (!pw)
		return true;
	snprintf(me, sizeof(me), "%s", pw->pw_name);
	gr = getgrgid(g);
	for (m = gr ? gr->gr_mem : NULL; m && *m && !shared; m++)
		shared = strcmp(*m, me) != 0;
	setpwent();
	while (!shared && (pw = getpwent()))
		shared = pw->pw_gid == g && pw->pw_uid != geteuid();
	endpwent();
	return shared;
}

/* Whether another user can write directory d (its group's other
 * members included). */
static bool others_write(const struct stat *d)
{
	return (d->st_mode & S_IWOTH) ||
	       ((d->st_mode & S_IWGRP) && group_shared(d->st_gid));
}

/* A directory another user owns: they may put anything in it (and chmod
 * it as they like).  Root's and ours are not. */
static bool others_own(const struct stat *d)
{
	return d->st_uid != geteuid() && d->st_uid != 0;
}

static bool sticky_shared(const struct stat *dir)
{
	return (dir->st_mode & S_ISVTX) && others_write(dir);
}

/*
 * A directory on an output's path must be one no other user can change:
 * not theirs, and not writable by them unless it is sticky (where the
 * entries of others are taken as the kernel's fs.protected_symlinks and
 * fs.protected_regular take them).  0, or -EINVAL with err "path: why".
 */
static int dir_trusted(const char *path, const char *dir,
		       const struct stat *d, char *err)
{
	if (others_own(d))
		return input_error(err, "%s: the directory %s belongs to user "
				   "%u, who could put a file or link of theirs "
				   "in its place", path, dir,
				   (unsigned)d->st_uid);
	if (others_write(d) && !(d->st_mode & S_ISVTX))
		return input_error(err, "%s: the directory %s can be written by "
				   "others and is not sticky: another user "
				   "could put a file of theirs in its place",
				   path, dir);
	return 0;
}

/* ---- resolving a path as protected_symlinks would ---- */

/* The directory part of path ("/" for "/x"). */
static void dir_part(const char *path, char *dir)
{
	const char *slash = strrchr(path, '/');

	if (slash == path)
		strcpy(dir, "/");
	else
		snprintf(dir, PATH_MAX, "%.*s", (int)(slash - path), path);
}

/*
 * path made absolute with every symbolic link resolved into out
 * (PATH_MAX bytes), walking it from the root: every directory it goes
 * through, the working directory's too, must pass dir_trusted().  A link
 * is followed only when the kernel's may_follow_link() would with
 * fs.protected_symlinks=1: it is ours, or its directory is not sticky and
 * shared, or the directory's owner owns it too.  The last component may
 * be missing (a file or directory to be made).  0, -EINVAL (a refused
 * link or directory, with err) or -EIO (errno's case).
 */
static int resolve(const char *path, char *out, char *err)
{
	char *rest = xmalloc(2 * PATH_MAX), *tmp = xmalloc(2 * PATH_MAX);
	char *name, *next;
	unsigned links = 0;
	struct stat st, dir;
	int r = 0;

	out[0] = '\0';
	if (path[0] == '/') {
		snprintf(rest, 2 * PATH_MAX, "%s", path);
	} else if (!getcwd(tmp, PATH_MAX)) {
		r = input_error(err, "%s: cannot tell the working directory: "
				"%s", path, strerror(errno));
		goto out;
	} else if (snprintf(rest, 2 * PATH_MAX, "%s/%s", tmp, path) >=
		   2 * PATH_MAX) {
		r = input_error(err, "%s: path too long", path);
		goto out;
	}
	if (lstat("/", &st)) {
		r = input_error(err, "/: %s", strerror(errno));
		goto out;
	}
	r = dir_trusted(path, "/", &st, err);
	name = rest;
	while (name && !r) {
		size_t len = strlen(out);
		bool last;

		while (*name == '/')
			name++;
		next = strchr(name, '/');
		if (next)
			*next++ = '\0';
		last = !next || !next[strspn(next, "/")];
		if (!*name || !strcmp(name, ".")) {
			name = next;
			continue;
		}
		if (!strcmp(name, "..")) {
			char *s = strrchr(out, '/');

			if (s)
				*s = '\0';
			name = next;
			continue;
		}
		if (len + 1 + strlen(name) >= PATH_MAX) {
			r = input_error(err, "%s: path too long", path);
			goto out;
		}
		out[len] = '/';
		strcpy(out + len + 1, name);
		if (lstat(out, &st)) {
			if (errno == ENOENT && last)
				break;		/* the file to be made */
			/* a missing directory: the system's answer, not
			 * the user's mistake (the create says so, exit 1) */
			snprintf(err, ERR_MAX, "cannot create '%s': %s", path,
				 strerror(errno));
			r = -EIO;
			goto out;
		}
		if (S_ISDIR(st.st_mode) && !last)
			r = dir_trusted(path, out, &st, err);
		if (!S_ISLNK(st.st_mode)) {
			name = next;
			continue;
		}
		out[len] = '\0';
		if (lstat(len ? out : "/", &dir)) {
			r = input_error(err, "%s: %s", len ? out : "/",
					strerror(errno));
			goto out;
		}
		if (st.st_uid != geteuid() && sticky_shared(&dir) &&
		    st.st_uid != dir.st_uid) {
			r = input_error(err, "%s/%s: a symbolic link of user %u "
					"in the sticky directory %s others can "
					"write: not followed (fs.protected_"
					"symlinks)", out, name,
					(unsigned)st.st_uid, len ? out : "/");
			goto out;
		}
		if (++links > MAX_LINKS) {
			r = input_error(err, "%s: %s", path, strerror(ELOOP));
			goto out;
		}
		out[len] = '/';
		{
			ssize_t n = readlink(out, tmp, PATH_MAX - 1);

			out[len] = '\0';
			if (n <= 0) {
				r = input_error(err, "%s/%s: %s", out, name,
						n ? strerror(errno) : "empty link");
				goto out;
			}
			tmp[n] = '\0';
		}
		if (tmp[0] == '/')
			out[0] = '\0';
		snprintf(tmp + strlen(tmp), 2 * PATH_MAX - strlen(tmp), "/%s",
			 next ? next : "");
		memcpy(rest, tmp, 2 * PATH_MAX);
		name = rest;
	}
	if (!out[0])
		strcpy(out, "/");
out:
	free(rest);
	free(tmp);
	return r;
}

/*
 * The checks on a resolved output path: its directory, the file there if
 * any (*st, *exists).
 */
static int check_resolved(const char *path, const char *real, unsigned flags,
			  struct stat *st, bool *exists, char *err)
{
	char dirname[PATH_MAX];
	struct stat dir;
	const char *in;

	dir_part(real, dirname);
	if (lstat(dirname, &dir)) {
		snprintf(err, ERR_MAX, "%s: %s", dirname, strerror(errno));
		return -EIO;
	}
	/* (resolve() walked it: no other user's, shared only if sticky) */
	*exists = !lstat(real, st);
	if (!*exists)
		return 0;
	if (!S_ISREG(st->st_mode))
		return input_error(err, "%s: %s, not a file mpsim may write",
				   path, not_regular(st->st_mode));
	if (sticky_shared(&dir) && st->st_uid != geteuid() &&
	    st->st_uid != dir.st_uid)
		return input_error(err, "%s: a file of user %u in the sticky "
				   "directory %s others can write: not "
				   "replaced (fs.protected_regular)", path,
				   (unsigned)st->st_uid, dirname);
	in = flags & SAFE_MAY_BE_INPUT ? NULL : input_same(st);
	if (in)
		return input_error(err, "%s: the same file as the input %s; "
				   "writing it would destroy it", path, in);
	return 0;
}

/* An output that is a descriptor of ours: it must be open, and not an
 * input. */
static int check_descriptor(const char *path, int fd, unsigned flags,
			    char *err)
{
	struct stat st;
	const char *in;

	if (fstat(fd, &st))
		return input_error(err, "%s: descriptor %d is not open", path,
				   fd);
	in = flags & SAFE_MAY_BE_INPUT ? NULL : input_same(&st);
	if (in)
		return input_error(err, "%s: the same file as the input %s; "
				   "writing it would destroy it", path, in);
	return 0;
}

int safe_check(const char *path, char *err)
{
	char *real;
	struct stat st;
	bool exists;
	int fd = out_descriptor(path), r;

	if (fd >= 0)
		return check_descriptor(path, fd, 0, err);
	real = xmalloc(PATH_MAX);
	r = resolve(path, real, err);
	if (!r)
		r = check_resolved(path, real, 0, &st, &exists, err);
	free(real);
	return r == -EIO ? 0 : r;	/* said when the file is made */
}

static mode_t umasked(mode_t m)
{
	mode_t u = umask(0);

	umask(u);
	return m & ~u;
}

/* ---- temporaries removed when a signal ends the process ---- */

/*
 * The temporaries this process has made and not yet renamed or removed,
 * for the handler of the signals that end a process: it unlinks them
 * (unlink() is async-signal-safe) and lets the signal end the process
 * as it would have.  The list changes with the asynchronous signals
 * blocked, so the handler never sees half an entry.  A temporary is the
 * process's that made it: a forked sweep worker that gets the signal
 * leaves its parent's alone.  Only SIGKILL (and power loss) leave one.
 */
struct temp {
	pid_t pid;		/* the process that made it */
	char *path;
};

static struct temp *temps;
static volatile size_t nr_temps;
static size_t temps_room;

/* Sent from outside: Ctrl-C, kill, a hangup, a closed pipe, the limits
 * of ulimit; blocked while the list changes. */
static const int async_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};
/* A crash: a plugin's, or abort() on running out of memory. */
static const int crash_signals[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS,
};

static void temps_signal(int sig)
{
	pid_t me = getpid();
	size_t i;

	for (i = 0; i < nr_temps; i++)
		if (temps[i].pid == me)
			unlink(temps[i].path);
	/* the default action now (SA_RESETHAND), once the handler returns */
	raise(sig);
}

static void async_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < ARRAY_SIZE(async_signals); i++)
		sigaddset(set, async_signals[i]);
}

/* The handler on every signal that would end the process as the
 * default does; one ignored (nohup) or handled already stays so. */
static void temps_handler(void)
{
	static bool done;
	struct sigaction sa, old;
	size_t i;

	if (done)
		return;
	done = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = temps_signal;
	sa.sa_flags = SA_RESETHAND;
	async_set(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(async_signals) + ARRAY_SIZE(crash_signals);
	     i++) {
		int sig = i < ARRAY_SIZE(async_signals) ? async_signals[i] :
			  crash_signals[i - ARRAY_SIZE(async_signals)];

		if (!sigaction(sig, NULL, &old) && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(sig, &sa, NULL);
	}
}

/* Make a temporary from tmpl (mkostemp) and note it, signals held off
 * between the two.  The descriptor, or -1 with errno. */
static int temp_make(char *tmpl)
{
	sigset_t async, old;
	int fd, e;

	temps_handler();
	async_set(&async);
	sigprocmask(SIG_BLOCK, &async, &old);
	fd = mkostemp(tmpl, O_CLOEXEC);
	e = errno;
	if (fd >= 0) {
		if (nr_temps == temps_room) {
			temps_room = temps_room ? 2 * temps_room : 16;
			temps = xrealloc(temps, temps_room * sizeof(*temps));
		}
		temps[nr_temps].pid = getpid();
		temps[nr_temps].path = xstrdup(tmpl);
		nr_temps = nr_temps + 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

/* The temporary at path was renamed or removed: off the list. */
static void temp_gone(const char *path)
{
	sigset_t async, old;
	size_t i;

	async_set(&async);
	sigprocmask(SIG_BLOCK, &async, &old);
	for (i = 0; i < nr_temps; i++)
		if (!strcmp(temps[i].path, path)) {
			free(temps[i].path);
			temps[i] = temps[nr_temps - 1];
			nr_temps = nr_temps - 1;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- one lock per output path ---- */

/*
 * An exclusive flock() on fd, waiting up to 2 s for one held elsewhere
 * (the workers of a sweep just killed take a moment to die).  0, or -1
 * with errno (EWOULDBLOCK: still held).
 */
static int lock_wait(int fd)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i;

	for (i = 0; i < 100; i++) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		nanosleep(&ts, NULL);
	}
	errno = EWOULDBLOCK;
	return -1;
}

/* Whether real (a path without links) still names the file fd has open. */
static bool still_names(int fd, const char *real)
{
	struct stat a, b;

	return !fstat(fd, &a) && !lstat(real, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * The lock every writer of an output takes on the file at its path
 * before it replaces or rewrites it (a sweep for its whole life, a run,
 * merge or trace until the rename): the file at real (resolved) opened
 * with oflags, never through a link, flock()ed, and still the one at
 * real (one replaced while we waited is locked anew).  Returns the
 * descriptor; -ENOENT when nothing is there (without O_CREAT), -EACCES
 * when we may not open it (nor may any mpsim of ours write it), -EBUSY
 * (err: another mpsim holds it), -EINVAL (err: not a regular file), or
 * -EIO (err: why).
 */
static int lock_path(const char *path, const char *real, int oflags,
		     char *err)
{
	struct stat st;
	int fd, e, tries;

	for (tries = 0; tries < 10; tries++) {
		fd = open(real, oflags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			  0666);
		if (fd < 0 && errno == EACCES && oflags == O_RDONLY)
			fd = open(real, O_WRONLY | O_NOFOLLOW | O_NONBLOCK |
				  O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			if (e == ENOENT && !(oflags & O_CREAT))
				return -ENOENT;
			if (e == EACCES && !(oflags & O_CREAT))
				return -EACCES;
			snprintf(err, ERR_MAX, "%s: cannot open: %s", path,
				 strerror(e));
			return e == ELOOP ? -EINVAL : -EIO;
		}
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			return input_error(err, "%s: not a regular file", path);
		}
		if (lock_wait(fd)) {
			e = errno;
			close(fd);
			if (e != EWOULDBLOCK) {
				snprintf(err, ERR_MAX, "%s: cannot lock: %s",
					 path, strerror(e));
				return -EIO;
			}
			break;
		}
		if (still_names(fd, real))
			return fd;
		close(fd);
	}
	snprintf(err, ERR_MAX, "%s: another mpsim is writing it", path);
	return -EBUSY;
}

int safe_create(struct safe_file *sf, const char *path, unsigned flags,
		char *err)
{
	int fd = out_descriptor(path), r;
	struct stat st;
	bool exists = false;

	memset(sf, 0, sizeof(*sf));
	sf->fd = sf->lock = -1;
	if (fd >= 0) {
		r = check_descriptor(path, fd, flags, err);
		if (r)
			return r;
		sf->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (sf->fd < 0)
			return input_error(err, "%s: %s", path, strerror(errno));
		return 0;
	}
	sf->path = xmalloc(PATH_MAX);
	r = resolve(path, sf->path, err);
	if (!r)
		r = check_resolved(path, sf->path, flags, &st, &exists, err);
	/* the file there stays locked until it is replaced: no sweep
	 * writes it meanwhile, none replaces ours (SAFE_LOCKED: the caller
	 * holds its lock) */
	sf->over = !r && exists && (flags & SAFE_LOCKED);
	if (!r && exists && !sf->over) {
		fd = lock_path(path, sf->path, O_RDONLY, err);
		if (fd >= 0)
			sf->lock = fd;
		if (fd >= 0 || fd == -EACCES)
			sf->over = true;	/* (-EACCES: no mpsim of ours
						 * can write it either) */
		else if (fd != -ENOENT)
			r = fd;			/* (gone: made anew) */
	}
	if (r) {
		free(sf->path);
		sf->path = NULL;
		return r;
	}
	sf->tmp = xmalloc(strlen(sf->path) + sizeof(".tmp.XXXXXX"));
	sprintf(sf->tmp, "%s.tmp.XXXXXX", sf->path);
	/* O_CREAT|O_EXCL, mode 0600 until it is complete; removed if a
	 * signal ends the process before the commit */
	sf->fd = temp_make(sf->tmp);
	if (sf->fd < 0) {
		snprintf(err, ERR_MAX, "cannot create '%s': %s", path,
			 strerror(errno));
		free(sf->tmp);
		sf->tmp = NULL;
		safe_abort(sf);
		return -EIO;
	}
	/* the replaced file's owner (if we may) and permissions */
	if (exists && geteuid() == 0 &&
	    fchown(sf->fd, st.st_uid, st.st_gid)) {
		/* keep ours: the mode still applies */
	}
	if (fchmod(sf->fd, exists ? st.st_mode & 0777 : umasked(0666))) {
		snprintf(err, ERR_MAX, "%s: %s", sf->tmp, strerror(errno));
		safe_abort(sf);
		return -EIO;
	}
	return 0;
}

static void fsync_dir_of(const char *path)
{
	char dirname[PATH_MAX];
	int fd;

	dir_part(path, dirname);
	fd = open(dirname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * Rename the temporary to the target: over the file there when we hold
 * its lock; else only where there is none (RENAME_NOREPLACE, or link()
 * where the file system lacks it), and a file made there meanwhile (a
 * sweep's) is replaced only under its lock.  0, or -EBUSY / -EIO (err).
 */
static int put_in_place(struct safe_file *sf, char *err)
{
	int r;

	if (!sf->over) {
		if (!renameat2(AT_FDCWD, sf->tmp, AT_FDCWD, sf->path,
			       RENAME_NOREPLACE))
			return 0;
		if ((errno == EINVAL || errno == ENOSYS) &&
		    !link(sf->tmp, sf->path)) {
			unlink(sf->tmp);
			return 0;
		}
		if (errno != EEXIST)
			goto plain;	/* no hard links either */
		r = lock_path(sf->path, sf->path, O_RDONLY, err);
		if (r == -EBUSY || r == -EINVAL)
			return r;
		sf->lock = r;
	}
plain:
	if (rename(sf->tmp, sf->path)) {
		snprintf(err, ERR_MAX, "%s: cannot rename %s over it: %s",
			 sf->path, sf->tmp, strerror(errno));
		return -EIO;
	}
	return 0;
}

int safe_commit(struct safe_file *sf, char *err)
{
	int r = 0;

	if (!sf->path) {
		if (close(sf->fd))
			r = -EIO;
		if (r)
			snprintf(err, ERR_MAX, "writing: %s", strerror(errno));
		sf->fd = -1;
		return r;
	}
	if (fsync(sf->fd) || close(sf->fd)) {
		snprintf(err, ERR_MAX, "%s: %s", sf->tmp, strerror(errno));
		sf->fd = -1;
		safe_abort(sf);
		return -EIO;
	}
	sf->fd = -1;
	r = put_in_place(sf, err);
	if (r) {
		safe_abort(sf);
		return r;
	}
	fsync_dir_of(sf->path);
	temp_gone(sf->tmp);
	free(sf->tmp);
	sf->tmp = NULL;
	safe_abort(sf);		/* the lock */
	return 0;
}

void safe_abort(struct safe_file *sf)
{
	if (sf->fd >= 0)
		close(sf->fd);
	if (sf->path && sf->lock >= 0)
		close(sf->lock);
	if (sf->tmp) {
		unlink(sf->tmp);
		temp_gone(sf->tmp);
	}
	free(sf->tmp);
	free(sf->path);
	memset(sf, 0, sizeof(*sf));
	sf->fd = sf->lock = -1;
}

int safe_open_in_place(const char *path, char **resolved, char *err)
{
	char *real = xmalloc(PATH_MAX);
	struct stat st;
	bool exists;
	int fd, r;

	*resolved = NULL;
	r = resolve(path, real, err);
	if (!r)
		r = check_resolved(path, real, 0, &st, &exists, err);
	fd = r ? r : lock_path(path, real, O_RDWR | O_CREAT, err);
	if (fd < 0) {
		free(real);
		return fd;
	}
	*resolved = real;
	return fd;
}

bool safe_same_file(int fd, const char *real)
{
	return still_names(fd, real);
}

int safe_check_dir(const char *dir, char *err)
{
	char *real = xmalloc(PATH_MAX);
	struct stat st;
	int r = resolve(dir, real, err);

	if (r)
		;			/* refused on its way */
	else if (lstat(real, &st))	/* missing: made once checked */
		r = errno == ENOENT ? 0 : input_error(err, "%s: %s", dir,
						      strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		r = input_error(err, "%s: not a directory", dir);
	else if (others_own(&st))
		r = input_error(err, "%s: a directory of user %u, who could put "
				"files of theirs in it", dir,
				(unsigned)st.st_uid);
	else if (others_write(&st) &&
		 !((st.st_mode & S_ISVTX) && st.st_uid == geteuid()))
		r = input_error(err, "%s: a directory others can write (and "
				"not a sticky one of ours): another user "
				"could put files of theirs in it", dir);
	free(real);
	return r;
}

/* safe_mkdir() with the mode of the directory made. */
static int make_dir(const char *dir, mode_t mode, char *err)
{
	char *real = xmalloc(PATH_MAX);
	struct stat st;
	int r = resolve(dir, real, err);

	/* made only once its path passed the checks: a refused link or
	 * directory on the way leaves nothing behind */
	if (!r && lstat(real, &st) && errno == ENOENT &&
	    mkdir(real, mode) && errno != EEXIST) {
		snprintf(err, ERR_MAX, "cannot create '%s': %s", dir,
			 strerror(errno));
		r = -EIO;
	}
	free(real);
	return r;
}

int safe_mkdir(const char *dir, char *err)
{
	return make_dir(dir, 0777, err);
}

int safe_private_dir(const char *dir, const char *what, char *err)
{
	char *part = xstrdup(dir), *p;
	const char *why = NULL;
	struct stat st;
	int r = 0;

	/* each missing directory on the way, from the top, mode 0700 */
	for (p = part + 1; !r && *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		r = make_dir(part, 0700, err);
		*p = '/';
	}
	free(part);
	if (!r)
		r = make_dir(dir, 0700, err);
	if (r)
		return r;
	/* itself, not what a link there names */
	if (lstat(dir, &st)) {
		snprintf(err, ERR_MAX, "%s: %s", dir, strerror(errno));
		return -EIO;
	}
	if (S_ISLNK(st.st_mode))
		why = "a symbolic link";
	else if (!S_ISDIR(st.st_mode))
		why = "not a directory";
	else if (st.st_uid != geteuid())
		why = "owned by another user";
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		why = "writable by others";
	if (why)
		return input_error(err, "%s: %s is %s: refused", dir, what, why);
	if ((st.st_mode & 07777) != 0700 && chmod(dir, 0700)) {
		snprintf(err, ERR_MAX, "%s: %s", dir, strerror(errno));
		return -EIO;
	}
	return 0;
}

int safe_close_stream(FILE *f, struct safe_file *sf, int error)
{
	if (fflush(f) && !error)
		error = errno;
	if (ferror(f) && !error)
		error = EIO;
	sf->fd = dup(fileno(f));
	if (sf->fd < 0 && !error)
		error = errno;
	if (fclose(f) && !error)
		error = errno;
	return error;
}

int write_full(int fd, const void *buf, size_t n, off_t off)
{
	const char *p = buf;

	while (n) {
		ssize_t w = off < 0 ? write(fd, p, n) : pwrite(fd, p, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
		if (off >= 0)
			off += w;
	}
	return 0;
}
