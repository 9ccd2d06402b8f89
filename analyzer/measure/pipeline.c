/* pipeline.c - the measured job (pipeline.h): one reader, T compressor or decompressor
 * threads and one ordered writer into a sink, or a codec's own threaded stream (native
 * engine), with each stage's busy and waiting time. */
#include "measure/pipeline.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "common/sys.h"
#include "measure/pagecache.h"
#include "measure/run_account.h"
#include "measure/throttle.h"

/* The native engine's read size: the library buffers whole jobs itself, so big reads only
 * add memory. */
#define NATIVE_READ_SIZE ((size_t)1 << 20)
/* A native slot holding more output than this is written out early (spill_slot), by the
 * thread driving the library, in order. */
#define NATIVE_SPILL_BYTES ((size_t)1 << 20)
/* Decoding, a piece read restores to several times its size: pieces of 512 KiB and slot
 * buffers of 2 MiB hold ratios up to 4 without a spill, so the writer thread writes while
 * the decoder goes on; and at least 8 slots keep the reader 4 MiB ahead of the one decoder
 * thread however small T is (fewer, smaller pieces starved it at T = 1). */
#define NATIVE_DECODE_READ_SIZE ((size_t)512 << 10)
#define NATIVE_DECODE_OUT_BYTES PIPELINE_NATIVE_DECODE_OUT_BYTES
#define NATIVE_DECODE_SLOTS 8

typedef enum slot_state { SLOT_FREE, SLOT_READ, SLOT_BUSY, SLOT_DONE } slot_state_t;

typedef struct slot {
    slot_state_t state;
    uint64_t seq;
    bool last;          /* the reader reached end of input with this block */
    unsigned char *in;
    size_t in_len;
    unsigned char *out;
    size_t out_len;
    size_t out_cap;
    path_block_t path;  /* what it went through before the writer took it */
} slot_t;

/* Shared state of one run. Everything below `lock` is guarded by it. */
typedef struct pipe {
    const pipeline_params_t *params;
    sink_t *sink;
    int input_fd;
    size_t block_size;
    size_t nslots;
    size_t out_cap;            /* a slot's output buffer as allocated */
    size_t spill_bytes;        /* native: a slot's output past this is written early */
    slot_t *slots;

    pthread_mutex_t lock;
    pthread_cond_t slot_freed;  /* reader waits */
    pthread_cond_t slot_filled; /* compressors wait */
    pthread_cond_t slot_done;   /* writer waits */
    bool reader_finished;
    bool failed;
    uint64_t next_write;
    cp_err_t err;

    uint64_t input_bytes;
    uint64_t output_bytes;
    unsigned blocks;
    stage_time_t reader, compress, writer;
    path_split_t path;         /* the writer's (and, after it, the flush's) alone */
    throttle_t read_pace;      /* the emulated read cap (disabled when none) */
    double read_pace_s;
    /* The threads' accounting: sampled again before the native engine's library workers
     * exit, so that they count. */
    run_account_tracker_t *account;
} pipe_t;

int pipeline_frames_add(pipeline_frames_t *f, uint64_t packed, uint64_t unpacked)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 256;
        uint64_t *a = realloc(f->packed, cap * sizeof *a);
        if (a == NULL)
            return CP_ENOMEM;
        f->packed = a;
        uint64_t *b = realloc(f->unpacked, cap * sizeof *b);
        if (b == NULL)
            return CP_ENOMEM;
        f->unpacked = b;
        f->cap = cap;
    }
    f->packed[f->n] = packed;
    f->unpacked[f->n] = unpacked;
    f->n++;
    if (packed > f->max_packed)
        f->max_packed = packed;
    if (unpacked > f->max_unpacked)
        f->max_unpacked = unpacked;
    f->packed_total += packed;
    f->unpacked_total += unpacked;
    return CP_OK;
}

void pipeline_frames_free(pipeline_frames_t *f)
{
    if (f == NULL)
        return;
    free(f->packed);
    free(f->unpacked);
    memset(f, 0, sizeof *f);
}

const char *pipeline_engine_name(pipeline_engine_t engine)
{
    return engine == PIPELINE_NATIVE ? "native" : "blocks";
}

