/* mpsim.c: main() and the choice of command; the commands live in sim/. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli.h"
#include "sim/sweep.h"
#include "sim/timer-wheel.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },
	{ "compare", cmd_compare },
	{ "sweep", cmd_sweep },
	{ "merge", cmd_merge },
	{ "list", cmd_list },
	{ "bench", cmd_bench },
	{ "timers", cmd_timers },
	{ "published", cmd_published },
};

static int command(int argc, char **argv)
{
	unsigned i;

	/* No arguments: the built-in comparison (kernel.md §6.2). */
	if (argc < 2)
		return cmd_compare(0, NULL);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		cli_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("mpsim %s\n", MPSIM_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	if (argv[1][0] != '-') {
		mpsim_error("unknown command '%s' (see mpsim --help)", argv[1]);
		return EXIT_BAD_INPUT;
	}
	/* Options without a command: one run. */
	return cmd_run(argc, argv);
}

/*
 * Whatever the command, its output must have reached stdout: a write that
 * failed (a full disk, /dev/full, a closed descriptor) is exit status 1,
 * said once (a command that saw it already returned 1 and said so).
 */
int main(int argc, char **argv)
{
	int rc = command(argc, argv), bad;

	errno = 0;
	bad = fflush(stdout) != 0;
	bad |= ferror(stdout) != 0;
	if (fclose(stdout))
		bad = 1;
	if (bad && rc == EXIT_OK) {
		mpsim_error("writing output: %s", errno ? strerror(errno) :
			    "a write to stdout failed");
		rc = EXIT_FAILED;
	}
	return rc;
}
