/* sweep.c - the measuring loop (sweep.h): preparing each target through its ops (volume,
 * input copy or archives), planning and shuffling the runs of every series, running each
 * by codec_job or command_job with telemetry around it, and --reps auto. */
#include "measure/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/prng.h"
#include "common/clock.h"
#include "common/sys.h"
#include "common/units.h"
#include "measure/memest.h"
#include "measure/verify.h"

typedef struct planned_run {
    size_t target, codec, thread;
    int rep;
} planned_run_t;

/* Per-target state for one sweep. */
typedef struct target_state {
    volume_info_t volume;
    sink_t *input_copy;     /* same layout: the input copied onto this target */
    archive_t *archives;    /* decompression: those made on this target (or in RAM) */
    const archive_t **archive_for; /* the one codec c restores: codecs alike share one */
    const char *input_path; /* what runs on this target read */
    const char *input_target;
    bool failed;            /* the target itself failed (vanished): skip all its runs */
    char failure[CP_ERR_MSG_MAX]; /* why */
    struct series_failure *series; /* one per series: a failed one skips only its runs */
} target_state_t;

/* A series that failed on one target (its warm-up or a run): its remaining runs there are
 * skipped, the other series on the target go on. */
typedef struct series_failure {
    bool failed;
    char why[CP_ERR_MSG_MAX];
} series_failure_t;

const char *sweep_layout_name(sweep_layout_t layout)
{
    return layout == SWEEP_SAME ? "same" : "split";
}

int sweep_layout_parse(const char *text, sweep_layout_t *out, cp_err_t *err)
{
    if (text != NULL && strcmp(text, "split") == 0)
        *out = SWEEP_SPLIT;
    else if (text != NULL && strcmp(text, "same") == 0)
        *out = SWEEP_SAME;
    else
        return cp_err_set(err, CP_EUSAGE, "bad layout '%s': expected split or same",
                          text ? text : "");
    return CP_OK;
}

sweep_params_t sweep_defaults(void)
{
    sweep_params_t p;
    memset(&p, 0, sizeof p);
    p.engine = PIPELINE_BLOCKS;
    p.reps = 3;
    p.warmup = true;
    p.layout = SWEEP_SPLIT;
    p.sync = SYNC_FSYNC;
    return p;
}

/* Copies the input onto a target (not timed, no rate cap), fsynced, as a temporary file
 * that sink_close removes. */
static int copy_input(const char *input, const target_spec_t *t, uint64_t size, sink_t **out,
                      cp_err_t *err)
{
    const target_ops_t *ops = target_ops_for(t);
    sys_space_t space;
    if (ops->space(t, &space, err) != CP_OK)
        return err->code;
    if (!sys_space_fits(&space, size))
        return cp_err_set(err, CP_ENOSPC,
                          "target '%s' has %.1f MB free, too little for a copy of the %.1f MB "
                          "input and a %.1f MB margin (--layout same)",
                          t->name, (double)space.free_bytes / 1e6, (double)size / 1e6,
                          (double)space.margin_bytes / 1e6);
    sink_options_t opts = {SYNC_FSYNC, 0, t->name};
    sink_t *sink = ops->open_kept(t, "chokepoint-input", &opts, 0, err);
    if (sink == NULL)
        return err->code;
    FILE *in = fopen(input, "rb");
    int rc = in ? CP_OK : cp_err_errno(err, CP_EIO, errno, "cannot open input %s", input);
    static unsigned char buf[1 << 20];
    while (rc == CP_OK) {
        size_t n = fread(buf, 1, sizeof buf, in);
        if (n > 0)
            rc = sink_write(sink, buf, n, err);
        if (n < sizeof buf) {
            if (ferror(in))
                rc = cp_err_errno(err, CP_EIO, errno, "reading input %s", input);
            break;
        }
        if (cp_interrupted())
            rc = cp_err_set(err, CP_EINTR, "interrupted");
    }
    if (in != NULL)
        fclose(in);
    if (rc == CP_OK)
        rc = sink_finish(sink, err);
    if (rc != CP_OK) {
        sink_close(sink);
        return rc;
    }
    *out = sink;
    return CP_OK;
}

/* The target whose volume holds path, for the read ceiling: the target `self` itself when
 * it is on that volume (two targets on one directory keep their own figures), else the
 * first one without an emulated cap (a cap paces that target's own files, not the input
 * read where it lives), else the first one; NULL when none is. */
