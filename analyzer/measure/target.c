/* target.c - what every target kind shares: the registry of kinds' operations (and the
 * lists of the kinds' forms that messages and --help are made from), the checks
 * of a list of targets (names), building a spec, and the locks that keep two chokepoint
 * processes from measuring one directory at once. */
#include "measure/target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The registry: one line per kind. */
static const target_ops_t *const ops_by_kind[] = {
    [TARGET_DIR] = &target_dir_ops,
    [TARGET_MEM] = &target_mem_ops,
};

const target_ops_t *target_ops_for(const target_spec_t *t) { return ops_by_kind[t->kind]; }

const char *target_place(const target_spec_t *t)
{
    const char *place = target_ops_for(t)->place;
    return place != NULL ? place : t->name;
}

bool target_emulates_disk(const target_spec_t *t) { return t->disk_dir[0] != '\0'; }

double target_pacing_cap(const target_spec_t *t)
{
    return target_emulates_disk(t) ? 0.0 : t->rate_cap_bps;
}

int target_parse_kind(const char *text, target_spec_t *out, cp_err_t *err)
{
    for (size_t k = 0; k < TARGET_KIND_COUNT; k++) {
        if (ops_by_kind[k] == NULL || ops_by_kind[k]->parse == NULL)
            continue;
        int rc = ops_by_kind[k]->parse(text, out, err);
        if (rc != TARGET_NOT_MINE)
            return rc;
    }
    return TARGET_NOT_MINE;
}

/* Appends the strings of pieces, up to a NULL, to the string in buf (cap bytes, cap > 0),
 * truncating at cap. */
static void append(char *buf, size_t cap, const char *const *pieces)
{
    for (size_t len = strlen(buf); *pieces != NULL; len += strlen(buf + len))
        snprintf(buf + len, cap - len, "%s", *pieces++);
}

const char *target_forms_text(char *buf, size_t cap, const char *sep, const char *dir_more)
{
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    for (size_t k = 0; k < TARGET_KIND_COUNT; k++) {
        const target_ops_t *ops = ops_by_kind[k];
        if (ops != NULL)
            append(buf, cap, (const char *const[]){buf[0] != '\0' ? sep : "", ops->form,
                                                   ops->parse == NULL ? dir_more : "", NULL});
    }
    return buf;
}

const char *target_kinds_help(char *buf, size_t cap, bool volume_only)
{
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    for (size_t k = 0; k < TARGET_KIND_COUNT; k++) {
        const target_ops_t *ops = ops_by_kind[k];
        if (ops != NULL && ops->parse != NULL && (ops->has_volume || !volume_only))
            append(buf, cap, (const char *const[]){buf[0] != '\0' ? " '" : "'", ops->form,
                                                   "' ", ops->what, ".", NULL});
    }
    return buf;
}

int target_check(const target_spec_t *t, cp_err_t *err)
{
    return target_ops_for(t)->check(t, err);
}

/* The directory path without its trailing slashes (but "/" itself) into buf. */
static const char *dir_trimmed(const char *dir, char *buf, size_t cap)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    snprintf(buf, cap, "%.*s", (int)len, dir);
    return buf;
}

/* True when a and b are one directory (by device and inode when both exist, else by their
 * spelling) measured alike (the same emulated caps): the same volume twice. Two targets
 * on one directory with different caps emulate two disks, and stay apart. */
