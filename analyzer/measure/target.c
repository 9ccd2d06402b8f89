#include "measure/target.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int target_check(const target_spec_t *t, cp_err_t *err)
{
    if (t->is_mem)
        return CP_OK;
    struct stat st;
    if (stat(t->dir, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "target '%s': cannot use directory '%s'",
                            t->name, t->dir);
    if (!S_ISDIR(st.st_mode))
        return cp_err_set(err, CP_EUSAGE,
                          "target '%s': '%s' is not a directory; expected [NAME=]DIR[@RATE] "
                          "with DIR a writable directory, or mem",
                          t->name, t->dir);
    if (access(t->dir, W_OK | X_OK) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "target '%s': directory '%s' is not writable",
                            t->name, t->dir);
    return CP_OK;
}

void target_init_mem(target_spec_t *out)
{
    memset(out, 0, sizeof *out);
    strcpy(out->name, "mem");
    out->is_mem = true;
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
