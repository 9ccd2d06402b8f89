/* sys_linux_tasks.c - the Linux implementation of sys.h's accounting of where time went:
 * pressure stalls (/proc/pressure), threads' run-queue and block-I/O delay (schedstat,
 * task stat, delay accounting), process trees (/proc/PID/task/TID/children) and
 * write-back throttling events (tracefs). The text parsers here are pure and unit-tested. */
#include "common/sys.h"
#include "common/sys_linux_parse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/held_setting.h"

/* ---- where time went: pressure stalls and run-queue delay ------------------------------ */

bool sys_parse_pressure(const char *text, double *some_us, double *full_us)
{
    double unused_full;
    if (full_us == NULL)
        full_us = &unused_full;
    *some_us = NAN;
    *full_us = NAN;
    for (const char *line = text; line != NULL && *line != '\0';) {
        const char *total = strstr(line, "total=");
        const char *end = strchr(line, '\n');
        if (total != NULL && (end == NULL || total < end)) {
            char *stop;
            double us = strtod(total + 6, &stop);
            if (stop != total + 6) {
                if (strncmp(line, "some ", 5) == 0)
                    *some_us = us;
                else if (strncmp(line, "full ", 5) == 0)
                    *full_us = us;
            }
        }
        line = end != NULL ? end + 1 : NULL;
    }
    return !isnan(*some_us);
}

bool sys_pressure_read(const char *resource, double *some_us, double *full_us)
{
    char name[64];
    snprintf(name, sizeof name, "pressure/%s", resource);
    char *text = sys_read_proc(name, 0);
    bool ok = text != NULL && sys_parse_pressure(text, some_us, full_us);
    if (text == NULL) {
        *some_us = NAN;
        if (full_us != NULL)
            *full_us = NAN;
    }
    free(text);
    return ok;
}

bool sys_parse_schedstat(const char *text, uint64_t *on_cpu_ns, uint64_t *wait_ns)
{
    unsigned long long on_cpu, wait;
    if (text == NULL || sscanf(text, "%llu %llu", &on_cpu, &wait) != 2)
        return false;
    if (on_cpu_ns != NULL)
        *on_cpu_ns = on_cpu;
    *wait_ns = wait;
    return true;
}

bool sys_parse_task_stat(const char *text, uint64_t *blkio_ticks)
{
    const char *p = text != NULL ? strrchr(text, ')') : NULL;
    if (p == NULL)
        return false;
    p++;
    /* After the name come field 3 (state) onwards: field 42 is the 40th of them. */
    for (int field = 3; field < 42; field++) {
        while (*p == ' ')
            p++;
        if (*p == '\0' || *p == '\n')
            return false;
        while (*p != ' ' && *p != '\0' && *p != '\n')
            p++;
    }
    char *end;
    errno = 0;
    unsigned long long ticks = strtoull(p, &end, 10);
    if (end == p || errno != 0 || (*end != ' ' && *end != '\n' && *end != '\0'))
        return false;
    *blkio_ticks = ticks;
    return true;
}

/* Reads one thread's accounting from "dir/TID/"; false when the thread is gone. */
static bool read_task_account(const char *dir, const char *tid_name, sys_task_account_t *out)
{
    char path[900];
    snprintf(path, sizeof path, "%s/%.255s/schedstat", dir, tid_name);
    char *text = sys_read_file(path, 256);
    bool ok = text != NULL && sys_parse_schedstat(text, &out->run_ns, &out->wait_ns);
    free(text);
    if (!ok)
        return false;
    snprintf(path, sizeof path, "%s/%.255s/stat", dir, tid_name);
    text = sys_read_file(path, 2048);
    ok = text != NULL && sys_parse_task_stat(text, &out->blkio_ticks);
    free(text);
    return ok;
}

int sys_task_accounts(long pid, sys_task_account_t *out, size_t cap)
{
    char dir[600];
    if (pid == 0)
        snprintf(dir, sizeof dir, "%s/self/task", sys_proc_root());
    else
        snprintf(dir, sizeof dir, "%s/%ld/task", sys_proc_root(), pid);
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    bool any_tried = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && (size_t)n < cap) {
        char *end;
        long tid = strtol(e->d_name, &end, 10);
        if (e->d_name[0] == '.' || *end != '\0' || tid <= 0)
            continue;
        if (read_task_account(dir, e->d_name, &out[n])) {
            out[n].tid = tid;
            out[n].tgid = pid == 0 ? (long)getpid() : pid;
            n++;
        } else if (!any_tried) {
            closedir(d);
            return -1; /* no schedstat at all (CONFIG_SCHED_INFO off), or the process ended */
        }
        any_tried = true;
    }
    closedir(d);
    return n;
}

/* Appends the children named in each thread's "<proc root>/PID/task/TID/children" to
 * out[n..cap) when not there already; returns the new count. */
