/* replay_record.c - the caller's records of the studies it made (replay_record.h). A
 * record is three lines of text:
 *   chokepoint replay record 1
 *   command xxh3-128 <32 hex digits>
 *   path <the results directory's real path>
 * The hash is XXH3-128 over each word of the command line as an 8-byte little-endian
 * length and its bytes, then the cwd the same way (a length of all ones when none). */
#include "study/replay_record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define RECORD_HEADER "chokepoint replay record 1\n"
#define ROOT_STATE_BASE "/var/lib"

/* ---- the state directory ---- */

/* Where the walk starts, and the directories below it, for this caller. */
static int state_base(char *base, size_t cap, const char **below, cp_err_t *err)
{
    if (geteuid() == 0) {
        snprintf(base, cap, "%s", ROOT_STATE_BASE);
        *below = "chokepoint/studies";
        return CP_OK;
    }
    const char *xdg = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    if (xdg != NULL && xdg[0] == '/') {
        snprintf(base, cap, "%s", xdg);
        *below = "chokepoint/studies";
    } else if (home != NULL && home[0] == '/') {
        snprintf(base, cap, "%s", home);
        *below = ".local/state/chokepoint/studies";
    } else {
        return cp_err_set(err, CP_EUSAGE, "neither $XDG_STATE_HOME nor $HOME is an absolute "
                          "path, so there is no state directory of yours");
    }
    if (strlen(base) + strlen(*below) + 2 > cap)
        return cp_err_set(err, CP_EUSAGE, "the state directory's path is too long");
    return CP_OK;
}

const char *replay_record_dir_text(char *buf, size_t cap)
{
    char base[PATH_MAX];
    const char *below = "";
    cp_err_t err = {0};
    if (state_base(base, sizeof base, &below, &err) != CP_OK)
        snprintf(buf, cap, "(none: $HOME is not set)");
    else
        snprintf(buf, cap, "%s/%s", base, below);
    return buf;
}

/* The caller's, writable by nobody else (checked on the open descriptor fd). */
static int check_private(int fd, const char *shown, bool want_dir, cp_err_t *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot inspect %s", shown);
    if (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
        return cp_err_set(err, CP_EUSAGE, "%s is not a %s", shown,
                          want_dir ? "directory" : "regular file");
    if (st.st_uid != geteuid())
        return cp_err_set(err, CP_EUSAGE, "%s is owned by uid %ld, not by you (uid %ld)", shown,
                          (long)st.st_uid, (long)geteuid());
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
        return cp_err_set(err, CP_EUSAGE, "%s is writable by other users", shown);
    return CP_OK;
}

/* The caller's state directory opened by descriptor into *fd (made when create), each
 * directory below the base made 0700 when missing and opened O_NOFOLLOW; shown is its
 * path. CP_EUSAGE / CP_EIO saying why not. */
static int open_state_dir(bool create, int *fd, char *shown, size_t cap, cp_err_t *err)
{
    *fd = -1;
    char base[PATH_MAX];
    const char *below = NULL;
    int rc = state_base(base, sizeof base, &below, err);
    if (rc != CP_OK)
        return rc;
    snprintf(shown, cap, "%s", base);
    int dir = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0 && errno == ENOENT && create && geteuid() != 0 && mkdir(base, 0700) == 0)
        dir = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot open %s", base);
    /* The base is the system's /var/lib for root, else the caller's own home or state
     * directory: only the latter must be the caller's. */
    if (geteuid() != 0 && (rc = check_private(dir, shown, true, err)) != CP_OK) {
        close(dir);
        return rc;
    }
    char name[PATH_MAX];
    for (const char *p = below; rc == CP_OK && *p != '\0';) {
        size_t n = strcspn(p, "/");
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        p += n + (p[n] == '/');
        size_t used = strlen(shown);
        snprintf(shown + used, cap - used, "/%s", name);
        if (create && mkdirat(dir, name, 0700) != 0 && errno != EEXIST)
            rc = cp_err_errno(err, CP_EIO, errno, "cannot create %s", shown);
        int next = rc == CP_OK ? openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                               : -1;
        if (rc == CP_OK && next < 0)
            rc = errno == ELOOP || errno == ENOTDIR
                     ? cp_err_set(err, CP_EUSAGE, "%s is a symlink or not a directory", shown)
                     : cp_err_errno(err, errno == ENOENT ? CP_EUSAGE : CP_EIO, errno,
                                    "cannot open %s", shown);
        close(dir);
        dir = next;
        if (rc == CP_OK)
            rc = check_private(dir, shown, true, err);
    }
    if (rc != CP_OK) {
        if (dir >= 0)
            close(dir);
        return rc;
    }
    *fd = dir;
    return CP_OK;
}

/* ---- the record ---- */

static void hash_word(XXH3_state_t *st, const char *word, size_t len)
{
    unsigned char n[8];
    for (int i = 0; i < 8; i++)
        n[i] = (unsigned char)((uint64_t)len >> (8 * i));
    XXH3_128bits_update(st, n, sizeof n);
    if (word != NULL)
        XXH3_128bits_update(st, word, len);
}

