/* datafile.c - a plot data file written beside its final name and renamed into place
 * when complete (datafile.h). */
#include "report/datafile.h"

#include <errno.h>

int datafile_open(datafile_t *d, const owned_dir_t *dir, const char *name, const char *writer,
                  cp_err_t *err)
{
    d->f = NULL;
    d->tmp = (owned_file_t)OWNED_FILE_INIT;
    if ((size_t)snprintf(d->path, sizeof d->path, "%s/%s", dir->path, name) >= sizeof d->path)
        return cp_err_set(err, CP_EIO, "%s/%s: path too long", dir->path, name);
    int rc = owned_file_open(&d->tmp, dir, name, err);
    if (rc != CP_OK)
        return rc;
    d->f = fdopen(d->tmp.fd, "w");
    if (d->f == NULL) {
        rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot open", d->path);
        owned_file_discard(&d->tmp);
        return rc;
    }
    d->tmp.fd = -1; /* the FILE owns it now */
    fprintf(d->f, "# %s - written by chokepoint %s; regenerated on every run\n", name, writer);
    return CP_OK;
}

int datafile_commit(datafile_t *d, cp_err_t *err)
{
    int rc = CP_OK;
    errno = 0;
    if (ferror(d->f) || fflush(d->f) != 0)
        rc = cp_err_errno(err, CP_EIO, errno ? errno : EIO, "%s: cannot write", d->path);
    if (fclose(d->f) != 0 && rc == CP_OK)
        rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot write", d->path);
    d->f = NULL;
    if (rc == CP_OK)
        rc = owned_file_commit(&d->tmp, true, err);
    owned_file_discard(&d->tmp);
    return rc;
}

void datafile_abort(datafile_t *d)
{
    if (d->f != NULL)
        fclose(d->f);
    d->f = NULL;
    owned_file_discard(&d->tmp);
}
