/* probe.c - the probe engine (probe.h): per target, files of each size written through a
 * sink and read back through the target's ops, timed and shuffled, then the sustained
 * write, until the figures settle. */
#include "measure/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/bounds.h"
#include "common/clock.h"
#include "common/prng.h"
#include "common/sys.h"
#include "measure/pagecache.h"
#include "measure/sweep.h"
#include "measure/telemetry.h"
#include "measure/throttle.h"

#define PAGE_STAMP_BYTES 4096u
#define DIRECT_ALIGN_MIN 4096u

/* ---- pseudo-random data ---- */

void probe_fill_random(void *buf, size_t len, uint64_t seed)
{
    prng_xoshiro_t x = prng_xoshiro_make(seed);
    prng_xoshiro_fill(&x, buf, len);
}

/* Gives every 4 KiB page of the file its own first 8 bytes, so no two pages are equal and
 * a deduplicating volume cannot store the random block once. Multiplying by an odd
 * constant is a bijection, so distinct page numbers give distinct stamps. */
static void stamp_pages(unsigned char *buf, size_t len, uint64_t first_page, uint64_t salt)
{
    uint64_t page = first_page;
    for (size_t off = 0; off + 8 <= len; off += PAGE_STAMP_BYTES, page++) {
        uint64_t stamp = salt ^ (page * 0x9E3779B97F4A7C15ull);
        memcpy(buf + off, &stamp, 8);
    }
}

/* ---- parameters ---- */

int probe_rows_push(probe_rows_t *r, const probe_row_t *row, cp_err_t *err)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        probe_row_t *rows = realloc(r->rows, cap * sizeof *rows);
        if (rows == NULL)
            return cp_err_set(err, CP_ENOMEM, "out of memory keeping the probe's rows");
        r->rows = rows;
        r->cap = cap;
    }
    r->rows[r->n++] = *row;
    return CP_OK;
}

const char *probe_op_name(probe_op_t op)
{
    switch (op) {
    case PROBE_READ: return "read";
    case PROBE_SUSTAINED: return "sustained";
    default: return "write";
    }
}

probe_params_t probe_defaults(void)
{
    static const uint64_t sizes[] = {2000000ull,   5000000ull,   10000000ull,  20000000ull,
                                     50000000ull,  100000000ull, 200000000ull, 500000000ull,
                                     1000000000ull, 2000000000ull};
    probe_params_t p;
    memset(&p, 0, sizeof p);
    p.n_sizes = sizeof sizes / sizeof sizes[0];
    memcpy(p.sizes, sizes, sizeof sizes);
    p.reps = 3;
    p.op_write = true;
    p.op_read = true;
    p.sustained_bytes = 0;
    p.sustained_interval_s = 0.5;
    p.sync = SYNC_FSYNC;
    p.block_bytes = 1u << 20;
    p.seed = 0;
    return p;
}

void probe_format_size(char *out, size_t cap, uint64_t bytes)
{
    static const char *units[] = {"B", "kB", "MB", "GB", "TB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1000.0 && u < 4) {
        v /= 1000.0;
        u++;
    }
    if (u == 0)
        snprintf(out, cap, "%" PRIu64 " B", bytes);
    else
        snprintf(out, cap, "%.4g %s", v, units[u]);
}

/* ---- per-target state ---- */

typedef struct probe_target {
    const target_spec_t *spec;
    volume_info_t volume;
    sync_mode_t sync;      /* becomes SYNC_FSYNC once O_DIRECT writes were refused */
    bool read_direct;      /* O_DIRECT reads still worth trying */
    bool warned_cache;
    size_t read_align;     /* O_DIRECT read alignment, learnt on the first read */
} probe_target_t;

typedef struct probe_task {
    size_t target;
    size_t size_index;   /* into params->sizes */
    uint64_t size;
    int rep;
} probe_task_t;

/* The seconds measured so far of one (target, size), for --reps auto. */
typedef struct size_times {
    double write_s[SWEEP_AUTO_MAX_REPS], read_s[SWEEP_AUTO_MAX_REPS];
    int n_write, n_read;
} size_times_t;

