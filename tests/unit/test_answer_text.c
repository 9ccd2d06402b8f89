/* Every sentence the answer can give for a target, enumerated: each cause with each
 * second cause through the model's one mapping (verdict_of_causes), compressions and
 * decompressions, emulated caps and real disks, a memory ceiling and an estimated one (the
 * target its own ceiling or another's), each way a volume verdict's advice or a CPU
 * verdict's outlook can go, each reason a point is unexplained, and a study too imprecise
 * to judge. None may name one thing twice ("the CPU and the CPU"), contradict its own
 * verdict, or run past 45 words; the notes under the answer keep to 30. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/analysis.h"
#include "model/cause.h"
#include "report/answer_text.h"

#define MAX_WORDS 45
#define MAX_NOTE_WORDS 30

typedef struct world {
    analysis_t a;
    analysis_series_t s[2]; /* s[0]: the mem series; s[1]: the target judged */
    analysis_point_t p[2][2];
    analysis_verdict_t v[2][2];
    analysis_ceiling_t c;
    int threads[2];
    double rates[2];
} world_t;

static size_t count_words(const char *text)
{
    size_t n = 0;
    bool in = false;
    for (const char *c = text; *c; c++) {
        bool space = *c == ' ' || *c == '\t' || *c == '\n';
        n += !space && !in;
        in = !space;
    }
    return n;
}

/* True when some run of one to four words stands on both sides of an " and " ("the CPU
 * and the CPU", "the disk and the disk"). */
static bool names_twice(const char *text)
{
    char copy[2048], *words[400];
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *w = strtok(copy, " ,;:.()"); w != NULL && n < 400; w = strtok(NULL, " ,;:.()"))
        words[n++] = w;
    for (size_t i = 1; i + 1 < n; i++) {
        if (strcmp(words[i], "and") != 0)
            continue;
        for (size_t len = 1; len <= 4 && len <= i && i + len < n; len++) {
            bool same = true;
            for (size_t k = 0; k < len && same; k++)
                same = strcmp(words[i - len + k], words[i + 1 + k]) == 0;
            if (same)
                return true;
        }
    }
    return false;
}

/* The side a cause puts in the sentence's subject. */
static const char *side_of(verdict_cause_t cause)
{
    switch (cause_verdict(cause)) {
    case VERDICT_CPU: return "the CPU";
    case VERDICT_WRITE: return "the disk";
    case VERDICT_READ: return "reading the";
    default: return NULL;
    }
}

static void build(world_t *w, bool decompress, bool capped, bool estimated, bool own)
{
    memset(w, 0, sizeof *w);
    w->threads[0] = 1, w->threads[1] = 2;
    w->rates[0] = 5e8, w->rates[1] = 1e9;
    w->c.npoints = 2;
    w->c.threads = w->threads;
    w->c.bytes_per_s = w->rates;
    w->c.estimated = estimated;
    w->c.best_rate_model = 0;
    w->a.tolerance = 0.10;
    w->a.series = w->s;
    w->a.nseries = 2;
    w->a.ceilings = &w->c;
    w->a.nceilings = 1;
    for (int i = 0; i < 2; i++) {
        analysis_series_t *s = &w->s[i];
        snprintf(s->name, sizeof s->name, "%s", i == 0 ? "mem" : "usb");
        snprintf(s->codec, sizeof s->codec, "%s", decompress ? "zstd:3 decompression" : "zstd:3");
        snprintf(s->sync, sizeof s->sync, "fsync");
        s->cpu_ceiling = i == 0;
        s->decompress = decompress;
        s->points = w->p[i];
        s->verdicts = w->v[i];
        s->npoints = 2;
        s->rate_cap_bps = capped && i == 1 ? 4e7 : NAN;
        s->read_cap_bps = NAN;
        s->write_ceiling_bps = s->read_ceiling_bps = s->write_speed_bps = NAN;
        s->output_ratio = 0.4;
        s->whatif_write_bps = s->whatif_read_bps = s->whatif_seconds = NAN;
        s->whatif_direct_bps = NAN;
        s->whatif_blocked_by = TERM_COUNT;
        s->crossover_threads = s->crossover_lo = s->crossover_hi = NAN;
        s->crossover_rate_bps = NAN;
        s->crossover_model = 0;
        s->crossover_limit = VERDICT_WRITE;
        s->crossover_term = s->crossover_lead = TERM_COUNT;
        for (int k = 0; k < 2; k++) {
            analysis_point_t *p = &w->p[i][k];
            analysis_verdict_t *v = &w->v[i][k];
            p->threads = k + 1;
            p->n = 3;
            p->input_bytes = 1e9;
            p->seconds = i == 0 ? 1e9 / w->rates[k] : 2.0 / (k + 1);
            if (estimated && !own && i == 1)
                p->seconds *= 2.0; /* slower than the fastest, the ceiling */
            p->bytes_per_s = p->input_bytes / p->seconds;
            v->threads = k + 1;
            v->cpu_ceiling_bps = w->rates[k];
            v->cpu_ceiling_source = estimated ? CEILING_ESTIMATED : CEILING_MEM;
            v->fastest = own && i == 1 ? "usb" : "mem";
            v->evidence.predicted_s = 1.6;
            v->verdict = VERDICT_CPU;
            v->cause = CAUSE_COMPUTE;
            v->second_cause = CAUSE_UNKNOWN;
        }
    }
    if (estimated) {
        w->a.nseries = 1; /* no memory runs: the ceiling is the fastest target's */
        w->a.series = &w->s[1];
    }
}

