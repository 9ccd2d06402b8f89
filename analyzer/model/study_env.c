/* study_env.c - differences between two studies' environments (study_env.h). */
#include "model/study_env.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/units.h"

void study_env_init(study_env_t *env)
{
    memset(env, 0, sizeof *env);
    env->online_cpus = env->usable_cpus = env->mem_total_bytes = NAN;
    env->dirty_background_bytes = env->dirty_bytes = env->dirty_expire_s = NAN;
    env->dirty_writeback_s = NAN;
    env->input_bytes = NAN;
}

/* Collects differences into out[0..cap), counting all of them. */
typedef struct diff_list {
    study_env_diff_t *out;
    size_t cap, n;
} diff_list_t;

static void add(diff_list_t *l, const char *what, const char *a, const char *b,
                const char *explains_fmt, ...) __attribute__((format(printf, 5, 6)));

static void add(diff_list_t *l, const char *what, const char *a, const char *b,
                const char *explains_fmt, ...)
{
    if (l->n < l->cap) {
        study_env_diff_t *d = &l->out[l->n];
        snprintf(d->what, sizeof d->what, "%s", what);
        snprintf(d->a, sizeof d->a, "%s", a[0] ? a : "unknown");
        snprintf(d->b, sizeof d->b, "%s", b[0] ? b : "unknown");
        va_list ap;
        va_start(ap, explains_fmt);
        vsnprintf(d->explains, sizeof d->explains, explains_fmt, ap);
        va_end(ap);
    }
    l->n++;
}

/* Two numbers differ when both are known and they are more than 1% apart. */
static bool numbers_differ(double a, double b)
{
    return isfinite(a) && isfinite(b) && fabs(a - b) > 0.01 * fmax(fabs(a), fabs(b));
}

static const char *bytes_text(double v, char *buf, size_t cap)
{
    if (!isfinite(v))
        return snprintf(buf, cap, "unknown"), buf;
    return units_format_bytes(buf, cap, (uint64_t)v);
}

static void compare_texts(diff_list_t *l, const char *what, const char *a, const char *b,
                          const char *explains)
{
    if (a[0] && b[0] && strcmp(a, b) != 0)
        add(l, what, a, b, "%s", explains);
}

static void machine(diff_list_t *l, const study_env_t *a, const study_env_t *b)
{
    compare_texts(l, "CPU model", a->cpu_model, b->cpu_model,
                  "each core compresses at its own speed: the CPU ceiling moves, and with it "
                  "the thread count where a disk takes over");
    if (numbers_differ(a->usable_cpus, b->usable_cpus)) {
        char x[32], y[32];
        snprintf(x, sizeof x, "%.0f", a->usable_cpus);
        snprintf(y, sizeof y, "%.0f", b->usable_cpus);
        add(l, "CPUs usable", x, y, "more cores raise the CPU ceiling at high thread counts: a "
            "job that was cpu-bound can become write-bound, and the other way round");
    }
    compare_texts(l, "kernel", a->kernel, b->kernel,
                  "the page cache, write-back and the block layer behave as the kernel "
                  "decides: flush times and throttling can differ");
}

/* A write-back threshold of a and b (t_a, t_b): a difference only when the two are more
 * than STUDY_ENV_THRESHOLD_MOVE apart, explained only when the model moves a term for an
 * output of `output` bytes: the page cache takes min(output, threshold), so the larger
 * one takes min(output, larger) - min(output, smaller) more. The explanation is
 * "MEANING: of an output of X, Y more EFFECT". */
static void threshold(diff_list_t *l, const char *what, double t_a, double t_b, double output,
                      const char *meaning, const char *effect)
{
    double lo = fmin(t_a, t_b), hi = fmax(t_a, t_b);
    if (!isfinite(t_a) || !isfinite(t_b) || hi - lo <= STUDY_ENV_THRESHOLD_MOVE * hi)
        return;
    char x[32], y[32], out[32], moved[32];
    double more = output > 0.0 ? fmin(output, hi) - fmin(output, lo) : 0.0;
    bytes_text(t_a, x, sizeof x);
    bytes_text(t_b, y, sizeof y);
    if (more > 0.0)
        add(l, what, x, y, "%s: of an output of %s, %s more %s", meaning,
            bytes_text(output, out, sizeof out), bytes_text(more, moved, sizeof moved), effect);
    else
        add(l, what, x, y, "%s", "");
}

