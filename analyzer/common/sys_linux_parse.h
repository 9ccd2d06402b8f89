/* sys_linux_parse.h - the Linux implementation's text parsers (/proc/stat, /proc/diskstats,
 * pressure-stall files, a task's schedstat and stat lines, tracefs write-back events).
 * Private to common/sys_linux*.c and to the unit tests that feed them text: nothing above
 * the OS seam includes it (callers ask sys.h's concept functions instead). */
#ifndef CP_SYS_LINUX_PARSE_H
#define CP_SYS_LINUX_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/sys.h"

/* ---- reading the system's files (sys_linux.c) ----------------------------------------- */

/* The directory sys_read_proc reads from ("/proc" unless a test changed it). Static. */
const char *sys_proc_root(void);

/* The whole text of a file (or its first max_bytes when max_bytes > 0), read to EOF since
 * /proc files report size 0. Returns a NUL-terminated buffer the caller frees, or NULL
 * when the file cannot be opened or read or memory runs out (callers treat that as
 * "unknown"). */
char *sys_read_file(const char *path, size_t max_bytes);

/* sys_read_file of "<proc root>/<name>", e.g. "stat", "diskstats", "meminfo". */
char *sys_read_proc(const char *name, size_t max_bytes);

/* A small unsigned number from a /sys (or /proc/sys) file; false when absent or
 * malformed. */
bool sys_read_number(const char *path, unsigned long *value);

/* A block device attribute from /sys/dev/block/MAJ:MIN/queue/ ("rotational",
 * "logical_block_size"), looking at the parent device for a partition. False when the
 * device or attribute is unknown. */
bool sys_block_queue_attr(unsigned major, unsigned minor, const char *attr,
                          unsigned long *value);

/* ---- the parsers ---------------------------------------------------------------------- */

/* The CPU's model from /proc/cpuinfo text (the first "model name", "Processor", "cpu
 * model", "Hardware" or "cpu" line, blanks collapsed) into model[model_cap]. 0, or
 * CP_EDATA (model "") when there is none. */
int sys_parse_cpuinfo(const char *text, char *model, size_t model_cap);

/* MemTotal from /proc/meminfo text, in bytes. 0, or CP_EDATA when absent or malformed. */
int sys_parse_meminfo_total(const char *text, uint64_t *bytes);

/* PRETTY_NAME from os-release text, quotes removed, into name[name_cap]. 0, or CP_EDATA. */
int sys_parse_os_release(const char *text, char *name, size_t name_cap);

/* Reads MemFree, MemAvailable and the file pages (Active(file) + Inactive(file)) from
 * /proc/meminfo text into in. False when any of the four is missing. */
bool sys_parse_writeback_meminfo(const char *text, sys_writeback_t *in);

/* Reads nr_dirty_threshold and nr_dirty_background_threshold (pages) from /proc/vmstat
 * text into in, in bytes of page_size. False when either is missing. */
bool sys_parse_writeback_vmstat(const char *text, uint64_t page_size, sys_writeback_t *in);

/* Parses the aggregate "cpu " line of /proc/stat text. Fields a kernel does not report
 * are 0. Returns 0, or CP_EDATA (err says why) when the line is missing or malformed. */
int sys_parse_cpu_stat(const char *text, sys_cpu_times_t *out, cp_err_t *err);

/* Finds the line for major:minor in /proc/diskstats text. Returns 0, or CP_EDATA when
 * there is no such line or it is malformed (err says which). */
int sys_parse_diskstats(const char *text, unsigned major, unsigned minor,
                        sys_disk_counters_t *out, cp_err_t *err);

/* Parses a pressure-stall file (/proc/pressure/io, cpu, memory: lines "some avg10=..
 * total=US" and "full ... total=US"): the cumulative microseconds in *some_us and *full_us
 * (NAN when the file has no "full" line, as /proc/pressure/cpu before Linux 5.13; full_us
 * may be NULL when not wanted). False when there is no "some" total. */
bool sys_parse_pressure(const char *text, double *some_us, double *full_us);

/* Parses a task's schedstat text ("ON_CPU_NS WAIT_NS TIMESLICES"): *on_cpu_ns is the time
 * it ran, *wait_ns the time it spent runnable, waiting for a CPU (on_cpu_ns may be NULL).
 * False when malformed. */
bool sys_parse_schedstat(const char *text, uint64_t *on_cpu_ns, uint64_t *wait_ns);

/* Parses a task's /proc stat line: *blkio_ticks is field 42, delayacct_blkio_ticks (the
 * time it was blocked on block I/O, in clock ticks; it grows only while delay accounting
 * is on). The command name in parentheses may hold spaces and parentheses: fields are
 * counted from the last ')'. False when malformed or too short (kernels before 2.6.18). */
bool sys_parse_task_stat(const char *text, uint64_t *blkio_ticks);

/* Sums the pause (milliseconds, as the event prints it) of the
 * "writeback:balance_dirty_pages" events in tracefs text recorded with the record-tgid
 * option, for tasks whose thread-group id is in tgids[0..n): the time those tasks were put
 * to sleep for dirtying pages faster than write-back cleans them. Events that did not
 * sleep (pause <= 0) add nothing. Returns the seconds; lines of other events are ignored. */
double sys_parse_dirty_pauses(const char *text, const long *tgids, size_t n);

#endif