/* The record's text for abs_dir, cmd and cwd into buf: CP_OK, or CP_ENOMEM / CP_EUSAGE. */
static int record_text(const char *abs_dir, const json_t *cmd, const char *cwd, char *buf,
                       size_t cap, cp_err_t *err)
{
    XXH3_state_t *st = XXH3_createState();
    if (st == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    XXH3_128bits_reset(st);
    for (size_t i = 0; i < json_array_size(cmd); i++) {
        const json_t *w = json_array_get(cmd, i);
        const char *s = json_string_value(w);
        hash_word(st, s != NULL ? s : "", s != NULL ? json_string_length(w) : 0);
    }
    if (cwd != NULL)
        hash_word(st, cwd, strlen(cwd));
    else
        hash_word(st, NULL, SIZE_MAX);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    int n = snprintf(buf, cap, RECORD_HEADER "command xxh3-128 %016llx%016llx\npath %s\n",
                     (unsigned long long)h.high64, (unsigned long long)h.low64, abs_dir);
    if (n < 0 || (size_t)n >= cap)
        return cp_err_set(err, CP_EUSAGE, "the results directory's path is too long");
    return CP_OK;
}

/* True when token is 32 lowercase hex digits (so it names a file and nothing else). */
static bool token_ok(const char *token)
{
    return token != NULL && strlen(token) == REPLAY_TOKEN_SIZE - 1 &&
           strspn(token, "0123456789abcdef") == REPLAY_TOKEN_SIZE - 1;
}

int replay_record_write(const char *abs_dir, const json_t *cmd, const char *cwd,
                        char token[REPLAY_TOKEN_SIZE], cp_err_t *err)
{
    token[0] = '\0';
    unsigned char bits[16];
    size_t got = 0;
    while (got < sizeof bits) {
        ssize_t n = getrandom(bits + got, sizeof bits - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return cp_err_errno(err, CP_EIO, errno, "cannot read random bits for a replay "
                                "record");
        got += (size_t)n;
    }
    char text[PATH_MAX + 256], shown[PATH_MAX + 64];
    int rc = record_text(abs_dir, cmd, cwd, text, sizeof text, err);
    int dir = -1;
    if (rc == CP_OK)
        rc = open_state_dir(true, &dir, shown, sizeof shown, err);
    if (rc != CP_OK)
        return rc;
    char name[REPLAY_TOKEN_SIZE];
    for (size_t i = 0; i < sizeof bits; i++)
        snprintf(name + 2 * i, 3, "%02x", bits[i]);
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot create a replay record in %s", shown);
    size_t len = strlen(text);
    if (rc == CP_OK && (write(fd, text, len) != (ssize_t)len || fsync(fd) != 0))
        rc = cp_err_errno(err, CP_EIO, errno, "cannot write a replay record in %s", shown);
    if (fd >= 0 && close(fd) != 0 && rc == CP_OK)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot write a replay record in %s", shown);
    if (rc != CP_OK && fd >= 0)
        unlinkat(dir, name, 0);
    if (rc == CP_OK)
        fsync(dir);
    close(dir);
    if (rc == CP_OK)
        memcpy(token, name, REPLAY_TOKEN_SIZE);
    return rc;
}

const char *replay_record_missing(const char *token, const char *abs_dir, const json_t *cmd,
                                  const char *cwd, char *buf, size_t cap)
{
    const char *lead = "you have no record of making this study here (a meta.json cannot "
                       "prove who wrote it)";
    if (!token_ok(token)) {
        snprintf(buf, cap, "%s: its meta.json holds no replay token", lead);
        return buf;
    }
    char expected[PATH_MAX + 256], shown[PATH_MAX + 64], found[PATH_MAX + 257];
    cp_err_t err = {0};
    int dir = -1;
    if (record_text(abs_dir, cmd, cwd, expected, sizeof expected, &err) != CP_OK ||
        open_state_dir(false, &dir, shown, sizeof shown, &err) != CP_OK) {
        snprintf(buf, cap, "%s: %s", lead, err.msg);
        return buf;
    }
    int fd = openat(dir, token, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    close(dir);
    if (fd < 0) {
        snprintf(buf, cap, "%s: %s holds none for its token", lead, shown);
        return buf;
    }
    ssize_t n = -1;
    if (check_private(fd, "its replay record", false, &err) != CP_OK)
        snprintf(buf, cap, "%s: %s", lead, err.msg);
    else if ((n = read(fd, found, sizeof found - 1)) < 0)
        snprintf(buf, cap, "%s: its replay record in %s cannot be read", lead, shown);
    close(fd);
    if (n < 0)
        return buf;
    found[n] = '\0';
    const char *path_line = strstr(expected, "\npath ") + 1;
    size_t head = (size_t)(path_line - expected);
    if (strncmp(found, expected, head) != 0)
        snprintf(buf, cap, "%s: its command line is not the one your record of it holds "
                 "(edited after it was made)", lead);
    else if (strcmp(found + head, path_line) != 0)
        snprintf(buf, cap, "%s: your record of it names another directory (this is a copy "
                 "or a move)", lead);
    else
        return NULL;
    return buf;
}