static int append_children(long pid, long *out, int n, int cap)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%ld/task", sys_proc_root(), pid);
    DIR *d = opendir(dir);
    if (d == NULL)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[900];
        snprintf(path, sizeof path, "%s/%s/children", dir, e->d_name);
        char *text = sys_read_file(path, 1 << 16);
        for (char *s = text; s != NULL && *s != '\0';) {
            char *end;
            long child = strtol(s, &end, 10);
            if (end == s)
                break;
            s = end;
            bool known = false;
            for (int i = 0; i < n && !known; i++)
                known = out[i] == child;
            if (!known && child > 0 && n < cap)
                out[n++] = child;
        }
        free(text);
    }
    closedir(d);
    return n;
}

bool sys_thread_schedstat(uint64_t *on_cpu_ns, uint64_t *wait_ns)
{
    char path[300], text[128];
    snprintf(path, sizeof path, "%s/thread-self/schedstat", sys_proc_root());
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return false;
    text[n] = '\0';
    return sys_parse_schedstat(text, on_cpu_ns, wait_ns);
}

double sys_thread_system_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return NAN;
    return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int sys_process_tree(long root, long *out, int cap)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%ld/task", sys_proc_root(), root);
    if (root <= 0 || cap < 1 || access(dir, F_OK) != 0)
        return -1;
    int n = 0;
    out[n++] = root;
    for (int i = 0; i < n; i++) /* breadth first: out[] grows as children are found */
        n = append_children(out[i], out, n, cap);
    return n;
}

#define DELAYACCT_SYSCTL "/proc/sys/kernel/task_delayacct"
/* Where the holders of a raised setting are counted (common/held_setting.h): a RAM file
 * system, so a record never outlives a reboot that reset the setting. */
#define CP_STATE_DIR "/run/chokepoint"

bool sys_delayacct_is_on(void)
{
    char *text = sys_read_file(DELAYACCT_SYSCTL, 32);
    bool on = text != NULL && text[0] == '1';
    free(text);
    return on;
}

bool sys_delayacct_enable(void)
{
    static int state = -1; /* -1 not tried; 0 off; 1 on */
    static held_setting_t held = HELD_SETTING_INIT;
    if (state >= 0)
        return state == 1;
    state = 0;
    if (access(DELAYACCT_SYSCTL, F_OK) != 0)
        return false; /* no delay accounting in this kernel */
    /* Held, not just set: another chokepoint that ends first must not turn it off under
     * this one, and the last to end puts the original back (also one a killed process
     * left raised). Not root: the machine-wide pressure figures stand in. */
    /* Remembered before it is raised, so that an interrupt in between still puts it back;
     * without a slot to remember it in, it is left as found. */
    if (cp_cleanup_remember_setting(&held) == 0 &&
        held_setting_raise(&held, CP_STATE_DIR, "task_delayacct", DELAYACCT_SYSCTL, "1\n") == 1)
        state = 1;
    if (state == 0 && sys_delayacct_is_on())
        state = 1; /* someone else turned it on */
    return state == 1;
}

/* ---- write-back throttling (tracefs) ---------------------------------------------------- */

/* The thread-group id of a trace line recorded with record-tgid: the number in the
 * parentheses before the CPU ("zstd-4242 (4240) [001] ..."); -1 when there is none. */
static long trace_line_tgid(const char *line, const char *event)
{
    const char *cpu = NULL;
    for (const char *p = line; p < event; p++)
        if (*p == '[')
            cpu = p;
    const char *open = NULL;
    for (const char *p = line; cpu != NULL && p < cpu; p++)
        if (*p == '(')
            open = p;
    if (open == NULL)
        return -1;
    char *end;
    long tgid = strtol(open + 1, &end, 10);
    while (*end == ' ')
        end++;
    return *end == ')' && tgid > 0 ? tgid : -1;
}

double sys_parse_dirty_pauses(const char *text, const long *tgids, size_t n)
{
    double ms = 0;
    for (const char *line = text; line != NULL && *line != '\0';) {
        const char *eol = strchr(line, '\n');
        size_t len = eol != NULL ? (size_t)(eol - line) : strlen(line);
        char buf[1024];
        if (line[0] != '#' && len < sizeof buf) {
            memcpy(buf, line, len);
            buf[len] = '\0';
            const char *event = strstr(buf, " balance_dirty_pages: ");
            const char *pause = event != NULL ? strstr(event, " pause=") : NULL;
            long tgid = event != NULL ? trace_line_tgid(buf, event) : -1;
            bool ours = false;
            for (size_t i = 0; i < n && tgid > 0; i++)
                ours = ours || tgids[i] == tgid;
            long value;
            if (ours && pause != NULL && sscanf(pause, " pause=%ld", &value) == 1 && value > 0)
                ms += (double)value;
        }
        line = eol != NULL ? eol + 1 : NULL;
    }
    return ms / 1000.0;
}

struct sys_dirty_trace {
    char dir[128];  /* the instance */
    char lock[128]; /* its lock file, held (flock) while the instance is in use */
    int lock_fd;
};

