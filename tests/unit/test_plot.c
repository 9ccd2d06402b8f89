/* test_plot.c - the gnuplot driver without gnuplot: format parsing, string quoting, the
 * registry of plots, the data files and captions for a small synthetic analysis, and
 * report.md. Counts of plots come from the registry (plot_kinds.h), so a new plot needs
 * no change here unless these fixtures leave it out. */
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/analysis.h"
#include "report/analysis_text.h"
#include "report/figure_text.h"
#include "report/plot.h"
#include "report/plot_kinds.h"
#include "tables/runs_csv.h"
#include "report/report_md.h"

/* mem scales perfectly (100, 200, 400 MB/s); slow stops at 160 MB/s. Output is half the
 * input, so slow's write ceiling is its 100 MB/s writes / 0.5 = 200 MB/s, which the CPU
 * rate reaches at T = 2. */
static const char runs_csv[] =
    "target,codec,threads,seconds,input_bytes,output_bytes,sync,emulated,rate_cap_bps\n"
    "mem,zstd:3,1,8,800000000,400000000,fsync,0,\n"
    "mem,zstd:3,2,4,800000000,400000000,fsync,0,\n"
    "mem,zstd:3,4,2,800000000,400000000,fsync,0,\n"
    "slow,zstd:3,1,8,800000000,400000000,fsync,1,100000000\n"
    "slow,zstd:3,2,5,800000000,400000000,fsync,1,100000000\n"
    "slow,zstd:3,4,5,800000000,400000000,fsync,1,100000000\n";

static const char probe_csv[] =
    "target,op,size_bytes,bytes_per_s\n"
    "slow,write,2000000,150000000\n"
    "slow,write,50000000,100000000\n"
    "slow,write,50000000,100000000\n"
    "slow,read,50000000,400000000\n";

typedef struct fixture {
    char dir[64];
    runs_table_t *runs;
    probe_table_t *probe;
    analysis_t *analysis;
    plot_set_t set;
} fixture_t;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static char *read_text(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static fixture_t *make(const char *runs, bool with_probe)
{
    fixture_t *fx = calloc(1, sizeof *fx);
    assert_non_null(fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/cp-test-plot.XXXXXX");
    assert_non_null(mkdtemp(fx->dir));
    cp_err_t err = {0};
    assert_int_equal(runs_table_load_buffer("runs.csv", runs, strlen(runs), &fx->runs, &err), 0);
    if (with_probe)
        assert_int_equal(probe_table_load_buffer("probe.csv", probe_csv, strlen(probe_csv),
                                                 &fx->probe, &err), 0);
    analysis_options_t opts = analysis_defaults();
    assert_int_equal(analysis_run(fx->runs, fx->probe, &opts, &fx->analysis, &err), 0);
    /* No gnuplot: everything but the images is still produced. */
    setenv("CHOKEPOINT_GNUPLOT", "/nonexistent/gnuplot", 1);
    int rc = plot_render(fx->dir, fx->analysis, fx->probe, PLOT_PNG, false, &fx->set, &err);
    assert_int_equal(rc, 0);
    return fx;
}

static void destroy(fixture_t *fx)
{
    nftw(fx->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    analysis_free(fx->analysis);
    probe_table_free(fx->probe);
    runs_table_free(fx->runs);
    free(fx);
}

static const plot_file_t *find_plot(const plot_set_t *set, const char *name)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->plots[i].name, name) == 0)
            return &set->plots[i];
    return NULL;
}

/* The entry of set->skipped for the plot named name ("NAME: reason"), or NULL. */
static const char *find_skipped(const plot_set_t *set, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < set->nskipped; i++)
        if (strncmp(set->skipped[i], name, len) == 0 && set->skipped[i][len] == ':')
            return set->skipped[i];
    return NULL;
}

/* Every plot made has a row in the registry, and so a heading in report.md. */
static void assert_plots_registered(const plot_set_t *set)
{
    for (size_t i = 0; i < set->n; i++) {
        const plot_kind_t *k = plot_kind_find(set->plots[i].name);
        assert_non_null(k);
        assert_non_null(k->heading);
        assert_true(k->heading[0] != '\0');
        assert_true(set->plots[i].caption[0] != '\0');
    }
}

/* Every row of the registry is whole: a name of its own whose template is among the
 * templates, a heading, a writer and a caption; and the rows fit in a plot_set_t. */