typedef struct probe_ctx {
    const probe_params_t *params;
    probe_row_cb cb;
    void *cb_ctx;
    unsigned char *wbuf; /* block_bytes of random data, page aligned */
    size_times_t *times; /* [target * PROBE_MAX_SIZES + size index] */
} probe_ctx_t;

static probe_row_t row_for(const probe_ctx_t *pc, const probe_target_t *ts, probe_op_t op)
{
    probe_row_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.target, sizeof r.target, "%s", ts->spec->name);
    target_ops_for(ts->spec)->identity(ts->spec, r.dir, sizeof r.dir);
    r.op = op;
    r.sync = ts->sync;
    snprintf(r.fs_type, sizeof r.fs_type, "%s", ts->volume.fs_type);
    r.is_ram = ts->volume.is_ram;
    /* The cap that paces this row: reads have their own. */
    r.rate_cap_bps = op == PROBE_READ ? ts->spec->read_cap_bps : ts->spec->rate_cap_bps;
    r.disk_emulated = op != PROBE_READ && target_emulates_disk(ts->spec);
    r.rotational = ts->volume.rotational;
    r.dev_major = ts->volume.dev_major;
    r.dev_minor = ts->volume.dev_minor;
    r.cache_dropped = -1;
    r.flush_s = NAN;
    r.drain_bps = NAN;
    r.io_cpu_s = NAN;
    r.account = (run_account_t){NAN, NAN, NAN, NAN};
    r.psi_io_some_s = r.psi_io_full_s = r.psi_cpu_some_s = NAN;
    r.thread_sys_s = NAN;
    r.seed = pc->params->seed;
    r.block_bytes = op == PROBE_SUSTAINED ? 0 : pc->params->block_bytes;
    return r;
}

static int emit(probe_ctx_t *pc, const probe_row_t *row, cp_err_t *err)
{
    int rc = pc->cb ? pc->cb(row, pc->cb_ctx, err) : CP_OK;
    if (rc != CP_OK && err->code == 0)
        cp_err_set(err, rc, "probe stopped by its output");
    return rc;
}

/* CP_OK when size still fits on the target's volume now; a positive 1 when it does not. */
static int check_fits(const probe_target_t *ts, uint64_t size, cp_err_t *err)
{
    sys_space_t space;
    int rc = target_ops_for(ts->spec)->space(ts->spec, &space, err);
    if (rc != CP_OK)
        return rc;
    if (sys_space_fits(&space, size))
        return CP_OK;
    char want[32], have[32];
    probe_format_size(want, sizeof want, size);
    probe_format_size(have, sizeof have, space.free_bytes);
    cp_log_warn("target '%s': skipping %s, which no longer fits (%s free)", ts->spec->name,
                want, have);
    return 1;
}

/* Writes a fresh file of `size` bytes; on success *out is the finished sink (the file is
 * still there, for reading; the caller closes the sink) and *seconds the timed region. */
/* Writes the next chunk of a probe file (a block, or what is left of size) from the random
 * buffer, its pages stamped so that no two are equal, and advances *written. CP_EINTR once
 * interrupted. */
static int write_next_chunk(probe_ctx_t *pc, sink_t *s, uint64_t size, uint64_t salt,
                            uint64_t *written, cp_err_t *err)
{
    if (cp_interrupted())
        return cp_err_set(err, CP_EINTR, "interrupted");
    size_t block = pc->params->block_bytes;
    size_t chunk = size - *written < block ? (size_t)(size - *written) : block;
    stamp_pages(pc->wbuf, chunk, *written / PAGE_STAMP_BYTES, salt);
    int rc = sink_write(s, pc->wbuf, chunk, err);
    *written += chunk;
    return rc;
}

/* Fills the write buffer with the file's random data (outside the timed region) and
 * returns the salt that stamps its pages. */
