/* sys_linux_disk.c - the Linux implementation of sys.h's emulated disk: a loop device over
 * an image file's descriptor (LOOP_CONFIGURE, autoclear; LOOP_GET_STATUS64 tells whose it
 * is), mount(2) and umount2(2) through a directory's descriptor, the block throttle
 * of cgroup v1's root blkio group (blkio.throttle.write_bps_device, this process writing
 * from that group while a cap is set), running a helper program (mkfs) quietly, and the
 * guardian that undoes them when this process is killed. */
#include "common/sys.h"
#include "common/sys_linux_parse.h"

#include "common/cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

int sys_run_quietly(char *const argv[], cp_err_t *err)
{
    sys_spawn_opts_t how = {.path = NULL, .stdout_fd = -1, .stderr_fd = -1};
    long pid;
    int rc = sys_spawn(argv, &how, &pid);
    if (rc != 0)
        return cp_err_errno(err, CP_EIO, rc, "cannot run %s", argv[0]);
    sys_exit_t ended;
    if (sys_wait(pid, &ended) != 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot wait for %s", argv[0]);
    if (ended.exited && ended.code == 0)
        return CP_OK;
    if (ended.exited)
        return cp_err_set(err, CP_EIO, "%s failed (exit status %d)", argv[0], ended.code);
    return cp_err_set(err, CP_EIO, "%s was ended by signal %d", argv[0], ended.code);
}

/* Configures the loop device loop_fd over image_fd with flags (LOOP_CONFIGURE, else the
 * older LOOP_SET_FD and LOOP_SET_STATUS64). 0 or an errno. */
static int loop_configure(int loop_fd, int image_fd, unsigned flags)
{
    struct loop_config config;
    memset(&config, 0, sizeof config);
    config.fd = (unsigned)image_fd;
    config.info.lo_flags = flags;
    if (ioctl(loop_fd, LOOP_CONFIGURE, &config) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOTTY)
        return errno;
    if (ioctl(loop_fd, LOOP_SET_FD, image_fd) != 0)
        return errno;
    struct loop_info64 info;
    memset(&info, 0, sizeof info);
    info.lo_flags = LO_FLAGS_AUTOCLEAR;
    if (ioctl(loop_fd, LOOP_SET_STATUS64, &info) != 0 ||
        ((flags & LO_FLAGS_DIRECT_IO) && ioctl(loop_fd, LOOP_SET_DIRECT_IO, 1UL) != 0)) {
        int e = errno;
        ioctl(loop_fd, LOOP_CLR_FD, 0);
        return e;
    }
    return 0;
}

/* Takes a free loop device and configures it over image_fd: its descriptor, or -1 with
 * *e set. A device another process takes first (EBUSY) is given up for the next. */
static int loop_take(int control, int image_fd, unsigned flags, char *dev, size_t cap, int *e)
{
    for (int attempt = 0; attempt < 16; attempt++) {
        int n = ioctl(control, LOOP_CTL_GET_FREE);
        if (n < 0) {
            *e = errno;
            return -1;
        }
        snprintf(dev, cap, "/dev/loop%d", n);
        int fd = open(dev, O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            *e = errno;
            return -1;
        }
        *e = loop_configure(fd, image_fd, flags);
        if (*e == 0)
            return fd;
        close(fd);
        if (*e != EBUSY)
            return -1;
    }
    return -1;
}

int sys_loop_attach(int image_fd, const char *image_name, char *dev, size_t cap, unsigned *maj,
                    unsigned *min, bool *direct, int *held_fd, cp_err_t *err)
{
    *held_fd = -1;
    struct stat image;
    if (fstat(image_fd, &image) != 0 || !S_ISREG(image.st_mode))
        return cp_err_set(err, CP_EIO, "the image '%s' is not a regular file", image_name);
    int control = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (control < 0)
        return cp_err_errno(err, CP_EIO, errno, "no loop devices (/dev/loop-control)");
    int e = 0;
    *direct = true;
    int fd = loop_take(control, image_fd, LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO, dev, cap, &e);
    if (fd < 0 && e == EINVAL) { /* the image's file system refuses direct I/O (tmpfs) */
        *direct = false;
        fd = loop_take(control, image_fd, LO_FLAGS_AUTOCLEAR, dev, cap, &e);
    }
    close(control);
    if (fd < 0)
        return cp_err_errno(err, CP_EIO, e, "cannot attach '%s' to a loop device", image_name);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        e = errno;
        ioctl(fd, LOOP_CLR_FD, 0);
        close(fd);
        return cp_err_errno(err, CP_EIO, e, "cannot examine %s", dev);
    }
    sys_devno_split(st.st_rdev, maj, min);
    if (!sys_loop_backed_by(*maj, *min, (uint64_t)image.st_dev, (uint64_t)image.st_ino)) {
        ioctl(fd, LOOP_CLR_FD, 0);
        close(fd);
        return cp_err_set(err, CP_EIO, "%s is not backed by the image '%s' it was given", dev,
                          image_name);
    }
    *held_fd = fd;
    return CP_OK;
}