static void test_registry_rows(void **state)
{
    (void)state;
    assert_true(plot_kinds_count > 0);
    assert_true(plot_kinds_count <= PLOT_MAX);
    char dir[4096];
    cp_err_t err = {0};
    assert_int_equal(plot_templates_dir(dir, sizeof dir, &err), 0);
    for (size_t i = 0; i < plot_kinds_count; i++) {
        const plot_kind_t *k = plot_kinds[i];
        assert_non_null(k->name);
        assert_true(k->name[0] != '\0');
        assert_true(strlen(k->name) < sizeof ((plot_file_t *)0)->name);
        assert_non_null(k->heading);
        assert_true(k->heading[0] != '\0');
        assert_non_null(k->write);
        assert_non_null(k->caption);
        assert_ptr_equal(plot_kind_find(k->name), k); /* no two rows share a name */
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.gp", dir, k->name);
        if (access(path, R_OK) != 0)
            fail_msg("plot %s: no template %s", k->name, path);
    }
    assert_null(plot_kind_find("no_such_plot"));
}

static void test_format_parse(void **state)
{
    (void)state;
    plot_format_t f = 0;
    cp_err_t err = {0};
    assert_int_equal(plot_format_parse("png", &f, &err), 0);
    assert_int_equal(f, PLOT_PNG);
    assert_int_equal(plot_format_parse("svg", &f, &err), 0);
    assert_int_equal(f, PLOT_SVG);
    assert_int_equal(plot_format_parse("both", &f, &err), 0);
    assert_int_equal(f, PLOT_BOTH);
    assert_int_equal(plot_format_parse("jpeg", &f, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "'jpeg'"));
}

static void test_gnuplot_quote(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(plot_gnuplot_quote("/tmp/it's here", out, sizeof out), 17);
    assert_string_equal(out, "'/tmp/it''s here'");
    /* Cut to fit, the literal is still closed: an open one would take in the next line. */
    char small[6];
    assert_int_equal(plot_gnuplot_quote("abcdefgh", small, sizeof small), 10);
    assert_string_equal(small, "'abc'");
    plot_gnuplot_quote("ab'cd", small, sizeof small);
    assert_string_equal(small, "'ab'");
    /* A line end would close the literal and run the next line as a command; no byte
     * below 0x20 (nor DEL) reaches the script. */
    plot_gnuplot_quote("evil\nsystem(\"touch pwned\")\n#\x1b]0;T\x07\x7f", out, sizeof out);
    assert_string_equal(out, "'evil?system(\"touch pwned\")?#?]0;T?" "?'");
    for (const char *p = out; *p; p++)
        assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
}

/* The polyline of block index (0-based) of a gnuplot data file at T, by linear
 * interpolation; NAN when T is outside it. */
static double curve_at(const char *text, size_t index, double T)
{
    char head[64];
    snprintf(head, sizeof head, "# index %zu:", index);
    const char *at = strstr(text, head);
    if (at == NULL)
        return NAN;
    at = strchr(at, '\n');
    double t0 = NAN, r0 = NAN, t1, r1;
    while (at != NULL && at[1] != '\0' && at[1] != '\n' && at[1] != '#') {
        if (sscanf(at + 1, "%lf %lf", &t1, &r1) != 2)
            return NAN;
        if (t1 == T)
            return r1;
        if (t0 < T && T < t1)
            return r0 + (r1 - r0) * (T - t0) / (t1 - t0);
        t0 = t1, r0 = r1;
        at = strchr(at + 1, '\n');
    }
    return NAN;
}

/* Every crossover marker lies on the curve of its series' model (model_rate.dat), within
 * 0.1%; returns how many were checked. */
static size_t crossovers_on_their_curves(const char *datadir)
{
    const char *text = read_text(datadir, "crossovers.dat"); /* read_text's one buffer */
    assert_non_null(text);
    char *cross = strdup(text);
    text = read_text(datadir, "model_rate.dat");
    assert_non_null(text);
    const char *curves = text;
    assert_non_null(cross);
    size_t checked = 0;
    for (const char *line = cross; line != NULL && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        double T, rate;
        size_t series;
        if (*line == '#' || sscanf(line, "%lf %lf %zu", &T, &rate, &series) != 3 || series == 0)
            continue;
        double on = curve_at(curves, series - 1, T);
        if (!(fabs(on - rate) <= 1e-3 * rate))
            fail_msg("crossover at T = %g, %g MB/s: its curve there is %g MB/s", T, rate, on);
        checked++;
    }
    free(cross);
    return checked;
}

