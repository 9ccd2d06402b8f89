/* sys.h - every question chokepoint asks the operating system, in chokepoint's concepts:
 * files, volumes (mount, free space, device queue), the machine (host description,
 * write-back settings, CPU and disk counters), processes and the threads' accounting. The
 * layers above (measure, study, cli) call these instead of the system themselves and never
 * see a system's file names or text formats, so another system (macOS: F_NOCACHE,
 * F_FULLFSYNC, sysctl) is one more implementation of this header (common/sys_macos.c,
 * chosen in CMakeLists.txt; docs/architecture.md lists what it must provide).
 *
 * Implementations: sys.c (portable rules shared by all), sys_spawn.c (starting and waiting
 * for programs, POSIX) and, for Linux, sys_linux.c (files, volumes, machine: /proc, libmount
 * for /proc/self/mountinfo, statvfs/statfs, statx, posix_fadvise, mincore, memfd, prctl),
 * sys_linux_host.c (host description, write-back settings, /sys/dev/block queues),
 * sys_linux_tasks.c (pressure, schedstat, delay accounting, tracefs) and sys_linux_disk.c
 * (loop devices, mounts, the block throttle); their text parsers are private
 * (sys_linux_parse.h). Nothing here writes to a file system except where a function says
 * so. Functions return CP_OK/CP_E* or a bool, as each says. */
#ifndef CP_SYS_H
#define CP_SYS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "common/err.h"

/* ---- what this system can do ------------------------------------------------------------ */

/* Capability flags, one per feature not every system has (as fio's FIO_HAVE_*): 1 when
 * this system's implementation provides it. A system without one still defines its
 * functions (answering "cannot": false, NAN, CP_EIO), and callers test the flag where they
 * would otherwise assume Linux. A new system sets its own in a block below; the rest
 * default to 0. */
#if defined(__linux__)
#define SYS_HAVE_DIRECT_IO 1       /* page-cache bypass (O_DIRECT) */
#define SYS_HAVE_PRESSURE 1        /* machine-wide stall totals (PSI) */
#define SYS_HAVE_SCHEDSTAT 1       /* a thread's run-queue delay */
#define SYS_HAVE_DELAYACCT 1       /* a thread's block-I/O delay (delay accounting) */
#define SYS_HAVE_DIRTY_TRACE 1     /* write-back throttling events (tracefs) */
#define SYS_HAVE_PROCESS_TREE 1    /* a process's descendants */
#define SYS_HAVE_PDEATHSIG 1       /* a signal when the parent dies */
#define SYS_HAVE_LOOP 1            /* a file image as a block device, mounted */
#define SYS_HAVE_BLKIO_THROTTLE 1  /* a cap on a block device's write bandwidth */
#endif
#ifndef SYS_HAVE_DIRECT_IO
#define SYS_HAVE_DIRECT_IO 0
#endif
#ifndef SYS_HAVE_PRESSURE
#define SYS_HAVE_PRESSURE 0
#endif
#ifndef SYS_HAVE_SCHEDSTAT
#define SYS_HAVE_SCHEDSTAT 0
#endif
#ifndef SYS_HAVE_DELAYACCT
#define SYS_HAVE_DELAYACCT 0
#endif
#ifndef SYS_HAVE_DIRTY_TRACE
#define SYS_HAVE_DIRTY_TRACE 0
#endif
#ifndef SYS_HAVE_PROCESS_TREE
#define SYS_HAVE_PROCESS_TREE 0
#endif
#ifndef SYS_HAVE_PDEATHSIG
#define SYS_HAVE_PDEATHSIG 0
#endif
#ifndef SYS_HAVE_LOOP
#define SYS_HAVE_LOOP 0
#endif
#ifndef SYS_HAVE_BLKIO_THROTTLE
#define SYS_HAVE_BLKIO_THROTTLE 0
#endif

/* ---- the system's own files ------------------------------------------------------------ */

/* Reads the system's files under dir instead of /proc (the machine's counters, the write-back
 * settings, the threads' accounting and the mount table); NULL restores /proc. For tests:
 * not thread-safe, call before anything reads. */
