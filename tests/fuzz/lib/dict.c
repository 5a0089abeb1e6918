/*
 * dict.c: `fuzz-dict TARGET` prints the libFuzzer dictionary of a fuzz
 * target.  The names come from mpsim's own tables (its options, fio's
 * option names, the selectors, the built-in scenarios), so a new option is
 * in the dictionaries without a word here; only the punctuation of each
 * format is spelled out below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selectors/selector.h"
#include "workloads/fio.h"
#include "fuzz.h"

/* One dictionary entry, quoted as libFuzzer wants it. */
static void entry(const char *pre, const char *s, const char *post)
{
	const char *parts[] = { pre, s, post }, *p;
	unsigned i;

	putchar('"');
	for (i = 0; i < 3; i++)
		for (p = parts[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				printf("\\%c", *p);
			else if (*p < ' ' || *p > '~')
				printf("\\x%02x", (unsigned char)*p);
			else
				putchar(*p);
		}
	puts("\"");
}

static void words(const char *const *w, const char *pre, const char *post)
{
	for (; *w; w++)
		entry(pre, *w, post);
}

/* Every option of a run (mpsim list options: the first column), as pre +
 * name + post; fio's every option name too when fio_too. */
static void options(const char *pre, const char *post, bool fio_too)
{
	char *buf = NULL, *line, *save = NULL;
	const char *name;
	size_t len = 0;
	unsigned i;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	scenario_list_options(f);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, "\t")] = '\0';
		if (!strncmp(line, "path.NAME.", 10))
			line += 10;
		entry(pre, line, post);
	}
	free(buf);
	for (i = 0; fio_too && (name = fio_name(i)); i++)
		entry(pre, name, post);
}

static void names(void)
{
	const char *name;
	unsigned i;

	for (i = 0; i < ps_nr_types; i++) {
		entry("", ps_types[i]->name, "");
		entry("", ps_types[i]->alias, "");
	}
	for (i = 0; (name = scenario_builtin_name(i)); i++)
		entry("", name, "");
}

static const char *const units[] = {
	"k", "m", "g", "t", "p", "kib", "mib", "b", "ns", "us", "usec", "ms",
	"msec", "s", "sec", "min", "h", "d", "fixed:", "exp:", "uniform:",
	"lognormal:", "gamma:", ",", ":", "/", "-", ".", "e", "on", "off",
	"true", "false", "yes", "no", "18446744073709551615", "4294967296",
	NULL,
};
static const char *const ini[] = {
	"[multipath]", "[global]", "[path ", "]\n", "=", "\n", "#", ";",
	"include ", "${", "}", "$pagesize", "$mb_memory", "$ncpus", " at ",
	"fixed:", "exp:", "gamma:", "lognormal:", "uniform:", NULL,
};
static const char *const expr[] = {
	"+", "-", "*", "/", "%", "^", "(", ")", "$pagesize", "$mb_memory",
	"$ncpus", "${", "}", "9223372036854775807", "-9223372036854775808",
	"k", "m", "ms", "us", NULL,
};
static const char *const iolog[] = {
	"fio version 2 iolog\n", "fio version 3 iolog\n", " add\n",
	" open\n", " close\n", " read ", " write ", " trim ", " sync ",
	" datasync ", " wait ", "/dev/sda", "\n", " 0 4096\n",
	"18446744073709551615", NULL,
};
static const char *const grammar[] = {
	"..", "+", "*", ",", "\n", "k", "ms", "18446744073709551615", NULL,
};
static const char *const sweep_file[] = {
	"# mpsim " MPSIM_VERSION " sweep: ",
	"{\"mpsim\": {\"version\": \"" MPSIM_VERSION "\", \"sweep\": \"",
	"point,", "\n", ",", "'", "\\u00", "--reps=", "--seed=", "--format=",
	"--point=", "json", "csv", NULL,
};

int main(int argc, char **argv)
{
	const char *t = argc == 2 ? argv[1] : "";

	if (!strcmp(t, "scenario") || !strcmp(t, "fio_job")) {
		options("", "=", !strcmp(t, "fio_job"));
		words(ini, "", "");
		names();
	} else if (!strcmp(t, "units")) {
		words(units, "", "");
	} else if (!strcmp(t, "fio_expr")) {
		words(expr, "", "");
	} else if (!strcmp(t, "iolog")) {
		words(iolog, "", "");
	} else if (!strcmp(t, "sweep_grammar")) {
		options("", "\n", false);
		words(grammar, "", "");
	} else if (!strcmp(t, "sweep_file")) {
		options("--", "=", false);
		words(sweep_file, "", "");
		names();
	} else {
		fprintf(stderr, "fuzz-dict: no dictionary for '%s'\n", t);
		return 2;
	}
	return 0;
}
