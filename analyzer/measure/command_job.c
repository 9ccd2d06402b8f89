/* command_job.c - the user's command as a series (command_job.h): templates (checking,
 * quoting, expanding), command series from --cmd or a preset (codecs/presets.h) and their
 * restores, and one timed run in a guarded process group with its output fsynced or
 * counted through a FIFO. */
#include "measure/command_job.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "common/sys.h"
#include "common/tempfile.h"
#include "measure/pagecache.h"
#include "measure/run_account.h"

/* ---- templates ------------------------------------------------------------------------ */

static const char *const placeholders[] = {"{input}", "{output}", "{threads}"};

/* The index of the placeholder starting at s, or -1. */
static int placeholder_at(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (strncmp(s, placeholders[i], strlen(placeholders[i])) == 0)
            return i;
    return -1;
}

int command_template_check(const char *t, cp_err_t *err)
{
    if (t == NULL || t[0] == '\0')
        return cp_err_set(err, CP_EUSAGE, "--cmd needs a command template");
    if (strlen(t) >= CMD_TEMPLATE_MAX)
        return cp_err_set(err, CP_EUSAGE, "--cmd template is longer than %d characters",
                          CMD_TEMPLATE_MAX - 1);
    bool seen[3] = {false, false, false};
    for (const char *s = t; *s; s++) {
        int k = placeholder_at(s);
        if (k < 0 && s[0] == '{' && (s == t || s[-1] != '$')) {
            /* "{word}" that is no placeholder is a typo ({thread}, {in}); shell code with
             * braces (${VAR}, {a,b}) is left alone. */
            size_t w = strspn(s + 1, "abcdefghijklmnopqrstuvwxyz_");
            if (w > 0 && s[1 + w] == '}')
                return cp_err_set(err, CP_EUSAGE,
                                  "--cmd template has an unknown placeholder '%.*s': the "
                                  "placeholders are {input}, {output} and {threads}",
                                  (int)w + 2, s);
        }
        if (k < 0)
            continue;
        seen[k] = true;
        size_t len = strlen(placeholders[k]);
        if (s > t && (s[-1] == '\'' || s[-1] == '"') && s[len] == s[-1])
            return cp_err_set(err, CP_EUSAGE,
                              "--cmd template quotes %s; write it bare, chokepoint quotes the "
                              "path itself",
                              placeholders[k]);
    }
    if (!seen[0] || !seen[1])
        return cp_err_set(err, CP_EUSAGE,
                          "--cmd template '%.200s' needs both {input} and {output} (e.g. "
                          "'zstd -T{threads} -c {input} > {output}')",
                          t);
    return CP_OK;
}

long command_shell_quote(const char *s, char *out, size_t cap)
{
    size_t n = 0;
#define PUT(c)                                                                                 \
    do {                                                                                       \
        if (n + 1 >= cap) {                                                                    \
            if (cap > 0)                                                                       \
                out[0] = '\0';                                                                 \
            return -1;                                                                         \
        }                                                                                      \
        out[n++] = (c);                                                                        \
    } while (0)
    PUT('\'');
    for (; *s; s++) {
        if (*s == '\'') {
            PUT('\'');
            PUT('\\');
            PUT('\'');
            PUT('\'');
        } else {
            PUT(*s);
        }
    }
    PUT('\'');
#undef PUT
    out[n] = '\0';
    return (long)n;
}

int command_template_expand(const char *t, const char *input, const char *output, int threads,
                        char *out, size_t cap, cp_err_t *err)
{
    size_t n = 0;
    for (const char *s = t; *s;) {
        int k = placeholder_at(s);
        char piece[2 * PATH_MAX + 8];
        long len;
        if (k == 0 || k == 1) {
            len = command_shell_quote(k == 0 ? input : output, piece, sizeof piece);
        } else if (k == 2) {
            len = snprintf(piece, sizeof piece, "%d", threads);
        } else {
            piece[0] = *s;
            piece[1] = '\0';
            len = 1;
        }
        if (len < 0 || n + (size_t)len + 1 > cap)
            return cp_err_set(err, CP_EUSAGE, "the command '%.100s...' is too long once its "
                              "paths are substituted", t);
        memcpy(out + n, piece, (size_t)len);
        n += (size_t)len;
        s += k >= 0 ? strlen(placeholders[k]) : 1;
    }
    out[n] = '\0';
    return CP_OK;
}