static const char *target_holding(const char *path, const sweep_params_t *p,
                                  const target_state_t *st, size_t self)
{
    const char *first = NULL, *uncapped = NULL;
    for (size_t i = 0; i < p->n_targets; i++) {
        const target_spec_t *t = &p->targets[i];
        if (!target_ops_for(t)->holds(t, &st[i].volume, path))
            continue;
        if (i == self)
            return p->targets[i].name;
        if (first == NULL)
            first = p->targets[i].name;
        if (uncapped == NULL && !(p->targets[i].rate_cap_bps > 0.0) &&
            !(p->targets[i].read_cap_bps > 0.0))
            uncapped = p->targets[i].name;
    }
    return uncapped ? uncapped : first;
}

/* The largest thread count of the list (which need not be sorted). */
static int largest_threads(const sweep_params_t *p)
{
    int most = 1;
    for (size_t k = 0; k < p->n_threads; k++)
        most = p->threads[k] > most ? p->threads[k] : most;
    return most;
}

/* The room of the archives kept in RAM (the mem target's, and those on a RAM volume
 * such as tmpfs), and what it comes from, for the message when one does not fit. */
typedef struct ram_room {
    uint64_t left;      /* bytes the archives still to make may fill; 0: unknown (no limit) */
    uint64_t limit;     /* --max-memory, else 0 */
    uint64_t available; /* MemAvailable when the sweep started; 0 when not read */
    uint64_t runs;      /* the largest run's estimate, which the runs need beside them */
    uint64_t made;      /* the archives already made in RAM */
    bool halved;        /* no --max-memory: half of what is available was the smaller */
} ram_room_t;

/* The RAM the archives kept in memory may fill: the memory limit less the largest run's
 * estimate (measure/memest.h), since the runs need theirs beside the archives. The limit
 * is --max-memory, else what is available now, and then at most half of it (the rest for
 * the page cache and everything else). left is 0 when unknown (no limit), at least 1
 * byte otherwise. */
static ram_room_t archive_ram_room(const sweep_params_t *p)
{
    ram_room_t room = {0};
    room.limit = p->max_memory;
    bool known = sys_mem_available(&room.available);
    if (room.limit == 0 && !known)
        return room;
    for (size_t c = 0; c < p->n_series; c++) { /* making the archives, then restoring */
        memest_t m = memest_compute_study(&p->series[c].codec, p->engine, largest_threads(p),
                                          p->block_size, true);
        room.runs = m.total_bytes > room.runs ? m.total_bytes : room.runs;
    }
    uint64_t left;
    if (room.limit == 0) {
        uint64_t beside = room.available > room.runs ? room.available - room.runs : 0;
        room.halved = room.available / 2 < beside;
        left = room.halved ? room.available / 2 : beside;
    } else {
        left = room.limit > room.runs ? room.limit - room.runs : 0;
    }
    room.left = left > 0 ? left : 1;
    return room;
}

/* CP_ENOMEM in one line: target t's archive of codec needs `needed` bytes of RAM, more
 * than room leaves; where the room comes from, and what makes more. */
static int ram_room_error(const ram_room_t *room, const target_spec_t *t, const char *fs_type,
                          const char *codec, uint64_t needed, cp_err_t *err)
{
    char from[256], made[64] = "", advice[320], limit[32], where[PATH_MAX + 64];
    if (room->made > 0)
        snprintf(made, sizeof made, ", less %.1f MB of archives already made",
                 (double)room->made / 1e6);
    if (room->limit > 0)
        snprintf(from, sizeof from, "--max-memory %s less the runs' estimate of %.1f MB%s",
                 units_format_bytes_echo(limit, sizeof limit, room->limit),
                 (double)room->runs / 1e6, made);
    else if (room->halved)
        snprintf(from, sizeof from, "half of the %.1f MB of memory available now%s",
                 (double)room->available / 1e6, made);
    else
        snprintf(from, sizeof from, "the %.1f MB of memory available now less the runs' "
                 "estimate of %.1f MB%s", (double)room->available / 1e6,
                 (double)room->runs / 1e6, made);
    uint64_t want = room->runs + room->made + needed;
    if (room->available > 0 && want > room->available)
        snprintf(advice, sizeof advice, "that and the runs need %.1f MB, more than is available: "
                 "free memory, use a smaller input or leave out '%s'", (double)want / 1e6,
                 t->name);
    else
        snprintf(advice, sizeof advice, "give --max-memory %lluM or more, use a smaller input "
                 "or leave out '%s'", (unsigned long long)((want + (1u << 20) - 1) >> 20),
                 t->name);
    if (target_ops_for(t)->has_volume)
        snprintf(where, sizeof where, "in RAM (%s, %s)", fs_type, t->dir);
    else
        snprintf(where, sizeof where, "in %s", target_place(t));
    cp_err_clear(err);
    return cp_err_set(err, CP_ENOMEM, "--decompress: target '%s' keeps its archive %s, and its "
                      "%s archive of this input needs %.1f MB there, past the %.1f MB left for "
                      "archives in RAM (%s); %s",
                      t->name, where, codec, (double)needed / 1e6, (double)room->left / 1e6,
                      from, advice);
}

