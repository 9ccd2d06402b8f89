#include "report/outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/sink.h"

struct outfile {
    char path[PATH_MAX];
    bool force;
    bool to_stdout;
    sink_t *sink;   /* the temporary file */
    FILE *stream;   /* memstream collecting what is printed */
    char *buffer;
    size_t buffer_len;
    size_t flushed; /* bytes of buffer already in the temporary file */
};

static bool is_stdout(const char *path) { return path == NULL || strcmp(path, "-") == 0; }

int outfile_check(const char *path, bool force, cp_err_t *err)
{
    return is_stdout(path) ? CP_OK : sink_check_destination(path, force, err);
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
    f->force = force;
    if (is_stdout(path)) {
        f->to_stdout = true;
        f->stream = stdout;
        return f;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    char dir[PATH_MAX], base[PATH_MAX], prefix[PATH_MAX + 1];
    sink_split_path(path, dir, base, NULL); /* outfile_check already accepted path */
    snprintf(prefix, sizeof prefix, ".%s", base);
    sink_options_t opts = {SYNC_FSYNC, 0, NULL};
    f->sink = sink_open_file(dir, prefix, &opts, err);
    f->stream = f->sink ? open_memstream(&f->buffer, &f->buffer_len) : NULL;
    if (f->stream == NULL) {
        if (f->sink != NULL)
            cp_err_set(err, CP_ENOMEM, "out of memory");
        outfile_close(f);
        return NULL;
    }
    return f;
}

FILE *outfile_stream(outfile_t *f) { return f->stream; }

int outfile_flush(outfile_t *f, cp_err_t *err)
{
    if (fflush(f->stream) != 0)
        return cp_err_errno(err, CP_EIO, errno, "writing %s", f->to_stdout ? "stdout" : f->path);
    if (f->to_stdout)
        return CP_OK;
    int rc = CP_OK;
    if (f->buffer_len > f->flushed)
        rc = sink_write(f->sink, f->buffer + f->flushed, f->buffer_len - f->flushed, err);
    /* Start the memstream over so the buffer does not grow with the file. */
    rewind(f->stream);
    f->flushed = 0;
    return rc;
}

void outfile_keep_partial(outfile_t *f)
{
    if (!f->to_stdout)
        sink_keep_on_interrupt(f->sink, f->path);
}

int outfile_commit(outfile_t *f, cp_err_t *err)
{
    int rc = outfile_flush(f, err);
    if (rc != CP_OK || f->to_stdout)
        return rc;
    rc = sink_finish(f->sink, err);
    if (rc == CP_OK)
        rc = sink_commit(f->sink, f->path, f->force, err);
    return rc;
}

void outfile_close(outfile_t *f)
{
    if (f == NULL)
        return;
    if (!f->to_stdout && f->stream != NULL)
        fclose(f->stream);
    free(f->buffer);
    sink_close(f->sink);
    free(f);
}