static bool same_measurement(const target_spec_t *a, const target_spec_t *b)
{
    if (a->dir[0] == '\0' || b->dir[0] == '\0' || a->rate_cap_bps != b->rate_cap_bps ||
        a->read_cap_bps != b->read_cap_bps)
        return false;
    struct stat sa, sb;
    if (stat(a->dir, &sa) == 0 && stat(b->dir, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ta[sizeof a->dir], tb[sizeof b->dir];
    return strcmp(dir_trimmed(a->dir, ta, sizeof ta), dir_trimmed(b->dir, tb, sizeof tb)) == 0;
}

int target_check_names(const target_spec_t *targets, size_t n, cp_err_t *err)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            if (same_measurement(&targets[j], &targets[i]))
                return cp_err_set(err, CP_EUSAGE, "targets '%s' and '%s' are one directory "
                                  "(%s) measured alike; give it once (an @CAP on one of them "
                                  "emulates another disk there)",
                                  targets[j].name, targets[i].name, targets[j].dir);
            if (strcmp(targets[j].name, targets[i].name) != 0)
                continue;
            /* A kind given by a text of its own names its target itself. */
            if (targets[i].kind == targets[j].kind && target_ops_for(&targets[i])->parse != NULL)
                return cp_err_set(err, CP_EUSAGE, "target '%s' is given twice", targets[i].name);
            return cp_err_set(err, CP_EUSAGE, "two targets are named '%s'; give each a NAME=",
                              targets[i].name);
        }
    return CP_OK;
}

void target_init_mem(target_spec_t *out)
{
    memset(out, 0, sizeof *out);
    strcpy(out->name, CP_MEM_TARGET_NAME);
    out->kind = TARGET_MEM;
}

int target_init_dir(target_spec_t *out, const char *name, const char *dir, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (strlen(name) >= sizeof out->name || strlen(dir) >= sizeof out->dir)
        return cp_err_set(err, CP_EUSAGE, "target '%s': name or directory too long", name);
    strcpy(out->name, name);
    strcpy(out->dir, dir);
    return CP_OK;
}

/* ---- one command per target directory ---- */

struct target_lock {
    dirlock_t lock;
    dev_t dev; /* the directory's identity, so two spellings of it are one */
    ino_t ino;
};

static bool already_locked(const target_locks_t *locks, const struct stat *st)
{
    for (size_t j = 0; j < locks->n; j++)
        if (locks->held[j].dev == st->st_dev && locks->held[j].ino == st->st_ino)
            return true;
    return false;
}

int target_lock_directory(const target_spec_t *t, target_locks_t *locks, cp_err_t *err)
{
    int rc = target_check(t, err);
    struct stat st;
    if (rc == CP_OK && stat(t->dir, &st) != 0)
        rc = cp_err_errno(err, CP_EUSAGE, errno, "target '%s': cannot use directory '%s'",
                          t->name, t->dir);
    if (rc != CP_OK || already_locked(locks, &st))
        return rc;
    struct target_lock *grown = realloc(locks->held, (locks->n + 1) * sizeof *grown);
    if (grown == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    locks->held = grown;
    cp_err_t mine = {0};
    long pid = 0;
    rc = dirlock_take(t->dir, DIRLOCK_TARGET_NAME, true, &grown[locks->n].lock, &pid, &mine);
    if (rc == CP_EUSAGE) {
        char who[32] = "";
        if (pid > 0)
            snprintf(who, sizeof who, " (pid %ld)", pid);
        return cp_err_set(err, rc,
                          "target '%s' (%s) is in use by another chokepoint process%s; wait "
                          "for it or choose another directory",
                          t->name, t->dir, who);
    }
    if (rc != CP_OK)
        return cp_err_set(err, rc, "target '%s': %s", t->name, mine.msg);
    grown[locks->n].dev = st.st_dev;
    grown[locks->n].ino = st.st_ino;
    locks->n++;
    return CP_OK;
}

int target_lock_all(const target_spec_t *targets, size_t n, target_locks_t *locks,
                    cp_err_t *err)
{
    size_t before = locks->n;
    int rc = CP_OK;
    for (size_t i = 0; i < n && rc == CP_OK; i++)
        rc = target_ops_for(&targets[i])->lock(&targets[i], locks, err);
    while (rc != CP_OK && locks->n > before)
        dirlock_release(&locks->held[--locks->n].lock);
    return rc;
}

void target_unlock_all(target_locks_t *locks)
{
    while (locks->n > 0)
        dirlock_release(&locks->held[--locks->n].lock);
    free(locks->held);
    locks->held = NULL;
}