/* The codec before c whose archive c restores too (the same codec, as a built-in series
 * and its CLI preset are); c itself when none. */
static size_t archive_owner(const sweep_params_t *p, size_t c)
{
    char name[32], other[32];
    codec_format(&p->series[c].codec, name, sizeof name);
    for (size_t k = 0; k < c; k++) {
        codec_format(&p->series[k].codec, other, sizeof other);
        if (strcmp(name, other) == 0)
            return k;
    }
    return c;
}

/* Decompression: every (target, codec) gets its archive, compressed with the most threads
 * of the list (untimed) and checked against the input's hash; codecs alike share one.
 * Archives in RAM (the mem target's, a tmpfs target's) share archive_ram_budget. */
static int make_archives(const sweep_params_t *p, uint64_t input_size, target_state_t *st,
                         cp_err_t *err)
{
    uint64_t hash, bytes;
    int rc = verify_hash_file(p->input_path, &hash, &bytes, err);
    if (rc == CP_OK && bytes != input_size)
        rc = cp_err_set(err, CP_EINVALID, "input %s changed while it was read", p->input_path);
    int threads = largest_threads(p);
    ram_room_t room = archive_ram_room(p);
    for (size_t i = 0; i < p->n_targets && rc == CP_OK; i++) {
        const target_spec_t *t = &p->targets[i];
        const target_ops_t *ops = target_ops_for(t);
        bool in_ram = ops->in_ram || st[i].volume.is_ram;
        /* the archive is read from it (from memory when it has no volume) */
        st[i].input_target = ops->has_volume ? t->name : NULL;
        st[i].archives = calloc(p->n_series, sizeof *st[i].archives);
        st[i].archive_for = calloc(p->n_series, sizeof *st[i].archive_for);
        if (st[i].archives == NULL || st[i].archive_for == NULL)
            return cp_err_set(err, CP_ENOMEM, "out of memory for archives");
        for (size_t c = 0; c < p->n_series && rc == CP_OK; c++) {
            size_t owner = archive_owner(p, c);
            st[i].archive_for[c] = &st[i].archives[owner];
            if (owner != c)
                continue;
            char name[32];
            codec_format(&p->series[c].codec, name, sizeof name);
            cp_log_info("compressing the input with %s into %s (--decompress; not timed)", name,
                        target_place(t));
            /* Untimed, so a native archive needs no more workers than a few (libzstd takes
             * at most 200, and its frame is the same for any number of them). */
            int make_threads = p->engine == PIPELINE_NATIVE && threads > 16 ? 16 : threads;
            /* A kind that keeps its archive in RAM (mem) holds it to the room left; a
             * directory's file is held to its volume's free space instead. */
            rc = archive_make(p->input_path, input_size, hash, &p->series[c].codec, p->engine,
                              make_threads, p->block_size, t, room.left, &st[i].archives[c],
                              err);
            uint64_t held = st[i].archives[c].frames.packed_total;
            if (rc == CP_ENOMEM && st[i].archives[c].ram_needed > 0)
                rc = ram_room_error(&room, t, st[i].volume.fs_type, name,
                                    st[i].archives[c].ram_needed, err);
            if (rc == CP_OK && in_ram && room.left > 0 && held > room.left) {
                /* A RAM volume's file: known only once written. */
                archive_close(&st[i].archives[c]);
                rc = ram_room_error(&room, t, st[i].volume.fs_type, name, held, err);
            }
            if (rc == CP_OK && in_ram && room.left > 0) {
                room.left = room.left > held ? room.left - held : 1;
                room.made += held;
            }
        }
    }
    return rc;
}

static int prepare_targets(const sweep_params_t *p, uint64_t input_size, target_state_t *st,
                           cp_err_t *err)
{
    int names = target_check_names(p->targets, p->n_targets, err);
    if (names != CP_OK)
        return names;
    for (size_t i = 0; i < p->n_targets; i++) {
        const target_spec_t *t = &p->targets[i];
        int rc = target_check(t, err);
        if (rc == CP_OK)
            rc = target_ops_for(t)->inspect(t, &st[i].volume, err);
        if (rc != CP_OK)
            return rc;
    }
    if (p->decompress)
        return make_archives(p, input_size, st, err);
    for (size_t i = 0; i < p->n_targets; i++) {
        st[i].input_path = p->input_path;
        const target_spec_t *t = &p->targets[i];
        if (p->layout == SWEEP_SAME && target_ops_for(t)->has_volume) {
            cp_log_info("copying the input to target '%s' (--layout same)", p->targets[i].name);
            int rc = copy_input(p->input_path, &p->targets[i], input_size, &st[i].input_copy, err);
            if (rc != CP_OK)
                return rc;
            st[i].input_path = sink_temp_path(st[i].input_copy);
            st[i].input_target = p->targets[i].name;
        } else {
            st[i].input_target = target_holding(p->input_path, p, st, i);
        }
    }
    return CP_OK;
}