int pipeline_engine_parse(const char *text, pipeline_engine_t *out, cp_err_t *err)
{
    if (text != NULL && strcmp(text, "blocks") == 0)
        *out = PIPELINE_BLOCKS;
    else if (text != NULL && strcmp(text, "native") == 0)
        *out = PIPELINE_NATIVE;
    else
        return cp_err_set(err, CP_EUSAGE, "bad engine '%s': expected blocks or native",
                          text ? text : "");
    return CP_OK;
}

pipeline_params_t pipeline_defaults(void)
{
    pipeline_params_t p;
    memset(&p, 0, sizeof p);
    codec_parse("zstd:3", &p.codec, NULL);
    p.threads = 1;
    p.engine = PIPELINE_BLOCKS;
    return p;
}

size_t pipeline_block_size(const pipeline_params_t *params)
{
    if (params->block_size > 0)
        return params->block_size;
    if (params->engine == PIPELINE_NATIVE)
        return params->decompress ? NATIVE_DECODE_READ_SIZE : NATIVE_READ_SIZE;
    return params->codec.ops->default_block_size(&params->codec);
}

size_t pipeline_slot_count(const pipeline_params_t *params)
{
    size_t slots = 2 * (size_t)(params->threads > 0 ? params->threads : 1) + 2;
    if (params->engine == PIPELINE_NATIVE && params->decompress && slots < NATIVE_DECODE_SLOTS)
        slots = NATIVE_DECODE_SLOTS;
    return slots;
}

/* Records the first failure and wakes everyone so they can stop. Caller holds the lock. */
static void pipe_fail_locked(pipe_t *p, const cp_err_t *e)
{
    if (!p->failed) {
        p->failed = true;
        p->err = *e;
    }
    pthread_cond_broadcast(&p->slot_freed);
    pthread_cond_broadcast(&p->slot_filled);
    pthread_cond_broadcast(&p->slot_done);
}

static void pipe_fail(pipe_t *p, const cp_err_t *e)
{
    pthread_mutex_lock(&p->lock);
    pipe_fail_locked(p, e);
    pthread_mutex_unlock(&p->lock);
}

/* Waits on cond (the caller holds p->lock) for at most 100 ms and adds the seconds waited
 * to *wait_s. Waking up regularly lets every waiting stage notice an interrupt, even
 * while a neighbour is busy with a long block, and fail the run for everyone. */
static void timed_wait(pipe_t *p, pthread_cond_t *cond, double *wait_s)
{
    double t0 = clock_now();
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 100 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(cond, &p->lock, &until);
    *wait_s += clock_now() - t0;
    if (cp_interrupted() && !p->failed) {
        cp_err_t e = {0};
        cp_err_set(&e, CP_EINTR, "interrupted");
        pipe_fail_locked(p, &e);
    }
}

static bool interrupted_check(pipe_t *p)
{
    if (!cp_interrupted())
        return false;
    cp_err_t e = {0};
    cp_err_set(&e, CP_EINTR, "interrupted");
    pipe_fail(p, &e);
    return true;
}

/* ---- finding slots ---- */

/* Slot pickers: each returns a slot in the state a stage needs, or NULL. Caller holds the
 * lock. */
static slot_t *pick_free(pipe_t *p, uint64_t seq)
{
    (void)seq;
    for (size_t i = 0; i < p->nslots; i++)
        if (p->slots[i].state == SLOT_FREE)
            return &p->slots[i];
    return NULL;
}

static slot_t *pick_oldest_read(pipe_t *p, uint64_t seq)
{
    (void)seq;
    slot_t *oldest = NULL;
    for (size_t i = 0; i < p->nslots; i++)
        if (p->slots[i].state == SLOT_READ && (oldest == NULL || p->slots[i].seq < oldest->seq))
            oldest = &p->slots[i];
    return oldest;
}

static slot_t *pick_read_seq(pipe_t *p, uint64_t seq)
{
    for (size_t i = 0; i < p->nslots; i++)
        if (p->slots[i].state == SLOT_READ && p->slots[i].seq == seq)
            return &p->slots[i];
    return NULL;
}

static slot_t *pick_done_seq(pipe_t *p, uint64_t seq)
{
    for (size_t i = 0; i < p->nslots; i++)
        if (p->slots[i].state == SLOT_DONE && p->slots[i].seq == seq)
            return &p->slots[i];
    return NULL;
}

/* Waits on cond (caller holds the lock) until pick finds a slot. Returns NULL when the run
 * failed, or, with until_input_done, when the reader has finished and nothing is left. */