/* The basename of the template's first word, the series' default name. */
static void program_name(const char *t, char *out, size_t cap)
{
    while (*t == ' ' || *t == '\t')
        t++;
    size_t len = strcspn(t, " \t;|&<>()");
    const char *start = t;
    for (size_t i = 0; i < len; i++)
        if (t[i] == '/')
            start = t + i + 1;
    len -= (size_t)(start - t);
    if (len == 0) {
        start = "sh";
        len = 2;
    }
    snprintf(out, cap, "%.*s", (int)len, start);
}

int command_series_make(const char *template_text, const char *name, command_series_t *s,
                    cp_err_t *err)
{
    int rc = command_template_check(template_text, err);
    if (rc != CP_OK)
        return rc;
    char prog[COMMAND_SERIES_MAX];
    if (name == NULL || name[0] == '\0') {
        program_name(template_text, prog, sizeof prog);
        name = prog;
    }
    if (strlen(name) + 4 >= COMMAND_SERIES_MAX || strpbrk(name, ",\"\n\r") != NULL)
        return cp_err_set(err, CP_EUSAGE,
                          "bad --cmd-name '%s': at most %d characters, no commas, quotes or "
                          "newlines",
                          name, COMMAND_SERIES_MAX - 5);
    snprintf(s->template_text, sizeof s->template_text, "%s", template_text);
    snprintf(s->series, sizeof s->series, "cmd:%.*s", COMMAND_SERIES_MAX - 5, name);
    s->preset[0] = '\0';
    s->restores = false;
    return CP_OK;
}

/* ---- presets (the table is codecs/presets.c) ----------------------------------------- */

bool command_preset_is(const char *spec)
{
    return spec != NULL && preset_find(spec) != NULL;
}

int command_preset_expand(const char *spec, command_series_t *s, cp_err_t *err)
{
    const preset_t *p = preset_find(spec);
    if (p == NULL)
        return cp_err_set(err, CP_EUSAGE, "unknown command preset '%s'", spec);
    long level;
    bool extreme;
    int rc = preset_level(p, spec, &level, &extreme, err);
    if (rc != CP_OK)
        return rc;
    snprintf(s->template_text, sizeof s->template_text, "%s%ld%s%s", p->program, level,
             extreme ? "e" : "", p->rest);
    snprintf(s->series, sizeof s->series, "cmd:%s:%ld%s", p->name, level, extreme ? "e" : "");
    snprintf(s->preset, sizeof s->preset, "%s", s->series + 4);
    s->restores = false;
    return CP_OK;
}

int command_series_restore(command_series_t *s, codec_spec_t *archive_codec, cp_err_t *err)
{
    if (s->preset[0] == '\0')
        return cp_err_set(err, CP_EUSAGE, "--decompress restores the built-in codecs' archives, "
                          "which a --cmd template cannot be told how to read; the presets "
                          "zstd-cli:L and xz-cli:L restore them with the CLIs");
    const preset_t *p = preset_find(s->preset);
    if (p == NULL || p->codec == NULL)
        return cp_err_set(err, CP_EUSAGE, "--decompress: no built-in codec writes %s's format; "
                          "the presets zstd-cli:L and xz-cli:L restore with the CLIs",
                          p != NULL ? p->name : s->preset);
    char spec[COMMAND_SERIES_MAX + 8];
    snprintf(spec, sizeof spec, "%s%s", p->codec, strchr(s->preset, ':'));
    int rc = codec_parse(spec, archive_codec, err);
    if (rc != CP_OK)
        return rc;
    snprintf(s->template_text, sizeof s->template_text, "%s", p->restore);
    s->restores = true;
    return CP_OK;
}

/* ---- running -------------------------------------------------------------------------- */

/* Appends text[0..n) to out (cap bytes, k used): newlines become " | ", commas ';' (the
 * text goes into a CSV cell), carriage returns are dropped. Returns the new length. */