/* The path of block device maj:min's node ("/dev/loop3") into path (cap bytes), from the
 * name sysfs gives it; false when it has none. Async-signal-safe. */
static bool device_node(unsigned maj, unsigned min, char *path, size_t cap)
{
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", maj, min);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    const char *name = strrchr(target, '/');
    name = name != NULL ? name + 1 : target;
    return name[0] != '\0' && strchr(name, '.') == NULL &&
           (size_t)snprintf(path, cap, "/dev/%s", name) < cap;
}

bool sys_loop_backed_by(unsigned maj, unsigned min, uint64_t file_dev, uint64_t file_ino)
{
    char node[PATH_MAX];
    if (!device_node(maj, min, node, sizeof node))
        return false;
    int fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return false;
    struct stat st;
    struct loop_info64 info;
    memset(&info, 0, sizeof info);
    bool ours = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == maj &&
                minor(st.st_rdev) == min && ioctl(fd, LOOP_GET_STATUS64, &info) == 0 &&
                major((dev_t)info.lo_device) == major((dev_t)file_dev) &&
                minor((dev_t)info.lo_device) == minor((dev_t)file_dev) &&
                (uint64_t)info.lo_inode == file_ino;
    close(fd);
    return ours;
}

/* "/proc/self/fd/N/NAME": name inside the directory open as dir_fd, reached through the
 * descriptor, so no one can swap a component of the path for a symlink. False when it does
 * not fit. Async-signal-safe. */
static bool path_at(int dir_fd, const char *name, char *out, size_t cap)
{
    int n = snprintf(out, cap, "/proc/self/fd/%d/%s", dir_fd, name);
    return n > 0 && (size_t)n < cap && strchr(name, '/') == NULL;
}

int sys_mount_fs_at(const char *dev, int dir_fd, const char *name, const char *fs_type,
                    const char *options, cp_err_t *err)
{
    char target[PATH_MAX];
    if (!path_at(dir_fd, name, target, sizeof target))
        return cp_err_set(err, CP_EIO, "cannot name the mount point '%s'", name);
    struct stat st;
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
        return cp_err_set(err, CP_EIO, "the mount point '%s' is not a directory", name);
    if (mount(dev, target, fs_type, MS_NOATIME | MS_NOSUID | MS_NODEV, options) != 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot mount %s (%s) on '%s'", dev, fs_type,
                            name);
    return CP_OK;
}

void sys_unmount_at(int dir_fd, const char *name)
{
    char target[PATH_MAX];
    if (path_at(dir_fd, name, target, sizeof target))
        (void)umount2(target, MNT_DETACH | UMOUNT_NOFOLLOW);
}

/* ---- the block throttle: cgroup v1's blkio groups ---- */

static const char write_bps_file[] = "/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device";

/* This process's blkio group's cgroup.procs when it is not the root group ("" otherwise).
 * A group's rules cap only the writes charged to it, and an fsync or an O_DIRECT write is
 * charged to the writer's group while the kernel's write-back is the root group's: a rule
 * in each would let both through at the cap at once, twice the disk's speed. So while a
 * cap is set the process writes from the root group, where the one rule covers the
 * flusher and it alike, and goes back to its own group when the last cap is cleared. */
static char own_group_procs[PATH_MAX];
static int caps_set;

