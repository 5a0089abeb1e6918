/*
 * blktrace.c: the binary files `blktrace` writes, one per device and CPU
 * (NAME.blktrace.CPU), so that blkparse and btt read mpsim's I/O as they
 * read a real system's.  Every record is a struct blk_io_trace in the
 * machine's byte order (blkparse tells the order from the magic), its
 * remap payload a big-endian struct blk_io_trace_remap, as the kernel's
 * kernel/trace/blktrace.c writes them (include/uapi/linux/blktrace_api.h,
 * version 7).  mpsim simulates one CPU: every record goes to CPU 0's file,
 * numbered from 1 as the kernel's per-CPU sequence.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safe-file.h"
#include "trace-out.h"

#define BLK_IO_TRACE_MAGIC	0x65617400
#define BLK_IO_TRACE_VERSION	0x07

/* The categories of enum blktrace_cat, shifted into action's high half
 * (BLK_TC_ACT). */
#define BLK_TC_READ		(1u << 0)
#define BLK_TC_WRITE		(1u << 1)
#define BLK_TC_FLUSH		(1u << 2)
#define BLK_TC_QUEUE		(1u << 4)
#define BLK_TC_ISSUE		(1u << 6)
#define BLK_TC_COMPLETE		(1u << 7)
#define BLK_TC_NOTIFY		(1u << 10)
#define BLK_TC_DISCARD		(1u << 13)
#define BLK_TN_PROCESS		0	/* a note: pid's command name */
#define TASK_COMM_LEN		16
#define BLK_TC_SHIFT		16
#define BLK_TC_ACT(act)		((uint32_t)(act) << BLK_TC_SHIFT)

/* struct blk_io_trace: 48 bytes, no padding. */
struct blk_io_trace {
	uint32_t magic;		/* BLK_IO_TRACE_MAGIC | version */
	uint32_t sequence;	/* per CPU, from 1 */
	uint64_t time;		/* ns */
	uint64_t sector;	/* 512-byte sectors */
	uint32_t bytes;
	uint32_t action;	/* what happened, category bits above */
	uint32_t pid;
	uint32_t device;	/* MKDEV(major, minor), MINORBITS 20 */
	uint32_t cpu;
	uint16_t error;		/* the negative errno, as u16 */
	uint16_t pdu_len;	/* payload bytes that follow */
};
_Static_assert(sizeof(struct blk_io_trace) == 48, "blk_io_trace layout");

/* struct blk_io_trace_remap: the payload of an A record, big-endian. */
struct blk_io_trace_remap {
	uint32_t device_from;
	uint32_t device_to;
	uint64_t sector_from;
};
_Static_assert(sizeof(struct blk_io_trace_remap) == 16, "remap layout");

struct blkt_dev {
	FILE *f;
	struct safe_file out;	/* the file being written */
	char *path;		/* its name, for messages */
	uint32_t dev;
	uint32_t sequence;
	int error;		/* errno of the first write that failed */
};

struct blkt {
	unsigned nr;
	struct blkt_dev *d;
};

static int blkt_finish(struct blkt *b, bool ok, char *err)
{
	char why[ERR_MAX];
	unsigned i;
	int r = 0;

	for (i = 0; i < b->nr; i++) {
		struct blkt_dev *d = &b->d[i];

		if (!d->f)
			continue;
		d->error = safe_close_stream(d->f, &d->out, d->error);
		if (d->error) {
			if (!r)
				snprintf(err, ERR_MAX, "--blktrace: writing "
					 "'%.160s' failed: %s", d->path,
					 strerror(d->error));
			r = -EIO;
		}
		d->f = NULL;
	}
	for (i = 0; i < b->nr; i++) {
		struct blkt_dev *d = &b->d[i];

		if (!d->out.path && d->out.fd < 0)
			continue;		/* never opened */
		if (!ok || r) {
			safe_abort(&d->out);
		} else if (safe_commit(&d->out, why)) {
			snprintf(err, ERR_MAX, "--blktrace: %.200s", why);
			r = -EIO;
		}
	}
	for (i = 0; i < b->nr; i++)
		free(b->d[i].path);
	free(b->d);
	free(b);
	return r;
}

int blkt_open(const char *dir, unsigned nr, const char *const *names,
	      const uint32_t *devs, struct blkt **out, char *err)
{
	struct blkt *b = xcalloc(1, sizeof(*b));
	char why[ERR_MAX];
	unsigned i;
	int r;

	*out = NULL;
	b->nr = nr;
	b->d = xcalloc(nr, sizeof(*b->d));
	for (i = 0; i < nr; i++)
		b->d[i].out.fd = -1;
	/* made if missing, once its path passed the checks; files are made
	 * in it by name: no other user may write it */
	r = safe_mkdir(dir, why);
	if (!r)
		r = safe_check_dir(dir, why);
	for (i = 0; !r && i < nr; i++) {
		struct blkt_dev *d = &b->d[i];
		size_t n = strlen(dir) + strlen(names[i]) + 32;

		d->path = xmalloc(n);
		snprintf(d->path, n, "%s/%s.blktrace.0", dir, names[i]);
		d->dev = devs[i];
		/* never through a link, over a device or an input */
		r = safe_create(&d->out, d->path, 0, why);
		if (r)
			break;
		d->f = fdopen(d->out.fd, "wb");
		if (!d->f) {
			perror("mpsim: fdopen");
			abort();
		}
		d->out.fd = -1;		/* d->f owns it now */
		setvbuf(d->f, NULL, _IOFBF, 1 << 18);
	}
	if (r) {
		blkt_finish(b, false, err);
		snprintf(err, ERR_MAX, "--blktrace: %.200s", why);
		return r;
	}
	*out = b;
	return 0;
}

