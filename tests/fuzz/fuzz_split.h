/* fuzz_split.h - one fuzz input as several files: the loaders that read a directory (a
 * results directory, a root of them) get their files from one input cut at header lines.
 *
 * A line "@@ NAME" (at the start of the input or after a newline, NAME one of the names
 * the harness allows) starts the file NAME; what comes before the first header belongs to
 * the first name. A file named twice keeps its last part; a name never given is absent
 * (not written), one given with nothing after it is an empty file. Anything else, a
 * header with an unknown name included, is content.
 *
 * The files go into a private directory made once per process (mkdtemp under $TMPDIR,
 * else /dev/shm, else /tmp, named chokepoint-fuzz.PID.XXXXXX) and are removed after each
 * input (fuzz_tmp_clear); the directory itself goes at exit. A fuzzer that dies on a
 * finding leaves its last input's files (libFuzzer exits at once); the next fuzzer to
 * start removes such directories, ours and of a process that no longer runs. */
#ifndef CP_FUZZ_SPLIT_H
#define CP_FUZZ_SPLIT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw's FTW_DEPTH, FTW_PHYS */
#endif
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_PARTS_MAX 16

typedef struct fuzz_part {
    const uint8_t *data; /* into the input; an empty string when absent */
    size_t len;
    bool present;
} fuzz_part_t;

/* The index of the allowed name the header at line (len bytes to the input's end) gives,
 * with *header_len the header's length (its newline included); -1 when it is no header. */
static inline int fuzz_header(const uint8_t *line, size_t len, const char *const *names,
                              size_t nnames, size_t *header_len)
{
    if (len < 3 || memcmp(line, "@@ ", 3) != 0)
        return -1;
    const uint8_t *nl = memchr(line, '\n', len);
    size_t name_len = (size_t)((nl != NULL ? nl : line + len) - line) - 3;
    for (size_t i = 0; i < nnames; i++) {
        if (strlen(names[i]) == name_len && memcmp(line + 3, names[i], name_len) == 0) {
            *header_len = 3 + name_len + (nl != NULL);
            return (int)i;
        }
    }
    return -1;
}

/* Cuts data into parts[0..nnames) (nnames <= FUZZ_PARTS_MAX), by the rules above. */
static inline void fuzz_split(const uint8_t *data, size_t size, const char *const *names,
                              size_t nnames, fuzz_part_t *parts)
{
    for (size_t k = 0; k < nnames; k++)
        parts[k] = (fuzz_part_t){(const uint8_t *)"", 0, false};
    int current = 0;
    bool given = false; /* the current file was named by a header */
    size_t start = 0, i = 0;
    for (;;) {
        size_t header_len = 0;
        int next = -1;
        if (i < size && (i == 0 || data[i - 1] == '\n'))
            next = fuzz_header(data + i, size - i, names, nnames, &header_len);
        if (i < size && next < 0) {
            i++;
            continue;
        }
        if (given || i > start)
            parts[current] = (fuzz_part_t){data + start, i - start, true};
        if (i >= size)
            return;
        current = next;
        given = true;
        i += header_len;
        start = i;
    }
}

static char fuzz_tmp_root_path[PATH_MAX];

static inline int fuzz_rm_entry(const char *path, const struct stat *st, int flag,
                                struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

/* Removes everything under the private directory; with itself, the directory too. */
static inline void fuzz_tmp_remove(bool itself)
{
    if (fuzz_tmp_root_path[0] == '\0')
        return;
    nftw(fuzz_tmp_root_path, fuzz_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (!itself)
        mkdir(fuzz_tmp_root_path, 0700);
}

static inline void fuzz_tmp_at_exit(void)
{
    fuzz_tmp_remove(true);
}

/* Removes the directories under base that a fuzzer which died left (named
 * chokepoint-fuzz.PID.*, owned by us, PID not running). */
static inline void fuzz_tmp_remove_stale(const char *base)
{
    DIR *d = opendir(base);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = 0;
        char path[PATH_MAX];
        struct stat st;
        if (sscanf(e->d_name, "chokepoint-fuzz.%ld.", &pid) != 1 || pid <= 0 ||
            !(kill((pid_t)pid, 0) != 0 && errno == ESRCH) ||
            (size_t)snprintf(path, sizeof path, "%s/%s", base, e->d_name) >= sizeof path ||
            lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
            continue;
        snprintf(fuzz_tmp_root_path, sizeof fuzz_tmp_root_path, "%s", path);
        fuzz_tmp_remove(true);
        fuzz_tmp_root_path[0] = '\0';
    }
    closedir(d);
}

/* The private directory, made on first use. Aborts when it cannot be made. */
static inline const char *fuzz_tmp_root(void)
{
    if (fuzz_tmp_root_path[0] != '\0')
        return fuzz_tmp_root_path;
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0')
        base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    fuzz_tmp_remove_stale(base);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/chokepoint-fuzz.%ld.XXXXXX", base, (long)getpid());
    if (mkdtemp(path) == NULL) {
        perror("fuzz: mkdtemp");
        abort();
    }
    snprintf(fuzz_tmp_root_path, sizeof fuzz_tmp_root_path, "%s", path);
    atexit(fuzz_tmp_at_exit);
    return fuzz_tmp_root_path;
}

/* Writes part (when present) as ROOT/rel, making the directories rel names. Aborts when
 * it cannot: the harness's own failure, not a finding in the code under test. */
static inline void fuzz_tmp_write(const char *rel, const fuzz_part_t *part)
{
    if (!part->present)
        return;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", fuzz_tmp_root(), rel);
    for (char *p = path + strlen(fuzz_tmp_root_path) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            perror("fuzz: mkdir");
            abort();
        }
        *p = '/';
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || (part->len > 0 && write(fd, part->data, part->len) != (ssize_t)part->len)) {
        perror("fuzz: write");
        abort();
    }
    close(fd);
}

/* Empties the private directory for the next input. */
static inline void fuzz_tmp_clear(void)
{
    fuzz_tmp_remove(false);
}

#endif