/* True when runs write their output to the target (its ops' open_output, which for mem
 * counts and discards it): a compression, and a decompression that restores onto the
 * target (the same layout). Otherwise a restore goes to memory. */
static bool writes_output(const sweep_params_t *p)
{
    return !p->decompress || p->layout == SWEEP_SAME;
}

/* True when runs on target t write to its volume: they write their output to it
 * (writes_output) and it has one (not mem). */
static bool writes_target(const sweep_params_t *p, size_t t)
{
    return target_ops_for(&p->targets[t])->has_volume && writes_output(p);
}

static bool series_is_command(const sweep_params_t *p, size_t c)
{
    return p->series[c].kind == SERIES_COMMAND;
}

/* The emulated caps of target t that pace chokepoint's own runs there: the write cap
 * when they write to it, the read cap when they read from it (a decompression's archive,
 * or the input's copy, once prepare_targets made it). 0 when none does. */
static void target_caps(const sweep_params_t *p, const target_state_t *st, size_t t,
                        double *write_cap, double *read_cap)
{
    const target_spec_t *target = &p->targets[t];
    bool writes = writes_target(p, t);
    bool reads = p->decompress ? target_ops_for(target)->has_volume : st[t].input_copy != NULL;
    *write_cap = writes ? target_pacing_cap(target) : 0.0;
    *read_cap = reads ? target->read_cap_bps : 0.0;
}

/* The caps that pace the runs of series c on target t: target_caps, and none for a
 * command, whose own reads and writes cannot be paced (its runs measure the volume as it
 * is). */
static void paced_caps(const sweep_params_t *p, const target_state_t *st, size_t t, size_t c,
                       double *write_cap, double *read_cap)
{
    if (series_is_command(p, c))
        *write_cap = *read_cap = 0.0;
    else
        target_caps(p, st, t, write_cap, read_cap);
}

static void fill_job(const sweep_params_t *p, const target_state_t *st, size_t t, size_t c,
                     int threads, codec_job_t *job)
{
    const target_spec_t *target = &p->targets[t];
    *job = codec_job_defaults();
    if (p->decompress) { /* the archive on the target; a native one has no frame table */
        const archive_t *a = st[t].archive_for[c];
        job->pipeline.input_path = a->path;
        job->pipeline.decompress = true;
        job->pipeline.frames = a->engine == PIPELINE_BLOCKS ? &a->frames : NULL;
        job->restores_bytes = a->frames.unpacked_total;
    } else {
        job->pipeline.input_path = st[t].input_path;
    }
    paced_caps(p, st, t, c, &job->rate_cap_bps, &job->pipeline.read_cap_bps);
    job->pipeline.codec = p->series[c].codec;
    job->pipeline.threads = threads;
    job->pipeline.engine = p->engine;
    job->pipeline.block_size = p->block_size; /* a decompression's: the archive's, for the
                                                 memory estimate */
    job->sync = p->sync;
    job->volume_label = target->name;
    job->target = target;
    job->discard = !writes_output(p);
}

/* The series' name in rows: "zstd:3", or "cmd:NAME" for the user's command. */
static void series_name(const sweep_params_t *p, size_t c, char *buf, size_t size)
{
    series_format(&p->series[c], buf, size);
}

/* One run of series c at threads on target t, by codec_job or command_job. */
static int run_job(const sweep_params_t *p, const target_state_t *st, size_t t, size_t c,
                   int threads, compress_record_t *rec, cp_err_t *err)
{
    if (series_is_command(p, c)) {
        command_job_t job = {.input_path = st[t].input_path, .command = &p->series[c].command,
                             .threads = threads, .sync = p->sync};
        if (p->decompress) { /* the preset's program restores the archive on the target */
            job.input_path = st[t].archive_for[c]->path;
            job.restores_bytes = st[t].archive_for[c]->frames.unpacked_total;
        }
        job.target = &p->targets[t];
        job.discard = !writes_output(p);
        int rc = command_job_run(&job, rec, err);
        rec->engine = p->engine; /* which engine's archive it restored, if it did */
        return rc;
    }
    codec_job_t job;
    fill_job(p, st, t, c, threads, &job);
    return codec_job_run(&job, rec, err);
}