static void test_data_files(void **state)
{
    (void)state;
    fixture_t *fx = make(runs_csv, true);
    assert_true(fx->set.gnuplot_missing);
    assert_non_null(strstr(fx->set.notice, "gnuplot not found (CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot)"));
    assert_non_null(strstr(fx->set.notice, "data in plot-data/"));

    char datadir[128];
    snprintf(datadir, sizeof datadir, "%s/plot-data", fx->dir);
    const char *points = read_text(datadir, "points.dat");
    assert_non_null(points);
    /* mem's block: T, median seconds, min, max, rate MB/s ..., runs, no prediction. */
    assert_non_null(strstr(points, "# index 0: mem (CPU only)\n1 8 8 8 100 100 100 1 NaN 0\n"
                                   "2 4 4 4 200 200 200 1 NaN 0\n4 2 2 2 400 400 400 1 NaN 0\n"));
    /* slow's predicted rate: its 100 MB/s cap paces 400 MB of output (4 s) beside mem's
     * 8, 4 and 2 s, the writes overlapping (no write-back thresholds in this table):
     * 800 MB in 8, 4 and 4 s = 100, 200, 200 MB/s. */
    assert_non_null(strstr(points, "\n\n\n# index 1: slow (emulated 100 MB/s)\n"
                                   "1 8 8 8 100 100 100 1 100 0\n2 5 5 5 160 160 160 1 200 0\n"
                                   "4 5 5 5 160 160 160 1 200 0\n"));

    /* The power law of mem is exact: t = 8 / T, so the curve passes 8 at T=1, 2 at T=4. */
    const char *fit = read_text(datadir, "time_fit.dat");
    assert_non_null(strstr(fit, "\n1 8\n"));
    assert_non_null(strstr(fit, "\n4 2\n"));

    const char *ceilings = read_text(datadir, "ceilings.dat");
    assert_non_null(strstr(ceilings, "slow write ceiling 200 MB/s (ratio 0.50, emulated cap)\n1 200\n"));
    /* The model's crossover: mem compresses 800 MB in 8 / T s; the cap writes the 400 MB
     * of output in 4 s, overlapped. At CPU speed the writes come within the 10% tolerance
     * of the compression when 4 >= 0.9 x 8 / T, at T = 1.8, where the model's time is
     * max(8 / 1.8, 4) = 4.44 s: 180 MB/s of input. */
    const char *cross = read_text(datadir, "crossovers.dat");
    assert_non_null(strstr(cross, "\n1.8 180 2\n"));
    /* ... on the model's curve for slow, which the plot draws, not between the lines. */
    assert_int_equal(crossovers_on_their_curves(datadir), 1);

    const char *probe = read_text(datadir, "probe.dat");
    assert_non_null(strstr(probe, "# index 0: slow write\n2 150 150 150 1\n50 100 100 100 2\n"));
    assert_non_null(strstr(probe, "# index 1: slow read\n50 400 400 400 1\n"));

    const char *rvw = read_text(datadir, "rate_vs_write.dat");
    assert_non_null(strstr(rvw, "\n100 160 4 0.5 400\n"));

    const char *vars = read_text(datadir, "vars.gp");
    assert_non_null(strstr(vars, "measured = 'one run per point, fsync''d'\n"));
    assert_non_null(strstr(vars, "n_series_title = 2\n"));
    assert_non_null(strstr(vars, "series_title[2] = 'slow (emulated 100 MB/s)'\n"));
    assert_non_null(strstr(vars, "power_eq[1] = 'time = 8 / T^1 s'\n"));
    assert_non_null(strstr(vars, "cross_label[1] = 'slow: the disk writing from T = 1.8'\n"));
    assert_non_null(strstr(vars, "bottleneck_title = 'Where the disk takes over: "));
    assert_non_null(strstr(vars, "n_probe_write_title = 1\n"));
    /* slow's probe rows carry no cap here: neither curve is labelled emulated. */
    assert_non_null(strstr(vars, "probe_read_title[1] = 'slow read'\n"));
    destroy(fx);
}

/* A plot key's equations are in the rate axis' unit (MB/s), whatever the magnitude, and so
 * are the text report's: one fit reads the same everywhere. */
