/*
 * safe-file.h: every file mpsim writes is created here, so that no other
 * user of a shared machine can turn it onto a file of theirs choosing.
 *
 * The rules (each one a refusal, bad input, with the reason):
 *  - a symbolic link anywhere in the path is followed only as the
 *    kernel's fs.protected_symlinks would follow it, whatever that
 *    setting is: not when it sits in a sticky world-writable directory
 *    (/tmp) and is owned by neither us nor the directory's owner;
 *  - an existing file in such a directory is replaced only when it is
 *    ours or the directory owner's (fs.protected_regular's rule);
 *  - every directory on an output's path (the working directory's too)
 *    is ours or root's, and one others can write is sticky: another
 *    user could otherwise rename a link or file of theirs into its place
 *    (others are the world, and the other members of its group);
 *  - the new file is written to a temporary made with mkstemp()
 *    (O_CREAT|O_EXCL: no link is followed) beside the target, given the
 *    target's mode (and owner, when we may), and renamed over it; a
 *    signal that ends the process first (SIGINT, SIGTERM, SIGHUP, a
 *    crash...) removes it, by a handler installed with the first one;
 *  - one lock per output path: every writer (run, merge, trace, sweep)
 *    flock()s the file at the path before it replaces or rewrites it, a
 *    sweep for its whole life, the others until their rename, which is
 *    over that locked file or (RENAME_NOREPLACE) where there is none;
 *    a file locked by another mpsim is not replaced (-EBUSY, a run-time
 *    condition);
 *  - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are the
 *    descriptor itself, written in place (an `>> log` keeps its lines);
 *  - an output that is one of the files the run read (read_text_file()
 *    notes each, and its path still names it) is refused: it would
 *    destroy the input.
 */
#ifndef MPSIM_SAFE_FILE_H
#define MPSIM_SAFE_FILE_H

#include <stdio.h>
#include <stdbool.h>
#include <sys/stat.h>

/* An output being written: commit or abort it. */
struct safe_file {
	int fd;			/* write here */
	char *path;		/* the file replaced at commit; NULL when fd
				 * is a copy of one of our descriptors */
	char *tmp;		/* the temporary beside path */
	int lock;		/* the file at path, flock()ed till the
				 * commit; -1 when none is held here */
	bool over;		/* rename over what is at path (its lock is
				 * held); else only where nothing is */
};

#define SAFE_MAY_BE_INPUT	1u	/* merge: rewriting an input is fine */
#define SAFE_LOCKED		2u	/* the caller holds the lock of the file
					 * at path (a sweep's own) */

/*
 * The descriptor path names ("-" and /dev/stdout are 1, /dev/fd/3 is 3,
 * /proc/self/fd/N and /proc/PID/fd/N for our PID), or -1.
 */
int out_descriptor(const char *path);

/*
 * Whether path may be written as an output, before anything runs:
 * 0, or -EINVAL with err = "PATH: why" (a link or directory the rules
 * above refuse, not a regular file, one of the inputs read so far).
 */
int safe_check(const char *path, char *err);

/*
 * Start the output path: safe_check()'s refusals (-EINVAL), -EBUSY when
 * another mpsim holds the lock of the file there, or -EIO when the
 * temporary cannot be made; err says which.  flags: SAFE_*.
 */
int safe_create(struct safe_file *sf, const char *path, unsigned flags,
		char *err);

/* Sync the temporary and rename it over the target (or only close the
 * descriptor's copy).  0, or -EBUSY (another mpsim locked a file made
 * at the path since safe_create) or -EIO with err set; the temporary is
 * gone either way. */
int safe_commit(struct safe_file *sf, char *err);

/* Give the output up: the temporary is removed, the target untouched. */
void safe_abort(struct safe_file *sf);
/* Close f, the stream written to sf's temporary, keeping a descriptor of
 * it in sf for safe_commit()'s fsync.  Returns error if it is not 0 (the
 * errno of a write that failed earlier: ENOSPC on a full disk), else the
 * errno of the first step that fails, else 0. */
int safe_close_stream(FILE *f, struct safe_file *sf, int error);

/*
 * Open path (created if missing, mode 0666 less the umask) for reading
 * and writing in place, as the sweep's result file is: the same rules,
 * the file opened without following a link, and locked (flock) for as
 * long as the descriptor is open.  The descriptor, or -EINVAL / -EBUSY
 * (another mpsim holds the lock) / -EIO with err set; *resolved (free()
 * it) is the file opened.
 */
int safe_open_in_place(const char *path, char **resolved, char *err);

/* Whether real (a *resolved of safe_open_in_place) still names the file
 * open as fd: not replaced, renamed or removed since. */
bool safe_same_file(int fd, const char *real);

/*
 * A directory outputs are created in by name (--blktrace=DIR): its path
 * walked as an output's, then refused when another user owns it or can
 * write it, unless it is sticky and ours.  A missing one is fine (its
 * path up to it was checked); -EIO when a directory above it is missing.
 */
int safe_check_dir(const char *dir, char *err);

/*
 * Make directory dir (one level, mode 0777 less the umask) if it is
 * missing, once its path passed the walk of the rules above: 0, -EINVAL
 * (err: what was refused, nothing made) or -EIO (err: why not made).
 * What is there is the caller's to check (safe_check_dir, safe_create).
 */
int safe_mkdir(const char *dir, char *err);

/*
 * The rule for every cache and build directory (the plugin cache): dir,
 * made if missing with every missing parent (mode 0700), each only once
 * the path to it passed the walk of the rules above, then checked with
 * lstat(): a directory, not a link, ours, writable by no one else, and
 * set to mode 0700 when it was only readable by others.  0, -EINVAL
 * (err "DIR: WHAT is owned by another user: refused", or a refusal on
 * its path) or -EIO (err: it cannot be made, a read-only or missing
 * place, a system error).
 */
int safe_private_dir(const char *dir, const char *what, char *err);

/* What a file of mode m is when it is not a regular one ("a FIFO"). */
const char *not_regular(mode_t m);

/* read_text_file() notes each file it reads: an output may not be one. */
void input_note(const char *path, const struct stat *st);

/* All n bytes of buf to fd, whatever EINTR and short writes: at offset
 * off (pwrite), or with off < 0 where the descriptor is (write: a
 * pipe).  0, or -1 with errno set. */
int write_full(int fd, const void *buf, size_t n, off_t off);

/* The input that is the same file as st, and still at its path, or NULL. */
const char *input_same(const struct stat *st);

#endif
