/* outfile.c - result files written into a temporary file beside them and renamed into
 * place on commit, never clobbering an existing file unless forced (outfile.h). */
#include "tables/outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/tempfile.h"

struct outfile {
    char path[PATH_MAX];
    bool force;
    bool to_stdout;
    tempfile_t tmp; /* the temporary file */
    FILE *stream;   /* memstream collecting what is printed */
    char *buffer;
    size_t buffer_len;
    size_t flushed; /* bytes of buffer already in the temporary file */
};

static bool is_stdout(const char *path) { return path == NULL || strcmp(path, "-") == 0; }

int outfile_check(const char *path, bool force, cp_err_t *err)
{
    return is_stdout(path) ? CP_OK : tempfile_check_destination(path, force, err);
}

outfile_t *outfile_open(const char *path, bool force, cp_err_t *err)
{
    if (outfile_check(path, force, err) != CP_OK)
        return NULL;
    outfile_t *f = calloc(1, sizeof *f);
    if (f == NULL) {
        cp_err_set(err, CP_ENOMEM, "out of memory");
        return NULL;
    }
    f->tmp = (tempfile_t)TEMPFILE_INIT;
    f->force = force;
    if (is_stdout(path)) {
        f->to_stdout = true;
        f->stream = stdout;
        return f;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    char dir[PATH_MAX], base[PATH_MAX], prefix[PATH_MAX + 1];
    tempfile_split_path(path, dir, base, NULL); /* outfile_check already accepted path */
    snprintf(prefix, sizeof prefix, ".%s", base);
    int rc = tempfile_open(&f->tmp, dir, prefix, 0, err);
    f->stream = rc == CP_OK ? open_memstream(&f->buffer, &f->buffer_len) : NULL;
    if (f->stream == NULL) {
        if (rc == CP_OK)
            cp_err_set(err, CP_ENOMEM, "out of memory");
        outfile_close(f);
        return NULL;
    }
    return f;
}

FILE *outfile_stream(outfile_t *f) { return f->stream; }

static int write_all(outfile_t *f, const char *p, size_t len, cp_err_t *err)
{
    while (len > 0) {
        ssize_t n = write(f->tmp.fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return cp_err_errno(err, CP_EIO, n < 0 ? errno : EIO, "writing to volume '%s' (%s)",
                                f->tmp.dir, f->tmp.path);
        p += n;
        len -= (size_t)n;
    }
    return CP_OK;
}

int outfile_flush(outfile_t *f, cp_err_t *err)
{
    if (fflush(f->stream) != 0)
        return cp_err_errno(err, CP_EIO, errno, "writing %s", f->to_stdout ? "stdout" : f->path);
    if (f->to_stdout)
        return CP_OK;
    int rc = CP_OK;
    if (f->buffer_len > f->flushed)
        rc = write_all(f, f->buffer + f->flushed, f->buffer_len - f->flushed, err);
    /* Start the memstream over so the buffer does not grow with the file. */
    rewind(f->stream);
    f->flushed = 0;
    return rc;
}

void outfile_keep_partial(outfile_t *f)
{
    if (!f->to_stdout)
        tempfile_keep_on_interrupt(&f->tmp, f->path);
}

int outfile_commit(outfile_t *f, cp_err_t *err)
{
    int rc = outfile_flush(f, err);
    if (rc != CP_OK || f->to_stdout)
        return rc;
    if (fsync(f->tmp.fd) != 0)
        return cp_err_errno(err, CP_EIO, errno, "fsync on volume '%s' (%s)", f->tmp.dir,
                            f->tmp.path);
    return tempfile_commit(&f->tmp, f->path, f->force, err);
}

void outfile_close(outfile_t *f)
{
    if (f == NULL)
        return;
    if (!f->to_stdout && f->stream != NULL)
        fclose(f->stream);
    free(f->buffer);
    tempfile_discard(&f->tmp);
    free(f);
}
