/*
 * live.c: `mpsim live`, a scenario on a running Linux 6.1 beside mpsim.
 *
 * The work is done by live/live.py (it builds modules for Debian's
 * user-mode-linux kernel, boots it, runs fio there and mpsim here): this
 * command finds that script and hands it the arguments, with this binary
 * as the mpsim it runs.  The script is looked for where `make install`
 * puts it (MPSIM_LIVEDIR), and first beside the binary (live/ in the
 * source tree), so an uninstalled ./mpsim runs its own tree's script.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

#ifndef MPSIM_LIVEDIR
#define MPSIM_LIVEDIR "/usr/local/share/mpsim/live"
#endif

static const char usage[] =
"usage: mpsim live --scenario=FILE [--job=FILE.fio] [--selector-source=FILE.c]\n"
"                  [--repeats=N] [--boots=N] [--KEY=VALUE ...]\n"
"\n"
"Runs the scenario's dm table and fio jobs on Linux 6.1 (Debian's\n"
"user-mode-linux, as an ordinary user: no root, VM or hardware) and in\n"
"mpsim, and prints the kernel's figures, their spread over the repeats\n"
"(run in turn in --boots boots of the kernel), and mpsim's side by\n"
"side.  Each [path] is a dm-delay target with its delays over a RAM\n"
"disk (brd), or with write_cache = back over a loop device on a tmpfs\n"
"file; the table names the paths by name or dev.\n"
"Every other --KEY=VALUE is mpsim's option, applied to both where it\n"
"describes a path (delay, write_cache).\n"
"\n"
"Needs the packages user-mode-linux, linux-source-6.1 (for a selector\n"
"the package lacks or --selector-source), fio, dmsetup and kmod.  Builds\n"
"are kept in $XDG_CACHE_HOME/mpsim/live (else ~/.cache/mpsim/live, else\n"
"$TMPDIR/mpsim-UID/live; LIVE_BUILD names another), a directory of yours\n"
"alone (docs/safety.md).\n"
"Exit status: 0 every mpsim figure within the kernel's spread, 1 some\n"
"outside (or the kernel run failed), 2 bad input.\n";

void help_live(FILE *f)
{
	fputs(usage, f);
	ref_options(f, CMD_LIVE, REF_OTHER);
}

/* DIR/live/live.py beside this binary, if there is one. */
static char *beside_binary(void)
{
	static char buf[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", buf, PATH_MAX);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	strcpy(slash, "/live/live.py");
	return access(buf, R_OK) ? NULL : buf;
}

/* The files the script will read, read here first by mpsim's own reader:
 * a FIFO, a device or a file past the limit is one line and status 2
 * here, as in every other command, and not a script waiting on it.  A
 * value with a line break is refused as run refuses it. */
static int live_check_args(int argc, char **argv, char *err)
{
	static const char *const files[] = { "scenario", "job",
					     "selector-source" };
	int i, r;

	for (i = 1; i < argc; i += r > 0 ? r : 1) {
		const char *key, *val;
		size_t klen, k, len;
		struct stat st;
		char *text;

		r = 1;
		if (strncmp(argv[i], "--", 2))
			continue;	/* the script says what a word is */
		r = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (r < 0)
			return r;
		if (!val)
			continue;
		if (cli_one_line(key, klen, val, err))
			return -EINVAL;
		for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
			/* a name that is no file is the script's to judge
			 * (a built-in scenario's name) */
			if (!cli_key_is(key, klen, files[k]) || stat(val, &st))
				continue;
			if (read_text_file(val, 1024 * 1024, files[k], &text,
					   &len, err))
				return -EINVAL;
			free(text);
		}
	}
	return 0;
}

int cmd_live(int argc, char **argv)
{
	char err[ERR_MAX];
	static char self[PATH_MAX + 1];
	const char *script = getenv("MPSIM_LIVE");
	char **av;
	ssize_t n;
	int i;

	if (live_check_args(argc, argv, err)) {
		mpsim_error("live: %s", err);
		return EXIT_BAD_INPUT;
	}
	if (!script || !*script)
		script = beside_binary();
	if (!script) {
		script = MPSIM_LIVEDIR "/live.py";
		if (access(script, R_OK)) {
			mpsim_error("live: %s not found (make install puts it there)",
				    script);
			return EXIT_FAILED;
		}
	}
	n = readlink("/proc/self/exe", self, PATH_MAX);
	if (n > 0) {
		self[n] = '\0';
		setenv("MPSIM", self, 1);
	}
	av = xmalloc((size_t)(argc + 4) * sizeof(*av));
	av[0] = (char *)"python3";
	av[1] = (char *)script;
	av[2] = (char *)"run";
	for (i = 1; i < argc; i++)
		av[i + 2] = argv[i];
	av[argc + 2] = NULL;
	fflush(stdout);
	execvp(av[0], av);
	mpsim_error("live: cannot run python3: %s", strerror(errno));
	free(av);
	return EXIT_FAILED;
}
