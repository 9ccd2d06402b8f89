/* plot_gnuplot.c - running gnuplot: where the program and the templates are, one
 * process per image with its output captured for the error message, the data directory
 * and the image handed to it as descriptors, and the image written to a temporary file
 * made by descriptor (common/owned_dir) renamed into place when complete. */
#include "report/plot_gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/sys.h"
#include "common/owned_dir.h"
#include "report/plot.h"


size_t plot_gnuplot_quote(const char *s, char *out, size_t cap)
{
    /* The literal's bytes, then whether they fit with the closing quote and the NUL. */
    size_t need = 2;
    for (const char *p = s; *p; p++)
        need += *p == '\'' ? 2 : 1;
    size_t n = 0;
    if (cap < 3) {
        if (cap > 0)
            out[0] = '\0';
        return need;
    }
    out[n++] = '\'';
    for (const char *p = s; *p; p++) {
        /* A line end would close the literal and begin a command: no byte below 0x20 (nor
         * DEL) reaches a script, whatever a reader let through. */
        unsigned char c = (unsigned char)*p;
        char shown = c < 0x20 || c == 0x7f ? '?' : *p;
        size_t width = shown == '\'' ? 2 : 1;
        if (n + width + 2 > cap) /* room for the closing quote and the NUL */
            break;
        out[n++] = shown;
        if (shown == '\'')
            out[n++] = '\'';
    }
    out[n++] = '\'';
    out[n] = '\0';
    return need;
}

const char *plot_gnuplot_program(void)
{
    const char *env = getenv("CHOKEPOINT_GNUPLOT");
    return env != NULL && env[0] != '\0' ? env : "gnuplot";
}

bool plot_gnuplot_found(const char *program)
{
    if (strchr(program, '/') != NULL)
        return access(program, X_OK) == 0;
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/usr/bin:/bin";
    char candidate[PATH_MAX];
    while (*path) {
        size_t len = strcspn(path, ":");
        if ((size_t)snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len,
                             len ? path : ".", program) < sizeof candidate &&
            access(candidate, X_OK) == 0)
            return true;
        path += len + (path[len] == ':');
    }
    return false;
}

static bool dir_has_templates(const char *dir)
{
    char probe[PATH_MAX];
    if ((size_t)snprintf(probe, sizeof probe, "%s/time_vs_threads.gp", dir) >= sizeof probe)
        return false;
    return access(probe, R_OK) == 0;
}

int plot_templates_dir(char *buf, size_t cap, cp_err_t *err)
{
    const char *env = getenv("CHOKEPOINT_PLOTS_DIR");
    if (env != NULL && env[0] != '\0') {
        if (!dir_has_templates(env))
            return cp_err_set(err, CP_EIO, "CHOKEPOINT_PLOTS_DIR=%s: no time_vs_threads.gp "
                              "there", env);
        snprintf(buf, cap, "%s", env);
        return 0;
    }
#ifdef CHOKEPOINT_PLOTS_DIR
    if (dir_has_templates(CHOKEPOINT_PLOTS_DIR)) {
        snprintf(buf, cap, "%s", CHOKEPOINT_PLOTS_DIR);
        return 0;
    }
#endif
    /* Relative to the executable: build/chokepoint, build/tests/X, or an installed
     * bin/chokepoint with share/chokepoint/plots beside it. */
    char exe[PATH_MAX];
    bool known = sys_executable_dir(exe, sizeof exe);
    if (known) {
        static const char *const rel[] = {"/../scripts/plots", "/../../scripts/plots",
                                          "/../share/chokepoint/plots"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            char dir[PATH_MAX];
            if ((size_t)snprintf(dir, sizeof dir, "%s%s", exe, rel[i]) < sizeof dir &&
                dir_has_templates(dir)) {
                char *real = realpath(dir, NULL);
                snprintf(buf, cap, "%s", real ? real : dir);
                free(real);
                return 0;
            }
        }
    }
    return cp_err_set(err, CP_EIO, "plot templates (scripts/plots/*.gp) not found near %s; "
                      "set CHOKEPOINT_PLOTS_DIR", known ? exe : "the executable");
}

/* The last non-blank line of gnuplot's output, for the error message. */
static void last_line(const char *text, char *out, size_t cap)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(out, cap, "%.*s", (int)(end - start), start);
    if (out[0] == '\0')
        snprintf(out, cap, "no message");
}

/* Runs gnuplot on one template. The data directory and the image are handed over as
 * descriptors, never by name: gnuplot gets data_fd as /dev/fd/3 (datadir, its vars.gp and
 * data files read through it) and out_fd as /dev/fd/4 (outfile), so a directory renamed
 * or swapped for a symlink meanwhile changes nothing gnuplot reads or writes. Returns
 * CP_OK, CP_EIO (message names the template) or CP_EINTR; CP_OK with *cannot_run set when
 * the program cannot be executed at all. */