/* The ways the advice after a volume verdict goes: a speed that would do (write, read,
 * with --sync direct's lower speed), or what remains when none does. */
static void set_whatif(analysis_series_t *s, int way)
{
    s->whatif_threads = 2;
    s->whatif_seconds = 1.1;
    s->write_ceiling_bps = 5e8;
    s->write_speed_bps = 2e8;
    switch (way) { /* 0, 1, 3, 5, 6: the write side's; 2, 4: the read side's */
    case 0: s->whatif_write_bps = 1.65e9; s->whatif_direct_bps = 1.7e8; break;
    case 1: s->whatif_write_bps = 4e8; break;
    case 2: s->whatif_read_bps = 6e8; break;
    case 3: s->whatif_seconds = NAN; s->whatif_blocked_by = TERM_IO_CPU; break;
    case 4: s->whatif_seconds = NAN; s->whatif_blocked_by = TERM_READ; break;
    case 6: s->whatif_seconds = NAN; s->whatif_blocked_by = TERM_WRITE; break;
    default: s->whatif_seconds = NAN; s->whatif_direct_bps = 1.7e8; break;
    }
}

/* The ways a CPU verdict's outlook goes: the disk's speed unknown, no model, a crossing
 * within reach (the disk's, reading's, writing's CPU work's), one beyond it, none. */
static void set_outlook(analysis_series_t *s, int way)
{
    s->write_ceiling_bps = 5e8;
    s->read_ceiling_bps = 2e9;
    switch (way) {
    case 0: s->write_ceiling_bps = s->read_ceiling_bps = NAN; break;
    case 1: s->crossover_model = -1; break;
    case 2: s->crossover_threads = 5.3; break;
    case 3: s->crossover_threads = 5.3; s->crossover_limit = VERDICT_READ; break;
    case 4: s->crossover_threads = 40.0; break;
    case 5: s->crossover_threads = 1.5; break;
    case 6: s->crossover_threads = 5.3; s->crossover_lead = TERM_IO_CPU; break;
    default: break;
    }
}

static const verdict_cause_t causes[] = {
    CAUSE_COMPUTE, CAUSE_CORES_SATURATED, CAUSE_CPU_CONTENTION, CAUSE_FLUSH_TAIL,
    CAUSE_WRITE_THROUGHPUT, CAUSE_READ_THROUGHPUT, CAUSE_UNKNOWN,
};
#define NCAUSES (sizeof causes / sizeof causes[0])