static slot_t *wait_for_slot(pipe_t *p, slot_t *(*pick)(pipe_t *, uint64_t), uint64_t seq,
                             bool until_input_done, pthread_cond_t *cond, double *wait_s)
{
    while (!p->failed) {
        slot_t *slot = pick(p, seq);
        if (slot != NULL)
            return slot;
        if (until_input_done && p->reader_finished)
            return NULL;
        timed_wait(p, cond, wait_s);
    }
    return NULL;
}

/* Locks, waits for a slot that pick finds (see wait_for_slot), marks it busy when asked,
 * unlocks. NULL when the stage should stop. */
static slot_t *claim_slot(pipe_t *p, slot_t *(*pick)(pipe_t *, uint64_t), uint64_t seq,
                          bool until_input_done, bool mark_busy, pthread_cond_t *cond,
                          double *wait_s)
{
    pthread_mutex_lock(&p->lock);
    slot_t *slot = wait_for_slot(p, pick, seq, until_input_done, cond, wait_s);
    if (slot != NULL && mark_busy)
        slot->state = SLOT_BUSY;
    pthread_mutex_unlock(&p->lock);
    return slot;
}

/* Reads up to len bytes; returns the count (short only at end of file) or -1 with errno. */
static ssize_t read_full(int fd, unsigned char *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

/* ---- reader ---- */

static void reader_role(pipe_t *p)
{
    const pipeline_frames_t *frames = p->params->frames;
    uint64_t seq = 0;
    run_account_reader(p->account);
    for (;;) {
        if (interrupted_check(p))
            return;
        slot_t *slot = claim_slot(p, pick_free, 0, false, true, &p->slot_freed,
                                  &p->reader.wait_s);
        if (slot == NULL)
            return;

        /* Decompression reads one whole frame per slot; compression one block. */
        size_t want = frames ? (size_t)frames->packed[seq] : p->block_size;
        double t0 = clock_now();
        path_clock_t c0 = path_clock_now();
        ssize_t n = read_full(p->input_fd, slot->in, want);
        /* An emulated read cap makes the read itself slow: busy, as a capped write is. */
        p->read_pace_s += n > 0 ? throttle_wait(&p->read_pace, (size_t)n) : 0.0;
        p->reader.busy_s += clock_now() - t0;
        slot->path = (path_block_t){0};
        path_span_add(&slot->path.read, &c0);
        slot->path.read_end_s = clock_now();
        if (n < 0 || (frames && (size_t)n != want)) {
            cp_err_t e = {0};
            if (n < 0)
                cp_err_errno(&e, CP_EIO, errno, "reading input %s", p->params->input_path);
            else
                cp_err_set(&e, CP_EINVALID, "archive %s ends inside frame %llu",
                           p->params->input_path, (unsigned long long)seq + 1);
            pipe_fail(p, &e);
            return;
        }
        pthread_mutex_lock(&p->lock);
        slot->in_len = (size_t)n;
        slot->seq = seq++;
        slot->last = frames ? seq == frames->n : (size_t)n < p->block_size;
        slot->out_len = 0;
        slot->state = SLOT_READ;
        p->input_bytes += (uint64_t)n;
        p->blocks++;
        if (slot->last)
            p->reader_finished = true;
        pthread_cond_broadcast(&p->slot_filled);
        pthread_mutex_unlock(&p->lock);
        if (slot->last)
            return;
    }
}

/* ---- blocks engine compressor ---- */

static void block_compressor_role(pipe_t *p, void *codec_ctx)
{
    const codec_ops_t *ops = p->params->codec.ops;
    const pipeline_frames_t *frames = p->params->frames;
    for (;;) {
        slot_t *slot = claim_slot(p, pick_oldest_read, 0, true, true, &p->slot_filled,
                                  &p->compress.wait_s);
        if (slot == NULL)
            return;

        cp_err_t e = {0};
        int rc = CP_OK;
        double t0 = clock_now();
        path_clock_t c0 = path_clock_now();
        /* An empty last block after full ones adds nothing; an empty input still gets one
         * (empty) frame so the output is a valid compressed file. */
        if (frames != NULL) {
            rc = ops->decompress_block(codec_ctx, slot->in, slot->in_len, slot->out,
                                       slot->out_cap, &slot->out_len, &e);
            if (rc == CP_OK && slot->out_len != frames->unpacked[slot->seq])
                rc = cp_err_set(&e, CP_EVERIFY, "frame %llu restored %zu bytes, not %llu",
                                (unsigned long long)slot->seq + 1, slot->out_len,
                                (unsigned long long)frames->unpacked[slot->seq]);
        } else if (slot->in_len > 0 || slot->seq == 0) {
            rc = ops->compress_block(codec_ctx, slot->in, slot->in_len, slot->out, slot->out_cap,
                                     &slot->out_len, &e);
        }
        double busy = clock_now() - t0;
        path_span_add(&slot->path.compress, &c0);

        pthread_mutex_lock(&p->lock);
        p->compress.busy_s += busy;
        if (rc != CP_OK) {
            pipe_fail_locked(p, &e);
            pthread_mutex_unlock(&p->lock);
            return;
        }
        slot->state = SLOT_DONE;
        pthread_cond_broadcast(&p->slot_done);
        pthread_mutex_unlock(&p->lock);
    }
}

/* ---- native engine: the library's own stream (encoder, or decoder when decompressing) ---- */

/* Where the native stream's output goes while it processes one slot. */
typedef struct native_out {
    pipe_t *p;
    slot_t *slot;
    double wait_s;  /* waiting for the writer to catch up before a spill */
    double write_s; /* writing spills */
} native_out_t;

/* Writes what the slot holds so far straight to the sink, once the writer has written
 * every earlier slot (the writer then waits for this one, so the sink is free and order
 * is kept). Bounds the memory a long burst of library output can take. */
static int spill_slot(native_out_t *o, cp_err_t *err)
{
    pipe_t *p = o->p;
    pthread_mutex_lock(&p->lock);
    while (!p->failed && p->next_write != o->slot->seq)
        timed_wait(p, &p->slot_freed, &o->wait_s);
    bool failed = p->failed;
    pthread_mutex_unlock(&p->lock);
    if (failed)
        return cp_err_set(err, CP_EINTR, "stopped");
    double t0 = clock_now();
    path_clock_t c0 = path_clock_now();
    int rc = sink_write(p->sink, o->slot->out, o->slot->out_len, err);
    o->write_s += clock_now() - t0;
    path_span_add(&o->slot->path.spill, &c0);
    if (rc != CP_OK)
        return rc;
    pthread_mutex_lock(&p->lock);
    p->output_bytes += o->slot->out_len;
    p->writer.busy_s += clock_now() - t0;
    pthread_mutex_unlock(&p->lock);
    o->slot->out_len = 0;
    return CP_OK;
}

static int append_to_slot(void *ctx, const void *buf, size_t len, cp_err_t *err)
{
    native_out_t *o = ctx;
    slot_t *slot = o->slot;
    /* Every call (len 0: an encoder waiting on its workers) is a chance to stop. */
    if (cp_interrupted())
        return cp_err_set(err, CP_EINTR, "interrupted");
    if (len == 0)
        return CP_OK;
    if (slot->out_len + len > o->p->spill_bytes && slot->out_len > 0) {
        int rc = spill_slot(o, err);
        if (rc != CP_OK)
            return rc;
    }
    if (slot->out_len + len > slot->out_cap) {
        size_t cap = slot->out_cap * 2;
        while (cap < slot->out_len + len)
            cap *= 2;
        unsigned char *grown = realloc(slot->out, cap);
        if (grown == NULL)
            return cp_err_set(err, CP_ENOMEM, "out of memory buffering the library's output");
        slot->out = grown;
        slot->out_cap = cap;
    }
    memcpy(slot->out + slot->out_len, buf, len);
    slot->out_len += len;
    return CP_OK;
}

/* The stream's compressing of one slot since c0: its time less the spills and the
 * waits before them. */
static void stream_span(path_block_t *b, const path_clock_t *c0, double wait_s)
{
    path_span_t all = {0};
    path_span_add(&all, c0);
    b->compress.wall_s = fmax(0.0, all.wall_s - wait_s - b->spill.wall_s);
    b->compress.cpu_s = fmax(0.0, all.cpu_s - b->spill.cpu_s);
    b->compress.core_wait_s = fmax(0.0, all.core_wait_s - b->spill.core_wait_s);
}

static void native_stream_role(pipe_t *p, codec_stream_t *stream)
{
    for (uint64_t seq = 0;; seq++) {
        slot_t *slot = claim_slot(p, pick_read_seq, seq, false, true, &p->slot_filled,
                                  &p->compress.wait_s);
        if (slot == NULL)
            return;

        cp_err_t e = {0};
        double t0 = clock_now();
        path_clock_t c0 = path_clock_now();
        native_out_t out = {p, slot, 0.0, 0.0};
        int rc = codec_stream_process(stream, slot->in, slot->in_len, slot->last, append_to_slot,
                                      &out, &e);
        double busy = clock_now() - t0 - out.wait_s - out.write_s;
        stream_span(&slot->path, &c0, out.wait_s);

        pthread_mutex_lock(&p->lock);
        p->compress.busy_s += busy;
        p->compress.wait_s += out.wait_s;
        if (rc != CP_OK) {
            pipe_fail_locked(p, &e);
            pthread_mutex_unlock(&p->lock);
            return;
        }
        slot->state = SLOT_DONE;
        bool last = slot->last;
        pthread_cond_broadcast(&p->slot_done);
        pthread_mutex_unlock(&p->lock);
        if (last)
            return;
    }
}

/* ---- writer ---- */

static void writer_role(pipe_t *p)
{
    for (;;) {
        if (interrupted_check(p))
            return;
        double waited_from = clock_now();
        slot_t *slot = claim_slot(p, pick_done_seq, p->next_write, false, false, &p->slot_done,
                                  &p->writer.wait_s);
        if (slot == NULL)
            return;
        path_split_wait(&p->path, &slot->path, waited_from, clock_now());

        cp_err_t e = {0};
        double t0 = clock_now();
        path_clock_t c0 = path_clock_now();
        int rc = slot->out_len > 0 ? sink_write(p->sink, slot->out, slot->out_len, &e) : CP_OK;
        p->writer.busy_s += clock_now() - t0;
        path_span_t wrote = {0};
        path_span_add(&wrote, &c0);
        path_split_write(&p->path, &wrote, wrote.wall_s);
        if (rc != CP_OK) {
            pipe_fail(p, &e);
            return;
        }
        /* A native burst may have grown this buffer; give the memory back so the peak
         * does not creep up with the input's length. */
        if (slot->out_cap > 4 * p->out_cap) {
            unsigned char *fresh = sys_alloc_large(p->out_cap);
            if (fresh == NULL) {
                cp_err_t oom = {0};
                cp_err_set(&oom, CP_ENOMEM, "out of memory for output buffers");
                pipe_fail(p, &oom);
                return;
            }
            free(slot->out);
            slot->out = fresh;
            slot->out_cap = p->out_cap;
        }
        /* Every non-empty frame, and the one frame an empty input gets (empty for copy). */
        if (p->params->record_frames != NULL && (slot->out_len > 0 || slot->seq == 0) &&
            pipeline_frames_add(p->params->record_frames, slot->out_len, slot->in_len) != CP_OK) {
            cp_err_t oom = {0};
            cp_err_set(&oom, CP_ENOMEM, "out of memory for the frame table");
            pipe_fail(p, &oom);
            return;
        }
        pthread_mutex_lock(&p->lock);
        p->output_bytes += slot->out_len;
        bool last = slot->last;
        slot->state = SLOT_FREE;
        p->next_write++;
        pthread_cond_broadcast(&p->slot_freed);
        pthread_mutex_unlock(&p->lock);
        if (last)
            return;
    }
}

/* ---- setup ---- */

static int slots_alloc(pipe_t *p, cp_err_t *err)
{
    const codec_spec_t *codec = &p->params->codec;
    /* Native output arrives in uneven bursts and the slot grows to fit (append_to_slot),
     * from a small buffer for compressed output, from the spill size for restored output
     * (several times the piece read); blocks output is bounded by the codec. */
    const pipeline_frames_t *frames = p->params->frames;
    bool native = p->params->engine == PIPELINE_NATIVE;
    size_t out_cap = frames != NULL                       ? (size_t)frames->max_unpacked
                     : native && p->params->decompress ? NATIVE_DECODE_OUT_BYTES
                     : native                          ? (size_t)1 << 16
                                                       : codec->ops->block_bound(codec, p->block_size);
    if (out_cap == 0)
        out_cap = 1;
    p->out_cap = out_cap;
    p->slots = calloc(p->nslots, sizeof *p->slots);
    if (p->slots == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory for %zu blocks", p->nslots);
    for (size_t i = 0; i < p->nslots; i++) {
        /* Huge pages: the kernel copies every input byte into `in` and every output byte
         * out of `out`; with 4 KiB pages each page costs a fault when first touched (a
         * host fault too on a virtual machine that hands freed memory back) and a TLB
         * miss per page copied. */
        p->slots[i].in = sys_alloc_large(p->block_size);
        p->slots[i].out = sys_alloc_large(out_cap);
        p->slots[i].out_cap = out_cap;
        if (p->slots[i].in == NULL || p->slots[i].out == NULL)
            return cp_err_set(err, CP_ENOMEM,
                              "out of memory for %zu blocks of %zu bytes (try a smaller "
                              "--block-size or fewer threads)",
                              p->nslots, p->block_size);
    }
    return CP_OK;
}

static void slots_free(pipe_t *p)
{
    for (size_t i = 0; p->slots != NULL && i < p->nslots; i++) {
        free(p->slots[i].in);
        free(p->slots[i].out);
    }
    free(p->slots);
}

/* Runs the roles in one OpenMP team: thread 0 reads, thread 1 writes, the rest compress. */
static void run_team(pipe_t *p)
{
    const pipeline_params_t *params = p->params;
    int compressors = params->engine == PIPELINE_NATIVE ? 1 : params->threads;
    int team = compressors + 2;
    int got_team = 0;
    codec_stream_t *stream = NULL;
    if (params->engine == PIPELINE_NATIVE) {
        cp_err_t e = {0};
        stream = params->decompress
                     ? params->codec.ops->decoder_create(params->threads, &e)
                     : params->codec.ops->encoder_create(&params->codec, params->threads, &e);
        if (stream == NULL) {
            pipe_fail(p, &e);
            return;
        }
    }
    omp_set_dynamic(0);
#pragma omp parallel num_threads(team)
    {
        int id = omp_get_thread_num();
#pragma omp single
        got_team = omp_get_num_threads();
        /* implicit barrier: every thread knows the team size */
        if (got_team < team) {
            if (id == 0) {
                cp_err_t e = {0};
                cp_err_set(&e, CP_ECODEC,
                           "OpenMP gave %d threads, %d needed (check OMP_THREAD_LIMIT)", got_team,
                           team);
                pipe_fail(p, &e);
            }
        } else if (id == 0) {
            reader_role(p);
        } else if (id == 1) {
            writer_role(p);
        } else if (stream != NULL) {
            native_stream_role(p, stream);
        } else {
            const codec_ops_t *ops = params->codec.ops;
            cp_err_t e = {0};
            void *ctx = params->frames ? ops->block_dctx_create(&e)
                                       : ops->block_ctx_create(&params->codec, &e);
            if (ctx == NULL)
                pipe_fail(p, &e);
            else
                block_compressor_role(p, ctx);
            if (params->frames)
                ops->block_dctx_free(ctx);
            else
                ops->block_ctx_free(ctx);
        }
    }
    run_account_mark(p->account);
    codec_stream_free(stream);
}

static bool same_file_state(const struct stat *a, const struct stat *b)
{
    struct timespec ma = sys_stat_mtime(a), mb = sys_stat_mtime(b);
    return a->st_size == b->st_size && ma.tv_sec == mb.tv_sec && ma.tv_nsec == mb.tv_nsec;
}

int pipeline_run(const pipeline_params_t *params, sink_t *sink, pipeline_result_t *out,
                 cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    out->cpu_wait_s = out->io_wait_s = out->io_read_wait_s = out->dirty_pause_s = NAN;
    if (params->threads < 1)
        return cp_err_set(err, CP_EUSAGE, "threads must be at least 1");
    if (params->record_frames != NULL && params->engine != PIPELINE_BLOCKS)
        return cp_err_set(err, CP_EUSAGE, "only the blocks engine writes a frame table");
    if (params->frames != NULL && (params->engine != PIPELINE_BLOCKS || params->frames->n == 0))
        return cp_err_set(err, CP_EUSAGE, "a frame table is restored by the blocks engine and "
                          "holds at least one frame");
    if (params->decompress && params->engine == PIPELINE_BLOCKS && params->frames == NULL)
        return cp_err_set(err, CP_EUSAGE, "the blocks engine restores an archive by its frame "
                          "table; none was given");
    pipe_t p;
    memset(&p, 0, sizeof p);
    p.params = params;
    p.sink = sink;
    p.input_fd = -1;
    p.block_size = pipeline_block_size(params);
    p.nslots = pipeline_slot_count(params);
    p.spill_bytes = params->engine == PIPELINE_NATIVE && params->decompress
                        ? NATIVE_DECODE_OUT_BYTES : NATIVE_SPILL_BYTES;
    p.read_pace = throttle_make(params->read_cap_bps);
    out->block_size = p.block_size;
    if (params->frames != NULL) { /* slots hold whole frames in and restored blocks out */
        p.block_size = params->frames->max_packed > 0 ? (size_t)params->frames->max_packed : 1;
        out->block_size = (size_t)params->frames->max_unpacked;
    }
    int rc = slots_alloc(&p, err);

    if (rc == CP_OK && !params->warm) {
        /* Drop the input's cached pages so the run reads from the disk; cache_dropped
         * says whether they are gone (checked), as probe.csv's column does. A failure here
         * is the input's open below to report. */
        bool dropped = false;
        cp_err_t ignored = {0};
        if (pagecache_drop(params->input_path, &dropped, &ignored) == CP_OK)
            out->cache_dropped = dropped;
    }

    p.account = run_account_start(false);
    struct stat before, after;
    double t0 = clock_now();
    if (rc == CP_OK) {
        p.input_fd = open(params->input_path, O_RDONLY | O_CLOEXEC);
        if (p.input_fd < 0)
            rc = cp_err_errno(err, CP_EIO, errno, "cannot open input %s", params->input_path);
        else if (fstat(p.input_fd, &before) != 0)
            rc = cp_err_errno(err, CP_EIO, errno, "cannot stat input %s", params->input_path);
    }
    if (rc == CP_OK) {
        sys_advise_sequential(p.input_fd);
        pthread_mutex_init(&p.lock, NULL);
        pthread_cond_init(&p.slot_freed, NULL);
        pthread_cond_init(&p.slot_filled, NULL);
        pthread_cond_init(&p.slot_done, NULL);
        run_team(&p);
        pthread_cond_destroy(&p.slot_freed);
        pthread_cond_destroy(&p.slot_filled);
        pthread_cond_destroy(&p.slot_done);
        pthread_mutex_destroy(&p.lock);
        if (p.failed)
            rc = cp_err_set(err, p.err.code, "%s", p.err.msg);
        else if (cp_interrupted()) /* arrived after the roles' last checks */
            rc = cp_err_set(err, CP_EINTR, "interrupted");
    }
    double t_flush = clock_now();
    path_clock_t c_flush = path_clock_now();
    if (rc == CP_OK)
        rc = sink_finish(sink, err);
    double t_end = clock_now();
    path_span_t flushed = {0};
    path_span_add(&flushed, &c_flush);
    path_split_write(&p.path, &flushed, flushed.wall_s);
    out->seconds = t_end - t0;
    out->pipeline_s = t_flush - t0;
    out->flush_s = t_end - t_flush;
    if (rc == CP_OK && cp_interrupted()) /* during the final fsync: not a result either */
        rc = cp_err_set(err, CP_EINTR, "interrupted");
    if (p.input_fd >= 0) {
        if (rc == CP_OK && (fstat(p.input_fd, &after) != 0 || !same_file_state(&before, &after) ||
                            (uint64_t)after.st_size != p.input_bytes))
            rc = cp_err_set(err, CP_EINVALID,
                            "input %s changed during the run (size or modification time); the "
                            "measurement is invalid",
                            params->input_path);
        close(p.input_fd);
    }
    slots_free(&p);
    out->input_bytes = p.input_bytes;
    out->output_bytes = p.output_bytes;
    out->blocks = p.blocks;
    out->reader = p.reader;
    out->compress = p.compress;
    out->writer = p.writer;
    out->read_pace_s = p.read_pace_s;
    out->path = p.path;
    out->path_known = true;
    run_account_t account;
    run_account_finish(p.account, &account);
    out->cpu_wait_s = account.cpu_wait_s;
    out->io_wait_s = account.io_wait_s;
    out->io_read_wait_s = account.io_read_wait_s;
    out->dirty_pause_s = account.dirty_pause_s;
    return rc;
}