static uint64_t fill_file_data(probe_ctx_t *pc, uint64_t file_seed)
{
    probe_fill_random(pc->wbuf, pc->params->block_bytes, file_seed);
    return file_seed * 0xD1B54A32D192ED03ull;
}

/* Opens a probe file on the target with its sync mode and rate cap, and remembers the sync
 * mode actually used, so a refused O_DIRECT is warned about only once. NULL with err set
 * on failure. */
static sink_t *open_probe_file(probe_target_t *ts, const char *prefix, cp_err_t *err)
{
    sink_options_t opts = {ts->sync, target_pacing_cap(ts->spec), ts->spec->name};
    sink_t *s = target_ops_for(ts->spec)->open_kept(ts->spec, prefix, &opts, 0, err);
    if (s != NULL)
        ts->sync = sink_effective_sync(s);
    return s;
}

/* Writes one probe file; *seconds is open .. fsync and close, *flush_s the final flush
 * (sink_finish) alone. */
double probe_drain_rate(sync_mode_t sync, uint64_t size, double seconds, double flush_s,
                        double flush_device_bytes, double dirty_background_bytes)
{
    if (sync == SYNC_DIRECT)
        return seconds > 0.0 ? (double)size / seconds : NAN;
    if (sync != SYNC_FSYNC || !(flush_s > 0.0))
        return NAN;
    if (flush_device_bytes > 0.0)
        return fmin(flush_device_bytes, (double)size) / flush_s;
    if (!((double)size < dirty_background_bytes))
        return NAN;
    return (double)size / flush_s;
}

/* What one probe write measured. */
typedef struct write_timing {
    double seconds;            /* open .. fsync and close */
    double flush_s;            /* the final flush alone */
    double flush_device_bytes; /* bytes the device wrote during the flush; NAN unknown */
    double io_cpu_s;           /* the whole machine's system CPU seconds during the write */
    run_account_t account;     /* where the write's time went */
    double thread_sys_s;       /* the writing thread's system CPU seconds */
    double psi_io_some_s, psi_io_full_s, psi_cpu_some_s;
} write_timing_t;

/* Busy system seconds of all CPUs in a telemetry sample; NAN when unknown. */
static double sample_system_seconds(const telemetry_sample_t *t)
{
    if (!t->have_cpu || t->online_cpus < 1)
        return NAN;
    return t->cpu_sys_share * t->wall_s * (double)t->online_cpus;
}

static int write_file(probe_ctx_t *pc, probe_target_t *ts, uint64_t size, uint64_t file_seed,
                      sink_t **out, write_timing_t *timing, cp_err_t *err)
{
    uint64_t salt = fill_file_data(pc, file_seed);
    telemetry_t *whole = telemetry_start(target_ops_for(ts->spec)->output_dir(ts->spec), NULL);
    run_account_tracker_t *account = run_account_start(false);
    double sys0 = sys_thread_system_seconds();
    double t0 = clock_now();
    sink_t *s = open_probe_file(ts, "probe", err);
    if (s == NULL) {
        run_account_finish(account, &timing->account);
        telemetry_free(whole);
        return err->code ? err->code : CP_EIO;
    }
    uint64_t written = 0;
    int rc = CP_OK;
    while (written < size && rc == CP_OK)
        rc = write_next_chunk(pc, s, size, salt, &written, err);
    /* The device's bytes so far: one read of /proc/diskstats between the phases. */
    uint64_t before_flush = 0;
    bool have_before = telemetry_disk_written(whole, &before_flush);
    double t_flush = clock_now();
    run_account_mark(account);
    if (rc == CP_OK)
        rc = sink_finish(s, err);
    double t_end = clock_now();
    timing->thread_sys_s = sys_thread_system_seconds() - sys0;
    run_account_finish(account, &timing->account);
    telemetry_sample_t whole_sample;
    memset(&whole_sample, 0, sizeof whole_sample);
    if (whole != NULL)
        telemetry_stop(whole, &whole_sample);
    telemetry_free(whole);
    timing->seconds = t_end - t0;
    timing->flush_s = t_end - t_flush;
    timing->flush_device_bytes =
        have_before && whole_sample.have_disk && whole_sample.dev_written_bytes >= before_flush
            ? (double)(whole_sample.dev_written_bytes - before_flush)
            : NAN;
    timing->io_cpu_s = sample_system_seconds(&whole_sample);
    timing->psi_io_some_s = whole != NULL ? whole_sample.psi_io_some_s : NAN;
    timing->psi_io_full_s = whole != NULL ? whole_sample.psi_io_full_s : NAN;
    timing->psi_cpu_some_s = whole != NULL ? whole_sample.psi_cpu_some_s : NAN;
    if (rc != CP_OK) {
        sink_close(s);
        return rc;
    }
    *out = s;
    return CP_OK;
}