void sys_set_proc_root(const char *dir);

/* MemAvailable from <proc root>/meminfo, in bytes: the kernel's estimate of the memory a
 * new job can take without swapping. False when it cannot be read. */
bool sys_mem_available(uint64_t *bytes);

/* ---- the machine ------------------------------------------------------------------------ */

/* The machine a run happens on, as meta.json records it. */
typedef struct sys_host {
    char cpu_model[128];      /* "Intel(R) Xeon(R) Processor"; "" when unknown */
    int online_cpus;          /* CPUs online in the machine; 0 when unknown */
    int usable_cpus;          /* CPUs this process may run on (affinity mask); 0 unknown */
    uint64_t mem_total_bytes; /* the machine's memory; 0 when unknown */
    char kernel_release[128]; /* uname -r */
    char machine[64];         /* uname -m: "x86_64", "aarch64" */
    char os_name[128];        /* the OS's pretty name ("Debian GNU/Linux 12"); "" unknown */
    char hostname[256];       /* the machine's name; "" when unknown */
} sys_host_t;

/* Fills out with what the system says about the machine (fields it cannot tell stay empty
 * or 0). Never fails. */
void sys_host_info(sys_host_t *out);

/* The kernel's raw page-cache write-back settings and the memory they apply to (bytes;
 * 0 when not set). */
typedef struct sys_writeback {
    uint64_t dirty_background_ratio, dirty_ratio;  /* percent */
    uint64_t dirty_background_bytes, dirty_bytes;  /* 0 = use the ratio */
    uint64_t dirty_expire_centisecs, dirty_writeback_centisecs;
    uint64_t mem_free, file_pages;   /* free memory; file pages, active and inactive */
    uint64_t mem_available;          /* the kernel's estimate of memory available */
    /* The kernel's own limits (dirty and background threshold pages times the page
     * size); 0 when not published. */
    uint64_t vmstat_dirty_bytes, vmstat_dirty_background_bytes;
} sys_writeback_t;

/* Reads the running kernel's write-back settings into *out (zeroed first). False when any
 * of them (or the memory figures) cannot be read; the kernel's own limits are optional. */
bool sys_writeback_read(sys_writeback_t *out);

/* A block device's queue: *rotational 1 (spinning), 0 (not) or -1 (unknown), and
 * *logical_block_bytes (0 when unknown), looking at the parent device for a partition.
 * Major 0 (no block device) leaves both unknown. */
void sys_volume_queue(unsigned major, unsigned minor, int *rotational,
                      uint32_t *logical_block_bytes);

/* CPUs online now (sysconf); 0 when unknown. */
int sys_online_cpus(void);

/* CPUs this process may run on (its affinity mask); 0 when unknown. */
int sys_usable_cpus(void);

/* Physical memory in bytes (pages x page size); 0 when unknown. */
uint64_t sys_phys_mem_bytes(void);

/* The memory page size in bytes; 0 when unknown. */
long sys_page_size(void);

/* Clock ticks per second, the unit of the kernel's per-task tick counters; 0 when
 * unknown. */
long sys_clock_ticks_per_second(void);

/* The calling thread's id as the kernel numbers threads (gettid). */
long sys_thread_id(void);

/* ---- processes ------------------------------------------------------------------------- */

/* Asks the kernel to send the calling process signal sig when its parent dies (Linux
 * PR_SET_PDEATHSIG). False when the system cannot (the caller then relies on polling its
 * parent). */
bool sys_die_with_parent(int sig);

/* How sys_spawn starts a program. Its standard input is always /dev/null. */
typedef struct sys_spawn_opts {
    const char *path; /* the program's file; NULL: argv[0], looked up on PATH */
    int stdout_fd;    /* the program's standard output: this descriptor; -1: /dev/null */
    int stderr_fd;    /* its standard error: this descriptor; -1: /dev/null */
    bool guarded;     /* in a process group of its own (signal -pid to end all of it), led
                       * by a guardian that kills the group if this process dies outright
                       * and exits as the program did; default signal dispositions */
    const int *pass_fds; /* n_pass_fds (at most 8) open descriptors the program gets as
                          * 3, 4, ... (so it can open /dev/fd/3 rather than a name); a
                          * plain child only: EINVAL for a guarded one */
    size_t n_pass_fds;
} sys_spawn_opts_t;