static size_t join_lines(const char *text, size_t n, char *out, size_t cap, size_t k)
{
    for (size_t i = 0; i < n && k + 4 < cap; i++) {
        if (text[i] == '\n') {
            memcpy(out + k, " | ", 3);
            k += 3;
        } else if (text[i] != '\r') {
            out[k++] = text[i] == ',' ? ';' : text[i];
        }
    }
    out[k] = '\0';
    return k;
}

/* The command's stderr (the file at fd) for an error message of at most cap bytes: its
 * first line (at most CMD_STDERR_FIRST bytes), then as much of the end of its last
 * CMD_STDERR_TAIL bytes as fits, lines joined with " | ". */
static void stderr_excerpt(int fd, char *out, size_t cap)
{
    out[0] = '\0';
    off_t size = lseek(fd, 0, SEEK_END);
    char buf[CMD_STDERR_TAIL + 1], tail[3 * CMD_STDERR_TAIL + 1];
    ssize_t n = size > 0 ? pread(fd, buf, CMD_STDERR_FIRST, 0) : 0;
    if (n <= 0)
        return;
    char *nl = memchr(buf, '\n', (size_t)n);
    off_t first_end = nl ? nl - buf : n; /* the first line, its newline excluded */
    off_t rest = nl ? first_end + 1 : first_end;
    off_t from = size - rest > CMD_STDERR_TAIL ? size - CMD_STDERR_TAIL : rest;
    size_t k = join_lines(buf, (size_t)first_end, out, cap, 0);
    if (from >= size || (n = pread(fd, buf, (size_t)(size - from), from)) <= 0)
        return;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    const char *gap = from > rest ? " | ... | " : " | ";
    size_t len = join_lines(buf, (size_t)n, tail, sizeof tail, 0);
    if (len == 0 || k + strlen(gap) + 1 >= cap)
        return;
    size_t room = cap - k - strlen(gap) - 1;
    if (len > room) /* keep its end: the last words are the ones that matter */
        gap = " | ... | ";
    snprintf(out + k, cap - k, "%s%s", gap, tail + (len > room ? len - room : 0));
}

/* A FIFO for the mem target: "<TMPDIR>/cmd-output.<pid>-<n>.chokepoint-tmp". */
static int fifo_make(char *path, size_t cap, int *cleanup_id, cp_err_t *err)
{
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || dir[0] == '\0')
        dir = "/tmp";
    static unsigned counter;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(path, cap, "%s/cmd-output.%ld-%u.chokepoint-tmp", dir, (long)getpid(),
                 counter++);
        if (mkfifo(path, 0600) == 0) {
            *cleanup_id = cp_cleanup_track(path);
            return CP_OK;
        }
        if (errno != EEXIST)
            return cp_err_errno(err, CP_EIO, errno, "cannot create a FIFO in '%s'", dir);
    }
    return cp_err_set(err, CP_EIO, "cannot create a FIFO in '%s': names taken", dir);
}

/* Ends the child's whole process group: SIGTERM, then SIGKILL after half a second. */
static void kill_group(pid_t pid, int *status, struct rusage *ru)
{
    kill(-pid, SIGTERM);
    for (int i = 0; i < 50; i++) {
        if (wait4(pid, status, WNOHANG, ru) == pid) {
            kill(-pid, SIGKILL); /* grandchildren that outlive the shell */
            return;
        }
        clock_sleep(0.01);
    }
    kill(-pid, SIGKILL);
    while (wait4(pid, status, 0, ru) < 0 && errno == EINTR) {
    }
}

/* Drains what the FIFO holds into *count; 0 when a read found no writer. */
static ssize_t fifo_drain(int fd, uint64_t *count)
{
    static char buf[1 << 16];
    ssize_t n, total = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        *count += (uint64_t)n;
        total += n;
    }
    return n == 0 && total == 0 ? 0 : 1;
}

/* Waits for pid, counting the FIFO's bytes meanwhile (fifo_fd >= 0). CP_OK when it exited
 * by itself, CP_EINTR when interrupted (the group is then killed). */
