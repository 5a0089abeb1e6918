/*
 * mp-table.c: what the engine does with a multipath table besides
 * building the device from it: free it, and name a path's device as the
 * kernel prints it in the table and status lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp-table.h"

void mp_table_free(struct mp_table *t)
{
	unsigned i;

	if (t->pgs)
		for (i = 0; i < t->nr_pgs; i++)
			free(t->pgs[i].paths);
	free(t->pgs);
	t->pgs = NULL;
	t->nr_pgs = 0;
}

/*
 * sd's numbering (drivers/scsi/sd.c sd_major, sd_format_disk_name): disk
 * k (sda = 0, sdz = 25, sdaa = 26) has major 8, 65-71, 128-135 by
 * k / 16 and minor 16 x (k % 16), for the first 256 disks.
 */
static int sd_index(const char *name)
{
	int k = 0;
	const char *c;

	if (strncmp(name, "sd", 2) || !name[2])
		return -1;
	for (c = name + 2; *c; c++) {
		if (*c < 'a' || *c > 'z' || k > 256)
			return -1;
		k = k * 26 + (*c - 'a' + 1);
	}
	return k - 1;
}

void path_dev_name(const struct path_conf *c, char *buf, size_t size)
{
	int k = sd_index(c->name);

	if (c->dev[0]) {
		snprintf(buf, size, "%s", c->dev);
	} else if (k >= 0 && k < 256) {
		unsigned m = (unsigned)k >> 4;

		snprintf(buf, size, "%u:%u", !m ? 8 : m < 8 ? 64 + m : 120 + m,
			 ((unsigned)k & 15) << 4);
	} else {
		snprintf(buf, size, "%s", c->name);
	}
}