/* A row for planned run r, not yet measured. */
static void row_init(const sweep_params_t *p, const target_state_t *st, const planned_run_t *r,
                     unsigned order, sweep_row_t *row)
{
    const target_spec_t *target = &p->targets[r->target];
    memset(row, 0, sizeof *row);
    row->target = target;
    bool has_volume = target_ops_for(target)->has_volume;
    row->volume = has_volume ? &st[r->target].volume : NULL;
    series_name(p, r->codec, row->codec, sizeof row->codec);
    row->threads = p->threads[r->thread];
    row->rep = r->rep;
    row->order = order;
    row->target_order = r->target + 1;
    row->seed = p->seed;
    row->layout = has_volume ? p->layout : SWEEP_SPLIT;
    row->record.decompress = p->decompress;
    paced_caps(p, st, r->target, r->codec, &row->write_cap_bps, &row->read_cap_bps);
    row->disk_cap_bps = target_emulates_disk(target) && writes_target(p, r->target)
                            ? target->rate_cap_bps
                            : 0.0;
    row->input_target = st[r->target].input_target;
}

/* Marks target t failed as a whole (it vanished), keeping the first reason. */
static void target_failed(target_state_t *st, size_t t, const char *why)
{
    if (!st[t].failed)
        snprintf(st[t].failure, sizeof st[t].failure, "%s", why);
    st[t].failed = true;
}

/* Marks series c failed on target t, keeping the first reason. */
static void series_failed(target_state_t *st, size_t t, size_t c, const char *why)
{
    series_failure_t *f = &st[t].series[c];
    if (!f->failed)
        snprintf(f->why, sizeof f->why, "%s", why);
    f->failed = true;
}

/* Why series c is no longer run on target t (the target's failure first), or NULL. */
static const char *failure_of(const target_state_t *st, size_t t, size_t c)
{
    if (st[t].failed)
        return st[t].failure;
    return st[t].series[c].failed ? st[t].series[c].why : NULL;
}

/* One measured run with telemetry around it, delivered as a row. A failed run is still
 * CP_OK here (its row says why, and *run_failed is set); only an interrupt or the
 * callback's error is returned. */
static int measure_one(const sweep_params_t *p, target_state_t *st, const planned_run_t *r,
                       unsigned order, sweep_row_cb cb, void *ctx, bool *run_failed,
                       double *seconds, cp_err_t *err)
{
    const target_spec_t *target = &p->targets[r->target];
    sweep_row_t row;
    row_init(p, st, r, order, &row);

    cp_err_t run_err = {0};
    /* A target whose directory was removed or unmounted may lead to another volume, which
     * must not be measured or written to. */
    const target_ops_t *ops = target_ops_for(target);
    int rc = ops->still_there(target, row.volume, &run_err);
    bool job_failed = false;
    if (rc == CP_OK) {
        row.writeback = writeback_read();
        telemetry_t *tel = telemetry_start(ops->output_dir(target), NULL);
        rc = run_job(p, st, r->target, r->codec, row.threads, &row.record, &run_err);
        job_failed = rc != CP_OK;
        if (tel != NULL)
            telemetry_stop(tel, &row.telemetry);
        telemetry_free(tel);
    }
    /* A run whose directory vanished under it wrote to a deleted or detached file. */
    if (!job_failed && rc == CP_OK)
        rc = ops->still_there(target, row.volume, &run_err);
    if (rc == CP_EINTR)
        return cp_err_set(err, CP_EINTR, "interrupted");
    row.valid = rc == CP_OK;
    *seconds = row.valid ? row.record.run.seconds : -1.0;
    if (rc != CP_OK) {
        snprintf(row.error, sizeof row.error, "%s", run_err.msg);
        *run_failed = true;
        if (job_failed) {
            series_failed(st, r->target, r->codec, run_err.msg);
            cp_log_error("target '%s' %s T=%d: %s; skipping this series' remaining runs "
                         "there", target->name, row.codec, row.threads, run_err.msg);
        } else {
            target_failed(st, r->target, run_err.msg);
            cp_log_error("target '%s' %s T=%d: %s; skipping its remaining runs",
                         target->name, row.codec, row.threads, run_err.msg);
        }
    }
    return cb(&row, ctx, err);
}

/* True when a resumed study measured run (t, c, k, rep) before; *seconds its time. */
static bool measured_before(const sweep_params_t *p, size_t t, size_t c, size_t k, int rep,
                            double *seconds)
{
    if (p->already_measured == NULL)
        return false;
    char codec[32];
    series_name(p, c, codec, sizeof codec);
    return p->already_measured(p->already_ctx, p->targets[t].name, codec, p->threads[k], rep,
                               seconds);
}