static void page_cache(diff_list_t *l, const study_env_t *a, const study_env_t *b,
                       double output)
{
    char x[32], y[32], effect[160];
    snprintf(effect, sizeof effect, "was held by the page cache in %c, and written by the "
             "disk after the compression (the flush) rather than during it",
             a->dirty_background_bytes > b->dirty_background_bytes ? 'A' : 'B');
    threshold(l, "dirty_background_bytes", a->dirty_background_bytes,
              b->dirty_background_bytes, output,
              "write-back starts once this much output is dirty", effect);
    snprintf(effect, sizeof effect, "was written at the disk's speed in %c",
             a->dirty_bytes < b->dirty_bytes ? 'A' : 'B');
    threshold(l, "dirty_bytes", a->dirty_bytes, b->dirty_bytes, output,
              "above this much dirty output the writer itself is throttled to the disk's "
              "speed", effect);
    if (numbers_differ(a->dirty_expire_s, b->dirty_expire_s)) {
        snprintf(x, sizeof x, "%.0f s", a->dirty_expire_s);
        snprintf(y, sizeof y, "%.0f s", b->dirty_expire_s);
        add(l, "dirty_expire", x, y,
            "output older than this is written back even below the thresholds: a long run "
            "reaches the disk earlier where it is shorter");
    }
}

static void settings(diff_list_t *l, const study_env_t *a, const study_env_t *b)
{
    compare_texts(l, "sync", a->sync, b->sync,
                  "fsync times the flush of the cached output, direct bypasses the page cache, "
                  "none leaves the output in memory: the same disk gives different times");
    compare_texts(l, "engine", a->engine, b->engine,
                  "the blocks engine and the library's own threads scale differently");
    if (numbers_differ(a->input_bytes, b->input_bytes)) {
        char x[32], y[32];
        add(l, "input size", bytes_text(a->input_bytes, x, sizeof x),
            bytes_text(b->input_bytes, y, sizeof y),
            "a larger output fills the page cache further: its share written at the disk's "
            "speed grows, and rates are not comparable point for point");
    }
    compare_texts(l, "chokepoint version", a->version, b->version, "");
}

static const study_env_target_t *target_named(const study_env_t *env, const char *name)
{
    for (size_t i = 0; i < env->ntargets; i++)
        if (strcmp(env->targets[i].name, name) == 0)
            return &env->targets[i];
    return NULL;
}

static const char *cap_text(double bps, char *buf, size_t cap)
{
    if (!isfinite(bps))
        snprintf(buf, cap, "none");
    else
        snprintf(buf, cap, "%.1f MB/s", bps / 1e6);
    return buf;
}

static void targets(diff_list_t *l, const study_env_t *a, const study_env_t *b)
{
    for (size_t i = 0; i < a->ntargets; i++) {
        const study_env_target_t *x = &a->targets[i], *y = target_named(b, x->name);
        if (y == NULL || x->memory || y->memory)
            continue;
        char what[96];
        snprintf(what, sizeof what, "%s: file system", x->name);
        compare_texts(l, what, x->fs_type, y->fs_type,
                      "file systems differ in how they allocate, journal and flush");
        snprintf(what, sizeof what, "%s: mount options", x->name);
        compare_texts(l, what, x->mount_options, y->mount_options,
                      "options such as sync, barrier or compress change what a write costs");
        snprintf(what, sizeof what, "%s: device", x->name);
        compare_texts(l, what, x->mount_source, y->mount_source,
                      "another device: its write speed is its own");
        if (x->rotational >= 0 && y->rotational >= 0 && x->rotational != y->rotational) {
            snprintf(what, sizeof what, "%s: medium", x->name);
            add(l, what, x->rotational ? "spinning disk" : "solid state",
                y->rotational ? "spinning disk" : "solid state",
                "a spinning disk writes at a fraction of a solid-state disk's speed");
        }
        bool caps_differ = isfinite(x->write_cap_bps) != isfinite(y->write_cap_bps) ||
                           numbers_differ(x->write_cap_bps, y->write_cap_bps);
        if (caps_differ) {
            char p[32], q[32];
            snprintf(what, sizeof what, "%s: emulated write cap", x->name);
            add(l, what, cap_text(x->write_cap_bps, p, sizeof p),
                cap_text(y->write_cap_bps, q, sizeof q),
                "the cap paces chokepoint's writes: it sets the write-bound speed");
        }
    }
}

size_t study_env_differences(const study_env_t *a, const study_env_t *b, double output_bytes,
                             study_env_diff_t *out, size_t cap)
{
    diff_list_t l = {out, cap, 0};
    if (!a->known || !b->known)
        return 0;
    machine(&l, a, b);
    page_cache(&l, a, b, output_bytes);
    settings(&l, a, b);
    targets(&l, a, b);
    return l.n;
}