int blkt_close(struct blkt *b, bool ok, char *err)
{
	return blkt_finish(b, ok, err);
}

/* The direction bits blk_add_trace_bio() adds: ddir_act[] for a write
 * (a discard and an empty flush are writes too), and the flag bits
 * (MASK_TC_BIT) for REQ_OP_DISCARD and REQ_PREFLUSH. */
static uint32_t ddir_bits(unsigned ddir)
{
	switch (ddir) {
	case BLKT_DDIR_READ:
		return BLK_TC_ACT(BLK_TC_READ);
	case BLKT_DDIR_TRIM:
		return BLK_TC_ACT(BLK_TC_WRITE | BLK_TC_DISCARD);
	case BLKT_DDIR_SYNC:
		return BLK_TC_ACT(BLK_TC_WRITE | BLK_TC_FLUSH);
	default:
		return BLK_TC_ACT(BLK_TC_WRITE);
	}
}

static uint32_t act_bits(enum blkt_act act)
{
	switch (act) {
	case BLKT_ISSUE:
		return BLK_TC_ACT(BLK_TC_ISSUE);
	case BLKT_COMPLETE:
		return BLK_TC_ACT(BLK_TC_COMPLETE);
	default:		/* Q, G, I, A: queueing */
		return BLK_TC_ACT(BLK_TC_QUEUE);
	}
}

static void blkt_write(struct blkt *b, unsigned di, uint64_t t,
		       enum blkt_act act, unsigned ddir, uint64_t sector,
		       uint32_t bytes, uint32_t pid, int error,
		       const void *pdu, uint16_t pdu_len)
{
	struct blkt_dev *d = &b->d[di];
	struct blk_io_trace r;

	memset(&r, 0, sizeof(r));
	r.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
	r.sequence = ++d->sequence;
	r.time = t;
	r.sector = sector;
	r.bytes = bytes;
	r.action = (uint32_t)act | act_bits(act) | ddir_bits(ddir);
	r.pid = pid;
	r.device = d->dev;
	r.cpu = 0;
	r.error = (uint16_t)error;
	r.pdu_len = pdu_len;
	if ((fwrite(&r, sizeof(r), 1, d->f) != 1 ||
	     (pdu_len && fwrite(pdu, pdu_len, 1, d->f) != 1)) && !d->error)
		d->error = errno ? errno : EIO;
}

uint64_t blkt_bytes(const struct blkt *b)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < b->nr; i++) {
		off_t o = ftello(b->d[i].f);

		n += o > 0 ? (uint64_t)o : 0;
	}
	return n;
}

/* The kernel's trace_note_tsk(): the command name of a pid, which
 * blkparse prints beside that pid's records.  A note takes no sequence
 * number. */
void blkt_process(struct blkt *b, uint32_t pid, const char *comm)
{
	char name[TASK_COMM_LEN];
	struct blk_io_trace r;
	unsigned i;

	memset(name, 0, sizeof(name));
	snprintf(name, sizeof(name), "%s", comm);
	memset(&r, 0, sizeof(r));
	r.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
	r.action = BLK_TC_ACT(BLK_TC_NOTIFY) | BLK_TN_PROCESS;
	r.pid = pid;
	r.pdu_len = sizeof(name);
	for (i = 0; i < b->nr; i++) {
		r.device = b->d[i].dev;
		fwrite(&r, sizeof(r), 1, b->d[i].f);
		fwrite(name, sizeof(name), 1, b->d[i].f);
	}
}

void blkt_event(struct blkt *b, unsigned d, uint64_t t, enum blkt_act act,
		unsigned ddir, uint64_t sector, uint32_t bytes, uint32_t pid,
		int error)
{
	blkt_write(b, d, t, act, ddir, sector, bytes, pid, error, NULL, 0);
}

/* The kernel's blk_add_trace_bio_remap(): recorded on the device the bio
 * now goes to, the payload naming where it came from. */
void blkt_remap(struct blkt *b, unsigned d, uint64_t t, unsigned ddir,
		uint64_t sector, uint32_t bytes, uint32_t pid,
		uint32_t from_dev, uint64_t from_sector)
{
	struct blk_io_trace_remap r;

	r.device_from = htobe32(from_dev);
	r.device_to = htobe32(b->d[d].dev);
	r.sector_from = htobe64(from_sector);
	blkt_write(b, d, t, BLKT_REMAP, ddir, sector, bytes, pid, 0, &r,
		   sizeof(r));
}
