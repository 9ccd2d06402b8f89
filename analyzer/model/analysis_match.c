/* analysis_match.c - which probe target gives a runs target its speeds: the same name, else
 * the same directory; and the notes that say what was matched how, or left unmatched. */
#include "model/analysis_match.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The directory runs records for target name ("" when none does). */
static const char *runs_dir_of(const runs_table_t *runs, const char *name)
{
    for (size_t i = 0; i < runs->nrows; i++)
        if (runs->rows[i].dir[0] != '\0' && strcmp(runs->rows[i].target, name) == 0)
            return runs->rows[i].dir;
    return "";
}

static void copy_name(char dst[RUNS_NAME_MAX], const char *src)
{
    snprintf(dst, RUNS_NAME_MAX, "%s", src != NULL ? src : "");
}

void match_series_probe(analysis_series_t *s, const run_row_t *first, const runs_table_t *runs,
                        const probe_table_t *probe)
{
    snprintf(s->dir, sizeof s->dir, "%s", first->dir);
    copy_name(s->probe_target, s->cpu_ceiling ? NULL : probe_table_match(probe, s->name, s->dir));
    s->probe_cap_ignored =
        strncmp(first->codec, "cmd:", 4) == 0 && s->probe_target[0] != '\0' &&
        (probe_table_self_paced(probe, s->probe_target, PROBE_OP_WRITE) ||
         probe_table_self_paced(probe, s->probe_target, PROBE_OP_READ));
    if (s->probe_cap_ignored)
        s->probe_target[0] = '\0';
    s->probe_source = s->probe_target[0] != '\0' ? probe_table_source(probe, s->probe_target)
                                                  : DATA_SOURCE_UNKNOWN;
    /* The input was read from this target's own copy (same), or from where it lives:
     * the runs target named in input_target (split). */
    const char *input = NULL, *input_dir = "";
    if (first->decompress) {
        /* A decompression reads its archive from the target itself. */
        copy_name(s->read_from, s->probe_target);
        return;
    }
    if (first->layout == RUN_LAYOUT_SAME) {
        if (!s->cpu_ceiling) {
            input = s->name;
            input_dir = s->dir;
        }
    } else if (first->input_target[0] != '\0') {
        input = first->input_target;
        input_dir = runs_dir_of(runs, input);
    }
    copy_name(s->read_from, input != NULL ? probe_table_match(probe, input, input_dir) : NULL);
}

/* Appends printf text to the malloc'd string *buf (NULL to start); false when out of
 * memory (then *buf is freed and NULL). */