/* How many of plan[0..n) are left to measure: those a resumed study did not measure
 * before. */
static size_t runs_left(const sweep_params_t *p, const planned_run_t *plan, size_t n)
{
    size_t left = 0;
    double seconds;
    for (size_t i = 0; i < n; i++)
        left += !measured_before(p, plan[i].target, plan[i].codec, plan[i].thread, plan[i].rep,
                                 &seconds);
    return left;
}

/* A resumed study: true when every first-round run of (t, c) was measured before. */
static bool case_done(const sweep_params_t *p, size_t t, size_t c)
{
    double seconds;
    for (size_t k = 0; k < p->n_threads; k++)
        for (int r = 1; r <= p->reps; r++)
            if (!measured_before(p, t, c, k, r, &seconds))
                return false;
    return p->already_measured != NULL;
}

static int warm_up(const sweep_params_t *p, target_state_t *st, cp_err_t *err)
{
    int max_threads = largest_threads(p);
    for (size_t t = 0; t < p->n_targets; t++)
        for (size_t c = 0; c < p->n_series; c++) {
            if (case_done(p, t, c))
                continue; /* resumed: nothing left to measure here */
            compress_record_t rec;
            cp_err_t run_err = {0};
            char name[32];
            series_name(p, c, name, sizeof name);
            /* A line of its own, tty or not: a warm-up of a slow codec on a big input can
             * take minutes before the first timed run. */
            cp_log_info("warm-up (not timed): %s %s at %d thread%s", p->targets[t].name, name,
                        max_threads, max_threads == 1 ? "" : "s");
            int rc = run_job(p, st, t, c, max_threads, &rec, &run_err);
            if (rc == CP_EINTR)
                return cp_err_set(err, CP_EINTR, "interrupted");
            if (rc != CP_OK) {
                char why[CP_ERR_MSG_MAX];
                snprintf(why, sizeof why, "its warm-up failed: %.400s", run_err.msg);
                series_failed(st, t, c, why);
                cp_log_error("target '%s' %s: warm-up failed: %s; skipping this series there",
                             p->targets[t].name, name, run_err.msg);
            }
        }
    return CP_OK;
}

static void report_progress(size_t done, size_t total, double start, const sweep_row_t *row)
{
    double elapsed = clock_now() - start;
    double eta = done > 0 ? elapsed / (double)done * (double)(total - done) : 0;
    if (!row->valid) /* a failed run has no rate to show: its error, on a line of its own */
        cp_log_info("[%zu/%zu] %s %s T=%d rep %d: FAILED: %s", done, total, row->target->name,
                    row->codec, row->threads, row->rep, row->error);
    else if (cp_log_progress_enabled())
        cp_log_progress("[%zu/%zu] %s %s T=%d rep %d: %.1f MB/s  elapsed %.0f s, ETA %.0f s",
                        done, total, row->target->name, row->codec, row->threads, row->rep,
                        row->record.bytes_per_s / 1e6, elapsed, eta);
    else
        cp_log_info("[%zu/%zu] %s %s T=%d rep %d: %.1f MB/s (%.3f s)", done, total,
                    row->target->name, row->codec, row->threads, row->rep,
                    row->record.bytes_per_s / 1e6, row->record.run.seconds);
}

typedef struct progress_ctx {
    sweep_row_cb cb;
    void *ctx;
    size_t done, total;
    double start;
} progress_ctx_t;

static int progress_cb(const sweep_row_t *row, void *ctx, cp_err_t *err)
{
    progress_ctx_t *pc = ctx;
    pc->done++;
    report_progress(pc->done, pc->total, pc->start, row);
    return pc->cb(row, pc->ctx, err);
}

/* The measured seconds of one (target, codec, threads) case, for --reps auto. */
typedef struct case_times {
    double seconds[SWEEP_AUTO_MAX_REPS];
    int n;
} case_times_t;

bool sweep_median_settled(const double *seconds, int n, double within)
{
    if (n < 3)
        return false;
    /* Student's t at 97.5% for n - 1 = 2..9 degrees of freedom. */
    static const double t975[] = {0, 0, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262};
    double mean = 0, var = 0, sorted[SWEEP_AUTO_MAX_REPS];
    int m = n < SWEEP_AUTO_MAX_REPS ? n : SWEEP_AUTO_MAX_REPS;
    for (int i = 0; i < m; i++) {
        mean += seconds[i] / m;
        int k = i;
        while (k > 0 && sorted[k - 1] > seconds[i]) {
            sorted[k] = sorted[k - 1];
            k--;
        }
        sorted[k] = seconds[i];
    }
    for (int i = 0; i < m; i++)
        var += (seconds[i] - mean) * (seconds[i] - mean) / (m - 1);
    double median = m % 2 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
    double half = t975[m - 1 < 9 ? m - 1 : 9] * sqrt(var / m);
    return median > 0 && half <= within * median;
}