/* The O_DIRECT alignment for reading fd: what the kernel reports (sys_direct_alignment),
 * else the device's logical block size, never below 4096. */
static size_t read_alignment(int fd, const volume_info_t *v)
{
    size_t align = DIRECT_ALIGN_MIN;
    size_t reported = sys_direct_alignment(fd);
    if (reported > 0)
        return reported > align ? reported : align;
    if (v->logical_block_bytes > align)
        align = v->logical_block_bytes;
    return align;
}

/* Drops the file's cache, then times open..read to EOF..close in block-size chunks, each
 * read paced by the target's emulated read cap when it has one. */
static int read_file(probe_ctx_t *pc, probe_target_t *ts, const char *path, uint64_t size,
                     double *seconds, bool *dropped, probe_row_t *row, cp_err_t *err)
{
    int rc = pagecache_drop(path, dropped, err);
    if (rc != CP_OK)
        return rc;
    if (!*dropped && !ts->warned_cache) {
        cp_log_warn("target '%s': the page cache of %s cannot be dropped; its reads measure "
                    "memory",
                    ts->spec->name, ts->volume.is_ram ? "a RAM volume" : "this volume");
        ts->warned_cache = true;
    }
    bool direct = pc->params->sync == SYNC_DIRECT && ts->read_direct;
    if (direct && ts->read_align == 0) {
        int probe_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        ts->read_align = probe_fd >= 0 ? read_alignment(probe_fd, &ts->volume) : DIRECT_ALIGN_MIN;
        if (probe_fd >= 0)
            close(probe_fd);
    }
    size_t align = direct ? ts->read_align : DIRECT_ALIGN_MIN;
    size_t len = (pc->params->block_bytes + align - 1) / align * align;
    void *buf = NULL;
    if (posix_memalign(&buf, align, len) != 0)
        return cp_err_set(err, CP_ENOMEM, "out of memory for a %zu-byte read buffer", len);

    const target_ops_t *ops = target_ops_for(ts->spec);
    telemetry_t *whole = telemetry_start(ops->output_dir(ts->spec), NULL);
    run_account_tracker_t *account = run_account_start(false);
    double sys0 = sys_thread_system_seconds();
    double t0 = clock_now();
    int fd = ops->open_read(ts->spec, path, direct);
    if (fd < 0 && direct && errno == EINVAL) {
        cp_log_warn("target '%s': O_DIRECT reads refused; reading through the page cache "
                    "(after dropping it)",
                    ts->spec->name);
        ts->read_direct = false;
        t0 = clock_now();
        fd = ops->open_read(ts->spec, path, false);
    }
    if (fd < 0) {
        rc = cp_err_errno(err, CP_EIO, errno, "cannot open %s for reading (target '%s')", path,
                          ts->spec->name);
        run_account_finish(account, &row->account);
        telemetry_free(whole);
        free(buf);
        return rc;
    }
    throttle_t read_cap = throttle_make(ts->spec->read_cap_bps);
    uint64_t got = 0;
    for (;;) {
        if (cp_interrupted()) {
            rc = cp_err_set(err, CP_EINTR, "interrupted");
            break;
        }
        ssize_t n = throttle_read(&read_cap, fd, buf, len, NULL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = cp_err_errno(err, CP_EIO, errno, "reading %s (target '%s')", path,
                              ts->spec->name);
            break;
        }
        if (n == 0)
            break;
        got += (uint64_t)n;
    }
    close(fd);
    *seconds = clock_now() - t0;
    row->thread_sys_s = sys_thread_system_seconds() - sys0;
    run_account_finish(account, &row->account);
    if (whole != NULL) {
        telemetry_sample_t sample;
        memset(&sample, 0, sizeof sample);
        telemetry_stop(whole, &sample);
        row->psi_io_some_s = sample.psi_io_some_s;
        row->psi_io_full_s = sample.psi_io_full_s;
        row->psi_cpu_some_s = sample.psi_cpu_some_s;
    }
    telemetry_free(whole);
    free(buf);
    if (rc == CP_OK && got != size)
        rc = cp_err_set(err, CP_EIO, "read %" PRIu64 " bytes of %s, expected %" PRIu64, got,
                        path, size);
    return rc;
}

