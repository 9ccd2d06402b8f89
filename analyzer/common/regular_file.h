/* regular_file.h - the one way chokepoint opens a data file it reads (runs.csv, probe.csv,
 * meta.json, fio and hyperfine exports, compare and history inputs): as what it must be,
 * a regular file. The open never blocks (O_NONBLOCK: a FIFO or a device named as a table
 * cannot hang a command), and the descriptor is checked with fstat before a byte is read.
 * A name chokepoint gives inside a results directory (meta.json, runs.csv, probe.csv) is
 * opened without following a symlink (O_NOFOLLOW). */
#ifndef CP_REGULAR_FILE_H
#define CP_REGULAR_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

/* How the last component of the path is taken. */
typedef enum regular_file_name {
    REGULAR_FILE_GIVEN, /* a name the user gave: a symlink to a regular file is followed */
    REGULAR_FILE_OWN,   /* chokepoint's own name in a results directory: never a symlink */
} regular_file_name_t;

/* Opens path read-only (O_CLOEXEC) and returns its descriptor (>= 0) in *fd, blocking
 * mode restored. Failures, with *fd -1 and one line in err naming the path:
 * - the open fails: CP_EUSAGE "PATH: cannot open: REASON" for a missing or unreadable
 *   file, CP_EIO for other errors; errno is then open's (ENOENT for a missing file), so a
 *   caller may treat a missing file as its own case (call cp_err_clear first);
 * - REGULAR_FILE_OWN and the name is a symlink: CP_EDATA "PATH: is a symlink, not a
 *   regular file", errno ELOOP;
 * - not a regular file: CP_EDATA "PATH: is a FIFO (a directory, a device, a socket), not
 *   a regular file", errno EINVAL. */
int regular_file_open(const char *path, regular_file_name_t how, int *fd, cp_err_t *err);

/* The most bytes chokepoint reads of each kind of data file (docs/formats.md), so a
 * sparse or endless file costs an error, not all of memory:
 * - a meta.json: 16 MiB (a real one is a few KiB);
 * - a fio or hyperfine JSON export given to `import`: 256 MiB (a million runs of
 *   hyperfine, each four numbers, are about 90 MB);
 * - a table (runs.csv, probe.csv, a CSV given to compare or history): 1 GiB, room for
 *   the CSV_TABLE_ROWS_MAX rows (a million) of up to 1 KiB each. */
#define REGULAR_FILE_META_MAX ((size_t)16 << 20)
#define REGULAR_FILE_IMPORT_MAX ((size_t)256 << 20)
#define REGULAR_FILE_TABLE_MAX ((size_t)1 << 30)

/* Reads all of the regular file at path (opened by regular_file_open) into a new buffer,
 * NUL-terminated past *len bytes, which the caller frees; *owner_uid (may be NULL) is the
 * user id owning the file that was read. A file of more than max bytes (by its size, or
 * by what a read finds when it grew meanwhile) is refused before more than max + 1 bytes
 * are held: CP_EDATA "PATH: larger than N MiB (N bytes, a bound not in whole MiB), the most
 * chokepoint reads of such a file",
 * errno EFBIG. Stops with CP_EINTR when an interrupt (common/cleanup) arrives while
 * reading. On failure *data is NULL, *len 0, and the code and errno are
 * regular_file_open's, or CP_EIO "PATH: cannot read: REASON", CP_ENOMEM. */
int regular_file_read_at_most(const char *path, regular_file_name_t how, size_t max,
                              char **data, size_t *len, long *owner_uid, cp_err_t *err);

/* regular_file_read_at_most with the bound of a table, REGULAR_FILE_TABLE_MAX. */
int regular_file_read(const char *path, regular_file_name_t how, char **data, size_t *len,
                      long *owner_uid, cp_err_t *err);

#endif