/* Runs plan[0..n) in order, recording each case's seconds in times (indexed by case). */
static int run_plan(const sweep_params_t *p, target_state_t *st, const planned_run_t *plan,
                    size_t n, size_t first_order, progress_ctx_t *pc, case_times_t *times,
                    bool *some_failed, sweep_row_cb cb, void *ctx, cp_err_t *err)
{
    int rc = CP_OK;
    for (size_t i = 0; i < n && rc == CP_OK; i++) {
        unsigned order = (unsigned)(first_order + i + 1);
        double seconds = -1.0;
        size_t k = (plan[i].target * p->n_series + plan[i].codec) * p->n_threads + plan[i].thread;
        if (measured_before(p, plan[i].target, plan[i].codec, plan[i].thread, plan[i].rep,
                            &seconds)) {
            /* resumed: kept from before, not measured twice (nor in pc->total) */
            if (seconds > 0.0 && times[k].n < SWEEP_AUTO_MAX_REPS)
                times[k].seconds[times[k].n++] = seconds;
            continue;
        }
        const char *why = failure_of(st, plan[i].target, plan[i].codec);
        if (why != NULL) {
            /* Not run: a row still records the case and why, so the table is complete. */
            sweep_row_t row;
            row_init(p, st, &plan[i], order, &row);
            snprintf(row.error, sizeof row.error, "not run: %.500s", why);
            *some_failed = true;
            pc->total--;
            rc = cb(&row, ctx, err);
            continue;
        }
        rc = measure_one(p, st, &plan[i], order, progress_cb, pc, some_failed, &seconds, err);
        if (rc == CP_OK && seconds > 0.0 && times[k].n < SWEEP_AUTO_MAX_REPS)
            times[k].seconds[times[k].n++] = seconds;
    }
    return rc;
}

/* Orders plan[0..n) in randomized blocks: a block is one repetition of one case (codec,
 * thread count) on every target, its targets in a shuffled order, and the blocks follow
 * each other in a shuffled order too. So memory's run of a case sits next to each volume's
 * run of it, and a spell of a slower CPU (a core shared with another load, a laptop that
 * throttles) slows both alike instead of one target's runs only (docs/method.md,
 * "Sweeps"). Shuffles, then gathers the runs of a block where its first run fell. */
static void order_in_blocks(prng_t *g, planned_run_t *plan, size_t n)
{
    prng_shuffle(g, plan, n, sizeof *plan);
    for (size_t head = 0; head < n; head++)
        for (size_t i = head + 1; i < n; i++) {
            const planned_run_t *a = &plan[head], *b = &plan[i];
            if (b->codec != a->codec || b->thread != a->thread || b->rep != a->rep)
                continue;
            planned_run_t moved = plan[i];
            memmove(&plan[head + 2], &plan[head + 1], (i - head - 1) * sizeof *plan);
            plan[++head] = moved;
        }
}

/* --reps auto: one more repetition of every case whose median is not yet settled, in a
 * fresh order of randomized blocks, until all are or each has SWEEP_AUTO_MAX_REPS. */
static int run_until_settled(const sweep_params_t *p, target_state_t *st, planned_run_t *plan,
                             size_t done, progress_ctx_t *pc, case_times_t *times,
                             bool *some_failed, sweep_row_cb cb, void *ctx, prng_t *g,
                             cp_err_t *err)
{
    int rc = CP_OK;
    size_t ncases = p->n_targets * p->n_series * p->n_threads;
    for (int round = p->reps + 1; round <= SWEEP_AUTO_MAX_REPS && rc == CP_OK; round++) {
        size_t n = 0;
        for (size_t k = 0; k < ncases; k++) {
            size_t t = k / (p->n_series * p->n_threads);
            if (failure_of(st, t, (k / p->n_threads) % p->n_series) != NULL ||
                times[k].n >= SWEEP_AUTO_MAX_REPS ||
                sweep_median_settled(times[k].seconds, times[k].n, SWEEP_AUTO_WITHIN))
                continue;
            plan[n++] = (planned_run_t){t, (k / p->n_threads) % p->n_series, k % p->n_threads,
                                        round};
        }
        if (n == 0)
            break;
        cp_log_info("--reps auto: %zu case(s) not yet within +-%.0f%%, repetition %d", n,
                    100.0 * SWEEP_AUTO_WITHIN, round);
        order_in_blocks(g, plan, n);
        pc->total += runs_left(p, plan, n);
        rc = run_plan(p, st, plan, n, done, pc, times, some_failed, cb, ctx, err);
        done += n;
    }
    return rc;
}