static const char *tracefs_root(void)
{
    static const char *roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        char path[160];
        snprintf(path, sizeof path, "%s/events/writeback/balance_dirty_pages", roots[i]);
        if (access(path, F_OK) == 0)
            return roots[i];
    }
    return NULL;
}

static bool write_text(const char *dir, const char *name, const char *text)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len;
    return close(fd) == 0 && ok;
}

/* The lock file of instance "chokepoint-PID" into out (cap bytes). Async-signal-safe. */
static void instance_lock_path(long pid, char *out, size_t cap)
{
    snprintf(out, cap, "%s/trace.chokepoint-%ld.lock", CP_STATE_DIR, pid);
}

/* Removes the instances of chokepoint processes that died before they could: an instance
 * whose lock file is there and can be locked (its holder is gone). One without a lock file
 * is not known to be chokepoint's, and one whose lock is held is in use. */
static void remove_stale_instances(const char *root)
{
    char dir[200];
    snprintf(dir, sizeof dir, "%s/instances", root);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        long pid;
        char end;
        if (sscanf(e->d_name, "chokepoint-%ld%c", &pid, &end) != 1 || pid <= 0 ||
            pid == (long)getpid())
            continue;
        char lock[128];
        instance_lock_path(pid, lock, sizeof lock);
        int fd = open(lock, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
            flock(fd, LOCK_EX | LOCK_NB) == 0) {
            char path[480];
            snprintf(path, sizeof path, "%s/%.255s", dir, e->d_name);
            if (rmdir(path) == 0 || errno == ENOENT)
                unlink(lock);
        }
        close(fd);
    }
    if (d != NULL)
        closedir(d);
}

void sys_dirty_trace_remove_of(long pid)
{
    static const char *roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
    char lock[128];
    instance_lock_path(pid, lock, sizeof lock);
    if (access(lock, F_OK) != 0)
        return; /* no instance of pid's was made */
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        char path[200];
        snprintf(path, sizeof path, "%s/instances/chokepoint-%ld", roots[i], pid);
        if (rmdir(path) == 0)
            break;
    }
    unlink(lock);
}

sys_dirty_trace_t *sys_dirty_trace_start(void)
{
    const char *root = tracefs_root();
    if (root == NULL || access(root, W_OK) != 0)
        return NULL;
    remove_stale_instances(root);
    sys_dirty_trace_t *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    /* The lock first: from the moment the instance exists, it says a live process owns it. */
    instance_lock_path((long)getpid(), t->lock, sizeof t->lock);
    if (mkdir(CP_STATE_DIR, 0755) != 0 && errno != EEXIST) {
        free(t);
        return NULL;
    }
    t->lock_fd = open(t->lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (t->lock_fd < 0 || flock(t->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        if (t->lock_fd >= 0)
            close(t->lock_fd);
        free(t);
        return NULL;
    }
    snprintf(t->dir, sizeof t->dir, "%s/instances/chokepoint-%ld", root, (long)getpid());
    if (mkdir(t->dir, 0700) != 0 && errno != EEXIST) {
        unlink(t->lock);
        close(t->lock_fd);
        free(t);
        return NULL;
    }
    if (!write_text(t->dir, "trace", "") || !write_text(t->dir, "options/record-tgid", "1") ||
        !write_text(t->dir, "events/writeback/balance_dirty_pages/enable", "1")) {
        rmdir(t->dir);
        unlink(t->lock);
        close(t->lock_fd);
        free(t);
        return NULL;
    }
    return t;
}

/* True when any CPU's buffer of the instance lost events. */
static bool trace_overran(const char *dir)
{
    long cpus = sysconf(_SC_NPROCESSORS_CONF);
    for (long cpu = 0; cpu < cpus; cpu++) {
        char path[200];
        snprintf(path, sizeof path, "%s/per_cpu/cpu%ld/stats", dir, cpu);
        char *text = sys_read_file(path, 4096);
        const char *overrun = text != NULL ? strstr(text, "overrun:") : NULL;
        long lost = 0;
        if (overrun != NULL)
            sscanf(overrun, "overrun: %ld", &lost);
        free(text);
        if (lost > 0)
            return true;
    }
    return false;
}

double sys_dirty_trace_stop(sys_dirty_trace_t *t, const long *tgids, size_t n)
{
    if (t == NULL)
        return NAN;
    write_text(t->dir, "events/writeback/balance_dirty_pages/enable", "0");
    char path[200];
    snprintf(path, sizeof path, "%s/trace", t->dir);
    char *text = sys_read_file(path, 0);
    double pause_s = text != NULL && !trace_overran(t->dir)
                         ? sys_parse_dirty_pauses(text, tgids, n) : NAN;
    free(text);
    rmdir(t->dir);
    unlink(t->lock);
    close(t->lock_fd);
    free(t);
    return pause_s;
}