/* Starts the program argv (argv[0] its name) as opts says, without waiting; its process id
 * goes to *pid (for a guarded program, the guardian's: wait for that one). 0, or the errno
 * of the failure (a missing program is an error only when not guarded; a guarded one that
 * cannot be run exits 127). */
int sys_spawn(char *const argv[], const sys_spawn_opts_t *opts, long *pid);

/* How a waited-for program ended. */
typedef struct sys_exit {
    bool exited; /* true: it exited, with status code; false: killed by signal code */
    int code;
} sys_exit_t;

/* Waits for the child pid to end (interruptions retried) and says how into *out. 0, or -1
 * with errno set when it cannot be waited for. */
int sys_wait(long pid, sys_exit_t *out);

/* Creates a pipe whose two ends (fds[0] to read, fds[1] to write) close on exec. 0, or -1
 * with errno set. */
int sys_pipe_cloexec(int fds[2]);

/* ---- CPU time and disk counters --------------------------------------------------------- */

/* The machine's CPU time by kind, in clock ticks (USER_HZ): the aggregate "cpu" line of
 * /proc/stat. */
typedef struct sys_cpu_times {
    uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
} sys_cpu_times_t;

/* One block device's counters (the ones chokepoint uses): its line of /proc/diskstats. */
typedef struct sys_disk_counters {
    unsigned major, minor;
    char name[64];            /* the kernel's name: "vda", "sda2", "dm-0" */
    uint64_t sectors_written; /* always 512-byte units, whatever the device's sector size */
    uint64_t io_ticks_ms;     /* milliseconds with at least one request in flight */
} sys_disk_counters_t;

/* The machine's CPU times now (sys_parse_cpu_stat of "<proc root>/stat"). 0; CP_EIO when
 * it cannot be read; CP_EDATA when malformed. */
int sys_cpu_times_read(sys_cpu_times_t *out, cp_err_t *err);

/* Device major:minor's counters now (sys_parse_diskstats of "<proc root>/diskstats").
 * 0; CP_EIO "<proc root>/diskstats: cannot read"; CP_EDATA when there is no such line. */
int sys_disk_counters_read(unsigned major, unsigned minor, sys_disk_counters_t *out,
                           cp_err_t *err);

/* ---- the mount table ------------------------------------------------------------------ */

#define SYS_FS_TYPE_MAX 64
#define SYS_MOUNT_SOURCE_MAX 512
#define SYS_MOUNT_OPTIONS_MAX 512

typedef struct sys_mount {
    unsigned major, minor;               /* the mount's device number */
    char fstype[SYS_FS_TYPE_MAX];        /* "ext4", "btrfs", "tmpfs", ... */
    char source[SYS_MOUNT_SOURCE_MAX];   /* "/dev/sda1", "tmpfs"; escapes decoded */
    char target[PATH_MAX];               /* the mount point; escapes decoded */
    char options[SYS_MOUNT_OPTIONS_MAX]; /* "rw,relatime,errors=remount-ro": the mount's
                                          * and the file system's options, as mount(8)
                                          * lists them */
} sys_mount_t;

/* The mount with device number major:minor in <proc root>/self/mountinfo (parsed by
 * libmount, so \040-style escapes are decoded). CP_OK with *out filled; CP_EIO when the
 * table cannot be read; CP_EDATA "mountinfo: no mount with device MAJ:MIN" when no mount
 * has that number. Fields are truncated to their capacities. */
int sys_mount_by_devno(unsigned major, unsigned minor, sys_mount_t *out, cp_err_t *err);

/* The mount holding path (resolved with realpath): among the mounts whose mount point
 * contains it, those with the directory's own device number first, then the deepest
 * (the last mounted on ties). CP_OK with *out filled; CP_EUSAGE naming path when it
 * cannot be resolved; CP_EIO when the table cannot be read; CP_EDATA when no mount
 * contains path. */