int sweep_check_decompress(const sweep_params_t *p, cp_err_t *err)
{
    for (size_t c = 0; p->decompress && c < p->n_series; c++)
        if (series_is_command(p, c) && !p->series[c].command.restores)
            return cp_err_set(err, CP_EUSAGE, "--decompress restores the built-in codecs' "
                              "archives; a command does only as a preset's restore "
                              "(zstd-cli, xz-cli, pigz), not a --cmd template");
    return CP_OK;
}

/* One warning per target whose emulated cap would pace chokepoint's own runs there
 * (target_caps, once the targets are prepared) but cannot pace the commands measured on
 * it. */
static void warn_unpaced_commands(const sweep_params_t *p, const target_state_t *st)
{
    bool any_command = false;
    for (size_t c = 0; c < p->n_series; c++)
        any_command = any_command || series_is_command(p, c);
    for (size_t t = 0; any_command && t < p->n_targets; t++) {
        double write_cap, read_cap;
        target_caps(p, st, t, &write_cap, &read_cap);
        if (write_cap > 0.0 || read_cap > 0.0)
            cp_log_warn("target '%s': an emulated cap paces chokepoint's own reads and "
                        "writes only; a command's runs there measure the volume uncapped "
                        "(use a lab volume, scripts/lab-volumes.sh, to slow a command)",
                        p->targets[t].name);
    }
}

int sweep_run(const sweep_params_t *p, sweep_row_cb cb, void *ctx, cp_err_t *err)
{
    if (p->n_targets == 0 || p->n_series == 0 || p->n_threads == 0 || p->reps < 1)
        return cp_err_set(err, CP_EUSAGE, "nothing to sweep: give at least one TARGET");
    int rc = sweep_check_decompress(p, err);
    if (rc != CP_OK)
        return rc;
    uint64_t input_size;
    rc = compress_check_input(p->input_path, &input_size, err);
    if (rc != CP_OK)
        return rc;
    target_state_t *st = calloc(p->n_targets, sizeof *st);
    series_failure_t *failures = calloc(p->n_targets * p->n_series, sizeof *failures);
    size_t ncases = p->n_targets * p->n_series * p->n_threads;
    size_t total = ncases * (size_t)p->reps;
    /* The plan array is reused by --reps auto's rounds (one run per case at most). */
    planned_run_t *plan = calloc(total > ncases ? total : ncases, sizeof *plan);
    case_times_t *times = calloc(ncases, sizeof *times);
    if (st == NULL || failures == NULL || plan == NULL || times == NULL) {
        free(st);
        free(failures);
        free(plan);
        free(times);
        return cp_err_set(err, CP_ENOMEM, "out of memory planning %zu runs", total);
    }
    for (size_t t = 0; t < p->n_targets; t++)
        st[t].series = &failures[t * p->n_series];
    size_t n = 0;
    for (size_t t = 0; t < p->n_targets; t++)
        for (size_t c = 0; c < p->n_series; c++)
            for (size_t k = 0; k < p->n_threads; k++)
                for (int r = 1; r <= p->reps; r++)
                    plan[n++] = (planned_run_t){t, c, k, r};
    prng_t g = prng_make(p->seed);
    order_in_blocks(&g, plan, total);

    rc = prepare_targets(p, input_size, st, err);
    if (rc == CP_OK)
        warn_unpaced_commands(p, st);
    if (rc == CP_OK && p->warmup)
        rc = warm_up(p, st, err);
    /* "[k/N]": N counts the runs this sweep measures, not those a resumed study kept. */
    progress_ctx_t pc = {cb, ctx, 0, runs_left(p, plan, total), clock_now()};
    bool some_failed = false;
    if (rc == CP_OK)
        rc = run_plan(p, st, plan, total, 0, &pc, times, &some_failed, cb, ctx, err);
    if (rc == CP_OK && p->reps_auto)
        rc = run_until_settled(p, st, plan, total, &pc, times, &some_failed, cb, ctx, &g, err);
    cp_log_progress_done();
    for (size_t t = 0; t < p->n_targets; t++) {
        sink_close(st[t].input_copy);
        for (size_t c = 0; st[t].archives != NULL && c < p->n_series; c++)
            archive_close(&st[t].archives[c]); /* a shared codec's entry is empty */
        free(st[t].archives);
        free(st[t].archive_for);
    }
    free(st);
    free(failures);
    free(plan);
    free(times);
    if (rc == CP_OK && some_failed)
        rc = cp_err_set(err, CP_EIO, "some runs failed; their rows carry the error");
    return rc;
}
