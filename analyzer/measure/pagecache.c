/* pagecache.c - dropping a file's pages from the page cache before it is read for a
 * measurement (pagecache.h), through common/sys. */
#include "measure/pagecache.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "common/sys.h"

double pagecache_resident_fraction(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1.0;
    double fraction = sys_cache_resident_fraction(fd);
    close(fd);
    return fraction;
}

int pagecache_drop(const char *path, bool *dropped, cp_err_t *err)
{
    *dropped = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot open %s to drop its cache", path);
    bool advised;
    int sync_errno = sys_cache_evict(fd, &advised);
    if (sync_errno != 0) {
        close(fd);
        return cp_err_errno(err, CP_EIO, sync_errno, "fdatasync on %s", path);
    }
    if (advised) {
        double fraction = sys_cache_resident_fraction(fd);
        *dropped = fraction >= 0 && fraction <= 0.01;
    }
    close(fd);
    return CP_OK;
}