static void test_key_equations_in_axis_unit(void **state)
{
    (void)state;
    fit_result_t m;
    memset(&m, 0, sizeof m);
    m.kind = FIT_LINEAR_RATE;
    m.fitted = true;
    m.param[0] = 4.6e7;
    m.param[1] = 2.64e8;
    char buf[128];
    assert_string_equal(analysis_format_model(&m, buf, sizeof buf),
                        "rate = 46 + 264 x T MB/s");
    assert_string_equal(analysis_format_model_in(&m, 1e6, "MB/s", buf, sizeof buf),
                        "rate = 46 + 264 x T MB/s");
}

static void test_captions(void **state)
{
    (void)state;
    fixture_t *fx = make(runs_csv, true);
    /* Every plot is drawn or told left out, but probe_sustained: this probe has no
     * sustained rows, and that plot is left out without a word. */
    assert_plots_registered(&fx->set);
    assert_null(find_plot(&fx->set, "probe_sustained"));
    assert_null(find_skipped(&fx->set, "probe_sustained"));
    assert_int_equal(fx->set.n + fx->set.nskipped, plot_kinds_count - 1);
    assert_non_null(find_skipped(&fx->set, "time_split"));
    const plot_file_t *p = find_plot(&fx->set, "time_vs_threads");
    assert_non_null(p);
    assert_string_equal(p->caption, "mem scales best, as time = 8 / T^1 s (doubling threads "
                        "cuts time by 50%), and slow worst, as time = 7.4 / T^0.339 s "
                        "(doubling threads cuts time by 21%).");
    p = find_plot(&fx->set, "bottleneck");
    assert_non_null(p);
    assert_string_equal(p->caption, "slow (write ceiling 200 MB/s) starts to limit the job at "
                        "T = 1.8, so from 2 threads on the volume sets the time.");
    p = find_plot(&fx->set, "probe");
    assert_non_null(p);
    assert_string_equal(p->caption, "At the largest file size, slow writes 100 MB/s and reads "
                        "400 MB/s.");
    p = find_plot(&fx->set, "rate_vs_write");
    assert_non_null(p);
    assert_string_equal(p->caption, "At 4 threads, slow (writing 100 MB/s) compresses at "
                        "160 MB/s, against a CPU ceiling of 400 MB/s.");
    /* Nothing was drawn. */
    for (size_t i = 0; i < fx->set.n; i++)
        assert_string_equal(fx->set.plots[i].files[0], "");
    destroy(fx);
}

static void test_without_probe(void **state)
{
    (void)state;
    fixture_t *fx = make(runs_csv, false);
    /* slow's runs record the emulated 100 MB/s cap that paced them: without a probe that
     * cap is still its write speed, so the bottleneck and rate-against-write plots are
     * drawn for it; only the probe's own plot has nothing to show. */
    assert_plots_registered(&fx->set);
    assert_int_equal(fx->set.n + fx->set.nskipped, plot_kinds_count - 1);
    assert_non_null(find_plot(&fx->set, "time_vs_threads"));
    assert_non_null(find_plot(&fx->set, "rate_vs_threads"));
    assert_non_null(find_plot(&fx->set, "bottleneck"));
    assert_non_null(find_plot(&fx->set, "rate_vs_write"));
    assert_null(find_plot(&fx->set, "probe"));
    assert_null(find_plot(&fx->set, "time_split"));
    assert_string_equal(find_skipped(&fx->set, "probe"), "probe: no probe.csv");
    assert_non_null(strstr(find_skipped(&fx->set, "time_split"),
                           "time_split: no run recorded its critical path"));
    destroy(fx);
    /* A table without the cap column has no volume speed at all. */
    static const char uncapped[] =
        "target,codec,threads,seconds,input_bytes,output_bytes\n"
        "mem,zstd:3,1,8,800000000,400000000\nmem,zstd:3,2,4,800000000,400000000\n"
        "disk,zstd:3,1,8,800000000,400000000\ndisk,zstd:3,2,5,800000000,400000000\n";
    fx = make(uncapped, false);
    assert_int_equal(fx->set.n + fx->set.nskipped, plot_kinds_count - 1);
    assert_null(find_plot(&fx->set, "bottleneck"));
    assert_null(find_plot(&fx->set, "rate_vs_write"));
    assert_non_null(strstr(find_skipped(&fx->set, "bottleneck"), "bottleneck: no probe.csv"));
    assert_non_null(strstr(find_skipped(&fx->set, "rate_vs_write"),
                           "rate_vs_write: no probe.csv"));
    destroy(fx);
}

/* Where the time went, by hand: disk at T = 2 ran 5 s, along its critical path 1 s for
 * the codec, 0.5 s for a core, 0.25 s for the writer on a core, 0.25 s for reads and 2.5 s
 * for writes: 0.5 s none. The bar is that, not the T + 2 threads' average. The T = 1 point
 * has no critical path: it is not split. */
