/*
 * fio-names.c: every option name of fio 3.33 (HOWTO, --cmdhelp, --enghelp)
 * and how mpsim treats those it does not model: quietly, warned, refused.
 */
#include <stdlib.h>
#include <string.h>

#include "fio.h"

/* Sorted as strcmp() orders them, for bsearch(). */
static const char *const fio_names[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat",
	"arguments", "atomic", "ba", "bindname", "block",
	"block_error_percentiles", "blockalign", "blocksize",
	"blocksize_range", "blocksize_unaligned", "brick", "bs",
	"bs_is_seq_rand", "bs_unaligned", "bsrange", "bssplit",
	"buffer_compress_chunk", "buffer_compress_percentage",
	"buffer_pattern", "buffered", "busy_poll", "busy_wait_polling",
	"bwavgtime", "cgroup", "cgroup_nodelete", "cgroup_weight",
	"chunk_size", "clat_percentiles", "clientname", "clocksource",
	"clustername", "cmd_type", "cmdprio", "cmdprio_bssplit",
	"cmdprio_class", "cmdprio_percentage", "conf", "cont",
	"continue_on_error", "cpuchunks", "cpuload", "cpumask", "cpumode",
	"cpus_allowed", "cpus_allowed_policy", "create_fsync",
	"create_on_open", "create_only", "create_serialize", "cuda_io",
	"dedupe_global", "dedupe_mode", "dedupe_percentage",
	"dedupe_working_set_percentage", "description", "device-names", "dir",
	"direct", "direct_write_to_pmem", "directory", "disable_bw",
	"disable_bw_measurement", "disable_clat", "disable_lat",
	"disable_slat", "disk_util", "do_verify", "donorname", "end_fsync",
	"error_dump", "exec_postrun", "exec_prerun", "exit_on_io_done",
	"exit_what", "exitall", "exitall_on_error", "experimental_verify",
	"fadvise_hint", "fallocate", "fdatasync", "file_append",
	"file_service_type", "filename", "filename_format", "fileoffset",
	"filesize", "fill_device", "fill_fs", "fixedbufs", "flow", "flow_id",
	"flow_sleep", "force_async", "fsync", "fsync_on_close", "gid",
	"gpu_dev_id", "gpu_dev_ids", "grace_time", "group_reporting",
	"gtod_cpu", "gtod_reduce", "hdfsdirectory", "hipri",
	"hipri_percentage", "hostname", "http_host", "http_mode", "http_pass",
	"http_s3_key", "http_s3_keyid", "http_s3_region",
	"http_s3_sse_customer_algorithm", "http_s3_sse_customer_key",
	"http_s3_storage_class", "http_swift_auth_token", "http_user",
	"http_verbose", "https", "hugepage-size", "ignore_error",
	"ignore_zone_limits", "inplace", "interface", "invalidate", "io_limit",
	"io_size", "io_submit_mode", "iodepth", "iodepth_batch",
	"iodepth_batch_complete", "iodepth_batch_complete_max",
	"iodepth_batch_complete_min", "iodepth_batch_submit", "iodepth_low",
	"ioengine", "iomem", "iomem_align", "iopsavgtime", "ioscheduler",
	"job_max_open_zones", "kb_base", "large-block-op-kbytes",
	"lat_percentiles", "latency_percentile", "latency_run",
	"latency_target", "latency_window", "listen", "load", "lockfile",
	"lockmem", "log_alternate_epoch", "log_alternate_epoch_clock_id",
	"log_avg_msec", "log_compression", "log_compression_cpus",
	"log_entries", "log_hist_coarseness", "log_hist_msec", "log_max_value",
	"log_offset", "log_prio", "log_store_compressed", "log_unix_epoch",
	"loops", "max_latency", "max_open_zones", "mem", "mem_align",
	"merge_blktrace_file", "merge_blktrace_iters",
	"merge_blktrace_scalars", "mss", "name", "namenode", "new_group",
	"nfs_url", "nice", "nodelay", "nonvectored", "norandommap", "nowait",
	"nr_files", "nrfiles", "numa_cpu_nodes", "numa_mem_policy",
	"number_ios", "numjobs", "numruns", "object_class", "offset",
	"offset_align", "offset_increment", "opendir", "openfiles",
	"overwrite", "per_job_logs", "percentage_random", "percentile_list",
	"pingpong", "pool", "port", "pre_read", "prep", "prio", "prioclass",
	"profile", "program", "proto", "protocol", "ramp_time",
	"random_distribution", "random_generator", "randrepeat", "randseed",
	"rate", "rate_cycle", "rate_ignore_thinktime", "rate_iops",
	"rate_iops_min", "rate_min", "rate_process", "ratecycle", "ratemin",
	"rbdname", "read-req-num-512-blocks", "read_beyond_wp", "read_iolog",
	"read_iolog_chunked", "readfua", "readwrite", "refill_buffers",
	"registerfiles", "replay_align", "replay_no_stall", "replay_redirect",
	"replay_scale", "replay_skip", "replay_time_scale", "runtime", "rw",
	"rw_sequencer", "rwmixread", "rwmixwrite", "scramble_buffers",
	"serialize_overlap", "serverip", "sg_write_mode",
	"significant_figures", "single-instance", "size", "skip_bad",
	"slat_percentiles", "softrandommap", "sqthread_poll",
	"sqthread_poll_cpu", "ss", "ss_dur", "ss_ramp", "startdelay",
	"stat_type", "stats", "std_redirect", "steadystate",
	"steadystate_duration", "steadystate_ramp_time", "stonewall", "str",
	"stream_id", "sync", "sync_file_range", "test-duration", "thinktime",
	"thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime",
	"thinktime_spin", "thp", "thread", "threads", "threads-per-queue",
	"time_based", "timeout", "touch_objects", "trim_backlog",
	"trim_backlog_batch", "trim_percentage", "trim_verify_zero", "ttl",
	"uid", "uncached", "unified_rw_reporting", "unique_filename",
	"unit_base", "unlink", "unlink_each_loop", "uri", "userspace_reap",
	"verb", "verify", "verify_async", "verify_async_cpus",
	"verify_backlog", "verify_backlog_batch", "verify_dump",
	"verify_fatal", "verify_interval", "verify_offset", "verify_only",
	"verify_pattern", "verify_state_load", "verify_state_save", "volume",
	"wait_for", "wait_for_previous", "window_size", "write_barrier",
	"write_bw_log", "write_hint", "write_hist_log", "write_iolog",
	"write_iops_log", "write_lat_log", "writefua", "xnvme_admin",
	"xnvme_async", "xnvme_dev_nsid", "xnvme_iovec", "xnvme_sync",
	"zero_buffers", "zone_reset_frequency", "zone_reset_threshold",
	"zonecapacity", "zonemode", "zonerange", "zonesize", "zoneskip",
};

