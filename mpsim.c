/* mpsim.c: main() and the choice of command; the commands live in sim/. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "sweep/sweep.h"
#include "selectors/kguard.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	void (*help)(FILE *f);
} commands[] = {
	{ "run", cmd_run, help_run },
	{ "compare", cmd_compare, help_compare },
	{ "sweep", cmd_sweep, help_sweep },
	{ "merge", cmd_merge, help_merge },
	{ "list", cmd_list, help_list },
	{ "bench", cmd_bench, help_bench },
	{ "timers", cmd_timers, help_timers },
	{ "published", cmd_published, help_published },
	{ "live", cmd_live, help_live },
};

/* --help or -h anywhere among a command's words asks for its help. */
static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/* Runs a command with its warnings held back until its input is accepted
 * (sim.h): bad input stays one line. */
static int held_warnings(int (*fn)(int argc, char **argv), int argc,
			 char **argv)
{
	int rc;

	mpsim_warn_hold();
	rc = fn(argc, argv);
	mpsim_warn_release(rc != EXIT_BAD_INPUT);
	return rc;
}

static int command(int argc, char **argv)
{
	unsigned i;

	mpsim_argv0 = argv[0];
	kguard_allow();		/* a plugin runs in a watched child */
	/* No arguments: the built-in comparison (docs/kernel-model.md §6.2). */
	if (argc < 2)
		return held_warnings(cmd_compare, 0, NULL);
	if (!strcmp(argv[1], "help") && argc == 3) {
		for (i = 0; i < ARRAY_SIZE(commands); i++)
			if (!strcmp(argv[2], commands[i].name)) {
				commands[i].help(stdout);
				return EXIT_OK;
			}
		mpsim_error("help: unknown command '%s' (see mpsim --help)",
			    argv[2]);
		return EXIT_BAD_INPUT;
	}
	if (!strcmp(argv[1], "help") || (argv[1][0] == '-' &&
					  wants_help(argc, argv))) {
		cli_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("mpsim %s\n", MPSIM_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (wants_help(argc - 1, argv + 1)) {
			commands[i].help(stdout);
			return EXIT_OK;
		}
		return held_warnings(commands[i].fn, argc - 1, argv + 1);
	}
	if (argv[1][0] != '-') {
		mpsim_error("unknown command '%s' (see mpsim --help)", argv[1]);
		return EXIT_BAD_INPUT;
	}
	/* Options without a command: one run. */
	return held_warnings(cmd_run, argc, argv);
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
