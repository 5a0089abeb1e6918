/*
 * test_md_align.c: Markdown tables lined up for a terminal
 * (lib/md-align.h): widths in characters, numbers to the right, the text
 * around a table kept as it is.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "lib/md-align.h"

static void aligned(const char *in, const char *want)
{
	size_t n;
	char *got = md_align(in, strlen(in), &n);

	cr_assert_eq(n, strlen(got));
	cr_assert_str_eq(got, want);
	free(got);
}

Test(md_align, columns_line_up_numbers_to_the_right)
{
	aligned("title\n\n| path | ST | mean (µs) |\n|---|--:|--:|\n"
		"| sdd | 0.17 | 98.5 |\n| total | 1 | 1024.25 |\n\nafter\n",
		"title\n\n| path  |   ST | mean (µs) |\n| ----- | ---: | --------: |\n"
		"| sdd   | 0.17 |      98.5 |\n| total |    1 |   1024.25 |\n\nafter\n");
}

Test(md_align, empty_cells_and_two_tables)
{
	aligned("| a | b |\n|---|---|\n| x | |\ntext\n| c |\n|:-:|\n| yyyy |\n",
		"| a   | b   |\n| --- | --- |\n| x   |     |\ntext\n"
		"| c    |\n| :--: |\n| yyyy |\n");
}

Test(md_align, what_is_no_table_is_kept)
{
	static const char *const same[] = {
		"| not a table |\nno separator\n",
		"path,share\nsdd,0.17\n",
		"| a |\n| b |\n",
		"no newline at the end",
		"",
	};
	unsigned i;

	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		aligned(same[i], same[i]);
}
