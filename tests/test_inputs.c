/*
 * test_inputs.c: the content hashes a sweep's first line carries
 * (lib/inputs.c): FNV-1a 64 against its published test vectors, the
 * files a read notes, and a selector source's local headers.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lib/inputs.h"
#include "sim/sim.h"

Test(inputs, fnv1a64_test_vectors)
{
	/* the FNV reference vectors: "" is the offset basis, "a", "foobar" */
	cr_assert_eq(fnv1a64("", 0, FNV1A64_INIT), 0xcbf29ce484222325ULL);
	cr_assert_eq(fnv1a64("a", 1, FNV1A64_INIT), 0xaf63dc4c8601ec8cULL);
	cr_assert_eq(fnv1a64("foobar", 6, FNV1A64_INIT), 0x85944171f73967e8ULL);
	/* chained: the same as in one piece */
	cr_assert_eq(fnv1a64("bar", 3, fnv1a64("foo", 3, FNV1A64_INIT)),
		     0x85944171f73967e8ULL);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

static const struct input_file *find(const char *key)
{
	const struct input_file *f;
	size_t n = inputs_list(&f), i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return &f[i];
	return NULL;
}

Test(inputs, reads_are_noted_with_the_local_headers_of_a_source)
{
	char dir[] = "/tmp/mpsim-inputs-XXXXXX", path[512], key[600];
	char err[ERR_MAX], *text;
	const struct input_file *f;
	size_t n;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(mkdir(strcat(strcpy(path, dir), "/sub"), 0700), 0);
	put(dir, "sel.c", "#include <linux/slab.h>\n#include \"sub/a.h\"\n"
	    "  #  include \"missing.h\"\nint x;\n");
	put(dir, "sub/a.h", "#include \"b.h\"\n#include \"../sel.c\"\n");
	put(dir, "sub/b.h", "#define B 1\n");
	put(dir, "s.ini", "[multipath]\n");

	inputs_clear();
	snprintf(path, sizeof(path), "%s/s.ini", dir);
	cr_assert_eq(read_text_file(path, 1 << 20, "scenario file", &text, &n,
				    err), 0);
	free(text);
	cr_assert_eq(inputs_list(&f), 0, "noted while not recording");
	inputs_record(true);
	cr_assert_eq(read_text_file(path, 1 << 20, "scenario file", &text, &n,
				    err), 0);
	free(text);
	snprintf(path, sizeof(path), "%s/sel.c", dir);
	cr_assert_eq(read_text_file(path, 1 << 20, "C source file", &text, &n,
				    err), 0);
	free(text);
	/* a result file is no input */
	cr_assert_eq(read_text_file(path, 1 << 20, "sweep result file", &text,
				    &n, err), 0);
	free(text);
	inputs_record(false);

	snprintf(key, sizeof(key), "scenario:%s/s.ini", dir);
	cr_assert_not_null(find(key));
	cr_assert_eq(find(key)->hash, fnv1a64("[multipath]\n", 12, FNV1A64_INIT));
	snprintf(key, sizeof(key), "selector-source:%s/sel.c", dir);
	cr_assert_not_null(find(key));
	snprintf(key, sizeof(key), "selector-header:%s/sub/a.h", dir);
	cr_assert_not_null(find(key), "a local include");
	snprintf(key, sizeof(key), "selector-header:%s/sub/b.h", dir);
	cr_assert_not_null(find(key), "an include of an include, from its dir");
	cr_assert_eq(find(key)->hash, fnv1a64("#define B 1\n", 12, FNV1A64_INIT));
	/* s.ini, sel.c, a.h, b.h: the cycle back to sel.c ends there */
	cr_assert_eq(inputs_list(&f), 4);
	inputs_clear();
	cr_assert_eq(inputs_list(&f), 0);
	cr_assert_neq(inputs_build_hash(), 0);
	cr_assert_eq(inputs_build_hash(), inputs_build_hash());

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	cr_assert_eq(system(path), 0);
}