int sys_mount_of_path(const char *path, sys_mount_t *out, cp_err_t *err);

/* ---- device numbers -------------------------------------------------------------------- */

/* The major and minor numbers of device number dev (a stat's st_dev or st_rdev). Major 0
 * is an anonymous device: no block device behind it (tmpfs, overlay, NFS, btrfs...). */
void sys_devno_split(dev_t dev, unsigned *major_no, unsigned *minor_no);

/* ---- file systems and free space ------------------------------------------------------ */

/* A file system's name for a statfs f_type magic number ("ext4" for ext2/3/4), or NULL
 * when the number is not known. The string is static. */
const char *sys_fs_name(unsigned long magic);

/* The file system type of the volume holding path: its name, or "0x<magic>" when the
 * magic number is not known. CP_EUSAGE naming path when it cannot be examined. */
int sys_fs_type(const char *path, char *out, size_t cap, cp_err_t *err);

/* True for file system names whose data lives in RAM (tmpfs, ramfs). */
bool sys_fs_is_ram(const char *fs_type);

/* The one free-space rule: a file may be written to a volume when it fits in the space
 * available to this user less a safety margin of max(64 MiB, 1% of the volume's size).
 * statvfs's f_bavail already leaves out the blocks reserved for root, so the margin only
 * keeps room for metadata, other writers and chokepoint's own result files. Used by
 * compress, fixture, probe and sweep (docs/method.md, "Free space"). */
#define SYS_SPACE_MARGIN_MIN_BYTES (64ull << 20)
#define SYS_SPACE_MARGIN_PERCENT 1u

typedef struct sys_space {
    uint64_t free_bytes;   /* available to this user: f_bavail x f_frsize */
    uint64_t total_bytes;  /* f_blocks x f_frsize; 0 when the file system does not say
                            * (ramfs, some FUSE): nothing is known about its room */
    uint64_t margin_bytes; /* sys_space_margin(total_bytes) */
    uint64_t usable_bytes; /* free_bytes less the margin; 0 when the margin is larger */
} sys_space_t;

/* The margin for a volume of total_bytes: max(SYS_SPACE_MARGIN_MIN_BYTES,
 * SYS_SPACE_MARGIN_PERCENT % of total_bytes). Pure. */
uint64_t sys_space_margin(uint64_t total_bytes);

/* Fills out from free and total bytes (margin and usable as above). Pure. */
void sys_space_make(uint64_t free_bytes, uint64_t total_bytes, sys_space_t *out);

/* Reads the free space of the volume holding dir with statvfs. CP_OK, or CP_EIO
 * "cannot read the free space of '<dir>'" with the errno text. */
int sys_space_read(const char *dir, sys_space_t *out, cp_err_t *err);

/* True when a file of `bytes` fits: bytes <= usable_bytes. */
bool sys_space_fits(const sys_space_t *space, uint64_t bytes);

/* The directory of the machine's shared RAM volume ("/dev/shm" on Linux), or NULL when
 * the system has none. Static. */
const char *sys_ram_dir(void);

/* ---- O_DIRECT and the page cache ------------------------------------------------------ */

/* The open(2) flag that bypasses the page cache (O_DIRECT), or 0 where the system has none.
 * A file system that refuses it fails the open with EINVAL. */
int sys_direct_open_flag(void);

/* Turns page-cache bypass on or off on the open file fd (fcntl F_SETFL O_DIRECT). 0, or
 * the errno of the refusal. */
int sys_direct_set(int fd, bool on);

/* Creates an anonymous file in RAM (memfd, close-on-exec) named name for debugging, and
 * writes into path (cap bytes) a path another process can open it by while fd is open
 * ("/proc/PID/fd/N"). Returns the descriptor, or -1 with errno set. */
int sys_ram_file_create(const char *name, char *path, size_t cap);

