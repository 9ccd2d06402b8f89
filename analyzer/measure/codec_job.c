/* codec_job.c - one measured codec run (codec_job.h), a compression or, with an
 * archive's frames, a decompression: its output's sink (a temporary file beside the final
 * path, the one its target opens, or counted in memory), the pipeline run, the optional
 * verification and the commit. */
#include "measure/codec_job.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/clock.h"
#include "common/sys.h"
#include "common/tempfile.h"
#include "measure/memest.h"
#include "measure/verify.h"

codec_job_t codec_job_defaults(void)
{
    codec_job_t job;
    memset(&job, 0, sizeof job);
    job.pipeline = pipeline_defaults();
    job.sync = SYNC_FSYNC;
    return job;
}

int compress_check_input(const char *path, uint64_t *size, cp_err_t *err)
{
    struct stat st;
    if (path == NULL)
        return cp_err_set(err, CP_EUSAGE, "no input file given (-i INPUT)");
    if (stat(path, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "input '%s'", path);
    if (S_ISDIR(st.st_mode))
        return cp_err_set(err, CP_EUSAGE, "input '%s' is a directory, not a file", path);
    if (!S_ISREG(st.st_mode))
        return cp_err_set(err, CP_EUSAGE, "input '%s' is not a regular file", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "input '%s' cannot be read", path);
    close(fd);
    *size = (uint64_t)st.st_size;
    return CP_OK;
}

static int check_output_path(const codec_job_t *job, char *dir, char *base, cp_err_t *err)
{
    struct stat out, in;
    if (lstat(job->output_path, &out) == 0 && stat(job->pipeline.input_path, &in) == 0 &&
        in.st_dev == out.st_dev && in.st_ino == out.st_ino)
        return cp_err_set(err, CP_EUSAGE, "output '%s' is the input file", job->output_path);
    int rc = tempfile_check_destination(job->output_path, job->force, err);
    return rc == CP_OK ? tempfile_split_path(job->output_path, dir, base, err) : rc;
}

/* Warns when the output may not fit (sys_space_fits: free space less the margin); an
 * output of known size (a copy, a restore) that cannot fit is refused. */
int compress_check_space(const char *dir, const char *label, uint64_t input_size,
                         const char *whole, cp_err_t *err)
{
    sys_space_t space;
    bool known = sys_space_read(dir, &space, NULL) == CP_OK;
    return compress_check_room(known ? &space : NULL, label, input_size, whole, err);
}

int compress_check_room(const sys_space_t *space, const char *label, uint64_t input_size,
                        const char *whole, cp_err_t *err)
{
    if (space == NULL || space->total_bytes == 0)
        return CP_OK; /* unknown (ramfs, some FUSE, memory): the write itself will tell */
    if (sys_space_fits(space, input_size))
        return CP_OK;
    if (whole != NULL)
        return cp_err_set(err, CP_ENOSPC,
                          "volume '%s' has %.1f MB free, the %s needs %.1f MB (keeping a "
                          "%.1f MB margin)", label, (double)space->free_bytes / 1e6,
                          whole, (double)input_size / 1e6,
                          (double)space->margin_bytes / 1e6);
    cp_log_warn("volume '%s' has %.1f MB free, less than the %.1f MB input and a %.1f MB "
                "margin; the output may not fit",
                label, (double)space->free_bytes / 1e6, (double)input_size / 1e6,
                (double)space->margin_bytes / 1e6);
    return CP_OK;
}

static int open_sink(const codec_job_t *job, const char *dir, const char *base,
                     uint64_t input_size, sink_t **sink, cp_err_t *err)
{
    sink_options_t opts = {job->sync, job->rate_cap_bps, job->volume_label};
    if (job->discard) {
        *sink = sink_open_mem(&opts, err);
    } else {
        const target_spec_t *t = job->target;
        const char *label = job->volume_label ? job->volume_label : t != NULL ? t->name : dir;
        opts.volume_label = label;
        const pipeline_frames_t *frames = job->pipeline.frames;
        bool restore = frames != NULL || job->pipeline.decompress;
        uint64_t restored = frames != NULL ? frames->unpacked_total : job->restores_bytes;
        const char *whole = restore                                   ? "restored file"
                            : job->pipeline.codec.ops->max_level == 0 ? "copy"
                                                                      : NULL;
        uint64_t size = restore && restored > 0 ? restored : input_size;
        if (t != NULL) { /* the target's room, then its sink */
            sys_space_t space;
            cp_err_t unknown = {0};
            bool known = target_ops_for(t)->space(t, &space, &unknown) == CP_OK;
            int rc = compress_check_room(known ? &space : NULL, label, size, whole, err);
            if (rc != CP_OK)
                return rc;
            *sink = target_ops_for(t)->open_output(t, base, &opts, err);
        } else {
            int rc = compress_check_space(dir, label, size, whole, err);
            if (rc != CP_OK)
                return rc;
            *sink = sink_open_file(dir, base, &opts, err);
        }
    }
    return *sink != NULL ? CP_OK : err->code;
}

void compress_record_count_uncompressed(compress_record_t *rec)
{
    if (rec->decompress) { /* restored bytes are the work */
        uint64_t archive_bytes = rec->run.input_bytes;
        rec->run.input_bytes = rec->run.output_bytes;
        rec->run.output_bytes = archive_bytes;
    }
    if (rec->run.seconds > 0)
        rec->bytes_per_s = (double)rec->run.input_bytes / rec->run.seconds;
}

int codec_job_run(const codec_job_t *job, compress_record_t *rec, cp_err_t *err)
{
    memset(rec, 0, sizeof *rec);
    codec_format(&job->pipeline.codec, rec->codec, sizeof rec->codec);
    rec->engine = job->pipeline.engine;
    rec->threads = job->pipeline.threads;
    rec->warm = job->pipeline.warm;
    rec->rate_cap_bps = job->rate_cap_bps;
    rec->discarded = job->discard || (job->target != NULL && job->output_path == NULL &&
                                      target_ops_for(job->target)->cpu_ceiling);
    rec->verified = -1;
    rec->sync = job->sync;
    rec->decompress = job->pipeline.frames != NULL || job->pipeline.decompress;
    if (rec->decompress && job->verify)
        return cp_err_set(err, CP_EUSAGE, "a decompression is checked when its archive is "
                          "made (measure/archive.h), not verified after each run");

    uint64_t input_size;
    int rc = compress_check_input(job->pipeline.input_path, &input_size, err);
    if (rc != CP_OK)
        return rc;
    char dir[PATH_MAX] = ".", base[PATH_MAX] = "output";
    if (job->output_path != NULL && !job->discard) {
        rc = check_output_path(job, dir, base, err);
        if (rc != CP_OK)
            return rc;
    } else if (job->target != NULL) {
        snprintf(base, sizeof base, ".chokepoint-run");
    } else if (!job->discard) {
        return cp_err_set(err, CP_EUSAGE, "no output given");
    }

    sink_t *sink = NULL;
    rc = open_sink(job, dir, base, input_size, &sink, err);
    if (rc != CP_OK)
        return rc;
    rec->sync = sink_effective_sync(sink);
    rec->sync_fell_back = job->sync == SYNC_DIRECT && rec->sync != SYNC_DIRECT;

    cpu_usage_t cpu0 = clock_cpu_usage();
    rc = pipeline_run(&job->pipeline, sink, &rec->run, err);
    cpu_usage_t cpu1 = clock_cpu_usage();
    rec->cpu_user_s = cpu1.user_s - cpu0.user_s;
    rec->cpu_sys_s = cpu1.sys_s - cpu0.sys_s;
    rec->max_rss_bytes = cpu1.max_rss_bytes;
    rec->mem_estimate_bytes =
        (rec->decompress ? memest_compute_restore : memest_compute)(
            &job->pipeline.codec, job->pipeline.engine, job->pipeline.threads,
            job->pipeline.block_size)
            .total_bytes;
    rec->throttle_s = sink_throttle_seconds(sink) + rec->run.read_pace_s;
    if (rc == CP_OK && rec->decompress && job->pipeline.frames == NULL &&
        job->restores_bytes > 0 && rec->run.output_bytes != job->restores_bytes)
        rc = cp_err_set(err, CP_ECODEC, "the archive restored to %llu bytes, not the input's %llu",
                        (unsigned long long)rec->run.output_bytes,
                        (unsigned long long)job->restores_bytes);
    compress_record_count_uncompressed(rec);

    if (rc == CP_OK && cp_interrupted())
        rc = cp_err_set(err, CP_EINTR, "interrupted");
    if (rc == CP_OK && job->verify && !job->discard) {
        verify_result_t v;
        rc = verify_roundtrip(job->pipeline.input_path, sink_temp_path(sink),
                              &job->pipeline.codec, &v, err);
        if (rc == CP_OK) {
            rec->verified = v.match ? 1 : 0;
            if (!v.match)
                rc = cp_err_set(err, CP_EVERIFY,
                                "verification failed: the output restores to %llu bytes with "
                                "XXH3 %016llx, the input is %llu bytes with XXH3 %016llx",
                                (unsigned long long)v.restored_bytes,
                                (unsigned long long)v.restored_hash,
                                (unsigned long long)v.input_bytes,
                                (unsigned long long)v.input_hash);
        } else if (rc == CP_EVERIFY) {
            rec->verified = 0;
        }
    }
    if (rc == CP_OK && cp_interrupted())
        rc = cp_err_set(err, CP_EINTR, "interrupted");
    if (rc == CP_OK && job->output_path != NULL && !job->discard)
        rc = sink_commit(sink, job->output_path, job->force, err);
    rec->replaced_s = sink_replaced_seconds(sink);
    sink_close(sink);
    return rc;
}