/* Checks one sentence against its verdict; returns 1 (counted) when it was checked. */
static size_t check_sentence(const world_t *w, const char *text)
{
    const analysis_series_t *s = &w->s[1];
    const analysis_verdict_t *v = &s->verdicts[1];
    char head[300];
    snprintf(head, sizeof head, "usb (%s): ", s->codec);
    if (count_words(text) > MAX_WORDS || names_twice(text) ||
        strncmp(text, head, strlen(head)) != 0)
        fail_msg("%zu words, or a thing named twice, or no name: %s", count_words(text), text);
    const char *rest = text + strlen(head);
    bool own = v->cpu_ceiling_source == CEILING_ESTIMATED && strcmp(v->fastest, "usb") == 0;
    if (own) {
        if (strncmp(rest, "the fastest target, the ceiling", 31) != 0 ||
            strstr(text, "together") != NULL)
            fail_msg("the target its own ceiling: %s", text);
        return 1;
    }
    switch (v->verdict) {
    case VERDICT_BALANCED: {
        const char *one = side_of(v->cause), *two = side_of(v->second_cause);
        if (one == NULL || two == NULL || strcmp(one, two) == 0 ||
            strncmp(rest, one, strlen(one)) != 0 || strstr(rest, " and ") == NULL ||
            strstr(strstr(rest, " and ") + 5, two) != strstr(rest, " and ") + 5 ||
            strstr(rest, "together set the time") == NULL)
            fail_msg("balanced (%s + %s): %s", cause_name(v->cause),
                     cause_name(v->second_cause), text);
        break;
    }
    case VERDICT_CPU:
    case VERDICT_WRITE:
    case VERDICT_READ:
        if (strncmp(rest, side_of(v->cause), strlen(side_of(v->cause))) != 0 ||
            strstr(rest, " sets the time") == NULL || strstr(text, "together") != NULL)
            fail_msg("%s (%s): %s", verdict_name(v->verdict), cause_name(v->cause), text);
        /* A CPU verdict never advises a faster disk; a volume's never more cores alone. */
        if (v->verdict == VERDICT_CPU && strstr(rest, "would take 1") != NULL)
            fail_msg("a CPU verdict with a disk's advice: %s", text);
        break;
    case VERDICT_UNEXPLAINED:
        if (strncmp(rest, "unexplained", 11) != 0 || strstr(text, "sets the time") != NULL)
            fail_msg("unexplained: %s", text);
        break;
    case VERDICT_NOT_JUDGED:
        if (strncmp(rest, "not judged", 10) != 0 || strstr(text, "sets the time") != NULL ||
            strstr(text, "unexplained") != NULL)
            fail_msg("not judged: %s", text);
        break;
    }
    /* Advice in a disk's words: never what a cap would do. */
    if (strstr(text, "a cap of") != NULL || strstr(text, "faster cap") != NULL ||
        (strstr(text, "no faster disk") != NULL && strstr(text, "cap remains") != NULL))
        fail_msg("advice in the emulation's words: %s", text);
    return 1;
}

static void test_every_sentence_names_each_thing_once_and_keeps_its_verdict(void **state)
{
    (void)state;
    static const cause_miss_t misses[] = {MISS_MODEL, MISS_BEYOND_VOLUME, MISS_NO_FIGURE,
                                          MISS_UNPROBED};
    size_t checked = 0, balanced = 0, same_kind = 0;
    world_t *w = malloc(sizeof *w);
    assert_non_null(w);
    char buf[1024];
    for (int dec = 0; dec < 2; dec++)
        for (int cap = 0; cap < 2; cap++)
            for (int ceil = 0; ceil < 3; ceil++)
                for (size_t i = 0; i < NCAUSES; i++)
                    for (size_t j = 0; j < NCAUSES; j++)
                        for (int way = 0; way < 7; way++)
                            for (size_t m = 0; m < 4; m++) {
                                build(w, dec, cap, ceil > 0, ceil == 2);
                                analysis_series_t *s = &w->s[1];
                                analysis_verdict_t *v = &s->verdicts[1];
                                if (way == 6 && dec == 0)
                                    snprintf(s->read_from, sizeof s->read_from, "src");
                                v->cause = causes[i];
                                v->second_cause = causes[j];
                                v->miss = causes[i] == CAUSE_UNKNOWN ? misses[m] : MISS_NONE;
                                if (causes[i] != CAUSE_UNKNOWN && m > 0)
                                    continue; /* misses only for an unexplained point */
                                if (causes[i] == CAUSE_UNKNOWN && causes[j] != CAUSE_UNKNOWN)
                                    continue; /* an unexplained point has no second */
                                v->verdict = verdict_of_causes(v->cause, v->second_cause);
                                if (causes[j] != CAUSE_UNKNOWN && causes[i] != CAUSE_UNKNOWN &&
                                    cause_verdict(causes[i]) == cause_verdict(causes[j]))
                                    same_kind += v->verdict != VERDICT_BALANCED;
                                balanced += v->verdict == VERDICT_BALANCED;
                                s->verdict = v->verdict;
                                bool volume = cause_verdict(v->cause) != VERDICT_CPU ||
                                              v->verdict == VERDICT_BALANCED;
                                /* The what-if the model asks: the write side's speed
                                 * for a write cause, the read side's for a read one. */
                                bool writes = cause_verdict(v->cause) == VERDICT_WRITE ||
                                              cause_verdict(v->second_cause) == VERDICT_WRITE;
                                static const int write_ways[] = {0, 1, 3, 5, 6}, read_ways[] = {2, 4};
                                if (v->cause != CAUSE_UNKNOWN && volume)
                                    set_whatif(s, writes ? write_ways[way % 5]
                                                         : read_ways[way % 2]);
                                else if (v->verdict == VERDICT_CPU)
                                    set_outlook(s, way);
                                checked += check_sentence(w, answer_sentence(&w->a, s, buf,
                                                                             sizeof buf));
                                /* The same point in a study too imprecise to judge it. */
                                if (v->verdict == VERDICT_UNEXPLAINED && v->miss == MISS_MODEL) {
                                    v->verdict = s->verdict = VERDICT_NOT_JUDGED;
                                    v->miss = MISS_NONE;
                                    w->a.precision.too_short = true;
                                    w->a.precision.short_runs = way % 2 == 0;
                                    checked += check_sentence(
                                        w, answer_sentence(&w->a, s, buf, sizeof buf));
                                }
                            }
    free(w);
    /* Two causes of one kind are that kind's verdict, never balanced against themselves. */
    assert_true(same_kind > 0);
    assert_true(balanced > 0);
    assert_true(checked > 1000);
}