static void test_time_split_by_hand(void **state)
{
    (void)state;
    static const char runs[] =
        "target,codec,threads,seconds,input_bytes,output_bytes,cpu_user_s,cpu_sys_s,"
        "cpu_wait_s,io_wait_s,io_read_wait_s,io_wait_source,path_compute_s,path_core_wait_s,"
        "path_io_cpu_s,path_read_blocked_s,path_write_blocked_s\n"
        "mem,zstd:3,1,8,800000000,400000000,7.9,0.1,0.1,0.05,0.05,delayacct,7,0.5,0.1,0,0\n"
        "disk,zstd:3,1,9,800000000,400000000,7.9,0.5,0.2,0.9,,psi-system,,,,,\n"
        "disk,zstd:3,2,5,800000000,400000000,6,2,1,6,1,delayacct,1,0.5,0.25,0.25,2.5\n";
    fixture_t *fx = make(runs, false);
    const plot_file_t *p = find_plot(&fx->set, "time_split");
    assert_non_null(p);
    char data[256];
    snprintf(data, sizeof data, "%s/plot-data", fx->dir);
    const char *text = read_text(data, "time_split.dat");
    assert_non_null(text);
    assert_non_null(strstr(text, "\n7 0.5 0.1 0 0 0.4 8 1\n"));
    assert_non_null(strstr(text, "\n1 0.5 0.25 0.25 2.5 0.5 5 2\n"));
    assert_null(strstr(text, " 9 1\n")); /* disk at T = 1: not split */
    const char *vars = read_text(data, "vars.gp");
    assert_non_null(strstr(vars, "n_ts_label = 2"));
    assert_non_null(strstr(vars, "ts_label[2] = 'disk T=2'"));
    assert_non_null(strstr(p->caption, "disk at 2 threads: 5.000 s, 50% waiting for writes, "
                                       "5% for reads, 20% for the codec"));
    destroy(fx);
}

/* Two codecs whose rates differ a hundredfold: each gets its own panel, its own y range
 * and its own block of bars; the bottleneck and time split subtitles promise no min-max
 * bars, which they do not draw. */
static void test_two_codecs_one_panel_each(void **state)
{
    (void)state;
    static const char runs[] =
        "target,codec,threads,rep,seconds,input_bytes,output_bytes,sync,cpu_user_s,cpu_sys_s,"
        "cpu_wait_s,io_wait_s,io_read_wait_s,io_wait_source\n"
        "mem,zstd:3,1,1,4,800000000,400000000,fsync,3.9,0.1,0.1,0.05,0.05,delayacct\n"
        "mem,zstd:3,1,2,4,800000000,400000000,fsync,3.9,0.1,0.1,0.05,0.05,delayacct\n"
        "slow,zstd:3,1,1,8,800000000,400000000,fsync,3.9,0.5,0.2,4,0.1,delayacct\n"
        "slow,zstd:3,1,2,8,800000000,400000000,fsync,3.9,0.5,0.2,4,0.1,delayacct\n"
        "mem,xz:6,1,1,400,800000000,300000000,fsync,399,1,1,0.05,0.05,delayacct\n"
        "mem,xz:6,1,2,400,800000000,300000000,fsync,399,1,1,0.05,0.05,delayacct\n"
        "slow,xz:6,1,1,401,800000000,300000000,fsync,399,1,1,0.5,0.1,delayacct\n"
        "slow,xz:6,1,2,401,800000000,300000000,fsync,399,1,1,0.5,0.1,delayacct\n";
    fixture_t *fx = make(runs, true);
    char data[256];
    snprintf(data, sizeof data, "%s/plot-data", fx->dir);
    const char *vars = read_text(data, "vars.gp");
    assert_non_null(strstr(vars, "n_codec_name = 2\n"));
    assert_non_null(strstr(vars, "measured = 'median of 2 runs, bars min to max, fsync''d'\n"));
    assert_non_null(strstr(vars, "measured_nobars = 'median of 2 runs, fsync''d'\n"));
    const char *xz = strstr(vars, "codec_name[1] = 'xz:6'") ? "1" : "2";
    char key[64];
    snprintf(key, sizeof key, "panel_ymax[%s] = ", xz);
    double xz_top = atof(strstr(vars, key) + strlen(key));
    snprintf(key, sizeof key, "panel_ymax[%s] = ", xz[0] == '1' ? "2" : "1");
    double zstd_top = atof(strstr(vars, key) + strlen(key));
    /* xz: 2 MB/s at most, its ceiling of 100 MB/s / 0.375 far above it; zstd: 200 MB/s. */
    assert_true(xz_top > 2.0 && xz_top < 10.0);
    assert_true(zstd_top > 200.0);
    assert_non_null(strstr(vars, "n_ts_first = 2\n"));
    const char *split = read_text(data, "time_split.dat");
    assert_non_null(strstr(split, "# index 0: "));
    assert_non_null(strstr(split, "\n\n\n# index 1: "));
    destroy(fx);
}