static int run_task(probe_ctx_t *pc, probe_target_t *ts, const probe_task_t *task, size_t index,
                    size_t count, cp_err_t *err)
{
    const probe_params_t *p = pc->params;
    size_times_t *times = &pc->times[task->target * PROBE_MAX_SIZES + task->size_index];
    int rc = check_fits(ts, task->size, err);
    if (rc != CP_OK)
        return rc > 0 ? CP_OK : rc;
    char size_text[32];
    probe_format_size(size_text, sizeof size_text, task->size);
    cp_log_progress("probe %zu/%zu: %s, %s, rep %d", index + 1, count, ts->spec->name,
                    size_text, task->rep);

    prng_t g = prng_make(p->seed ^ (task->size * 0x9E3779B97F4A7C15ull) ^
                         ((uint64_t)task->rep << 48) ^ ((uint64_t)task->target << 56));
    uint64_t file_seed = prng_next(&g);
    sink_t *s = NULL;
    write_timing_t w;
    writeback_settings_t wb = writeback_read();
    rc = write_file(pc, ts, task->size, file_seed, &s, &w, err);
    if (rc != CP_OK)
        return rc;
    double seconds = w.seconds;
    if (p->op_write) {
        probe_row_t r = row_for(pc, ts, PROBE_WRITE);
        r.size_bytes = task->size;
        r.rep = task->rep;
        r.seconds = seconds;
        r.bytes_per_s = seconds > 0 ? (double)task->size / seconds : 0;
        r.flush_s = w.flush_s;
        r.drain_bps = probe_drain_rate(r.sync, task->size, seconds, w.flush_s,
                                       w.flush_device_bytes,
                                       wb.known ? (double)wb.dirty_background_bytes : NAN);
        r.io_cpu_s = w.io_cpu_s;
        r.account = w.account;
        r.thread_sys_s = w.thread_sys_s;
        r.psi_io_some_s = w.psi_io_some_s;
        r.psi_io_full_s = w.psi_io_full_s;
        r.psi_cpu_some_s = w.psi_cpu_some_s;
        rc = emit(pc, &r, err);
        if (seconds > 0 && times->n_write < SWEEP_AUTO_MAX_REPS)
            times->write_s[times->n_write++] = seconds;
    }
    if (rc == CP_OK && p->op_read) {
        bool dropped = false;
        probe_row_t r = row_for(pc, ts, PROBE_READ);
        rc = read_file(pc, ts, sink_temp_path(s), task->size, &seconds, &dropped, &r, err);
        if (rc == CP_OK) {
            /* direct when read with O_DIRECT, otherwise the write's mode */
            if (p->sync == SYNC_DIRECT)
                r.sync = ts->read_direct ? SYNC_DIRECT : SYNC_FSYNC;
            r.size_bytes = task->size;
            r.rep = task->rep;
            r.seconds = seconds;
            r.bytes_per_s = seconds > 0 ? (double)task->size / seconds : 0;
            r.cache_dropped = dropped ? 1 : 0;
            rc = emit(pc, &r, err);
            if (seconds > 0 && times->n_read < SWEEP_AUTO_MAX_REPS)
                times->read_s[times->n_read++] = seconds;
        }
    }
    sink_close(s);
    return rc;
}