static int wait_child(pid_t pid, int fifo_fd, uint64_t *fifo_bytes, int *status,
                      struct rusage *ru)
{
    for (;;) {
        pid_t w = wait4(pid, status, WNOHANG, ru);
        if (w == pid) {
            if (fifo_fd >= 0)
                fifo_drain(fifo_fd, fifo_bytes);
            kill(-pid, SIGKILL); /* nothing of the command outlives it */
            return CP_OK;
        }
        if (cp_interrupted()) {
            kill_group(pid, status, ru);
            return CP_EINTR;
        }
        if (fifo_fd >= 0) {
            struct pollfd pfd = {fifo_fd, POLLIN, 0};
            int r = poll(&pfd, 1, 1);
            if (r > 0 && fifo_drain(fifo_fd, fifo_bytes) == 0)
                clock_sleep(0.001); /* no writer yet or any more: POLLHUP would spin */
        } else {
            clock_sleep(0.0005);
        }
    }
}

static int describe_failure(const command_job_t *job, int status, uint64_t out_bytes, int err_fd,
                            cp_err_t *err)
{
    char tail[CMD_ERROR_STDERR];
    stderr_excerpt(err_fd, tail, sizeof tail);
    const char *sep = tail[0] ? ": " : "";
    if (WIFSIGNALED(status))
        return cp_err_set(err, CP_EIO, "%s was killed by signal %d (%s)%s%s", job->command->series,
                          WTERMSIG(status), strsignal(WTERMSIG(status)), sep, tail);
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        return cp_err_set(err, CP_EIO, "%s exited with status %d%s%s", job->command->series,
                          WEXITSTATUS(status), sep, tail);
    if (out_bytes == 0)
        return cp_err_set(err, CP_EIO, "%s wrote nothing to {output}%s%s", job->command->series,
                          sep, tail);
    return CP_OK;
}

