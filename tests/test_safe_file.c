/*
 * test_safe_file.c: lib/safe-file.c, the creation of every output: the
 * descriptor names, the replaced file's mode, no temporary left behind,
 * the refusals (a directory others can write, a file that is not a
 * regular one, an input), a directory made only after its checks.  The
 * refusals that need a second user are in tests/safety.sh.
 */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lib/safe-file.h"
#include "sim/sim.h"

static char dir[64];
static char err[ERR_MAX];

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static void sf_init(void)
{
	snprintf(dir, sizeof(dir), "/tmp/mpsim-safe-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void sf_fini(void)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The entries of dir, besides . and .. */
static int entries(const char *d)
{
	char cmd[128];
	FILE *p;
	int n = 0, c;

	snprintf(cmd, sizeof(cmd), "ls -A '%s'", d);
	p = popen(cmd, "r");
	while ((c = fgetc(p)) != EOF)
		n += c == '\n';
	pclose(p);
	return n;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

TestSuite(safe_file, .init = sf_init, .fini = sf_fini);

Test(safe_file, descriptor_names)
{
	char self[48];

	cr_assert_eq(out_descriptor("/dev/stdout"), 1);
	cr_assert_eq(out_descriptor("-"), 1);
	cr_assert_eq(out_descriptor("./-"), -1);
	cr_assert_eq(out_descriptor("/dev/stderr"), 2);
	cr_assert_eq(out_descriptor("/dev/fd/1"), 1);
	cr_assert_eq(out_descriptor("/dev/fd/7"), 7);
	cr_assert_eq(out_descriptor("/proc/self/fd/1"), 1);
	snprintf(self, sizeof(self), "/proc/%ld/fd/2", (long)getpid());
	cr_assert_eq(out_descriptor(self), 2);
	cr_assert_eq(out_descriptor("/proc/1/fd/1"), getpid() == 1 ? 1 : -1);
	cr_assert_eq(out_descriptor("/dev/fd/"), -1);
	cr_assert_eq(out_descriptor("/dev/fd/1x"), -1);
	cr_assert_eq(out_descriptor("/dev/fd/-1"), -1);
	cr_assert_eq(out_descriptor("out.csv"), -1);
}

Test(safe_file, replaces_whole_keeps_the_mode_leaves_nothing)
{
	struct safe_file sf;
	char path[128], buf[16] = "";
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.csv", dir);
	put(path, "old\n");
	chmod(path, 0640);
	cr_assert_eq(safe_create(&sf, path, 0, err), 0, "%s", err);
	/* the old file stays whole until the commit */
	cr_assert_eq(entries(dir), 2);
	cr_assert_eq(write(sf.fd, "new\n", 4), 4);
	cr_assert_eq(safe_commit(&sf, err), 0, "%s", err);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0640);
	f = fopen(path, "r");
	cr_assert_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	cr_assert_str_eq(buf, "new\n");
	cr_assert_eq(entries(dir), 1);
}

Test(safe_file, abort_leaves_the_target)
{
	struct safe_file sf;
	char path[128], buf[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.csv", dir);
	put(path, "old\n");
	cr_assert_eq(safe_create(&sf, path, 0, err), 0, "%s", err);
	cr_assert_eq(write(sf.fd, "half", 4), 4);
	safe_abort(&sf);
	f = fopen(path, "r");
	cr_assert_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	cr_assert_str_eq(buf, "old\n");
	cr_assert_eq(entries(dir), 1);
}

/*
 * An output that was missing at safe_create() is put in place only where
 * nothing is: a file made there meanwhile (a sweep's, locked) is not
 * replaced; one no one locks is.
 */
Test(safe_file, a_file_made_meanwhile_is_replaced_only_unlocked)
{
	struct safe_file sf;
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/out.csv", dir);
	cr_assert_eq(safe_create(&sf, path, 0, err), 0, "%s", err);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(flock(fd, LOCK_EX), 0);
	cr_assert_eq(write(sf.fd, "new\n", 4), 4);
	cr_assert_eq(safe_commit(&sf, err), -EBUSY);
	cr_assert(strstr(err, "another mpsim is writing it"), "%s", err);
	cr_assert_eq(entries(dir), 1);		/* no temporary left */
	close(fd);				/* the lock with it */
	cr_assert_eq(safe_create(&sf, path, 0, err), 0, "%s", err);
	cr_assert_eq(write(sf.fd, "new\n", 4), 4);
	cr_assert_eq(safe_commit(&sf, err), 0, "%s", err);
	cr_assert_eq(entries(dir), 1);
}

/* A signal that ends the process before the commit takes the
 * temporary with it; a forked process's signal leaves its parent's. */
Test(safe_file, a_signal_removes_the_temporaries)
{
	struct safe_file sf, kept;
	char path[128];
	int st, sig;
	pid_t pid;

	/* as a foreground process has them: a shell starts a background one
	 * with SIGINT ignored, and safe-file.c leaves an ignored signal so */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	snprintf(path, sizeof(path), "%s/kept.csv", dir);
	cr_assert_eq(safe_create(&kept, path, 0, err), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	for (sig = SIGINT; sig <= SIGTERM; sig += SIGTERM - SIGINT) {
		pid = fork();
		cr_assert_geq(pid, 0);
		if (!pid) {
			if (safe_create(&sf, path, 0, err))
				_exit(3);
			raise(sig);
			_exit(4);
		}
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == sig,
			  "status %#x", st);
		cr_assert_eq(entries(dir), 1);	/* the parent's, kept */
	}
	safe_abort(&kept);
	cr_assert_eq(entries(dir), 0);
}

Test(safe_file, a_link_of_ours_is_written_through)
{
	struct safe_file sf;
	char path[128], link[128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/target.csv", dir);
	snprintf(link, sizeof(link), "%s/link.csv", dir);
	cr_assert_eq(symlink("target.csv", link), 0);
	cr_assert_eq(safe_create(&sf, link, 0, err), 0, "%s", err);
	cr_assert_eq(write(sf.fd, "x\n", 2), 2);
	cr_assert_eq(safe_commit(&sf, err), 0, "%s", err);
	cr_assert_eq(lstat(link, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link was replaced");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_size, 2);
}

Test(safe_file, refusals)
{
	char open_dir[96], path[128], in[128];
	char *text;
	size_t n;

	/* a directory others can write and that is not sticky */
	snprintf(open_dir, sizeof(open_dir), "%s/open", dir);
	cr_assert_eq(mkdir(open_dir, 0700), 0);
	cr_assert_eq(chmod(open_dir, 0777), 0);
	snprintf(path, sizeof(path), "%s/x.csv", open_dir);
	cr_assert_eq(safe_check(path, err), -EINVAL);
	cr_assert(strstr(err, "can be written by others and is not sticky"),
		  "%s", err);
	/* sticky: allowed */
	cr_assert_eq(chmod(open_dir, 01777), 0);
	cr_assert_eq(safe_check(path, err), 0, "%s", err);
	/* not a regular file */
	cr_assert_eq(safe_check(open_dir, err), -EINVAL);
	cr_assert(strstr(err, "a directory, not a file mpsim may write"), "%s",
		  err);
	/* an input */
	snprintf(in, sizeof(in), "%s/in.ini", dir);
	put(in, "[multipath]\n");
	cr_assert_eq(read_text_file(in, 1 << 20, "scenario file", &text, &n,
				    err), 0, "%s", err);
	free(text);
	cr_assert_eq(safe_check(in, err), -EINVAL);
	cr_assert(strstr(err, "the same file as the input"), "%s", err);
	/* ... by another name while it is at its own (a hard link) */
	snprintf(path, sizeof(path), "%s/link.ini", dir);
	cr_assert_eq(link(in, path), 0);
	cr_assert_eq(safe_check(path, err), -EINVAL);
	cr_assert(strstr(err, "the same file as the input"), "%s", err);
	/* but once the input's path no longer names it, that file is no
	 * input: a deleted input's inode may be a new output's */
	cr_assert_eq(unlink(in), 0);
	cr_assert_eq(safe_check(path, err), 0, "%s", err);
	cr_assert_eq(unlink(path), 0);
	/* a missing directory is the create's to say (a run-time failure) */
	snprintf(path, sizeof(path), "%s/no/x.csv", dir);
	cr_assert_eq(safe_check(path, err), 0, "%s", err);
	cr_assert_eq(safe_check_dir(open_dir, err), 0, "%s", err);
	cr_assert_eq(chmod(open_dir, 0777), 0);
	cr_assert_eq(safe_check_dir(open_dir, err), -EINVAL);
	/* a directory is made only once its path passed: not in one others
	 * can write, nor below it */
	snprintf(path, sizeof(path), "%s/bt", open_dir);
	cr_assert_eq(safe_mkdir(path, err), -EINVAL);
	cr_assert(strstr(err, "can be written by others and is not sticky"),
		  "%s", err);
	cr_assert_eq(entries(open_dir), 0);
	cr_assert_eq(safe_check_dir(path, err), -EINVAL);
	snprintf(path, sizeof(path), "%s/bt", dir);
	cr_assert_eq(safe_check_dir(path, err), 0, "%s", err);
	cr_assert_eq(safe_mkdir(path, err), 0, "%s", err);
	cr_assert_eq(safe_mkdir(path, err), 0, "%s", err);
	cr_assert_eq(safe_check_dir(path, err), 0, "%s", err);
}
