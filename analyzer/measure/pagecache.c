#include "measure/pagecache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static double resident_fraction_fd(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0)
        return -1.0;
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return -1.0;
    long page = sysconf(_SC_PAGESIZE);
    size_t pages = (len + (size_t)page - 1) / (size_t)page;
    unsigned char *vec = malloc(pages);
    double fraction = -1.0;
    if (vec != NULL && mincore(map, len, vec) == 0) {
        size_t resident = 0;
        for (size_t i = 0; i < pages; i++)
            resident += vec[i] & 1u;
        fraction = (double)resident / (double)pages;
    }
    free(vec);
    munmap(map, len);
    return fraction;
}

double pagecache_resident_fraction(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1.0;
    double fraction = resident_fraction_fd(fd);
    close(fd);
    return fraction;
}

int pagecache_drop(const char *path, bool *dropped, cp_err_t *err)
{
    *dropped = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot open %s to drop its cache", path);
    /* Dirty pages cannot be evicted; write them back first. */
    if (fdatasync(fd) != 0 && errno != EINVAL) {
        int saved = errno;
        close(fd);
        return cp_err_errno(err, CP_EIO, saved, "fdatasync on %s", path);
    }
    int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (rc == 0) {
        double fraction = resident_fraction_fd(fd);
        *dropped = fraction >= 0 && fraction <= 0.01;
    }
    close(fd);
    return CP_OK;
}
