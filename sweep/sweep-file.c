/*
 * sweep-file.c: a sweep's result file, written so that a crash at any
 * moment leaves a valid file: locked while in use, each finished point
 * appended with one write() and made durable, the sorted final file put
 * in place by rename().  (The design is at the top of sweep/sweep.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safe-file.h"
#include "sweep.h"

static int sys_error(char *err, const char *path, const char *what)
{
	snprintf(err, ERR_MAX, "%s: %s: %s", path, what, strerror(errno));
	return -EIO;
}

/* The directory part of path ("." when it has none), allocated. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	d = xstrdup(path);
	d[slash - path] = '\0';
	return d;
}

/* A new directory entry (a created or renamed file) survives power loss
 * only once its directory is synced. */
static void fsync_dir(const char *path)
{
	char *d = dir_of(path);
	int fd = open(d, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(d);
}

/* The whole file into memory (*buf allocated, NUL after the end);
 * -1 with errno set, EFBIG beyond SWEEP_FILE_MAX. */
static int read_all(int fd, char **buf, size_t *n)
{
	struct stat st;
	size_t got = 0;

	if (fstat(fd, &st))
		return -1;
	if ((uintmax_t)st.st_size > SWEEP_FILE_MAX) {
		errno = EFBIG;
		return -1;
	}
	*buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t r = pread(fd, *buf + got, (size_t)st.st_size - got,
				  (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	(*buf)[got] = '\0';
	*n = got;
	return 0;
}

int sweep_out_open(struct sweep_out *so, const struct sweep *sw, char *err)
{
	struct sweep_block *b;
	size_t n, valid, i;
	char *buf = NULL, *d;
	long nb;
	int r;

	memset(so, 0, sizeof(*so));
	so->fd = -1;
	so->off = xcalloc(sw->nr_points, sizeof(*so->off));
	so->len = xcalloc(sw->nr_points, sizeof(*so->len));
	so->in_order = true;
	if (!sw->output)
		return 0;
	/* standard output (/dev/stdout): the file is written whole at the
	 * end, as without --output; another descriptor cannot be resumed */
	r = out_descriptor(sw->output);
	if (r == 1)
		return 0;
	if (r >= 0)
		return input_error(err, "%s: a descriptor holds no sweep to "
				   "resume; give a file (or /dev/stdout)",
				   sw->output);
	/* its directory made (one level) once its path passed the checks */
	d = dir_of(sw->output);
	r = safe_mkdir(d, err);
	free(d);
	if (r)
		return r;
	/* a link only as protected_symlinks follows it, a directory or
	 * device refused (the sorted file is renamed over it), no input;
	 * locked for the sweep's life: two sweeps appending to one file
	 * would write points twice, and a run or merge would rename its
	 * own file over it.  Another's lock is a run-time condition, not
	 * bad input (-EBUSY): the same command works once it is over */
	so->fd = safe_open_in_place(sw->output, &so->path, err);
	if (so->fd < 0)
		return so->fd;
	if (read_all(so->fd, &buf, &n))
		return errno == EFBIG ?
			input_error(err, "%s: larger than %zu MiB, the limit "
				    "of a sweep result file", so->path,
				    SWEEP_FILE_MAX >> 20) :
			sys_error(err, so->path, "cannot read");
	nb = sweep_scan(sw, so->path, buf, n, &b, &valid, err);
	free(buf);
	if (nb < 0)
		return (int)nb;
	for (i = 0; i < (size_t)nb; i++) {
		so->off[b[i].point] = b[i].off;
		so->len[b[i].point] = (uint32_t)b[i].len;
		so->present++;
		if (i && b[i].point < b[i - 1].point)
			so->in_order = false;
	}
	so->last = nb ? b[nb - 1].point : 0;
	free(b);
	if (valid < n) {
		/* a point torn by a crash, or a head never finished */
		if (valid && !mpsim_quiet)
			mpsim_error("%s: dropping %zu bytes of an unfinished "
				    "point at the end", so->path, n - valid);
		if (ftruncate(so->fd, (off_t)valid) || fsync(so->fd))
			return sys_error(err, so->path, "cannot truncate");
	}
	so->end = valid;
	if (!valid) {
		if (write_full(so->fd, sw->head, sw->head_len, 0) ||
		    fsync(so->fd))
			return sys_error(err, so->path, "cannot write");
		fsync_dir(so->path);
		so->end = sw->head_len;
	}
	return 0;
}

/*
 * The file is still at its path: no one renamed another over it or
 * removed it (what does not take the lock), which would leave the
 * points written since in a file no one can read.  0, or -EIO with err.
 */
static int still_ours(const struct sweep_out *so, char *err)
{
	if (so->fd < 0 || safe_same_file(so->fd, so->path))
		return 0;
	snprintf(err, ERR_MAX, "%s: no longer the file this sweep writes: "
		 "it was replaced or removed, and the points written to it "
		 "are lost (the same command runs them again)", so->path);
	return -EIO;
}

int sweep_out_add(struct sweep_out *so, const struct sweep *sw, uint64_t k,
		  const char *blk, size_t len, char *err)
{
	if (still_ours(so, err))
		return -EIO;
	if (so->present && k < so->last)
		so->in_order = false;
	if (!so->present || k > so->last)
		so->last = k;
	if (so->fd < 0) {
		so->mem = xrealloc(so->mem, so->mem_len + len);
		memcpy(so->mem + so->mem_len, blk, len);
		so->off[k] = so->mem_len;
		so->mem_len += len;
	} else {
		/* one write(): a crash tears at most this block, which the
		 * next run's scan drops; fsync before it counts as done */
		if (write_full(so->fd, blk, len, (off_t)so->end) ||
		    fsync(so->fd))
			return sys_error(err, so->path, "cannot write");
		so->off[k] = so->end;
		so->end += len;
	}
	so->len[k] = (uint32_t)len;
	so->present++;
	return 0;
}

int sweep_write_sorted(struct safe_file *sf, const char *file,
		       const struct sweep *sw, const char *const *blk,
		       const uint32_t *len, char *err)
{
	uint64_t k;
	FILE *f;
	int r;

	f = fdopen(dup(sf->fd), "w");
	if (!f) {
		perror("mpsim: fdopen");
		abort();
	}
	fwrite(sw->head, 1, sw->head_len, f);
	for (k = 0; k < sw->nr_points; k++)
		if (len[k])
			fwrite(blk[k], 1, len[k], f);
	if ((fflush(f) || ferror(f)) | fclose(f)) {
		r = sys_error(err, file, "cannot write");
		safe_abort(sf);
		return r;
	}
	return safe_commit(sf, err);
}

int sweep_out_finish(struct sweep_out *so, const struct sweep *sw, char *err)
{
	struct safe_file sf;
	const char **blk;
	char *buf = NULL;
	uint64_t k;
	size_t n;
	int r = 0;

	if (still_ours(so, err))
		return -EIO;
	if (so->present < sw->nr_selected)
		return 0;
	if (so->fd >= 0 && so->in_order)
		return 0;		/* already the final file */
	if (so->fd >= 0 && read_all(so->fd, &buf, &n))
		return sys_error(err, so->path, "cannot read");
	blk = xcalloc(sw->nr_points, sizeof(*blk));
	for (k = 0; k < sw->nr_points; k++)
		if (so->len[k])
			blk[k] = (so->fd >= 0 ? buf : so->mem) + so->off[k];
	if (so->fd >= 0) {
		/* the sorted file over ours, whose lock we hold */
		r = safe_create(&sf, so->path, SAFE_MAY_BE_INPUT | SAFE_LOCKED,
				err);
		if (!r)
			r = sweep_write_sorted(&sf, so->path, sw, blk, so->len,
					       err);
	} else {
		fwrite(sw->head, 1, sw->head_len, stdout);
		for (k = 0; k < sw->nr_points; k++)
			if (so->len[k])
				fwrite(blk[k], 1, so->len[k], stdout);
		if (fflush(stdout) || ferror(stdout))
			r = sys_error(err, "stdout", "cannot write");
	}
	free(blk);
	free(buf);
	return r;
}

void sweep_out_close(struct sweep_out *so)
{
	if (so->fd >= 0)
		close(so->fd);
	free(so->path);
	free(so->off);
	free(so->len);
	free(so->mem);
	memset(so, 0, sizeof(*so));
	so->fd = -1;
}

/* Where the per-point and per-task files go (--list-runs, --slurm): the
 * one name beside the output that both use. */
char *sweep_runs_dir(const struct sweep *sw)
{
	const char *o = sw->output, *dot, *slash;
	char *d;

	if (sw->runs_dir)
		return xstrdup(sw->runs_dir);
	if (!o)
		return xstrdup("sweep.points");
	dot = strrchr(o, '.');
	slash = strrchr(o, '/');
	if (!dot || (slash && dot < slash) || dot == o || dot[-1] == '/')
		dot = o + strlen(o);
	d = xmalloc((size_t)(dot - o) + sizeof(".points"));
	memcpy(d, o, (size_t)(dot - o));
	strcpy(d + (dot - o), ".points");
	return d;
}