/* The blkio group of this process from /proc/self/cgroup into own_group_procs. */
static void find_own_group(void)
{
    own_group_procs[0] = '\0';
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (f == NULL)
        return;
    char line[PATH_MAX];
    while (fgets(line, sizeof line, f) != NULL) {
        char *controllers = strchr(line, ':');
        char *path = controllers != NULL ? strchr(controllers + 1, ':') : NULL;
        if (path == NULL)
            continue;
        *path++ = '\0';
        path[strcspn(path, "\n")] = '\0';
        bool blkio = false;
        for (char *c = strtok(controllers + 1, ","); c != NULL; c = strtok(NULL, ","))
            blkio = blkio || strcmp(c, "blkio") == 0;
        if (blkio && strcmp(path, "/") != 0)
            snprintf(own_group_procs, sizeof own_group_procs,
                     "/sys/fs/cgroup/blkio%s/cgroup.procs", path);
    }
    fclose(f);
}

/* Writes text to the file at path. 0 or an errno. Async-signal-safe. */
static int write_text_to(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int e = write(fd, text, len) == (ssize_t)len ? 0 : errno;
    close(fd);
    return e;
}

/* Writes "MAJ:MIN BPS" to the root group's cap file. 0 or an errno. Async-signal-safe. */
static int write_rule(unsigned maj, unsigned min, uint64_t bps)
{
    char line[64];
    int len = snprintf(line, sizeof line, "%u:%u %llu\n", maj, min, (unsigned long long)bps);
    return write_text_to(write_bps_file, line, (size_t)len);
}

/* Moves this whole process into the blkio group whose cgroup.procs is procs. 0 or an
 * errno. Async-signal-safe. */
static int join_group(const char *procs)
{
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    return write_text_to(procs, pid, (size_t)len);
}

int sys_write_throttle_set(unsigned maj, unsigned min, uint64_t bps, cp_err_t *err)
{
    int e = write_rule(maj, min, bps);
    if (e == ENOENT)
        return cp_err_set(err, CP_EIO,
                          "no cgroup v1 blkio hierarchy at /sys/fs/cgroup/blkio (a root group "
                          "that throttles every writer, the kernel's write-back included)");
    if (e != 0)
        return cp_err_errno(err, CP_EIO, e, "cannot set a write cap on %u:%u in %s", maj, min,
                            write_bps_file);
    if (caps_set++ == 0) {
        find_own_group();
        if (own_group_procs[0] != '\0' &&
            (e = join_group("/sys/fs/cgroup/blkio/cgroup.procs")) != 0) {
            caps_set--;
            (void)write_rule(maj, min, 0);
            return cp_err_errno(err, CP_EIO, e, "cannot write from the root blkio group, "
                                "where the cap covers the kernel's write-back as well");
        }
    }
    return CP_OK;
}

void sys_write_throttle_clear(unsigned maj, unsigned min)
{
    (void)write_rule(maj, min, 0);
    if (caps_set > 0 && --caps_set == 0 && own_group_procs[0] != '\0')
        (void)join_group(own_group_procs);
}

void sys_write_throttle_remove(unsigned maj, unsigned min) { (void)write_rule(maj, min, 0); }

int sys_write_throttle_clear_unbound(void)
{
    char *text = sys_read_file(write_bps_file, 0);
    if (text == NULL)
        return 0;
    int cleared = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        unsigned maj, min;
        unsigned long long bps;
        if (sscanf(line, "%u:%u %llu", &maj, &min, &bps) != 3 || bps == 0)
            continue;
        char node[PATH_MAX], bound[96];
        const char *name = device_node(maj, min, node, sizeof node) ? node + strlen("/dev/") : "";
        snprintf(bound, sizeof bound, "/sys/dev/block/%u:%u/loop", maj, min);
        /* A loop device's "loop" directory is there only while a file backs it. */
        if (strncmp(name, "loop", 4) == 0 && access(bound, F_OK) != 0 && errno == ENOENT)
            cleared += write_rule(maj, min, 0) == 0;
    }
    free(text);
    return cleared;
}

/* ---- the guardian: a child that undoes what a killed process leaves in the system ----
 *
 * It waits on a pipe whose only writer is this process: a 'd' (done) lets it end; the pipe
 * closing without one means this process died, and it calls undo. It runs in a session of
 * its own, so a signal to this process's group or session (kill -9 -PGID, a hang-up) does
 * not take it along; it ignores interrupts, so a ^C leaves the unwinding to this process.
 * It keeps nothing of this process's open but the pipe and the descriptors undo needs (not
 * its locks: a killed process's lock must go with it). */