static void test_oversubscribed_points_marked(void **state)
{
    (void)state;
    /* Two CPUs online: the point at 4 threads is oversubscribed, the others are not. */
    static const char runs[] = "target,threads,seconds,input_bytes,online_cpus\n"
                               "mem,1,4,100,2\nmem,2,2,100,2\nmem,4,2,100,2\n";
    fixture_t *fx = make(runs, false);
    char datadir[128];
    snprintf(datadir, sizeof datadir, "%s/plot-data", fx->dir);
    const char *points = read_text(datadir, "points.dat");
    assert_non_null(strstr(points, "\n1 4 4 4 "));
    assert_non_null(strstr(points, " 1 NaN 0\n2 2 2 2 "));
    assert_non_null(strstr(points, " 1 NaN 0\n4 2 2 2 "));
    assert_non_null(strstr(points, " 1 NaN 1\n"));
    const char *vars = read_text(datadir, "vars.gp");
    assert_non_null(strstr(vars, "n_oversubscribed = 1\n"));
    destroy(fx);
}

static void test_quotes_in_names(void **state)
{
    (void)state;
    static const char runs[] = "target,threads,seconds,input_bytes\n"
                               "\"it's\",1,4,100\n\"it's\",2,2,100\n";
    fixture_t *fx = make(runs, false);
    char datadir[128];
    snprintf(datadir, sizeof datadir, "%s/plot-data", fx->dir);
    const char *vars = read_text(datadir, "vars.gp");
    assert_non_null(strstr(vars, "series_title[1] = 'it''s'\n"));
    assert_non_null(strstr(vars, "codec = ''\n"));
    destroy(fx);
}

static void test_report_markdown(void **state)
{
    (void)state;
    fixture_t *fx = make(runs_csv, false);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(report_markdown_write(out, fx->analysis, &fx->set), 0);
    fclose(out);
    assert_non_null(strstr(text, "## slow (zstd:3, emulated 100 MB/s cap)"));
    assert_non_null(strstr(text, "\n## Plots\n"));
    assert_non_null(strstr(text, "gnuplot could not be run"));
    assert_non_null(strstr(text, "- Time against threads: mem scales best"));
    assert_non_null(strstr(text, "- probe: no probe.csv"));
    /* Every plot made is listed under its registry heading. */
    for (size_t i = 0; i < fx->set.n; i++) {
        char item[256];
        snprintf(item, sizeof item, "- %s: %s\n", plot_kind_find(fx->set.plots[i].name)->heading,
                 fx->set.plots[i].caption);
        assert_non_null(strstr(text, item));
    }
    free(text);

    /* With images: a relative link and the caption under it. */
    snprintf(fx->set.plots[0].files[0], sizeof fx->set.plots[0].files[0], "%s/time_vs_threads.png",
             fx->dir);
    fx->set.gnuplot_missing = false;
    out = open_memstream(&text, &len);
    assert_int_equal(report_markdown_write(out, fx->analysis, &fx->set), 0);
    fclose(out);
    assert_non_null(strstr(text, "### Time against threads\n\n![Time against threads]"
                                 "(time_vs_threads.png)\n\nmem scales best"));
    free(text);
    destroy(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_rows),
        cmocka_unit_test(test_format_parse),
        cmocka_unit_test(test_gnuplot_quote),
        cmocka_unit_test(test_data_files),
        cmocka_unit_test(test_captions),
        cmocka_unit_test(test_key_equations_in_axis_unit),
        cmocka_unit_test(test_without_probe),
        cmocka_unit_test(test_oversubscribed_points_marked),
        cmocka_unit_test(test_quotes_in_names),
        cmocka_unit_test(test_time_split_by_hand),
        cmocka_unit_test(test_two_codecs_one_panel_each),
        cmocka_unit_test(test_report_markdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