/* One long write, with a row every interval: bytes so far, time since the start, and the
 * rate over the interval. With --sync fsync each interval ends with an fdatasync, so a
 * sample counts bytes that reached the volume, not the page cache. */
static int run_sustained(probe_ctx_t *pc, probe_target_t *ts, cp_err_t *err)
{
    const probe_params_t *p = pc->params;
    uint64_t size = p->sustained_bytes;
    int rc = check_fits(ts, size, err);
    if (rc != CP_OK)
        return rc > 0 ? CP_OK : rc;
    prng_t g = prng_make(p->seed ^ 0x5ca1ab1eull);
    uint64_t salt = fill_file_data(pc, prng_next(&g));
    double t0 = clock_now();
    sink_t *s = open_probe_file(ts, "sustained", err);
    if (s == NULL)
        return err->code ? err->code : CP_EIO;
    int sync_fd = -1;
    if (ts->sync == SYNC_FSYNC)
        sync_fd = open(sink_temp_path(s), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

    probe_row_t r = row_for(pc, ts, PROBE_SUSTAINED);
    uint64_t written = 0, last_bytes = 0;
    double last_t = t0;
    while (written < size && rc == CP_OK) {
        rc = write_next_chunk(pc, s, size, salt, &written, err);
        double now = clock_now();
        if (rc == CP_OK && now - last_t >= p->sustained_interval_s && written < size) {
            if (sync_fd >= 0 && sys_datasync(sync_fd) != 0)
                rc = cp_err_errno(err, CP_EIO, errno, "fdatasync on volume '%s'",
                                  ts->spec->name);
            now = clock_now();
            r.rep++;
            r.size_bytes = written;
            r.seconds = now - t0;
            r.bytes_per_s = (double)(written - last_bytes) / (now - last_t);
            if (rc == CP_OK)
                rc = emit(pc, &r, err);
            cp_log_progress("sustained %s: %.0f MB/s at %.1f GB", ts->spec->name,
                            r.bytes_per_s / 1e6, (double)written / 1e9);
            last_bytes = written;
            last_t = now;
        }
    }
    if (rc == CP_OK)
        rc = sink_finish(s, err);
    double now = clock_now();
    if (rc == CP_OK && written > last_bytes) {
        r.rep++;
        r.size_bytes = written;
        r.seconds = now - t0;
        r.bytes_per_s = (double)(written - last_bytes) / (now - last_t);
        rc = emit(pc, &r, err);
    }
    if (sync_fd >= 0)
        close(sync_fd);
    sink_close(s);
    return rc;
}

/* ---- set-up ---- */

static int check_params(const probe_params_t *p, cp_err_t *err)
{
    if (p->n_sizes > PROBE_MAX_SIZES)
        return cp_err_set(err, CP_EUSAGE, "too many sizes (at most %d)", PROBE_MAX_SIZES);
    if (p->n_sizes == 0 && p->sustained_bytes == 0)
        return cp_err_set(err, CP_EUSAGE, "nothing to measure: no sizes and no sustained run");
    if (p->n_sizes > 0 && (p->reps < 1 || (!p->op_write && !p->op_read)))
        return cp_err_set(err, CP_EUSAGE, "nothing to measure: no repetitions or no operations");
    for (size_t i = 0; i < p->n_sizes; i++)
        if (p->sizes[i] == 0)
            return cp_err_set(err, CP_EUSAGE, "bad size 0: file sizes must be positive");
    if (p->block_bytes < CP_BLOCK_MIN || p->block_bytes > CP_BLOCK_MAX)
        return cp_err_set(err, CP_EUSAGE, "bad block size %zu: expected 4K to 1G",
                          p->block_bytes);
    if (p->sustained_bytes > 0 && !(p->sustained_interval_s > 0))
        return cp_err_set(err, CP_EUSAGE, "the sustained interval must be positive");
    return CP_OK;
}

/* Validates a target, reads its volume, and drops the sizes that do not fit (with one
 * warning listing them). Sets *nothing_fits when neither a size nor the sustained run does. */
static int prepare_target(const probe_params_t *p, const target_spec_t *spec,
                          probe_target_t *ts, bool *fits, bool *sustained_fits,
                          cp_err_t *err)
{
    memset(ts, 0, sizeof *ts);
    ts->spec = spec;
    ts->sync = p->sync;
    ts->read_direct = true;
    int rc = target_check(spec, err);
    if (rc == CP_OK)
        rc = target_ops_for(spec)->inspect(spec, &ts->volume, err);
    if (rc != CP_OK)
        return rc;
    sys_space_t space;
    sys_space_make(ts->volume.free_bytes, ts->volume.total_bytes, &space);
    uint64_t usable = space.usable_bytes;
    char skipped[512] = "";
    size_t n_fit = 0;
    for (size_t i = 0; i < p->n_sizes; i++) {
        fits[i] = p->sizes[i] <= usable;
        n_fit += fits[i];
        if (!fits[i]) {
            char text[32];
            probe_format_size(text, sizeof text, p->sizes[i]);
            size_t used = strlen(skipped);
            snprintf(skipped + used, sizeof skipped - used, "%s%s", used ? ", " : "", text);
        }
    }
    *sustained_fits = p->sustained_bytes > 0 && p->sustained_bytes <= usable;
    if (p->sustained_bytes > 0 && !*sustained_fits) {
        char text[32];
        probe_format_size(text, sizeof text, p->sustained_bytes);
        size_t used = strlen(skipped);
        snprintf(skipped + used, sizeof skipped - used, "%ssustained %s", used ? ", " : "",
                 text);
    }
    char free_text[32], margin_text[32];
    probe_format_size(free_text, sizeof free_text, ts->volume.free_bytes);
    probe_format_size(margin_text, sizeof margin_text, space.margin_bytes);
    if (n_fit == 0 && !*sustained_fits)
        return cp_err_set(err, CP_ENOSPC,
                          "target '%s' (%s): nothing fits in its %s of free space (keeping a "
                          "%s margin)",
                          spec->name, spec->dir, free_text, margin_text);
    if (skipped[0] != '\0')
        cp_log_warn("target '%s': skipping %s (only %s free, keeping a %s margin)", spec->name,
                    skipped, free_text, margin_text);
    if (ts->volume.is_ram)
        cp_log_warn("target '%s' is %s (RAM): its figures measure memory, not a disk",
                    spec->name, ts->volume.fs_type);
    return CP_OK;
}

/* Whether one (target, size)'s measured ops are settled (--reps auto). */
static bool size_settled(const probe_params_t *p, const size_times_t *t)
{
    if (p->op_write && t->n_write < SWEEP_AUTO_MAX_REPS &&
        !sweep_median_settled(t->write_s, t->n_write, SWEEP_AUTO_WITHIN))
        return false;
    if (p->op_read && t->n_read < SWEEP_AUTO_MAX_REPS &&
        !sweep_median_settled(t->read_s, t->n_read, SWEEP_AUTO_WITHIN))
        return false;
    return true;
}

/* --reps auto: one more repetition of every size not yet settled, in a fresh shuffled
 * order, until all are or each has SWEEP_AUTO_MAX_REPS. tasks has room for one a size. */
static int run_until_settled(probe_ctx_t *pc, probe_target_t *states, const bool *fits,
                             size_t n, probe_task_t *tasks, prng_t *g, cp_err_t *err)
{
    const probe_params_t *p = pc->params;
    int rc = CP_OK;
    for (int rep = p->reps + 1; rep <= SWEEP_AUTO_MAX_REPS && rc == CP_OK; rep++) {
        size_t n_tasks = 0;
        for (size_t t = 0; t < n; t++)
            for (size_t i = 0; states[t].spec != NULL && i < p->n_sizes; i++)
                if (fits[t * PROBE_MAX_SIZES + i] &&
                    !size_settled(p, &pc->times[t * PROBE_MAX_SIZES + i]))
                    tasks[n_tasks++] = (probe_task_t){t, i, p->sizes[i], rep};
        if (n_tasks == 0)
            break;
        cp_log_info("--reps auto: %zu size(s) not yet within +-%.0f%%, repetition %d", n_tasks,
                    100.0 * SWEEP_AUTO_WITHIN, rep);
        prng_shuffle(g, tasks, n_tasks, sizeof *tasks);
        for (size_t i = 0; i < n_tasks && rc == CP_OK; i++)
            rc = run_task(pc, &states[tasks[i].target], &tasks[i], i, n_tasks, err);
    }
    return rc;
}

int probe_run(const probe_params_t *params, const target_spec_t *targets, size_t n,
              probe_row_cb cb, void *ctx, cp_err_t *err)
{
    cp_err_t local = {0};
    cp_err_t *e = err ? err : &local;
    int rc = check_params(params, e);
    if (rc != CP_OK)
        return rc;
    prng_t g = prng_make(params->seed);
    probe_target_t *states = calloc(n ? n : 1, sizeof *states);
    bool *fits = calloc((n ? n : 1) * PROBE_MAX_SIZES, sizeof *fits);
    bool *sustained = calloc(n ? n : 1, sizeof *sustained);
    size_t max_tasks = n * params->n_sizes * (size_t)(params->reps > 1 ? params->reps : 1);
    probe_task_t *tasks = calloc(max_tasks ? max_tasks : 1, sizeof *tasks);
    probe_ctx_t pc = {params, cb, ctx, NULL, calloc((n ? n : 1) * PROBE_MAX_SIZES,
                                                   sizeof(size_times_t))};
    if (states == NULL || fits == NULL || sustained == NULL || tasks == NULL ||
        pc.times == NULL ||
        posix_memalign((void **)&pc.wbuf, DIRECT_ALIGN_MIN, params->block_bytes) != 0) {
        pc.wbuf = NULL;
        rc = cp_err_set(e, CP_ENOMEM, "out of memory setting up the probe");
        goto done;
    }

    /* Check every target before writing anything, so a typo in the last one does not
     * surface after an hour of measuring the first. */
    size_t n_tasks = 0;
    for (size_t t = 0; t < n && rc == CP_OK; t++) {
        if (!target_ops_for(&targets[t])->has_volume) {
            states[t].spec = NULL;
            continue;
        }
        rc = prepare_target(params, &targets[t], &states[t], fits + t * PROBE_MAX_SIZES,
                            &sustained[t], e);
        for (size_t i = 0; rc == CP_OK && i < params->n_sizes; i++)
            if (fits[t * PROBE_MAX_SIZES + i])
                for (int rep = 1; rep <= params->reps; rep++)
                    tasks[n_tasks++] = (probe_task_t){t, i, params->sizes[i], rep};
    }
    if (rc != CP_OK)
        goto done;
    prng_shuffle(&g, tasks, n_tasks, sizeof *tasks);

    for (size_t i = 0; i < n_tasks && rc == CP_OK; i++)
        rc = run_task(&pc, &states[tasks[i].target], &tasks[i], i, n_tasks, e);
    if (rc == CP_OK && params->reps_auto && (params->op_write || params->op_read))
        rc = run_until_settled(&pc, states, fits, n, tasks, &g, e);
    for (size_t t = 0; t < n && rc == CP_OK; t++)
        if (states[t].spec != NULL && sustained[t])
            rc = run_sustained(&pc, &states[t], e);
    cp_log_progress_done();

done:
    free(pc.times);
    free(pc.wbuf);
    free(tasks);
    free(sustained);
    free(fits);
    free(states);
    return rc;
}
