/* target_mem.c - the operations of the memory target (TARGET_MEM, CP_MEM_TARGET_NAME): a
 * run's output is counted and discarded (the CPU ceiling), what must be kept to be read
 * back (a decompression's archive) is a file in RAM (sink_open_ram), and there is no
 * directory, volume or lock. */
#include "measure/target.h"

#include <fcntl.h>
#include <string.h>

static int mem_parse(const char *text, target_spec_t *out, cp_err_t *err)
{
    (void)err;
    if (strcmp(text, CP_MEM_TARGET_NAME) != 0)
        return TARGET_NOT_MINE;
    target_init_mem(out);
    return CP_OK;
}

static int mem_check(const target_spec_t *t, cp_err_t *err)
{
    (void)t;
    (void)err;
    return CP_OK;
}

static const char *mem_output_dir(const target_spec_t *t)
{
    (void)t;
    return NULL;
}

static void mem_identity(const target_spec_t *t, char *buf, size_t cap)
{
    (void)t;
    if (cap > 0)
        buf[0] = '\0';
}

static int mem_inspect(const target_spec_t *t, volume_info_t *out, cp_err_t *err)
{
    (void)t;
    (void)out;
    (void)err;
    return CP_OK;
}

static int mem_space(const target_spec_t *t, sys_space_t *out, cp_err_t *err)
{
    (void)t;
    (void)err;
    sys_space_make(0, 0, out);
    return CP_OK;
}

static sink_t *mem_open_output(const target_spec_t *t, const char *prefix,
                               const sink_options_t *opts, cp_err_t *err)
{
    (void)t;
    (void)prefix;
    return sink_open_mem(opts, err);
}

static sink_t *mem_open_kept(const target_spec_t *t, const char *prefix,
                             const sink_options_t *opts, uint64_t ram_limit, cp_err_t *err)
{
    (void)t;
    return sink_open_ram(prefix, opts, ram_limit, err);
}

static int mem_open_read(const target_spec_t *t, const char *path, bool direct)
{
    (void)t;
    (void)direct; /* RAM has no page cache to bypass */
    return open(path, O_RDONLY | O_CLOEXEC);
}

static int mem_still_there(const target_spec_t *t, const volume_info_t *v, cp_err_t *err)
{
    (void)t;
    (void)v;
    (void)err;
    return CP_OK;
}

static bool mem_holds(const target_spec_t *t, const volume_info_t *v, const char *path)
{
    (void)t;
    (void)v;
    (void)path;
    return false;
}

static int mem_lock(const target_spec_t *t, target_locks_t *locks, cp_err_t *err)
{
    (void)t;
    (void)locks;
    (void)err;
    return CP_OK;
}

const target_ops_t target_mem_ops = {
    .kind = TARGET_MEM,
    .has_volume = false,
    .cpu_ceiling = true,
    .in_ram = true,
    .place = "memory",
    .form = CP_MEM_TARGET_NAME,
    .what = "counts the output and discards it: the pure CPU ceiling",
    .parse = mem_parse,
    .check = mem_check,
    .output_dir = mem_output_dir,
    .identity = mem_identity,
    .inspect = mem_inspect,
    .space = mem_space,
    .open_output = mem_open_output,
    .open_kept = mem_open_kept,
    .open_read = mem_open_read,
    .still_there = mem_still_there,
    .holds = mem_holds,
    .lock = mem_lock,
};