static int run_gnuplot(const char *program, const char *template_path, const char *plotsdir,
                       int data_fd, int out_fd, const char *fmt, bool *cannot_run,
                       cp_err_t *err)
{
    char q_plots[PATH_MAX * 2 + 3];
    plot_gnuplot_quote(plotsdir, q_plots, sizeof q_plots);
    size_t elen = strlen(q_plots) + 120;
    char *expr = malloc(elen);
    if (expr == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    snprintf(expr, elen, "datadir='/dev/fd/3'; plotsdir=%s; outfile='/dev/fd/4'; fmt='%s'",
             q_plots, fmt);
    char *argv[] = {(char *)program, "-e", expr, (char *)template_path, NULL};

    int fds[2];
    if (sys_pipe_cloexec(fds) != 0) {
        free(expr);
        return cp_err_errno(err, CP_EIO, errno, "cannot create a pipe for gnuplot");
    }
    int pass[2] = {data_fd, out_fd};
    sys_spawn_opts_t how = {.path = NULL, .stdout_fd = fds[1], .stderr_fd = fds[1],
                            .pass_fds = pass, .n_pass_fds = 2};
    long pid;
    int spawn_rc = sys_spawn(argv, &how, &pid);
    close(fds[1]);
    free(expr);
    if (spawn_rc != 0) {
        close(fds[0]);
        *cannot_run = true;
        return CP_OK;
    }
    /* Keep the end of what gnuplot says: its error is the last line. */
    char output[4096];
    size_t have = 0;
    for (;;) {
        char chunk[1024];
        ssize_t got = read(fds[0], chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (have + (size_t)got >= sizeof output) {
            size_t drop = have + (size_t)got - (sizeof output - 1);
            drop = drop > have ? have : drop;
            memmove(output, output + drop, have - drop);
            have -= drop;
        }
        size_t take = (size_t)got < sizeof output - 1 - have ? (size_t)got : sizeof output - 1 - have;
        memcpy(output + have, chunk + (size_t)got - take, take);
        have += take;
    }
    output[have] = '\0';
    close(fds[0]);
    sys_exit_t ended;
    if (sys_wait(pid, &ended) != 0)
        return cp_err_errno(err, CP_EIO, errno, "%s: cannot wait for gnuplot", template_path);
    if (cp_interrupted())
        return cp_err_set(err, CP_EINTR, "interrupted");
    if (ended.exited && ended.code == 127 && have == 0) {
        *cannot_run = true;
        return CP_OK;
    }
    if (!ended.exited || ended.code != 0) {
        char line[300];
        last_line(output, line, sizeof line);
        return cp_err_set(err, CP_EIO, "%s: gnuplot failed (%s %d): %s", template_path,
                          ended.exited ? "exit" : "signal", ended.code, line);
    }
    return CP_OK;
}

int plot_gnuplot_draw(const plot_gnuplot_job_t *job, char *made, size_t cap,
                      bool *cannot_run, cp_err_t *err)
{
    *cannot_run = false;
    if (cap > 0)
        made[0] = '\0';
    char templ[PATH_MAX], final_name[NAME_MAX + 1];
    if ((size_t)snprintf(templ, sizeof templ, "%s/%s.gp", job->plotsdir, job->name) >=
            sizeof templ ||
        (size_t)snprintf(final_name, sizeof final_name, "%s.%s", job->name, job->ext) >=
            sizeof final_name)
        return cp_err_set(err, CP_EIO, "%s: path too long", job->results_dir->path);
    if (access(templ, R_OK) != 0)
        return cp_err_errno(err, CP_EIO, errno, "%s: cannot read the plot template", templ);
    owned_file_t tmp;
    int rc = owned_file_open(&tmp, job->results_dir, final_name, err);
    if (rc != CP_OK)
        return rc;
    rc = run_gnuplot(job->program, templ, job->plotsdir, job->datadir->fd, tmp.fd, job->ext,
                     cannot_run, err);
    struct stat st;
    if (rc == CP_OK && !*cannot_run && (fstat(tmp.fd, &st) != 0 || st.st_size == 0))
        rc = cp_err_set(err, CP_EIO, "%s: gnuplot wrote nothing", templ);
    if (rc == CP_OK && !*cannot_run)
        rc = owned_file_commit(&tmp, job->replace, err);
    owned_file_discard(&tmp);
    if (rc == CP_OK && !*cannot_run)
        snprintf(made, cap, "%s/%s", job->results_dir->path, final_name);
    return rc;
}

int plot_gnuplot_draw_set(const owned_dir_t *results_dir, const owned_dir_t *datadir,
                          const char *data_name, plot_format_t fmt, bool replace,
                          plot_set_t *out, cp_err_t *err)
{
    const char *program = plot_gnuplot_program();
    if (!plot_gnuplot_found(program)) {
        out->gnuplot_missing = true;
        snprintf(out->notice, sizeof out->notice, "gnuplot not found (CHOKEPOINT_GNUPLOT=%s); "
                 "plots skipped, data in %s/", program, data_name);
        return CP_OK;
    }
    char plotsdir[PATH_MAX];
    int rc = plot_templates_dir(plotsdir, sizeof plotsdir, err);
    for (size_t i = 0; i < out->n && rc == CP_OK; i++)
        for (int slot = 0; slot < 2 && rc == CP_OK; slot++) {
            if (!(fmt & (slot == 0 ? PLOT_PNG : PLOT_SVG)))
                continue;
            if (cp_interrupted())
                return cp_err_set(err, CP_EINTR, "interrupted");
            plot_file_t *pf = &out->plots[i];
            plot_gnuplot_job_t job = {
                .program = program, .plotsdir = plotsdir, .datadir = datadir,
                .results_dir = results_dir, .name = pf->name, .ext = slot == 0 ? "png" : "svg",
                .replace = replace,
            };
            bool cannot_run = false;
            rc = plot_gnuplot_draw(&job, pf->files[slot], sizeof pf->files[slot], &cannot_run,
                                   err);
            if (rc == CP_OK && cannot_run) { /* found, yet cannot be executed */
                out->gnuplot_missing = true;
                snprintf(out->notice, sizeof out->notice, "gnuplot cannot be run "
                         "(CHOKEPOINT_GNUPLOT=%s); plots skipped, data in %s/", program,
                         data_name);
                return CP_OK;
            }
        }
    return rc;
}
