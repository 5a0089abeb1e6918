/*
 * trace-out.h: the two writers behind the trace hooks (sim/trace.h):
 * the decision trace's records (lib/trace-log.c) and blktrace's binary
 * per-CPU files (lib/blktrace.c).  Both write under a temporary name and
 * rename when the run completes, so a failed run leaves no half file.
 * Times are ns since the run began (the engine's sim_ns, which they do
 * not include: they know nothing of the engine).
 */
#ifndef MPSIM_TRACE_OUT_H
#define MPSIM_TRACE_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/* ---- decision trace: JSON lines, or one human-readable line each ---- */

struct trace_log;

/* Start the log of file (safe_create()): 0, or -EINVAL (refused) / -EIO
 * with err set. */
int tlog_open(const char *file, bool text, struct trace_log **l, char *err);
/* Returns 0, or -EIO with err set; the file is renamed only when ok. */
int tlog_close(struct trace_log *l, bool ok, char *err);

/* One record: begin, fields, end.  t is ns since the run began. */
void tlog_begin(struct trace_log *l, uint64_t t, const char *ev);
void tlog_u64(struct trace_log *l, const char *key, uint64_t v);
void tlog_i64(struct trace_log *l, const char *key, int64_t v);
void tlog_str(struct trace_log *l, const char *key, const char *v);
/* The "key=value " integer words of a status(PS_STATUS_TRACE). */
void tlog_words(struct trace_log *l, const char *words);
/* A list of named items (the valid paths of a map record). */
void tlog_list_begin(struct trace_log *l, const char *key);
void tlog_item_begin(struct trace_log *l, const char *name);
void tlog_item_end(struct trace_log *l);
void tlog_list_end(struct trace_log *l);
void tlog_end(struct trace_log *l);
/* Bytes written so far (buffered ones included). */
uint64_t tlog_bytes(const struct trace_log *l);

/* ---- blktrace ---- */

struct blkt;

/* blktrace's actions, the kernel's enum blktrace_act */
enum blkt_act {
	BLKT_QUEUE = 1,		/* __BLK_TA_QUEUE: Q */
	BLKT_GETRQ = 4,		/* __BLK_TA_GETRQ: G */
	BLKT_ISSUE = 7,		/* __BLK_TA_ISSUE: D */
	BLKT_COMPLETE = 8,	/* __BLK_TA_COMPLETE: C */
	BLKT_INSERT = 12,	/* __BLK_TA_INSERT: I */
	BLKT_REMAP = 15,	/* __BLK_TA_REMAP: A */
};

/*
 * Files dir/NAME.blktrace.0 for the nr devices named names[] (the paths,
 * then the multipath device last), with the device numbers devs[]; dir
 * is made if missing, once its path passed safe-file.h's checks.
 * Returns 0, or -EINVAL (a directory or file safe-file.h refuses) or
 * -EIO with err set when one cannot be created.
 */
int blkt_open(const char *dir, unsigned nr, const char *const *names,
	      const uint32_t *devs, struct blkt **b, char *err);
int blkt_close(struct blkt *b, bool ok, char *err);
/* Bytes written so far to all the files (buffered ones included). */
uint64_t blkt_bytes(const struct blkt *b);
/*
 * One struct blk_io_trace record on device d at t ns since the run
 * began: action act of a bio in direction ddir (enum blkt_ddir) at sector,
 * for pid, with error (a negative errno or 0).  A remap also carries its
 * source: the device from_dev and its sector.
 */
/* Name pid's command (comm) in every device's file. */
void blkt_process(struct blkt *b, uint32_t pid, const char *comm);
void blkt_event(struct blkt *b, unsigned d, uint64_t t, enum blkt_act act,
		unsigned ddir, uint64_t sector, uint32_t bytes, uint32_t pid,
		int error);
void blkt_remap(struct blkt *b, unsigned d, uint64_t t, unsigned ddir,
		uint64_t sector, uint32_t bytes, uint32_t pid,
		uint32_t from_dev, uint64_t from_sector);

/* The direction of a bio, in fio's order (input/scenario.h's enum
 * fio_ddir, which sim/trace.c holds equal): the ddir of blkt_event(). */
enum blkt_ddir {
	BLKT_DDIR_READ, BLKT_DDIR_WRITE, BLKT_DDIR_TRIM, BLKT_DDIR_SYNC,
};

/* The kernel's MKDEV() of a dev_t as blktrace records it (MINORBITS 20). */
#define BLKT_MKDEV(major, minor)	(((uint32_t)(major) << 20) | (minor))

#endif