/* The alignment O_DIRECT needs for the open file fd (the larger of the offset and memory
 * alignments statx reports with STATX_DIOALIGN), or 0 when the kernel does not say. */
size_t sys_direct_alignment(int fd);

/* Writes back the dirty pages of the open file fd (fdatasync; EINVAL, a file that cannot
 * be synced, is ignored) and asks the kernel to evict its cached pages (posix_fadvise
 * POSIX_FADV_DONTNEED). Returns 0, or the errno of a failed write-back. *advised is true
 * when the kernel accepted the advice (it may still keep the pages: check with
 * sys_cache_resident_fraction). */
int sys_cache_evict(int fd, bool *advised);

/* Writes the open file fd's data (and the metadata needed to read it back) to its device
 * and waits for the device to have it (fdatasync on Linux). 0, or -1 with errno set (EINVAL:
 * a file that cannot be synced). */
int sys_datasync(int fd);

/* Renames from to to only when to does not exist, in one step (renameat2's
 * RENAME_NOREPLACE on Linux). 0, or an errno: EEXIST when to exists; EINVAL, ENOSYS or
 * EOPNOTSUPP when this system or the file system cannot (common/tempfile.c then links). */
int sys_rename_no_replace(const char *from, const char *to);

/* Swaps the files at a and b in one step (renameat2's RENAME_EXCHANGE on Linux). 0, or an
 * errno (EINVAL, ENOSYS or EOPNOTSUPP where this system or the file system cannot). */
int sys_rename_exchange(const char *a, const char *b);

/* The last modification time a stat recorded (st_mtim on Linux, st_mtimespec on macOS). */
struct timespec sys_stat_mtime(const struct stat *st);

/* The text of errnum, written into buf (cap bytes) or a static string of the system's;
 * returns it, never NULL. Thread-safe (GNU strerror_r on Linux). */
const char *sys_strerror(int errnum, char *buf, size_t cap);

/* Tells the kernel fd will be read sequentially (larger read-ahead). Advice only: a
 * refusal changes nothing and is ignored. */
void sys_advise_sequential(int fd);

/* True when no process pid exists (it ended, and its leftovers are anyone's to remove);
 * false for pid <= 0, for this process, and when it may still exist. */
bool sys_process_gone(long pid);

/* ---- an emulated disk: loop devices, mounts, the block throttle (sys_linux_disk.c) ---- */

/* Runs the program argv[0] (found on PATH) with argv, its input from /dev/null and its
 * output discarded, and waits for it. CP_OK when it exits 0; otherwise CP_EIO naming the
 * program and its exit status (or that it cannot be run). */
int sys_run_quietly(char *const argv[], cp_err_t *err);

/* Attaches the file open read-write as image_fd (a regular file; image_name only names it
 * in messages) to a free loop device that detaches itself once nothing holds it open (so a
 * mount is all there is to undo), with direct I/O unless the image's file system refuses
 * it (*direct says which), and checks that the device is backed by that very file. Writes
 * the device's path into dev (cap bytes), its numbers into *maj and *min, and into *held_fd
 * a descriptor of it that keeps it attached: close it once the device is mounted (closing
 * it first detaches the device). CP_EIO naming the image or the device on failure (no loop
 * devices, not permitted). */
int sys_loop_attach(int image_fd, const char *image_name, char *dev, size_t cap, unsigned *maj,
                    unsigned *min, bool *direct, int *held_fd, cp_err_t *err);

/* True when block device maj:min is a loop device whose backing file is the file with
 * device number file_dev and inode file_ino (the kernel's own record of it, not a path).
 * Async-signal-safe. */
bool sys_loop_backed_by(unsigned maj, unsigned min, uint64_t file_dev, uint64_t file_ino);

/* Mounts the block device dev (file system fs_type, mount options text) on the directory
 * name inside the directory open as dir_fd, reached through that descriptor (no path
 * another user could swap), without access times, set-user-ID or device files. CP_EIO
 * naming both on failure, or when name is not a directory there. */
int sys_mount_fs_at(const char *dev, int dir_fd, const char *name, const char *fs_type,
                    const char *options, cp_err_t *err);