/*
 * No effect on a simulated run and nothing worth a word: the names of
 * jobs, files and directories.
 */
static const char *const quiet_names[] = {
	"description", "directory", "filename_format", "thread", "threads", "unique_filename",
};

/*
 * Options that would change what a run means and that mpsim cannot
 * model, unless given one of the values in `ok` ("|"-separated; NULL:
 * none), which are fio's defaults and so accepted quietly.
 */
static const struct refusal {
	const char *key;
	const char *ok;
	const char *why;
} refusals[] = {
	{ "bs_is_seq_rand", "0", "block sizes by sequential/random are not "
	  "modelled" },
	{ "exitall", "0", "exitall (stop every job when one ends) is not "
	  "modelled" },
	{ "experimental_verify", "0", "data verification is not modelled" },
	{ "fill_device", "0", "filling a device needs its size, which is not "
	  "modelled" },
	{ "fill_fs", "0", "filling a file system is not modelled" },
	{ "flow", "0", "flow control between jobs is not modelled" },
	{ "kb_base", "1024", "kb_base=1000 is not modelled (sizes are read "
	  "with fio's default, kb_base=1024)" },
	{ "latency_target", "0", "latency_target (fio's search for a depth) "
	  "is not modelled" },
	{ "rate", "0", "a rate in bytes/s is not modelled (use rate_iops)" },
	{ "ss", NULL, "steady-state detection (ss) is not modelled" },
	{ "steadystate", NULL, "steady-state detection (ss) is not "
	  "modelled" },
	{ "trim_backlog", "0", "trims after writes (trim_backlog) are not "
	  "modelled" },
	{ "trim_percentage", "0", "trims after writes (trim_percentage) are "
	  "not modelled" },
	{ "verify", "0|none", "data verification is not modelled" },
	{ "verify_only", "0", "data verification is not modelled" },
	{ "wait_for", NULL, "wait_for is not modelled (stonewall is)" },
	{ "zonemode", "none", "zoned block devices (zonemode=zbd) are not "
	  "modelled" },
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* True when v is one of the "|"-separated values of ok. */
static bool value_ok(const char *v, const char *ok)
{
	size_t n = strlen(v);

	while (ok && *ok) {
		size_t k = strcspn(ok, "|");

		if (k == n && !strncmp(ok, v, n))
			return true;
		ok += k + (ok[k] == '|');
	}
	return false;
}

const char *fio_name(unsigned i)
{
	return i < ARRAY_SIZE(fio_names) ? fio_names[i] : NULL;
}

enum fio_class fio_classify(const char *key, const char *value,
			    const char **why)
{
	size_t i;

	if (!bsearch(&key, fio_names, ARRAY_SIZE(fio_names),
		     sizeof(fio_names[0]), cmp_name))
		return FIO_NOT_FIO;
	if (str_in_list(key, quiet_names, ARRAY_SIZE(quiet_names)))
		return FIO_QUIET;
	/* strided zones only move offsets, which are not modelled */
	if (!strcmp(key, "zonemode") && value && !strcmp(value, "strided"))
		return FIO_WARN;
	for (i = 0; i < ARRAY_SIZE(refusals); i++) {
		const struct refusal *f = &refusals[i];

		if (strcmp(key, f->key))
			continue;
		/* a bare flag means 1 */
		if (value_ok(value ? value : "1", f->ok))
			return FIO_QUIET;
		*why = f->why;
		return FIO_REFUSE;
	}
	return FIO_WARN;
}