/* A cause of the I/O path's CPU work beside the compute term is the cores' verdict. */
static void test_two_cpu_causes_are_cpu_bound_not_balanced(void **state)
{
    (void)state;
    assert_int_equal(verdict_of_causes(CAUSE_CORES_SATURATED, CAUSE_COMPUTE), VERDICT_CPU);
    assert_int_equal(verdict_of_causes(CAUSE_COMPUTE, CAUSE_CORES_SATURATED), VERDICT_CPU);
    assert_int_equal(verdict_of_causes(CAUSE_FLUSH_TAIL, CAUSE_WRITE_THROUGHPUT),
                     VERDICT_WRITE);
    assert_int_equal(verdict_of_causes(CAUSE_COMPUTE, CAUSE_FLUSH_TAIL), VERDICT_BALANCED);
    assert_int_equal(verdict_of_causes(CAUSE_READ_THROUGHPUT, CAUSE_FLUSH_TAIL),
                     VERDICT_BALANCED);
}

/* The notes under the answer keep to 30 words, each flag's and the study's own. */
static void test_every_note_keeps_to_30_words(void **state)
{
    (void)state;
    world_t *w = malloc(sizeof *w);
    assert_non_null(w);
    build(w, false, false, false, false);
    analysis_series_t *s = &w->s[1];
    s->write_speed_bps = 2e8;
    s->whatif_threads = 2;
    s->whatif_write_bps = 1.65e9;
    s->whatif_direct_bps = 1.7e8;
    for (int k = 0; k < 2; k++) {
        s->points[k].flags = POINT_OVERSUBSCRIBED | POINT_EFFICIENCY_HIGH | POINT_BEYOND_PROBE |
                             POINT_SINGLE_RUN_UNEXPLAINED | POINT_CPU_SPEED_MOVED;
        s->points[k].online_cpus = 2;
        s->points[k].output_bytes = 4e8;
        s->verdicts[k].efficiency = 1.27;
        s->verdicts[k].evidence.cpu_time_shift = -0.17;
        s->points[k].io_wait_system = true; /* delay accounting off, not root */
    }
    for (int shortness = 0; shortness < 3; shortness++) {
        w->a.precision = (analysis_precision_t){.points = 6, .reps = 2, .spread = 0.22,
                                                .run_s = shortness ? 0.12 : 4.5,
                                                .input_bytes = 16777216, .too_short = true,
                                                .short_runs = shortness > 0,
                                                .reps_needed = shortness == 2 ? 8 : 23,
                                                .input_needed_bytes = 16777216 * 11.5};
        char *text = NULL;
        size_t len = 0, lines = 0;
        FILE *out = open_memstream(&text, &len);
        assert_non_null(out);
        const doc_t text_doc = {.out = out, .style = &doc_style_text};
        size_t notes = answer_write_notes(&w->a, &text_doc, "! ", true);
        fclose(out);
        for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n"), lines++)
            if (count_words(line + 2) > MAX_NOTE_WORDS)
                fail_msg("%zu words: %s", count_words(line + 2), line);
        assert_int_equal(lines, notes);
        /* precision, the machine's I/O figures, five flags, buffered against direct */
        assert_int_equal(notes, 8);
        free(text);
    }
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_sentence_names_each_thing_once_and_keeps_its_verdict),
        cmocka_unit_test(test_two_cpu_causes_are_cpu_bound_not_balanced),
        cmocka_unit_test(test_every_note_keeps_to_30_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