/* Detaches the file system mounted on the directory name inside the directory open as
 * dir_fd (through the descriptor; a symlink there is not followed); the kernel lets it go
 * once its last file is closed. Nothing happens when it is not a mount point.
 * Async-signal-safe. */
void sys_unmount_at(int dir_fd, const char *name);

/* Caps the write bandwidth of block device maj:min at bps bytes a second for every writer,
 * the kernel's write-back of dirty pages included: the block throttle of the system's root
 * group (cgroup v1 blkio). v1 charges a write to its writer's group and applies only that
 * group's rules, so while a cap is set this process writes from the root group too (one
 * rule for it and the flusher alike; it goes back to its own group when the last cap is
 * cleared). CP_EIO saying why when the system has no such throttle or it cannot be set
 * (not root). Undo it with sys_write_throttle_clear. */
int sys_write_throttle_set(unsigned maj, unsigned min, uint64_t bps, cp_err_t *err);

/* Removes the write cap sys_write_throttle_set put on maj:min (and, with the last one,
 * takes this process back to its own blkio group); nothing when none is set.
 * Async-signal-safe. */
void sys_write_throttle_clear(unsigned maj, unsigned min);

/* Removes the write cap on maj:min that a dead chokepoint process set (this process's own
 * caps and group untouched). Async-signal-safe. */
void sys_write_throttle_remove(unsigned maj, unsigned min);

/* Removes the write caps on loop devices that no file backs any more (left by a process
 * killed with its guardian: such a rule would cap whoever takes the device next). Returns
 * how many. */
int sys_write_throttle_clear_unbound(void);

/* Forks a guardian, in a session of its own (a signal to this process's group does not
 * reach it): a child that, when this process dies without sys_guardian_stop or
 * sys_guardian_disarm (e.g. killed with SIGKILL), calls undo (async-signal-safe: it runs
 * in the child, on the child's copy of this process's memory as it is now, with the n
 * descriptors keep[0..n) still open and every other one closed), then puts back the
 * kernel settings this process held if no other holder is alive
 * (cp_cleanup_settings_restore_orphaned) and removes its tracefs instance
 * (sys_dirty_trace_remove_of). One at a time: starting one stops the one before. False
 * when it cannot be forked (then nothing guards). */
bool sys_guardian_start(void (*undo)(void), const int *keep, size_t n);

/* Tells the guardian this process is done (it ends without calling undo) and reaps it.
 * Safe without one. */
void sys_guardian_stop(void);

/* Tells the guardian not to act, from a signal handler that undoes things itself
 * (async-signal-safe; sys_guardian_stop still reaps it). */
void sys_guardian_disarm(void);

/* ---- where time went: pressure stalls and run-queue delay ------------------------------ */

/* sys_parse_pressure of "<proc root>/pressure/<resource>" ("io", "cpu"). False (both NAN)
 * when the kernel has no PSI (CONFIG_PSI off, or psi=0) or the file cannot be read. */
bool sys_pressure_read(const char *resource, double *some_us, double *full_us);

/* One thread and its accounting so far. */
typedef struct sys_task_account {
    long tid;
    long tgid;            /* its process */
    uint64_t run_ns;      /* on a core (schedstat) */
    uint64_t wait_ns;     /* waiting for a core: run-queue delay (schedstat) */
    uint64_t blkio_ticks; /* blocked on I/O: delay accounting's block-I/O delay, clock
                           * ticks (sysconf(_SC_CLK_TCK) per second); 0 when it is off */
} sys_task_account_t;

/* The accounting of every thread of process pid (0: this process) now, from
 * "<proc root>/PID/task/TID/schedstat" (needs CONFIG_SCHED_INFO) and ".../stat", into
 * out[0..cap). Returns how many were read (a thread that ends while being read is
 * skipped), or -1 when the directory or the first thread cannot be read (not measurable
 * here, or the process is gone). */
int sys_task_accounts(long pid, sys_task_account_t *out, size_t cap);