int command_job_run(const command_job_t *job, compress_record_t *rec, cp_err_t *err)
{
    memset(rec, 0, sizeof *rec);
    rec->run.cpu_wait_s = rec->run.io_wait_s = rec->run.io_read_wait_s = NAN;
    rec->run.dirty_pause_s = NAN;
    snprintf(rec->codec, sizeof rec->codec, "%s", job->command->series);
    rec->command = true;
    rec->decompress = job->restores_bytes > 0;
    rec->threads = job->threads;
    rec->warm = job->warm;
    /* {output}'s directory: the target's; none (a FIFO) for a restore into memory or a
     * target whose output is discarded. */
    const char *out_dir = job->target != NULL && !job->discard
                              ? target_ops_for(job->target)->output_dir(job->target)
                              : NULL;
    bool discard = out_dir == NULL;
    rec->discarded = discard;
    rec->verified = -1;
    rec->sync = job->sync == SYNC_DIRECT ? SYNC_FSYNC : job->sync;
    rec->sync_fell_back = job->sync == SYNC_DIRECT;

    uint64_t input_size;
    int rc = compress_check_input(job->input_path, &input_size, err);
    if (rc != CP_OK)
        return rc;
    rec->run.input_bytes = input_size;

    char out_path[PATH_MAX];
    tempfile_t out_file = TEMPFILE_INIT;
    int fifo_id = -1, fifo_fd = -1;
    if (discard) {
        rc = fifo_make(out_path, sizeof out_path, &fifo_id, err);
        if (rc == CP_OK) {
            fifo_fd = open(out_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
            if (fifo_fd < 0)
                rc = cp_err_errno(err, CP_EIO, errno, "cannot open FIFO '%s'", out_path);
        }
    } else {
        if (job->restores_bytes > 0) /* the restored size is known: refuse what won't fit */
            rc = compress_check_space(out_dir, out_dir, job->restores_bytes, "restored file",
                                      err);
        if (rc == CP_OK)
            rc = tempfile_open(&out_file, out_dir, "cmd-output", 0, err);
        if (rc == CP_OK) {
            /* The name is reserved (unique to this process, removed on interrupt and at
             * the end), but {output} must not exist yet: zstd -o, xz, gzip and most
             * archivers refuse to overwrite a file. The command creates it. */
            close(out_file.fd);
            out_file.fd = -1;
            if (unlink(out_file.path) != 0 && errno != ENOENT)
                rc = cp_err_errno(err, CP_EIO, errno, "cannot prepare '%s'", out_file.path);
            snprintf(out_path, sizeof out_path, "%s", out_file.path);
        }
    }
    char *command = malloc(CMD_TEMPLATE_MAX + 4 * PATH_MAX);
    FILE *err_file = tmpfile();
    if (rc == CP_OK && (command == NULL || err_file == NULL))
        rc = cp_err_set(err, CP_ENOMEM, "cannot set up the command's run");
    if (rc == CP_OK)
        rc = command_template_expand(job->command->template_text, job->input_path, out_path,
                                 job->threads, command, CMD_TEMPLATE_MAX + 4 * PATH_MAX, err);
    if (rc == CP_OK && !job->warm) {
        /* As the pipeline: cache_dropped says whether the pages are gone; an input with
         * none to drop (an archive in RAM) or that cannot be opened is the command's to
         * read or to fail on. */
        bool dropped = false;
        cp_err_t ignored = {0};
        if (pagecache_drop(job->input_path, &dropped, &ignored) == CP_OK)
            rec->run.cache_dropped = dropped;
    }

    if (rc == CP_OK) {
        int status = 0;
        struct rusage ru;
        memset(&ru, 0, sizeof ru);
        uint64_t fifo_bytes = 0;
        fflush(NULL);
        run_account_tracker_t *account = run_account_start(true);
        double t0 = clock_now();
        /* Guarded: if chokepoint is killed outright, no program of the command writes on
         * into a target the next study cleans (sys_spawn). */
        char *sh_argv[] = {"sh", "-c", command, NULL};
        sys_spawn_opts_t how = {.path = "/bin/sh", .stdout_fd = -1,
                                .stderr_fd = fileno(err_file), .guarded = true};
        long pid;
        int spawn_errno = sys_spawn(sh_argv, &how, &pid);
        if (spawn_errno != 0)
            rc = cp_err_errno(err, CP_EIO, spawn_errno, "cannot start /bin/sh");
        else
            rc = wait_child((pid_t)pid, fifo_fd, &fifo_bytes, &status, &ru);
        double t1 = clock_now();
        run_account_mark(account);
        rec->run.pipeline_s = t1 - t0;
        rec->cpu_user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
        rec->cpu_sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
        rec->max_rss_bytes = (uint64_t)ru.ru_maxrss * 1024u;
        if (rc == CP_EINTR)
            cp_err_set(err, CP_EINTR, "interrupted");
        if (rc == CP_OK && discard) {
            rec->run.output_bytes = fifo_bytes;
        } else if (rc == CP_OK) {
            /* The flush: fsync and close of what the command wrote, as a sink's finish. */
            int fd = open(out_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
            struct stat st;
            if (fd >= 0 && fstat(fd, &st) == 0)
                rec->run.output_bytes = (uint64_t)st.st_size;
            if (fd >= 0 && rec->sync != SYNC_NONE && rec->run.output_bytes > 0 &&
                fsync(fd) != 0)
                rc = cp_err_errno(err, CP_EIO, errno, "fsync of the command's output");
            if (fd >= 0)
                close(fd);
            rec->run.flush_s = clock_now() - t1;
        }
        run_account_t acc;
        run_account_finish(account, &acc);
        rec->run.cpu_wait_s = acc.cpu_wait_s;
        rec->run.io_wait_s = acc.io_wait_s;
        rec->run.dirty_pause_s = acc.dirty_pause_s; /* no reader of chokepoint's own */
        rec->run.io_read_wait_s = NAN;
        if (rc == CP_OK)
            rc = describe_failure(job, status, rec->run.output_bytes, fileno(err_file), err);
    }
    rec->run.seconds = rec->run.pipeline_s + rec->run.flush_s;
    if (rc == CP_OK && job->restores_bytes > 0 && rec->run.output_bytes != job->restores_bytes)
        rc = cp_err_set(err, CP_EIO, "%s restored %llu bytes; the input has %llu",
                        job->command->series, (unsigned long long)rec->run.output_bytes,
                        (unsigned long long)job->restores_bytes);
    compress_record_count_uncompressed(rec);

    if (err_file != NULL)
        fclose(err_file);
    free(command);
    if (fifo_fd >= 0)
        close(fifo_fd);
    if (fifo_id >= 0)
        cp_cleanup_unlink(fifo_id);
    tempfile_discard(&out_file);
    return rc;
}