static int guardian_fd = -1;
static pid_t guardian_pid = -1;

/* Closes every descriptor from 3 up except the n in keep (ascending). Async-signal-safe. */
static void close_all_but(const int *keep, size_t n)
{
    unsigned from = 3;
    for (size_t i = 0; i < n; i++) {
        if (keep[i] < (int)from)
            continue;
        if ((unsigned)keep[i] > from)
            close_range(from, (unsigned)keep[i] - 1, 0);
        from = (unsigned)keep[i] + 1;
    }
    close_range(from, ~0U, 0);
}

#define GUARDIAN_KEEP_MAX 128

/* The child's life: async-signal-safe calls only (the parent may have threads). */
static void guardian_run(int read_fd, int ready_fd, void (*undo)(void), const int *keep,
                         size_t n, long parent)
{
    setsid();
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    /* In a session of its own now: a kill of the parent's process group no longer takes it,
     * so the parent may go on (sys_guardian_start waits for this word). */
    (void)!write(ready_fd, "r", 1);
    close(ready_fd);
    guardian_fd = -1; /* the parent's end is not this process's to write */
    /* Its copies of the settings' holds go (the parent must be their last holder), their
     * records stay: a dead parent's are put back below. */
    cp_cleanup_settings_orphan_in_child();
    /* The descriptors it keeps move above 2 first: with stdin (or any of 0..2) closed
     * when chokepoint started, the pipe or a disk's descriptor may be one of them, and
     * /dev/null below would replace it (the pipe would read as the parent's death at
     * once). */
    int kept[GUARDIAN_KEEP_MAX + 1];
    size_t k = 0;
    for (size_t i = 0; i < n && k < GUARDIAN_KEEP_MAX; i++)
        kept[k++] = keep[i] <= 2 ? fcntl(keep[i], F_DUPFD_CLOEXEC, 3) : keep[i];
    if (read_fd <= 2)
        read_fd = fcntl(read_fd, F_DUPFD_CLOEXEC, 3);
    kept[k++] = read_fd;
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; null >= 0 && fd <= 2; fd++)
        if (fd != null)
            dup2(null, fd);
    for (size_t i = 1; i < k; i++) /* insertion sort: a handful */
        for (size_t j = i; j > 0 && kept[j - 1] > kept[j]; j--) {
            int t = kept[j];
            kept[j] = kept[j - 1];
            kept[j - 1] = t;
        }
    close_all_but(kept, k);
    char c = 0;
    ssize_t got;
    while ((got = read(read_fd, &c, 1)) < 0 && errno == EINTR)
        ;
    if (got == 0) { /* no word: the parent died */
        undo();
        cp_cleanup_settings_restore_orphaned();
        sys_dirty_trace_remove_of(parent);
    }
    _exit(0);
}

void sys_guardian_disarm(void)
{
    int fd = guardian_fd;
    if (fd >= 0 && write(fd, "d", 1) == 1)
        guardian_fd = -1;
}

void sys_guardian_stop(void)
{
    if (guardian_fd >= 0) {
        (void)!write(guardian_fd, "d", 1);
        close(guardian_fd);
        guardian_fd = -1;
    }
    if (guardian_pid > 0) {
        while (waitpid(guardian_pid, NULL, 0) < 0 && errno == EINTR)
            ;
        guardian_pid = -1;
    }
}

bool sys_guardian_start(void (*undo)(void), const int *keep, size_t n)
{
    sys_guardian_stop();
    int fds[2], ready[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return false;
    if (pipe2(ready, O_CLOEXEC) != 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    long parent = (long)getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[1]);
        close(ready[0]);
        guardian_run(fds[0], ready[1], undo, keep, n, parent);
    }
    close(fds[0]);
    close(ready[1]);
    if (pid < 0) {
        close(fds[1]);
        close(ready[0]);
        return false;
    }
    /* Until the guardian has its own session a group kill would take it too. */
    char c;
    while (read(ready[0], &c, 1) < 0 && errno == EINTR)
        ;
    close(ready[0]);
    guardian_pid = pid;
    guardian_fd = fds[1];
    return true;
}