/* The calling thread's schedstat now: nanoseconds on a core and waiting for one. False
 * when the kernel keeps none (CONFIG_SCHED_INFO off) or it cannot be read. */
bool sys_thread_schedstat(uint64_t *on_cpu_ns, uint64_t *wait_ns);

/* The calling thread's system CPU seconds so far (getrusage RUSAGE_THREAD); NAN when it
 * cannot be read. */
double sys_thread_system_seconds(void);

/* Process root and its descendants now, root first, breadth first, into out[0..cap), from
 * "<proc root>/PID/task/TID/children" (CONFIG_PROC_CHILDREN). Returns the count, or -1 when
 * root is not a process here. A process that forks while being read may be missed until
 * the next call. */
int sys_process_tree(long root, long *out, int cap);

/* Turns on the kernel's delay accounting (sysctl kernel.task_delayacct) when it is off and
 * this process may change it (root), once per process, and holds it on (held_setting.h,
 * counted in /run/chokepoint): when the last chokepoint holding it exits, also after an
 * interrupt (cp_cleanup_settings_restore), the original value is put back; one killed
 * with SIGKILL leaves it on until its guardian (sys_guardian_start, while an emulated disk
 * is up) or the next one that holds it puts it back. Returns true when delay
 * accounting is on, so that blkio_ticks measure something. */
bool sys_delayacct_enable(void);

/* True when kernel.task_delayacct reads 1 now (another process that turned it on may have
 * turned it off since). */
bool sys_delayacct_is_on(void);

/* ---- write-back throttling (tracefs) ---------------------------------------------------- */

/* A recording of write-back throttling events in a tracefs instance of its own. */
typedef struct sys_dirty_trace sys_dirty_trace_t;

/* Starts recording "writeback:balance_dirty_pages" events in an instance named after this
 * process (tracefs at /sys/kernel/tracing or /sys/kernel/debug/tracing, root), holding a
 * lock file beside the kernel settings' records (/run/chokepoint) that says the instance
 * is a live chokepoint's. Returns NULL when tracefs cannot be used; the instance is removed
 * by sys_dirty_trace_stop, by the guardian of a process killed outright, and otherwise by
 * the next start: an instance is a dead chokepoint's when its lock file can be locked. */
sys_dirty_trace_t *sys_dirty_trace_start(void);

/* Removes the tracefs instance of chokepoint process pid and its lock file (the guardian's
 * undo once pid died). Async-signal-safe. */
void sys_dirty_trace_remove_of(long pid);

/* Stops the recording, frees t (NULL is fine) and returns the seconds the processes
 * tgids[0..n) were paused (sys_parse_dirty_pauses); NAN when t is NULL or the events
 * cannot be read, or when the kernel's buffer overflowed (events were lost). */
double sys_dirty_trace_stop(sys_dirty_trace_t *t, const long *tgids, size_t n);

/* ---- memory --------------------------------------------------------------------------- */

/* Allocates a large, long-lived buffer of n bytes (n > 0). From 2 MiB up it is aligned to
 * 2 MiB and the kernel is asked to back it with transparent huge pages (MADV_HUGEPAGE, a
 * hint: ignored where THP is off): a buffer the kernel copies gigabytes into and out of
 * then costs a few hundred page faults instead of one per 4 KiB, and far fewer TLB misses
 * (docs/method.md, "The write path"). Smaller buffers are plain malloc. Free with free();
 * realloc works on it. NULL when out of memory. */
void *sys_alloc_large(size_t n);

/* Opens /dev/null on each of descriptors 0, 1 and 2 that is closed (a command started
 * with >&- or 2>&-), so that no file the program opens later takes that number and gets
 * its messages. Call it before opening anything. */
void sys_std_fds_guard(void);

/* The directory of the running executable (from /proc/self/exe) into dir (cap bytes).
 * False when it cannot be told. */
bool sys_executable_dir(char *dir, size_t cap);

/* The fraction (0..1) of the open file fd that is in the page cache (mincore), or -1 when
 * it cannot be determined (empty file, mmap refused, out of memory). */
double sys_cache_resident_fraction(int fd);

#endif