static bool append(char **buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool append(char **buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t len = *buf != NULL ? strlen(*buf) : 0;
    char *grown = n >= 0 ? realloc(*buf, len + (size_t)n + 1) : NULL;
    if (grown == NULL) {
        free(*buf);
        *buf = NULL;
        return false;
    }
    va_start(ap, fmt);
    vsnprintf(grown + len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *buf = grown;
    return true;
}

static int add_note(analysis_t *a, bool warning, char *text)
{
    if (text == NULL)
        return CP_ENOMEM;
    analysis_note_t *grown = realloc(a->notes, (a->nnotes + 1) * sizeof *grown);
    if (grown == NULL) {
        free(text);
        return CP_ENOMEM;
    }
    a->notes = grown;
    a->notes[a->nnotes++] = (analysis_note_t){warning, text, NULL};
    return CP_OK;
}

/* Adds a probe note (its short text and its detail, both owned from here on). */
static int add_probe_note(analysis_t *a, char *text, char *detail)
{
    analysis_note_t *grown = text != NULL && detail != NULL
                                 ? realloc(a->probe_notes,
                                           (a->nprobe_notes + 1) * sizeof *grown)
                                 : NULL;
    if (grown == NULL) {
        free(text);
        free(detail);
        return CP_ENOMEM;
    }
    a->probe_notes = grown;
    a->probe_notes[a->nprobe_notes++] = (analysis_note_t){true, text, detail};
    return CP_OK;
}

/* True when some series takes its write or read speeds from probe target name. */
static bool probe_target_used(const analysis_t *a, const char *name)
{
    for (size_t i = 0; i < a->nseries; i++)
        if (strcmp(a->series[i].probe_target, name) == 0 ||
            strcmp(a->series[i].read_from, name) == 0)
            return true;
    return false;
}

/* "'a' (/dir), 'b' (no directory recorded)": the probe targets no series uses. */
static char *unmatched_probe_targets(const analysis_t *a, const probe_table_t *probe)
{
    char *list = NULL;
    if (!append(&list, "%s", ""))
        return NULL;
    for (size_t i = 0; i < probe->nrows; i++) {
        const probe_speed_row_t *r = &probe->rows[i];
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(probe->rows[j].target, r->target) != 0;
        if (!first || probe_target_used(a, r->target))
            continue;
        if (!append(&list, "%s'%s' (%s)", list[0] ? ", " : "", r->target,
                    r->dir[0] ? r->dir : "no directory recorded"))
            return NULL;
    }
    return list;
}

int match_notes(analysis_t *a, const probe_table_t *probe)
{
    if (probe == NULL)
        return CP_OK;
    const char *runs_path = a->runs_path, *probe_path = a->probe_path;
    char *unmatched = NULL;
    int rc = CP_OK;
    for (size_t i = 0; i < a->nseries && rc == CP_OK; i++) {
        const analysis_series_t *s = &a->series[i];
        if (s->probe_cap_ignored) {
            char *text = NULL;
            rc = add_note(a, true, append(&text, "target '%s', series %s: %s measured the "
                                          "volume through an emulated cap, which paces "
                                          "chokepoint's own reads and writes, not a "
                                          "command's; no write or read speed is known for "
                                          "this series (probe the volume without the cap, "
                                          "or slow it for real with a lab volume)",
                                          s->name, s->run_codec, probe_path) ? text : NULL);
            continue;
        }
        bool first = !s->cpu_ceiling;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(a->series[j].name, s->name) != 0 || a->series[j].probe_cap_ignored;
        if (!first)
            continue;
        char *text = NULL;
        if (s->probe_target[0] == '\0') {
            if (unmatched == NULL && (unmatched = unmatched_probe_targets(a, probe)) == NULL)
                return CP_ENOMEM;
            if (append(&text, "target '%s' in %s (%s) matches no probe target by name or "
                       "directory, so no write or read speed is known for it; ", s->name,
                       runs_path, s->dir[0] ? s->dir : "no directory recorded") &&
                append(&text, unmatched[0] ? "left unmatched in %s: %s" :
                       "%s has no target left unmatched%s", probe_path, unmatched) &&
                append(&text, " (name a target the same in both, or probe the same "
                       "directory)"))
                rc = add_note(a, true, text);
            else
                rc = CP_ENOMEM;
        } else if (strcmp(s->probe_target, s->name) != 0) {
            rc = add_note(a, false, append(&text, "target '%s' in %s takes its speeds from "
                                           "probe target '%s' in %s: the same directory, %s",
                                           s->name, runs_path, s->probe_target, probe_path,
                                           s->dir) ? text : NULL);
        }
    }
    free(unmatched);
    return rc;
}

/* One note per probe target whose figures the analysis uses and are rough: its
 * repetitions at the largest size spread more than the tolerance, or fall into two
 * groups, or its reads were bound by the kernel's own work; and per series whose own runs
 * read their input faster than the read ceiling they are held to. Each in a few words
 * with what to do, the figures in the detail. */
int probe_noise_notes(analysis_t *a, const probe_table_t *probe, double tolerance)
{
    if (probe == NULL)
        return CP_OK;
    int rc = CP_OK;
    static const struct { probe_speed_op_t op; const char *what; } ops[] = {
        {PROBE_OP_WRITE, "writes"}, {PROBE_OP_READ, "reads"},
    };
    for (size_t i = 0; i < probe->nrows && rc == CP_OK; i++) {
        const char *name = probe->rows[i].target;
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(probe->rows[j].target, name) != 0;
        if (!first || !probe_target_used(a, name))
            continue;
        char *text = NULL, *detail = NULL;
        bool spread = false, modes_found = false, ok = append(&text, "%s", "") &&
                                                       append(&detail, "%s", "");
        for (size_t k = 0; k < sizeof ops / sizeof ops[0] && ok; k++) {
            double lo, hi, mid = probe_table_speed(probe, name, ops[k].op);
            size_t n;
            probe_modes_t modes;
            if (probe_table_two_modes(probe, name, ops[k].op, &modes)) {
                modes_found = true;
                ok = append(&text, "%s%s in two groups (%.0f, %.0f MB/s)",
                            text[0] ? ", " : "", ops[k].what, modes.low / 1e6,
                            modes.high / 1e6) &&
                     append(&detail, "%sits %s at the largest size fall into two groups, %zu "
                            "at about %.0f MB/s and %zu at about %.0f MB/s: two regimes, not "
                            "noise around one speed, so their %.0f MB/s median stands for "
                            "neither; more --reps will not settle it (docs/method.md, "
                            "\"Probe\"); probe with --sync direct for one speed",
                            detail[0] ? "; " : "", ops[k].what, modes.n_low, modes.low / 1e6,
                            modes.n_high, modes.high / 1e6, mid / 1e6);
                continue;
            }
            if (!probe_table_spread(probe, name, ops[k].op, &lo, &hi, &n) || n < 2 ||
                !((hi - lo) > tolerance * mid))
                continue;
            spread = true;
            ok = append(&text, "%s%s spread %.0f%%", text[0] ? ", " : "", ops[k].what,
                        100.0 * (hi - lo) / mid) &&
                 append(&detail, "%sits %s at the largest size spread %.0f%% (%.0f to %.0f "
                        "MB/s over %zu runs), more than the %.0f%% tolerance: the %.0f MB/s "
                        "median is noisy", detail[0] ? "; " : "", ops[k].what,
                        100.0 * (hi - lo) / mid, lo / 1e6, hi / 1e6, n, 100.0 * tolerance,
                        mid / 1e6);
        }
        size_t nread, bound = ok ? probe_table_kernel_bound(probe, name, &nread) : 0;
        if (bound > 0)
            ok = append(&text, "%s%zu of %zu reads bound by the kernel", text[0] ? ", " : "",
                        bound, nread) &&
                 append(&detail, "%s%zu of its %zu reads at the largest size were bound by "
                        "the kernel's own work, not the device: %.1f s or more of system time "
                        "per GB and blocked on I/O under a quarter of the read (on a virtual "
                        "machine, pages the host takes back fault in as the cache fills; "
                        "docs/method.md, \"Probe\"); its read speed is the machine's, not "
                        "the disk's", detail[0] ? "; " : "", bound, nread,
                        PROBE_KERNEL_SYS_S_PER_GB);
        if (ok && text[0] == '\0') {
            free(text);
            free(detail);
            continue;
        }
        char *line = NULL, *full = NULL;
        ok = ok &&
             append(&line, "probe target '%s': %s; %s.", name, text,
                    modes_found ? "probe with --sync direct for one speed"
                    : spread    ? "rough speeds: probe again with more --reps"
                                : "its reads are the machine's, not the disk's") &&
             append(&full, "probe target '%s': %s", name, detail);
        free(text);
        free(detail);
        rc = ok ? add_probe_note(a, line, full) : (free(line), free(full), CP_ENOMEM);
    }
    for (size_t i = 0; i < a->nseries && rc == CP_OK; i++) {
        const analysis_series_t *s = &a->series[i];
        if (s->decompress || !(s->read_ceiling_bps > 0.0))
            continue;
        double best = 0.0;
        for (size_t k = 0; k < s->npoints; k++)
            best = fmax(best, s->points[k].bytes_per_s);
        if (!(best > (1.0 + tolerance) * s->read_ceiling_bps))
            continue;
        char *text = NULL, *detail = NULL;
        bool ok = append(&text, "%s (%s) read its input at up to %.0f MB/s, above the %.0f "
                         "MB/s read ceiling of '%s': that ceiling is too low; read it with "
                         "care.", s->name, s->run_codec, best / 1e6,
                         s->read_ceiling_bps / 1e6, s->read_from) &&
                  append(&detail, "%s (%s) read its input at up to %.0f MB/s, faster than "
                         "the %.0f MB/s read ceiling of '%s' it is held to: that ceiling is "
                         "too low (a noisy probe, or input pages still cached), so read it "
                         "with care", s->name, s->run_codec, best / 1e6,
                         s->read_ceiling_bps / 1e6, s->read_from);
        rc = ok ? add_probe_note(a, text, detail) : (free(text), free(detail), CP_ENOMEM);
    }
    return rc;
}
